"""The results tables of a page as a reader sees them: Streamlit's grids, and the HTML tables of
`ui.tables.wrapped_table` without the escapes that keep their text from being read as Markdown."""

import re

import pandas as pd

_ESCAPED = re.compile(r"\\(.)")


def _unescaped(value):
    return _ESCAPED.sub(r"\1", value) if isinstance(value, str) else value


def results_tables(at) -> list[pd.DataFrame]:
    """Every read-only table on the page (grids first, then HTML tables), as shown."""
    grids = [d.value for d in at.dataframe if not d.proto.editing_mode]
    return grids + [t.value.map(_unescaped).rename(columns=_unescaped, index=_unescaped) for t in at.table]

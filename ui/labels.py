"""Labels and names are data: shown as text, never read as Markdown, LaTeX or HTML, and kept short.

Raters' labels and names come from whoever typed them (``[link](http://x)``, ``**bold**``,
``$x^2$``, ``<b>x</b>``); every page shows them through these helpers.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ui.i18n import catalogue, plural, t
from ui.markdown import literal

# Labels longer than this are cut in sentences and on chart axes; hovering a chart shows them whole.
LABEL_CHARS = 24
AXIS_LABEL_CHARS = 12
# How many names a sentence lists before it says "and N more" (5,000 raters must not fill 9 screens).
NAMES_SHOWN = 6

def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    """``text`` cut to ``limit`` characters with "…" when longer; newlines become spaces."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def md(text: object, limit: int | None = LABEL_CHARS) -> str:
    """``text`` (shortened unless ``limit`` is None) safe inside Markdown: shown as typed."""
    return literal(str(text) if limit is None else shorten(str(text), limit))


def plain(text: object, limit: int | None = LABEL_CHARS) -> str:
    """``text`` for a chart (plotly reads a subset of HTML): tags shown as typed, shortened."""
    text = str(text) if limit is None else shorten(str(text), limit)
    return html.escape(text, quote=False)


def name_list(names: Sequence[object], limit: int = NAMES_SHOWN) -> str:
    """Names for a sentence, Markdown-safe: all of them up to ``limit``, else the first and "and N more"."""
    shown = ", ".join(md(name) for name in names[:limit])
    if len(names) <= limit:
        return shown
    return plural("format.more", len(names) - limit, shown=shown)



def field_name(field: object, key: str) -> str:
    """A data field named as the page names it: the text of ``key`` (e.g. ``"trigger.col_{field}"``, a column
    title of the editor) when the catalogue has it, else the field as it was typed (a key of the user's own
    file), Markdown-safe. Messages then never pass our English identifiers through to a French page."""
    known = key.format(field=field)
    return t(known) if known in catalogue() else md(field, None)

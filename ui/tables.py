"""Results tables as the pages show them: nothing cut or scrolled sideways at 1280 px.

Streamlit's grid (`st.dataframe`) draws on a canvas: its cells never wrap, and a table wider than the
page scrolls sideways, hiding its last columns from a room. `st.table` writes an HTML table whose cells
wrap and whose type follows the page's (larger in presentation mode, `ui.presentation`).
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import streamlit as st

from ui.markdown import literal
from ui.presentation import presenting


def results_table(frame: pd.DataFrame, *, container=None, hide_index: bool | None = None, **grid) -> None:
    """``frame`` in Streamlit's grid, as the page always drew it; in presentation mode, a `wrapped_table`.

    ``grid``: the other arguments of `st.dataframe` (width, height...), used by the grid only.
    """
    if presenting():
        wrapped_table(frame, container=container, hide_index=hide_index)
    else:
        (container or st).dataframe(frame, hide_index=hide_index, **grid)


def wrapped_table(frame: pd.DataFrame, *, container=None, hide_index: bool | None = None) -> None:
    """``frame`` as an HTML table whose cells wrap: for a table wider than the page at 1280 px, in both modes.

    `st.table` reads text cells as Markdown (streamlit 1.67): every text (cells, headers, index) is
    escaped so that names and answers show as typed. An HTML table has no column tooltips: headers say
    what a column holds, or the page's caption does.
    """
    (container or st).table(escaped(frame), hide_index=hide_index)


def escaped(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text (cells, headers, index) escaped for `st.table`, which reads them as Markdown."""
    def text(value):
        return literal(value) if isinstance(value, str) else value

    return frame.map(text).rename(columns=text, index=text)


def prepared_table(frame: pd.DataFrame, wrapped: bool = False) -> pa.Table:
    """``frame`` (index left out) made ready once for many sessions to draw with `draw_prepared`.

    ``wrapped``: for `st.table` (texts escaped), else for Streamlit's grid. The Arrow conversion that
    `st.dataframe` would repeat on every draw is done here, once.
    """
    return pa.Table.from_pandas(escaped(frame) if wrapped else frame, preserve_index=False)


def draw_prepared(table: pa.Table, wrapped: bool = False, **grid) -> None:
    """Draw a `prepared_table`: as a wrapped HTML table, else in the grid (``grid``: `st.dataframe`'s arguments)."""
    if wrapped:
        st.table(table, hide_index=True)
    else:
        st.dataframe(table, hide_index=True, **grid)

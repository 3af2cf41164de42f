"""Presentation mode: the app as a projector shows it (docs/README.md#presentation).

Turned on by the sidebar's switch or by ``?present=1`` in the URL (``?present=0`` turns it off), and
kept in the session: across page and language switches and reruns. While it is on, the URL carries
``?present=1`` so that a reload (a new session) comes back in presentation mode.

On: larger type for the whole page (`PRESENT_STYLE`), figures in the high-contrast template of `ui.figures`,
the sidebar folded at load (app.py), results tables as HTML tables whose cells wrap
(`ui.tables`). Off: the app's usual look (the few tables wider than the page at 1280 px wrap in both modes).
"""

from __future__ import annotations

import streamlit as st

#: Session-state keys: the mode kept for the session (no widget owns it: a widget's value is dropped when
#: the page opens through ``st.switch_page``); the switch's own key; what the switch showed in the last
#: run; the value this session last wrote into the URL.
PRESENT_KEY = "_presenting"
SWITCH_KEY = "_present_switch"
SWITCH_SHOWN = "_present_switch_shown"
URL_WRITTEN = "_present_url_written"
#: The URL's query parameter: "1" on, "0" off.
QUERY_PARAM = "present"
#: The base font size in presentation mode, in CSS pixels (Streamlit's is 16 px; sizes in rem follow it).
BASE_FONT_PX = 20
#: Injected once per run while the mode is on. Streamlit sizes its text in rem, so the root's size scales
#: the whole page; HTML tables' cells, written smaller (0.875 rem), as large as the text around them.
PRESENT_STYLE = (f"<style>html {{ font-size: {BASE_FONT_PX}px; }} "
                 '[data-testid="stTable"] :is(th, td) { font-size: 1rem; } '
                 # Streamlit writes captions, widget labels, buttons, fields, expander titles and inline code at
                 # 0.875 rem (17.5 px here) with its own classes: every text of the main area is 1 rem at least.
                 '[data-testid="stMain"] :is([data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] *, '
                 '[data-testid="stWidgetLabel"], [data-testid="stWidgetLabel"] *, button, button *, input, textarea, '
                 'summary, summary *, [data-baseweb="select"] *, [data-testid="stMarkdownContainer"] :is(p, li, code), '
                 '[data-testid="stMetricLabel"] *, [data-testid="stTable"] *, [data-testid="stCode"] *) '
                 '{ font-size: 1rem !important; }</style>')
#: Injected once per run in both modes; only `st.table` is concerned, which only `ui.tables.wrapped_table`
#: uses: its cells wrap, a word longer than its column's share included, so that the table never grows
#: wider than the page (Streamlit's own rules let the longest word of each column set its width; its rules
#: for the Markdown inside each cell come later in the page, hence the !important).
TABLE_STYLE = """<style>
[data-testid="stTable"] :is(th, td), [data-testid="stTable"] :is(th, td) * { white-space: normal !important;
  overflow-wrap: anywhere !important; }
</style>"""


def presenting() -> bool:
    """Whether this session is in presentation mode (False outside a session that turned it on)."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def follow_presentation() -> bool:
    """Settle this run's mode before anything is drawn, write it back into the URL, and return it.

    A click on the switch wins (its value differs from what it showed in the last run); otherwise a
    ``present`` parameter that this session did not write (typed, or a link opened) decides; otherwise
    the session keeps its mode. A page switch may drop the URL's parameters: they are written again.
    """
    state = st.session_state
    state.setdefault(PRESENT_KEY, False)
    clicked = state.get(SWITCH_KEY)
    asked = st.query_params.get(QUERY_PARAM)
    if clicked is not None and clicked != state.get(SWITCH_SHOWN):
        state[PRESENT_KEY] = bool(clicked)
    elif asked in ("0", "1") and asked != state.get(URL_WRITTEN):
        state[PRESENT_KEY] = asked == "1"
    on = presenting()
    state[SWITCH_KEY] = state[SWITCH_SHOWN] = on
    if on and asked != "1":
        st.query_params[QUERY_PARAM] = "1"
    elif not on and asked is not None:
        del st.query_params[QUERY_PARAM]
    state[URL_WRITTEN] = "1" if on else None
    return on


def presentation_style() -> None:
    """The page's style for this run: wrapping HTML tables, and the larger type of presentation mode."""
    st.html(TABLE_STYLE + (PRESENT_STYLE if presenting() else ""))

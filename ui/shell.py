"""What app.py wraps around every page: leaving Streamlit's legacy pages mode, gathering widget values.

Legacy multipage mode (a trap seen on 1.67).

Because the app has a ``pages/`` folder, Streamlit starts every server in the legacy mode that
runs ``pages/<name>.py`` directly, without ``app.py``, until ``st.navigation`` has run once. A
first visitor who opens ``/persona`` on a fresh server would then get a page with no sidebar
and the folder's file names as navigation. Each page calls `require_navigation()` first: in
that mode it switches the server to ``st.navigation`` and reruns, so ``app.py`` draws the page.
``app.py`` calls it too, before drawing anything: its widgets drawn in that mode get other ids
than in the runs that follow, so the first click on them (the language, say) was lost.
"""

import sys

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.state import get_session_state

from ui.i18n import language


#: The function of Streamlit 1.67 (``runtime/scriptrunner/script_runner.py``, pinned) that runs a page of the
#: legacy ``pages/`` mode: a run with it on its stack did not go through app.py.
_LEGACY_RUNNER = "_mpa_v1"


def _legacy_run() -> bool:
    """Whether this run was started in the legacy ``pages/`` mode (Streamlit's legacy runner on the stack)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == _LEGACY_RUNNER and "streamlit" in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def require_navigation() -> None:
    """Rerun through ``app.py`` if this run was started by the legacy ``pages/`` discovery.

    The process-wide flag alone is not enough: ten sessions that start together on a fresh server all
    enter the legacy mode, the first one clears the flag, and the nine others, already running their
    page, read it cleared and went on without app.py (no sidebar, no membership). Each run therefore
    also checks its own stack (`_legacy_run`). `serve.py` clears the flag before any session starts;
    this covers a server started on app.py directly.
    """
    if PagesManager.uses_pages_directory or _legacy_run():
        PagesManager.uses_pages_directory = False
        st.rerun()


#: How the widgets whose value a script may set send it (not buttons, uploads or chat inputs).
_SETTABLE = {"bool_value", "int_value", "double_value", "string_value", "string_array_value", "double_array_value",
             "int_array_value"}
_PLAIN = (bool, int, float, str)
#: Session-state key: the widget values gathered by `keep_widget_values`, by key.
KEPT_KEY = "_kept_widget_values"
#: Session-state key: the language of the last run.
LANGUAGE_SEEN_KEY = "_language_of_last_run"
#: Session-state key: the keys of plain state (no widget's) kept for the browser with the widgets' values.
BROWSER_KEPT_KEY = "_kept_for_browser"


def keep_for_browser(key: str) -> None:
    """Keep ``st.session_state[key]`` (plain data: an edited table, a choice) across restarts (`ui.browser_state`)."""
    st.session_state.setdefault(BROWSER_KEPT_KEY, set()).add(key)


def keep_widget_values() -> None:
    """Copy the values of this session's keyed widgets into ``st.session_state[KEPT_KEY]``.

    Every keyed widget of the app passes ``persist_state="session"``, so Streamlit itself keeps its value
    when the user opens another page or the page stops on an error above it (docs/README.md#streamlit).
    What is gathered here is what outlives the session: the values `ui.browser_state` stores for the
    browser, and those `resend_widget_values` writes back on a language switch. Only values a script may
    set are gathered (plain values, not buttons, uploads or tables). Keys starting with "_" are left
    alone: `ui.widgets.translated_choice` keys its widgets per language and keeps their choice apart.
    """
    try:
        state = get_session_state()._state  # SessionState (streamlit 1.67, pinned)
        keys = [key for key in st.session_state.keys() if isinstance(key, str) and not key.startswith("_")]
        metadata = {key: state.get_widget_metadata(state.get_widget_id_from_key(key) or "") for key in keys}
    except AttributeError:  # another Streamlit: nothing kept, nothing broken
        return
    kept = st.session_state.setdefault(KEPT_KEY, {})
    for key, meta in metadata.items():
        if meta is None or meta.value_type not in _SETTABLE:
            continue
        value = st.session_state[key]
        items = value if isinstance(value, (list, tuple)) else [value]
        if all(item is None or isinstance(item, _PLAIN) for item in items):
            kept[key] = value


def resend_widget_values() -> None:
    """Write the page's widget values back under their keys, before they are drawn, so that Streamlit sends them.

    For a language switch: a widget whose option names are translated ("1,5" / "1.5") keeps its
    value on the server, but the browser, which no longer finds the old name among the new ones,
    went back to the widget's default and sent it with the next click. A value written this way is
    sent to the browser with the new names. Widgets already drawn in this run (the sidebar's) are skipped.
    """
    keep_widget_values()
    for key, value in st.session_state.get(KEPT_KEY, {}).items():
        if key in st.session_state:
            try:
                st.session_state[key] = value
            except StreamlitAPIException:
                pass


def run_page(page) -> None:
    """Run the page ``st.navigation`` chose, after a language switch writing its widgets' values back first."""
    if st.session_state.get(LANGUAGE_SEEN_KEY, language()) != language():
        resend_widget_values()
    st.session_state[LANGUAGE_SEEN_KEY] = language()
    page.run()

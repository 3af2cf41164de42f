"""Guard for Streamlit's legacy multipage mode (a trap seen on 1.67).

Because the app has a ``pages/`` folder, Streamlit starts every server in the legacy mode that
runs ``pages/<name>.py`` directly, without ``app.py``, until ``st.navigation`` has run once. A
first visitor who opens ``/persona`` on a fresh server would then get a page with no sidebar
and the folder's file names as navigation. Each page calls `require_navigation()` first: in
that mode it switches the server to ``st.navigation`` and reruns, so ``app.py`` draws the page.
``app.py`` calls it too, before drawing anything: its widgets drawn in that mode get other ids
than in the runs that follow, so the first click on them (the language, say) was lost.
"""

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def require_navigation() -> None:
    """Rerun through ``app.py`` if this run was started by the legacy ``pages/`` discovery."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()

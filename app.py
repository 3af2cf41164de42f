"""Entry point: page configuration, the shared sidebar, and navigation over the pages."""

from pathlib import Path

import streamlit as st

from ui.browser_state import restore_browser_state, save_browser_state
from ui.i18n import t
from ui.room.join import restore_membership
from ui.presentation import follow_presentation
from ui.shell import require_navigation, run_page
from ui.sidebar import render_sidebar

# Before any widget: the widgets of a run in the legacy pages mode get other ids, so the first
# click of the first visitor of a fresh server would be lost.
require_navigation()
#: The app's icon, from the project (a Material icon name would make every page view ask a public font server).
ICON = Path(__file__).parent / "static" / "favicon.svg"
st.set_page_config(page_title="LLM eval workshop", page_icon=ICON, layout="wide",
                   initial_sidebar_state="collapsed" if follow_presentation() else "auto")

restore_browser_state()  # after a restart of the server: language, settings, edits (ui/browser_state.py)
save_browser_state()  # what this run's click or typing changed, stored before anything slow runs
restore_membership()  # before the sidebar: its switch "use the room's model" needs the room (ui/room/join.py)
render_sidebar()

pages = [
    st.Page("pages/home.py", title=t("home.nav"), icon=":material/home:", url_path="home", default=True),
    st.Page("pages/persona.py", title=t("persona.nav"), icon=":material/theater_comedy:", url_path="persona"),
    st.Page("pages/trigger.py", title=t("trigger.nav"), icon=":material/bolt:", url_path="trigger"),
    st.Page("pages/kappa.py", title=t("kappa.nav"), icon=":material/handshake:", url_path="kappa"),
    st.Page("pages/judge.py", title=t("judge.nav"), icon=":material/gavel:", url_path="judge"),
    st.Page("pages/gnss.py", title=t("gnss.nav"), icon=":material/satellite_alt:", url_path="gnss"),
    st.Page("pages/room.py", title=t("room.nav"), icon=":material/groups:", url_path="room"),
]
try:
    run_page(st.navigation(pages))
finally:
    save_browser_state()

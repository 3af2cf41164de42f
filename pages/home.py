"""Home page: what the workshop is for, where answers come from, and where to start."""

import streamlit as st

from ui.failures import recording_problem_text
from ui.i18n import plural, t
from ui.models import recordings
from ui.settings import current_settings
from ui.shell import require_navigation

require_navigation()

st.title(t("home.title"))
st.markdown(t("home.intro"))

settings = current_settings()
store = recordings()
columns = st.columns(2)
with columns[0]:
    st.subheader(t("home.pages"))
    st.markdown(t("home.pages_list"))
with columns[1]:
    st.subheader(t("home.sources"))
    if settings.live:
        st.markdown(t("home.live_mode", model=settings.model or "—",
                      url=settings.config.base_url or settings.config.kind))
    else:
        st.markdown(t("home.offline_mode", n=len(store)))
    st.markdown(t("home.badges"))
    if store.problems:
        first = recording_problem_text(store.problems[0])
        st.warning(plural("home.recording_problems", len(store.problems), first=first))

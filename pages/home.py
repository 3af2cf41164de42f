"""Home page: what the workshop is for and where to start."""

import streamlit as st

from ui.i18n import t

st.title(t("home.title"))

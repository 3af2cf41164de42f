"""The shared sidebar (placeholder until the model settings land): language only."""

import streamlit as st

from ui.i18n import DEFAULT_LANGUAGE, LANGUAGE_KEY, LANGUAGES, t


def render_sidebar() -> None:
    """Draw the sidebar widgets shared by every page."""
    with st.sidebar:
        st.session_state.setdefault(LANGUAGE_KEY, DEFAULT_LANGUAGE)
        st.radio(t("common.language"), LANGUAGES, key=LANGUAGE_KEY, horizontal=True,
                 format_func=lambda code: {"fr": "Français", "en": "English"}[code])

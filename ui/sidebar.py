"""The shared sidebar: language, presentation mode, workshop pack, mode, provider, base URL, model, key, concurrency, cache."""

from __future__ import annotations

import streamlit as st

from evallib.llm import MODES
from ui.browser_state import key_asked_again
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGE_KEY, LANGUAGES, language, language_name, t
from ui.failures import failure_text
from ui.models import model_list
from ui.packs import pack_sidebar
from ui.presentation import SWITCH_KEY, presentation_style
from ui.room.endpoint import room_switch
from ui.settings import (BASE_URL_EXAMPLES, Settings, config_problem, current_settings, keep_settings,
                         prefill_from_secrets)
from ui.widgets import translated_choice

PROVIDER_KINDS = ("openai", "anthropic")
#: The language radio's own key (the language itself is kept under ``LANGUAGE_KEY``).
LANGUAGE_RADIO = "_language_radio"
#: The language the radio showed in the last run.
LANGUAGE_SHOWN = "_language_shown"


def render_sidebar() -> Settings:
    """Draw the sidebar widgets shared by every page and return the session's settings."""
    keep_settings()
    _follow_language_radio()
    presentation_style()
    with st.sidebar:
        st.radio(t("common.language"), LANGUAGES, index=LANGUAGES.index(language()),
                 persist_state="session", key=LANGUAGE_RADIO, on_change=_follow_language_radio,
                 horizontal=True, format_func=language_name)
        st.toggle(t("sidebar.present"), persist_state="session", key=SWITCH_KEY, help=t("sidebar.present_help"))
        pack_sidebar()
        if room_switch():  # live through the room's endpoint: nothing to choose nor type
            return current_settings()
        translated_choice(st.radio, t("sidebar.mode"), MODES, {m: t(f"sidebar.mode.{m}") for m in MODES},
                          state_key="llm_mode", help=t("sidebar.mode_help"))
        if st.session_state["llm_mode"] == "offline":
            st.caption(t("sidebar.offline_note"))
        else:
            _live_settings()
    return current_settings()


def _follow_language_radio() -> None:
    """Take the language the user clicked, before any text of this run is looked up.

    The language lives in ``st.session_state[LANGUAGE_KEY]``, which no widget owns: a widget's own
    state is dropped by the browser when a page opens through ``st.switch_page``, and the language
    went back to French with it. The radio follows the language kept (tests and pages may set it);
    a value of the radio that differs from what it showed in the last run is the user's click. The
    radio's ``on_change`` calls it too, so that the click is known (and stored) before the run starts.
    """
    st.session_state.setdefault(LANGUAGE_KEY, DEFAULT_LANGUAGE)
    clicked = st.session_state.get(LANGUAGE_RADIO)
    if clicked in LANGUAGES and clicked != st.session_state.get(LANGUAGE_SHOWN):
        st.session_state[LANGUAGE_KEY] = clicked
    st.session_state[LANGUAGE_RADIO] = st.session_state[LANGUAGE_SHOWN] = language()


def _live_settings() -> None:
    prefill_from_secrets()
    translated_choice(st.selectbox, t("sidebar.kind"), PROVIDER_KINDS,
                      {k: t(f"sidebar.kind.{k}") for k in PROVIDER_KINDS}, state_key="llm_kind",
                      help=t("sidebar.kind_help"))
    kind = st.session_state["llm_kind"]
    # Both kinds: proxies such as LiteLLM serve Anthropic's /v1/messages too.
    st.text_input(t("sidebar.base_url"),
                  persist_state="session", key="llm_base_url", placeholder=BASE_URL_EXAMPLES[kind],
                  help=t("sidebar.base_url_help") if kind == "openai" else t("sidebar.base_url_help_anthropic"))
    problem = config_problem(current_settings())
    if problem in ("sidebar.bad_url", "sidebar.no_base_url"):  # nothing to ask a model list from
        (st.error if problem == "sidebar.bad_url" else st.info)(t(problem))
        return
    st.text_input(t("sidebar.api_key"),
                  persist_state="session", key="llm_api_key", type="password", help=t("sidebar.api_key_help"))
    if key_asked_again():
        st.info(t("sidebar.key_asked_again"))
    settings = current_settings()
    models, problem = model_list(settings)
    if models:
        if st.session_state["llm_model"] not in models:
            st.session_state["llm_model"] = None  # no silent choice: the user picks a model
        st.selectbox(t("sidebar.model"), models, persist_state="session", key="llm_model", index=None,
                     placeholder=t("sidebar.model_placeholder"))
    else:
        st.session_state["llm_model"] = st.session_state["llm_model"] or ""
        st.text_input(t("sidebar.model"), persist_state="session", key="llm_model", help=t("sidebar.model_free_help"))
        if problem:
            st.caption(t("sidebar.models_unavailable", kind=t(f"error_kind.{problem.kind}"),
                         reason=failure_text(problem.result_details())))
    if kind == "anthropic":
        st.toggle(t("sidebar.prefill"), persist_state="session", key="llm_prefill", help=t("sidebar.prefill_help"))
    st.slider(t("sidebar.concurrency"), 1, 32,
              persist_state="session", key="llm_concurrency", help=t("sidebar.concurrency_help"))
    st.number_input(t("sidebar.timeout"), min_value=5, max_value=600, step=5,
                    persist_state="session", key="llm_timeout")
    st.toggle(t("sidebar.use_cache"), persist_state="session", key="llm_use_cache", help=t("sidebar.use_cache_help"))

"""The model settings of this browser session, read from ``st.session_state``.

The sidebar widgets write these keys; pages and tests read them through `current_settings()`. The
API key stays in this session's state: never in a file, a cache key, a recording or a log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from evallib.llm import DEFAULT_CONCURRENCY, ProviderConfig
from evallib.llm.providers import DEFAULT_TIMEOUT_S
from evallib.llm.scheduler import endpoint_limit
from evallib.llm.urls import base_url_problem
from ui.secrets import setting

#: Session-state keys of the sidebar widgets, and their defaults on a fresh session.
DEFAULTS = {
    "llm_mode": "offline",
    "llm_kind": "openai",
    "llm_base_url": "",
    "llm_model": "",
    "llm_api_key": "",
    "llm_concurrency": DEFAULT_CONCURRENCY,
    "llm_use_cache": True,
    "llm_prefill": True,
    "llm_timeout": int(DEFAULT_TIMEOUT_S),
    "llm_use_room": False,  # the joined room's endpoint instead of the fields above (ui.room.endpoint)
}

BASE_URL_EXAMPLES = {
    "openai": "http://localhost:11434/v1",
    "anthropic": "https://api.anthropic.com",
}


@dataclass(frozen=True)
class Settings:
    """What a page needs to build and send requests."""

    mode: str
    config: ProviderConfig = field(repr=False)
    model: str
    concurrency: int
    use_cache: bool
    room: bool = False  # through the joined room's endpoint (`ui.room.endpoint`): nothing typed here

    @property
    def live(self) -> bool:
        return self.mode != "offline"


def init_defaults() -> None:
    """Fill missing keys with defaults; base URL and key come from secrets/environment once."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)


def keep_settings() -> None:
    """Keep the settings through runs where their widgets are not drawn (e.g. while offline).

    Streamlit forgets a widget's value when a run does not draw it; writing each value back before
    the widgets are drawn makes it plain session state, so a base URL typed before going offline is
    still there when going live again. Call it before any sidebar widget exists in the run.
    """
    for key, value in DEFAULTS.items():
        st.session_state[key] = st.session_state.get(key, value)


def prefill_from_secrets() -> None:
    """Take base URL and key from secrets.toml [llm] or the environment, once, when going live.

    Offline mode never reads secrets (docs/README.md#streamlit).
    """
    if st.session_state.get("_llm_secrets_read"):
        return
    st.session_state["_llm_secrets_read"] = True
    kind = st.session_state["llm_kind"]
    if not st.session_state["llm_api_key"]:
        st.session_state["llm_api_key"] = setting(f"{kind}_api_key")
    if kind == "openai" and not st.session_state["llm_base_url"]:
        st.session_state["llm_base_url"] = setting("openai_base_url")


def config_problem(settings: "Settings") -> str:
    """The i18n key of what stops live collection with these settings, or "" when nothing does."""
    if not settings.live:
        return ""
    if settings.config.base_url and base_url_problem(settings.config.base_url):  # user:pass@ is a URL too
        return "sidebar.bad_url"
    if settings.config.kind == "openai" and not settings.config.base_url:  # never the hosted API by default
        return "sidebar.no_base_url"
    if not settings.model:
        return "collect.no_model"
    try:
        endpoint_limit()
    except ValueError:
        return "collect.bad_endpoint_limit"
    return ""


def current_settings() -> Settings:
    """The settings of this session (defaults where the sidebar has not run); live through the joined
    room's endpoint when the session's switch is on (its key read on the server, never kept here)."""
    from ui.room.endpoint import uses_room_endpoint  # the room's pages import this module

    init_defaults()
    state = st.session_state
    room = uses_room_endpoint()
    if room is not None:
        config = ProviderConfig(kind=room.kind, base_url=room.base_url, api_key=room.api_key,
                                timeout_s=float(state["llm_timeout"]), prefill=bool(state["llm_prefill"]))
        return Settings(mode="live", config=config, model=room.model, concurrency=int(state["llm_concurrency"]),
                        use_cache=bool(state["llm_use_cache"]), room=True)
    config = ProviderConfig(
        kind=state["llm_kind"], base_url=state["llm_base_url"].strip(), api_key=state["llm_api_key"].strip(),
        timeout_s=float(state["llm_timeout"]), prefill=bool(state["llm_prefill"]))
    return Settings(mode=state["llm_mode"], config=config, model=(state["llm_model"] or "").strip(),
                    concurrency=int(state["llm_concurrency"]), use_cache=bool(state["llm_use_cache"]))

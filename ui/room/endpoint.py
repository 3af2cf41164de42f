"""The room's endpoint on the pages: the instructor sets it, a joined participant uses it with one switch.

The endpoint and its key live in the room database (`evallib.room.endpoint`). A participant's session
never holds the key in its state: `joined_endpoint` reads it from the database (cached a few seconds
per room in the process) each time `ui.settings.current_settings` builds the session's provider
configuration; the sidebar shows only `RoomEndpoint.public` (the base URL's userinfo redacted).
"""

from __future__ import annotations

import streamlit as st

from evallib.room.endpoint import KINDS, RoomEndpoint, clear_endpoint, room_endpoint, set_endpoint
from evallib.room.storage import RoomStorageError
from ui.i18n import t
from ui.labels import md
from ui.room.messages import error_text
from ui.room.state import instructor_credential, membership, room_store
from ui.widgets import translated_choice

#: Session state: the participant's switch "use the room's model" (kept with the other live settings).
SWITCH = "llm_use_room"
#: Session state: the outcome of the instructor's last click on the endpoint form.
NOTICE = "room.endpoint.notice"


@st.cache_data(ttl=5, show_spinner=False, max_entries=64)
def _endpoint_of(code: str) -> RoomEndpoint | None:
    return room_endpoint(room_store(), code)


def joined_endpoint() -> RoomEndpoint | None:
    """The endpoint of the room this session joined, None when not joined, none is set or the
    database cannot be read (the sidebar then offers the ordinary live settings)."""
    joined = membership()
    if joined is None:
        return None
    try:
        return _endpoint_of(joined.code)
    except RoomStorageError:
        return None


def uses_room_endpoint() -> RoomEndpoint | None:
    """The room's endpoint when this session's switch is on and the room has one, else None."""
    return joined_endpoint() if st.session_state.get(SWITCH) else None


def room_switch() -> bool:
    """The sidebar's "use the room's model" switch (only when the joined room has an endpoint);
    True when it is on: the ordinary mode and live settings are then not drawn."""
    endpoint = joined_endpoint()
    if endpoint is None:
        return False
    st.toggle(t("room_endpoint.switch"), persist_state="session", key=SWITCH, help=t("room_endpoint.switch_help"))
    if not st.session_state.get(SWITCH):
        return False
    shown = endpoint.public()
    st.caption(t("room_endpoint.in_use", model=md(shown["model"], None), url=md(shown["base_url"], None),
                 kind=t(f"sidebar.kind.{shown['kind']}")))
    return True


def _save(code: str) -> None:
    state = st.session_state
    base_url = str(state.get("room.endpoint.base_url", "")).strip()
    try:
        current = room_endpoint(room_store(), code)
        if current is not None and base_url == current.public()["base_url"]:  # shown redacted, left as it was
            base_url = current.base_url
        set_endpoint(room_store(), code, instructor_credential(), kind=state.get("room.endpoint.kind", "openai"),
                     base_url=base_url, model=state.get("room.endpoint.model", ""),
                     api_key=state.get("room.endpoint.key", ""))
    except RoomStorageError as error:
        field = error.details.get("field")
        state[NOTICE] = ("error", t(f"room_endpoint.bad.{field}") if error.code == "bad_endpoint" else error_text(error))
        return
    state["room.endpoint.key"] = ""  # typed once; never drawn again
    _endpoint_of.clear()
    state[NOTICE] = ("success", t("room_endpoint.saved"))


def _clear(code: str) -> None:
    try:
        clear_endpoint(room_store(), code, instructor_credential())
    except RoomStorageError as error:
        st.session_state[NOTICE] = ("error", error_text(error))
        return
    _endpoint_of.clear()
    st.session_state[NOTICE] = ("success", t("room_endpoint.cleared"))


def endpoint_panel(code: str) -> None:
    """The instructor's form: kind, base URL, model and key of the room's endpoint (the key is never shown)."""
    with st.container(border=True, key="room-endpoint"):
        st.markdown(f"**{t('room_endpoint.title')}**")
        st.caption(t("room_endpoint.intro"))
        try:
            current = room_endpoint(room_store(), code)
        except RoomStorageError as error:
            st.error(error_text(error))
            return
        if current is not None:
            shown = current.public()
            st.info(t("room_endpoint.current", model=md(shown["model"], None), url=md(shown["base_url"], None),
                      key=t("room_endpoint.key_set") if shown["has_key"] else t("room_endpoint.no_key")))
            st.session_state.setdefault("room.endpoint.kind", current.kind)
            st.session_state.setdefault("room.endpoint.base_url", shown["base_url"])  # no userinfo sent
            st.session_state.setdefault("room.endpoint.model", current.model)
        translated_choice(st.selectbox, t("sidebar.kind"), KINDS, {k: t(f"sidebar.kind.{k}") for k in KINDS},
                          state_key="room.endpoint.kind")  # its names change with the language
        st.text_input(t("sidebar.base_url"),
                      persist_state="session", key="room.endpoint.base_url", placeholder="http://localhost:11434/v1")
        st.text_input(t("sidebar.model"), persist_state="session", key="room.endpoint.model")
        st.text_input(t("room_endpoint.key"), persist_state="session", key="room.endpoint.key", type="password",
                      help=t("room_endpoint.key_help"))
        columns = st.columns(2)
        columns[0].button(t("room_endpoint.save"), key="room.endpoint.save", type="primary", on_click=_save,
                          args=(code,))
        columns[1].button(t("room_endpoint.clear"), key="room.endpoint.clear", disabled=current is None,
                          on_click=_clear, args=(code,))
        notice = st.session_state.pop(NOTICE, None)
        if notice is not None:
            getattr(st, notice[0])(notice[1])

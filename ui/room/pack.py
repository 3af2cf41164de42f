"""The room's pack on the pages: the instructor sets it in the panel, every joined participant's pages load it.

The pack lives in the room's settings in the database (`evallib.room.room_pack`), so a participant finds it
on join, on reload and after a server restart, with no upload: `room_pack_path` reads it (cached a few
seconds per room in the process) each time `ui.packs.current_pack` asks.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from evallib.packs.loader import PackError
from evallib.room.room_pack import room_pack, set_room_pack
from evallib.room.storage import RoomStorageError
from ui.i18n import t
from ui.labels import md
from ui.room.messages import error_text
from ui.room.state import instructor_credential, membership, room_store

#: Session state: the outcome of the instructor's last click on the pack form.
NOTICE = "room.pack.notice"
#: Session state of the instructor's managed room (ui.room.instructor.MANAGED).
MANAGED = "room.managed"


@st.cache_data(ttl=3, show_spinner=False, max_entries=64)
def _pack_of(code: str) -> dict | None:
    return room_pack(room_store().room(code).settings)


def _room_code() -> str | None:
    joined = membership()
    return joined.code if joined is not None else st.session_state.get(MANAGED)


def room_pack_path() -> str | None:
    """The folder of the pack of the room this session is in (joined, or managed by its instructor), or None."""
    code = _room_code()
    if not code:
        return None
    try:
        chosen = _pack_of(code)
    except RoomStorageError:
        return None
    if chosen is None or not Path(chosen["path"]).exists():
        return None
    return chosen["path"]


def _save(code: str, path: str | None) -> None:
    from ui.packs import open_cached

    try:
        set_room_pack(room_store(), code, instructor_credential(), open_cached(path) if path else None)
    except (RoomStorageError, PackError) as error:
        st.session_state[NOTICE] = ("error", error_text(error) if isinstance(error, RoomStorageError) else str(error))
        return
    _pack_of.clear()
    st.session_state[NOTICE] = ("success", t("packs.room.saved") if path else t("packs.room.cleared"))


def pack_panel(code: str) -> None:
    """The instructor's form: which pack the room's participants get (built-in, ``EVALLIB_PACKS``, uploaded)."""
    from ui.packs import session_options

    with st.container(border=True, key="room-pack"):
        st.markdown(f"**{t('packs.room.title')}**")
        st.caption(t("packs.room.intro"))
        try:
            current = _pack_of(code)
        except RoomStorageError as error:
            st.error(error_text(error))
            return
        if current is None:
            st.caption(t("packs.room.none"))
        else:
            st.info(t("packs.room.current", title=md(current.get("title", current["id"]), None),
                      id=md(current["id"], None), version=md(current["version"], None)))
        options = session_options()
        labels = list(options)
        st.selectbox(t("packs.room.choose"), labels, key="room.pack.choice", persist_state="session")
        columns = st.columns(2)
        columns[0].button(t("packs.room.set"), key="room.pack.set", type="primary", on_click=_save,
                          args=(code, options.get(st.session_state.get("room.pack.choice") or labels[0])))
        columns[1].button(t("packs.room.clear"), key="room.pack.clear", disabled=current is None, on_click=_save,
                          args=(code, None))
        notice = st.session_state.pop(NOTICE, None)
        if notice is not None:
            getattr(st, notice[0])(notice[1])

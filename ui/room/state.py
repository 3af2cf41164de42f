"""The room as one browser session sees it: the process's `RoomStore` and this session's membership.

The store is one per server process (``st.cache_resource``): a failure to open the database is not
cached, so the next click tries again. The membership (room code, participant token, display name) is
per session (``st.session_state``); the participant token never leaves the session and the server.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from evallib.room.instructor import server_instructor_token
from evallib.room.storage import RoomStore, database_url, make_engine

MEMBERSHIP = "room.membership"
INSTRUCTOR = "room.instructor_token"


@st.cache_resource(show_spinner=False)
def room_store() -> RoomStore:
    """The process's store (SQLite file or ``EVALLIB_DATABASE_URL``); raises `RoomStorageError`."""
    return RoomStore(make_engine(database_url()), instructor_token=server_instructor_token().token)


@dataclass(frozen=True)
class Membership:
    """This session's place in a room: the room ``code``, the participant ``token`` and shown ``name``."""

    code: str
    token: str
    name: str


def membership() -> Membership | None:
    """The room this session joined, or None."""
    value = st.session_state.get(MEMBERSHIP)
    return value if isinstance(value, Membership) else None


def set_membership(value: Membership | None) -> None:
    """Join (a `Membership`) or leave (None) for this session."""
    if value is None:
        st.session_state.pop(MEMBERSHIP, None)
    else:
        st.session_state[MEMBERSHIP] = value


def instructor_token_entered() -> str:
    """The instructor token this session typed ("" when none); checked by the store on every action."""
    value = st.session_state.get(INSTRUCTOR, "")
    return value if isinstance(value, str) else ""

"""The room as one browser session sees it: the process's `RoomStore` and this session's membership.

The store is one per server process (``st.cache_resource``): a failure to open the database is not
cached, so the next click tries again. The membership (room code, participant credential, display
name) is per session (``st.session_state``), found again from the browser's key at a new session
(`evallib.room.browsers`); the credential never leaves the server.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from evallib.room.browsers import InstructorBrowser, instructor_standing
from evallib.room.instructor import configured_token
from evallib.room.storage import RoomStorageError, RoomStore, database_url, make_engine
from ui.browser import browser_key

MEMBERSHIP = "room.membership"
INSTRUCTOR = "room.instructor_token"


@st.cache_resource(show_spinner=False)
def room_store() -> RoomStore:
    """The process's store (SQLite file or ``EVALLIB_DATABASE_URL``); raises `RoomStorageError`.

    The instructor token is the configured one, else the one kept in the database; a token drawn now
    (the database had none, e.g. it was down when ``serve.py`` started) is printed in the console.
    """
    configured = configured_token()
    store = RoomStore(make_engine(database_url()), instructor_token=configured.token if configured else None)
    if store.drawn_token:
        from evallib.room.instructor import KeptToken, console_line

        print(console_line(KeptToken("", 0.0, store.drawn_token)), flush=True)
    return store


@dataclass(frozen=True)
class Membership:
    """This session's place in a room: the room ``code``, the participant ``token`` and shown ``name``."""

    code: str
    token: object  # a participant token (str) or `evallib.room.browsers.BrowserMember`
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


def instructor_credential():
    """What proves this session the instructor: the token typed here, else this browser's standing
    (`evallib.room.browsers.InstructorBrowser`), else "". The store checks it on every action."""
    typed = instructor_token_entered()
    if typed:
        return typed
    key = browser_key()
    try:
        if key and instructor_standing(room_store(), key)[0]:
            return InstructorBrowser(key)
    except RoomStorageError:
        pass
    return ""

"""Joining and leaving a room, and finding the participant again after a reload of the page.

Within one browser session the membership lives in ``st.session_state`` (`ui.room.state`) and
survives page switches. A reload starts a new session; the browser must then prove it is the same
participant. Choice: a **cookie** (`COOKIE`, ``<room code>.<participant token>``), written by a
one-line script that runs in the page itself (``st.html(..., unsafe_allow_javascript=True)``, same
origin, ``SameSite=Strict``, `COOKIE_HOURS` hours) and read back by the server from the new
session's first request (``st.context.cookies``). Why not the alternatives:

- the token in the URL (``?p=...``) would show on the address bar, and the participant's screen may
  be projected or photographed; it would also be lost on every page switch of the sidebar;
- the browser's local storage cannot be read by the server without a component round trip.

The cookie is never drawn on the page; the token it holds gives only what the participant already
has (submit and rate in that room, under that name); only its hash is in the database. Leaving the
room erases it (``max-age=0``), marks the session so that it is not restored again, and keeps the
value under `FORMER_COOKIE`: joining the same room again from this browser, reloaded or not, takes
the same participant back (name, attempts and ratings) instead of making a new one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import streamlit as st

from evallib.errors import InputError
from evallib.room.storage import RoomStorageError, RoomStore, clean_name, normalise_code
from ui.i18n import t
from ui.labels import md
from ui.room.state import Membership, membership, room_store, set_membership

COOKIE = "evallib_room"
#: Written on leaving (and the room cookie erased): joining the same room again from this browser, even
#: after a reload, takes the same participant back instead of making a new one.
FORMER_COOKIE = "evallib_room_left"
COOKIE_HOURS = 12
#: A cookie value as written by `cookie_script`: room code, a dot, a URL-safe token.
_VALUE = re.compile(r"^([A-Z0-9]{4,16})\.([A-Za-z0-9_\-]{16,100})$")
CODE_KEY = "room.join_code"
NAME_KEY = "room.join_name"
LEFT_KEY = "room.left"          # this session left a room: never restore it from the cookie
TRIED_KEY = "room.cookie_tried"  # the cookie was checked once in this session
NOTICE_KEY = "room.join_notice"
FORMER_KEY = "room.former"      # the membership this session left: joining the same room again takes it back


def cookie_value(member: Membership) -> str:
    return f"{member.code}.{member.token}"


def parse_cookie(value: str | None) -> tuple[str, str] | None:
    """(room code, token) from the cookie's value, or None when absent or not of our making.

    >>> parse_cookie("ACD3E7.abcdefghijklmnop_-12")
    ('ACD3E7', 'abcdefghijklmnop_-12')
    >>> parse_cookie("ACD3E7;alert(1)") is None
    True
    """
    found = _VALUE.match(value or "")
    return (found.group(1), found.group(2)) if found else None


def cookie_script(value: str | None, name: str = COOKIE) -> str:
    """The script that writes (``value``) or erases (None) the cookie ``name``; ``value`` is checked by `parse_cookie`."""
    if value is None:
        return f'<script>document.cookie = "{name}=; path=/; max-age=0; samesite=strict";</script>'
    if parse_cookie(value) is None:
        raise ValueError("not a room cookie value")
    return (f'<script>document.cookie = "{name}={value}; path=/; max-age={COOKIE_HOURS * 3600}; '
            f'samesite=strict";</script>')


def membership_from_cookie(cookies: Mapping[str, str], store: RoomStore) -> Membership | None:
    """The membership the cookie proves (`RoomStore.rejoin`), or None (no cookie, unknown participant).

    Raises `RoomStorageError` ``unavailable`` when the database cannot answer (try again later).
    """
    parsed = parse_cookie(cookies.get(COOKIE))
    if parsed is None:
        return None
    participant = store.rejoin(*parsed)
    return None if participant is None else Membership(participant.room_code, participant.token, participant.name)


def _cookies() -> Mapping[str, str]:
    """This browser's room cookies (``COOKIE``, ``FORMER_COOKIE``) as sent with the session's first request."""
    found = {}
    for name in (COOKIE, FORMER_COOKIE):
        try:
            value = st.context.cookies.get(name)
        except Exception:  # no browser request behind this run (a script run outside a server)
            return {}
        if isinstance(value, str):
            found[name] = value
    return found


def _former() -> tuple[str, str] | None:
    """(room code, token) of the room this browser left: in this session, else from `FORMER_COOKIE`."""
    former = st.session_state.get(FORMER_KEY)
    if isinstance(former, Membership):
        return former.code, former.token
    return parse_cookie(_cookies().get(FORMER_COOKIE))


def restore_membership() -> None:
    """Give this session back the membership its browser's cookie proves, once (called by app.py on every page).

    Nothing happens without the cookie, after leaving, or once tried; a database that does not answer
    is tried again at the next run, silently (the Room page says when the database is down).
    """
    if membership() is not None or st.session_state.get(LEFT_KEY) or st.session_state.get(TRIED_KEY):
        return
    cookies = _cookies()
    if COOKIE not in cookies:
        return
    try:
        found = membership_from_cookie(cookies, room_store())
    except (RoomStorageError, InputError):
        return
    st.session_state[TRIED_KEY] = True
    if found is not None:
        set_membership(found)


def _join() -> None:
    """Join the room typed; the room this session left is joined back as the same participant."""
    code, typed = st.session_state.get(CODE_KEY, ""), st.session_state.get(NAME_KEY, "")
    former = _former()
    try:
        store = room_store()
        back = store.rejoin(*former) if former is not None and former[0] == normalise_code(code) else None
        participant = back or store.join(code, typed)
    except (RoomStorageError, InputError) as error:
        from ui.room.messages import error_text  # the room's error texts load evallib's analyses (scipy)

        st.session_state[NOTICE_KEY] = ("error", error_text(error))
        return
    if back is not None:
        set_membership(Membership(back.room_code, back.token, back.name))
        st.session_state.pop(LEFT_KEY, None)
        st.session_state[NOTICE_KEY] = ("success", t("room.join.back", code=back.room_code, name=md(back.name, None)))
        return
    set_membership(Membership(participant.room_code, participant.token, participant.name))
    st.session_state.pop(LEFT_KEY, None)
    name = md(participant.name, None)
    notice = t("room.join.joined", code=participant.room_code, name=name) if participant.name == clean_name(typed) \
        else t("room.join.renamed", code=participant.room_code, typed=md(clean_name(typed), None), name=name)
    st.session_state[NOTICE_KEY] = ("success", notice)


def _leave() -> None:
    member = membership()
    set_membership(None)
    st.session_state[LEFT_KEY] = True
    if member is not None:
        st.session_state[FORMER_KEY] = member
        st.session_state[NOTICE_KEY] = ("info", t("room.join.left", code=member.code))


def join_panel() -> Membership | None:
    """The join form (code prefilled from ``?code=``) or, once joined, who this browser is and a Leave button."""
    wanted = normalise_code(st.query_params.get("code", ""))
    if wanted and CODE_KEY not in st.session_state:
        st.session_state[CODE_KEY] = wanted
    member = membership()
    if member is not None:
        try:
            room = room_store().room(member.code)
            title = md(room.title, 60) if room.title else t("room.join.untitled")
        except RoomStorageError as error:
            if error.code != "unknown_room":
                title = t("room.join.untitled")
            else:
                set_membership(None)
                st.warning(t("room.join.gone", code=member.code))
                member = None
        except InputError:
            title = t("room.join.untitled")
    notice = st.session_state.pop(NOTICE_KEY, None)
    if notice is not None:
        getattr(st, notice[0])(notice[1])
    if member is not None:
        st.markdown(t("room.join.member", code=member.code, title=title, name=md(member.name, None)))
        st.html(cookie_script(cookie_value(member)), unsafe_allow_javascript=True)
        st.caption(t("room.join.next"))
        st.button(t("room.join.leave"), key="room.leave", on_click=_leave)
        return member
    former = st.session_state.get(FORMER_KEY)
    if st.session_state.get(LEFT_KEY) and isinstance(former, Membership):
        st.html(cookie_script(None) + cookie_script(cookie_value(former), FORMER_COOKIE), unsafe_allow_javascript=True)
    st.subheader(t("room.join.title"))
    columns = st.columns([1, 2, 1], vertical_alignment="bottom")
    columns[0].text_input(t("room.join.code"), key=CODE_KEY, max_chars=20)
    columns[1].text_input(t("room.join.name"), key=NAME_KEY, max_chars=60)
    columns[2].button(t("room.join.button"), key="room.join", on_click=_join, type="primary")
    return None

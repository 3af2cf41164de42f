"""Joining and leaving a room, and finding the participant again in a new session of the same browser.

Within one browser session the membership lives in ``st.session_state`` (`ui.room.state`) and
survives page switches. A reload, a second tab or a restart of the server starts a new session: the
server finds the membership again from the browser's key (`ui.browser.browser_key`, the hash of the
``HttpOnly`` cookie ``serve.py`` sets), kept in the database (`evallib.room.browsers`). No script of
the page writes a cookie; the participant's credential never leaves the server. Leaving keeps the
row: joining the same room again from this browser takes the same participant back (name, attempts
and ratings). A participant the instructor removed finds the join form with a notice, and may join
again under a new name.

Without a browser key (AppTest, a browser refusing cookies) the membership lasts the session only,
with a participant token drawn by the store.
"""

from __future__ import annotations

import streamlit as st

from evallib.errors import InputError
from evallib.room.addresses import address_reading
from evallib.room.browsers import join_from_browser, join_reading, leave_from_browser, membership_of, removed_from
from evallib.room.storage import RoomStorageError, RoomStore, clean_name, normalise_code
from ui.browser import browser_key
from ui.i18n import integer, t
from ui.labels import md
from ui.room.qr import network_ip
from ui.room.state import Membership, membership, room_store, set_membership

CODE_KEY = "room.join_code"
#: The ``?code=`` this session last put in the code field (a later link's code replaces what was kept).
LINK_KEY = "_room.join_code_from_link"
NAME_KEY = "room.join_name"
LEFT_KEY = "room.left"          # this session left a room: never restore it from the browser's rows
TRIED_KEY = "room.browser_tried"  # the browser's membership was looked up once in this session
NOTICE_KEY = "room.join_notice"
FORMER_KEY = "room.former"      # the membership this session left (no browser key): joining it again takes it back


def restore_membership() -> None:
    """Give this session the membership its browser holds, once (called by app.py on every page).

    Nothing happens without a browser key, after leaving, or once tried; a database that does not
    answer is tried again at the next run, silently (the Room page says when the database is down).
    A browser removed from its room gets the notice that says so.
    """
    if membership() is not None or st.session_state.get(LEFT_KEY) or st.session_state.get(TRIED_KEY):
        return
    key = browser_key()
    if key is None:
        return
    try:
        store = room_store()
        found, gone = membership_of(store, key), removed_from(store, key)
    except (RoomStorageError, InputError):
        return
    st.session_state[TRIED_KEY] = True
    if found is not None:
        set_membership(Membership(found.room_code, found.token, found.name))
    elif gone is not None:
        st.session_state[NOTICE_KEY] = ("warning", t("room.join.removed", code=gone))


def _join() -> None:
    """Join the room typed; the room this browser (or session) left is joined back as the same participant."""
    code, typed = st.session_state.get(CODE_KEY, ""), st.session_state.get(NAME_KEY, "")
    key = browser_key()
    former = st.session_state.get(FORMER_KEY)
    try:
        store = room_store()
        if key is not None:
            participant, is_back = join_from_browser(store, key, code, typed)
        else:
            back = store.rejoin(former.code, former.token) \
                if isinstance(former, Membership) and former.code == normalise_code(code) else None
            participant, is_back = back or store.join(code, typed), back is not None
    except (RoomStorageError, InputError) as error:
        from ui.room.messages import error_text  # the room's error texts load evallib's analyses (scipy)

        st.session_state[NOTICE_KEY] = ("error", error_text(error))
        return
    set_membership(Membership(participant.room_code, participant.token, participant.name))
    st.session_state.pop(LEFT_KEY, None)
    reading = join_reading(typed, participant.name, is_back)
    values = reading.values
    notice = t(f"room.join.{reading.code}", code=participant.room_code, name=md(participant.name, None),
               typed=md(clean_name(typed), None),
               limit=integer(values["limit"]), typed_length=integer(values["typed_length"]))
    st.session_state[NOTICE_KEY] = ("warning" if reading.code.startswith("shortened") else "success", notice)


def _leave() -> None:
    member = membership()
    set_membership(None)
    st.session_state[LEFT_KEY] = True
    key = browser_key()
    if key is not None:
        try:
            leave_from_browser(room_store(), key)
        except RoomStorageError:
            pass  # the next session of this browser may find it a member again: it can leave then
    if member is not None:
        st.session_state[FORMER_KEY] = member
        st.session_state[NOTICE_KEY] = ("info", t("room.join.left", code=member.code))


def still_member(member: Membership, store: RoomStore | None = None) -> bool:
    """Whether the room still has this session's ``member``; when not (the instructor removed them, or
    they left from another tab), the session leaves it and the page says why. Raises `RoomStorageError`
    as `RoomStore.rejoin` (the callers say when the database is down)."""
    store = store or room_store()
    if store.rejoin(member.code, member.token) is not None:
        return True
    key = browser_key()
    gone = removed_from(store, key) if key else member.code
    set_membership(None)
    st.session_state[LEFT_KEY] = True
    st.warning(t("room.join.removed", code=gone)) if gone else st.info(t("room.join.left", code=member.code))
    return False


def join_panel() -> Membership | None:
    """The join form (code prefilled from ``?code=``) or, once joined, who this browser is and a Leave button."""
    wanted = normalise_code(st.query_params.get("code", ""))
    if wanted and st.session_state.get(LINK_KEY) != wanted:  # a new link wins over a code kept from before
        st.session_state[CODE_KEY] = st.session_state[LINK_KEY] = wanted
    member = membership()
    closed = False
    if member is not None:
        try:
            store = room_store()
            room = store.room(member.code)
            closed = room.closed
            title = md(room.title, 60) if room.title else t("room.join.untitled")
            if not still_member(member, store):
                member = None
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
        if closed:  # said before any click: its pages' buttons are disabled too
            st.info(t("room.join.member_closed", code=member.code))
        st.caption(t("room.join.next"))
        st.button(t("room.join.leave"), key="room.leave", on_click=_leave)
        return member
    st.subheader(t("room.join.title"))
    _other_address_note()
    columns = st.columns([1, 2, 1], vertical_alignment="bottom")
    columns[0].text_input(t("room.join.code"), persist_state="session", key=CODE_KEY, max_chars=20)
    columns[1].text_input(t("room.join.name"), persist_state="session", key=NAME_KEY, max_chars=60)
    closed = _closed_room(st.session_state.get(CODE_KEY, ""))
    columns[2].button(t("room.join.button"), key="room.join", on_click=_join, type="primary", disabled=bool(closed))
    if closed:
        st.info(t("room.join.closed", code=closed))
    return None


def page_address() -> tuple[str | None, str | None]:
    """(the URL this browser opened, the ``Host`` header it sent): None each outside a server (AppTest)."""
    try:
        return st.context.url, st.context.headers.get("host")
    except Exception:  # noqa: BLE001 - no request behind this run: no address to compare
        return None, None


def _other_address_note() -> None:
    """Above the join form: this browser opened the app at another address than the room's link gives
    (`evallib.room.addresses.address_reading`), where its cookie, and so its membership, may be."""
    page_url, host = page_address()
    reading = address_reading(page_url, host, network_ip(), normalise_code(st.session_state.get(CODE_KEY, "")))
    if reading.code == "other":
        st.info(t("room.join.other_address", address=md(reading.values["address"], None),
                  url=md(reading.values["url"], None)))


def _closed_room(typed: str) -> str:
    """The code typed when it names a closed room (the Join button is then disabled), else ""."""
    try:
        code = normalise_code(typed)
        return code if code and room_store().room(code).closed else ""
    except (RoomStorageError, InputError):  # unknown, malformed or unreadable: the click says why
        return ""

"""The kappa rated by the room, on the kappa page: each participant labels the instructor's items.

Shown only when this session joined a room whose settings hold ``"rating"``:
``{"labels": [...], "items": [{"id": str, "text": str}, ...]}`` (set on the Room page). Each item is
shown as text (its fenced code blocks as code) with a radio of the labels, disabled with the reason
once the room is closed; every answer is stored at once (`RoomStore.rate`, which
replaces an earlier label of the same item). A rating the room refuses is kept in the session and
sent again on the next click, before anything else, so nothing is lost. The count of items this
participant has rated is read back from the room. No model is involved: it works fully offline.

The box is a fragment: a rating reruns the box only, not the kappa page's computations.
"""

from __future__ import annotations

import streamlit as st

from evallib.room.rating_set import room_rating, text_blocks
from evallib.room.storage import RoomStorageError
from ui.room.submit import FINAL
from ui.i18n import integer, t
from ui.labels import md
from ui.room.messages import error_text
from ui.room.state import Membership, membership, room_store

#: Session state: (room code, item id) -> label given but not stored yet.
PENDING = "room.rating.pending"
#: Session state: the last refusal (a `RoomStorageError`) while ratings are kept.
FAILURE = "room.rating.failure"
#: Session state: (room code, settings) as last read, shown while the room cannot be read.
SEEN = "room.rating.seen"


def radio_key(code: str, item_id: str) -> str:
    return f"room_rate_{code}_{item_id}"


def _flush(joined: Membership) -> None:
    """Send every kept rating of this room in the order given; stop at the first refusal (kept, unless final).

    The last refusal stays in the session until a kept rating is stored, so that the page can say it."""
    pending = st.session_state.setdefault(PENDING, {})
    sent = False
    for (code, item_id), label in list(pending.items()):
        if code != joined.code:
            continue
        try:
            room_store().rate(code, joined.token, item_id, label)
        except RoomStorageError as error:
            st.session_state[FAILURE] = error
            if error.code in FINAL:  # no later click can store them: the message says so, nothing is kept
                for kept in [k for k in pending if k[0] == code]:
                    pending.pop(kept)
            return
        pending.pop((code, item_id), None)
        sent = True
    if sent:
        st.session_state.pop(FAILURE, None)


def _rate(joined: Membership, item_id: str) -> None:
    """A radio's callback: keep the label, then send it with any kept before it."""
    label = st.session_state.get(radio_key(joined.code, item_id))
    if label is not None:
        st.session_state.setdefault(PENDING, {})[(joined.code, item_id)] = label
    _flush(joined)


def show_item_text(text: str) -> None:
    """An item's text: prose as typed, each fenced block as code (monospace, no fences, long lines wrapped
    so that a phone shows them whole), `evallib.room.rating_set.text_blocks`."""
    for block in text_blocks(text):
        if block.kind == "code":
            st.code(block.content, language=block.language.lower() or None, wrap_lines=True)
        else:
            st.text(block.content)


def _kept(code: str) -> int:
    return sum(c == code for c, _ in st.session_state.get(PENDING, {}))


@st.fragment
def rating_form() -> None:
    """The room's items to rate (nothing when this session has not joined a room)."""
    joined = membership()
    if joined is None:
        return
    _flush(joined)  # a click anywhere is the next try of what the room refused
    seen = st.session_state.get(SEEN)
    try:
        store = room_store()
        room = store.room(joined.code)
        settings, closed = room.settings, room.closed
        me = store.rejoin(joined.code, joined.token)
        mine = {r.item_id: r.label for r in store.ratings(joined.code) if me is not None and r.participant_id == me.id}
    except RoomStorageError as error:
        st.warning(f"{error_text(error)} {t('room_submit.rating_unreadable')}")
        if seen is None or seen[0] != joined.code:
            return
        settings, mine, closed = seen[1], None, False  # the items as last read stay on screen; the count waits
    st.session_state[SEEN] = (joined.code, settings)
    rating = room_rating(settings) or {"labels": [], "items": []}  # None: no items, or not of the expected shape
    labels, items = rating["labels"], rating["items"]
    st.subheader(t("room_submit.rating_title"))
    if not labels or not items:
        st.caption(t("room_submit.rating_none", code=joined.code))
        return
    st.markdown(t("room_submit.rating_intro", code=joined.code))
    if closed:  # said before any click: the radios are disabled
        st.info(t("room_submit.rating_closed", code=joined.code))
    for i, item in enumerate(items, start=1):
        item_id = str(item["id"])
        key = radio_key(joined.code, item_id)
        if key not in st.session_state and mine and mine.get(item_id) in labels:
            st.session_state[key] = mine[item_id]  # rated earlier (another visit, another page)
        with st.container(border=True):
            st.markdown(f"**{t('room_submit.rating_item', i=integer(i), id=md(item_id))}**")
            show_item_text(item["text"])
            st.radio(t("room_submit.rating_label"), labels, index=None,
                     persist_state="session", key=key, horizontal=True, disabled=closed,
                     format_func=lambda label: md(label, None), on_change=_rate, args=(joined, item_id))
    if mine is not None:
        rated = sum(str(item["id"]) in mine for item in items)
        st.caption(t("room_submit.rating_count", rated=integer(rated), total=integer(len(items))))
    failure = st.session_state.get(FAILURE)
    if isinstance(failure, RoomStorageError) and failure.code in FINAL and failure.details.get("room") == joined.code:
        st.warning(f"{error_text(failure)} {t('room_submit.rating_final')}")
    elif _kept(joined.code):
        said = error_text(failure) if isinstance(failure, Exception) else ""
        st.warning(f"{said} {t('room_submit.rating_pending', n=integer(_kept(joined.code)))}".strip())

"""A participant's submissions as the room's database holds them, under the "Submit to the room" button.

What became of the last submission of the page's kind (`evallib.room.submissions.last_submission`:
received as #N, being received, or not received: submit again), then every attempt of this participant
(number, time, kind, whether it counts on the board: `evallib.room.history.history`) and the "count this
one" choice for the page's kind (`evallib.room.history.mark_final`). Read from the database on every run,
so a reload or a restarted server shows the same. A page reloaded while this process is still storing
its submission says "being received…" and waits for it, then confirms it.
"""

from __future__ import annotations

import time

import streamlit as st

from evallib.room.history import HistoryRow, history, mark_final
from evallib.room.storage import RoomStorageError
from evallib.room.submissions import last_submission
from ui.i18n import clock, integer, t
from ui.room.messages import error_text
from ui.room.state import Membership, room_store

POLL_SECONDS = 0.5
#: Longest wait, in seconds, for a submission this process is still storing (a reload during a submission).
WAIT_SECONDS = 30
LATEST = 0  # the "count this one" option meaning "the latest, automatically"


def kind_label(kind: str, variant: dict | None) -> str:
    """An attempt's kind as listed, with the exercise it comes from ("persona · rewrite of X")."""
    short = t(f"room.kind_short.{kind}")
    if variant and variant.get("exercise") == "rewrite":
        return t("room.variant.rewrite", kind=short, assistant=str(variant.get("assistant", "")))
    return short


def _status(kind: str, joined: Membership, reading) -> None:
    """The last submission's fate; while this process is still storing it, wait for it (up to
    `WAIT_SECONDS`, polling every `POLL_SECONDS`) with "being received…" shown, then say what became of it."""
    shown = st.empty() if reading.code == "in_flight" else st  # a placeholder only to replace "being received…"
    deadline = time.monotonic() + WAIT_SECONDS
    while reading.code == "in_flight" and time.monotonic() < deadline:
        shown.info(t("room_submit.status.in_flight", time=clock(reading.values["at"], seconds=False)))
        time.sleep(POLL_SECONDS)
        try:
            reading = last_submission(room_store(), joined.code, joined.token, kind)
        except RoomStorageError as error:
            shown.warning(error_text(error))
            return
    values = {"time": clock(reading.values["at"], seconds=False)} if "at" in reading.values else {}
    if reading.code == "stored":
        shown.success(t("room_submit.status.stored", number=integer(reading.values["number"]), **values))
    elif reading.code == "in_flight":
        shown.info(t("room_submit.status.in_flight", **values))
    elif reading.code == "missing":
        shown.warning(t("room_submit.status.missing", **values))


def _board_state(row: HistoryRow) -> str:
    if row.hidden:
        return t("room_submit.history.hidden")
    if row.counts:
        return (t("room_submit.history.final") if row.final else t("room_submit.history.counts"))
    return t("room_submit.history.older")


def _choose(kind: str, joined: Membership, key: str) -> None:
    chosen = st.session_state.get(key, LATEST)
    try:
        mark_final(room_store(), joined.code, joined.token, kind, None if chosen == LATEST else int(chosen))
    except RoomStorageError as error:
        st.session_state[f"{key}.error"] = error


def stored_panel(kind: str, joined: Membership, *, said: bool) -> None:
    """The last submission's fate (unless ``said``: this session already showed its click's outcome), the
    participant's attempts and the "count this one" choice for ``kind``."""
    if not said:
        try:
            _status(kind, joined, last_submission(room_store(), joined.code, joined.token, kind))
        except RoomStorageError as error:
            st.caption(error_text(error))
    try:
        rows = history(room_store(), joined.code, joined.token)
    except RoomStorageError as error:
        st.caption(error_text(error))
        return
    for row in rows:
        if row.hidden and row.kind == kind:  # told on their own page, not only in the table below
            st.warning(t("room_submit.history.hidden_notice", number=integer(row.number)))
    with st.expander(t("room_submit.history.title") + f" ({integer(len(rows))})", expanded=bool(rows)):
        if not rows:
            st.caption(t("room_submit.history.none"))
            return
        st.table([{t("room_submit.history.number"): integer(r.number), t("room_submit.history.time"): clock(r.created_at, seconds=False),
                   t("room_submit.history.kind"): kind_label(r.kind, r.variant),
                   t("room_submit.history.board"): _board_state(r)} for r in rows])
        mine = [r for r in rows if r.kind == kind and not r.hidden]
        if len(mine) < 2:
            return
        labels = {LATEST: t("room_submit.final.latest")}
        labels.update({r.attempt_id: t("room_submit.final.option", number=integer(r.number), time=clock(r.created_at, seconds=False))
                       for r in mine})
        key = f"room_submit_final_{kind}"
        final = next((r.attempt_id for r in mine if r.final), LATEST)
        if st.session_state.get(key) not in labels:
            st.session_state[key] = final
        st.selectbox(t("room_submit.final.label", kind=t(f"room.kind_short.{kind}")), list(labels),
                     persist_state="session", key=key,
                     format_func=labels.get, on_change=_choose, args=(kind, joined, key))
        error = st.session_state.pop(f"{key}.error", None)
        if error is not None:
            st.error(error_text(error))

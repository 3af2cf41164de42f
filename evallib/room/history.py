"""Which attempt of a participant counts on the board, their history, and hiding someone's attempts.

The board ranks **one attempt per participant and kind** (`counted_attempts`): the one they marked
as final ("count this one", as Kaggle's final submission; `mark_final`, kept in ``room_finals``) when
it is still visible, else their latest visible one. The others stay stored and in the participant's
history (`history`), so a flood of attempts by one person adds nothing to the board nor to the
number of pairs Holm's correction counts (`evallib.room.board`). The instructor can hide all of a
participant's attempts at once (`hide_participant`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Column, ForeignKey, Integer, String, Table, delete, select, update

from evallib.room.storage import RoomStorageError, RoomStore, StoredAttempt, attempts, metadata, participants
from evallib.room.submissions import participant_id as _participant_id

finals = Table(
    "room_finals", metadata,
    Column("participant_id", Integer, ForeignKey("room_participants.id"), primary_key=True),
    Column("kind", String(32), primary_key=True),
    Column("attempt_id", Integer, ForeignKey("room_attempts.id"), nullable=False))


@dataclass(frozen=True)
class HistoryRow:
    """One of a participant's attempts as stored: its room ``number``, ``kind``, time (epoch s),
    whether the instructor hid it, whether it is the one that ``counts`` on the board, and whether
    the participant marked it ``final``."""

    attempt_id: int
    number: int
    kind: str
    created_at: float
    hidden: bool
    counts: bool
    final: bool
    variant: dict | None = None  # ``inputs.variant`` of the attempt (persona's rewrite), None: the page's own


def counted_attempts(stored: Sequence, chosen: Mapping[tuple[int, str], int]) -> list:
    """The attempts the board ranks, in submission order: per (participant_id, kind), the visible attempt
    whose id ``chosen`` names, else the latest visible one. ``stored``: `StoredAttempt`-like objects
    (``id``, ``participant_id``, ``kind``, ``hidden``) in submission order.

    >>> from types import SimpleNamespace as A
    >>> rows = [A(id=1, participant_id=7, kind="trigger", hidden=False), A(id=2, participant_id=7, kind="trigger", hidden=False)]
    >>> [a.id for a in counted_attempts(rows, {})], [a.id for a in counted_attempts(rows, {(7, "trigger"): 1})]
    ([2], [1])
    """
    visible = [a for a in stored if not a.hidden]
    pick: dict[tuple[int, str], object] = {}
    for attempt in visible:
        who = (attempt.participant_id, attempt.kind)
        if chosen.get(who) == attempt.id or pick.get(who) is None or pick[who].id != chosen.get(who):
            pick[who] = attempt
    kept = {id(a) for a in pick.values()}
    return [a for a in visible if id(a) in kept]


def chosen_finals(store: RoomStore, code: str) -> dict[tuple[int, str], int]:
    """The room's "count this one" choices: (participant id, kind) -> attempt id."""
    with store.transaction(read_only=True) as conn:
        room = store._room_row(conn, code)
        rows = conn.execute(select(finals).join(participants, participants.c.id == finals.c.participant_id)
                            .where(participants.c.room_code == room["code"])).mappings().all()
    return {(r["participant_id"], r["kind"]): r["attempt_id"] for r in rows}


def board_attempts(store: RoomStore, code: str) -> list[StoredAttempt]:
    """The attempts the board of room ``code`` ranks (`counted_attempts` of its visible attempts)."""
    return counted_attempts(store.attempts(code), chosen_finals(store, code))


def history(store: RoomStore, code: str, token: str) -> list[HistoryRow]:
    """The attempts of the participant holding ``token``, newest first, hidden ones included.

    Raises `RoomStorageError` (``unknown_room``, ``unknown_participant``, ``unavailable``)."""
    who = _participant_id(store, code, token)
    every = store.attempts(code, include_hidden=True)
    chosen = chosen_finals(store, code)
    counting = {a.id for a in counted_attempts(every, chosen)}
    mine = [a for a in every if a.participant_id == who]
    return [HistoryRow(a.id, a.number, a.kind, a.created_at, a.hidden, a.id in counting,
                       chosen.get((who, a.kind)) == a.id, a.payload.get("inputs", {}).get("variant"))
            for a in reversed(mine)]


def mark_final(store: RoomStore, code: str, token: str, kind: str, attempt_id: int | None) -> None:
    """Make ``attempt_id`` (one of this participant's attempts of ``kind``) the one that counts; None goes
    back to the latest. Raises `RoomStorageError` (``unknown_attempt`` when it is not theirs, or not of
    that kind; ``room_closed``, ``unknown_participant``, ``unavailable``)."""
    with store.transaction() as conn:
        room = store._room_row(conn, code, open_only=True)
        who = store._participant_row(conn, room["code"], token)["id"]
        conn.execute(delete(finals).where(finals.c.participant_id == who, finals.c.kind == kind))
        if attempt_id is None:
            return
        mine = conn.execute(select(attempts.c.id).where(attempts.c.id == int(attempt_id), attempts.c.kind == kind,
                                                        attempts.c.participant_id == who)).first()
        if mine is None:
            raise RoomStorageError("unknown_attempt", f"attempt {attempt_id} is not yours", attempt=attempt_id)
        conn.execute(finals.insert().values(participant_id=who, kind=kind, attempt_id=int(attempt_id)))


def hide_participant(store: RoomStore, code: str, token: str, participant: int, hidden: bool = True) -> int:
    """Hide (or show again) every attempt of one participant of room ``code``; instructor only.

    Returns how many attempts changed. Raises `RoomStorageError` (``bad_token``, ``unknown_room``,
    ``unknown_participant`` when the participant is not in this room, ``unavailable``)."""
    store.check_instructor(token)
    with store.transaction() as conn:
        room = store._room_row(conn, code)
        found = conn.execute(select(participants.c.id).where(participants.c.id == int(participant),
                                                             participants.c.room_code == room["code"])).first()
        if found is None:
            raise RoomStorageError("unknown_participant", "no such participant in this room", room=room["code"])
        return conn.execute(update(attempts).where(attempts.c.participant_id == int(participant),
                                                   attempts.c.hidden != hidden).values(hidden=hidden)).rowcount

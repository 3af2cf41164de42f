"""A room's version for its board: one cheap query that changes whenever what the board shows may change.

The board (`ui.room.board`) is built once per room and version and drawn by every session from that one
build; each session's refresh only asks `room_version`. The version is one row read in one query
(scalar subqueries, no payload read): the room's title, settings and closed flag; its attempts' count,
highest id, and the count and id sum of the hidden ones (hiding or showing one changes them); its
ratings' count and latest ``rated_at`` (a changed label rewrites ``rated_at``, `RoomStore.rate`); the
attempts its participants marked final (`evallib.room.history.finals`: their count and id sum).
Whatever else a later change lets the board read (a new table) must be added here too.
"""

from __future__ import annotations

from sqlalchemy import case, func, select

from evallib.room.history import finals
from evallib.room.storage import (RoomStorageError, RoomStore, attempts, normalise_code, participants, ratings,
                                   rooms)


def room_version(store: RoomStore, code: str) -> tuple:
    """The version of room ``code`` (a tuple of plain values, equal while the board's data are unchanged).

    Raises `RoomStorageError` ``unknown_room`` (no such room) or ``unavailable`` (database down).
    """
    code = normalise_code(code)
    of_room = (attempts.c.room_code == code)
    hidden_id = case((attempts.c.hidden, attempts.c.id), else_=0)
    hidden_one = case((attempts.c.hidden, 1), else_=0)
    of_finals = finals.c.participant_id.in_(select(participants.c.id).where(participants.c.room_code == code))
    query = select(
        rooms.c.title, rooms.c.settings, rooms.c.closed,
        select(func.count()).where(of_room).scalar_subquery().label("attempts"),
        select(func.max(attempts.c.id)).where(of_room).scalar_subquery().label("last_attempt"),
        select(func.sum(hidden_one)).where(of_room).scalar_subquery().label("hidden"),
        select(func.sum(hidden_id)).where(of_room).scalar_subquery().label("hidden_ids"),
        select(func.count()).where(ratings.c.room_code == code).scalar_subquery().label("ratings"),
        select(func.max(ratings.c.rated_at)).where(ratings.c.room_code == code).scalar_subquery().label("last_rating"),
        select(func.count()).where(of_finals).scalar_subquery().label("finals"),
        select(func.sum(finals.c.attempt_id)).where(of_finals).scalar_subquery().label("final_ids"),
    ).where(rooms.c.code == code)
    with store.transaction(read_only=True) as conn:
        row = conn.execute(query).first()
    if row is None:
        raise RoomStorageError("unknown_room", f"no room has the code {code!r}", room=code)
    return tuple(row)

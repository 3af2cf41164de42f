"""What the room remembers of each browser: its instructor standing and its memberships, server-side.

A browser is its key (`evallib.room.browser_cookie.browser_key`: the SHA-256 of the ``HttpOnly`` cookie
the server sets), so a reload, a second tab or a restart of the server finds the same rows. Nothing
here lives in the browser beyond that cookie.

- Instructor standing (`instructor_browsers`): a browser that gave the right token once is remembered
  with the hash of that token (`remember_instructor`); it stays the instructor's while that hash is the
  token in force (a new token ends it) and until it signs out (`forget_instructor`). The room it
  manages is kept with it, so that its Room page shows the panel and the board at once after a restart.
- Membership (`browser_members`): joining from a browser stores (browser, participant); every session of
  that browser is that participant (`membership_of`) with no click. Leaving keeps the row (state
  ``left``): joining the same room again takes the same participant back. A browser is a member of one
  room at a time.
- Removal (`removed`): the instructor removes a participant; no session, browser or token proves it any
  more (its token is replaced, its browser rows stop counting), its attempts are hidden from the board
  (kept, the instructor can show them again one by one), its ratings stay. That browser may join again
  under a new name: it is then a new participant.

The credentials `InstructorBrowser` and `BrowserMember` are what a page passes to `RoomStore` methods in
place of a typed token (`RoomStore.check_instructor`, `RoomStore._participant_row`): the store checks
them in the database on every action.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, UniqueConstraint, select, update

from evallib.readings import Reading
from evallib.room.storage import (MAX_NAME, Participant, RoomStorageError, RoomStore, attempts, clean_name, clean_text,
                                  hash_token, metadata, normalise_code, participants)

MEMBER, LEFT = "member", "left"

instructor_browsers = Table(
    "room_instructor_browsers", metadata,
    Column("browser_key", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("managed_room", String(16), nullable=True),
    Column("since", Float, nullable=False))
browser_members = Table(
    "room_browser_members", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("browser_key", String(64), nullable=False, index=True),
    Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False),
    Column("participant_id", Integer, ForeignKey("room_participants.id"), nullable=False),
    Column("state", String(8), nullable=False),
    Column("updated_at", Float, nullable=False),
    UniqueConstraint("browser_key", "participant_id"))
removed = Table(
    "room_removed_participants", metadata,
    Column("participant_id", Integer, ForeignKey("room_participants.id"), primary_key=True),
    Column("removed_at", Float, nullable=False))


@dataclass(frozen=True)
class InstructorBrowser:
    """The credential of a browser remembered as the instructor's (``key``: its browser key)."""

    key: str

    def verify(self, store: RoomStore) -> bool:
        """True while this browser is remembered with the token now in force."""
        with store.transaction(read_only=True) as conn:
            kept = conn.execute(select(instructor_browsers.c.token_hash)
                                .where(instructor_browsers.c.browser_key == self.key)).scalar()
        expected = store.instructor_hash()
        return bool(kept and expected) and hmac.compare_digest(kept, expected)


@dataclass(frozen=True)
class BrowserMember:
    """The credential of a browser's current membership (``key``: its browser key); never shown."""

    key: str

    def participant_clause(self, table):
        """The condition on ``table`` (participants) that picks the participant this browser is now."""
        return table.c.id.in_(select(browser_members.c.participant_id).where(
            browser_members.c.browser_key == self.key, browser_members.c.state == MEMBER,
            browser_members.c.participant_id.not_in(select(removed.c.participant_id))))

    def __repr__(self) -> str:  # the key stands for a cookie: never in a log line
        return "BrowserMember(...)"


# ---------------------------------------------------------------- instructor standing
def remember_instructor(store: RoomStore, key: str, token: str, managed_room: str | None = None) -> None:
    """Remember browser ``key`` as the instructor's; raises ``bad_token`` unless ``token`` is right."""
    store.check_instructor(token)
    values = {"token_hash": store.instructor_hash(), "since": time.time()}
    if managed_room:
        values["managed_room"] = normalise_code(managed_room)
    _upsert(store, key, values)


def _upsert(store: RoomStore, key: str, values: dict) -> None:
    for _ in range(3):  # two tabs of one browser may insert at once: the loser updates
        try:
            with store.transaction() as conn:
                where = instructor_browsers.c.browser_key == key
                if conn.execute(update(instructor_browsers).where(where).values(**values)).rowcount == 0:
                    conn.execute(instructor_browsers.insert().values(browser_key=key, **values))
            return
        except RoomStorageError as error:
            if error.details.get("reason") != "conflict":
                raise


def set_managed_room(store: RoomStore, key: str, code: str) -> None:
    """The room the instructor's browser ``key`` manages now (found again by a new session)."""
    with store.transaction() as conn:
        conn.execute(update(instructor_browsers).where(instructor_browsers.c.browser_key == key)
                     .values(managed_room=normalise_code(code)))


def instructor_standing(store: RoomStore, key: str | None) -> tuple[bool, str | None]:
    """(is browser ``key`` the instructor's now, the room it manages or None)."""
    if not key or not InstructorBrowser(key).verify(store):
        return False, None
    with store.transaction(read_only=True) as conn:
        return True, conn.execute(select(instructor_browsers.c.managed_room)
                                  .where(instructor_browsers.c.browser_key == key)).scalar()


def forget_instructor(store: RoomStore, key: str) -> None:
    """Sign browser ``key`` out: it needs the token again."""
    with store.transaction() as conn:
        conn.execute(instructor_browsers.delete().where(instructor_browsers.c.browser_key == key))


# ---------------------------------------------------------------- membership
def join_from_browser(store: RoomStore, key: str, code: str, name: str) -> tuple[Participant, bool]:
    """Join room ``code`` from browser ``key``: (the participant, True when it is the one this browser left).

    The participant's ``token`` is a `BrowserMember`. Any other room this browser was in is left.
    Raises as `RoomStore.join` (``unknown_room``, ``room_closed``, ``empty_name``, ``unavailable``).
    """
    code = normalise_code(code)
    with store.transaction(read_only=True) as conn:
        store._room_row(conn, code, open_only=True)  # unknown_room, room_closed before anything else
    with store.transaction() as conn:
        back = conn.execute(select(browser_members.c.id.label("row_id"), participants.c.id.label("pid"),
                                   participants.c.name, participants.c.joined_at)
                            .join(participants, participants.c.id == browser_members.c.participant_id)
                            .where(browser_members.c.browser_key == key, browser_members.c.room_code == code,
                                   browser_members.c.participant_id.not_in(select(removed.c.participant_id)))
                            .order_by(browser_members.c.id.desc())).mappings().first()
    if back is not None:
        _activate(store, key, back["row_id"])
        return Participant(back["pid"], code, back["name"], back["joined_at"], BrowserMember(key)), True
    joined = store.join(code, name)
    with store.transaction() as conn:
        row_id = conn.execute(browser_members.insert().values(
            browser_key=key, room_code=joined.room_code, participant_id=joined.id, state=LEFT,
            updated_at=time.time())).inserted_primary_key[0]
    _activate(store, key, row_id)
    return Participant(joined.id, joined.room_code, joined.name, joined.joined_at, BrowserMember(key)), False


def join_reading(typed: str, kept: str, is_back: bool) -> Reading:
    """What joining did with the name ``typed``, given the name ``kept`` (`RoomStore.join`,
    `join_from_browser`) and whether the browser's participant was taken back (``is_back``).

    Codes: ``back`` (the participant taken back, under its earlier name), ``joined`` (the name as typed,
    control characters and extra spaces aside), ``shortened`` (cut to `MAX_NAME` characters),
    ``renamed`` (taken: a number added), ``shortened_renamed`` (both). Values: ``typed`` (the name
    typed, cleaned, not cut), ``typed_length`` (its characters), ``name`` (the name kept), ``limit``
    (`MAX_NAME`).

    >>> join_reading("x" * 60, "x" * 40, False).code
    'shortened'
    """
    full = clean_text(typed)
    values = {"typed": full, "typed_length": len(full), "name": kept, "limit": MAX_NAME}
    if is_back:
        return Reading("back", values)
    shortened, renamed = len(full) > MAX_NAME, kept != clean_name(typed)
    code = "shortened_renamed" if shortened and renamed else "shortened" if shortened else \
        "renamed" if renamed else "joined"
    return Reading(code, values)


def _activate(store: RoomStore, key: str, row_id: int) -> None:
    with store.transaction() as conn:
        now = time.time()
        conn.execute(update(browser_members).where(browser_members.c.browser_key == key,
                                                   browser_members.c.state == MEMBER).values(state=LEFT, updated_at=now))
        conn.execute(update(browser_members).where(browser_members.c.id == row_id).values(state=MEMBER, updated_at=now))


def membership_of(store: RoomStore, key: str | None) -> Participant | None:
    """The participant browser ``key`` is now (its ``token`` a `BrowserMember`), or None."""
    if not key:
        return None
    with store.transaction(read_only=True) as conn:
        row = conn.execute(select(participants).where(BrowserMember(key).participant_clause(participants))
                           .order_by(participants.c.id.desc())).mappings().first()
    return None if row is None else Participant(row["id"], row["room_code"], row["name"], row["joined_at"],
                                                BrowserMember(key))


def leave_from_browser(store: RoomStore, key: str) -> None:
    """Browser ``key`` leaves its room (joining it again takes the same participant back)."""
    with store.transaction() as conn:
        conn.execute(update(browser_members).where(browser_members.c.browser_key == key,
                                                   browser_members.c.state == MEMBER)
                     .values(state=LEFT, updated_at=time.time()))


def removed_from(store: RoomStore, key: str | None) -> str | None:
    """The room code browser ``key`` was last removed from while a member of it, or None."""
    if not key:
        return None
    with store.transaction(read_only=True) as conn:
        return conn.execute(select(browser_members.c.room_code)
                            .join(removed, removed.c.participant_id == browser_members.c.participant_id)
                            .where(browser_members.c.browser_key == key, browser_members.c.state == MEMBER)
                            .order_by(removed.c.removed_at.desc())).scalar()


# ---------------------------------------------------------------- removal
def remove_participant(store: RoomStore, credential, code: str, participant_id: int) -> str:
    """Remove a participant from room ``code`` (module docstring); instructor only; returns its name.

    Raises ``bad_token``, ``unknown_room``, ``unknown_participant`` (not of this room), ``unavailable``.
    """
    store.check_instructor(credential)
    code = normalise_code(code)
    with store.transaction() as conn:
        row = conn.execute(select(participants).where(participants.c.id == int(participant_id),
                                                      participants.c.room_code == code)).mappings().first()
        if row is None:
            raise RoomStorageError("unknown_participant", "no such participant in this room", room=code)
        if conn.execute(select(removed.c.participant_id).where(removed.c.participant_id == row["id"])).first() is None:
            conn.execute(removed.insert().values(participant_id=row["id"], removed_at=time.time()))
        conn.execute(update(participants).where(participants.c.id == row["id"])
                     .values(token_hash=hash_token(secrets.token_urlsafe(24))))
        conn.execute(update(attempts).where(attempts.c.participant_id == row["id"]).values(hidden=True))
    return row["name"]


def removed_participants(store: RoomStore, code: str) -> set[int]:
    """The ids of room ``code``'s removed participants."""
    with store.transaction(read_only=True) as conn:
        return set(conn.execute(select(removed.c.participant_id)
                                .join(participants, participants.c.id == removed.c.participant_id)
                                .where(participants.c.room_code == normalise_code(code))).scalars())


def removal_times(store: RoomStore, code: str) -> dict[int, float]:
    """When each removed participant of room ``code`` was removed: {participant id: ``removed_at``}."""
    with store.transaction(read_only=True) as conn:
        return dict(conn.execute(select(removed.c.participant_id, removed.c.removed_at)
                                 .join(participants, participants.c.id == removed.c.participant_id)
                                 .where(participants.c.room_code == normalise_code(code))).all())


def room_browsers(store: RoomStore, code: str) -> list[dict]:
    """Room ``code``'s browser rows (``browser_key``, ``participant_id``, ``state``, ``updated_at``), oldest first."""
    with store.transaction(read_only=True) as conn:
        rows = conn.execute(select(browser_members.c.browser_key, browser_members.c.participant_id,
                                   browser_members.c.state, browser_members.c.updated_at)
                            .where(browser_members.c.room_code == normalise_code(code))
                            .order_by(browser_members.c.id)).mappings().all()
    return [dict(row) for row in rows]


def restore_room_people(conn, code: str, removals: dict[int, float], browsers: list[dict]) -> None:
    """Write back, inside the transaction ``conn``, room ``code``'s removals ({participant id: ``removed_at``})
    and browser rows (as `room_browsers` gives them, with this database's participant ids). A browser that
    is a member of another room here already keeps that membership: its row for this room becomes ``left``
    (joining this room again takes its participant back), as a browser is a member of one room at a time."""
    if removals:
        conn.execute(removed.insert(), [{"participant_id": pid, "removed_at": at} for pid, at in removals.items()])
    keys = {row["browser_key"] for row in browsers}
    busy = set(conn.execute(select(browser_members.c.browser_key).where(
        browser_members.c.browser_key.in_(keys), browser_members.c.state == MEMBER)).scalars()) if keys else set()
    if browsers:
        conn.execute(browser_members.insert(), [
            {**row, "room_code": code, "state": LEFT if row["browser_key"] in busy else row["state"]}
            for row in browsers])

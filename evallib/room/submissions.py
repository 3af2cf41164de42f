"""Submissions that cannot be lost or doubled silently: idempotency keys, duplicates, a burst limit.

A page submits through `submit` (never `RoomStore.submit_attempt` directly, which stores without these
rules). Each submission carries an **idempotency key** the page draws when it builds the attempt
(`new_key`) and keeps with the attempt until it is stored:

1. `begin` writes a pending row (participant, kind, key, time) in ``room_submissions`` (the key is
   unique), in its own transaction, so that it outlives the process;
2. `submit` then stores the attempt and marks the row done (its ``attempt_id``), in one transaction.

A second call with the same key (a second click, a retry after a lost answer) stores nothing and
returns the first call's attempt (``Receipt.duplicate``). Within the same transaction, under a lock
on the participant (PostgreSQL: ``pg_advisory_xact_lock``; SQLite: ``BEGIN IMMEDIATE`` already
serialises writers), so that it holds across processes:

- an attempt identical to one this participant already stored for this kind (same `content_hash` of
  its kind, inputs and items) is refused: ``RoomStorageError("duplicate_attempt", number=N)``; the
  pair (participant, kind, hash) is unique in ``room_attempt_digests``;
- a second attempt of one kind less than `BURST_SECONDS` after the last is refused:
  ``RoomStorageError("too_soon", retry_at=<epoch s>, seconds=BURST_SECONDS)``.

A server killed between 1 and 2 leaves a pending row without an attempt: `last_submission` reads it
as ``missing`` once no process is sending it (``in_flight`` while this process is), so that the page
can say "your submission of HH:MM was not received". Which keys are in flight is known per process: with
several processes, a page served by another process than the one storing the submission reads it as
missing until it is stored (sticky sessions keep a browser on one process). ``EVALLIB_TEST_ONLY_SUBMIT_DELAY`` (seconds, for
tests only) waits between 1 and 2 so that a test can kill the server there.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, UniqueConstraint, func, select, text, update
from sqlalchemy.engine import Connection

from evallib.readings import Reading
from evallib.room.storage import RoomStorageError, RoomStore, attempts, metadata

#: Shortest time between two stored attempts of one kind by one participant, in seconds.
BURST_SECONDS = 10.0
#: Test-only: seconds to wait between the pending row and the store (lets a test kill the server there).
DELAY_ENV = "EVALLIB_TEST_ONLY_SUBMIT_DELAY"
#: PostgreSQL advisory lock class of these locks (the second key is the participant's id).
_LOCK_CLASS = 20
#: Longest idempotency key accepted, in characters.
MAX_KEY = 64

submissions = Table(
    "room_submissions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False, index=True),
    Column("participant_id", Integer, ForeignKey("room_participants.id"), nullable=False, index=True),
    Column("kind", String(32), nullable=False),
    Column("key", String(MAX_KEY), nullable=False, unique=True),
    Column("state", String(16), nullable=False, default="pending"),  # pending, stored, refused
    Column("attempt_id", Integer, ForeignKey("room_attempts.id"), nullable=True),
    Column("created_at", Float, nullable=False))
digests = Table(
    "room_attempt_digests", metadata,
    Column("attempt_id", Integer, ForeignKey("room_attempts.id"), primary_key=True),
    Column("participant_id", Integer, ForeignKey("room_participants.id"), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("content_hash", String(64), nullable=False),
    UniqueConstraint("participant_id", "kind", "content_hash"))

#: Keys this process is sending now (between `begin` and the end of `submit`).
_IN_FLIGHT: set[str] = set()
_IN_FLIGHT_LOCK = threading.Lock()


@dataclass(frozen=True)
class Receipt:
    """A stored attempt as `submit` returns it: its id, its ``number`` in the room (1, 2...), when it was
    stored (epoch s), and whether it had been stored before under the same key (``duplicate``)."""

    attempt_id: int
    number: int
    kind: str
    created_at: float
    duplicate: bool = False


def new_key() -> str:
    """A fresh idempotency key (22 URL-safe characters, 128 random bits)."""
    return secrets.token_urlsafe(16)


def content_hash(payload: Mapping) -> str:
    """SHA-256 hex of the attempt's ``kind``, ``inputs`` and ``items`` in canonical JSON (sorted keys):
    two attempts with the same inputs and the same answers have the same hash, whatever their provenance."""
    core = {"kind": payload.get("kind"), "inputs": payload.get("inputs"), "items": payload.get("items")}
    return hashlib.sha256(json.dumps(core, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _check_key(key: str) -> str:
    key = str(key)
    if not key or len(key) > MAX_KEY:
        raise RoomStorageError("invalid_attempt", "the submission key is empty or too long")
    return key


def _participant(store: RoomStore, conn: Connection, code: str, token: str, *, open_only: bool = True):
    room = store._room_row(conn, code, open_only=open_only)
    return room, store._participant_row(conn, room["code"], token)


def _lock(conn: Connection, participant_id: int) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:c, :p)"), {"c": _LOCK_CLASS, "p": int(participant_id)})


def _number(conn: Connection, room_code: str, attempt_id: int) -> int:
    return int(conn.execute(select(func.count()).select_from(attempts).where(
        attempts.c.room_code == room_code, attempts.c.id <= attempt_id)).scalar_one())


def begin(store: RoomStore, code: str, token: str, kind: str, key: str, *, now: float | None = None) -> None:
    """Write the pending row of submission ``key`` (once: a key already written is left as it is).

    Raises `RoomStorageError` (``unknown_room``, ``room_closed``, ``unknown_participant``,
    ``unavailable``; ``invalid_attempt`` for a bad key or a key of another participant)."""
    key = _check_key(key)
    with store.transaction() as conn:
        room, who = _participant(store, conn, code, token)
        known = conn.execute(select(submissions.c.participant_id).where(submissions.c.key == key)).first()
        if known is not None:
            if known[0] != who["id"]:
                raise RoomStorageError("invalid_attempt", "this submission key belongs to someone else")
            return
        conn.execute(submissions.insert().values(room_code=room["code"], participant_id=who["id"], kind=str(kind),
                                                 key=key, state="pending", created_at=time.time() if now is None else now))
    with _IN_FLIGHT_LOCK:
        _IN_FLIGHT.add(key)


def submit(store: RoomStore, code: str, token: str, payload: Mapping, key: str, *, now: float | None = None) -> Receipt:
    """Store ``payload`` (validated as `RoomStore.submit_attempt`) once under ``key`` (module docstring).

    ``now``: the time of the submission (epoch s; default the clock), for the burst limit. Returns a
    `Receipt`. Raises `RoomStorageError`: ``duplicate_attempt`` (``number``: the identical attempt's),
    ``too_soon`` (``retry_at``, ``seconds``), ``invalid_attempt``, and the store's codes.
    """
    from evallib.room.attempts import RoomAttemptError, validate_attempt  # scipy: not on every page's start

    try:
        payload = validate_attempt(payload)
    except RoomAttemptError as error:
        raise RoomStorageError("invalid_attempt", str(error), **error.details) from error
    key, kind = _check_key(key), payload["kind"]
    begin(store, code, token, kind, key, now=now)
    try:
        delay = float(os.environ.get(DELAY_ENV, "0") or 0)
        if delay > 0:
            time.sleep(delay)
        return _store(store, code, token, payload, key, time.time() if now is None else now)
    except RoomStorageError as error:
        if error.code in ("duplicate_attempt", "too_soon"):
            _mark(store, key, "refused")
        raise
    finally:
        with _IN_FLIGHT_LOCK:
            _IN_FLIGHT.discard(key)


def _store(store: RoomStore, code: str, token: str, payload: dict, key: str, now: float) -> Receipt:
    kind, digest = payload["kind"], content_hash(payload)
    with store.transaction() as conn:
        room, who = _participant(store, conn, code, token)
        _lock(conn, who["id"])
        row = conn.execute(select(submissions.c.attempt_id).where(submissions.c.key == key)).first()
        if row is not None and row[0] is not None:
            stored = conn.execute(select(attempts.c.created_at).where(attempts.c.id == row[0])).scalar_one()
            return Receipt(int(row[0]), _number(conn, room["code"], row[0]), kind, stored, duplicate=True)
        same = conn.execute(select(digests.c.attempt_id).where(
            digests.c.participant_id == who["id"], digests.c.kind == kind, digests.c.content_hash == digest)).first()
        if same is not None:
            number = _number(conn, room["code"], same[0])
            raise RoomStorageError("duplicate_attempt", f"already submitted as #{number}", number=number)
        last = conn.execute(select(func.max(attempts.c.created_at)).where(
            attempts.c.participant_id == who["id"], attempts.c.kind == kind)).scalar()
        if last is not None and now - last < BURST_SECONDS:
            raise RoomStorageError("too_soon", f"one attempt of a kind every {BURST_SECONDS:g} s",
                                   retry_at=last + BURST_SECONDS, seconds=int(BURST_SECONDS))
        attempt_id = int(conn.execute(attempts.insert().values(
            room_code=room["code"], participant_id=who["id"], kind=kind, payload=json.dumps(payload), hidden=False,
            created_at=now)).inserted_primary_key[0])
        conn.execute(digests.insert().values(attempt_id=attempt_id, participant_id=who["id"], kind=kind,
                                             content_hash=digest))
        conn.execute(update(submissions).where(submissions.c.key == key).values(state="stored", attempt_id=attempt_id))
        return Receipt(attempt_id, _number(conn, room["code"], attempt_id), kind, now)


def _mark(store: RoomStore, key: str, state: str) -> None:
    try:
        with store.transaction() as conn:
            conn.execute(update(submissions).where(submissions.c.key == key, submissions.c.attempt_id.is_(None))
                         .values(state=state))
    except RoomStorageError:
        pass  # the row stays pending: the page will call it missing, which is true of an unstored attempt


def last_submission(store: RoomStore, code: str, token: str, kind: str) -> Reading:
    """What became of this participant's latest submission of ``kind``, as a reading.

    Refused submissions are passed over (the page that refused one said why). Codes: ``none`` (none),
    ``stored`` (values: number, at), ``in_flight`` (this process is storing it; values: at),
    ``missing`` (its pending row has no attempt and no process of this server is sending it: the
    server stopped mid-submission; values: at). ``at`` is the submission's time (epoch s).
    Raises `RoomStorageError` (``unknown_room``, ``unknown_participant``, ``unavailable``).
    """
    with store.transaction(read_only=True) as conn:
        room, who = _participant(store, conn, code, token, open_only=False)
        row = conn.execute(select(submissions).where(submissions.c.participant_id == who["id"],
                                                     submissions.c.kind == kind, submissions.c.state != "refused")
                           .order_by(submissions.c.id.desc()).limit(1)).mappings().first()
        if row is None:
            return Reading("none", {})
        if row["attempt_id"] is not None:
            return Reading("stored", {"number": _number(conn, room["code"], row["attempt_id"]), "at": row["created_at"]})
    with _IN_FLIGHT_LOCK:
        flying = row["key"] in _IN_FLIGHT
    return Reading("in_flight" if flying else "missing", {"at": row["created_at"]})


def participant_id(store: RoomStore, code: str, token: str) -> int:
    """The id of the participant holding ``token`` in room ``code``; raises ``unknown_participant``."""
    with store.transaction(read_only=True) as conn:
        return int(_participant(store, conn, code, token, open_only=False)[1]["id"])


__all__ = ["BURST_SECONDS", "DELAY_ENV", "Receipt", "begin", "content_hash", "digests", "last_submission", "new_key",
           "participant_id", "submissions", "submit"]

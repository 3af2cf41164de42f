"""Rooms, participants, attempts and ratings in a database, through SQLAlchemy 2 Core.

One `RoomStore` per process (a page keeps it in ``st.cache_resource``); it is thread-safe, every
method runs in its own transaction. The database is a SQLite file by default (``.rooms/rooms.sqlite3``
at the repository root, git-ignored, nothing to install) and PostgreSQL when ``EVALLIB_DATABASE_URL``
is set (``postgresql://...`` is read as ``postgresql+psycopg://...``), so several app processes can
share a room. Tables are created at start.

SQLite serialises writers: each connection gets ``journal_mode=WAL`` (readers never wait for the
writer) and a ``busy_timeout`` (a writer waits for the lock instead of failing), and each transaction
starts with ``BEGIN IMMEDIATE``, so that a transaction that reads then writes takes the write lock
first and never fails halfway with "database is locked" (SQLite docs, "Write-Ahead Logging" and
"BEGIN TRANSACTION").

Every failure is a `RoomStorageError` whose ``code`` a page words in its own language: ``unavailable``
(the database cannot be reached, is locked past the timeout or refused the write: nothing was stored,
the action can be retried), ``unknown_room``, ``room_closed``, ``bad_token`` (instructor token wrong),
``unknown_participant``, ``empty_name``, ``unknown_attempt``, ``invalid_attempt``, ``empty_label``; a
page's submission adds ``duplicate_attempt`` and ``too_soon`` (`evallib.room.submissions`).
Names are stored as plain text (the page escapes them when it shows them).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text,
                        UniqueConstraint, create_engine, event, exc, select, update)
from sqlalchemy.engine import Connection, Engine


ROOT = Path(__file__).resolve().parent.parent.parent
#: The SQLite file used when ``EVALLIB_DATABASE_URL`` is not set (its folder is git-ignored).
DEFAULT_SQLITE_PATH = ROOT / ".rooms" / "rooms.sqlite3"
ENV_VAR = "EVALLIB_DATABASE_URL"
#: How long a SQLite writer waits for the lock before giving up, in milliseconds.
BUSY_TIMEOUT_MS = 15_000
#: Room-code characters: upper-case letters and digits without the look-alikes 0/O, 1/I/L, 5/S, 2/Z, 8/B.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
#: Longest display name kept, in characters (after trimming).
MAX_NAME = 40
#: Longest room title, item id or rating label kept, in characters.
MAX_TEXT = 200
_SPACES = re.compile(r"\s+")

metadata = MetaData()
rooms = Table(
    "room_rooms", metadata,
    Column("code", String(16), primary_key=True),
    Column("title", Text, nullable=False, default=""),
    Column("settings", Text, nullable=False, default="{}"),
    Column("closed", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False))
participants = Table(
    "room_participants", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False, index=True),
    Column("name", Text, nullable=False),
    Column("name_key", Text, nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("joined_at", Float, nullable=False),
    UniqueConstraint("room_code", "name_key"))
attempts = Table(
    "room_attempts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False, index=True),
    Column("participant_id", Integer, ForeignKey("room_participants.id"), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),
    Column("hidden", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False))
ratings = Table(
    "room_ratings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False, index=True),
    Column("participant_id", Integer, ForeignKey("room_participants.id"), nullable=False),
    Column("item_id", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("rated_at", Float, nullable=False),
    UniqueConstraint("participant_id", "item_id"))


class RoomStorageError(Exception):
    """A room action that could not be done; ``code`` names why (module docstring), ``details`` the values."""

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.details = details


@dataclass(frozen=True)
class Room:
    code: str
    title: str
    settings: dict
    closed: bool
    created_at: float


@dataclass(frozen=True)
class Participant:
    """A participant of one room; ``token`` (to rejoin from the same browser) is only set by `join`."""

    id: int
    room_code: str
    name: str
    joined_at: float
    token: str = ""


@dataclass(frozen=True)
class StoredAttempt:
    """An attempt as stored; ``number`` is its rank of submission in the room (1, 2...), hidden ones included."""

    id: int
    number: int
    room_code: str
    participant_id: int
    participant: str
    kind: str
    payload: dict
    hidden: bool
    created_at: float


@dataclass(frozen=True)
class StoredRating:
    participant_id: int
    participant: str
    item_id: str
    label: str
    rated_at: float


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """``EVALLIB_DATABASE_URL`` when set (``postgresql://`` read as ``postgresql+psycopg://``), else the SQLite file."""
    url = (os.environ if environ is None else environ).get(ENV_VAR, "").strip()
    if not url:
        return f"sqlite:///{DEFAULT_SQLITE_PATH}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_connect(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    read_only = connection.get_execution_options().get("evallib_read_only", False)
    connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def make_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (default `database_url`); SQLite gets WAL, busy_timeout and BEGIN IMMEDIATE.

    The SQLite file's folder is created when missing.
    """
    url = url or database_url()
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


@contextmanager
def engine_transaction(engine: Engine, *, read_only: bool = False) -> Iterator[Connection]:
    """One transaction on ``engine`` (see `RoomStore.transaction`); failures raise `RoomStorageError` ``unavailable``."""
    try:
        with engine.connect() as conn:
            conn.execution_options(evallib_read_only=read_only)
            with conn.begin():
                yield conn
    except exc.DBAPIError as error:
        conflict = isinstance(error, exc.IntegrityError)
        raise RoomStorageError("unavailable", f"the room database could not be used: {error.orig!r}"[:300],
                               reason="conflict" if conflict else type(error.orig).__name__) from error


def clean_text(text: object, limit: int = MAX_TEXT) -> str:
    """Text as stored: control characters dropped (PostgreSQL refuses NUL), spaces collapsed, at most ``limit`` characters.

    >>> clean_text("  pa\\x00ss\\n ")
    'pass'
    """
    printable = "".join(ch for ch in str(text) if unicodedata.category(ch)[0] != "C" or ch in " \t\n")
    return _SPACES.sub(" ", printable).strip()[:limit].strip()


def clean_name(name: str) -> str:
    """A display name as stored: `clean_text` capped at `MAX_NAME` characters.

    >>> clean_name("  Ana\\n  Lima\\x00 ")
    'Ana Lima'
    """
    return clean_text(name, MAX_NAME)


def normalise_code(code: str) -> str:
    """A room code as typed (any case, spaces or dashes) in its stored form.

    >>> normalise_code(" ac-d 3e7 ")
    'ACD3E7'
    """
    return re.sub(r"[\s-]+", "", str(code)).upper()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def tokens_match(given: str, expected: str) -> bool:
    """Constant-time comparison of two tokens (``hmac.compare_digest``); an empty expected token never matches.

    ``given`` is read without surrounding spaces (a token copied from the console often carries some)."""
    return bool(expected) and hmac.compare_digest(str(given).strip().encode("utf-8"), expected.encode("utf-8"))


class RoomStore:
    """Rooms in one database; instructor actions need ``instructor_token`` (see the module docstring)."""

    def __init__(self, engine: Engine | str | None = None, *, instructor_token: str | None = None) -> None:
        """``instructor_token``: the set token (secrets, environment, a test); None: the token drawn once
        and kept in this database (`evallib.room.instructor.kept_token`), drawn now when it has none
        (then `drawn_token` holds it, to print). Raises `RoomStorageError` ``unavailable``."""
        from evallib.room import browsers, endpoint, instructor  # noqa: F401 - their tables join `metadata` before create_all

        if instructor_token is not None and not instructor_token.strip():
            raise ValueError("the instructor token must not be empty")
        self.engine = engine if isinstance(engine, Engine) else make_engine(engine)
        import evallib.room.history  # noqa: F401  the submissions' and final choices' tables, on the same metadata
        self._instructor_hash = hash_token(instructor_token.strip()) if instructor_token is not None else ""
        self.drawn_token = ""
        with self.transaction() as conn:
            metadata.create_all(conn)
        if instructor_token is None:
            try:
                self.drawn_token = instructor.kept_token(self.engine).drawn
            except exc.DBAPIError as error:
                raise RoomStorageError("unavailable", f"the room database could not be used: {error.orig!r}"[:300],
                                       reason=type(error.orig).__name__) from error

    # ---------------------------------------------------------------- plumbing
    @contextmanager
    def transaction(self, *, read_only: bool = False) -> Iterator[Connection]:
        """One transaction; database failures become ``RoomStorageError("unavailable")`` (nothing stored).

        On SQLite a writing transaction takes the write lock at once (BEGIN IMMEDIATE); a ``read_only``
        one does not, so that the board's reads never wait for, nor hold up, the writers (WAL).
        """
        with engine_transaction(self.engine, read_only=read_only) as conn:
            yield conn

    def instructor_hash(self) -> str:
        """The SHA-256 of the instructor token now in force (the set one, else the database's kept one)."""
        if self._instructor_hash:
            return self._instructor_hash
        from evallib.room.instructor import KEY, tokens

        with self.transaction(read_only=True) as conn:
            return conn.execute(select(tokens.c.token_hash).where(tokens.c.name == KEY)).scalar() or ""

    def check_instructor(self, token) -> None:
        """Raise `RoomStorageError` ``bad_token`` unless ``token`` is the instructor's.

        ``token``: the token as typed (compared by hash, in constant time), or a credential with a
        ``verify(store) -> bool`` method (`evallib.room.browsers.InstructorBrowser`: a recognised browser).
        """
        verify = getattr(token, "verify", None)
        if callable(verify):
            if not verify(self):
                raise RoomStorageError("bad_token", "this browser is not the instructor's")
            return
        expected = self.instructor_hash()
        if not (expected and hmac.compare_digest(hash_token(str(token).strip()), expected)):
            raise RoomStorageError("bad_token", "the instructor token is wrong")

    def _room_row(self, conn: Connection, code: str, *, open_only: bool = False):
        row = conn.execute(select(rooms).where(rooms.c.code == normalise_code(code))).mappings().first()
        if row is None:
            raise RoomStorageError("unknown_room", f"no room has the code {code!r}", room=code)
        if open_only and row["closed"]:
            raise RoomStorageError("room_closed", f"the room {row['code']} is closed", room=row["code"])
        return row

    def _participant_row(self, conn: Connection, code: str, token):
        """The participant row ``token`` proves in room ``code``: a participant token (by its hash) or a
        credential with a ``participant_clause(participants)`` method (`evallib.room.browsers.BrowserMember`)."""
        clause = getattr(token, "participant_clause", None)
        proof = clause(participants) if callable(clause) else participants.c.token_hash == hash_token(str(token))
        row = conn.execute(select(participants).where(proof, participants.c.room_code == normalise_code(code))
                           ).mappings().first()
        if row is None:
            raise RoomStorageError("unknown_participant", "this browser has not joined this room", room=code)
        return row

    # ---------------------------------------------------------------- rooms
    def open_room(self, token: str, title: str = "", settings: Mapping | None = None) -> Room:
        """A new open room with a fresh code (`CODE_LENGTH` characters of `CODE_ALPHABET`)."""
        self.check_instructor(token)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                return self.insert_room(code, title, dict(settings or {}), False, time.time())
            except RoomStorageError as error:
                if error.details.get("reason") != "conflict":
                    raise
        raise RoomStorageError("unavailable", "no free room code was found")

    def insert_room(self, code: str, title: str, settings: dict, closed: bool, created_at: float,
                    conn: Connection | None = None) -> Room:
        """Insert a room exactly as given (a bundle's import); inside ``conn``'s transaction when given.

        Raises `RoomStorageError` ("unavailable", reason "conflict" when the code is taken).
        """
        values = {"code": code, "title": clean_text(title), "settings": json.dumps(settings),
                  "closed": closed, "created_at": created_at}
        if conn is not None:
            conn.execute(rooms.insert().values(**values))
        else:
            with self.transaction() as conn:
                conn.execute(rooms.insert().values(**values))
        return Room(code, values["title"], settings, closed, created_at)

    def room(self, code: str) -> Room:
        """The room of ``code``; raises ``unknown_room``."""
        with self.transaction(read_only=True) as conn:
            row = self._room_row(conn, code)
        return Room(row["code"], row["title"], json.loads(row["settings"]), bool(row["closed"]), row["created_at"])

    def update_settings(self, code: str, token: str, settings: Mapping) -> None:
        """Replace the room's settings (e.g. the baseline, the items to rate); instructor only."""
        self.check_instructor(token)
        with self.transaction() as conn:
            room = self._room_row(conn, code)
            conn.execute(update(rooms).where(rooms.c.code == room["code"]).values(settings=json.dumps(dict(settings))))

    def close_room(self, code: str, token: str) -> None:
        """Close the room: no more joins, attempts or ratings; instructor only."""
        self.check_instructor(token)
        with self.transaction() as conn:
            room = self._room_row(conn, code)
            conn.execute(update(rooms).where(rooms.c.code == room["code"]).values(closed=True))

    # ---------------------------------------------------------------- participants
    def join(self, code: str, name: str) -> Participant:
        """A new participant; a name already taken (case-insensitively) becomes "Name (2)", "Name (3)"...

        The returned ``token`` lets the same browser `rejoin`; only its hash is stored.
        """
        base = clean_name(name)
        if not base:
            raise RoomStorageError("empty_name", "the display name is empty")
        token = secrets.token_urlsafe(24)
        for _ in range(50):  # another session may take the same name between the read and the insert
            try:
                with self.transaction() as conn:
                    room = self._room_row(conn, code, open_only=True)
                    taken = set(conn.execute(select(participants.c.name_key)
                                             .where(participants.c.room_code == room["code"])).scalars())
                    chosen, n = base, 1
                    while chosen.casefold() in taken:
                        n += 1
                        suffix = f" ({n})"
                        chosen = base[:MAX_NAME - len(suffix)] + suffix
                    now = time.time()
                    new_id = conn.execute(participants.insert().values(
                        room_code=room["code"], name=chosen, name_key=chosen.casefold(), token_hash=hash_token(token),
                        joined_at=now)).inserted_primary_key[0]
                return Participant(int(new_id), room["code"], chosen, now, token)
            except RoomStorageError as error:
                if error.details.get("reason") != "conflict":
                    raise
        raise RoomStorageError("unavailable", "the name could not be stored, try again")

    def rejoin(self, code: str, token) -> Participant | None:
        """The participant ``token`` proves in this room (as `_participant_row`), or None (join again).

        A removed participant (`evallib.room.browsers.remove_participant`) is proved by nothing."""
        with self.transaction(read_only=True) as conn:
            try:
                row = self._participant_row(conn, code, token)
            except RoomStorageError:
                return None
        return Participant(row["id"], row["room_code"], row["name"], row["joined_at"], token)

    def participants(self, code: str) -> list[Participant]:
        """The room's participants in joining order (without tokens)."""
        with self.transaction(read_only=True) as conn:
            room = self._room_row(conn, code)
            rows = conn.execute(select(participants).where(participants.c.room_code == room["code"])
                                .order_by(participants.c.id)).mappings().all()
        return [Participant(r["id"], r["room_code"], r["name"], r["joined_at"]) for r in rows]

    # ---------------------------------------------------------------- attempts
    def submit_attempt(self, code: str, participant_token: str, payload: Mapping) -> int:
        """Store a validated attempt (`evallib.room.attempts.validate_attempt`); returns its id.

        No idempotency key, duplicate check nor burst limit here (an import, a test): a page submits
        through `evallib.room.submissions.submit`."""
        from evallib.room.attempts import RoomAttemptError, validate_attempt  # scipy: not on every page's start

        try:
            payload = validate_attempt(payload)
        except RoomAttemptError as error:
            raise RoomStorageError("invalid_attempt", str(error), **error.details) from error
        with self.transaction() as conn:
            room = self._room_row(conn, code, open_only=True)
            who = self._participant_row(conn, room["code"], participant_token)
            return int(conn.execute(attempts.insert().values(
                room_code=room["code"], participant_id=who["id"], kind=payload["kind"],
                payload=json.dumps(payload), hidden=False, created_at=time.time())).inserted_primary_key[0])

    def attempts(self, code: str, *, include_hidden: bool = False) -> list[StoredAttempt]:
        """The room's attempts in submission order (hidden ones only with ``include_hidden``)."""
        with self.transaction(read_only=True) as conn:
            room = self._room_row(conn, code)
            rows = conn.execute(select(attempts, participants.c.name)
                                .join(participants, participants.c.id == attempts.c.participant_id)
                                .where(attempts.c.room_code == room["code"]).order_by(attempts.c.id)).mappings().all()
        stored = [StoredAttempt(r["id"], number, r["room_code"], r["participant_id"], r["name"], r["kind"],
                                json.loads(r["payload"]), bool(r["hidden"]), r["created_at"])
                  for number, r in enumerate(rows, start=1)]
        return stored if include_hidden else [a for a in stored if not a.hidden]

    def hide_attempt(self, code: str, token: str, attempt_id: int, hidden: bool = True) -> None:
        """Hide (or show again) one attempt of this room; instructor only; raises ``unknown_attempt``."""
        self.check_instructor(token)
        with self.transaction() as conn:
            room = self._room_row(conn, code)
            done = conn.execute(update(attempts).where(attempts.c.id == int(attempt_id),
                                                       attempts.c.room_code == room["code"]).values(hidden=hidden))
            if done.rowcount != 1:
                raise RoomStorageError("unknown_attempt", f"the room has no attempt {attempt_id}", attempt=attempt_id)

    # ---------------------------------------------------------------- ratings
    def rate(self, code: str, participant_token: str, item_id: str, label: str) -> None:
        """Record (or replace) this participant's label for one item."""
        label, item_id = clean_text(label), clean_text(item_id)
        if not label:
            raise RoomStorageError("empty_label", "the rating is empty", item=item_id)
        for _ in range(5):
            try:
                with self.transaction() as conn:
                    room = self._room_row(conn, code, open_only=True)
                    who = self._participant_row(conn, room["code"], participant_token)
                    where = (ratings.c.participant_id == who["id"], ratings.c.item_id == item_id)
                    values = {"label": label, "rated_at": time.time()}
                    if conn.execute(update(ratings).where(*where).values(**values)).rowcount == 0:
                        conn.execute(ratings.insert().values(room_code=room["code"], participant_id=who["id"],
                                                             item_id=item_id, **values))
                return
            except RoomStorageError as error:
                if error.details.get("reason") != "conflict":
                    raise
        raise RoomStorageError("unavailable", "the rating could not be stored, try again")

    def ratings(self, code: str) -> list[StoredRating]:
        """Every rating of the room, in participant then rating order."""
        with self.transaction(read_only=True) as conn:
            room = self._room_row(conn, code)
            rows = conn.execute(select(ratings, participants.c.name)
                                .join(participants, participants.c.id == ratings.c.participant_id)
                                .where(ratings.c.room_code == room["code"])
                                .order_by(ratings.c.participant_id, ratings.c.id)).mappings().all()
        return [StoredRating(r["participant_id"], r["name"], r["item_id"], r["label"], r["rated_at"]) for r in rows]

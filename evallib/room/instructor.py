"""Where the instructor token comes from, and how a drawn one is kept with the room data.

Order: ``[room] instructor_token`` in ``.streamlit/secrets.toml``, then the environment variable
``EVALLIB_ROOM_INSTRUCTOR_TOKEN`` (`configured_token`); when neither sets one, a random token is drawn
ONCE for the room database and kept there (`kept_token`): the first process that finds no token draws
one and inserts it under a unique key (`KEY` in `tokens`), every other process (a restart, a second
process on PostgreSQL) reads it. Only the token's SHA-256 is stored: a copy of the database gives no
token. The process that drew it prints it in its console (as Jupyter prints its token); the instructor's
browser is then recognised without the token (`evallib.room.browsers`), and
``python -m evallib room token`` draws a new one (printed; the old one and every browser it made an
instructor stop working) for an instructor who lost it.
"""

from __future__ import annotations

import os
import secrets
import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Column, Float, String, Table, exc, select, update
from sqlalchemy.engine import Engine

from evallib.errors import InputError
from evallib.room.storage import hash_token, metadata

ROOT = Path(__file__).resolve().parent.parent.parent
SECRETS_FILE = ROOT / ".streamlit" / "secrets.toml"
ENV_VAR = "EVALLIB_ROOM_INSTRUCTOR_TOKEN"
#: The row of `tokens` that holds the drawn instructor token's hash.
KEY = "instructor"

tokens = Table(
    "room_tokens", metadata,
    Column("name", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("drawn_at", Float, nullable=False))


@dataclass(frozen=True)
class InstructorToken:
    """The token and where it came from: ``"secrets"``, ``"environment"`` or ``"drawn"`` (print it once)."""

    token: str
    source: str


@dataclass(frozen=True)
class KeptToken:
    """The drawn token of a database: its ``token_hash``, when it was drawn (Unix seconds), and the token
    itself only in the process that drew it just now (``drawn``; "" everywhere else)."""

    token_hash: str
    drawn_at: float
    drawn: str = ""


def configured_token(environ: Mapping[str, str] | None = None,
                     secrets_file: Path | None = None) -> InstructorToken | None:
    """The token set by the secrets file (default `SECRETS_FILE`) or the environment (module docstring), or
    None. Blank counts as absent.

    Raises `evallib.errors.InputError` (code ``secrets_unreadable``, details: path) when the secrets
    file exists but is not TOML, or its ``[room] instructor_token`` is not text.
    """
    secrets_file = SECRETS_FILE if secrets_file is None else secrets_file
    if secrets_file.is_file():
        try:
            room = tomllib.loads(secrets_file.read_text(encoding="utf-8")).get("room", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise InputError("secrets_unreadable", f"{secrets_file} is not valid TOML: {error}",
                             path=str(secrets_file)) from error
        value = room.get("instructor_token", "") if isinstance(room, dict) else ""
        if not isinstance(value, str):
            raise InputError("secrets_unreadable", f"{secrets_file}: [room] instructor_token must be text",
                             path=str(secrets_file))
        if value.strip():
            return InstructorToken(value.strip(), "secrets")
    value = (os.environ if environ is None else environ).get(ENV_VAR, "").strip()
    return InstructorToken(value, "environment") if value else None


def instructor_token(environ: Mapping[str, str] | None = None, secrets_file: Path | None = None) -> InstructorToken:
    """`configured_token`, else a freshly drawn one (source ``"drawn"``: keep it with `kept_token`)."""
    return configured_token(environ, secrets_file) or InstructorToken(new_token(), "drawn")


def new_token() -> str:
    """A random instructor token (18 random bytes, 24 URL-safe characters)."""
    return secrets.token_urlsafe(18)


def kept_token(engine: Engine) -> KeptToken:
    """The database's drawn instructor token, drawn and inserted now when it has none (module docstring).

    Safe with several processes: the insert is under a primary key, the loser of a race reads the
    winner's row. Raises SQLAlchemy's ``DBAPIError`` when the database cannot be used.
    """
    tokens.create(engine, checkfirst=True)
    with engine.begin() as conn:
        row = conn.execute(select(tokens).where(tokens.c.name == KEY)).mappings().first()
    if row is not None:
        return KeptToken(row["token_hash"], row["drawn_at"])
    token, now = new_token(), time.time()
    try:
        with engine.begin() as conn:
            conn.execute(tokens.insert().values(name=KEY, token_hash=hash_token(token), drawn_at=now))
    except exc.IntegrityError:  # another process drew it first
        return kept_token(engine)
    return KeptToken(hash_token(token), now, token)


def draw_new_token(engine: Engine) -> str:
    """Replace the database's drawn token by a new one and return it (``python -m evallib room token``).

    Every browser recognised as the instructor's with the old token loses that standing.
    """
    kept_token(engine)
    token = new_token()
    with engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.name == KEY).values(token_hash=hash_token(token),
                                                                       drawn_at=time.time()))
    return token


def console_line(kept: KeptToken) -> str:
    """What the server prints at start about a drawn token: the token when this process drew it, else where it is."""
    if kept.drawn:
        return f"  Room instructor token (Salle / Room page), drawn now and kept with the room data: {kept.drawn}"
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.drawn_at))
    return (f"  Room instructor token: the one printed on {when} (kept with the room data; the instructor's browser "
            "is recognised without it). Lost it? `python -m evallib room token` draws a new one.")

"""Where the instructor token comes from: the Streamlit secrets, the environment, or drawn at start.

Order: ``[room] instructor_token`` in ``.streamlit/secrets.toml``, then the environment variable
``EVALLIB_ROOM_INSTRUCTOR_TOKEN``, else a random token drawn once per server process, which the server
prints once in its console (as Jupyter prints its token) so that the instructor can paste it. The
source is returned with the token so that the caller knows whether to print it.
"""

from __future__ import annotations

import functools
import os
import secrets
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from evallib.errors import InputError

ROOT = Path(__file__).resolve().parent.parent.parent
SECRETS_FILE = ROOT / ".streamlit" / "secrets.toml"
ENV_VAR = "EVALLIB_ROOM_INSTRUCTOR_TOKEN"


@dataclass(frozen=True)
class InstructorToken:
    """The token and where it came from: ``"secrets"``, ``"environment"`` or ``"drawn"`` (print it once)."""

    token: str
    source: str


def instructor_token(environ: Mapping[str, str] | None = None, secrets_file: Path = SECRETS_FILE) -> InstructorToken:
    """The instructor token (module docstring). Blank values count as absent.

    Raises `evallib.errors.InputError` (code ``secrets_unreadable``, details: path) when the secrets
    file exists but is not TOML, or its ``[room] instructor_token`` is not text.
    """
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
    if value:
        return InstructorToken(value, "environment")
    return InstructorToken(secrets.token_urlsafe(18), "drawn")


@functools.cache
def server_instructor_token() -> InstructorToken:
    """The token of this server process: `instructor_token` read once, so that a drawn token stays the same.

    The server prints it once when it is drawn (``serve.py`` at start); raises as `instructor_token`.
    """
    return instructor_token()

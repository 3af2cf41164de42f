"""The room's endpoint: one live model server the instructor sets once for every joined participant.

The instructor types, on the Room page, the endpoint's kind ("openai" or "anthropic"), base URL,
model and key (`set_endpoint`, instructor only). It is kept in its own table, ``room_endpoints``,
beside the room: not in the room's ``settings`` (a participant's page reads those), never in an
attempt, an export or a bundle (`evallib.room.bundle` exports rooms, participants, attempts and
ratings, not this table). Encryption at rest is not attempted: whoever reads the database file reads
the key, as whoever reads the server's environment does.

What leaves the server is `RoomEndpoint.public` (kind, base URL with its userinfo redacted, model,
whether a key is set): that is what a participant's page and the instructor's panel show.
`room_endpoint` returns the whole endpoint, key included, for the server's own provider only
(`ui.settings.current_settings` builds the session's `ProviderConfig` from it, per run, without
writing the key in the session's state). Requests through it go through the per-endpoint fair
scheduler like any other (`evallib.llm.scheduler`): the endpoint's fingerprint is kind + base URL.

Errors: `RoomStorageError` ``bad_token``, ``unknown_room``, ``unavailable``, and ``bad_endpoint``
(details ``field``: "kind", "base_url" or "model") for an endpoint that cannot be used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sqlalchemy import Column, Float, ForeignKey, String, Table, Text, delete, select

from evallib.llm.urls import base_url_problem
from evallib.llm.redaction import redact_url
from evallib.room.storage import RoomStorageError, RoomStore, metadata, normalise_code

KINDS = ("openai", "anthropic")

endpoints = Table(
    "room_endpoints", metadata,
    Column("room_code", String(16), ForeignKey("room_rooms.code"), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("base_url", Text, nullable=False),
    Column("model", Text, nullable=False),
    Column("api_key", Text, nullable=False, default=""),
    Column("set_at", Float, nullable=False))


@dataclass(frozen=True)
class RoomEndpoint:
    """A room's endpoint. ``api_key`` stays on the server: it is left out of ``repr`` and `public`."""

    kind: str
    base_url: str
    model: str
    api_key: str = field(default="", repr=False)

    def public(self) -> dict:
        """What a page may show: kind, base URL without its userinfo, model, whether a key is set.

        >>> RoomEndpoint("openai", "http://u:p@h:8000/v1", "m", "sk-x").public()
        {'kind': 'openai', 'base_url': 'http://***@h:8000/v1', 'model': 'm', 'has_key': True}
        """
        return {"kind": self.kind, "base_url": redact_url(self.base_url), "model": self.model,
                "has_key": bool(self.api_key)}


def check_endpoint(kind: str, base_url: str, model: str) -> None:
    """Raise `RoomStorageError` ``bad_endpoint`` (``field`` names which) unless the endpoint can be used.

    >>> check_endpoint("openai", "http://user:pass@127.0.0.1:4000/v1", "m")
    >>> check_endpoint("openai", "", "m")
    Traceback (most recent call last):
    ...
    evallib.room.storage.RoomStorageError: the endpoint's base_url is missing or malformed
    """
    problems = (("kind", kind not in KINDS), ("base_url", bool(base_url_problem(base_url))),
                ("model", not model))
    for name, wrong in problems:
        if wrong:
            raise RoomStorageError("bad_endpoint", f"the endpoint's {name} is missing or malformed", field=name)


def set_endpoint(store: RoomStore, code: str, token, *, kind: str, base_url: str, model: str,
                 api_key: str = "") -> RoomEndpoint:
    """Set (or replace) room ``code``'s endpoint; instructor only. Values are trimmed and checked
    (`check_endpoint`). An empty ``api_key`` keeps the key already set (the panel never shows it)."""
    store.check_instructor(token)
    endpoint = RoomEndpoint(kind.strip(), base_url.strip(), model.strip(), api_key.strip())
    check_endpoint(endpoint.kind, endpoint.base_url, endpoint.model)
    with store.transaction() as conn:
        room = store._room_row(conn, code)["code"]
        kept = conn.execute(select(endpoints.c.api_key).where(endpoints.c.room_code == room)).scalar()
        key = endpoint.api_key or (kept or "")
        conn.execute(delete(endpoints).where(endpoints.c.room_code == room))
        conn.execute(endpoints.insert().values(room_code=room, kind=endpoint.kind, base_url=endpoint.base_url,
                                               model=endpoint.model, api_key=key, set_at=time.time()))
    return RoomEndpoint(endpoint.kind, endpoint.base_url, endpoint.model, key)


def clear_endpoint(store: RoomStore, code: str, token) -> None:
    """Remove room ``code``'s endpoint (its key with it); instructor only."""
    store.check_instructor(token)
    with store.transaction() as conn:
        room = store._room_row(conn, code)["code"]
        conn.execute(delete(endpoints).where(endpoints.c.room_code == room))


def room_endpoint(store: RoomStore, code: str) -> RoomEndpoint | None:
    """Room ``code``'s endpoint with its key (for the server's provider only), None when none is set."""
    with store.transaction(read_only=True) as conn:
        row = conn.execute(select(endpoints).where(endpoints.c.room_code == normalise_code(code))).mappings().first()
    if row is None:
        return None
    return RoomEndpoint(row["kind"], row["base_url"], row["model"], row["api_key"])

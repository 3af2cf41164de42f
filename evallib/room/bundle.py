"""A whole room as one JSON bundle: exported by the instructor, loaded back offline on another machine.

The bundle (``data/schemas/room_bundle.schema.json``, ``format`` "evallib-room-bundle", ``version`` 2)
holds the room, its participants (names only: no token ever leaves the database; ``removed_at`` for
those the instructor removed), every attempt (hidden ones flagged), every rating, and the browser rows
(`evallib.room.browsers`: which browser key is or was which participant; a key is the SHA-256 of a
browser's cookie, never the cookie). A version 1 bundle (no removals, no browsers) still loads. `read_bundle` checks a text before anything is written: JSON,
ours, not from a newer version, the schema, each attempt's own schema, and that every reference
holds (participant ids, one name per participant, one rating per participant and item). `import_bundle`
then writes it in **one transaction**: a failure leaves the database as it was.

Errors are `RoomBundleError` (an `evallib.errors.InputError`) with ``code``: ``not_json``, ``not_ours``,
``newer_version``, ``schema`` (``details``: path), ``invalid_attempt`` (``details``: number),
``inconsistent`` (``details``: what).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping


from evallib.errors import InputError
from evallib.schemas import validator
from evallib.room.attempts import RoomAttemptError, validate_attempt
from evallib.room.browsers import removal_times, restore_room_people, room_browsers
from evallib.room.storage import (CODE_ALPHABET, CODE_LENGTH, Room, RoomStore, attempts, clean_name, clean_text,
                                  hash_token, participants, ratings, rooms)

FORMAT = "evallib-room-bundle"
VERSION = 2
SCHEMA = "room_bundle.schema.json"


class RoomBundleError(InputError):
    """A bundle that cannot be loaded; nothing of it was written (codes in the module docstring)."""


def export_room(store: RoomStore, code: str, token: str) -> dict:
    """The bundle of room ``code`` (instructor only; raises `RoomStorageError` ``bad_token``)."""
    store.check_instructor(token)
    room = store.room(code)
    removals = removal_times(store, code)
    return {
        "format": FORMAT, "version": VERSION, "exported_at": time.time(),
        "room": {"code": room.code, "title": room.title, "settings": room.settings, "closed": room.closed,
                 "created_at": room.created_at},
        "participants": [{"id": p.id, "name": p.name, "joined_at": p.joined_at,
                          **({"removed_at": removals[p.id]} if p.id in removals else {})}
                         for p in store.participants(code)],
        "attempts": [{"number": a.number, "participant_id": a.participant_id, "payload": a.payload,
                      "hidden": a.hidden, "created_at": a.created_at}
                     for a in store.attempts(code, include_hidden=True)],
        "ratings": [{"participant_id": r.participant_id, "item_id": r.item_id, "label": r.label,
                     "rated_at": r.rated_at} for r in store.ratings(code)],
        "browsers": room_browsers(store, code),
    }


def _inconsistent(what: str, message: str) -> RoomBundleError:
    return RoomBundleError("inconsistent", f"the bundle contradicts itself: {message}", what=what)


def _check_references(bundle: dict) -> None:
    ids = [p["id"] for p in bundle["participants"]]
    if len(set(ids)) != len(ids):
        raise _inconsistent("participant_id", "two participants share an id")
    names = [clean_name(p["name"]).casefold() for p in bundle["participants"]]
    if "" in names or len(set(names)) != len(names):
        raise _inconsistent("name", "two participants share a name, or a name is blank")
    known = set(ids)
    if any(a["participant_id"] not in known for a in bundle["attempts"]) or any(
            r["participant_id"] not in known for r in bundle["ratings"]):
        raise _inconsistent("participant_id", "an attempt or a rating names an unknown participant")
    numbers = [a["number"] for a in bundle["attempts"]]
    if len(set(numbers)) != len(numbers):
        raise _inconsistent("number", "two attempts share a number")
    if any(not clean_text(r["item_id"]) or not clean_text(r["label"]) for r in bundle["ratings"]):
        raise _inconsistent("rating", "a rating has a blank item or label")
    pairs = [(r["participant_id"], clean_text(r["item_id"])) for r in bundle["ratings"]]
    if len(set(pairs)) != len(pairs):
        raise _inconsistent("rating", "a participant rated the same item twice")
    browsers = bundle.get("browsers", [])
    if any(b["participant_id"] not in known for b in browsers):
        raise _inconsistent("participant_id", "a browser row names an unknown participant")
    rows = [(b["browser_key"], b["participant_id"]) for b in browsers]
    members = [b["browser_key"] for b in browsers if b["state"] == "member"]
    if len(set(rows)) != len(rows) or len(set(members)) != len(members):
        raise _inconsistent("browser", "a browser is twice the same participant, or a member twice")


def read_bundle(data: str | bytes | Mapping) -> dict:
    """The checked bundle from its text (or an already parsed object); raises `RoomBundleError`, writes nothing."""
    bundle = data
    if isinstance(data, (str, bytes, bytearray)):
        try:
            bundle = json.loads(data)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise RoomBundleError("not_json", f"the file is not JSON (or is cut short): {error}"[:200]) from error
    if not isinstance(bundle, Mapping) or bundle.get("format") != FORMAT:
        raise RoomBundleError("not_ours", "this file is not a room bundle of this app")
    version = bundle.get("version")
    if isinstance(version, (int, float)) and not isinstance(version, bool) and version > VERSION:
        raise RoomBundleError("newer_version", f"the bundle has version {version}; this app reads up to {VERSION}",
                              version=version, supported=VERSION)
    try:
        error = next(iter(validator(SCHEMA).iter_errors(bundle)), None)
    except RecursionError:
        raise RoomBundleError("schema", "the bundle is nested too deeply", path="") from None
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path)
        raise RoomBundleError("schema", f"bundle, at {path or 'the top'}: {error.message[:160]}", path=path)
    _check_references(bundle)
    checked = json.loads(json.dumps(bundle))
    for attempt in checked["attempts"]:
        try:
            attempt["payload"] = validate_attempt(attempt["payload"])
        except RoomAttemptError as failure:
            raise RoomBundleError("invalid_attempt", f"attempt {attempt['number']}: {failure}",
                                  number=attempt["number"], reason=failure.code) from failure
    return checked


def import_bundle(store: RoomStore, token: str, data: str | bytes | Mapping) -> Room:
    """Load a bundle as a new room, in one transaction; returns it.

    The room keeps its code when it is free in this database, else gets a new one. Participants keep
    their names but get new tokens nobody holds; the browsers that were members are members again (a
    browser already a member of another room here is left out of this one until it joins again:
    `evallib.room.browsers.restore_room_people`), removed participants stay removed; attempts are
    numbered again 1, 2... in the bundle's order of numbers. Raises `RoomBundleError`
    (nothing written) or `RoomStorageError` (``bad_token``; ``unavailable``, nothing written).
    """
    store.check_instructor(token)
    bundle = read_bundle(data)
    room = bundle["room"]
    with store.transaction() as conn:
        taken = set(conn.execute(rooms.select().with_only_columns(rooms.c.code)).scalars())
        code = room["code"]
        while code in taken:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        imported = store.insert_room(code, room["title"], room["settings"], room["closed"], room["created_at"],
                                      conn=conn)
        new_id = {}
        for p in bundle["participants"]:
            name = clean_name(p["name"])
            new_id[p["id"]] = conn.execute(participants.insert().values(
                room_code=code, name=name, name_key=name.casefold(), token_hash=hash_token(secrets.token_urlsafe(24)),
                joined_at=p["joined_at"])).inserted_primary_key[0]
        for a in sorted(bundle["attempts"], key=lambda a: a["number"]):
            conn.execute(attempts.insert().values(
                room_code=code, participant_id=new_id[a["participant_id"]], kind=a["payload"]["kind"],
                payload=json.dumps(a["payload"]), hidden=a["hidden"], created_at=a["created_at"]))
        restore_room_people(conn, code, {new_id[p["id"]]: p["removed_at"] for p in bundle["participants"]
                                         if "removed_at" in p},
                            [{**b, "participant_id": new_id[b["participant_id"]]} for b in bundle.get("browsers", [])])
        if bundle["ratings"]:
            conn.execute(ratings.insert(), [
                {"room_code": code, "participant_id": new_id[r["participant_id"]], "item_id": clean_text(r["item_id"]),
                 "label": clean_text(r["label"]), "rated_at": r["rated_at"]} for r in bundle["ratings"]])
    return imported

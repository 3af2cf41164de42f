"""The room's pack: the workshop content the instructor gives every participant (docs/packs.md#app).

Kept in the room's settings (``Room.settings["pack"]``): where the server finds the pack (a built-in
pack's folder, one of ``EVALLIB_PACKS``, an uploaded zip's extracted folder) and the identity of the
content it had when set (id, version, content hash, `evallib.packs.loader.Pack.identity`). The board
compares attempts made on one pack content only (`attempt_pack`, `evallib.room.models.model_boards`).
"""

from __future__ import annotations

from collections.abc import Mapping

from evallib.packs.loader import Pack
from evallib.room.storage import RoomStore

#: The room setting holding the pack.
PACK_KEY = "pack"


def set_room_pack(store: RoomStore, code: str, token, pack: Pack | None) -> None:
    """Give room ``code`` the pack ``pack`` (None: no pack); instructor only (`RoomStorageError` otherwise)."""
    store.check_instructor(token)
    settings = dict(store.room(code).settings)
    settings.pop(PACK_KEY, None)
    if pack is not None:
        settings[PACK_KEY] = {"path": str(pack.root), "title": pack.title, **pack.identity()}
    store.update_settings(code, token, settings)


def room_pack(settings: Mapping | None) -> dict | None:
    """``{"path", "title", "id", "version", "hash"}`` of a room's settings, None when the room has no pack."""
    value = (settings or {}).get(PACK_KEY)
    return dict(value) if isinstance(value, Mapping) and isinstance(value.get("path"), str) else None


def attempt_pack(payload: Mapping) -> dict:
    """``{"id", "version", "hash"}`` of the pack an attempt was made on ({} for an attempt that names none:
    one made before packs, on the built-in French content)."""
    value = (payload.get("provenance") or {}).get("pack")
    return {k: value.get(k) for k in ("id", "version", "hash")} if isinstance(value, Mapping) else {}

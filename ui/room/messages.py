"""The room's errors worded in the session's language: storage, bundle and rating-set codes.

Every `RoomStorageError`, `RoomBundleError` and `RatingSetError` code has a text under
``room.error.*``, ``room.bundle_error.*`` or ``room.rating_error.*`` (a test walks every code);
the details a text names (room code, attempt, path...) are shown as typed, escaped.
"""

from __future__ import annotations

from evallib.errors import InputError
from evallib.room.rating_set import RatingSetError
from evallib.room.storage import RoomStorageError
from ui.i18n import catalogue, integer, t
from ui.labels import md

STORAGE_CODES = ("unavailable", "unknown_room", "room_closed", "bad_token", "unknown_participant", "empty_name",
                 "unknown_attempt", "invalid_attempt", "empty_label", "duplicate_attempt", "too_soon")
BUNDLE_CODES = ("not_json", "not_ours", "newer_version", "schema", "invalid_attempt", "inconsistent")
RATING_CODES = ("too_few_labels", "no_items", "duplicate_item")


def _detail(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return integer(value)
    return md(value, 60)


def error_text(error: Exception) -> str:
    """The sentence for a room error (Markdown-safe); an unknown code falls back to the storage text."""
    from evallib.room.bundle import RoomBundleError  # here: the bundle's attempts import scipy, the sidebar needs none
    details = {k: _detail(v) for k, v in getattr(error, "details", {}).items()}
    code = getattr(error, "code", "")
    if isinstance(error, RoomBundleError):
        key = f"room.bundle_error.{code}"
        if code == "schema":
            details["path"] = md(error.details.get("path") or t("room.bundle_top"), 60)
        if code == "inconsistent":
            what = f"room.bundle_what.{error.details.get('what')}"
            details["what"] = t(what) if what in catalogue() else md(error.details.get("what", ""), 60)
    elif isinstance(error, RatingSetError):
        key = f"room.rating_error.{code}"
    elif isinstance(error, RoomStorageError):
        key = f"room.error.{code}"
    elif isinstance(error, InputError) and code == "secrets_unreadable":
        key = "room.error.secrets_unreadable"
    else:
        key = "room.error.unavailable"
    if key not in catalogue():
        key = "room.error.unavailable"
    defaults = {"room": "", "attempt": "", "id": "", "number": "", "version": "", "supported": ""}
    return t(key, **{**defaults, **details})

"""The room's version for its board (`evallib.room.board_version`): one query, changed by every change the
board shows (a submission, a hidden or shown attempt, a rating, a changed label), on SQLite and PostgreSQL."""

import pytest

from evallib.room.board_version import room_version
from evallib.room.history import mark_final
from evallib.room.storage import RoomStorageError
from tests.evallib.room.conftest import TOKEN, trigger_payload


def test_the_version_changes_with_each_change_the_board_shows(store):
    code = store.open_room(TOKEN, "Once").code
    ana, bob = store.join(code, "Ana"), store.join(code, "Bob")
    store.submit_attempt(code, bob.token, trigger_payload([True, True, False, False]))
    seen = [room_version(store, code)]
    assert room_version(store, code.lower()) == seen[0]  # unchanged, as typed in any case
    store.submit_attempt(code, ana.token, trigger_payload([False, False, True, True]))
    seen.append(room_version(store, code))
    first = store.attempts(code)[0].id
    store.hide_attempt(code, TOKEN, first)
    seen.append(room_version(store, code))
    store.rate(code, ana.token, "i1", "pass")
    seen.append(room_version(store, code))
    store.rate(code, ana.token, "i1", "fail")  # the same rating row, another label
    seen.append(room_version(store, code))
    store.hide_attempt(code, TOKEN, first, hidden=False)
    seen.append(room_version(store, code))
    store.submit_attempt(code, ana.token, trigger_payload([True, False, True, True]))
    seen.append(room_version(store, code))
    mark_final(store, code, ana.token, "trigger", store.attempts(code)[1].id)  # the board ranks the older one
    seen.append(room_version(store, code))
    assert len(set(seen)) == len(seen)
    mark_final(store, code, ana.token, "trigger", None)  # back to her latest: the board before the mark
    assert room_version(store, code) == seen[-2]
    with pytest.raises(RoomStorageError) as error:
        room_version(store, "NOROOM")
    assert error.value.code == "unknown_room"

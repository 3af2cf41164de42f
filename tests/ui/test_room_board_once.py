"""One board per room and change (docs/README.md#room-serving): sessions refreshing an unchanged board read one
version row (`evallib.room.board_version`, tested in tests/evallib/room/test_board_version.py), not the
room's attempts; a submission gives a new version and one new build."""

from __future__ import annotations

import pytest

from evallib.room.board_version import room_version
from evallib.room.storage import RoomStore
from tests.evallib.room.conftest import trigger_payload
from ui.room import board, state

TOKEN = "board-once-instructor"


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A room with two trigger attempts and one rater, in the store the page uses (`ui.room.state.room_store`)."""
    monkeypatch.setenv("EVALLIB_DATABASE_URL", f"sqlite:///{tmp_path}/rooms.sqlite3")
    monkeypatch.setenv("EVALLIB_ROOM_INSTRUCTOR_TOKEN", TOKEN)
    state.room_store.clear()
    board.board_parts.clear()
    store = state.room_store()
    code = store.open_room(TOKEN, "Once", {"rating": {"items": [{"id": "i1", "text": "x"}], "labels": ["pass", "fail"]}}).code
    ana, bob = store.join(code, "Ana"), store.join(code, "Bob")
    store.submit_attempt(code, ana.token, trigger_payload([True, False, True, True]))
    store.submit_attempt(code, bob.token, trigger_payload([True, True, False, False]))
    yield store, code, ana
    board.board_parts.clear()
    state.room_store.clear()
    store.engine.dispose()


def test_refreshes_of_an_unchanged_board_read_the_attempts_once(room, monkeypatch):
    store, code, ana = room
    reads = []
    original = RoomStore.attempts
    monkeypatch.setattr(RoomStore, "attempts", lambda self, *a, **k: reads.append(1) or original(self, *a, **k))
    for _ in range(5):  # five sessions (or refreshes) on the same board
        board.draw_board(code, 3.0)
    assert len(reads) == 1
    store.submit_attempt(code, ana.token, trigger_payload([False, True, True, True]))
    board.draw_board(code, 3.0)
    board.draw_board(code, 3.0)
    assert len(reads) == 2
    parts = board.board_parts(code, room_version(store, code), "fr")
    assert [len(kind.board.rows) for kind in parts.kinds] == [2]  # Ana's new attempt replaces her first

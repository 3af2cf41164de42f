"""The room's pack (docs/packs.md#app): set by the instructor only, kept in the room's settings, and boards that
compare attempts within one pack content, mixed models or not."""

from types import SimpleNamespace

import pytest

from evallib.packs.loader import open_pack
from evallib.room.attempts import validate_attempt
from evallib.room.models import model_boards
from evallib.room.room_pack import attempt_pack, room_pack, set_room_pack
from evallib.room.storage import RoomStorageError
from tests.evallib.room.conftest import TOKEN, trigger_payload
from tests.small_pack import write_small_pack

GOOD, BAD = [True] * 12, [False] * 10 + [True] * 2
PACK_A = {"id": "fr", "version": "1.0.0", "hash": "a" * 64}
PACK_B = {"id": "small-office", "version": "0.1.0", "hash": "b" * 64}


def entry(number, visible, pack):
    payload = trigger_payload(visible)
    if pack is not None:
        payload["provenance"]["pack"] = pack
    return SimpleNamespace(number=number, participant=f"P{number}", payload=payload)


def test_attempts_of_two_packs_are_never_on_one_board_even_mixed():
    room = [entry(1, GOOD, PACK_A), entry(2, BAD, PACK_B), entry(3, BAD, PACK_A), entry(4, GOOD, PACK_B)]
    for mixed in (False, True):
        boards = model_boards(room, mixed=mixed)
        assert [b.pack for b in boards] == [PACK_A, PACK_B]
        assert [[r.number for r in b.rows] for b in boards] == [[1, 3], [4, 2]]
        assert [b.n_pairs for b in boards] == [1, 1]


def test_attempts_made_before_packs_share_a_board_with_no_pack_named():
    [board] = model_boards([entry(1, GOOD, None), entry(2, BAD, None)])
    assert board.pack == {} and [r.number for r in board.rows] == [1, 2]
    assert attempt_pack(entry(1, GOOD, None).payload) == {}


def test_an_attempt_naming_its_pack_passes_the_attempt_schema_and_a_bad_hash_does_not():
    validate_attempt(entry(1, GOOD, PACK_A).payload)
    with pytest.raises(Exception):
        validate_attempt(entry(1, GOOD, {**PACK_A, "hash": "not-a-hash"}).payload)


def test_only_the_instructor_sets_the_room_s_pack_and_it_is_read_back(store, tmp_path):
    token = TOKEN
    pack = open_pack(write_small_pack(tmp_path / "small"))
    room = store.open_room(token, "packs")
    with pytest.raises(RoomStorageError):
        set_room_pack(store, room.code, "wrong-token", pack)
    set_room_pack(store, room.code, token, pack)
    chosen = room_pack(store.room(room.code).settings)
    assert chosen == {"path": str(pack.root), "title": pack.title, **pack.identity()}
    set_room_pack(store, room.code, token, None)
    assert room_pack(store.room(room.code).settings) is None

"""Submissions: idempotency keys, identical attempts refused, a burst limit, pending rows, what counts on the
board, hiding a participant's attempts; on SQLite and PostgreSQL (conftest's ``store``)."""

import threading

import pytest
from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, UniqueConstraint

from evallib.room import submissions
from evallib.room.board import build_boards
from evallib.room.history import board_attempts, hide_participant, history, mark_final
from evallib.room.storage import RoomStorageError, RoomStore
from evallib.room.submissions import BURST_SECONDS, last_submission, new_key, submit
from tests.evallib.room.conftest import TOKEN, trigger_payload

T0 = 1_800_000_000.0


def _room(store, *names):
    code = store.open_room(TOKEN, "t").code
    return code, [store.join(code, name) for name in names]


def test_same_key_stores_once_and_returns_the_first_number(store):
    code, (ana,) = _room(store, "Ana")
    key, payload = new_key(), trigger_payload([True, False])
    first = submit(store, code, ana.token, payload, key, now=T0)
    again = submit(store, code, ana.token, payload, key, now=T0 + 1)
    assert (first.number, first.duplicate) == (1, False)
    assert (again.attempt_id, again.number, again.duplicate) == (first.attempt_id, 1, True)
    assert len(store.attempts(code)) == 1
    assert last_submission(store, code, ana.token, "trigger").code == "stored"


def test_identical_attempt_refused_with_its_number_and_burst_limited(store):
    code, (ana, bob) = _room(store, "Ana", "Bob")
    submit(store, code, bob.token, trigger_payload([True]), new_key(), now=T0)
    submit(store, code, ana.token, trigger_payload([True]), new_key(), now=T0)  # same content, another person
    with pytest.raises(RoomStorageError) as same:
        submit(store, code, ana.token, trigger_payload([True]), new_key(), now=T0 + 100)
    assert (same.value.code, same.value.details["number"]) == ("duplicate_attempt", 2)
    with pytest.raises(RoomStorageError) as soon:
        submit(store, code, ana.token, trigger_payload([False]), new_key(), now=T0 + 3)
    assert soon.value.code == "too_soon" and soon.value.details["retry_at"] == T0 + BURST_SECONDS
    assert last_submission(store, code, ana.token, "trigger").values["number"] == 2  # refused ones passed over
    assert submit(store, code, ana.token, trigger_payload([False]), new_key(), now=T0 + BURST_SECONDS).number == 3


def test_a_flood_from_threads_stores_one_attempt(store):
    code, (ana,) = _room(store, "Ana")
    payload, results = trigger_payload([True, True, False]), []

    def click():
        try:
            results.append(submit(store, code, ana.token, payload, new_key()).number)
        except RoomStorageError as error:
            results.append(error.code)
    threads = [threading.Thread(target=click) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(store.attempts(code)) == 1
    assert sorted(map(str, results)) == ["1"] + ["duplicate_attempt"] * 7


def test_pending_row_without_attempt_reads_missing(store):
    code, (ana,) = _room(store, "Ana")
    key = new_key()
    submissions.begin(store, code, ana.token, "persona", key, now=T0)
    assert last_submission(store, code, ana.token, "persona").code == "in_flight"
    submissions._IN_FLIGHT.discard(key)  # what a killed server leaves: the row, and no process sending it
    missing = last_submission(store, code, ana.token, "persona")
    assert (missing.code, missing.values["at"]) == ("missing", T0)
    assert last_submission(store, code, ana.token, "trigger").code == "none"


def test_board_ranks_latest_or_final_and_holm_counts_only_those(store):
    code, people = _room(store, *[f"P{i}" for i in range(10)])
    for i, person in enumerate(people):
        submit(store, code, person.token, trigger_payload([True] * i + [False] * (10 - i)), new_key(), now=T0)
    flood = people[0]
    for n in range(20):
        submit(store, code, flood.token, trigger_payload([True] * n + [None] * (20 - n)), new_key(),
               now=T0 + BURST_SECONDS * (n + 1))
    assert len(store.attempts(code)) == 30
    board = build_boards(board_attempts(store, code))["trigger"]
    assert (board.n_pairs, len(board.rows)) == (45, 10)
    latest = [row.attempt_id for row in history(store, code, flood.token) if row.counts]
    assert latest == [store.attempts(code)[-1].id]
    first = store.attempts(code)[0]
    mark_final(store, code, flood.token, "trigger", first.id)
    mine = history(store, code, flood.token)
    assert [(r.number, r.counts, r.final) for r in mine if r.counts] == [(1, True, True)]
    assert 1 in [row.number for row in build_boards(board_attempts(store, code))["trigger"].rows]
    with pytest.raises(RoomStorageError) as other:
        mark_final(store, code, flood.token, "trigger", store.attempts(code)[1].id)
    assert other.value.code == "unknown_attempt"
    assert hide_participant(store, code, TOKEN, store.participants(code)[0].id) == 21
    assert len(build_boards(board_attempts(store, code))["trigger"].rows) == 9
    assert all(row.hidden for row in history(store, code, flood.token))
    with pytest.raises(RoomStorageError):
        hide_participant(store, code, "wrong", store.participants(code)[1].id)


def test_opens_a_database_made_by_mains_schema(database_url):
    old = MetaData()  # room_rooms, room_participants and room_attempts as main created them (ratings left out)
    Table("room_rooms", old, Column("code", String(16), primary_key=True), Column("title", Text, nullable=False),
          Column("settings", Text, nullable=False), Column("closed", Boolean, nullable=False),
          Column("created_at", Float, nullable=False))
    Table("room_participants", old, Column("id", Integer, primary_key=True, autoincrement=True),
          Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False),
          Column("name", Text, nullable=False), Column("name_key", Text, nullable=False),
          Column("token_hash", String(64), nullable=False, unique=True), Column("joined_at", Float, nullable=False),
          UniqueConstraint("room_code", "name_key"))
    Table("room_attempts", old, Column("id", Integer, primary_key=True, autoincrement=True),
          Column("room_code", String(16), ForeignKey("room_rooms.code"), nullable=False),
          Column("participant_id", Integer, ForeignKey("room_participants.id"), nullable=False),
          Column("kind", String(32), nullable=False), Column("payload", Text, nullable=False),
          Column("hidden", Boolean, nullable=False), Column("created_at", Float, nullable=False))
    from evallib.room.storage import make_engine
    engine = make_engine(database_url)
    with engine.begin() as conn:
        old.create_all(conn)
    engine.dispose()
    store = RoomStore(database_url, instructor_token=TOKEN)
    try:
        code, (ana,) = _room(store, "Ana")
        store.submit_attempt(code, ana.token, trigger_payload([True]))  # an attempt stored before the upgrade
        assert submit(store, code, ana.token, trigger_payload([False]), new_key(), now=T0 + 60).number == 2
        assert [row.number for row in history(store, code, ana.token)] == [2, 1]
    finally:
        store.engine.dispose()

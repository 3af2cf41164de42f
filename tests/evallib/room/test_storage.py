import sqlite3
import threading

import pytest

from evallib.room import storage
from evallib.room.storage import (CODE_ALPHABET, CODE_LENGTH, MAX_NAME, RoomStorageError, RoomStore, clean_name,
                                  database_url, tokens_match)
from tests.evallib.room.conftest import TOKEN, trigger_payload


def test_database_url_defaults_to_the_sqlite_file_and_reads_the_environment():
    assert database_url({}) == f"sqlite:///{storage.DEFAULT_SQLITE_PATH}"
    assert database_url({"EVALLIB_DATABASE_URL": "postgresql://u@h/db"}) == "postgresql+psycopg://u@h/db"
    assert database_url({"EVALLIB_DATABASE_URL": "sqlite:////x.db"}) == "sqlite:////x.db"


def test_the_default_sqlite_folder_is_ignored_by_git():
    assert "/.rooms/" in (storage.ROOT / ".gitignore").read_text().splitlines()


def test_room_codes_use_only_unambiguous_characters(store):
    codes = {store.open_room(TOKEN).code for _ in range(20)}
    assert len(codes) == 20
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("01OIL5S2Z8B") & set(CODE_ALPHABET)


def test_a_code_is_found_whatever_its_case_and_separators(store):
    room = store.open_room(TOKEN, "Atelier")
    typed = f" {room.code[:3].lower()}-{room.code[3:]} "
    assert store.room(typed).code == room.code
    with pytest.raises(RoomStorageError) as error:
        store.room("ZZZZZZ")
    assert error.value.code == "unknown_room"


def test_names_are_cleaned_capped_and_duplicates_told_apart(store):
    code = store.open_room(TOKEN).code
    names = [store.join(code, n).name for n in ("Ana", "ana", " ANA ", "Bob\x00\n  Lee", "x" * 100)]
    assert names == ["Ana", "ana (2)", "ANA (3)", "Bob Lee", "x" * MAX_NAME]
    assert store.join(code, "x" * 100).name == "x" * (MAX_NAME - 4) + " (2)"
    assert [p.name for p in store.participants(code)] == names + ["x" * (MAX_NAME - 4) + " (2)"]
    with pytest.raises(RoomStorageError) as error:
        store.join(code, " \t\x01 ")
    assert error.value.code == "empty_name"


def test_names_are_stored_as_plain_text():
    assert clean_name("<b>Ana</b> & co") == "<b>Ana</b> & co"


def test_the_same_browser_rejoins_with_its_token_and_only_in_its_room(store):
    first, second = store.open_room(TOKEN).code, store.open_room(TOKEN).code
    ana = store.join(first, "Ana")
    again = store.rejoin(first, ana.token)
    assert (again.id, again.name) == (ana.id, "Ana")
    assert store.rejoin(second, ana.token) is None
    assert store.rejoin(first, "forged") is None
    assert all(p.token == "" for p in store.participants(first))


def test_instructor_actions_need_the_instructor_token(store):
    with pytest.raises(RoomStorageError) as error:
        store.open_room("wrong")
    assert error.value.code == "bad_token"
    room = store.open_room(TOKEN)
    ana = store.join(room.code, "Ana")
    attempt = store.submit_attempt(room.code, ana.token, trigger_payload([True]))
    for action in (lambda t: store.close_room(room.code, t), lambda t: store.hide_attempt(room.code, t, attempt),
                   lambda t: store.update_settings(room.code, t, {"x": 1})):
        for forged in ("", ana.token, TOKEN + "x", TOKEN.upper()):
            with pytest.raises(RoomStorageError) as error:
                action(forged)
            assert error.value.code == "bad_token"
    assert not store.room(room.code).closed and not store.attempts(room.code, include_hidden=True)[0].hidden


def test_tokens_match_is_exact_and_never_matches_an_empty_token():
    assert tokens_match("abc", "abc") and not tokens_match("abd", "abc") and not tokens_match("", "")
    assert tokens_match(" abc\n", "abc") and not tokens_match("a bc", "abc")  # pasted with spaces around
    with pytest.raises(ValueError):
        RoomStore("sqlite://", instructor_token="")


def test_attempts_are_listed_in_order_hidden_on_demand_and_kept_per_room(store):
    room, other = store.open_room(TOKEN).code, store.open_room(TOKEN).code
    ana, bob = store.join(room, "Ana"), store.join(room, "Bob")
    first = store.submit_attempt(room, ana.token, trigger_payload([True, False]))
    second = store.submit_attempt(room, bob.token, trigger_payload([True, True]))
    store.hide_attempt(room, TOKEN, first)
    assert [(a.number, a.participant) for a in store.attempts(room)] == [(2, "Bob")]
    assert [a.hidden for a in store.attempts(room, include_hidden=True)] == [True, False]
    assert store.attempts(other) == []
    with pytest.raises(RoomStorageError) as error:
        store.hide_attempt(other, TOKEN, second)
    assert error.value.code == "unknown_attempt"
    with pytest.raises(RoomStorageError) as error:
        store.submit_attempt(other, ana.token, trigger_payload([True]))
    assert error.value.code == "unknown_participant"
    assert store.attempts(room)[0].payload == trigger_payload([True, True])


def test_an_invalid_attempt_is_refused_with_its_reason(store):
    room = store.open_room(TOKEN).code
    ana = store.join(room, "Ana")
    payload = trigger_payload([True])
    payload["provenance"]["api_key"] = "x"
    with pytest.raises(RoomStorageError) as error:
        store.submit_attempt(room, ana.token, payload)
    assert error.value.code == "invalid_attempt" and store.attempts(room) == []


def test_a_closed_room_takes_no_join_attempt_or_rating(store):
    room = store.open_room(TOKEN).code
    ana = store.join(room, "Ana")
    store.close_room(room, TOKEN)
    for action in (lambda: store.join(room, "Bob"), lambda: store.rate(room, ana.token, "i", "pass"),
                   lambda: store.submit_attempt(room, ana.token, trigger_payload([True]))):
        with pytest.raises(RoomStorageError) as error:
            action()
        assert error.value.code == "room_closed"


def test_a_rating_is_replaced_not_duplicated(store):
    room = store.open_room(TOKEN).code
    ana = store.join(room, "Ana")
    store.rate(room, ana.token, "i1", "pass")
    store.rate(room, ana.token, "i1", " fail ")
    store.rate(room, ana.token, "i2", "pass")
    assert [(r.item_id, r.label) for r in store.ratings(room)] == [("i1", "fail"), ("i2", "pass")]
    store.rate(room, ana.token, "i\x003", "pa\x00ss ")  # PostgreSQL refuses NUL in text: cleaned first
    assert [(r.item_id, r.label) for r in store.ratings(room)][-1] == ("i3", "pass")
    with pytest.raises(RoomStorageError) as error:
        store.rate(room, ana.token, "i3", " \x02 ")
    assert error.value.code == "empty_label"


def test_settings_round_trip(store):
    room = store.open_room(TOKEN, settings={"items": ["a", "b"]}).code
    store.update_settings(room, TOKEN, {"items": ["c"], "baseline": {"a": "x"}})
    assert store.room(room).settings == {"items": ["c"], "baseline": {"a": "x"}}


def test_thirty_concurrent_sessions_lose_nothing(store):
    room = store.open_room(TOKEN).code
    errors, barrier = [], threading.Barrier(30)

    def session(i):
        try:
            barrier.wait()
            me = store.join(room, "Same name")
            for k in range(3):
                store.submit_attempt(room, me.token, trigger_payload([k % 2 == 0, True]))
                store.rate(room, me.token, f"item{k}", "pass" if (i + k) % 2 else "fail")
        except Exception as error:  # collected, asserted below
            errors.append(error)

    threads = [threading.Thread(target=session, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    names = [p.name for p in store.participants(room)]
    assert len(names) == len(set(names)) == 30
    assert len(store.attempts(room)) == 90
    assert len(store.ratings(room)) == 90


def test_an_unreachable_database_is_a_storage_error(tmp_path):
    with pytest.raises(RoomStorageError) as error:
        RoomStore(f"sqlite:///{tmp_path}", instructor_token=TOKEN)  # a directory, not a database file
    assert error.value.code == "unavailable"


def test_a_locked_database_says_so_and_the_retry_succeeds(tmp_path, monkeypatch):
    monkeypatch.setattr(storage, "BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "locked.sqlite3"
    store = RoomStore(f"sqlite:///{path}", instructor_token=TOKEN)
    room = store.open_room(TOKEN).code
    ana = store.join(room, "Ana")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(RoomStorageError) as error:
        store.submit_attempt(room, ana.token, trigger_payload([True]))
    assert error.value.code == "unavailable"
    holder.execute("ROLLBACK")
    holder.close()
    store.submit_attempt(room, ana.token, trigger_payload([True]))
    assert len(store.attempts(room)) == 1
    store.engine.dispose()


def test_a_postgresql_server_that_does_not_answer_is_a_storage_error():
    with pytest.raises(RoomStorageError) as error:
        RoomStore("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2", instructor_token=TOKEN)
    assert error.value.code == "unavailable"


def test_the_board_reads_while_a_writer_holds_the_lock(tmp_path, monkeypatch):
    """WAL: a read-only transaction neither waits for nor takes the write lock (a board refresh
    during a submission); a writer does wait, then reports ``unavailable`` past the timeout."""
    monkeypatch.setattr(storage, "BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "busy.sqlite3"
    store = RoomStore(f"sqlite:///{path}", instructor_token=TOKEN)
    room = store.open_room(TOKEN).code
    ana = store.join(room, "Ana")
    store.submit_attempt(room, ana.token, trigger_payload([True]))
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE room_attempts SET hidden = 1")
    assert [a.hidden for a in store.attempts(room)] == [False]  # the committed state, at once
    assert store.rejoin(room, ana.token).name == "Ana" and len(store.ratings(room)) == 0
    with pytest.raises(RoomStorageError):
        store.rate(room, ana.token, "i", "pass")
    writer.execute("COMMIT")
    writer.close()
    assert store.attempts(room) == []
    store.engine.dispose()

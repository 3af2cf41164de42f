import json
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from evallib.room.board import build_boards
from evallib.room.browsers import (join_from_browser, leave_from_browser, membership_of, remove_participant,
                                   removed_from, removed_participants)
from evallib.room.bundle import VERSION, RoomBundleError, export_room, import_bundle, read_bundle
from evallib.room.ratings import room_agreement
from evallib.room.storage import RoomStorageError, RoomStore
from tests.evallib.room.conftest import TOKEN, trigger_payload
from tests.evallib.room.kinds import default_payloads


def _filled_room(store):
    room = store.open_room(TOKEN, "Atelier\x00 du mardi", settings={"items": ["i0", "i1", "i2"]}).code
    people = [store.join(room, name) for name in ("Ana", "ana", "Bob <script>")]
    outcomes = [[True, True, False, True], [True, False, False, False], [True, True, True, True]]
    numbers = [store.submit_attempt(room, p.token, trigger_payload(o, [o[0], not o[1]]))
               for p, o in zip(people, outcomes)]
    store.submit_attempt(room, people[0].token, trigger_payload([False] * 4))
    for person, payload in zip(people, default_payloads().values()):  # one attempt of each other kind
        store.submit_attempt(room, person.token, payload)
    store.hide_attempt(room, TOKEN, numbers[1])
    for k, p in enumerate(people):
        for i in range(3):
            store.rate(room, p.token, f"i{i}", "pass" if (i + k) % 3 else "fail")
    return room


def _snapshot(store, code):
    room = store.room(code)
    return (room.title, room.settings, room.closed,
            [(a.number, a.participant, a.payload, a.hidden) for a in store.attempts(code, include_hidden=True)],
            [(r.participant, r.item_id, r.label) for r in store.ratings(code)],
            build_boards(store.attempts(code)), room_agreement(store.ratings(code), n_boot=200))


def test_export_then_import_into_a_fresh_database_gives_the_same_board(store, tmp_path):
    code = _filled_room(store)
    text = json.dumps(export_room(store, code, TOKEN))
    assert {a["payload"]["kind"] for a in json.loads(text)["attempts"]} == {"trigger", "persona", "judge"}
    assert "token" not in text.replace("instructor", "")  # no participant token leaves the database
    fresh = RoomStore(f"sqlite:///{tmp_path}/fresh.sqlite3", instructor_token="another instructor")
    room = import_bundle(fresh, "another instructor", text)
    assert room.code == code
    assert _snapshot(fresh, code) == _snapshot(store, code)
    again = import_bundle(fresh, "another instructor", text)  # the code is taken now: a new one
    assert again.code != code and _snapshot(fresh, again.code) == _snapshot(store, code)
    fresh.engine.dispose()


def test_a_bundle_holding_a_version_1_attempt_still_loads(store):
    bundle = _bundle(store)
    bundle["room"]["code"] = "OLDER1"
    first = next(a for a in bundle["attempts"] if a["payload"]["kind"] == "trigger")
    first["payload"]["version"] = 1
    room = import_bundle(store, TOKEN, json.dumps(bundle))
    loaded = store.attempts(room.code, include_hidden=True)
    assert sorted(a.payload["version"] for a in loaded) == [1] + [2] * (len(loaded) - 1)
    assert list(build_boards(loaded)) == ["trigger", "persona", "judge"]


def test_export_and_import_need_the_instructor_token(store):
    code = _filled_room(store)
    bundle = export_room(store, code, TOKEN)
    for action in (lambda: export_room(store, code, "nope"), lambda: import_bundle(store, "nope", bundle)):
        with pytest.raises(RoomStorageError) as error:
            action()
        assert error.value.code == "bad_token"


def _bundle(store):
    return export_room(store, _filled_room(store), TOKEN)


@pytest.mark.parametrize("mutate, code", [
    (lambda b: json.dumps(b)[:-40], "not_json"),
    (lambda b: b"\xff\xfe garbage", "not_json"),
    (lambda b: json.dumps({"hello": "world"}), "not_ours"),
    (lambda b: json.dumps([1, 2]), "not_ours"),
    (lambda b: json.dumps({**b, "version": VERSION + 1}), "newer_version"),
    (lambda b: json.dumps({**b, "room": {**b["room"], "code": "a b"}}), "schema"),
    (lambda b: json.dumps({**b, "participants": b["participants"] + [b["participants"][0]]}), "inconsistent"),
    (lambda b: json.dumps({**b, "ratings": b["ratings"] + [{**b["ratings"][0], "participant_id": 999}]}),
     "inconsistent"),
    (lambda b: json.dumps({**b, "ratings": b["ratings"] + [{**b["ratings"][0], "item_id": b["ratings"][0]["item_id"]
                                                            + "\x00"}]}), "inconsistent"),
    (lambda b: json.dumps({**b, "ratings": [{**b["ratings"][0], "label": "\x01"}]}), "inconsistent"),
    (lambda b: json.dumps({**b, "attempts": b["attempts"] + [{**b["attempts"][0], "number": 99, "payload": {"version": 1}}]}),
     "invalid_attempt"),
])
def test_a_bad_bundle_is_refused_and_nothing_is_loaded(store, mutate, code):
    bundle = _bundle(store)
    with store.engine.connect() as conn:
        rooms_before = len(conn.exec_driver_sql("SELECT code FROM room_rooms").all())
    bundle["room"]["code"] = "NEWCODE"
    with pytest.raises(RoomBundleError) as error:
        import_bundle(store, TOKEN, mutate(bundle))
    assert error.value.code == code
    with store.engine.connect() as conn:
        assert len(conn.exec_driver_sql("SELECT code FROM room_rooms").all()) == rooms_before


def test_a_failure_while_writing_rolls_the_whole_import_back(store, monkeypatch):
    bundle = _bundle(store)
    bundle["room"]["code"] = "ROLLBACK"
    calls = []

    def failing_dumps(value, *args, **kwargs):  # the third attempt's insertion fails
        if isinstance(value, dict) and value.get("kind") == "trigger":
            calls.append(1)
            if len(calls) == 3:
                raise RuntimeError("disk full")
        return json.dumps(value, *args, **kwargs)

    checked = read_bundle(bundle)
    monkeypatch.setattr("evallib.room.bundle.json", SimpleNamespace(dumps=failing_dumps, loads=json.loads))
    with pytest.raises(RuntimeError):
        import_bundle(store, TOKEN, checked)
    monkeypatch.undo()
    with pytest.raises(RoomStorageError) as error:
        store.room("ROLLBACK")
    assert error.value.code == "unknown_room"
    with store.engine.connect() as conn:
        counts = [conn.exec_driver_sql(f"SELECT COUNT(*) FROM {t} WHERE room_code = 'ROLLBACK'").scalar()
                  for t in ("room_participants", "room_attempts", "room_ratings")]
    assert counts == [0, 0, 0]


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    store = RoomStore(f"sqlite:///{tmp_path_factory.mktemp('fuzz')}/fuzz.sqlite3", instructor_token=TOKEN)
    yield store, export_room(store, _filled_room(store), TOKEN)
    store.engine.dispose()


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                     max_leaves=12)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _at(value, path):
    for key in path:
        value = value[key]
    return value


def _replaced(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_bundles_load_whole_or_fail_with_a_bundle_error(fuzz_store, data):
    store, bundle = fuzz_store
    how = data.draw(st.sampled_from(["truncate", "replace", "same_kind", "bytes"]))
    text = json.dumps(bundle)
    if how == "truncate":
        candidate = text[:data.draw(st.integers(0, len(text) - 1))]
    elif how == "bytes":
        candidate = data.draw(st.binary(max_size=200))
    elif how == "replace":
        paths = list(_paths(bundle))
        candidate = _replaced(bundle, paths[data.draw(st.integers(0, len(paths) - 1))], data.draw(_json))
    else:  # a leaf replaced by another value of its kind: mostly loads, and the board must cope
        leaves = [p for p in _paths(bundle) if p and isinstance(_at(bundle, p), (str, int, float))]
        path = leaves[data.draw(st.integers(0, len(leaves) - 1))]
        old = _at(bundle, path)
        kind = (st.booleans() if isinstance(old, bool) else st.integers(-5, 10**6) if isinstance(old, int)
                else st.floats(allow_nan=False, allow_infinity=False) if isinstance(old, float) else st.text(max_size=12))
        candidate = _replaced(bundle, path, data.draw(kind))
    with store.engine.connect() as conn:
        before = conn.exec_driver_sql("SELECT COUNT(*) FROM room_attempts").scalar()
    try:
        room = import_bundle(store, TOKEN, candidate)
    except RoomBundleError as error:
        event(f"refused: {error.code}")
        assert error.code in {"not_json", "not_ours", "newer_version", "schema", "invalid_attempt", "inconsistent"}
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT COUNT(*) FROM room_attempts").scalar() == before
    else:
        event("loaded")
        loaded = store.attempts(room.code, include_hidden=True)
        assert len(loaded) == len(candidate["attempts"])
        build_boards(loaded)
        room_agreement(store.ratings(room.code), n_boot=20)


def test_removals_and_browsers_go_through_export_and_import(store, tmp_path):
    """Ana's browser is a member, Bob's left, Chloé was removed: a fresh database that imports the bundle
    gives each browser back what it was; importing it again where the room still is leaves the browsers
    the members of the room they are in."""
    code = store.open_room(TOKEN, "Gone and back").code
    keys = {name: (name[0].lower() * 64) for name in ("Ana", "Bob", "Chloé")}  # browser keys: 64 hex digits
    people = {name: join_from_browser(store, key, code, name)[0] for name, key in keys.items()}
    for person in people.values():
        store.submit_attempt(code, person.token, trigger_payload([True, False, True]))
    leave_from_browser(store, keys["Bob"])
    remove_participant(store, TOKEN, code, people["Chloé"].id)
    bundle = export_room(store, code, TOKEN)
    assert bundle["version"] == VERSION == 2
    assert [("removed_at" in p) for p in bundle["participants"]] == [False, False, True]
    assert sorted((b["browser_key"][0], b["state"]) for b in bundle["browsers"]) == [("a", "member"), ("b", "left"),
                                                                                    ("c", "member")]
    fresh = RoomStore(f"sqlite:///{tmp_path}/fresh.sqlite3", instructor_token=TOKEN)
    room = import_bundle(fresh, TOKEN, json.dumps(bundle))
    assert room.code == code
    assert membership_of(fresh, keys["Ana"]).name == "Ana"
    assert membership_of(fresh, keys["Bob"]) is None
    bob, back = join_from_browser(fresh, keys["Bob"], code, "someone else")
    assert (bob.name, back) == ("Bob", True)  # joining again takes Bob back, as before the export
    assert membership_of(fresh, keys["Chloé"]) is None and removed_from(fresh, keys["Chloé"]) == code
    chloe = next(p for p in fresh.participants(code) if p.name == "Chloé")
    assert removed_participants(fresh, code) == {chloe.id}
    assert [a.participant for a in fresh.attempts(code)] == ["Ana", "Bob"]  # Chloé's attempt stays hidden
    assert export_room(fresh, code, TOKEN)["browsers"] != []
    fresh.engine.dispose()

    again = import_bundle(store, TOKEN, json.dumps(bundle))  # the code is taken: a new room, same database
    assert again.code != code
    assert membership_of(store, keys["Ana"]).room_code == code  # still the original room's Ana
    assert removed_participants(store, again.code) == {next(p.id for p in store.participants(again.code)
                                                            if p.name == "Chloé")}
    rejoined, back = join_from_browser(store, keys["Ana"], again.code, "x")
    assert (rejoined.name, back) == ("Ana", True)


def test_a_version_1_bundle_without_removals_or_browsers_still_loads(store):
    bundle = _bundle(store)
    bundle["room"]["code"] = "VERONE"
    bundle["version"] = 1
    del bundle["browsers"]
    room = import_bundle(store, TOKEN, json.dumps(bundle))
    assert len(store.participants(room.code)) == 3 and removed_participants(store, room.code) == set()


@pytest.mark.parametrize("mutate", [
    lambda b: b["browsers"].append({**b["browsers"][0], "participant_id": 999}),
    lambda b: b["browsers"].append(dict(b["browsers"][0])),
    lambda b: b["browsers"].append({**b["browsers"][0], "participant_id": b["participants"][1]["id"]}),
])
def test_browser_rows_that_contradict_the_bundle_are_refused(store, mutate):
    code = store.open_room(TOKEN).code
    for name in ("Ana", "Bob"):
        join_from_browser(store, name[0].lower() * 64, code, name)
    bundle = export_room(store, code, TOKEN)
    bundle["room"]["code"] = "BADROWS"
    mutate(bundle)
    with pytest.raises(RoomBundleError) as error:
        import_bundle(store, TOKEN, json.dumps(bundle))
    assert error.value.code == "inconsistent"

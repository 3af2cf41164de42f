"""The room's endpoint: set by the instructor only, its key kept on the server and out of every export."""

import json

import pytest

from evallib.room.bundle import export_room
from evallib.room.endpoint import RoomEndpoint, check_endpoint, clear_endpoint, room_endpoint, set_endpoint
from evallib.room.storage import RoomStorageError
from tests.evallib.room.conftest import TOKEN

KEY = "sk-room-secret-0123456789"


def test_set_read_replace_and_clear(store):
    room = store.open_room(TOKEN, "r")
    assert room_endpoint(store, room.code) is None
    set_endpoint(store, room.code, TOKEN, kind="openai", base_url=" http://127.0.0.1:9/v1 ", model="m1", api_key=KEY)
    assert room_endpoint(store, room.code) == RoomEndpoint("openai", "http://127.0.0.1:9/v1", "m1", KEY)
    # an empty key keeps the one set: the panel never shows it, so it is never typed again
    set_endpoint(store, room.code.lower(), TOKEN, kind="anthropic", base_url="http://127.0.0.1:9", model="m2")
    assert room_endpoint(store, room.code) == RoomEndpoint("anthropic", "http://127.0.0.1:9", "m2", KEY)
    clear_endpoint(store, room.code, TOKEN)
    assert room_endpoint(store, room.code) is None


def test_only_the_instructor_sets_it(store):
    room = store.open_room(TOKEN, "r")
    with pytest.raises(RoomStorageError) as error:
        set_endpoint(store, room.code, "not-the-token", kind="openai", base_url="http://h/v1", model="m")
    assert error.value.code == "bad_token"
    with pytest.raises(RoomStorageError) as error:
        set_endpoint(store, "NOROOM", TOKEN, kind="openai", base_url="http://h/v1", model="m")
    assert error.value.code == "unknown_room"


@pytest.mark.parametrize("kind, url, model, wrong", [
    ("openai", "", "m", "base_url"), ("openai", "api.example/v1", "m", "base_url"),
    ("openai", "http://h /v1", "m", "base_url"), ("mistral", "http://h/v1", "m", "kind"), ("openai", "http://h", "", "model")])
def test_bad_endpoints_name_the_field(kind, url, model, wrong):
    with pytest.raises(RoomStorageError) as error:
        check_endpoint(kind, url, model)
    assert (error.value.code, error.value.details["field"]) == ("bad_endpoint", wrong)


@pytest.mark.parametrize("url", ["http://user:pass@127.0.0.1:4000/v1", "https://token@proxy.example/v1",
                                 "http://localhost:11434/v1", "https://h"])
def test_userinfo_urls_are_accepted(url):
    check_endpoint("openai", url, "m")


def test_the_key_never_leaves_the_server(store):
    room = store.open_room(TOKEN, "r")
    set_endpoint(store, room.code, TOKEN, kind="openai", base_url="http://alice:pw-9@127.0.0.1:9/v1", model="m",
                 api_key=KEY)
    endpoint = room_endpoint(store, room.code)
    assert KEY not in repr(endpoint) and "pw-9" not in json.dumps(endpoint.public())
    assert endpoint.public() == {"kind": "openai", "base_url": "http://***@127.0.0.1:9/v1", "model": "m",
                                 "has_key": True}
    assert KEY not in json.dumps(store.room(room.code).settings)
    bundle = json.dumps(export_room(store, room.code, TOKEN))
    assert KEY not in bundle and "pw-9" not in bundle

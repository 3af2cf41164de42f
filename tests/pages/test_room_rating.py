"""The kappa rated by the room, on the kappa page (offline, a temporary SQLite room per test)."""

import pytest
from sqlalchemy import create_engine

from evallib.room.instructor import ENV_VAR as TOKEN_VAR
from evallib.room.storage import ENV_VAR, RoomStore
from ui.room.rating import radio_key
from ui.room.state import MEMBERSHIP, Membership, room_store

PAGE = "pages/kappa.py"
RATING = {"labels": ["pass", "fail", "**gras**"],
          "items": [{"id": "py-s3-inventory", "text": "def inventory():\n    return [b for b in s3]"},
                    {"id": "json-iam", "text": '{"Effect": "Allow"}'},
                    {"id": "regex-ip", "text": r"^\d+\.\d+$"}]}

TOKEN = "instructor-token-of-these-tests"


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A fresh SQLite database for this test, the app's store reopened on it, an open room with the items
    to rate and one participant: (store seen from outside the app, room code, the participant's membership)."""
    url = f"sqlite:///{tmp_path}/rooms.sqlite3"
    monkeypatch.setenv(ENV_VAR, url)
    monkeypatch.setenv(TOKEN_VAR, TOKEN)
    room_store.clear()
    token = TOKEN
    outside = RoomStore(url, instructor_token=token)
    code = outside.open_room(token, "Atelier", {"rating": RATING}).code
    joined = outside.join(code, "Bea")
    yield outside, code, Membership(code, joined.token, joined.name)
    room_store.clear()
    outside.engine.dispose()


def _mine(outside, code):
    return {r.item_id: r.label for r in outside.ratings(code) if r.participant == "Bea"}


def _captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def test_not_joined_the_kappa_page_shows_no_rating(open_page, room):
    at = open_page(PAGE)
    assert not at.exception
    assert "Kappa noté par la salle" not in [s.value for s in at.subheader]
    assert not [r for r in at.radio if r.key and r.key.startswith("room_rate_")]


def test_each_answer_is_stored_at_once_and_the_count_follows(open_page, room):
    outside, code, joined = room
    at = open_page(PAGE, **{MEMBERSHIP: joined})
    assert not at.exception
    assert "Kappa noté par la salle" in [s.value for s in at.subheader]
    assert [t.value for t in at.text][:3] == [item["text"] for item in RATING["items"]]  # shown as text
    assert "Éléments notés : 0 sur 3." in _captions(at)
    at.radio(key=radio_key(code, "json-iam")).set_value("fail").run()
    assert not at.exception
    assert _mine(outside, code) == {"json-iam": "fail"}
    assert "Éléments notés : 1 sur 3." in _captions(at)
    at.radio(key=radio_key(code, "json-iam")).set_value("**gras**").run()  # a change replaces the rating
    at.radio(key=radio_key(code, "regex-ip")).set_value("pass").run()
    assert _mine(outside, code) == {"json-iam": "**gras**", "regex-ip": "pass"}
    assert "Éléments notés : 2 sur 3." in _captions(at)
    # another visit (a new session of the same participant) shows what was rated
    again = open_page(PAGE, lang="en", **{MEMBERSHIP: joined})
    assert again.radio(key=radio_key(code, "regex-ip")).value == "pass"
    assert "Items rated: 2 of 3." in _captions(again)


def test_a_refused_rating_is_kept_and_sent_on_the_next_click(open_page, room):
    outside, code, joined = room
    at = open_page(PAGE, lang="en", **{MEMBERSHIP: joined})
    app_store = room_store()
    working = app_store.engine
    app_store.engine = create_engine("sqlite:////nonexistent-folder/rooms.sqlite3")  # the database is gone
    try:
        at.radio(key=radio_key(code, "py-s3-inventory")).set_value("pass").run()
        assert not at.exception
        warnings = " ".join(w.value for w in at.warning)
        assert "The room's database is busy or unreachable: nothing was stored." in warnings
        assert "Ratings not stored yet: 1. They are kept here and sent again on the next click." in warnings
        assert outside.ratings(code) == []
    finally:
        app_store.engine = working
    at.radio(key=radio_key(code, "json-iam")).set_value("fail").run()  # the next click sends both
    assert not at.exception and not at.warning
    assert _mine(outside, code) == {"py-s3-inventory": "pass", "json-iam": "fail"}
    assert "Items rated: 2 of 3." in _captions(at)


def test_a_room_without_items_says_so(open_page, room):
    outside, code, joined = room
    outside.update_settings(code, TOKEN, {})
    at = open_page(PAGE, **{MEMBERSHIP: joined})
    assert not at.exception
    assert f"La salle {code} n'a pas encore d'éléments à noter." in _captions(at)


def test_labels_changed_by_the_instructor_leave_no_stale_choice(open_page, room):
    outside, code, joined = room
    at = open_page(PAGE, **{MEMBERSHIP: joined})
    at.radio(key=radio_key(code, "json-iam")).set_value("fail").run()
    outside.update_settings(code, TOKEN,
                            {"rating": {**RATING, "labels": ["correct", "incorrect"]}})
    at.run()
    assert not at.exception
    assert at.radio(key=radio_key(code, "json-iam")).options == ["correct", "incorrect"]
    assert at.radio(key=radio_key(code, "json-iam")).value is None  # "fail" is not a label any more


def test_a_rating_in_a_closed_room_is_not_kept_and_the_page_says_it_cannot_be(open_page, room):
    outside, code, joined = room
    at = open_page(PAGE, **{MEMBERSHIP: joined})
    outside.close_room(code, TOKEN)
    at.radio(key=radio_key(code, "json-iam")).set_value("fail").run()
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert f"La salle {code} est fermée." in warnings
    assert "ne peut plus l'être" in warnings and "gardées" not in warnings  # nothing promised to a retry
    assert outside.ratings(code) == []

"""The Room page in AppTest with a browser key (`ui.browser.browser_key` patched: AppTest has no cookie):
a new session of the instructor's browser shows the panel of its room without the token, a new session
of a participant's browser is a member again, and a participant the instructor removed gets the join
form with a notice, then joins again as someone new. The database is checked through its own store."""

from __future__ import annotations

import pytest

from streamlit.testing.v1 import AppTest

from evallib.room.browsers import membership_of, remove_participant
from tests.pages.test_room_page import ROOT, TOKEN, _forget, _instructor, _join, _open, _page, _store, _text, _texts
from tests.pages.test_room_page import room_url  # noqa: F401 (fixture)

TEACHER, ANA = "1" * 64, "2" * 64


@pytest.fixture
def as_browser(monkeypatch):
    """``as_browser(key)``: the sessions started next belong to the browser ``key``."""
    def use(key: str | None) -> None:
        for module in ("ui.room.state", "ui.room.instructor", "ui.room.join"):
            monkeypatch.setattr(f"{module}.browser_key", lambda: key)
    return use


def _keys(at) -> list[str]:
    return [w.key for w in at.text_input]


def test_the_instructors_browser_is_recognised_in_a_new_session_until_it_signs_out(room_url, as_browser):
    as_browser(TEACHER)
    code = _open(_instructor())
    _forget()  # a restart: the process's store is made again
    at = _page()
    assert at.session_state["room.managed"] == code and "room.instructor_token" not in _keys(at)
    assert _text("room.instructor.code_big", code=code) in [h.value for h in at.header]
    assert _text("room.instructor.recognised") in _texts(at)
    as_browser(ANA)
    other = _page()
    assert "room.instructor_token" in _keys(other) and _text("room.instructor.need_token") in _texts(other)
    as_browser(TEACHER)
    at.button(key="room.sign_out").click().run()
    assert _text("room.instructor.signed_out") in _texts(at)
    again = _page()
    assert "room.instructor_token" in _keys(again) and _text("room.instructor.need_token") in _texts(again)


def test_a_participants_browser_is_a_member_again_and_a_removed_one_is_told(room_url, as_browser):
    store = _store(room_url)
    code = store.open_room(TOKEN, "Atelier").code
    as_browser(ANA)
    _join(_page(), code, "Ana")
    _forget()
    at = _page()  # a reload, a second tab or a restart: no click
    assert _text("room.join.member", code=code, title="Atelier", name="Ana") in _texts(at)
    ana = membership_of(store, ANA)
    as_browser(None)
    teacher = _instructor()
    teacher.text_input(key="room.manage_code").input(code)
    teacher.button(key="room.manage").click().run()
    teacher.selectbox(key="room.remove_pick").select(f"Ana (#{ana.id})").run()
    teacher.button(key="room.remove").click().run()
    assert _text("room.remove.done", name="Ana") in _texts(teacher)
    as_browser(ANA)
    at.run()  # the session that was a member
    assert _text("room.join.removed", code=code) in _texts(at)
    assert "room.join_name" in _keys(at)
    fresh = _page()  # a new session of that browser says so too
    assert _text("room.join.removed", code=code) in _texts(fresh)
    _join(fresh, code, "Ana")
    assert membership_of(store, ANA).name == "Ana (2)"
    store.engine.dispose()


def test_a_removed_participant_is_told_on_the_page_they_submit_from(room_url, as_browser):
    store = _store(room_url)
    code = store.open_room(TOKEN, "Atelier").code
    as_browser(ANA)
    at = _join(_page(), code, "Ana")
    at.switch_page("pages/trigger.py").run()
    assert _text("room_submit.joined", code=code, name="Ana") in _texts(at)
    remove_participant(store, TOKEN, code, membership_of(store, ANA).id)
    at.run()  # the trigger page open when the instructor removed her
    assert not at.exception
    assert _text("room.join.removed", code=code) in _texts(at) and _text("room_submit.join_hint") in _texts(at)
    assert not [b for b in at.button if b.key == "room_submit_trigger"]
    store.engine.dispose()


def test_a_later_link_replaces_the_code_kept_from_an_earlier_one(room_url):
    at = _page(**{"room.join_code": "ZZZZZZ"})  # kept for this browser from an earlier link or typing
    assert at.text_input(key="room.join_code").value == "ZZZZZZ"
    later = AppTest.from_file(ROOT, default_timeout=60)
    later.session_state["lang"] = "en"
    later.session_state["room.join_code"] = "ZZZZZZ"
    later.query_params["code"] = "acd-3e7"
    later.run()
    later.switch_page("pages/room.py").run()
    assert later.text_input(key="room.join_code").value == "ACD3E7"
    later.text_input(key="room.join_code").input("QQQQQQ").run()  # typed after the link: kept
    assert later.text_input(key="room.join_code").value == "QQQQQQ"

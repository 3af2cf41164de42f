"""The room's endpoint in real sessions (Chromium, one server on a SQLite room, the fake model server).

The instructor sets the room's endpoint once on the Room page (kind, base URL, model, key). Two
participants join and each turns on one switch, "use the room's model": neither types a base URL, a
model nor a key, and both collect the persona grid live through the instructor's endpoint, behind the
per-endpoint scheduler (the fake server sees the room's model and key, never more than the limit at
once). The key appears in no page a browser received.
"""

import json

import pytest
from playwright.sync_api import sync_playwright

from evallib.llm.scheduler import LIMIT_VARIABLE
from evallib.room.endpoint import room_endpoint
from evallib.room.storage import RoomStore
from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _wait_until_idle
from tests.test_browser_room_flow import TOKEN, _go, _instructor_opens_a_room, _join, _no_exception, _open, _server, _t

KEY = "sk-room-endpoint-key-of-the-browser-test"
MODEL = "fake-ok"
LIMIT = 3


@pytest.fixture
def fake():
    with FakeLLMServer(api_key=KEY, latency=0.2) as server:
        yield server


def _fill(page, label: str, value: str) -> None:
    box = page.locator(".st-key-room-endpoint").get_by_label(label, exact=True)
    box.fill(value)
    box.press("Enter")
    _wait_until_idle(page)


def test_participants_go_live_through_the_room_endpoint_without_typing_it(monkeypatch, tmp_path, fake):
    database = f"sqlite:///{tmp_path}/rooms.sqlite3"
    monkeypatch.setenv(LIMIT_VARIABLE, str(LIMIT))
    server = _server(monkeypatch, database)
    url = next(server)
    outside = RoomStore(database, instructor_token=TOKEN)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            instructor = _open(browser, url, "/room")
            code = _instructor_opens_a_room(instructor)
            _fill(instructor, _t("sidebar.base_url"), fake.openai_base_url)
            _fill(instructor, _t("sidebar.model"), MODEL)
            _fill(instructor, _t("room_endpoint.key"), KEY)
            instructor.get_by_role("button", name=_t("room_endpoint.save")).click()
            _wait_until_idle(instructor)
            _no_exception(instructor)
            assert instructor.get_by_text(_t("room_endpoint.saved")).count() == 1
            assert room_endpoint(outside, code).api_key == KEY
            assert KEY not in instructor.content()  # typed once, never sent back

            people = [_open(browser, url, f"/room?code={code}") for _ in range(2)]
            for name, page in zip(("Ana", "Bruno"), people):
                _join(page, code, name)
                _go(page, "persona")
                page.get_by_text(_t("room_endpoint.switch"), exact=True).click()
                _wait_until_idle(page)
                _no_exception(page)
                assert page.get_by_text(_t("room_endpoint.in_use", model=MODEL, url=fake.openai_base_url,
                                           kind=_t("sidebar.kind.openai"))).count() == 1
                assert page.get_by_role("textbox", name=_t("sidebar.base_url")).count() == 0  # nothing to type
            fake.reset()
            for page in people:
                page.get_by_role("button", name=_t("collect.start", n=36)).click()
            for page in people:
                page.wait_for_selector("text=/36\\/36 réponses/", timeout=120_000)
                _wait_until_idle(page)
                _no_exception(page)
                assert KEY not in page.content()
            people[0].get_by_role("button", name=_t("room_submit.button")).first.click()
            _wait_until_idle(people[0])
            _no_exception(people[0])
            [stored] = outside.attempts(code)
            assert stored.payload["provenance"]["source"] == "live" and stored.payload["provenance"]["model"] == MODEL
            assert KEY not in json.dumps(stored.payload)  # never in an attempt
            bodies = [r["body"] for r in fake.requests if r["path"].endswith("/chat/completions")]
            assert bodies and {b["model"] for b in bodies} == {MODEL}
            assert fake.in_flight_max <= LIMIT
            browser.close()
    finally:
        outside.engine.dispose()
        next(server, None)

"""The room's pack in real sessions (Chromium, one server on a SQLite room, then a real restart).

A pack written from scratch and recorded against the fake server sits in the folder named by
``EVALLIB_PACKS``. The instructor gives it to the room once, in the panel. Two participants join (one on a
phone's viewport): with no upload, their trigger page reads the pack (its 12 queries, 2 runs each, replayed
from the pack's recordings) and each submits; the attempts name the pack. The server is then killed
(SIGKILL) and started again on the same port and database: reloading, both find the room's pack again.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from evallib.__main__ import main
from evallib.packs.loader import open_pack
from evallib.room.room_pack import room_pack
from evallib.room.storage import RoomStore
from tests.conftest import FAKE_KEY
from tests.fake_llm_server import FakeLLMServer
from tests.small_pack import MANIFEST, write_small_pack
from tests.streamlit_sessions import restartable_server
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _wait_until_idle
from tests.test_browser_room_flow import TOKEN, _instructor_opens_a_room, _join, _no_exception, _submit, _t

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def served(tmp_path, monkeypatch):
    """(url, database URL, pack folder, restart()): a server whose EVALLIB_PACKS holds the recorded small pack."""
    folder = write_small_pack(tmp_path / "packs" / "small")
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    with FakeLLMServer(api_key=FAKE_KEY) as fake:
        assert main(["record", "all", "--pack", str(folder), "--base-url", fake.openai_base_url,
                     "--model", "fake-tools"]) == 0
    database = f"sqlite:///{tmp_path}/rooms.sqlite3"
    env = {"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN,
           "EVALLIB_ROOM_REFRESH_SECONDS": "3", "EVALLIB_PACKS": str(tmp_path / "packs"),
           "EVALLIB_PACK_CACHE": str(tmp_path / "cache"), "EVALLIB_LOCAL_RECORDINGS": str(tmp_path / "local")}
    with restartable_server(env, tmp_path / "server.log") as (url, restart):
        yield url, database, folder, restart


def _room_pack_line(page) -> None:
    """The sidebar says which pack the room gave (a phone shows the sidebar when its button is pressed)."""
    line = _t("packs.room_pack", title=MANIFEST["title"], id=MANIFEST["id"], version=MANIFEST["version"])
    found = page.get_by_text(line, exact=True)
    if not found.first.is_visible():
        page.get_by_test_id("stExpandSidebarButton").click()
        _wait_until_idle(page)
    found.first.wait_for(timeout=30_000)


def test_the_room_s_pack_reaches_every_participant_without_upload_and_survives_a_restart(served):
    url, database, folder, restart = served
    outside = RoomStore(database, instructor_token=TOKEN)
    identity = open_pack(folder).identity()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            instructor = browser.new_context(**DESKTOP).new_page()
            instructor.goto(url + "/room")
            _wait_until_idle(instructor)
            code = _instructor_opens_a_room(instructor)
            panel = instructor.locator(".st-key-room-pack")
            # a list opened while the page scrolls to it closes at once (tests/test_browser.py choose_in_sidebar)
            panel.get_by_test_id("stSelectbox").scroll_into_view_if_needed()
            instructor.wait_for_timeout(300)
            panel.get_by_test_id("stSelectbox").click()
            instructor.get_by_role("option", name=_t("packs.folder", name="small"), exact=True).click()
            _wait_until_idle(instructor)
            panel.get_by_role("button", name=_t("packs.room.set")).click()
            _wait_until_idle(instructor)
            _no_exception(instructor)
            assert instructor.get_by_text(_t("packs.room.saved")).count() == 1
            assert {k: room_pack(outside.room(code).settings)[k] for k in identity} == identity

            people = {}
            for name, device in (("Ana", DESKTOP), ("Bruno", PHONE)):
                page = browser.new_context(**device).new_page()
                page.goto(f"{url}/room?code={code}")
                _wait_until_idle(page)
                _join(page, code, name)
                page.goto(f"{url}/trigger")
                _wait_until_idle(page)
                _no_exception(page)
                _room_pack_line(page)
                people[name] = page
            for number, page in enumerate(people.values(), start=1):
                _submit(page, number, code)
            stored = outside.attempts(code)
            assert [a.participant for a in stored] == ["Ana", "Bruno"]
            assert all(a.payload["provenance"]["pack"] == identity for a in stored)
            # The pack's 12 queries, none of the French pack's 38.
            assert all(len(a.payload["items"]) == 12 for a in stored)

            restart()
            for page in people.values():
                page.reload()
                _wait_until_idle(page, 2)
                _no_exception(page)
                _room_pack_line(page)
            browser.close()
    finally:
        outside.engine.dispose()

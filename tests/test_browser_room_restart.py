"""A real restart with browsers connected: `streamlit run serve.py` on a fresh SQLite file with no
instructor token set (the server draws one and prints it), an instructor's browser that typed it once
and opened a room, and three participants' browsers that joined. The server is then killed (SIGKILL,
as a crash) and started again on the same port and database; every browser reconnects by itself (no
click, no reload: Streamlit's frontend opens a new websocket, a new session) and shows again what it
showed: each participant is in the room under its name with the board, the instructor sees the join
card, the panel of the managed room and the board, with an attempt stored after the restart.
"""

from __future__ import annotations

import hashlib
import re
import time

import pytest
from playwright.sync_api import sync_playwright

from evallib.room.browser_cookie import COOKIE
from evallib.room.browsers import BrowserMember
from evallib.room.storage import RoomStore
from tests.evallib.room.conftest import trigger_payload
from tests.streamlit_sessions import restartable_server
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _wait_until_idle
from tests.texts import text as _text

NAMES = ("Ana", "Bruno", "Chloé")
#: Bruno chooses English (on the trigger page, in a second tab): every tab of his browser follows.
LANGS = {"Ana": "fr", "Bruno": "en", "Chloé": "fr"}
TOKEN_VARIABLE = "EVALLIB_ROOM_INSTRUCTOR_TOKEN"
#: The console line of a drawn token (main's wording and this branch's both end with ": <token>").
DRAWN = re.compile(r"Room instructor token \(Salle / Room page\)[^:\n]*: (\S+)")



@pytest.fixture
def server(tmp_path):
    """(url, database URL, log path, restart()): a server with no configured token; restart() kills it
    with SIGKILL and starts it again on the same port and database."""
    database = f"sqlite:///{tmp_path}/rooms.sqlite3"
    env = {"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_REFRESH_SECONDS": "2"}
    log = tmp_path / "server.log"
    with restartable_server(env, log, unset=(TOKEN_VARIABLE,)) as (url, restart):
        yield url, database, log, restart


def _counts(people: int, attempts: int) -> str:
    """The instructor panel's counts as French shows them (0 and 1 singular)."""
    return (_text("room.instructor.participants", n=people) + ", " + _text("room.instructor.attempts", n=attempts))


def _connections(page) -> list:
    opened = []
    page.on("websocket", lambda socket: opened.append(socket))
    return opened


def _joined(name: str, code: str) -> str:
    """The start of the room box's line on another page for participant ``name`` (in their language)."""
    return _text("room_submit.joined", LANGS[name], code=code, name=name).split(".")[0]


def _rerun(page) -> None:
    """A rerun as a user asks it ("r"): the frontend keeps the old session's drawing after a reconnection."""
    _wait_until_idle(page)
    page.get_by_role("heading", level=1).first.click()
    page.keyboard.press("r")
    page.wait_for_timeout(500)
    _wait_until_idle(page, 2)


def _wait_for(page, text: str, timeout_s: float = 60) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=timeout_s * 1000)


def test_every_browser_comes_back_to_what_it_showed_after_the_server_is_killed(server):
    url, database, log, restart = server
    [token] = DRAWN.findall(log.read_text())
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        contexts = [chromium.new_context(viewport={"width": 1280, "height": 900}) for _ in range(1 + len(NAMES))]
        pages = [context.new_page() for context in contexts]
        sockets = [_connections(page) for page in pages]
        teacher, people = pages[0], pages[1:]

        teacher.goto(f"{url}/room")
        _wait_until_idle(teacher)
        teacher.get_by_text(_text("room.instructor.title"), exact=True).click()
        field = teacher.get_by_label(_text("room.instructor.token"), exact=True)
        field.fill(token)
        field.press("Enter")
        _wait_until_idle(teacher)
        teacher.get_by_label(_text("room.instructor.new_title"), exact=True).fill("Atelier")
        teacher.get_by_role("button", name=_text("room.instructor.open")).click()
        _wait_until_idle(teacher)
        code = re.search(r"[A-Z0-9]{6}", teacher.get_by_text(_text("room.instructor.code_big", code="")).first
                         .inner_text()).group(0)
        for page, name in zip(people, NAMES):
            page.goto(f"{url}/room?code={code}")
            _wait_until_idle(page)
            page.get_by_label(_text("room.join.name")).fill(name)
            page.get_by_role("button", name=_text("room.join.button"), exact=True).click()
            _wait_for(page, _text("room.join.member", code=code, title="Atelier", name=name))
        _wait_for(teacher, _counts(3, 0))
        # Ana and Bruno open the trigger page in a second tab: its room box names their membership; Bruno
        # switches that tab to English.
        tabs = {name: context.new_page() for name, context in zip(NAMES[:2], contexts[1:3])}
        for name, tab in tabs.items():
            sockets.append(_connections(tab))
            tab.goto(f"{url}/trigger")
            _wait_until_idle(tab)
            if LANGS[name] == "en":
                tab.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
                _wait_until_idle(tab)
            _wait_for(tab, _joined(name, code))
        pages += list(tabs.values())

        before = [len(s) for s in sockets]
        restart()
        # An attempt stored after the restart, from the first participant's browser (its key, as its session would).
        cookie = next(c["value"] for c in contexts[1].cookies() if c["name"] == COOKIE)
        store = RoomStore(database)
        store.submit_attempt(code, BrowserMember(hashlib.sha256(cookie.encode()).hexdigest()), trigger_payload([True]))
        store.engine.dispose()

        deadline = time.monotonic() + 90
        while any(len(s) <= b for s, b in zip(sockets, before)) and time.monotonic() < deadline:
            teacher.wait_for_timeout(250)
        assert all(len(s) > b for s, b in zip(sockets, before)), "a browser did not reconnect by itself"
        for page, name in zip(people, NAMES):
            _rerun(page)  # the new server's session draws the whole page, in the browser's language
            lang = LANGS[name]
            _wait_for(page, _text("room.join.member", lang, code=code, title="Atelier", name=name))
            _wait_for(page, _text("room.board.title", lang, code=code))
            assert page.get_by_label(_text("room.join.name", lang)).count() == 0  # no join form
        for name, tab in tabs.items():  # the other page's tabs: language and membership, from the new server
            _rerun(tab)
            _wait_for(tab, _text("trigger.title", LANGS[name]))
            _wait_for(tab, _joined(name, code))
            assert tab.get_by_text(_text("room_submit.join_hint", LANGS[name]), exact=False).count() == 0
        _wait_until_idle(teacher)
        _wait_for(teacher, _text("room.instructor.code_big", code=code))
        _wait_for(teacher, _counts(3, 1))  # the panel, live in the new session
        _wait_for(teacher, _text("room.board.title", code=code))
        assert teacher.get_by_label(_text("room.instructor.token"), exact=True).count() == 0
        assert token not in teacher.inner_text("body")
        assert not any(page.locator('[data-testid="stException"]').count() for page in pages)
        chromium.close()

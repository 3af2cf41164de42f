"""Thirty browsers reconnect at once after a real restart of the server, and each finds what it showed.

docs/README.md#room-serving: after a restart with thirty browsers connected, every one comes back with no click:
its membership, its language, the instructor's board. Here 29 participants (10 of them chose English
before the restart) and the instructor's browser have sessions open on the Room page, over the
websocket as the browser speaks it (`tests.streamlit_sessions`); the server is killed (SIGKILL) and
started again on the same database; every browser then opens its new session at the same moment, as
the frontend does when the server answers again, with the cookie the server set before the restart.
"""

from __future__ import annotations

import asyncio

from evallib.room.browser_cookie import COOKIE, browser_key, new_cookie_value
from evallib.room.browser_state import BrowserStateStore
from evallib.room.browsers import join_from_browser, remember_instructor
from evallib.room.storage import RoomStore, make_engine
from tests.streamlit_sessions import SIDEBAR, Browser, start_server, stop_server
from ui.i18n import catalogue

PARTICIPANTS = 29
ENGLISH = 10  # the first ten participants chose English before the restart
TOKEN = "restart-instructor"


async def _open_all(url: str, cookies: list[str]) -> list[tuple[str, str, list[str]]]:
    browsers = []
    for value in cookies:
        browser = Browser(url, timeout=300)
        browser.set_cookie(COOKIE, value)
        browsers.append(browser)
    await asyncio.gather(*(asyncio.to_thread(b.get_html, "room") for b in browsers))
    sessions = await asyncio.gather(*(b.open("room", connect_only=True) for b in browsers))
    await asyncio.gather(*(s.run() for s in sessions))  # all reconnect together
    shown = [(s.text(SIDEBAR), s.text(), s.exceptions()) for s in sessions]
    await asyncio.gather(*(s.close() for s in sessions))
    return shown


def _check(shown, room, people) -> None:
    texts = catalogue()
    assert not [errors for _, _, errors in shown if errors]
    *members, instructor = shown
    for i, ((sidebar, main, _), person) in enumerate(zip(members, people)):
        lang = "en" if i < ENGLISH else "fr"
        assert texts["sidebar.mode"][lang] in sidebar, f"participant {i}: no sidebar or not in {lang}"
        sentence = texts["room.join.member"][lang].format(code=room.code, title="Restart", name=person.name)
        assert sentence in main, f"participant {i} lost its membership or its language ({lang})"
    sidebar, main, _ = instructor
    assert texts["room.board.title"]["fr"].format(code=room.code) in main, "the instructor lost the board"
    assert texts["room.instructor.recognised"]["fr"] in main and texts["room.instructor.token"]["fr"] not in main


def test_thirty_browsers_come_back_after_a_restart(tmp_path):
    database = f"sqlite:///{tmp_path}/rooms.sqlite3"
    store = RoomStore(make_engine(database), instructor_token=TOKEN)
    room = store.open_room(TOKEN, "Restart")
    cookies = [new_cookie_value() for _ in range(PARTICIPANTS + 1)]
    keys = [browser_key({COOKIE: value}) for value in cookies]
    people = [join_from_browser(store, key, room.code, f"P{i:02d}")[0] for i, key in enumerate(keys[:-1])]
    remember_instructor(store, keys[-1], TOKEN, room.code)
    states = BrowserStateStore(store.engine)
    for key in keys[:ENGLISH]:
        states.save_values(key, {"lang": "en"})
    store.engine.dispose()
    env = {"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN}
    url, server = start_server("serve.py", env)
    try:
        _check(asyncio.run(_open_all(url, cookies)), room, people)  # before the restart
    finally:
        server.kill()
        stop_server(server)
    url, server = start_server("serve.py", env, port=int(url.rsplit(":", 1)[1]))
    try:
        _check(asyncio.run(_open_all(url, cookies)), room, people)
    finally:
        output = stop_server(server)
    assert "Traceback" not in output, output[-3000:]

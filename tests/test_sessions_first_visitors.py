"""A fresh server serves simultaneous first visitors: each session runs through app.py (docs/README.md#room-serving).

Ten browsers, each already in a room (a participant bound to its browser cookie through
`evallib.room.browsers.join_from_browser`, the cookie in the browser's jar as the server set it), open the Room page at the same moment on a server that has
served nobody yet, over the websocket (`tests.streamlit_sessions`). Each must get the sidebar (drawn by
app.py) and its own membership (restored by app.py from its cookie). Streamlit 1.67 started a fresh
server in the legacy ``pages/`` mode; the first session's run left it for all the others, which had
already started their page without app.py: 1 session in 10 had the sidebar. Checked for both ways of
starting the app: ``streamlit run serve.py`` (``make run``) and ``streamlit run app.py`` (as
``bench/sessions.py`` does).
"""

from __future__ import annotations

import asyncio
from contextlib import contextmanager

import pytest

from evallib.room.storage import RoomStore, make_engine
from tests.streamlit_sessions import SIDEBAR, Browser, start_server, stop_server
from ui.i18n import catalogue
from evallib.room.browser_cookie import COOKIE, browser_key, new_cookie_value
from evallib.room.browsers import join_from_browser

VISITORS = 10
TOKEN = "first-visitors-instructor"


@contextmanager
def fresh_server(entry: str, database: str):
    """``streamlit run <entry>`` with its own database, before any session: its URL; its log checked at the end."""
    url, process = start_server(entry, {"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN})
    try:
        yield url
    finally:
        output = stop_server(process)
    assert "Traceback" not in output, output[-3000:]


async def _visit_together(url: str, cookies: list[str]) -> list:
    browsers = []
    for value in cookies:
        browser = Browser(url)
        browser.set_cookie(COOKIE, value)
        browsers.append(browser)
    await asyncio.gather(*(asyncio.to_thread(b.get_html, "room") for b in browsers))  # cookies first, as a browser
    sessions = await asyncio.gather(*(b.open("room", connect_only=True) for b in browsers))
    await asyncio.gather(*(s.run() for s in sessions))  # ten first runs sent together
    shown = [(s.texts(SIDEBAR), s.texts(), s.exceptions()) for s in sessions]
    await asyncio.gather(*(s.close() for s in sessions))
    return shown


@pytest.mark.parametrize("entry", ["serve.py", "app.py"])
def test_ten_first_visitors_of_a_fresh_server_each_get_app_py(entry, tmp_path):
    store = RoomStore(make_engine(f"sqlite:///{tmp_path}/rooms.sqlite3"), instructor_token=TOKEN)
    room = store.open_room(TOKEN, "First visitors")
    cookies = [new_cookie_value() for _ in range(VISITORS)]
    people = [join_from_browser(store, browser_key({COOKIE: value}), room.code, f"Visitor {i}")[0]
              for i, value in enumerate(cookies)]
    store.engine.dispose()
    member = catalogue()["room.join.member"]["fr"]
    with fresh_server(entry, f"sqlite:///{tmp_path}/rooms.sqlite3") as url:
        shown = asyncio.run(_visit_together(url, cookies))
        assert not [errors for _, _, errors in shown if errors]
        with_sidebar = [i for i, (sidebar, _, _) in enumerate(shown) if "Langue" in sidebar]
        members = [i for i, ((_, main, _), p) in enumerate(zip(shown, people))
                   if member.format(code=room.code, title="First visitors", name=p.name) in main]
        assert with_sidebar == list(range(VISITORS)), f"{len(with_sidebar)} of {VISITORS} sessions had the sidebar"
        assert members == list(range(VISITORS)), f"{len(members)} of {VISITORS} sessions found their membership"

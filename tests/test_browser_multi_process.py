"""Two app processes on one PostgreSQL behind nginx (deploy/nginx.conf) serve one room.

Two participants in Chromium, each browser's cookie sending it to a different process (the
``X-Evallib-Upstream`` header nginx adds says which), join the room through nginx; an attempt is
stored and both boards show it, without a click; nginx's log shows a websocket on each process.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time

import pytest

from evallib.room.browser_cookie import COOKIE
from evallib.room.storage import RoomStore
from tests.evallib.room.conftest import trigger_payload
from tests.nginx_proxy import NginxUnavailable, running_nginx, upstream
from tests.postgres_cluster import new_postgres_database
from tests.test_browser import _serve_app, _wait_until_idle
from tests.texts import text as _text

TOKEN = "instructor-token-for-two-processes"



@pytest.fixture(scope="module")
def room(postgres_server):
    """(nginx URL, its prefix, database URL, app ports): two `serve.py` processes on one new database."""
    database = new_postgres_database(postgres_server, prefix="two_processes")
    settings = {"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN,
                "EVALLIB_ROOM_REFRESH_SECONDS": "2"}
    previous = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        with contextlib.ExitStack() as stack:
            apps = [stack.enter_context(contextlib.contextmanager(_serve_app)()) for _ in range(2)]
            ports = [int(app.rsplit(":", 1)[1]) for app in apps]
            try:
                url, prefix = stack.enter_context(running_nginx(ports))
            except NginxUnavailable as why:
                pytest.skip(str(why))
            yield url, prefix, database, ports
    finally:
        for name, value in previous.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)


def _cookie_for_each_process(url: str, ports: list[int]) -> dict[int, str]:
    """A valid browser cookie value that nginx sends to each app port."""
    found: dict[int, str] = {}
    for _ in range(64):
        value = secrets.token_urlsafe(32)
        found.setdefault(int(upstream(url, {COOKIE: value}).rsplit(":", 1)[1]), value)
        if len(found) == len(ports):
            return found
    raise AssertionError(f"nginx sent 64 cookies to {sorted(found)} only, not to each of {ports}")


def _open(browser, url: str, cookie: str, code: str):
    """A new browser with ``cookie``, on the room's join link (not waiting for the page's run)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": COOKIE, "value": cookie, "url": url}])
    page = context.new_page()
    page.goto(f"{url}/room?code={code}")
    return page


def _join(page, code: str, name: str) -> None:
    _wait_until_idle(page)
    page.get_by_label(_text("room.join.name")).fill(name)
    page.get_by_role("button", name=_text("room.join.button"), exact=True).click()
    _wait_until_idle(page)
    page.get_by_text(_text("room.join.member", code=code, title="Deux serveurs", name=name)).wait_for(timeout=20_000)


def test_a_participant_on_each_process_sees_the_same_board(room, browser):
    url, prefix, database, ports = room
    cookies = _cookie_for_each_process(url, ports)
    store = RoomStore(database, instructor_token=TOKEN)
    code = store.open_room(TOKEN, "Deux serveurs").code
    pages = [_open(browser, url, cookies[port], code) for port in ports]  # both processes start their run at once
    for page, name in zip(pages, ("Ana", "Bea")):
        _join(page, code, name)
    cem = store.join(code, "Cem")  # a third participant's attempt, stored as their session would
    store.submit_attempt(code, cem.token, trigger_payload([True] * 28 + [False] * 2, [True, False]))
    reading = _text("room.reading.board_single", best="1")
    for page in pages:  # each board refreshes by itself, on its own process, from the shared database
        page.get_by_text(reading).first.wait_for(timeout=20_000)
        assert page.locator('[data-testid="stException"]').count() == 0
    store.engine.dispose()
    for page in pages:
        page.context.close()
    deadline = time.monotonic() + 20  # nginx logs a websocket when it closes
    while time.monotonic() < deadline:
        log = (prefix / "access.log").read_text()
        streams = {line.rsplit(":", 1)[1] for line in log.splitlines() if "/_stcore/stream" in line and '" 101 ' in line}
        if streams >= {str(port) for port in ports}:
            break
        time.sleep(0.2)
    assert streams >= {str(port) for port in ports}, [line for line in log.splitlines() if "stream" in line]

"""The projected board says when it is not live (docs/README.md#room-serving): in Chromium, a participant's board
refreshing every second; the server is killed (SIGKILL, as a crash or a laptop put to sleep), and a
banner over the board says, in French, since when the board is not live and that the server does not
answer, within two refresh periods; the server is started again on the same port, the browser
reconnects by itself, and the banner says the board is live again, then fades.

The server is this module's own (not the shared `app_url`): the test kills it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from evallib.room.storage import RoomStore
from tests.streamlit_sessions import start_server
from tests.test_browser import _free_port
from tests.texts import text as _text

TOKEN = "instructor-token-for-the-liveness-test"
PERIOD_S = 1
BANNER = "#evallib-liveness-banner"



def _start(port: int, env: dict) -> subprocess.Popen:
    """`streamlit run serve.py` on ``port``, answering its health check (`tests.streamlit_sessions.start_server`)."""
    return start_server("serve.py", env, log=subprocess.DEVNULL, port=port, timeout=60)[1]


@pytest.fixture(scope="module")
def server():
    """(port, environment, database URL, [the running process]): the test replaces the process."""
    folder = tempfile.mkdtemp(prefix="evallib-liveness-")
    database = f"sqlite:///{folder}/rooms.sqlite3"
    env = {**os.environ, "EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN,
           "EVALLIB_ROOM_REFRESH_SECONDS": str(PERIOD_S)}
    port = _free_port()
    running = [_start(port, env)]
    yield port, env, database, running
    for process in running:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)
    shutil.rmtree(folder, ignore_errors=True)


def test_the_board_says_it_is_not_live_when_the_server_dies_and_live_again_when_it_is_back(server, browser):
    port, env, database, running = server
    began = time.monotonic()
    store = RoomStore(database, instructor_token=TOKEN)
    code = store.open_room(TOKEN, "Salle C").code
    store.engine.dispose()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"http://127.0.0.1:{port}/room?code={code}")
    page.get_by_label(_text("room.join.name")).fill("Dana", timeout=90_000)
    page.get_by_role("button", name=_text("room.join.button"), exact=True).click()
    page.get_by_text(_text("room.board.title", code=code)).first.wait_for(timeout=30_000)
    page.wait_for_function("window.__evallibLiveness && window.__evallibLiveness.beat !== null", timeout=10_000)
    assert page.locator(BANNER).is_hidden()
    page.wait_for_timeout(3 * PERIOD_S * 1000)
    assert page.locator(BANNER).is_hidden()  # a live board shows no banner

    running[0].send_signal(signal.SIGKILL)
    running[0].wait(timeout=10)
    killed = time.monotonic()
    page.locator(f'{BANNER}[data-state="down"]').wait_for(state="visible", timeout=(2 * PERIOD_S + 3) * 1000)
    seen_after = time.monotonic() - killed
    last = page.evaluate("window.__evallibLiveness.since")
    assert re.fullmatch(r"\d\d:\d\d:\d\d", last)
    stalled, down = _text("room.live.stalled", time=last), _text("room.live.down", time=last)
    assert page.locator(BANNER).inner_text() in (stalled, down)  # no refresh came: said at once
    # the health checks that fail then name the cause (two in a row, one per period)
    page.locator(BANNER, has_text=down).wait_for(state="visible", timeout=(3 * PERIOD_S + 5) * 1000)
    assert page.locator(BANNER).bounding_box()["height"] >= 60  # large, over the board
    updated = page.get_by_text(re.compile(re.escape(_text("room.board.updated", time="XX", seconds="1"))
                                          .replace("XX", r"\d\d:\d\d:\d\d"))).first.inner_text()
    assert last in updated  # the time the banner names is the board's last refresh

    restart = time.monotonic()
    running.append(_start(port, env))
    started = time.monotonic()
    page.locator(f'{BANNER}[data-state="back"]').wait_for(state="visible", timeout=90_000)
    assert page.locator(BANNER).inner_text().startswith(_text("room.live.back", time="").split("(")[0])
    back = time.monotonic()
    page.locator(BANNER).wait_for(state="hidden", timeout=15_000)  # then fades
    assert page.locator('[data-testid="stException"]').count() == 0
    print(f"board open {killed - began:.1f} s; banner {seen_after:.1f} s after the kill (period {PERIOD_S} s); "
          f"restart {started - restart:.1f} s; live again {back - started:.1f} s later; faded {time.monotonic() - back:.1f} s")

"""Submissions in real sessions (Chromium, one server on a SQLite room): a server killed during a submission
and restarted, and a participant's flood of clicks.

1. The server is started with the test-only delay between the pending row and the store
   (``EVALLIB_TEST_ONLY_SUBMIT_DELAY``). A participant clicks Submit and reloads the page while it is
   stored: the new session confirms it once stored. They submit another attempt; once its pending row is
   in the database the server is killed (SIGKILL) and started again on the same port. The page,
   reconnected by itself, says the submission was not received; submitting again stores it.
2. Another participant clicks Submit 25 times as fast as the mouse goes: one attempt is stored, the page
   says why the others were refused.
"""

import os
import signal
import subprocess
import sys
import time

import pytest
from sqlalchemy import text

from evallib.room.storage import ENV_VAR, RoomStore
from evallib.room.submissions import BURST_SECONDS
from tests.test_browser import ROOT, _free_port, _wait_until_idle, wait_for_health
from tests.test_browser_room_flow import TOKEN, _go, _join, _no_exception, _open, _t, _until

DELAY = "EVALLIB_TEST_ONLY_SUBMIT_DELAY"
#: Seconds the first server waits between a submission's pending row and its store (test only).
DELAY_SECONDS = 8


class Server:
    """`streamlit run serve.py` on one port and one SQLite room, that the test can kill and start again."""

    def __init__(self, database: str) -> None:
        self.port, self.database, self.process, self.logs = _free_port(), database, None, []
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, delay: float = 0) -> None:
        env = {**os.environ, ENV_VAR: self.database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN, DELAY: str(delay)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true", "--server.port",
             str(self.port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wait_for_health(self.url)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.logs.append(self.process.communicate(timeout=10)[0])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.logs.append(self.process.communicate(timeout=10)[0])


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """(server, store seen from outside, room code): one SQLite room for the module's tests."""
    database = f"sqlite:///{tmp_path_factory.mktemp('room')}/rooms.sqlite3"
    outside = RoomStore(database, instructor_token=TOKEN)
    code = outside.open_room(TOKEN, "Submissions").code
    server = Server(database)
    yield server, outside, code
    server.stop()
    outside.engine.dispose()
    assert not any("Traceback" in log for log in server.logs), server.logs[-1][-3000:]


def _pending_rows(store) -> int:
    with store.engine.connect() as conn:
        try:
            return conn.execute(text("SELECT count(*) FROM room_submissions WHERE attempt_id IS NULL")).scalar()
        except Exception:  # no such table: this code writes no pending row
            return 0


def _submit_button(page):
    return page.get_by_role("button", name=_t("room_submit.button"))


def _received(page, number: int):
    """The line saying the last submission was received as ``number`` (any time), as a locator."""
    return page.get_by_text(_t("room_submit.status.stored", time="", number=number).split(":")[-1].strip())


def test_a_reload_during_a_submission_confirms_it_and_a_killed_server_says_what_was_not_received(browser, room):
    server, outside, code = room
    server.start(delay=DELAY_SECONDS)
    page = _open(browser, server.url, f"/room?code={code}")
    _join(page, code, "Ana")
    _go(page, "trigger")
    # a reload while the submission is being stored: the new session confirms it once stored
    _submit_button(page).click()
    _until(lambda: _pending_rows(outside), "the pending row is written before the store", 30)
    page.reload()
    _until(lambda: _received(page, 1).count() == 1, "the reloaded page confirms the stored attempt", 60)
    assert len(outside.attempts(code)) == 1
    # another attempt (the suggested rewrite); the server is killed between its pending row and its store
    page.get_by_role("button", name=_t("trigger.edit_use_example")).click()
    _wait_until_idle(page)
    _submit_button(page).click()
    _until(lambda: _pending_rows(outside), "the pending row is written before the store", 30)
    sent = time.time()
    server.kill()
    assert len(outside.attempts(code)) == 1
    server.start()
    missing = _t("room_submit.status.missing", time=time.strftime("%H:%M", time.localtime(sent)))
    _until(lambda: page.get_by_text(missing).count() == 1, "the reconnected page says what was not received", 60)
    _no_exception(page)
    page.get_by_role("button", name=_t("trigger.edit_use_example")).click()  # the session's edit died with it
    _wait_until_idle(page)
    # one attempt per page every BURST_SECONDS (the flood guard); a fast restart comes back within them
    time.sleep(max(0.0, sent + BURST_SECONDS + 1 - time.time()))
    _submit_button(page).click()
    _wait_until_idle(page)
    assert page.get_by_text(_t("room_submit.stored", number=2, code=code)).count() == 1
    assert [a.participant for a in outside.attempts(code)] == ["Ana", "Ana"]


def test_a_flood_of_clicks_stores_one_attempt(browser, room):
    server, outside, code = room
    if server.process is None or server.process.poll() is not None:
        server.start()
    page = _open(browser, server.url, f"/room?code={code}")
    _join(page, code, "Bruno")
    _go(page, "trigger")
    button = _submit_button(page)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    for _ in range(25):
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(40)
    _wait_until_idle(page)
    _no_exception(page)
    mine = [a for a in outside.attempts(code, include_hidden=True) if a.participant == "Bruno"]
    assert len(mine) == 1, f"{len(mine)} attempts stored by one flood"
    refused = (_t("room_submit.duplicate", number=mine[0].number).split(":")[0],
               _t("room_submit.too_soon", seconds=10, time="", wait="").split(":")[0])
    body = page.locator("body").inner_text()
    assert any(text_ in body for text_ in refused), body[-2000:]

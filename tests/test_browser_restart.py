"""A real restart of the server under an open browser (docs/README.md#room-serving): the session comes back as it was.

An English session in presentation mode on the persona page, live against the fake server, with a
changed timeout, an edited rewrite prompt and the 36 answers of the grid collected; the server is killed
(SIGKILL, no chance to save anything) and started again on the same port. Without a click, the
reconnected page shows English, presentation mode, the timeout, the prompt and the 36 answers (live,
none asked again), and the sidebar asks for the key again saying why. The key was never written: the
browser tables of the database do not hold it.
"""

import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, _free_port, _wait_until_idle
from tests.test_browser_live import KEY, _collect

PROMPT = "You are Ana, the patient one: answer in two short sentences."


def _start(port: int, env: dict) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(120):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1):
                return process
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise RuntimeError("streamlit did not start")


@pytest.fixture
def database(tmp_path):
    return tmp_path / "rooms.sqlite3"


def _sidebar_box(page, label):
    return page.get_by_test_id("stSidebar").get_by_role("textbox", name=label)


def _wait_for_a_run_on_a_new_socket(page, sockets: list, opened: int) -> None:
    """Wait until the frontend reconnected by itself (a websocket after the first ``opened``) and a run ended.

    The page still shows the old session's elements while the server is down: a run drawn by the new
    server is what the assertions must see.
    """
    deadline = time.monotonic() + 60
    while len(sockets) <= opened and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert len(sockets) > opened, "the page did not reconnect"
    frames = []
    sockets[-1].on("framereceived", lambda frame: frames.append(frame))
    while len(frames) < 5 and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    _wait_until_idle(page, 2)


def _shows_what_it_showed(page, fake) -> None:
    """English, presentation mode, the 36 live answers (none to ask), the edited prompt, the settings."""
    assert page.get_by_role("heading", level=1).first.inner_text().startswith("Persona audit")
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "20px"
    assert "present=1" in page.url
    assert page.get_by_text("live 36").count() >= 1
    assert page.get_by_role("button", name="Collect 0 missing answers").is_disabled()
    assert page.get_by_role("textbox", name="New system prompt").input_value() == PROMPT
    if page.get_by_test_id("stSidebar").bounding_box()["width"] == 0:
        page.get_by_test_id("stExpandSidebarButton").click()
    assert _sidebar_box(page, "Base URL").input_value() == fake.openai_base_url
    assert page.get_by_test_id("stSidebar").get_by_role("spinbutton").input_value() == "45"


@pytest.mark.timeout(600)  # two starts of the server, 36 answers collected, a reload: about 3 minutes
def test_a_session_finds_its_language_mode_settings_edit_and_answers_after_a_restart(database):
    env = {**os.environ, "EVALLIB_DATABASE_URL": f"sqlite:///{database}"}
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    process = _start(port, env)
    try:
        with FakeLLMServer(api_key=KEY, latency=0.05) as fake, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            sockets = []
            page.on("websocket", lambda socket: sockets.append(socket))
            page.goto(f"{url}/persona?present=1")
            _wait_until_idle(page)
            page.get_by_test_id("stExpandSidebarButton").click()  # folded in presentation mode
            for choice in ("English", "Live"):
                page.get_by_text(choice, exact=True).click()
                _wait_until_idle(page)
            for label, value in (("Base URL", fake.openai_base_url), ("API key", KEY)):
                _sidebar_box(page, label).fill(value)
                _sidebar_box(page, label).press("Enter")
                _wait_until_idle(page)
            select = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(has_text="Model")
            select.scroll_into_view_if_needed()  # below the sidebar's fold: a list opened while scrolling closes
            page.wait_for_timeout(300)
            select.locator('button[aria-haspopup="listbox"]').click()
            page.get_by_role("option", name="fake-ok", exact=True).click()
            _wait_until_idle(page)
            timeout = page.get_by_test_id("stSidebar").get_by_role("spinbutton")
            timeout.fill("45")
            timeout.press("Enter")
            _wait_until_idle(page)
            _collect(page)
            prompt = page.get_by_role("textbox", name="New system prompt")
            prompt.fill(PROMPT)
            prompt.press("Control+Enter")
            _wait_until_idle(page)

            opened = len(sockets)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
            process = _start(port, env)
            _wait_for_a_run_on_a_new_socket(page, sockets, opened)  # no click, no reload
            # The frontend keeps drawing the old session's page: a rerun ("r", as a user presses it) asks
            # the new server's session to draw it, with the values the tab sends.
            page.get_by_role("heading", level=1).first.click()
            page.keyboard.press("r")
            page.wait_for_timeout(500)
            _wait_until_idle(page, 2)

            _shows_what_it_showed(page, fake)
            # The open tab gave its widgets' values back itself (the key included: it never left the tab).
            # A reload is a new session of the same browser: the values come from the database, the key
            # from nowhere, and the sidebar says why it is asked again.
            page.reload()
            page.wait_for_selector("text=/36\\/36 answers/", timeout=60_000)
            _wait_until_idle(page)
            _shows_what_it_showed(page, fake)
            assert _sidebar_box(page, "API key").input_value() == ""
            assert page.get_by_text("but not the API key").count() == 1
            assert len([r for r in fake.requests if r["path"].endswith("/chat/completions")]) == 36
            browser.close()
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    with sqlite3.connect(database) as conn:
        stored = "".join(str(row) for table in ("browser_values", "browser_answers")
                         for row in conn.execute(f"select * from {table}"))
    assert KEY not in stored and "fake-ok" in stored

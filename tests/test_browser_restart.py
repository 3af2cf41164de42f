"""A real restart of the server under open browsers (docs/README.md#room-serving): each session comes back as it was.

Two participants' browsers, both live against the fake server. Ana, by hand: an English session in
presentation mode on the persona page, the base URL and the model typed (the model before the key, in
the free field), the 36 answers of the grid collected, an edited rewrite prompt, and last a changed
timeout, sent while the endpoint is slow to list its models: the server is killed (SIGKILL, no chance
to save anything) in the middle of that run, so the timeout is found again only if it was stored when
it changed. Bruno, through the room's model: he joined the room (its join form, on 127.0.0.1, says
where a membership made through the link's address would be) and turned on "use the room's model";
nothing to type. The server is started again on the same port. Without a click, Ana's reconnected page
shows English, presentation mode, the timeout, the prompt and the 36 answers (live, none asked again).
After a reload of both, both are live with the same settings: Ana's sidebar asks for her key again
saying why (nothing else), Bruno's shows the switch on and the room's model, and asks nothing. The key
was never written: the browser tables of the database do not hold it.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

from streamlit import net_util

from evallib.room.addresses import address_reading
from evallib.room.endpoint import set_endpoint
from evallib.room.storage import RoomStore
from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, _free_port, _wait_until_idle
from tests.test_browser_live import KEY, _collect
from tests.texts import text

PROMPT = "You are Ana, the patient one: answer in two short sentences."
TOKEN = "instructor-token-of-the-restart-test"
MODEL = "fake-ok"
#: Seconds the fake server waits before answering, while the last change's run is killed (< Ana's timeout).
SLOW = 30


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
    assert page.get_by_test_id("stSidebar").get_by_role("radio", name="Live", exact=True).is_checked()
    assert _sidebar_box(page, "Base URL").input_value() == fake.openai_base_url
    assert page.get_by_test_id("stSidebar").get_by_role("spinbutton").input_value() == "45"


def _model_shown(page) -> str:
    """The model in Ana's sidebar: the free field's text (no key: no model list), else the list's choice."""
    box = _sidebar_box(page, "Model")
    return (box if box.count() else page.get_by_test_id("stSidebar").get_by_role("combobox", name="Model")).input_value()


def _live_through_the_room(page, fake) -> None:
    """Bruno's sidebar: the switch on, the room's model named, nothing to type (no mode, URL, model nor key)."""
    sidebar = page.get_by_test_id("stSidebar")
    assert sidebar.get_by_role("switch", name=text("room_endpoint.switch")).is_checked()
    assert sidebar.get_by_text(text("room_endpoint.in_use", model=MODEL, url=fake.openai_base_url,
                                    kind=text("sidebar.kind.openai"))).count() == 1
    assert sidebar.get_by_role("textbox").count() == 0
    assert sidebar.get_by_text(text("sidebar.key_asked_again")).count() == 0
    assert page.get_by_role("button", name=text("collect.start", n=36)).is_enabled()  # live: the grid to collect


def _stored(database) -> list[dict]:
    """The values the database holds for each browser."""
    with sqlite3.connect(database) as conn:
        return [json.loads(data) for (data,) in conn.execute("select data from browser_values")]


def _bruno_goes_live_through_the_room(browser, url: str, code: str, fake):
    """A second browser joins the room on 127.0.0.1 and turns on the room's model on the persona page."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(f"{url}/room?code={code}")
    _wait_until_idle(page)
    reading = address_reading(f"{url}/room", None, net_util.get_internal_ip(), code)
    note = page.get_by_text(text("room.join.other_address", address=reading.values["address"],
                                 url=reading.values.get("url", "")))
    assert note.count() == (reading.code == "other")  # the link's address is the machine's network one
    page.get_by_label(text("room.join.name"), exact=True).fill("Bruno")
    page.get_by_role("button", name=text("room.join.button"), exact=True).click()
    _wait_until_idle(page)
    assert page.get_by_text(text("room.join.joined", code=code, name="Bruno")).count() == 1
    page.locator('[data-testid="stSidebarNav"] a[href$="/persona"]').first.click()
    _wait_until_idle(page)
    page.get_by_test_id("stSidebar").get_by_text(text("room_endpoint.switch"), exact=True).click()
    _wait_until_idle(page)
    _live_through_the_room(page, fake)
    return page


@pytest.mark.timeout(600)  # two starts of the server, 36 answers collected, two browsers reloaded: about 4 minutes
def test_two_live_sessions_find_their_language_mode_settings_edit_and_answers_after_a_restart(database):
    env = {**os.environ, "EVALLIB_DATABASE_URL": f"sqlite:///{database}", "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN}
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    process = _start(port, env)
    try:
        with FakeLLMServer(api_key=KEY, latency=0.05) as fake, sync_playwright() as playwright:
            store = RoomStore(env["EVALLIB_DATABASE_URL"], instructor_token=TOKEN)
            code = store.open_room(TOKEN, "Atelier").code
            set_endpoint(store, code, TOKEN, kind="openai", base_url=fake.openai_base_url, model=MODEL, api_key=KEY)
            store.engine.dispose()
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            bruno = _bruno_goes_live_through_the_room(browser, url, code, fake)
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            sockets = []
            page.on("websocket", lambda socket: sockets.append(socket))
            page.goto(f"{url}/persona?present=1")
            _wait_until_idle(page)
            page.get_by_test_id("stExpandSidebarButton").click()  # folded in presentation mode
            for choice in ("English", "Live"):
                page.get_by_text(choice, exact=True).click()
                _wait_until_idle(page)
            # Typed, the model before the key: no key, no model list, a free field.
            for label, value in (("Base URL", fake.openai_base_url), ("Model", MODEL), ("API key", KEY)):
                _sidebar_box(page, label).fill(value)
                _sidebar_box(page, label).press("Enter")
                _wait_until_idle(page)
            assert _model_shown(page) == MODEL  # the list the key opened holds it: kept
            _collect(page)
            prompt = page.get_by_role("textbox", name="New system prompt")
            prompt.fill(PROMPT)
            prompt.press("Control+Enter")
            _wait_until_idle(page)

            # The last change: the timeout, whose run asks the endpoint for its models again (another
            # configuration) and waits there. The server is killed before that run ends.
            fake.latency, listed = SLOW, len([r for r in fake.requests if r["path"].endswith("/models")])
            timeout = page.get_by_test_id("stSidebar").get_by_role("spinbutton")
            timeout.fill("45")
            timeout.press("Enter")
            deadline = time.monotonic() + 20
            while len([r for r in fake.requests if r["path"].endswith("/models")]) == listed:
                assert time.monotonic() < deadline, "the timeout's run did not ask for the models"
                page.wait_for_timeout(100)
            stored = _stored(database)
            assert [v.get("llm_timeout") for v in stored if v.get("llm_base_url")] == [45]  # stored as it changed
            opened = len(sockets)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
            fake.latency = 0.05
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
            # from nowhere, and the sidebar says why it is asked again; the model typed is there.
            page.reload()
            page.wait_for_selector("text=/36\\/36 answers/", timeout=60_000)
            _wait_until_idle(page)
            _shows_what_it_showed(page, fake)
            assert _sidebar_box(page, "API key").input_value() == ""
            assert page.get_by_text("but not the API key").count() == 1
            assert _model_shown(page) == MODEL
            # Bruno's reload: live through the room's model again, the switch drawn, nothing asked.
            bruno.reload()
            _wait_until_idle(bruno)
            _live_through_the_room(bruno, fake)
            assert len([r for r in fake.requests if r["path"].endswith("/chat/completions")]) == 36
            browser.close()
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    with sqlite3.connect(database) as conn:
        stored = "".join(str(row) for table in ("browser_values", "browser_answers")
                         for row in conn.execute(f"select * from {table}"))
    assert KEY not in stored and "fake-ok" in stored

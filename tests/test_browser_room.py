"""The Room page in Chromium: the instructor opens a room and sees a QR code large enough for a room;
the board refreshes by itself when attempts arrive (stored by this test straight into the database,
as another participant's session would); a participant who reloads the page is still in the room,
through the server-set browser cookie (its hash bound to the participant in the database), and no
cookie value or token shows on the page.

The app server gets its own SQLite file, a known instructor token and a 2-second board refresh
through the environment it inherits.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile

import pytest
from PIL import Image
from playwright.sync_api import sync_playwright

from evallib.room.addresses import reachable_url
from evallib.room.browser_cookie import COOKIE
from evallib.room.browsers import BrowserMember
from evallib.room.storage import RoomStore
from tests.evallib.room.conftest import trigger_payload
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, _serve_app, _wait_until_idle
from tests.texts import text as _text
from ui.room.qr import qr_png

TOKEN = "instructor-token-for-browser-tests"



@pytest.fixture(scope="module")
def room_app():
    """(app URL, database URL): an app server on a fresh SQLite file with a known instructor token."""
    folder = tempfile.mkdtemp(prefix="evallib-room-browser-")
    url = f"sqlite:///{folder}/rooms.sqlite3"
    settings = {"EVALLIB_DATABASE_URL": url, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN,
                "EVALLIB_ROOM_REFRESH_SECONDS": "2"}
    previous = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        for app in _serve_app():
            yield app, url
    finally:
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture
def browser():
    with sync_playwright() as playwright:
        running = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield running
        running.close()


def _wait_for_text(page, text: str, timeout_s: float = 20) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=timeout_s * 1000)


def _open_room(page, app: str) -> str:
    page.goto(f"{app}/room")
    _wait_until_idle(page)
    page.locator('[data-testid="stExpander"] summary').filter(has_text=_text("room.instructor.title")).click()
    field = page.get_by_label(_text("room.instructor.token"), exact=True)
    field.fill(TOKEN)
    field.press("Enter")
    _wait_until_idle(page)
    page.get_by_label(_text("room.instructor.new_title")).fill("Atelier du mardi")
    page.get_by_role("button", name=_text("room.instructor.open")).click()
    _wait_until_idle(page)
    heading = page.get_by_text(re.compile(r"^Code\s*:\s*[A-Z0-9]{6}$")).first
    heading.wait_for(timeout=20_000)
    return heading.inner_text().split(":")[-1].strip()


def test_the_qr_code_shows_and_the_board_refreshes_by_itself(room_app, browser):
    app, database = room_app
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    code = _open_room(page, app)
    qr = page.locator('[data-testid="stImage"] img').first
    qr.wait_for(timeout=20_000)
    box = qr.bounding_box()
    assert box["width"] >= 300 and abs(box["width"] - box["height"]) < 2, box  # square, large on a projector
    assert qr.evaluate("img => img.complete && img.naturalWidth") == round(box["width"])  # shown at its own size
    link = page.locator('[data-testid="stCode"] code').filter(has_text=f"/room?code={code}").first.inner_text().strip()
    # The address this browser uses; on a loopback name, this machine's network address instead.
    from streamlit import net_util

    expected_link, note = reachable_url(f"{app}/room?code={code}", net_util.get_internal_ip())
    assert link == expected_link and (note == "network") == (net_util.get_internal_ip() is not None)
    assert page.get_by_text(_text(f"room.instructor.link_{note}")).count() == 1
    served = Image.open(io.BytesIO(page.request.get(qr.get_attribute("src")).body()))
    assert served.format == "PNG"  # lossless: a JPEG would blur the modules' edges
    expected = Image.open(io.BytesIO(qr_png(link)[0]))
    assert served.size == expected.size  # every module drawn, none scaled
    assert served.convert("1").tobytes() == expected.convert("1").tobytes()  # the QR code of the link
    assert page.locator('[data-testid="stException"]').count() == 0

    store = RoomStore(database, instructor_token=TOKEN)
    ana, bea = store.join(code, "Ana"), store.join(code, "Bea")
    store.submit_attempt(code, ana.token, trigger_payload([True] * 28 + [False] * 2, [True, False]))
    _wait_for_text(page, _text("room.reading.board_single", best="1"))  # no click: the fragment refreshed
    store.submit_attempt(code, bea.token, trigger_payload([True] * 5 + [False] * 25, [False, False]))
    _wait_for_text(page, _text("room.reading.board_separated", tied="1", attempts="2", best="1"))
    store.engine.dispose()
    assert page.locator('[data-testid="stException"]').count() == 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 3000})
    page.wait_for_timeout(500)
    page.screenshot(path=str(SCREENSHOTS / "room-board-fr.png"), full_page=True)


def test_a_participant_who_reloads_or_leaves_and_comes_back_is_the_same_participant(room_app, browser):
    """Reloading keeps the participant (the server-set browser cookie, its hash bound to the participant in
    the database); leaving then joining again from the same browser, even after a reload, takes the same
    participant back; the cookie is HttpOnly and never shows on the page."""
    app, database = room_app
    store = RoomStore(database, instructor_token=TOKEN)
    code = store.open_room(TOKEN, "Salle B").code
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{app}/room?code={code}")
    _wait_until_idle(page)
    assert page.get_by_label(_text("room.join.code")).input_value() == code
    page.get_by_label(_text("room.join.name")).fill("Chloé")
    page.get_by_role("button", name=_text("room.join.button"), exact=True).click()
    _wait_until_idle(page)
    member = _text("room.join.member", code=code, title="Salle B", name="Chloé")
    _wait_for_text(page, member)
    [cookie] = [c for c in context.cookies() if c["name"] == COOKIE]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert [c["name"] for c in context.cookies() if c["name"].startswith("evallib")] == [COOKIE]  # none by a script
    assert "evallib" not in page.evaluate("document.cookie")  # HttpOnly: no script of the page reads it
    key = hashlib.sha256(cookie["value"].encode()).hexdigest()
    assert store.rejoin(code, BrowserMember(key)).name == "Chloé"
    token = cookie["value"]
    page.reload()
    _wait_until_idle(page)
    _wait_for_text(page, member)  # a new session, the same participant
    assert token not in page.inner_text("body") and token not in page.url
    assert [p.name for p in store.participants(code)] == ["Chloé"]
    page.get_by_role("button", name=_text("room.join.leave")).click()
    _wait_until_idle(page)
    page.reload()
    _wait_until_idle(page)
    assert store.rejoin(code, BrowserMember(key)) is None
    assert page.get_by_label(_text("room.join.name")).count() == 1  # the join form again
    page.get_by_label(_text("room.join.name")).fill("Quelqu'un d'autre")
    page.get_by_role("button", name=_text("room.join.button"), exact=True).click()
    _wait_until_idle(page)
    _wait_for_text(page, member)  # after leaving and a reload, this browser is taken back as Chloé
    assert [p.name for p in store.participants(code)] == ["Chloé"]
    store.engine.dispose()
    context.close()

"""The Room page as a projector shows it (issue 21, item 7): 1280 x 720, presentation mode, a board of
every kind.

- every text of the main area is at least 20 px (presentation's base size), widget labels, captions,
  buttons and table cells included (Streamlit writes several of them at 0.875 rem: 17.5 px);
- the board's tables fit the page width (no cut, no sideways scroll) and no word in them is broken
  across two lines;
- on a phone (390 px wide), the items to rate show their code in a monospace block, without raw fences,
  and nothing is wider than the screen.
"""

import pytest
from playwright.sync_api import sync_playwright

from evallib.room.storage import RoomStore
from tests.evallib.room.conftest import trigger_payload
from tests.evallib.room.kinds import default_payloads
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _wait_until_idle
from tests.test_browser_room_flow import TOKEN, _join, _no_exception, _server

#: Elements of the main area whose own text is smaller than ``px`` (SVG figures left out: their axis sizes
#: are tested in tests/test_browser_present.py): [test id or tag, font size, text].
SMALL_TEXT = """px => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('[data-testid="stMain"]'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const e = node.parentElement;
    if (!node.textContent.trim() || !e || e.closest('svg') || e.offsetParent === null) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < px) out.push([(e.closest('[data-testid]') || e).dataset.testid || e.tagName, size,
                             node.textContent.trim().slice(0, 40)]);
  }
  return out;
}"""
#: Board tables: [how much wider than their box, right edge beyond the window, words drawn on two lines].
BOARD_TABLES = """() => Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stTable"]')).map(t => {
  const box = t.firstElementChild, broken = [];
  const walker = document.createTreeWalker(t, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /[^\\s\\-\u2010]+/g; let m;  // a line may end after a hyphen
    while ((m = re.exec(node.textContent)) !== null) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return [box.scrollWidth - box.clientWidth, Math.max(0, t.getBoundingClientRect().right - window.innerWidth), broken];
})"""


@pytest.fixture
def room(monkeypatch, tmp_path):
    """(app URL, room code): a room whose board has two attempts of each kind."""
    database = f"sqlite:///{tmp_path}/rooms.sqlite3"
    server = _server(monkeypatch, database)
    url = next(server)
    outside = RoomStore(database, instructor_token=TOKEN)
    code = outside.open_room(TOKEN, "Projector").code
    payloads = default_payloads()
    for name, outcomes in (("Ana-Maria Delacroix-Fontaine", [True, False, True, True]),
                           ("Bruno", [True, True, False, False])):
        token = outside.join(code, name).token
        for payload in (trigger_payload(outcomes, [True, False]), payloads["persona"], payloads["judge"]):
            outside.submit_attempt(code, token, payload)
    yield url, code
    outside.engine.dispose()
    next(server, None)


def test_the_board_in_presentation_mode_is_20_px_and_fits_1280_by_720_without_broken_words(room):
    url, code = room
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        page.goto(f"{url}/room?code={code}&present=1")
        _wait_until_idle(page, 2)
        _join(page, code, "Chloé")
        page.wait_for_selector('[data-testid="stMain"] [data-testid="stTable"]', timeout=30_000)
        _wait_until_idle(page, 2)
        _no_exception(page)
        tables = page.evaluate(BOARD_TABLES)
        small = page.evaluate(SMALL_TEXT, 20)
        browser.close()
    assert len(tables) >= 6, "the board of every kind and its winner's curse table are drawn"
    assert [t[:2] for t in tables if t[0] > 0 or t[1] > 0] == [], "a board table is cut or scrolls sideways"
    assert [t[2] for t in tables if t[2]] == [], "words broken across lines"
    assert small == [], sorted({tuple(s[:2]) for s in small})

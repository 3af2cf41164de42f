"""The Room page as a projector shows it (docs/README.md#presentation): 1280 x 720, presentation mode, a board of
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


#: On a phone: how much wider the page is than the screen, the rating items' code blocks as
#: [font family, how much wider than their box], and whether a raw fence shows anywhere in the items.
PHONE = """() => {
  const items = Array.from(document.querySelectorAll('[data-testid="stMain"] [data-testid="stVerticalBlock"]'))
    .filter(b => Array.from(b.children).some(c => c.matches('[class*="st-key-room_rate_"]')));
  const codes = items.flatMap(b => Array.from(b.querySelectorAll('[data-testid="stCode"]')))
    .map(c => { const pre = c.querySelector('pre'), code = c.querySelector('code') || pre;
                return [getComputedStyle(code).fontFamily, pre.scrollWidth - pre.clientWidth]; });
  return [document.documentElement.scrollWidth - window.innerWidth, codes,
          items.some(b => b.innerText.includes('```')), items.length];
}"""


def test_items_to_rate_show_code_as_code_on_a_phone(monkeypatch, tmp_path):
    from evallib.judging.data import load_cases
    from evallib.room.rating_set import DEFAULT_LABELS, RATING_KEY, authored_answers, rating_items, rating_settings

    database = f"sqlite:///{tmp_path}/rooms.sqlite3"
    server = _server(monkeypatch, database)
    url = next(server)
    outside = RoomStore(database, instructor_token=TOKEN)
    items = rating_settings(rating_items(load_cases(), authored_answers(), limit=3), DEFAULT_LABELS)
    assert all("```" in item["text"] for item in items["items"]), "the authored answers hold fenced code"
    code = outside.open_room(TOKEN, "Phone", {RATING_KEY: items}).code
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
            page.goto(f"{url}/room?code={code}")
            _wait_until_idle(page, 2)
            _join(page, code, "Dina")
            page.goto(f"{url}/kappa")
            _wait_until_idle(page, 2)
            page.wait_for_selector('[class*="st-key-room_rate_"]', timeout=30_000)
            _no_exception(page)
            wider, codes, fences, shown = page.evaluate(PHONE)
            browser.close()
    finally:
        outside.engine.dispose()
        next(server, None)
    assert shown == 3 and len(codes) >= 3, "each item's code is a code block"
    assert all("mono" in family.lower() for family, _ in codes), codes
    assert [c for c in codes if c[1] > 0] == [], "a code line runs past its box: wrapped on a phone"
    assert wider <= 0 and not fences

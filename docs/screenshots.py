"""The pictures of the README and the guides, taken from the running app: ``make screenshots``.

Starts the app (`tests.test_browser._serve_app`: ``streamlit run serve.py`` on a free port) on a throwaway room
database and an empty local recordings folder, so that what the pictures show is what a fresh checkout
shows, then drives Debian's headless Chromium through Playwright and writes small PNG files (a palette of
at most `COLOURS` colours) into ``docs/img/``:

- ``<page>-<lang>.png``: each page of the app as it opens, in French and in English, at 1280 x 800;
- ``room-instructor-en.png``: the Room page of the instructor who manages a room (code, link, QR code);
- ``board-present-en.png``: that room's board in presentation mode, as a projector shows it;
- ``phone-join-<lang>.png``: the join form that the QR code opens on a phone (390 x 844), in both languages.

The demo room is made through `evallib.room.storage.RoomStore`, as an import would: six participants, each
with a trigger attempt. Each attempt is the shipped light router's recorded decisions on the labelled
queries with a few of them changed (a seeded draw, standing for what an edited description changes), so
that the board has something to compare; two participants also submit the default persona and judge
attempts (`tests.evallib.room.kinds.default_payloads`). Nothing here states a figure: the board computes
its own from those attempts.

Run from the repository's root: ``.venv/bin/python -m docs.screenshots`` (``--only NAME`` to retake one
picture). Needs /usr/bin/chromium (``CHROMIUM`` to use another) and the dev requirements.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img"
#: The app's pages, by the last part of their address ("home" is the root).
PAGES = ("home", "persona", "kappa", "trigger", "judge", "gnss", "room")
LANGUAGES = ("fr", "en")
#: Every picture this script writes, in the order it writes them.
SHOTS = tuple(f"{page}-{lang}" for lang in LANGUAGES for page in PAGES) + (
    "room-instructor-en", "board-present-en") + tuple(f"phone-join-{lang}" for lang in LANGUAGES)
#: Colours kept in each PNG: screenshots of a flat interface lose nothing visible at 128.
COLOURS = 128
DESKTOP = {"width": 1280, "height": 800}
#: The board as a projector 1280 px wide shows it (tests/test_browser_present_room.py checks that width), tall
#: enough to hold one board's reading and its figure with the participants' names.
PROJECTOR = {"width": 1280, "height": 1040}
PHONE = {"width": 390, "height": 844}
TOKEN = "instructor-token-of-the-screenshots"
ROOM_TITLE = "Workshop"
#: The demo participants and how many of the router's decisions each one's attempt changes.
PARTICIPANTS = (("Ana", 0), ("Bruno", 2), ("Chloé", 3), ("Dmitri", 4), ("Elif", 5), ("Farid", 7))
SEED = 31


def _changed(rows, names: list[str], count: int, rng: random.Random):
    """``rows`` with the decisions of ``count`` queries drawn by ``rng`` turned into another skill (or none)."""
    from dataclasses import replace

    from evallib.triggering.decisions import Decision

    queries = sorted({r.query_id for r in rows})
    chosen = set(rng.sample(queries, count))
    out = []
    for row in rows:
        if row.query_id not in chosen:
            out.append(row)
            continue
        others = [n for n in names if n != row.decision.obtained]
        skill = rng.choice(others + [None])
        out.append(replace(row, decision=Decision("none") if skill is None else Decision("skill", skill)))
    return out


def demo_room(database: str) -> str:
    """Open the demo room on ``database`` and fill it (module docstring); returns its code."""
    from evallib.llm import Recordings, provider_for_mode
    from evallib.packs.loader import open_pack
    from evallib.room.attempts import build_trigger_attempt
    from evallib.room.storage import RoomStore
    from evallib.triggering.authored import recorded_models
    from evallib.triggering.data import load_queries, load_skills
    from evallib.triggering.report import decide_all, route
    from tests.evallib.room.kinds import default_payloads

    pack = ROOT / "packs" / "en"  # the README's board is in English: the English pack's attempts
    catalogue = load_skills(pack / "triggering_skills.json")
    queries = load_queries(catalogue, pack / "triggering_queries.json")
    recordings = Recordings(pack / "recordings")
    identity = open_pack(pack).identity()
    model = recorded_models(recordings)[0]
    cells, results = route(catalogue, queries, provider_for_mode("offline", recordings), model, 1)
    baseline = decide_all(cells, results, queries, catalogue.names)
    descriptions = {skill.name: skill.description for skill in catalogue.skills}
    store = RoomStore(database, instructor_token=TOKEN)
    try:
        code = store.open_room(TOKEN, ROOM_TITLE).code
        rng = random.Random(SEED)
        for index, (name, changes) in enumerate(PARTICIPANTS):
            token = store.join(code, name).token
            rows = _changed(baseline, list(catalogue.names), changes, rng)
            attempt = build_trigger_attempt(rows, queries, descriptions, model=model, source="recorded", runs=1,
                                            baseline_rows=baseline)
            # as a page submits it: naming the pack it was made on (ui.room.submit._with_pack)
            store.submit_attempt(code, token, {**attempt, "provenance": {**attempt["provenance"], "pack": identity}})
            if index < 2:
                for kind in ("persona", "judge"):
                    store.submit_attempt(code, token, default_payloads()[kind])
    finally:
        store.engine.dispose()
    return code


def save(png: bytes, name: str) -> Path:
    """Write ``png`` as ``docs/img/<name>.png`` with at most `COLOURS` colours; returns the path."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.png"
    small.save(path, optimize=True)
    return path


class Shooter:
    """One headless Chromium against the app at ``url``; each method takes one kind of picture."""

    def __init__(self, browser, url: str, only: str | None) -> None:
        self.browser, self.url, self.only = browser, url, only

    def wanted(self, name: str) -> bool:
        return self.only is None or self.only == name

    def _page(self, viewport: dict, **options):
        from tests.test_browser import _wait_until_idle

        page = self.browser.new_context(viewport=viewport, **options).new_page()
        page.goto(self.url)
        _wait_until_idle(page)
        return page

    def _shot(self, page, name: str) -> None:
        from tests.test_browser_room_flow import _no_exception

        _no_exception(page)
        page.mouse.move(page.viewport_size["width"] - 1, page.viewport_size["height"] - 1)  # no hover effect
        page.wait_for_timeout(300)
        path = save(page.screenshot(), name)
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")

    def pages(self, lang: str) -> None:
        """Each page as it opens in ``lang``, reached by the sidebar's links (one browser session)."""
        from tests.test_browser import _wait_until_idle

        if not any(self.wanted(f"{name}-{lang}") for name in PAGES):
            return
        page = self._page(DESKTOP)
        if lang == "en":
            _english(page)
        for name in PAGES:
            suffix = "/" if name == "home" else f"/{name}"
            page.locator(f'[data-testid="stSidebarNav"] a[href$="{suffix}"]').first.click()
            _wait_until_idle(page, 2)
            if self.wanted(f"{name}-{lang}"):
                self._shot(page, f"{name}-{lang}")
        page.context.close()

    def room(self, code: str) -> None:
        """The instructor's Room page (code, link, QR code), then the board in presentation mode."""
        from tests.test_browser import _wait_until_idle
        from tests.texts import text

        if not (self.wanted("room-instructor-en") or self.wanted("board-present-en")):
            return
        page = self._page(PROJECTOR)
        _english(page)
        page.goto(f"{self.url}/room?present=1")
        _wait_until_idle(page, 2)
        page.get_by_text(text("room.instructor.title", "en"), exact=True).click()
        _fill(page, text("room.instructor.token", "en"), TOKEN)
        _fill(page, text("room.instructor.manage_code", "en"), code)
        page.get_by_role("button", name=text("room.instructor.manage", "en")).click()
        _wait_until_idle(page, 2)
        page.get_by_text(text("room.instructor.code_big", "en", code=code)).first.wait_for()
        page.evaluate("window.scrollTo(0, 0)")
        if self.wanted("room-instructor-en"):
            self._shot(page, "room-instructor-en")
        title = text("room.board.title", "en", code=code)
        page.get_by_role("heading", name=title).first.scroll_into_view_if_needed()
        page.wait_for_selector('[data-testid="stMain"] [data-testid="stTable"]', timeout=30_000)
        _wait_until_idle(page, 2)
        kind = page.get_by_role("heading", name=text("room.kind.trigger", "en")).first
        kind.evaluate("h => h.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(500)
        if self.wanted("board-present-en"):
            self._shot(page, "board-present-en")
        page.context.close()

    def phone(self, code: str, lang: str) -> None:
        """What the QR code opens on a phone, in ``lang``: the join form with the room's code filled in."""
        from tests.test_browser import _wait_until_idle

        if not self.wanted(f"phone-join-{lang}"):
            return
        page = self._page(PHONE, is_mobile=True, has_touch=True)
        if lang == "en":
            page.get_by_test_id("stExpandSidebarButton").click()
            _english(page)
        page.goto(f"{self.url}/room?code={code}")
        _wait_until_idle(page, 2)
        if page.get_by_test_id("stSidebarCollapseButton").count():
            page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
            page.wait_for_timeout(500)
        self._shot(page, f"phone-join-{lang}")
        page.context.close()


def _english(page) -> None:
    """Switch the session's language to English by the sidebar's switch (kept for the browser)."""
    from tests.test_browser import _wait_until_idle

    page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
    _wait_until_idle(page, 2)


def _fill(page, label: str, value: str) -> None:
    from tests.test_browser import _wait_until_idle

    field = page.get_by_label(label, exact=True)
    field.fill(value)
    field.press("Enter")
    _wait_until_idle(page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=SHOTS, help="retake this picture only")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _serve_app

    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="evallib-screenshots-") as tmp:
        database = f"sqlite:///{tmp}/rooms.sqlite3"
        os.environ.update({"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": TOKEN,
                           "EVALLIB_LOCAL_RECORDINGS": f"{tmp}/recordings"})
        code = demo_room(database)
        server = _serve_app()
        url = next(server)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                shooter = Shooter(browser, url, args.only)
                for lang in LANGUAGES:
                    shooter.pages(lang)
                shooter.room(code)
                for lang in LANGUAGES:
                    shooter.phone(code, lang)
                browser.close()
        finally:
            next(server, None)
    unknown = sorted(p.stem for p in OUT.glob("*.png") if p.stem not in SHOTS)
    if unknown:
        print(f"docs/img holds pictures this script does not take: {', '.join(unknown)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Seeded random walks in Chromium: no sequence of clicks breaks a page (docs/README.md#robustness).

For every page and both languages, a new browser session performs a seeded sequence of interactions
chosen among what the page offers at that moment: number inputs up and down, radios, toggles,
selects, sliders, expanders, tabs, buttons, a table cell or a text area edited (broken, then
restored), another page, the other language, going live against the fake server of
`tests/fake_llm_server.py` and back offline. After each step the walk waits until the script has
finished, and fails on an exception box, on a traceback in the server's log, or on a sidebar gone.

Every step is printed, numbered, with the seed: a failure names the command that replays it.
`RANDOM_WALK_SEEDS` (``3,17`` or ``0-49``) and `RANDOM_WALK_STEPS` make long runs:

    RANDOM_WALK_SEEDS=0-19 RANDOM_WALK_STEPS=120 .venv/bin/python -m pytest tests/test_random_walk.py
"""

from __future__ import annotations

import os

import pytest

from tests.browser_walk import Walk, _text
from tests.test_browser import PAGES, _serve_app

STEPS = int(os.environ.get("RANDOM_WALK_STEPS", "40"))
REPLAY = "RANDOM_WALK_SEEDS={seed} RANDOM_WALK_STEPS={steps} .venv/bin/python -m pytest -p no:cacheprovider " \
         "'tests/test_random_walk.py::test_random_walk[{page}-{lang}-{seed}]'"


def _seeds() -> list[int]:
    """``RANDOM_WALK_SEEDS``: "3,17", "0-49" or a mix (each seed walks every page in both languages)."""
    seeds = []
    for part in os.environ["RANDOM_WALK_SEEDS"].split(","):
        low, _, high = part.strip().partition("-")
        seeds.extend(range(int(low), int(high or low) + 1))
    return seeds


#: Without RANDOM_WALK_SEEDS, `make test` walks each page twice: in French with seed 1, in English with seed 2.
DEFAULT_WALKS = (("fr", 1), ("en", 2))


def _walks():
    pairs = DEFAULT_WALKS if "RANDOM_WALK_SEEDS" not in os.environ else \
        [(lang, seed) for seed in _seeds() for lang in ("fr", "en")]
    return [pytest.param(page, lang, seed, id=f"{page}-{lang}-{seed}") for lang, seed in pairs for page in PAGES]


@pytest.mark.parametrize("home, lang, seed", _walks())
def test_random_walk(logged_app, server, chromium, home, lang, seed):
    url, log = logged_app
    server.hang_seconds, server.retry_after = 0.5, 0  # a walk that picks a slow model does not wait long
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    walk = Walk(page, url, log, server, home, lang, seed)
    print(f"random walk on {home} in {lang}, seed {seed}, {STEPS} steps; replay with:\n"
          + REPLAY.format(seed=seed, steps=STEPS, page=home, lang=lang))
    try:
        page.goto(f"{url}/" if home == "home" else f"{url}/{home}")
        walk.settle()
        if lang == "en":
            walk._language(None)
            walk.settle()
        walk.check()
        for _ in range(STEPS):
            walk.step()
    finally:
        context.close()


def test_the_first_click_on_a_fresh_server_counts(chromium):
    """The first visitor of a new server switches the language at once (before: the click was lost)."""
    for url in _serve_app():
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{url}/")
        walk = Walk(page, url, None, None, "home", "fr", 0)
        walk.settle()
        page.locator('[data-testid="stSidebar"]').get_by_text("English", exact=True).click()
        walk.settle()
        assert walk.language() == "en"
        assert page.locator("h1").first.inner_text() == _text("home.title", "en")
        context.close()



"""The sequences that broke pages (docs/README.md#robustness), replayed in Chromium as a participant did them.

Each failed before the fix it names: a ``TypeError`` in ``ui/widgets.py`` when the names of a
choice changed while the page ran, or the language lost when a page opened another one.
"""

from __future__ import annotations

import random
import re

from tests.browser_walk import KEY, Walk, _text


def _open(logged_app, chromium, name: str):
    url, log = logged_app
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    walk = Walk(page, url, log, None, name, "fr", 0)
    page.goto(f"{url}/{name}")
    walk.settle()
    return context, page, walk


def _append_in_cell(walk: Walk, grid, row: int, x: int, suffix: str) -> None:
    """Open the text cell at ``x`` px in ``row`` of ``grid``, add ``suffix`` and commit it."""
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    walk.page.mouse.dblclick(box["x"] + x, box["y"] + 35 + 35 * row + 17)
    editor = walk.page.locator("#portal textarea").first
    editor.fill(editor.input_value() + suffix)
    editor.press("Enter")
    walk.settle()
    walk.check()


def test_trigger_runs_per_query_two_three_one(logged_app, chromium):
    """The counts in the recorded sources' names change with the runs (before: TypeError in ui/widgets.py)."""
    context, page, walk = _open(logged_app, chromium, "trigger")
    runs = page.get_by_role("spinbutton", name=_text("trigger.runs", "fr"))
    for value in ("3", "1", "2"):
        runs.fill(value)
        runs.press("Enter")
        walk.settle()
        walk.check()
    context.close()


def test_persona_edit_a_prompt_then_rename_another_assistant(logged_app, chromium):
    context, page, walk = _open(logged_app, chromium, "persona")
    assistants = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').first
    _append_in_cell(walk, assistants, 0, 600, " Réponds en une phrase.")
    _append_in_cell(walk, assistants, 1, 60, "-bis")
    assert page.get_by_text("style-bis").count() >= 1
    context.close()


def test_judge_unknown_placeholder_in_template_a_then_edit_it_again(logged_app, chromium):
    context, page, walk = _open(logged_app, chromium, "judge")
    page.get_by_text(_text("judge.templates_title", "fr"), exact=True).click()
    walk.settle()
    template = page.get_by_role("textbox", name=_text("judge.template", "fr").format(name="A"))
    first = template.input_value()
    for text in (first + " {inconnu}", first + " {inconnu} encore", first + " Sois bref."):
        template.fill(text)
        template.press("Control+Enter")
        walk.settle()
        walk.check()
    context.close()


def test_judge_offline_on_a_generator_recorded_live_then_blinding_and_language(logged_app, server, chromium):
    """A recorded source appears (Live + record), is picked offline, then the names change again."""
    context, page, walk = _open(logged_app, chromium, "judge")
    walk.rng = random.Random(0)
    walk._mode(2)  # live + record
    walk.settle()
    side = page.locator('[data-testid="stSidebar"]')
    for label, value in (("sidebar.base_url", server.openai_base_url), ("sidebar.api_key", KEY)):
        box = side.get_by_role("textbox", name=_text(label, "fr"))
        box.fill(value)
        box.press("Enter")
        walk.settle()
    select = side.locator('[data-testid="stSelectbox"]').filter(has_text=_text("sidebar.model", "fr"))
    select.scroll_into_view_if_needed()  # below the fold of the sidebar: a list opened while scrolling closes
    page.wait_for_timeout(300)
    select.locator('button[aria-haspopup="listbox"]').click()
    page.get_by_role("option", name="fake-ok", exact=True).click()
    walk.settle()
    page.get_by_role("button", name=re.compile(r"^Lancer \(\d+ chaînes\)$")).click()
    walk.settle()
    walk.check()
    walk._offline(None)
    walk.settle()
    generator = page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').filter(
        has_text=_text("judge.source_generator", "fr"))
    generator.locator('button[aria-haspopup="listbox"]').click()
    page.get_by_role("option", name=re.compile("^fake-ok")).first.click()
    walk.settle()
    walk.check()
    for _ in range(2):
        page.get_by_text(_text("judge.blinding_toggle", "fr"), exact=True).click()
        walk.settle()
        walk.check()
    walk._language(None)
    walk.settle()
    walk.check()
    assert walk.language() == "en"
    context.close()


def test_the_language_survives_a_page_opened_by_a_button(logged_app, chromium):
    """The judge page opens the kappa page (st.switch_page): still in English (before: back to French)."""
    url, log = logged_app
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    walk = Walk(page, url, log, None, "judge", "en", 0)
    page.goto(f"{url}/judge")
    walk.settle()
    walk._language(None)
    walk.settle()
    page.get_by_role("button", name=_text("judge.send_to_kappa", "en")).click()
    # The click's run may not have started when settle() first looks (a loaded machine: the page
    # looked idle for its quiet spell and the URL was still /judge): wait for the switch itself.
    page.wait_for_url("**/kappa", timeout=60_000)
    walk.settle()
    assert page.url.endswith("/kappa") and walk.language() == "en"
    assert page.locator("h1").first.inner_text() == _text("kappa.title", "en")
    walk.check()
    context.close()




def test_a_slider_keeps_its_value_through_a_language_switch(logged_app, chromium):
    """Translated option names ("20,0" / "20.0"): the browser went back to the default (before: 1.5)."""
    context, page, walk = _open(logged_app, chromium, "gnss")
    slider = page.get_by_test_id("stSlider").first.locator('input[type="range"]')
    slider.focus()
    slider.press("End")
    slider.evaluate("e => e.blur()")
    walk.settle()
    assert slider.get_attribute("aria-valuetext") == "20,0"
    walk._language(None)
    walk.settle()
    page.get_by_test_id("stNumberInputStepUp").first.click()  # any other click sends the slider's value
    walk.settle()
    walk.check()
    assert page.get_by_test_id("stSlider").first.locator('input[type="range"]').get_attribute("aria-valuetext") == "20.0"
    context.close()

"""The live path end to end: the persona page in Chromium collects from the fake OpenAI-compatible server.

This is what a participant does: choose Live in the sidebar, give the base URL and key, pick a model
from the list the endpoint offers, press Collect. (AppTest cannot drive this flow on 1.67: a button
click on a page whose url_path matches its widget keys' prefix is dropped, so a real browser does it.)
"""

import os
import re

import pytest

from evallib import persona
from evallib.llm import Recordings
from evallib.llm.recordings import LOCAL_DIR_VARIABLE, SHIPPED_DIR
from evallib.packs.loader import builtin_packs
from evallib.persona.catalogue import build_requests, load_catalogue
from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import _wait_until_idle, choose_in_sidebar, choose_sidebar_model
from tests.texts import text

KEY = "sk-browser-live-4b2c"


@pytest.fixture(scope="module")
def fake():
    with FakeLLMServer(api_key=KEY, latency=0.3) as server:
        yield server


def _go_live(page, app_url, fake, model, mode="Live", pack=None):
    """Open the persona page in English, live on ``fake`` with ``model``; ``pack`` (an id) chosen first, in
    French, so that it stays when the language changes (else each language opens its own built-in pack)."""
    page.goto(f"{app_url}/persona")
    _wait_until_idle(page)
    if pack:
        choose_in_sidebar(page, text("packs.choose", "fr"), text("packs.builtin", "fr", id=pack))
    page.get_by_text("English", exact=True).click()
    _wait_until_idle(page)
    page.get_by_text(mode, exact=True).click()
    _wait_until_idle(page)
    for label, value in (("Base URL", fake.openai_base_url), ("API key", KEY)):
        box = page.get_by_role("textbox", name=label)
        box.fill(value)
        box.press("Enter")
        _wait_until_idle(page)
    choose_sidebar_model(page, model)


def _collect(page):
    page.get_by_role("button", name="Collect 36 missing answers").click()
    page.wait_for_selector("text=/36\\/36 answers/", timeout=60_000)
    _wait_until_idle(page)


def test_live_collection_sends_the_grid_concurrently_and_measures(app_url, fake, page):
    fake.reset()
    _go_live(page, app_url, fake, "fake-ok")
    _collect(page)
    bodies = [r["body"] for r in fake.requests if r["path"].endswith("/chat/completions")]
    assert len(bodies) == 36 and fake.in_flight_max > 1
    assert {(b["model"], b["temperature"], b["seed"], b["max_tokens"]) for b in bodies} == {("fake-ok", 0.3, 7, 350)}
    assert all(b["chat_template_kwargs"] == {"enable_thinking": False} for b in bodies)
    assert page.get_by_text("live 36").count() >= 1
    assert page.get_by_test_id("stMetric").count() >= 4
    assert page.locator('[data-testid="stException"]').count() == 0
    assert KEY not in page.locator("body").inner_text()  # the password field holds it, nothing shows it


def test_live_failures_are_listed_and_only_they_are_retried(app_url, fake, page):
    fake.reset()
    _go_live(page, app_url, fake, "fake-500")
    page.get_by_role("button", name="Collect 36 missing answers").click()
    page.wait_for_selector("text=/36 answers to look at/", timeout=120_000)
    _wait_until_idle(page)
    assert page.get_by_text("server error").count() >= 1
    sent = len(fake.requests)
    page.get_by_role("button", name="Retry 36 failed").click()
    page.wait_for_selector("text=/36 answers to look at/", timeout=120_000)
    _wait_until_idle(page)
    assert len(fake.requests) > sent
    assert page.locator('[data-testid="stException"]').count() == 0


def _metric(page, label):
    metric = page.get_by_test_id("stMetric").filter(has_text=label).first
    return metric.get_by_test_id("stMetricValue").inner_text()


def test_answers_recorded_live_are_replayed_offline_with_their_figures(app_url, fake, page):
    """Live + record, then Offline: the page offers that model's recording and shows its answers."""
    fake.reset()
    _go_live(page, app_url, fake, "fake-ok", mode="Live + record")
    _collect(page)
    local = os.environ[LOCAL_DIR_VARIABLE]  # a temporary folder (tests/conftest.py), never recordings/
    catalogue = load_catalogue(builtin_packs()["en"] / "personas.json")  # the English session's pack
    store = Recordings(SHIPPED_DIR, local)
    [source] = [s for s in store.sources(c.request for c in build_requests(catalogue, "x")) if s.model == "fake-ok"]
    assert (source.origin, source.provider, source.count) == ("live", "openai", 36)
    page.get_by_text("Offline (recordings)", exact=True).click()
    _wait_until_idle(page)
    page.get_by_test_id("stMain").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name=re.compile(f"^fake-ok · OpenAI-compatible · recorded live on {source.dates[0]}")
                     ).click()
    _wait_until_idle(page)
    cells = [source.apply(c.request) for c in build_requests(catalogue, "x")]
    texts = [store.get(r.key()).result.text for r in cells]
    assert all(t.startswith("answer to: ") for t in texts)
    body = page.locator("body").inner_text()
    assert texts[0] in body and f"recorded live on {source.dates[0]}" in body
    assert page.get_by_text(f"36/36 answers · source: recorded live on {source.dates[0]} 36").count() == 1
    expected = persona.discriminability(texts, [c.assistant for c in build_requests(catalogue, "x")],
                                        [c.probe_index for c in build_requests(catalogue, "x")],
                                        classes=catalogue.names)
    assert _metric(page, "Accuracy") == f"{expected.accuracy:.2f}"
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_click_during_a_collection_keeps_the_answers_already_arrived(app_url, fake, page):
    """The language switched mid-collection: the answers obtained stay, only the rest is offered.

    Streamlit starts the new run at once (runner.fastReruns); the interrupted run stops at its next
    progress update, unsent requests are cancelled, and those in flight end in the cache.
    """
    fake.reset()
    _go_live(page, app_url, fake, "fake-think", pack="en")  # the same grid in both languages
    fake.latency = 2.0  # 36 requests, 8 at a time: about 10 s
    try:
        page.get_by_role("button", name="Collect 36 missing answers").click()
        page.wait_for_selector("text=/(?:[89]|[12][0-9])\\/36 answers/", timeout=60_000)
        page.get_by_test_id("stSidebar").get_by_text("Français", exact=True).click()
        _wait_until_idle(page)
        button = page.get_by_role("button", name=re.compile(r"^Collecter \d+ réponses? manquantes?$"))
        missing = int(re.search(r"\d+", button.inner_text()).group())
        kept = 36 - missing
        assert 8 <= kept < 36
        assert page.get_by_text(re.compile(f"^{kept}/36 réponses")).count() == 1
        page.wait_for_timeout(8000)  # long enough for the whole grid, had it still been sent
        sent = len([r for r in fake.requests if r["path"].endswith("/chat/completions")])
        assert sent <= kept + 2 * 8 < 36, f"{sent} requests sent for {kept} kept"
        fake.latency = 0.0
        page.get_by_role("button", name=re.compile(r"^Collecter \d+ réponses? manquantes?$")).click()
        page.wait_for_selector("text=/36\\/36 réponses/", timeout=60_000)
        _wait_until_idle(page)
    finally:
        fake.latency = 0.3
    # Every request reached the server once: nothing already answered was asked again.
    assert len([r for r in fake.requests if r["path"].endswith("/chat/completions")]) == 36
    assert page.locator('[data-testid="stException"]').count() == 0

"""The live path end to end: the persona page in Chromium collects from the fake OpenAI-compatible server.

This is what a participant does: choose Live in the sidebar, give the base URL and key, pick a model
from the list the endpoint offers, press Collect. (AppTest cannot drive this flow on 1.67: a button
click on a page whose url_path matches its widget keys' prefix is dropped, so a real browser does it.)
"""

import pytest
from playwright.sync_api import sync_playwright

from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _serve_app, _wait_until_idle

KEY = "sk-browser-live-4b2c"


@pytest.fixture(scope="module")
def fake():
    with FakeLLMServer(api_key=KEY, latency=0.3) as server:
        yield server


@pytest.fixture(scope="module")
def app_url():
    yield from _serve_app()


@pytest.fixture
def page():
    """A new browser session (a new Streamlit session) in headless Chromium."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1400, "height": 1000})
        browser.close()


def _go_live(page, app_url, fake, model):
    page.goto(f"{app_url}/persona")
    _wait_until_idle(page)
    page.get_by_text("English", exact=True).click()
    _wait_until_idle(page)
    page.get_by_text("Live", exact=True).click()
    _wait_until_idle(page)
    for label, value in (("Base URL", fake.openai_base_url), ("API key", KEY)):
        box = page.get_by_role("textbox", name=label)
        box.fill(value)
        box.press("Enter")
        _wait_until_idle(page)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").last.click()
    page.get_by_role("option", name=model, exact=True).click()
    _wait_until_idle(page)


def _collect(page):
    page.get_by_role("button", name="Collect 36 missing answer(s)").click()
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
    page.get_by_role("button", name="Collect 36 missing answer(s)").click()
    page.wait_for_selector("text=/36 answer\\(s\\) to look at/", timeout=120_000)
    _wait_until_idle(page)
    assert page.get_by_text("server error").count() >= 1
    sent = len(fake.requests)
    page.get_by_role("button", name="Retry 36 failed").click()
    page.wait_for_selector("text=/36 answer\\(s\\) to look at/", timeout=120_000)
    _wait_until_idle(page)
    assert len(fake.requests) > sent
    assert page.locator('[data-testid="stException"]').count() == 0

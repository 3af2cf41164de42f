"""A wrong key and a rate limit as a participant meets them in Chromium (fake server answering as LiteLLM)."""

import re

import pytest

from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import _wait_until_idle, choose_in_sidebar, choose_sidebar_model
from tests.texts import text

KEY = "sk-browser-keys-7d1e"


@pytest.fixture(scope="module")
def proxy():
    with FakeLLMServer(api_key=KEY, proxy_errors=True) as server:
        yield server


def _go_live(page, app_url, base_url, key, pack=None):
    """Open the persona page in English, live on ``base_url``; ``pack`` (an id) chosen first, in French, so
    that it stays when the language changes (else each language opens its own built-in pack)."""
    page.goto(f"{app_url}/persona")
    _wait_until_idle(page)
    if pack:
        choose_in_sidebar(page, text("packs.choose", "fr"), text("packs.builtin", "fr", id=pack))
    page.get_by_text("English", exact=True).click()
    _wait_until_idle(page)
    page.get_by_text("Live", exact=True).click()
    _wait_until_idle(page)
    for label, value in (("Base URL", base_url), ("API key", key)):
        box = page.get_by_role("textbox", name=label)
        box.fill(value)
        box.press("Enter")
        _wait_until_idle(page)


def test_a_wrong_key_on_a_proxy_shows_its_message_the_causes_and_the_sidebar_check(app_url, proxy, page):
    proxy.reset()
    _go_live(page, app_url, proxy.openai_base_url, "sk-wrong-key", pack="en")  # the same grid in French
    sidebar = page.get_by_test_id("stSidebar")
    assert sidebar.get_by_text(re.compile(r'The server says: "No connected db\."')).count() == 1
    model = page.get_by_role("textbox", name="Model")
    model.fill("fake-ok")
    model.press("Enter")
    _wait_until_idle(page)
    page.get_by_role("button", name="Collect 36 missing answers").click()
    page.wait_for_selector("text=/36 answers to look at/", timeout=60_000)
    _wait_until_idle(page)
    main = page.get_by_test_id("stMain").inner_text()
    assert re.search(r'HTTP 400 from http://127\.0\.0\.1:\d+/v1: the server refused the request\. '
                     r'The server says: "No connected db\."', main)
    assert main.index("No connected db.") < main.index("Possible causes, most likely first")
    assert "key and model check failed too" in main and "refuses a parameter" in main
    assert "sk-wrong-key" not in page.locator("body").inner_text()
    page.get_by_text("Français", exact=True).click()  # the same failures, worded in French
    page.wait_for_selector("text=/36 réponses à examiner/", timeout=60_000)
    _wait_until_idle(page)
    french = page.locator("body").inner_text()
    assert re.search(r"Le serveur http://127\.0\.0\.1:\d+/v1 a refusé la requête \(HTTP 400\)\. "
                     r"Le serveur répond : « No connected db\. »", french)
    assert "HTTP 400 from" not in french and "server says" not in french.lower()
    assert "la liste des modèles n'a pas pu être lue (requête refusée)" in french


def test_the_model_is_chosen_by_the_user_and_a_long_retry_wait_is_shown(app_url, page):
    with FakeLLMServer(api_key=KEY, retry_after=6) as server:
        _go_live(page, app_url, server.openai_base_url, KEY)
        assert page.get_by_text("Choose a model in the sidebar to collect live.").count() == 1
        assert page.get_by_role("button", name=re.compile("Collect")).count() == 0
        choose_sidebar_model(page, "fake-429-once")
        page.get_by_role("button", name="Collect 36 missing answers").click()
        waiting = page.wait_for_selector("text=/a retry is waiting \\d+ s more/", timeout=30_000)
        assert re.search(r"0/36 answers · [\d.]+ s · errors: 0 · retries: \d+", waiting.inner_text())
        page.wait_for_selector("text=/36\\/36 answers/", timeout=60_000)
        _wait_until_idle(page)
        assert server.stats[429] == 36

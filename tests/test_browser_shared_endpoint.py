"""Two participants in Chromium collect from one model server through the app's endpoint scheduler.

The app server is started with EVALLIB_ENDPOINT_CONCURRENCY=3: whatever each session's own
concurrency (8), the fake server never sees more than 3 requests at once, the participant who clicked
second is told that its requests wait behind the other's, and identical requests are sent once.
"""

import os
import re

import pytest
from playwright.sync_api import sync_playwright

from evallib.llm.scheduler import LIMIT_VARIABLE
from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, _serve_app, _wait_until_idle
from tests.test_browser_live import KEY, _go_live

LIMIT = 3


@pytest.fixture(scope="module")
def app_url():
    previous = os.environ.get(LIMIT_VARIABLE)
    os.environ[LIMIT_VARIABLE] = str(LIMIT)  # inherited by the app server started below
    try:
        yield from _serve_app()
    finally:
        if previous is None:
            os.environ.pop(LIMIT_VARIABLE, None)
        else:
            os.environ[LIMIT_VARIABLE] = previous


@pytest.fixture(scope="module")
def fake():
    with FakeLLMServer(api_key=KEY, latency=0.4) as server:
        yield server


@pytest.fixture
def two_pages():
    """Two browser sessions (two Streamlit sessions) in headless Chromium."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield [browser.new_context(viewport={"width": 1400, "height": 1000}).new_page() for _ in range(2)]
        browser.close()


def test_two_participants_share_the_endpoint_limit_and_the_second_is_told_it_waits(app_url, fake, two_pages):
    first, second = two_pages
    _go_live(first, app_url, fake, "fake-ok")
    _go_live(second, app_url, fake, "fake-think")  # other requests: nothing shared between the two
    fake.reset()
    first.get_by_role("button", name="Collect 36 missing answers").click()
    first.wait_for_selector("text=/[0-9]+\\/36 answers/", timeout=60_000)
    second.get_by_role("button", name="Collect 36 missing answers").click()
    second.wait_for_selector("text=/requests? waiting (its|their) turn: the model server is answering other "
                             "participants first/", timeout=60_000)
    for page in two_pages:
        page.wait_for_selector("text=/36\\/36 answers/", timeout=120_000)
        _wait_until_idle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
    assert len([r for r in fake.requests if r["path"].endswith("/chat/completions")]) == 72
    assert fake.in_flight_max == LIMIT  # each session alone would have sent 8 at once


def test_identical_requests_of_two_participants_with_the_same_key_are_sent_once(app_url, fake, two_pages):
    for page in two_pages:
        _go_live(page, app_url, fake, "fake-tools")
    fake.reset()
    for page in two_pages:
        page.get_by_role("button", name="Collect 36 missing answers").click()
    for page in two_pages:
        page.wait_for_selector("text=/36\\/36 answers/", timeout=120_000)
        _wait_until_idle(page)
        assert page.get_by_text(re.compile(r"^36/36 answers")).count() == 1
    assert len([r for r in fake.requests if r["path"].endswith("/chat/completions")]) == 36
    assert fake.in_flight_max <= LIMIT

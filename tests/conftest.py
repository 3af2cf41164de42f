"""Tests never write into the repository's recordings: new recordings go to a temporary folder.

The variable is set before any test runs, so the app servers that browser tests start inherit it.
Browser tests of the live path share an app server per module (`app_url`) and a fresh browser
session per test (`page`); random walks read their server's log as it comes (`logged_app`) and
open their sessions in one browser (`chromium`). Command-line tests of the live path share a fake
endpoint (`server`, answering to `FAKE_KEY`) and take the key from the environment as a user would
(`live_env`).
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from evallib.llm.recordings import LOCAL_DIR_VARIABLE
from tests.fake_llm_server import FakeLLMServer

FAKE_KEY = "sk-fake-endpoint-tests"
#: The instructor token of the app servers that tests start (unless a test sets its own): random walks type it.
WALK_INSTRUCTOR_TOKEN = "walk-instructor-token"


def pytest_configure(config):
    config._local_recordings = tempfile.mkdtemp(prefix="evallib-test-recordings-")
    os.environ[LOCAL_DIR_VARIABLE] = config._local_recordings
    # Rooms opened by the app servers of browser tests (random walks included) go to a throwaway database.
    config._rooms = tempfile.mkdtemp(prefix="evallib-test-rooms-")
    os.environ.setdefault("EVALLIB_DATABASE_URL", f"sqlite:///{config._rooms}/rooms.sqlite3")
    os.environ.setdefault("EVALLIB_ROOM_INSTRUCTOR_TOKEN", WALK_INSTRUCTOR_TOKEN)


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "_local_recordings", ""), ignore_errors=True)
    shutil.rmtree(getattr(config, "_rooms", ""), ignore_errors=True)


@pytest.fixture(scope="module")
def app_url():
    """`streamlit run serve.py` on a free port for this test module; its URL."""
    from tests.test_browser import _serve_app
    yield from _serve_app()


@pytest.fixture
def page():
    """A new browser session (a new Streamlit session) in headless Chromium."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser import CHROMIUM, CHROMIUM_ARGS
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1400, "height": 1000})
        browser.close()


@pytest.fixture(scope="module")
def server():
    """A fake OpenAI/Anthropic endpoint for this test module, requiring `FAKE_KEY`."""
    with FakeLLMServer(api_key=FAKE_KEY) as running:
        yield running


@pytest.fixture
def live_env(monkeypatch):
    """`FAKE_KEY` in OPENAI_API_KEY and ANTHROPIC_API_KEY, where the command line reads keys."""
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)


@pytest.fixture(scope="module")
def logged_app():
    """`streamlit run app.py` for this test module, with the file its output goes to as it comes: (url, log path)."""
    from tests.test_browser import _serve_app
    with tempfile.NamedTemporaryFile("w+", prefix="app-", suffix=".log") as log:
        for url in _serve_app(log):
            yield url, Path(log.name)


@pytest.fixture(scope="module")
def chromium():
    """Headless Chromium for this test module; each test opens its own context (a Streamlit session)."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser import CHROMIUM, CHROMIUM_ARGS
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """The module's Chromium (`chromium`) under the name most browser tests use."""
    return chromium


# ---------------------------------------------------------------- PostgreSQL for the room's tests

@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL cluster for the test session (`tests.postgres_cluster.temporary_cluster`); its
    URL without a database name. Skipped, saying why, where no cluster can be started here."""
    from tests.postgres_cluster import (
        ClusterFailed,
        ClusterUnavailable,
        temporary_cluster,
    )

    try:
        with temporary_cluster() as url:
            yield url
    except ClusterUnavailable as why:
        pytest.skip(f"PostgreSQL not tested: {why}")
    except ClusterFailed as error:
        pytest.fail(str(error))

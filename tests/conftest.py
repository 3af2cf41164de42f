"""Tests never write into the repository's recordings: new recordings go to a temporary folder.

The variable is set before any test runs, so the app servers that browser tests start inherit it.
Browser tests of the live path share an app server per module (`app_url`) and a fresh browser
session per test (`page`); random walks read their server's log as it comes (`logged_app`) and
open their sessions in one browser (`chromium`). Command-line tests of the live path share a fake
endpoint (`server`, answering to `FAKE_KEY`) and take the key from the environment as a user would
(`live_env`).
"""

import glob
import itertools
import os
import shutil
import subprocess
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


# ---------------------------------------------------------------- PostgreSQL for the room's tests

_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL cluster for the test session (the room's tests, unit and browser): initdb + pg_ctl
    on a temporary data directory, a free loopback port, the socket in that directory; as root, run as the
    ``postgres`` user through runuser; stopped at the end. Yields its URL without a database name."""
    from tests.test_browser import _free_port

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("PostgreSQL not tested: Debian's postgresql binaries (/usr/lib/postgresql/*/bin) are "
                    "absent; `make test` installs them when run as root")
    bindir = os.path.dirname(found[-1])
    as_user = []
    datadir = tempfile.mkdtemp(prefix="evallib-pg-")
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("PostgreSQL not tested: running as root without runuser to drop to the postgres user")
        shutil.chown(datadir, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    pg_ctl = [*as_user, f"{bindir}/pg_ctl", "-D", datadir]
    try:
        subprocess.run([*as_user, f"{bindir}/initdb", "-D", datadir, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                        "--no-sync"], check=True, capture_output=True, timeout=120)
        subprocess.run([*pg_ctl, "-l", f"{datadir}/server.log", "-w", "-t", "60",
                        "-o", f"-p {port} -k {datadir} -h 127.0.0.1 -F", "start"],
                       check=True, capture_output=True, timeout=120)
    except (subprocess.SubprocessError, OSError) as error:
        shutil.rmtree(datadir, ignore_errors=True)
        pytest.fail(f"the temporary PostgreSQL cluster did not start: {error}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(datadir, ignore_errors=True)


def new_postgres_database(server: str) -> str:
    """A new, empty database on the cluster of `postgres_server` (its URL as that fixture gives it); its URL."""
    from sqlalchemy import create_engine, text

    name = f"room_test_{next(_databases)}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"{server}/{name}"

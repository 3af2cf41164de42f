"""Real-browser smoke test: `streamlit run app.py` in headless Chromium, every page, both languages.

Fails on any exception box shown on a page. Needs Debian's chromium (`make test` installs it when
missing and run as root; see the Makefile) and Playwright's Python package (dev requirements).
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = ("home", "persona", "kappa", "trigger", "judge", "gnss")
SCREENSHOTS = ROOT / "screenshots" / "tmp"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url():
    yield from _serve_app()


def _serve_app(log=None):
    """Start `streamlit run app.py` on a free port; yield its URL; stop it and check its log.

    ``log``: an open file that receives the server's output as it comes (so a test can read it
    after each step); by default the output is read when the server stops.
    """
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=log or subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("streamlit did not start")
        yield url
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
        if log:
            output = Path(log.name).read_text()
    assert "Traceback" not in output, output[-3000:]
    assert "missing ScriptRunContext" not in output, "a worker thread called Streamlit"


IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
#: Signs of a run in progress: skeletons, and elements made inert (collapsed expanders are inert too).
BUSY = '[data-testid="stSkeleton"], [inert]:not([data-testid="stExpanderDetails"])'


def _wait_until_idle(page, settle_s: float = 1.0) -> None:
    """Wait until a run has finished and none starts for ``settle_s``: a title is drawn, no skeleton.

    A click starts its run a moment later, so "not running" right after a click proves nothing;
    the state must hold for a while. While a run is on, Streamlit makes the old elements inert.
    """
    page.wait_for_selector("h1", timeout=60_000)
    quiet_since = None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        idle = page.locator(IDLE).count() == 1 and page.locator(BUSY).count() == 0
        now = time.monotonic()
        quiet_since = (quiet_since or now) if idle else None
        if quiet_since is not None and now - quiet_since >= settle_s:
            return
        page.wait_for_timeout(150)
    page.screenshot(path="/tmp/not_idle.png")
    state = page.locator('[data-testid="stApp"]').get_attribute("data-test-script-state")
    inert = page.evaluate("Array.from(document.querySelectorAll('[inert]')).map(e => e.outerHTML.slice(0, 120))")
    raise TimeoutError(f"the app did not become idle within 90 s (script state {state}, inert: {inert})")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_page_renders_without_exception(app_url, lang):
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium (make test does it as root)"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{app_url}/")
        _wait_until_idle(page)
        if lang == "en":
            page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
            _wait_until_idle(page)
        for name in PAGES:
            # Navigating by the sidebar's links keeps this browser session (and its language).
            suffix = "/" if name == "home" else f"/{name}"  # the default page lives at the root
            page.locator(f'[data-testid="stSidebarNav"] a[href$="{suffix}"]').first.click()
            _wait_until_idle(page)
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{lang}.png"), full_page=True)
            assert page.locator('[data-testid="stException"]').count() == 0, f"exception on {name} ({lang})"
            assert page.locator("h1").count() >= 1, f"no title on {name} ({lang})"
        browser.close()

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
PAGES = ("home", "persona", "kappa")
SCREENSHOTS = ROOT / "screenshots" / "tmp"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url():
    yield from _serve_app()


def _serve_app():
    """Start `streamlit run app.py` on a free port; yield its URL; stop it and check its log."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
    assert "Traceback" not in output, output[-3000:]
    assert "missing ScriptRunContext" not in output, "a worker thread called Streamlit"


def _wait_until_idle(page) -> None:
    """Wait for a run to finish: a title is drawn, the script is idle and no skeleton is left."""
    page.wait_for_selector("h1", timeout=60_000)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=60_000)
    page.wait_for_function("!document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=60_000)
    page.wait_for_timeout(500)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_page_renders_without_exception(app_url, lang):
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium (make test does it as root)"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{app_url}/home")
        _wait_until_idle(page)
        if lang == "en":
            page.get_by_text("English", exact=True).click()
            _wait_until_idle(page)
        for name in PAGES:
            # Navigating by the sidebar's links keeps this browser session (and its language).
            page.locator(f'[data-testid="stSidebarNav"] a[href$="/{name}"]').first.click()
            _wait_until_idle(page)
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{lang}.png"), full_page=True)
            assert page.locator('[data-testid="stException"]').count() == 0, f"exception on {name} ({lang})"
            assert page.locator("h1").count() >= 1, f"no title on {name} ({lang})"
        browser.close()

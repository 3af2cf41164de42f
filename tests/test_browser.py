"""Real-browser smoke test: `streamlit run serve.py` (app.py) in headless Chromium, every page, both languages.

Fails on any exception box shown on a page. Needs Debian's chromium (`make test` installs it when
missing and run as root; see the Makefile) and Playwright's Python package (dev requirements).
"""

import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from tests.texts import text

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = ("home", "persona", "kappa", "trigger", "judge", "gnss", "room")
SCREENSHOTS = ROOT / "screenshots" / "tmp"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url():
    yield from _serve_app()


def wait_for_health(url: str) -> None:
    """Wait (up to about a minute) until the Streamlit server at ``url`` answers its health check."""
    for _ in range(120):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("streamlit did not start")


def _serve_app(log=None):
    """Start `streamlit run serve.py` (which serves app.py) on a free port; yield its URL; stop it and check its log.

    ``log``: an open file that receives the server's output as it comes (so a test can read it
    after each step); by default the output is read when the server stops.
    """
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=log or subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(url)
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


def choose_in_sidebar(page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar's select labelled ``label`` and wait for the run.

    The select is found by its label: the sidebar holds several (pack, provider, model). A select below
    the fold of the sidebar closes a list opened while the sidebar scrolls to it: scroll first.
    """
    select = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(
        has=page.get_by_text(label, exact=True))
    select.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    select.locator('[aria-haspopup="listbox"]').click()
    page.get_by_role("option", name=option, exact=True).click()
    _wait_until_idle(page)


def choose_sidebar_model(page, model: str) -> None:
    """Pick ``model`` in the model list of an English sidebar."""
    choose_in_sidebar(page, text("sidebar.model", "en"), model)


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


def _app_requests(page, app_url: str) -> tuple[list[str], list[str]]:
    """Record what ``page`` asks from then on: (URLs outside the app's server, app URLs answered >= 400)."""
    app = urllib.parse.urlsplit(app_url)
    outside, failed = [], []

    def on_request(request):
        parts = urllib.parse.urlsplit(request.url)
        if parts.scheme not in ("data", "blob") and (parts.scheme, parts.netloc) != (app.scheme, app.netloc):
            outside.append(request.url)

    def on_response(response):
        if response.status >= 400 and response.url.startswith(app_url):
            failed.append(f"{response.status} {response.url}")

    page.on("request", on_request)
    page.on("response", on_response)
    return outside, failed


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_offline_pages_ask_nothing_outside_the_app(app_url, page, lang):
    """Each page URL, opened directly, asks only the app's own server, and gets no 404 from it."""
    outside, failed = _app_requests(page, app_url)
    for name in PAGES:
        page.goto(f"{app_url}/" if name == "home" else f"{app_url}/{name}")
        _wait_until_idle(page)
        if lang == "en":
            page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
            _wait_until_idle(page)
        assert page.locator('[data-testid="stException"]').count() == 0, f"exception on {name} ({lang})"
    assert outside == [], f"requests outside the app's server: {outside}"
    assert failed == [], f"the app answered these with an error: {failed}"


def _download(page, key: str) -> bytes:
    """Click the download button of ``key`` and return the file the browser receives."""
    button = page.locator(f".st-key-{key} button").first  # Streamlit 1.67 puts two copies of the button in the DOM
    if not button.is_visible():  # in a collapsed expander
        page.locator(f'[data-testid="stExpander"]:has(.st-key-{key}) summary').first.click()
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=30_000) as info:
        button.click()
    return Path(info.value.path()).read_bytes()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_results_table_downloads_as_csv_and_json_in_chromium(app_url, page, lang):
    """The trigger page's metrics: the same machine-readable file from a French and an English session."""
    import csv
    import io
    import json

    page.goto(f"{app_url}/trigger")
    _wait_until_idle(page)
    if lang == "en":
        page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
        _wait_until_idle(page)
    data = _download(page, "download_trigger_metrics_csv")
    assert data.startswith(b"\xef\xbb\xbf"), "a UTF-8 byte-order mark"
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [row["set"] for row in rows] == ["all"]
    for row in rows:
        k, n = int(row["accuracy.k"]), int(row["accuracy.n"])
        assert float(row["accuracy.value"]) == k / n  # a decimal point, full precision
    records = json.loads(_download(page, "download_trigger_metrics_json"))
    assert [r["accuracy"]["k"] for r in records] == [int(row["accuracy.k"]) for row in rows]


def test_every_download_of_every_page_is_a_readable_file(app_url, page):
    """Each CSV starts with a byte-order mark and has as many rows as its JSON twin has records."""
    import csv
    import io
    import json

    for name in PAGES[1:]:
        if name == "room":  # its tables need a room with attempts: tests/test_browser_room_flow.py downloads them
            continue
        page.goto(f"{app_url}/{name}")
        _wait_until_idle(page)
        keys = page.evaluate("Array.from(document.querySelectorAll('[class*=\"st-key-download_\"][class*=\"_csv\"]'))"
                             ".map(e => Array.from(e.classList).find(c => c.startsWith('st-key-')).slice(7))")
        assert keys, f"no download on {name}"
        for key in keys:
            data = _download(page, key)
            assert data.startswith(b"\xef\xbb\xbf"), key
            rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
            records = json.loads(_download(page, key.removesuffix("_csv") + "_json"))
            assert len(rows) == len(records) > 0, key
        assert page.locator('[data-testid="stException"]').count() == 0, name

"""A room on one server: server CPU per visit and time to a rendered page, 1 and 10 browser sessions.

Run: ``.venv/bin/python bench/sessions.py`` (or ``make bench``). Starts the app as ``make run`` does
(``streamlit run app.py``, so the room settings of ``.streamlit/config.toml`` apply) on a free port,
then opens every page that ``app.py`` lists from headless Chromium sessions (a new browser context is
a new Streamlit session), in one run:

- the first visit of each page on the fresh server (the first visitor pays the imports);
- warm visits, one session at a time (N = 1), then ten simultaneous sessions (N = 10);
- warm reruns (the browser's "r" shortcut, the same rerun as a widget click) of each page;
- the warm AppTest rerun of ``bench/persona.py``, persona page beside the home page.

Streamlit flags after ``--`` are added to the server's command, to compare with other settings:
``bench/sessions.py -- --server.fileWatcherType auto --runner.postScriptGC true`` serves as
Streamlit's defaults do (and ``make dev``).

Server CPU is the server process's user + system time from ``/proc/<pid>/stat``; a visit ends when
the app is drawn (``data-test-script-state="notRunning"``, no skeleton, no inert element) and stays
so for ``SETTLE_S``. Chromium shares the machine's cores with the server, so times at N = 10 include
the browsers' own rendering. Targets (docs/README.md#performance): a persona visit at most 0.4 s of server
CPU; the server CPU of ten simultaneous visits at most 10x one; a warm persona rerun at most 10x
an empty page (the home page: shell and sidebar, no analysis).
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import NamedTuple

from playwright.async_api import Browser, Page, async_playwright
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As tests/test_browser.py: no sandbox as root, and no network chatter (the machine may be offline).
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
BUSY = '[data-testid="stSkeleton"], [inert]:not([data-testid="stExpanderDetails"])'
SETTLE_S = 0.5  # a page counts as drawn once idle for this long (a rerun starts a moment after a click)
POLL_S = 0.05
PAGE_TIMEOUT_S = 600.0  # ten sessions on two loaded cores took up to 4 minutes before the fixes
SERVER_QUIET_S = 0.5  # after a batch, the server finishes its post-run work before CPU is read
CROWD = 10
WARM_VISITS = 3  # sequential warm visits per page at N = 1
RERUNS = 5

PERSONA_VISIT_CPU_TARGET_S = 0.4
CROWD_CPU_RATIO_TARGET = 1.0  # CPU per visit at N = 10 over N = 1: ten visits at most 10x one
RERUN_RATIO_TARGET = 10.0
PERSONA, BASELINE = "persona", "home"


class Batch(NamedTuple):
    """One measured batch: server CPU seconds per visit and each visit's seconds to a drawn page."""

    cpu_per_visit: float
    times: list[float]


def app_pages() -> list[tuple[str, str]]:
    """(name, URL path) of every ``st.Page`` in ``app.py``; the default page is served at the root."""
    pages = []
    for node in ast.walk(ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "Page":
            options = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
            name = options["url_path"]
            pages.append((name, "/" if options.get("default") else f"/{name}"))
    return pages


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (fields 14 and 15 of /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, flags: list[str]) -> subprocess.Popen:
    """``make run``'s command on ``port`` (its settings come from .streamlit/config.toml), then ``flags``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", *flags],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(240):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as answer:
                if answer.status == 200:
                    return process
        except OSError:
            time.sleep(0.25)
    process.terminate()
    raise RuntimeError("streamlit did not start within 60 s")


def room_settings() -> str:
    """The file-watcher and garbage-collection settings the server runs with (read as Streamlit does)."""
    from streamlit import config

    os.chdir(ROOT)
    config.get_config_options(force_reparse=True)
    return ", ".join(f"{name} = {config.get_option(name)!r}"
                     for name in ("server.fileWatcherType", "runner.postScriptGC", "server.runOnSave"))


async def wait_drawn(page: Page, start: float) -> float:
    """Seconds from ``start`` until the app is drawn and stays idle for SETTLE_S."""
    quiet_since = None
    deadline = start + PAGE_TIMEOUT_S
    while time.perf_counter() < deadline:
        idle = await page.locator(IDLE).count() == 1 and await page.locator(BUSY).count() == 0
        drawn = idle and await page.locator("h1").count() > 0
        now = time.perf_counter()
        quiet_since = (quiet_since or now) if drawn else None
        if quiet_since is not None and now - quiet_since >= SETTLE_S:
            if await page.locator('[data-testid="stException"]').count():
                raise RuntimeError(f"an exception is shown on {page.url}")
            return quiet_since - start
        await asyncio.sleep(POLL_S)
    raise TimeoutError(f"{page.url} was not drawn within {PAGE_TIMEOUT_S:.0f} s")


async def visit(browser: Browser, url: str) -> float:
    """Open ``url`` in a new session; seconds to a drawn page."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        start = time.perf_counter()
        await page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT_S * 1000)
        return await wait_drawn(page, start)
    finally:
        await context.close()


async def measured(pid: int, runs: int, work: Callable[[], Awaitable[list[float]]]) -> Batch:
    """Run ``work`` (``runs`` visits or reruns); server CPU per run, including its post-run work."""
    before = server_cpu_s(pid)
    times = await work()
    await asyncio.sleep(SERVER_QUIET_S)
    return Batch((server_cpu_s(pid) - before) / runs, times)


async def sequential_visits(browser: Browser, url: str, n: int) -> list[float]:
    return [await visit(browser, url) for _ in range(n)]


async def simultaneous_visits(browser: Browser, url: str, n: int) -> list[float]:
    return list(await asyncio.gather(*(visit(browser, url) for _ in range(n))))


async def reruns(browser: Browser, url: str, n: int, pid: int) -> Batch:
    """``n`` reruns of one warm session (the "r" shortcut), each awaited until its run has finished.

    A fast run can go from "running" to "notRunning" between two frames of the page, so the end of
    a run is read from the server's own message (ForwardMsg ``script_finished``) on the websocket.
    """
    finished = asyncio.Event()

    def on_frame(payload: bytes | str) -> None:
        if isinstance(payload, bytes):
            message = ForwardMsg.FromString(payload)
            if (message.WhichOneof("type") == "script_finished"
                    and message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY):
                finished.set()

    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    page.on("websocket", lambda socket: socket.on("framereceived", on_frame))
    await page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT_S * 1000)
    await wait_drawn(page, time.perf_counter())

    async def work() -> list[float]:
        times = []
        for _ in range(n):
            finished.clear()
            start = time.perf_counter()
            await page.keyboard.press("r")
            await asyncio.wait_for(finished.wait(), PAGE_TIMEOUT_S)
            times.append(time.perf_counter() - start)
            await wait_drawn(page, start)
        return times

    try:
        return await measured(pid, n, work)
    finally:
        await context.close()


def quantile(times: list[float], q: float) -> float:
    """The q-quantile of ``times`` (inclusive method: p50 of one value is that value)."""
    if len(times) == 1:
        return times[0]
    return statistics.quantiles(times, n=100, method="inclusive")[round(q * 100) - 1]


def apptest_rerun_ratio() -> tuple[float, float]:
    """Warm AppTest reruns from bench/persona.py: (home seconds, persona seconds)."""
    spec = importlib.util.spec_from_file_location("bench_persona", ROOT / "bench" / "persona.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    home, persona = module.measure_page_rerun()
    return home.seconds, persona.seconds


async def run(crowd: int, with_apptest: bool, flags: list[str]) -> bool:
    pages = app_pages()
    port = free_port()
    print(f"settings: {room_settings()}{' (then ' + ' '.join(flags) + ')' if flags else ''}")
    print(f"pages: {', '.join(name for name, _ in pages)}; crowd N = {crowd}; {os.cpu_count()} cores\n")
    server = start_server(port, flags)
    base = f"http://127.0.0.1:{port}"
    rows: dict[str, dict[str, Batch]] = {}
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, path in pages:
                rows[name] = {"first": await measured(server.pid, 1,
                                                      lambda: sequential_visits(browser, base + path, 1))}
            # A room always has someone connected (the projector): when the last session leaves,
            # Streamlit empties its cache of compiled pages, which a room never sees.
            anchor = await browser.new_context()
            await (await anchor.new_page()).goto(base, wait_until="commit", timeout=PAGE_TIMEOUT_S * 1000)
            for name, path in pages:
                rows[name]["1"] = await measured(
                    server.pid, WARM_VISITS, lambda: sequential_visits(browser, base + path, WARM_VISITS))
                rows[name]["N"] = await measured(
                    server.pid, crowd, lambda: simultaneous_visits(browser, base + path, crowd))
                rows[name]["rerun"] = await reruns(browser, base + path, RERUNS, server.pid)
            await browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return report(rows, crowd, apptest_rerun_ratio() if with_apptest else None)


def report(rows: dict[str, dict[str, Batch]], crowd: int, apptest: tuple[float, float] | None) -> bool:
    """Print the table and the targets; True when every target is met."""
    print(f"{'page':<9} {'first visit':>11} {'visit N=1':>9} {f'N={crowd}':>9} {'ratio':>6}  "
          f"{'p50/p95 s N=1':>14} {f'p50/p95 s N={crowd}':>15} {'p50 ratio':>9}  {'rerun':>6} {'rerun s':>7}")
    print(f"{'':<9} {'CPU s':>11} {'CPU s':>9} {'CPU s':>9}")
    for name, batch in rows.items():
        one, many, rerun = batch["1"], batch["N"], batch["rerun"]
        print(f"{name:<9} {batch['first'].cpu_per_visit:>11.2f} {one.cpu_per_visit:>9.3f} "
              f"{many.cpu_per_visit:>9.3f} {many.cpu_per_visit / one.cpu_per_visit:>6.2f}  "
              f"{quantile(one.times, .5):>6.2f}/{quantile(one.times, .95):<7.2f} "
              f"{quantile(many.times, .5):>7.2f}/{quantile(many.times, .95):<7.2f} "
              f"{quantile(many.times, .5) / quantile(one.times, .5):>9.1f}  "
              f"{rerun.cpu_per_visit:>6.3f} {quantile(rerun.times, .5):>7.2f}")
    persona = rows[PERSONA]
    visit_cpu = persona["1"].cpu_per_visit
    crowd_ratio = persona["N"].cpu_per_visit / visit_cpu
    rerun_ratio = persona["rerun"].cpu_per_visit / rows[BASELINE]["rerun"].cpu_per_visit
    checks = [
        (f"persona visit: {visit_cpu:.2f} s of server CPU (first visit {persona['first'].cpu_per_visit:.2f} s)",
         f"<= {PERSONA_VISIT_CPU_TARGET_S} s", visit_cpu <= PERSONA_VISIT_CPU_TARGET_S),
        (f"{crowd} simultaneous persona visits: {crowd_ratio * crowd:.2f}x the CPU of one",
         f"<= {crowd * CROWD_CPU_RATIO_TARGET:.0f}x", crowd_ratio <= CROWD_CPU_RATIO_TARGET),
        (f"warm persona rerun in the browser: {rerun_ratio:.1f}x the server CPU of a {BASELINE} rerun",
         f"<= {RERUN_RATIO_TARGET:.0f}x", rerun_ratio <= RERUN_RATIO_TARGET),
    ]
    if apptest is not None:
        home_s, persona_s = apptest
        checks.append((f"warm persona rerun under AppTest: {persona_s / home_s:.1f}x a {BASELINE} rerun "
                       f"({persona_s:.3f} s vs {home_s:.3f} s)",
                       f"<= {RERUN_RATIO_TARGET:.0f}x", persona_s / home_s <= RERUN_RATIO_TARGET))
    print("\ntargets:")
    for text, target, met in checks:
        print(f"  {text:<88} target {target:<8} {'met' if met else 'NOT met'}")
    return all(met for *_, met in checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crowd", type=int, default=CROWD, help="simultaneous sessions (default 10)")
    parser.add_argument("--no-apptest", action="store_true", help="skip bench/persona.py's AppTest reruns")
    parser.add_argument("flags", nargs="*", help="streamlit flags after --, e.g. -- --runner.postScriptGC true")
    arguments = parser.parse_args()
    return 0 if asyncio.run(run(arguments.crowd, not arguments.no_apptest, arguments.flags)) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Uploads of any size, through a real browser: the kappa page with a large ratings CSV, the GNSS page
with a 5 MB daily series. The page rows of docs/README.md#performance, 3 runs each (min / median / max).

Run: ``.venv/bin/python bench/pages.py`` (or ``make bench``). Starts the app as ``make run`` does on a
free port (helpers of ``bench/sessions.py``), drives headless Chromium (/usr/bin/chromium) with
Playwright and times, in seconds of wall clock as a participant waits:

1. kappa page, first render with a 1,000,000-item CSV (3 raters, pass/fail): from handing the file to
   the upload widget until the page is drawn (script state ``notRunning``, settled). Each run uploads a
   different file of the same size, so no cache holds it (target <= 5 s).
2. kappa page, warm rerun (the browser's "r" shortcut, the same rerun as a widget click) with 10,000,
   100,000 and 1,000,000 items uploaded, against a home page rerun in the same run: until the server's
   ``script_finished`` message (target: at most 3x a home rerun at 1M items, and flat in the size:
   1M at most 1.5x the 10,000-item rerun). Server CPU per rerun is printed beside.
3. GNSS page, a 5 MB daily CSV (``date,disp_mm``, 240,000 days) until drawn; each run a different file
   (target <= 3 s). The page shows a progress bar meanwhile.

Exit 0 when every median meets its target.
"""

from __future__ import annotations

import asyncio
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from playwright.async_api import Browser, Page, async_playwright
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessions import CHROMIUM, CHROMIUM_ARGS, PAGE_TIMEOUT_S, free_port, server_cpu_s, start_server, wait_drawn  # noqa: E402

RUNS = 3
RERUNS = 3
KAPPA_ITEMS = 1_000_000
RERUN_SIZES = (10_000, 100_000, 1_000_000)
GNSS_DAYS = 240_000
FIRST_RENDER_TARGET_S = 5.0
RERUN_RATIO_TARGET = 3.0
FLAT_TARGET = 1.5
GNSS_TARGET_S = 3.0
RERUN_TIMEOUT_S = 120.0
#: Elements that only a read file produces: the multi-rater level radio, the station figure.
KAPPA_RESULTS = "[class*=\"st-key-_kappa_level_\"]"  # translated_radio keys the widget per language
GNSS_RESULTS = ".st-key-gnss_station_figure"


def ratings_csv(n_items: int, seed: int) -> bytes:
    """Three raters, pass/fail, about 80 % agreement with a hidden truth; a header row."""
    rng = np.random.default_rng(seed)
    truth = rng.random(n_items) < 0.7
    names = np.array(["fail", "pass"])
    columns = [names[np.where(rng.random(n_items) < 0.8, truth, rng.random(n_items) < 0.5).astype(int)]
               for _ in range(3)]
    body = np.char.add(np.char.add(np.char.add(columns[0], ","), np.char.add(columns[1], ",")), columns[2])
    return ("judge_1,judge_2,judge_3\n" + "\n".join(body.tolist()) + "\n").encode()


def daily_csv(n_days: int, seed: int) -> bytes:
    """``date,disp_mm``: a trend, an annual wave, noise and one 8 mm step, one row per day."""
    rng = np.random.default_rng(seed)
    start = datetime.date(1400, 1, 1).toordinal()
    days = [datetime.date.fromordinal(start + i).isoformat() for i in range(n_days)]
    t = np.arange(n_days) / 365.25
    values = 0.003 * np.arange(n_days) + 3 * np.sin(2 * np.pi * t) + rng.normal(0, 1.5, n_days)
    values[n_days // 2:] += 8.0
    return ("date,disp_mm\n" + "\n".join(f"{d},{v:.4f}" for d, v in zip(days, values)) + "\n").encode()


class Session:
    """One browser session on one page, which can rerun and tell when the server finished the run."""

    def __init__(self, browser: Browser, url: str):
        self.browser, self.url = browser, url
        self.finished = asyncio.Event()

    async def __aenter__(self) -> Session:
        self.context = await self.browser.new_context(viewport={"width": 1280, "height": 900})
        self.page: Page = await self.context.new_page()
        self.page.on("websocket", lambda socket: socket.on("framereceived", self._on_frame))
        await self.page.goto(self.url, wait_until="commit", timeout=PAGE_TIMEOUT_S * 1000)
        await wait_drawn(self.page, time.perf_counter())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.context.close()

    def _on_frame(self, payload: bytes | str) -> None:
        if isinstance(payload, bytes):
            message = ForwardMsg.FromString(payload)
            if message.WhichOneof("type") == "script_finished":
                self.finished.set()

    async def upload(self, path: Path, shown: str) -> float:
        """Seconds from handing ``path`` to the page's upload widget until the page is drawn with the
        element ``shown`` (a CSS selector that only the file's results produce) on it."""
        start = time.perf_counter()
        await self.page.locator('input[type="file"]').first.set_input_files(str(path))
        await self.page.locator(shown).first.wait_for(state="attached", timeout=PAGE_TIMEOUT_S * 1000)
        return await wait_drawn(self.page, start)

    async def rerun(self) -> float:
        """Seconds of one rerun ("r" shortcut) until the server's script_finished message."""
        await self.page.evaluate("document.activeElement && document.activeElement.blur()")  # "r" typed in the
        self.finished.clear()                                                               # uploader does nothing
        start = time.perf_counter()
        await self.page.keyboard.press("r")
        await asyncio.wait_for(self.finished.wait(), RERUN_TIMEOUT_S)
        elapsed = time.perf_counter() - start
        await wait_drawn(self.page, start)
        return elapsed


async def open_kappa_csv(browser: Browser, base: str) -> Session:
    session = await Session(browser, f"{base}/kappa").__aenter__()
    await session.page.get_by_text("Fichier CSV (deux évaluateurs ou plus)").click()
    await wait_drawn(session.page, time.perf_counter())
    return session


async def reruns(session: Session, pid: int) -> tuple[list[float], float]:
    """RERUNS reruns: their seconds, and the server CPU seconds per rerun."""
    before = server_cpu_s(pid)
    times = [await session.rerun() for _ in range(RERUNS)]
    await asyncio.sleep(0.5)
    return times, (server_cpu_s(pid) - before) / RERUNS


def spread(values: list[float]) -> str:
    return f"{min(values):6.2f} / {statistics.median(values):6.2f} / {max(values):6.2f}"


async def run(folder: Path) -> bool:
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
          "(other jobs share the machine: wall times grow with it)\n")
    port = free_port()
    server = start_server(port, [])
    base = f"http://127.0.0.1:{port}"
    ok = True
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            async with Session(browser, f"{base}/"):  # the first visitor pays the imports, not the bench
                pass

            firsts = []
            for seed in range(RUNS):
                path = folder / f"ratings_{seed}.csv"
                path.write_bytes(ratings_csv(KAPPA_ITEMS, seed))
                session = await open_kappa_csv(browser, base)
                firsts.append(await session.upload(path, KAPPA_RESULTS))
                await session.__aexit__()
            met = statistics.median(firsts) <= FIRST_RENDER_TARGET_S
            ok &= met
            size_mb = path.stat().st_size / 1e6
            print(f"kappa page, first render with a {KAPPA_ITEMS:,}-item CSV ({size_mb:.0f} MB), s (min / median / max)")
            print(f"  {spread(firsts)}   target median <= {FIRST_RENDER_TARGET_S:g} s   {'met' if met else 'NOT met'}\n")

            async with Session(browser, f"{base}/") as home:
                await home.rerun()
                home_times, home_cpu = await reruns(home, server.pid)
            print("warm reruns, s until the server finished the run (min / median / max), server CPU s per rerun")
            print(f"  {'home page':<22} {spread(home_times)}   CPU {home_cpu:.3f}")
            medians, cpus = {}, {}
            for n_items in RERUN_SIZES:
                path = folder / f"ratings_rerun_{n_items}.csv"
                path.write_bytes(ratings_csv(n_items, 100 + n_items))
                session = await open_kappa_csv(browser, base)
                await session.upload(path, KAPPA_RESULTS)
                await session.rerun()
                times, cpu = await reruns(session, server.pid)
                await session.__aexit__()
                medians[n_items] = statistics.median(times)
                cpus[n_items] = cpu
                print(f"  {f'kappa, {n_items:,} items':<22} {spread(times)}   CPU {cpu:.3f}   "
                      f"ratios to home {spread([t / statistics.median(home_times) for t in times])} (wall), "
                      f"{cpu / home_cpu:.1f}x (CPU)")
            largest, smallest = RERUN_SIZES[-1], RERUN_SIZES[0]
            ratio = medians[largest] / statistics.median(home_times)
            flat = medians[largest] / medians[smallest]
            met = ratio <= RERUN_RATIO_TARGET and flat <= FLAT_TARGET
            ok &= met
            print(f"  {largest:,}-item rerun / home rerun {ratio:.2f}x wall, {cpus[largest] / home_cpu:.1f}x CPU "
                  f"(target <= {RERUN_RATIO_TARGET:g}x); {largest:,} / {smallest:,} items {flat:.2f}x wall, "
                  f"{cpus[largest] / cpus[smallest]:.2f}x CPU (target <= {FLAT_TARGET:g}x)   {'met' if met else 'NOT met'}\n")

            gnss = []
            for seed in range(RUNS):
                path = folder / f"daily_{seed}.csv"
                path.write_bytes(daily_csv(GNSS_DAYS, seed))
                async with Session(browser, f"{base}/gnss") as session:
                    gnss.append(await session.upload(path, GNSS_RESULTS))
            met = statistics.median(gnss) <= GNSS_TARGET_S
            ok &= met
            print(f"GNSS page, a {path.stat().st_size / 1e6:.1f} MB daily CSV ({GNSS_DAYS:,} days), s (min / median / max)")
            print(f"  {spread(gnss)}   target median <= {GNSS_TARGET_S:g} s   {'met' if met else 'NOT met'}\n")
            await browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("PASS" if ok else "FAIL")
    return ok


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        return 0 if asyncio.run(run(Path(folder))) else 1


if __name__ == "__main__":
    sys.exit(main())

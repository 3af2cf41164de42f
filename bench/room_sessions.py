"""The room's board under real sessions: N Streamlit sessions over the websocket, attempts arriving
(docs/README.md#performance).

Run: ``.venv/bin/python bench/room_sessions.py`` (or ``make bench``); ``--sessions 30`` for one size,
``--urls http://host:port ...`` to drive servers already running (two processes behind a load
balancer: give it the balancer's URL, or each process's URL, and ``--pids`` for their CPU), sharing the
database named by ``EVALLIB_DATABASE_URL`` (they must use the same one, and ``--token`` must be their
instructor token). Without ``--urls`` it starts the set-ups that ``--setups`` names, each with the
board refreshing every ``--period`` seconds, and stops them at the end (on an error too):

- ``one-process`` (the default): ``streamlit run serve.py`` (as ``make run``) on a free port, with a
  throwaway SQLite database;
- ``two-behind-nginx``: a throwaway PostgreSQL cluster (`tests.postgres_cluster`), two
  ``streamlit run serve.py`` on one new database of it, and nginx in front with deploy/nginx.conf
  (`tests.nginx_proxy`); the sessions go through nginx, which sends each browser to a process by its
  ``evallib_browser`` cookie (how many reached each process is printed), and the CPU is both
  processes' (summed, and each).

``--setups one-process two-behind-nginx`` runs both and prints them side by side with their ratio (two
processes / one process); the one process then runs on a database of the same PostgreSQL cluster, so
that the ratio compares the number of processes only.

``--baseline DIR`` (another checkout of the app, e.g. ``git archive <commit> | tar -x -C DIR``) starts
each set-up from it too; for each size its run comes just before this checkout's, and the table gives
after / before (``--rounds N``: N such turns, for a machine whose other load varies). ``--profile FILE``
samples every thread of the servers (`bench/sampling/sitecustomize.py`: wall-clock and CPU per frame,
the garbage collector's time) and ``--cprofile FILE`` profiles their script runs, both counted from the
window's start: what a rerun waits for, and what it spends.

For each size N, one room: ``--seeded`` attempts stored first (`bench.room.attempt_payloads`: trigger,
persona and judge attempts in turn, built by evallib's builders on the default data), then N
participants joined through `RoomStore`, each browser holding its room cookie as the Room page writes
it (`tests.streamlit_sessions.Browser`, which also takes the server's HttpOnly browser cookie from the
page's HTML). The N sessions open the Room page together (their board timers in step, as after a
restart) and answer the board fragment's timer as the frontend does. During ``--seconds`` seconds,
``--attempts`` more attempts are submitted through the store at even intervals. Measured:

- fragment rerun latency: from a timer's rerun request to the end of that fragment run (p50, p95);
- submission to every board: from the submission's commit to the moment the last of the N sessions
  shows it on its board chart (p50, p95, max over the attempts; polled every ``POLL_S``);
- server CPU: user + system seconds of the server processes (``/proc/<pid>/stat``) over the window,
  in cores (summed over the processes, and each), and per fragment rerun (what the machine's other
  load does not change much);
- sessions lost: closed, or whose board does not show the last attempt ``--period`` + 2 s after the
  window.

Targets for 30 sessions on one process (this 2-core machine): rerun p95 <= 1 s, submission to every
board p95 <= period + 1 s, 0 sessions lost; the exit status is 1 when one is missed (sizes other than
30, and the two-process set-up, are printed, not judged).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.room import attempt_payloads  # noqa: E402
from evallib.room.storage import RoomStore, database_url, make_engine  # noqa: E402
from tests.nginx_proxy import running_nginx, upstream  # noqa: E402
from tests.postgres_cluster import new_postgres_database, temporary_cluster  # noqa: E402
from tests.streamlit_sessions import ROOT, Browser, SessionError, start_server, stop_server  # noqa: E402
from evallib.room.browser_cookie import COOKIE, browser_key, new_cookie_value  # noqa: E402
from evallib.room.browsers import join_from_browser  # noqa: E402

POLL_S = 0.1
TOKEN = "bench-room-sessions"
JUDGED_SIZE = 30
RERUN_P95_TARGET_S = 1.0
BOARD_SLACK_S = 1.0  # submission to every board: at most the period plus this
KINDS = ("trigger", "persona", "judge")
ONE, TWO = "one-process", "two-behind-nginx"
BEFORE = "before"  # the label of ``--baseline``'s checkout


@dataclass
class Setup:
    """Servers to drive: the URLs the sessions open, the processes' ids (CPU), their shared database."""

    name: str
    urls: list[str]
    pids: list[int]
    database: str
    judged: bool = True  # the targets apply (one process, this checkout)
    kind: str = ""  # ONE or TWO ("" for given servers)
    checkout: str = ""  # "" for this checkout, else the label of ``--baseline``'s
    #: nginx's upstream address (``127.0.0.1:<port>``) -> index of that process in ``pids``; empty without nginx
    upstreams: dict[str, int] = field(default_factory=dict)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (``/proc/<pid>/stat``, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], point: float) -> float:
    """The ``point``-th percentile (nearest rank on the sorted values); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(point / 100 * len(ordered) + 0.5) - 1))]


def marker(number: int, name: str) -> str:
    """How the board chart names attempt ``number`` of ``name`` (`ui.room.board.draw_kind`), as a JSON string."""
    return f'"#{number} {name}"'


def shows(session, mark: str) -> bool:
    """Whether the session's board chart holds ``mark``."""
    return any(e.WhichOneof("type") == "plotly_chart" and mark in e.plotly_chart.spec for e in session.elements())


async def measure(size: int, setup: Setup, store: RoomStore, payloads: list[dict], args) -> dict:
    """One size: open ``size`` sessions on one room, submit attempts, measure (see the module docstring)."""
    urls = setup.urls
    room = store.open_room(args.token, f"Bench {size}")
    writer = store.join(room.code, "Writer")
    for payload in payloads[:args.seeded]:
        store.submit_attempt(room.code, writer.token, payload)
    cookies = [new_cookie_value() for _ in range(size)]
    people = [join_from_browser(store, browser_key({COOKIE: value}), room.code, f"P{i:03d}")[0]
              for i, value in enumerate(cookies)]
    browsers = []
    for i, value in enumerate(cookies):
        browser = Browser(urls[i % len(urls)], timeout=600)
        browser.set_cookie(COOKIE, value)
        browsers.append(browser)
    opened = time.monotonic()
    sessions = await asyncio.gather(*(b.open("room") for b in browsers))
    opened = time.monotonic() - opened
    spread = [0] * len(setup.pids)  # sessions per process, as nginx sent their browsers
    for browser in browsers if setup.upstreams else ():
        spread[setup.upstreams[await asyncio.to_thread(upstream, browser.base_url.rstrip("/"), browser.cookies())]] += 1
    await asyncio.sleep(args.period * 2)  # every timer running before the window opens
    for s in sessions:
        s.fragment_latencies.clear()
    if args.profile or args.cprofile:
        for pid in setup.pids:
            os.kill(pid, signal.SIGUSR1)  # bench/sampling/sitecustomize.py: count from the window's start
    cpu0, wall0, client0 = [cpu_seconds(p) for p in setup.pids], time.monotonic(), time.process_time()
    pending: dict[str, float] = {}  # marker -> commit time
    reached: dict[str, float] = {}  # marker -> seconds until every session showed it
    number = args.seeded
    gap = args.seconds / max(1, args.attempts)
    next_submit = time.monotonic()
    submitted = 0
    while time.monotonic() - wall0 < args.seconds or pending:
        now = time.monotonic()
        if submitted < args.attempts and now >= next_submit:
            person = people[submitted % size]
            await asyncio.to_thread(store.submit_attempt, room.code, person.token,
                                    payloads[(args.seeded + submitted) % len(payloads)])
            number, submitted, next_submit = number + 1, submitted + 1, next_submit + gap
            pending[marker(number, person.name)] = time.monotonic()
        for mark, at in list(pending.items()):
            if all(shows(s, mark) for s in sessions if not s.closed):
                reached[mark] = time.monotonic() - at
                del pending[mark]
            elif time.monotonic() - at > args.seconds + 60:
                reached[mark] = float("inf")
                del pending[mark]
        await asyncio.sleep(POLL_S)
    wall = time.monotonic() - wall0
    each = [cpu_seconds(p) - before for p, before in zip(setup.pids, cpu0)]
    cpu = sum(each)
    client = (time.process_time() - client0) / wall
    last = marker(number, people[(submitted - 1) % size].name) if submitted else None
    await asyncio.sleep(args.period + 2)
    lost = sum(1 for s in sessions if s.closed or (last is not None and not shows(s, last)))
    latencies = [x for s in sessions for x in s.fragment_latencies]
    await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
    return {"size": size, "setup": setup.name, "kind": setup.kind, "checkout": setup.checkout, "open": opened, "reruns": len(latencies),
            "rerun_p50": percentile(latencies, 50), "rerun_p95": percentile(latencies, 95), "board_p50": percentile(list(reached.values()), 50),
            "board_p95": percentile(list(reached.values()), 95), "board_max": max(reached.values(), default=float("nan")),
            "cpu": cpu / wall if setup.pids else float("nan"), "cpu_per_rerun": cpu / max(1, len(latencies)),
            "cpu_each": [c / wall for c in each], "spread": spread if setup.upstreams else [],
            "lost": lost, "attempts": len(reached), "client": client, "judged": setup.judged}


#: The table's numeric columns: (key, heading, format).
COLUMNS = (("open", "open all", ".1f"), ("reruns", "reruns", "d"), ("rerun_p50", "rerun p50", ".2f"),
           ("rerun_p95", "rerun p95", ".2f"), ("board_p50", "board p50", ".2f"), ("board_p95", "board p95", ".2f"),
           ("board_max", "board max", ".2f"), ("cpu", "CPU", ".2f"), ("cpu_per_rerun", "CPU/rerun", ".3f"),
           ("lost", "lost", "d"))


def cell(value, spec: str, width: int) -> str:
    """``value`` formatted by ``spec`` in ``width`` characters; "-" for NaN."""
    if isinstance(value, float) and math.isnan(value):
        return f"{'-':>{width}}"
    return f"{value:>{width}{'.2f' if spec == 'd' and isinstance(value, float) else spec}}"


def ratio(two: float, one: float) -> float:
    """``two / one``; NaN when ``one`` is 0 or NaN (or both are 0)."""
    return two / one if one and not math.isnan(one) else float("nan")


def print_table(rows: list[dict], period: float) -> None:
    """The rows (one per round, size and set-up) and, within a round and size, the ratios: two processes /
    one (same checkout), and this checkout / the baseline's (same set-up)."""
    print(f"\nBoard every {period:g} s; times in seconds; CPU in cores of the server process(es) "
          f"(summed; 'CPU each' per process, 'sessions each' as nginx sent them).")
    widths = [max(len(heading), 5) for _, heading, _ in COLUMNS]
    print(f"{'sessions':>8} {'set-up':<22} " + " ".join(f"{h:>{w}}" for (_, h, _), w in zip(COLUMNS, widths))
          + f" {'CPU each':>11} {'sessions each':>13}")

    def line(size: int, name: str, values: list[str], rest: str = "") -> None:
        print(f"{size:>8} {name:<22} " + " ".join(values) + rest)

    def twin(r: dict, **changed) -> dict | None:
        wanted = {**{k: r.get(k) for k in ("size", "round", "kind", "checkout")}, **changed}
        return next((o for o in rows if all(o.get(k) == v for k, v in wanted.items())), None)

    for r in sorted(rows, key=lambda r: (r["size"], r.get("round", 0))):  # set-ups of a size and round together
        line(r["size"], r["setup"], [cell(r[k], spec, w) for (k, _, spec), w in zip(COLUMNS, widths)],
             f" {'+'.join(f'{c:.2f}' for c in r.get('cpu_each', [])) or '-':>11}"
             f" {'+'.join(str(n) for n in r.get('spread', [])) or '-':>13}")
        for other, name in ((twin(r, kind=ONE) if r.get("kind") == TWO else None, "two / one"),
                            (twin(r, checkout=BEFORE) if r.get("checkout") == "" else None, "after / before")):
            if other is not None:
                line(r["size"], f"  {name}", [cell(ratio(r[k], other[k]), ".2f", w) for (k, _, _), w in zip(COLUMNS, widths)])


def judge(rows: list[dict], period: float) -> bool:
    """Print the targets for `JUDGED_SIZE` sessions; True when all are met (or that size was not run)."""
    ok = True
    for r in (r for r in rows if r["size"] == JUDGED_SIZE and r["judged"]):
        checks = [(f"rerun p95 {r['rerun_p95']:.2f} s <= {RERUN_P95_TARGET_S:g} s", r["rerun_p95"] <= RERUN_P95_TARGET_S),
                  (f"submission to every board p95 {r['board_p95']:.2f} s <= {period + BOARD_SLACK_S:g} s",
                   r["board_p95"] <= period + BOARD_SLACK_S),
                  (f"sessions lost {r['lost']} == 0", r["lost"] == 0)]
        for text, passed in checks:
            print(f"  {'ok  ' if passed else 'MISS'} {JUDGED_SIZE} sessions, {r['setup']}: {text}")
            ok = ok and passed
    return ok


async def run(args, setups: list[Setup]) -> list[dict]:
    """``--rounds`` times, every size of ``--sessions`` on each set-up in turn (one at a time); a row each."""
    for setup in setups:
        print(f"{setup.name}: {len(setup.pids)} server process(es) on {setup.database.split(':', 1)[0]}")
    stores = [RoomStore(make_engine(setup.database), instructor_token=args.token) for setup in setups]
    payloads = [p for per in attempt_payloads(args.seeded + args.attempts, 1, KINDS) for p in per]
    rows = []
    try:
        for round_ in range(args.rounds):
            for size in args.sessions:
                for setup, store in zip(setups, stores):
                    try:
                        row = await measure(size, setup, store, payloads, args)
                    except SessionError as error:
                        print(f"{size} sessions, {setup.name}: {error}")
                        row = {"size": size, "setup": setup.name, "kind": setup.kind, "checkout": setup.checkout,
                               "open": float("nan"), "reruns": 0, **dict.fromkeys(
                                   ("rerun_p50", "rerun_p95", "board_p50", "board_p95", "board_max", "cpu",
                                    "cpu_per_rerun"), float("nan")), "lost": size, "judged": setup.judged}
                    rows.append({**row, "round": round_})
                    print_table(rows[-1:], args.period)
                    if "client" in row:
                        print(f"  this bench's own CPU (the sessions' client side): {row['client']:.2f} cores")
    finally:
        for store in stores:
            store.engine.dispose()
    return rows


def server_env(args, database: str) -> dict[str, str]:
    """The environment of a `serve.py` process of the bench."""
    env = {"EVALLIB_DATABASE_URL": database, "EVALLIB_ROOM_INSTRUCTOR_TOKEN": args.token,
           "EVALLIB_ROOM_REFRESH_SECONDS": f"{args.period:g}"}
    if args.profile or args.cprofile:  # bench/sampling/sitecustomize.py, in the server
        sampling = str(Path(__file__).resolve().parent / "sampling")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (sampling, os.environ.get("PYTHONPATH"))))
    if args.profile:
        env["EVALLIB_SAMPLE_FILE"] = str(Path(args.profile).resolve())
    if args.cprofile:
        env["EVALLIB_CPROFILE_FILE"] = str(Path(args.cprofile).resolve())
    return env


def stop(process) -> None:
    """Stop a server of `start_server`, printing the end of its output when it holds a traceback."""
    output = stop_server(process)
    if "Traceback" in output:
        print(output[-3000:])


def setup_name(kind: str, checkout: str) -> str:
    return f"{kind} {checkout}".strip()


@contextlib.contextmanager
def one_process(args, database: str, root: Path = ROOT, checkout: str = "") -> Iterator[Setup]:
    """``streamlit run serve.py`` (from the checkout ``root``) on ``database``, stopped at the end."""
    url, process = start_server("serve.py", server_env(args, database), root=root)
    try:
        yield Setup(setup_name(ONE, checkout), [url], [process.pid], database, judged=not checkout, kind=ONE,
                    checkout=checkout)
    finally:
        stop(process)


@contextlib.contextmanager
def two_behind_nginx(args, database: str, root: Path = ROOT, checkout: str = "") -> Iterator[Setup]:
    """Two ``streamlit run serve.py`` (from the checkout ``root``) on ``database`` (PostgreSQL) and nginx in
    front; all stopped at the end."""
    with contextlib.ExitStack() as stack:
        processes = []
        for _ in range(2):
            url, process = start_server("serve.py", server_env(args, database), root=root)
            stack.callback(stop, process)
            processes.append((int(url.rsplit(":", 1)[1]), process))
        url, _ = stack.enter_context(running_nginx([port for port, _ in processes]))
        yield Setup(setup_name(TWO, checkout), [url], [process.pid for _, process in processes], database,
                    judged=False, kind=TWO, checkout=checkout, upstreams={f"127.0.0.1:{port}": i for i, (port, _) in enumerate(processes)})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--setups", nargs="+", choices=(ONE, TWO), default=[ONE],
                        help="the servers started (without --urls); both: side by side, with their ratio")
    parser.add_argument("--urls", nargs="+", help="servers already running (else --setups are started)")
    parser.add_argument("--pids", type=int, nargs="*", default=[], help="their process ids, for the CPU column")
    parser.add_argument("--token", default=TOKEN, help="the servers' instructor token (with --urls)")
    parser.add_argument("--period", type=float, default=3.0, help="the board's refresh, seconds")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window per size")
    parser.add_argument("--seeded", type=int, default=12, help="attempts on the board before the window")
    parser.add_argument("--attempts", type=int, default=8, help="attempts submitted during the window")
    parser.add_argument("--profile", metavar="FILE",
                        help="sample the server's threads (wall and CPU) into FILE (bench/sampling/sitecustomize.py)")
    parser.add_argument("--cprofile", metavar="FILE",
                        help="cProfile the server's script runs (their threads' CPU) into FILE, pstats (slow)")
    parser.add_argument("--baseline", metavar="DIR", type=Path,
                        help="another checkout (git archive <commit> | tar -x -C DIR): each set-up also runs "
                             "from it, just before this checkout's, and the table gives after / before")
    parser.add_argument("--rounds", type=int, default=1, help="measure every size and set-up this many times, in turn")
    args = parser.parse_args()
    if args.urls:
        rows = asyncio.run(run(args, [Setup("given servers", args.urls, args.pids, database_url())]))
    else:
        checkouts = ([(BEFORE, args.baseline.resolve())] if args.baseline else []) + [("", ROOT)]
        with tempfile.TemporaryDirectory(prefix="bench-room-sessions-") as folder, contextlib.ExitStack() as stack:
            server = stack.enter_context(temporary_cluster()) if TWO in args.setups else None
            setups = []
            for name in dict.fromkeys(args.setups):  # in the order asked, once each
                for checkout, root in checkouts:
                    label = "_".join(filter(None, (name.replace("-", "_"), checkout)))
                    if name == ONE:
                        database = (new_postgres_database(server, prefix=f"bench_{label}") if server
                                    else f"sqlite:///{folder}/{label}.sqlite3")
                        started = one_process(args, database, root, checkout)
                    else:
                        started = two_behind_nginx(args, new_postgres_database(server, prefix=f"bench_{label}"),
                                                   root, checkout)
                    setups.append(stack.enter_context(started))
            rows = asyncio.run(run(args, setups))
    print_table(rows, args.period)
    return 0 if judge(rows, args.period) else 1


if __name__ == "__main__":
    sys.exit(main())

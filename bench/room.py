"""A room measured (docs/README.md#performance): one model server shared fairly, the board under thirty
sessions, export/import.

Run: ``.venv/bin/python bench/room.py`` (or ``make bench``); ``--participants 8`` for a quick run,
``--parts board,export`` for some parts only. Three parts, each printed side by side from this run:

**1. One model server (scheduler), fair (round-robin) vs first-come-first-served.**
Each simulated participant collects 36 distinct requests as a page does (`collect`, 8 at a time, its
own SDK client) through one `EndpointScheduler` limited to 8 requests in flight; the fake server
answers each in 0.5 s. The participants click "Collect" at random moments within the first
``--spread`` seconds (the same moments for both orders, seeded). The two orders run at the same time,
each on its own fake server, so they share the machine's load alike; printed side by side:

- total time, from the first click to the last answer, against the physical limit
  ``participants * requests * latency / limit`` (no order can do better with ``limit`` in flight);
- each participant's time to its first answer and to its last (p50, p95, max over participants),
  from its own click: first-come-first-served makes the late clickers wait for the queues of
  those who clicked first.

**2. The board under load.** ``participants`` sessions (threads, each its own participant joined through
`RoomStore`, as a page is) submit ``--attempts`` valid attempts each at random moments within
``--board-spread`` seconds, and rate ``--items`` items pass/fail, while one board loop refreshes every
``--period`` seconds as the board fragment will: ``store.attempts`` + ``store.ratings`` + `build_boards`
+ `room_agreement`. Measured: from each submission's return (committed) to the end of the first
refresh whose board holds it (p50/p95/max), the refresh's wall time and the CPU time of the
refreshing thread (`time.thread_time`: its database reads, JSON decoding and board statistics; a
PostgreSQL server's own CPU is another process, not counted), failed writes (retried, as a click on
"retry" would), and that nothing is lost: the rows in the database and on the last board against the
submissions. On SQLite, and on PostgreSQL when ``EVALLIB_DATABASE_URL`` names one (throwaway
databases are created on it and dropped) or Debian's ``initdb`` is installed (a throwaway cluster, as
the room tests start it: `tests/postgres_cluster.py`); side by side, with their ratio.

The attempts, of the ``--kinds`` in turn (participant ``i``'s first attempt is of kind ``i`` modulo
the kinds), all built by evallib's builders on the default data: a trigger attempt is the trigger
page's decisions on the default queries (first authored router, replayed offline), the participant's
copy with a share of them made wrong (a share drawn between 5 % and 40 % per participant, seeded),
with the authored decisions as the room's baseline; a persona or a judge attempt is the one of
`tests/evallib/room/kinds.py` (authored answers; the judge's human scores typed there), the same
for everyone. Their sizes differ (persona's hold every answer): the board reads them all.

**3. Export -> import -> board identical.** Each room of part 2 exported (`export_room`), imported
into a fresh database (`import_bundle`; of the same kind, and PostgreSQL's into SQLite as on another
machine), its boards and agreement built again and compared; then, as a control that the comparison
can fail, one attempt of the copy is hidden and its board must differ.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from sqlalchemy import create_engine, make_url, text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.llm import ChatRequest, EndpointScheduler, ProviderConfig, ScheduledProvider, collect  # noqa: E402
from evallib.llm.providers import make_provider  # noqa: E402
from evallib.room.attempts import build_trigger_attempt  # noqa: E402
from evallib.room.board import build_boards  # noqa: E402
from evallib.room.bundle import export_room, import_bundle  # noqa: E402
from evallib.room.ratings import room_agreement  # noqa: E402
from evallib.room.storage import ENV_VAR, RoomStorageError, RoomStore, database_url  # noqa: E402
from evallib.triggering.decisions import Decision  # noqa: E402
from tests.evallib.room.kinds import default_payloads, trigger_rows  # noqa: E402
from tests.fake_llm_server import FakeLLMServer  # noqa: E402
from tests.postgres_cluster import ClusterFailed, ClusterUnavailable, new_postgres_database, temporary_cluster  # noqa: E402

KEY = "bench-room-key"


def _participant(scheduler, server, name: str, click_at: float, start: float, n_requests: int, out: dict) -> None:
    lane = scheduler.lane(name)
    provider = ScheduledProvider(make_provider(ProviderConfig(base_url=server.openai_base_url, api_key=KEY,
                                                              max_retries=0, timeout_s=600)), lane)
    requests = [ChatRequest.single("fake-ok", "Sois bref.", f"{name} question {i}", max_tokens=20)
                for i in range(n_requests)]
    time.sleep(max(0.0, start + click_at - time.perf_counter()))
    clicked = time.perf_counter()
    first: list[float] = []

    def progress(p) -> None:
        if p.last is not None and not first:
            first.append(time.perf_counter() - clicked)

    results = collect(requests, provider, 8, on_progress=progress, lane=lane)
    out[name] = {"first": first[0], "last": time.perf_counter() - clicked, "end": time.perf_counter() - start,
                 "ok": sum(r.ok for r in results)}


def _room(fair: bool, args, clicks: list[float], start: float, out: dict) -> None:
    """One room (one server, one scheduler), every participant in its own thread."""
    with FakeLLMServer(api_key=KEY, latency=args.latency) as server:
        scheduler = EndpointScheduler(args.limit, fair=fair)
        outcomes: dict = {}
        threads = [threading.Thread(target=_participant, args=(scheduler, server, f"p{i:02d}", click, start,
                                                               args.requests, outcomes))
                   for i, click in enumerate(clicks)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        out[fair] = {"outcomes": outcomes, "peak": server.in_flight_max, "sent": len(server.requests)}


def _percentiles(values) -> str:
    p50, p95 = np.percentile(values, [50, 95])
    return f"{p50:5.1f} / {p95:5.1f} / {max(values):5.1f}"


# ---------------------------------------------------------------- part 2 and 3: the room's storage
TOKEN = "bench-room-instructor"
#: Tries of one submission or rating before the session gives up (the page's "retry" click).
TRIES = 5
#: What `_retried` returns when every try failed.
GAVE_UP = object()


def attempt_payloads(participants: int, attempts: int, kinds: tuple[str, ...], seed: int = 15) -> list[list[dict]]:
    """``attempts`` valid attempts for each of ``participants``, their kinds taken in turn from ``kinds``
    ("trigger", "persona", "judge"; see the module docstring)."""
    catalogue, queries, model, rows = trigger_rows()
    descriptions = {s.name: s.description for s in catalogue.skills}
    others = default_payloads() if set(kinds) - {"trigger"} else {}
    rng = random.Random(seed)

    def wrong(row):
        if row.expected is None:
            other = catalogue.names[0]
            return replace(row, decision=Decision("skill", other, other))
        return replace(row, decision=Decision("none"))

    def trigger(share: float) -> dict:
        return build_trigger_attempt([wrong(r) if rng.random() < share else r for r in rows], queries, descriptions,
                                     model=model, source="offline", runs=1, baseline_rows=rows)

    out = []
    for i in range(participants):
        share = rng.uniform(0.05, 0.40)
        out.append([trigger(share) if kind == "trigger" else others[kind]
                    for kind in (kinds[(i + j) % len(kinds)] for j in range(attempts))])
    return out


@dataclass
class LoadRun:
    """What one board-under-load run measured (seconds from `time.perf_counter`)."""

    committed: dict = field(default_factory=dict)  # attempt id -> when its submission returned
    on_board: dict = field(default_factory=dict)  # attempt id -> end of the first refresh holding it
    refresh_wall: list = field(default_factory=list)
    refresh_cpu: list = field(default_factory=list)
    ratings_sent: int = 0
    failures: int = 0
    gave_up: int = 0
    rows: int = 0
    ratings_rows: int = 0
    last_board_attempts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _retried(run: LoadRun, action):
    for _ in range(TRIES):
        try:
            return action()
        except RoomStorageError:
            with run.lock:
                run.failures += 1
            time.sleep(0.2)
    with run.lock:
        run.gave_up += 1
    return GAVE_UP


def _session(store: RoomStore, code: str, index: int, payloads: list[dict], items: int, spread: float,
             start: float, run: LoadRun) -> None:
    rng = random.Random(1000 + index)
    participant = _retried(run, lambda: store.join(code, f"Participant {index + 1:02d}"))
    if participant is GAVE_UP:
        return
    events = [(rng.uniform(0, spread), "attempt", payload) for payload in payloads]
    events += [(rng.uniform(0, spread), "rate", (f"item-{j:02d}", rng.choice(("pass", "fail")))) for j in range(items)]
    for at, what, value in sorted(events, key=lambda e: e[0]):
        time.sleep(max(0.0, start + at - time.perf_counter()))
        if what == "attempt":
            attempt_id = _retried(run, lambda value=value: store.submit_attempt(code, participant.token, value))
            if attempt_id is not GAVE_UP:
                with run.lock:
                    run.committed[attempt_id] = time.perf_counter()
        elif _retried(run, lambda value=value: store.rate(code, participant.token, *value)) is not GAVE_UP:
            with run.lock:
                run.ratings_sent += 1


def refresh(store: RoomStore, code: str) -> tuple[list, dict, object]:
    """One board refresh: (attempts, boards by kind, room agreement of the ratings)."""
    attempts = store.attempts(code)
    return attempts, build_boards(attempts), room_agreement(store.ratings(code))


def _board_loop(store: RoomStore, code: str, period: float, stop: threading.Event, run: LoadRun) -> None:
    while True:
        last = stop.is_set()  # one more refresh after the last submission
        began, cpu = time.perf_counter(), time.thread_time()
        attempts, boards, _ = refresh(store, code)
        ended = time.perf_counter()
        run.refresh_wall.append(ended - began)
        run.refresh_cpu.append(time.thread_time() - cpu)
        for attempt in attempts:
            run.on_board.setdefault(attempt.id, ended)
        run.last_board_attempts = sum(len(board.rows) for board in boards.values())
        if last:
            return
        time.sleep(max(0.0, began + period - time.perf_counter()))


def board_under_load(url: str, payloads: list[list[dict]], items: int, spread: float,
                     period: float) -> tuple[LoadRun, RoomStore, str]:
    """Run the sessions and the board loop on the database at ``url`` (see the module docstring);
    returns what was measured, the store and the room's code."""
    store = RoomStore(url, instructor_token=TOKEN)
    code = store.open_room(TOKEN, "bench").code
    run = LoadRun()
    start = time.perf_counter() + 1.0
    stop = threading.Event()
    board = threading.Thread(target=_board_loop, args=(store, code, period, stop, run))
    sessions = [threading.Thread(target=_session, args=(store, code, i, mine, items, spread, start, run))
                for i, mine in enumerate(payloads)]
    for thread in [board, *sessions]:
        thread.start()
    for thread in sessions:
        thread.join()
    stop.set()
    board.join()
    run.rows = len(store.attempts(code, include_hidden=True))
    run.ratings_rows = len(store.ratings(code))
    return run, store, code


def export_import(store: RoomStore, code: str, fresh_url: str) -> dict:
    """Export room ``code``, import it into the empty database at ``fresh_url``, compare the boards."""
    began = time.perf_counter()
    bundle = json.dumps(export_room(store, code, TOKEN))
    exported = time.perf_counter()
    fresh = RoomStore(fresh_url, instructor_token=TOKEN)
    imported_room = import_bundle(fresh, TOKEN, bundle)
    imported = time.perf_counter()
    before, after = refresh(store, code), refresh(fresh, imported_room.code)
    # The control: the comparison can fail. One attempt hidden in the copy must change its board.
    fresh.hide_attempt(imported_room.code, TOKEN, after[0][0].id)
    control = refresh(fresh, imported_room.code)
    fresh.engine.dispose()
    return {"bytes": len(bundle.encode("utf-8")), "export_s": exported - began, "import_s": imported - exported,
            "attempts": len(before[0]), "boards_identical": before[1] == after[1],
            "agreement_identical": before[2] == after[2], "control_differs": control[1] != before[1]}


@contextmanager
def databases(folder: Path):
    """{"SQLite": new database URL factory, "PostgreSQL": the same when one is reachable}; prints why not."""
    counter = iter(range(1, 1000))
    found = {"SQLite": lambda: f"sqlite:///{folder}/rooms-{next(counter)}.sqlite3"}
    created: list[str] = []
    with ExitStack() as stack:
        server = None
        if os.environ.get(ENV_VAR, "").startswith("postgresql"):
            server = make_url(database_url())._replace(database=None).render_as_string(hide_password=False)
            print(f"PostgreSQL: new databases on the server of {ENV_VAR}, dropped at the end")
        else:
            try:
                server = stack.enter_context(temporary_cluster())
                print("PostgreSQL: a throwaway cluster (Debian's initdb), removed at the end")
            except (ClusterUnavailable, ClusterFailed) as reason:
                print(f"PostgreSQL not measured: {reason}")
        if server is not None:
            def fresh() -> str:
                created.append(new_postgres_database(server, f"bench_room_{os.getpid()}"))
                return created[-1]
            found["PostgreSQL"] = fresh
        try:
            yield found
        finally:
            if created and os.environ.get(ENV_VAR, "").startswith("postgresql"):  # a cluster goes as a whole
                admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
                with admin.connect() as conn:
                    for url in created:
                        conn.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
                admin.dispose()


def percentiles(values, points=(50, 95)) -> list[float]:
    return [float(v) for v in np.percentile(values, points)] if len(values) else [float("nan")] * len(points)


# ---------------------------------------------------------------- printing
def scheduler_part(args) -> bool:
    """Part 1; True when no order exceeded the limit and every answer was obtained."""
    rng = random.Random(15)
    clicks = sorted(rng.uniform(0, args.spread) for _ in range(args.participants))
    physical = args.participants * args.requests * args.latency / args.limit
    print(f"1. {args.participants} participants x {args.requests} requests, {args.latency} s per answer, "
          f"{args.limit} in flight to the endpoint, clicks spread over {args.spread} s")
    print(f"physical limit: {args.participants} x {args.requests} x {args.latency} / {args.limit} = {physical:.1f} s")

    out: dict = {}
    start = time.perf_counter() + 1.0  # every client built before the first click
    rooms = [threading.Thread(target=_room, args=(fair, args, clicks, start, out)) for fair in (True, False)]
    for room in rooms:
        room.start()
    for room in rooms:
        room.join()

    rows = []
    for fair in (True, False):
        outcomes = out[fair]["outcomes"].values()
        total = max(o["end"] for o in outcomes) - clicks[0]
        rows.append({
            "total time (s)": f"{total:.1f}",
            "total / physical limit": f"{total / physical:.3f}",
            "answers ok": f"{sum(o['ok'] for o in outcomes)}/{args.participants * args.requests}",
            "requests sent; peak in flight": f"{out[fair]['sent']}; {out[fair]['peak']}",
            "first answer p50/p95/max (s)": _percentiles([o["first"] for o in outcomes]),
            "last answer p50/p95/max (s)": _percentiles([o["last"] for o in outcomes]),
        })
    print(f"\n{'':32} {'fair (round-robin)':>22} {'first come, first served':>25}")
    for label in rows[0]:
        print(f"{label:32} {rows[0][label]:>22} {rows[1][label]:>25}")
    fair_first = [o["first"] for o in out[True]["outcomes"].values()]
    fcfs_first = [o["first"] for o in out[False]["outcomes"].values()]
    p95_ratio = np.percentile(fcfs_first, 95) / np.percentile(fair_first, 95)
    print(f"\ntime to first answer, first-come-first-served / fair: p95 {p95_ratio:.1f}x, "
          f"max {max(fcfs_first) / max(fair_first):.1f}x")
    within_limit = all(out[fair]["peak"] <= args.limit for fair in (True, False))
    all_ok = all(o["ok"] == args.requests for fair in (True, False) for o in out[fair]["outcomes"].values())
    print(f"never more than {args.limit} in flight: {'yes' if within_limit else 'NO'}; "
          f"every answer obtained: {'yes' if all_ok else 'NO'}")
    return within_limit and all_ok


def _table(header: list[str], rows: dict[str, list[str]]) -> None:
    width = max(len(label) for label in rows) + 2
    print(f"{'':{width}}" + "".join(f"{h:>26}" for h in header))
    for label, cells in rows.items():
        print(f"{label:{width}}" + "".join(f"{c:>26}" for c in cells))


def store_parts(args, parts: set[str]) -> bool:
    """Parts 2 and 3; True when nothing was lost and every imported board is identical."""
    kinds = tuple(args.kinds.split(","))
    payloads = attempt_payloads(args.participants, args.attempts, kinds)
    sizes = [len(json.dumps(p)) for mine in payloads for p in mine]
    print(f"\n2. {args.participants} sessions x {args.attempts} attempts ({', '.join(kinds)} in turn; "
          f"{np.mean(sizes) / 1000:.0f} kB each on average) and {args.items} ratings each, "
          f"within {args.board_spread:g} s; one board refreshed every {args.period:g} s "
          f"(attempts + ratings + build_boards + room_agreement)")
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-room-") as folder, databases(Path(folder)) as found:
        runs = {label: board_under_load(fresh(), payloads, args.items, args.board_spread, args.period)
                for label, fresh in found.items()}
        summary: dict[str, list[str]] = {}
        latency, cpu = {}, {}
        for label, (run, _, _) in runs.items():
            waits = [run.on_board[i] - at for i, at in run.committed.items() if i in run.on_board]
            latency[label] = percentiles(waits, (50, 95, 100))
            cpu[label] = percentiles([c * 1000 for c in run.refresh_cpu], (50, 95))
            wall = percentiles([w * 1000 for w in run.refresh_wall], (50, 95))
            lost = (run.rows != len(run.committed) or run.ratings_rows != run.ratings_sent
                    or len(waits) != len(run.committed) or run.last_board_attempts != len(run.committed))
            ok &= not lost and not run.gave_up
            for name, value in (
                    ("submitted: attempts; ratings", f"{len(run.committed)}; {run.ratings_sent}"),
                    ("rows in the database", f"{run.rows}; {run.ratings_rows}"),
                    ("attempts on the last board", f"{run.last_board_attempts}"),
                    ("failed tries (retried); gave up", f"{run.failures}; {run.gave_up}"),
                    ("submission -> board p50/p95/max (s)", " / ".join(f"{v:.2f}" for v in latency[label])),
                    ("refreshes", f"{len(run.refresh_wall)}"),
                    ("refresh wall p50/p95 (ms)", " / ".join(f"{v:.0f}" for v in wall)),
                    ("board CPU per refresh p50/p95 (ms)", " / ".join(f"{v:.0f}" for v in cpu[label])),
                    ("nothing lost", "NO" if lost else "yes")):
                summary.setdefault(name, []).append(value)
        _table(list(runs), summary)
        if "PostgreSQL" in runs:
            print(f"PostgreSQL / SQLite: submission -> board p95 {latency['PostgreSQL'][1] / latency['SQLite'][1]:.2f}x, "
                  f"board CPU per refresh p50 {cpu['PostgreSQL'][0] / cpu['SQLite'][0]:.2f}x")
        if "export" in parts:
            ok &= _export_part(runs, found)
        for _, store, _ in runs.values():
            store.engine.dispose()
    return ok


def _export_part(runs: dict, found: dict) -> bool:
    print("\n3. export -> import into a fresh database -> board and agreement built again")
    pairs = [(label, label) for label in runs] + ([("PostgreSQL", "SQLite")] if "PostgreSQL" in runs else [])
    summary: dict[str, list[str]] = {}
    identical = True
    for source, target in pairs:
        _, store, code = runs[source]
        result = export_import(store, code, found[target]())
        identical &= result["boards_identical"] and result["agreement_identical"] and result["control_differs"]
        for name, value in (("attempts", f"{result['attempts']}"), ("bundle (kB)", f"{result['bytes'] / 1000:.0f}"),
                            ("export; import (s)", f"{result['export_s']:.2f}; {result['import_s']:.2f}"),
                            ("boards identical", "yes" if result["boards_identical"] else "NO"),
                            ("agreement identical", "yes" if result["agreement_identical"] else "NO"),
                            ("control: one hidden, board differs", "yes" if result["control_differs"] else "NO")):
            summary.setdefault(name, []).append(value)
    _table([f"{s} -> {t}" for s, t in pairs], summary)
    return identical


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=30)
    parser.add_argument("--requests", type=int, default=36, help="requests per participant")
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the server takes per answer")
    parser.add_argument("--limit", type=int, default=8, help="requests in flight to the endpoint")
    parser.add_argument("--spread", type=float, default=3.0, help="seconds over which the participants click")
    parser.add_argument("--attempts", type=int, default=3, help="board: attempts per session")
    parser.add_argument("--kinds", default="trigger,persona,judge",
                        help="board: the attempts' kinds, taken in turn (default %(default)s)")
    parser.add_argument("--items", type=int, default=20, help="board: items each session rates")
    parser.add_argument("--board-spread", type=float, default=10.0, help="board: seconds over which sessions submit")
    parser.add_argument("--period", type=float, default=1.0, help="board: seconds between refreshes")
    parser.add_argument("--parts", default="scheduler,board,export",
                        help="comma-separated parts to run: scheduler, board, export (export needs board's rooms)")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    ok = True
    if "scheduler" in parts:
        ok &= scheduler_part(args)
    if parts & {"board", "export"}:
        ok &= store_parts(args, parts)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

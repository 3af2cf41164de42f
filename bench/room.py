"""A room on one model server: the endpoint scheduler, fair (round-robin) vs first-come-first-served.

Run: ``.venv/bin/python bench/room.py`` (or ``make bench``); ``--participants 8`` for a quick run.
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
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.llm import ChatRequest, EndpointScheduler, ProviderConfig, ScheduledProvider, collect  # noqa: E402
from evallib.llm.providers import make_provider  # noqa: E402
from tests.fake_llm_server import FakeLLMServer  # noqa: E402

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", type=int, default=30)
    parser.add_argument("--requests", type=int, default=36, help="requests per participant")
    parser.add_argument("--latency", type=float, default=0.5, help="seconds the server takes per answer")
    parser.add_argument("--limit", type=int, default=8, help="requests in flight to the endpoint")
    parser.add_argument("--spread", type=float, default=3.0, help="seconds over which the participants click")
    args = parser.parse_args()
    rng = random.Random(15)
    clicks = sorted(rng.uniform(0, args.spread) for _ in range(args.participants))
    physical = args.participants * args.requests * args.latency / args.limit
    print(f"{args.participants} participants x {args.requests} requests, {args.latency} s per answer, "
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
    return 0 if within_limit and all_ok else 1


if __name__ == "__main__":
    sys.exit(main())

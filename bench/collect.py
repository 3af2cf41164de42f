"""Benchmark of `evallib.llm.collect` against the fake server (tests/fake_llm_server.py), in one run.

Run: ``.venv/bin/python bench/collect.py`` (or ``make bench``). Each answer takes 0.5 s on the
server; every figure below is measured, wall clock:

1. 36 requests sent sequentially, then with max_concurrency 8 and 16: the speed-ups side by side
   (targets: >= 6x at 8, >= 10x at 16);
2. all 36 requests in flight at once (max_concurrency 36) against the slowest of 5 single calls:
   what "as long as the slowest call" means, measured (target: at most 1.5x the slowest single call);
3. ``collect()`` against the plain asyncio client a reader would write (``AsyncOpenAI`` +
   ``asyncio.gather`` behind an ``asyncio.Semaphore(8)``), the same 36 requests on the same server,
   3 runs each alternating, min / median / max of the ratio (target: median at most 1.25x);
4. 20 % of the requests answered 429 (Retry-After: 1 s) once: all 36 must complete, the retries counted.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

from openai import AsyncOpenAI

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.llm import ChatRequest, ProviderConfig, collect, make_provider  # noqa: E402
from tests.fake_llm_server import FakeLLMServer  # noqa: E402

LATENCY_S = 0.5
N_REQUESTS = 36
KEY = "bench-key"
SINGLE_CALLS = 5
RUNS = 3
GATHER_CONCURRENCY = 8
ALL_IN_FLIGHT_TARGET = 1.5
GATHER_TARGET = 1.25


def _requests(tag: str) -> list[ChatRequest]:
    return [ChatRequest.single("fake-ok", "bench", f"{tag} question {i}", max_tokens=20) for i in range(N_REQUESTS)]


def _timed(provider, requests, concurrency):
    start = time.perf_counter()
    results = collect(requests, provider, max_concurrency=concurrency)
    return time.perf_counter() - start, results


async def _gather(base_url: str, requests: list[ChatRequest], concurrency: int) -> tuple[float, int]:
    """The same requests through AsyncOpenAI + asyncio.gather, at most ``concurrency`` at once."""
    client = AsyncOpenAI(base_url=base_url, api_key=KEY, max_retries=3, timeout=30)
    gate = asyncio.Semaphore(concurrency)

    async def one(request: ChatRequest):
        async with gate:
            return await client.chat.completions.create(
                model=request.model, max_tokens=request.max_tokens,
                messages=[{"role": "system", "content": request.system},
                          *({"role": role, "content": content} for role, content in request.messages)])

    start = time.perf_counter()
    answers = await asyncio.gather(*(one(r) for r in requests))
    seconds = time.perf_counter() - start
    await client.close()
    return seconds, sum(bool(a.choices[0].message.content) for a in answers)


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def in_flight_and_gather(server, provider) -> bool:
    """Rows 2 and 3 of the docstring; True when both targets are met."""
    singles = [_timed(provider, _requests(f"single{i}")[:1], 1)[0] for i in range(SINGLE_CALLS)]
    server.reset()
    all_in, results = _timed(provider, _requests("all"), N_REQUESTS)
    peak = server.in_flight_max
    server.reset()
    ratio = all_in / max(singles)
    met_in_flight = ratio <= ALL_IN_FLIGHT_TARGET and all(r.ok for r in results)
    print(f"\nall {N_REQUESTS} requests in flight (peak {peak} at the server): {all_in:.2f} s; single calls "
          f"{spread(singles)} s (min / median / max), slowest {max(singles):.2f} s: {ratio:.2f}x the slowest "
          f"(target <= {ALL_IN_FLIGHT_TARGET:g}x) {'met' if met_in_flight else 'NOT met'}")

    ours, theirs, ratios = [], [], []
    for run in range(RUNS):
        seconds, results = _timed(provider, _requests(f"collect{run}"), GATHER_CONCURRENCY)
        server.reset()
        plain, answered = asyncio.run(_gather(server.openai_base_url, _requests(f"gather{run}"), GATHER_CONCURRENCY))
        server.reset()
        if not (all(r.ok for r in results) and answered == N_REQUESTS):
            print("  a request failed: the comparison is void")
            return False
        ours.append(seconds)
        theirs.append(plain)
        ratios.append(seconds / plain)
    met_gather = statistics.median(ratios) <= GATHER_TARGET
    print(f"\ncollect() vs AsyncOpenAI + asyncio.gather + Semaphore({GATHER_CONCURRENCY}), {N_REQUESTS} requests, "
          f"{RUNS} runs alternating (min / median / max):")
    print(f"  collect() {spread(ours)} s   gather {spread(theirs)} s   ratio {spread(ratios)}x "
          f"(target median <= {GATHER_TARGET:g}x) {'met' if met_gather else 'NOT met'}")
    return met_in_flight and met_gather


def main() -> int:
    with FakeLLMServer(api_key=KEY, latency=LATENCY_S) as server:
        provider = make_provider(ProviderConfig(kind="openai", base_url=server.openai_base_url, api_key=KEY,
                                                max_retries=3, timeout_s=30))
        rows = []
        for concurrency in (1, 8, 16):
            seconds, results = _timed(provider, _requests(f"c{concurrency}"), concurrency)
            rows.append((concurrency, seconds, sum(r.ok for r in results), server.in_flight_max))
            server.reset()
        baseline = rows[0][1]
        print(f"{N_REQUESTS} requests, {LATENCY_S} s latency each (fake server on loopback)")
        print(f"{'concurrency':>11} {'wall s':>8} {'speed-up':>9} {'ok':>4} {'peak in flight':>15}")
        for concurrency, seconds, ok, peak in rows:
            print(f"{concurrency:>11} {seconds:>8.2f} {baseline / seconds:>8.1f}x {ok:>4} {peak:>15}")

        compared = in_flight_and_gather(server, provider)

        server.rate_limit_fraction = 0.2
        seconds, results = _timed(provider, _requests("rl"), 8)
        refused = server.stats[429]
        print(f"\nwith 20 % of requests answered 429 once (Retry-After {server.retry_after} s), concurrency 8:")
        print(f"  completed ok: {sum(r.ok for r in results)}/{N_REQUESTS}, 429 answers sent by the server: "
              f"{refused}, retries counted by collect: {sum(r.retries for r in results)}, wall {seconds:.2f} s")
        speedups = {c: baseline / s for c, s, _, _ in rows}
        ok = speedups[8] >= 6 and speedups[16] >= 10 and all(r.ok for r in results) and compared
        print(f"\ntargets (>= 6x at 8, >= 10x at 16, all in flight and gather as above, all complete under 429): "
              f"{'met' if ok else 'NOT met'}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

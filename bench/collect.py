"""Benchmark of `evallib.llm.collect` against the fake server: concurrency speed-ups and 429 handling.

Run: ``.venv/bin/python bench/collect.py`` (or ``make bench``). Each answer takes 0.5 s on the
server; 36 requests are sent sequentially, then with max_concurrency 8 and 16, in one run, and the
speed-ups are printed side by side. Targets (foundation issue): >= 6x at 8, >= 10x at 16. Then 20 %
of the requests are answered 429 (Retry-After: 1 s) once: all 36 must complete, the retries counted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.llm import ChatRequest, ProviderConfig, collect, make_provider  # noqa: E402
from tests.fake_llm_server import FakeLLMServer  # noqa: E402

LATENCY_S = 0.5
N_REQUESTS = 36
KEY = "bench-key"


def _requests(tag: str) -> list[ChatRequest]:
    return [ChatRequest.single("fake-ok", "bench", f"{tag} question {i}", max_tokens=20) for i in range(N_REQUESTS)]


def _timed(provider, requests, concurrency):
    start = time.perf_counter()
    results = collect(requests, provider, max_concurrency=concurrency)
    return time.perf_counter() - start, results


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

        server.rate_limit_fraction = 0.2
        seconds, results = _timed(provider, _requests("rl"), 8)
        refused = server.stats[429]
        print(f"\nwith 20 % of requests answered 429 once (Retry-After {server.retry_after} s), concurrency 8:")
        print(f"  completed ok: {sum(r.ok for r in results)}/{N_REQUESTS}, 429 answers sent by the server: "
              f"{refused}, retries counted by collect: {sum(r.retries for r in results)}, wall {seconds:.2f} s")
        speedups = {c: baseline / s for c, s, _, _ in rows}
        ok = speedups[8] >= 6 and speedups[16] >= 10 and all(r.ok for r in results)
        print(f"\ntargets (>= 6x at 8, >= 10x at 16, all complete under 429): {'met' if ok else 'NOT met'}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

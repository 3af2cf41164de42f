"""Benchmark of the judge pipeline, ratios measured side by side in one run.

Run: ``.venv/bin/python bench/judge.py`` (or ``make bench``). Targets (docs/README.md#performance):

- chained per case: against the fake server (tests/fake_llm_server.py) with uneven latencies, each
  call waiting between 0.2 and 2 s, at a concurrency that holds every case, the pipeline's wall time
  within 1.3x of its slowest generate+grade chain; and its ratio to the two-phase version (all
  generations, then all gradings). The fake's latency is one knob per server, so each latency gets
  its own server and a small router sends each call to the server of its case and phase. The
  latencies drawn plan a ratio (two-phase: slowest generation + slowest grading; chained: slowest
  generation + grading of one case); the bench prints that plan and, beside it, the ratio measured
  on the wall clock, 3 runs (min / median / max). Only the measured ratio is a result; the plan
  only says what the latencies drawn allow;
- parsing and validating 10,000 judge replies (a realistic mix of statuses) well under a second;
- the analyses of the page on 1,000 cases well under a second.
"""

from __future__ import annotations

import re
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evallib.judging.analyses import (compare_templates, criterion_means, means_by, score_distribution,  # noqa: E402
                                      status_summary, validity_agreement, weakest)
from evallib.judging.biases import injection_effect, position_bias, verbosity_effect  # noqa: E402
from evallib.judging.code_graders import Check  # noqa: E402
from evallib.judging.data import Case, load_cases  # noqa: E402
from evallib.judging.grades import Grade, Verdict, parse_grade  # noqa: E402
from evallib.judging.pipeline import (CaseResult, JudgeConfig, PaddedGrade, PairwiseComparison,  # noqa: E402
                                      run_pipeline)
from evallib.judging.requests import ModelSettings, generation_request, judge_request  # noqa: E402
from evallib.judging.rubric import default_rubric  # noqa: E402
from evallib.judging.templates import default_templates  # noqa: E402
from evallib.llm import ChatResult, ProviderConfig, collect, make_provider  # noqa: E402
from tests.fake_llm_server import FakeLLMServer  # noqa: E402

SEED = 8
N_CASES = 16
LATENCY_RANGE_S = (0.2, 2.0)
#: Latencies are rounded to this step so that a few servers cover every case and phase.
LATENCY_STEP_S = 0.2
CHAIN_TARGET = 1.3
N_REPLIES, N_ANALYSED = 10_000, 1_000
BUDGET_S = 1.0
KEY = "sk-bench-judge"
_TAG = re.compile(r"\[bench-(\d+)\]")


class LatencyRouter:
    """A provider that sends each call to the fake server holding its case's latency for that phase."""

    def __init__(self, providers: dict[float, object], latencies: dict[tuple[int, str], float]) -> None:
        self.providers, self.latencies = providers, latencies

    def fingerprint(self) -> str:
        return "bench-router"

    def chat(self, request):
        case = int(_TAG.search(request.messages[-1][1]).group(1))
        phase = "grade" if request.system else "generate"
        return self.providers[self.latencies[(case, phase)]].chat(request)


def bench_cases() -> list[Case]:
    base = load_cases()
    return [replace(base[i % len(base)], id=f"bench-{i}", input=f"[bench-{i}] {base[i % len(base)].input}")
            for i in range(N_CASES)]


def two_phase(cases, config: JudgeConfig, provider) -> float:
    """All generations, then all gradings (what a first version writes); returns the wall time."""
    start = time.perf_counter()
    answers = collect([generation_request(c, config.template, config.generator) for c in cases], provider, len(cases))
    gradings = [judge_request(c, a.text, config.rubric, config.judge) for c, a in zip(cases, answers)]
    for result, judged in zip(answers, collect(gradings, provider, len(cases))):
        parse_grade(judged, config.rubric, result.text)
    return time.perf_counter() - start


RUNS = 3


def chained_vs_two_phase() -> None:
    rng = np.random.default_rng(SEED)
    steps = np.round(rng.uniform(*LATENCY_RANGE_S, size=(N_CASES, 2)) / LATENCY_STEP_S) * LATENCY_STEP_S
    latencies = {(i, phase): float(round(steps[i, k], 1)) for i in range(N_CASES)
                 for k, phase in enumerate(("generate", "grade"))}
    servers = {value: FakeLLMServer(api_key=KEY, latency=value).start() for value in sorted(set(latencies.values()))}
    chained, slowest, phased = [], [], []
    try:
        providers = {value: make_provider(ProviderConfig(base_url=s.openai_base_url, api_key=KEY, max_retries=0))
                     for value, s in servers.items()}
        router = LatencyRouter(providers, latencies)
        cases = bench_cases()
        settings = ModelSettings("fake-ok")
        config = JudgeConfig(settings, settings, default_rubric(), default_templates()["A"])
        for _ in range(RUNS):
            start = time.perf_counter()
            results = run_pipeline(cases, config, router, max_concurrency=len(cases))
            chained.append(time.perf_counter() - start)
            slowest.append(max(sum(call.latency_s for call in r.calls) for r in results))
            phased.append(two_phase(cases, config, router))
    finally:
        stoppers = [threading.Thread(target=server.stop) for server in servers.values()]
        for thread in stoppers:
            thread.start()
        for thread in stoppers:
            thread.join()
    planned = max(latencies[(i, "generate")] + latencies[(i, "grade")] for i in range(N_CASES))
    phases = max(latencies[(i, "generate")] for i in range(N_CASES)) + max(latencies[(i, "grade")] for i in range(N_CASES))
    to_slowest = [c / s for c, s in zip(chained, slowest)]
    measured = [p / c for p, c in zip(phased, chained)]
    met = statistics.median(to_slowest) <= CHAIN_TARGET
    print(f"{N_CASES} cases, concurrency {N_CASES}, {len(servers)} fake servers, latencies "
          f"{LATENCY_RANGE_S[0]}-{LATENCY_RANGE_S[1]} s per call, {RUNS} runs (min / median / max)")
    print(f"  slowest chain (measured)      {spread(slowest)} s  (planned {planned:.1f} s)")
    print(f"  chained pipeline wall time    {spread(chained)} s  ratio to slowest chain {spread(to_slowest)}x "
          f"(target median <= {CHAIN_TARGET}x: {'OK' if met else 'MISSED'})")
    print(f"  two-phase wall time           {spread(phased)} s  (planned {phases:.1f} s)")
    print(f"  two-phase / chained: planned {phases / planned:.2f}x from the latencies drawn; "
          f"measured {spread(measured)}x")


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def replies(n: int, rng) -> list[ChatResult]:
    """A mix of judge replies: valid, fenced, in prose, inconsistent, out of range, cut, empty."""
    out = []
    for i in range(n):
        f, v, a = (int(x) for x in rng.integers(0, (4, 5, 4)))
        body = (f'{{"strengths": "Points forts du cas {i}.", "weaknesses": "Points faibles.", "reasoning": '
                f'"Raisonnement critère par critère, assez long pour ressembler à une vraie réponse de juge.", '
                f'"scores": {{"FORMAT": {f}, "VALIDITY": {v}, "ADEQUACY": {a}}}, "total": {f + v + a}}}')
        kind = i % 7
        text = [f"<grade>\n{body}\n</grade>", f"```json\n{body}\n```", f"Voici mon avis.\n{body}\nVoilà.",
                body.replace(f'"total": {f + v + a}', f'"total": {f + v + a + 1}'), body.replace(f'"FORMAT": {f}', '"FORMAT": 7'),
                body[: len(body) // 2], "La réponse mérite 8/10."][kind]
        out.append(ChatResult(request_key=str(i), text=text))
    return out


def synthetic_results(n: int, rng) -> tuple[list[CaseResult], list[CaseResult]]:
    types, difficulties = ("Python", "JSON", "Regex"), ("easy", "medium", "hard")
    a, b = [], []
    for i in range(n):
        case = Case(f"c{i}", "demande", types[i % 3], "contexte", difficulties[(i // 3) % 3])
        for out in (a, b):
            f, v, q = (int(x) for x in rng.integers(0, (4, 5, 4)))
            grade = Grade("scored", {"FORMAT": f, "VALIDITY": v, "ADEQUACY": q}, f + v + q) if i % 11 else Grade("unparseable")
            checks = (Check("length", True), Check("python_parses", bool(rng.random() < 0.8)))
            out.append(CaseResult(case, "A", "r", checks, grade, "r", (), ("asks_for_score",) if i % 97 == 0 else (),
                                  grade))
    return a, b


def analyses(a, b, rubric) -> None:
    means_by(a, "type", rubric.max_total), means_by(a, "difficulty", rubric.max_total)
    score_distribution(a, rubric), weakest(a), criterion_means(a, rubric), status_summary(a)
    validity_agreement(a, rubric), compare_templates(a, b), injection_effect(a)
    verbosity_effect([PaddedGrade(r.case.id, r.grade, s.grade, ()) for r, s in zip(a, b)])
    position_bias([PairwiseComparison(r.case.id, False, Verdict("scored", "first"), Verdict("scored", "second"))
                   for r in a])


def main() -> None:
    chained_vs_two_phase()
    rng = np.random.default_rng(SEED)
    rubric = default_rubric()
    batch = replies(N_REPLIES, rng)
    start = time.perf_counter()
    statuses = [parse_grade(r, rubric).status for r in batch]
    parsing = time.perf_counter() - start
    print(f"parse + validate {N_REPLIES:,} judge replies: {parsing:.3f} s (budget {BUDGET_S} s; "
          f"{statuses.count('scored')} scored, {len(statuses) - statuses.count('scored')} not)")
    a, b = synthetic_results(N_ANALYSED, rng)
    start = time.perf_counter()
    analyses(a, b, rubric)
    print(f"analyses on {N_ANALYSED:,} cases: {time.perf_counter() - start:.3f} s (budget {BUDGET_S} s)")


if __name__ == "__main__":
    main()

"""The pipeline, chained per case: generate -> code graders -> judge, as soon as the answer arrives.

Each case is one chain run in a worker thread (`run_case`), so a case whose generation is quick is
graded while slower generations are still running: the wall time is that of the slowest chain, not
the slowest generation plus the slowest grading of two separate phases (bench/judge.py measures
both). As in `evallib.llm.collect`, the calling thread waits on the chains and calls ``on_progress``
itself, so a page can draw progress from it; no worker touches anything but the provider.

Any `Provider` answers (live, replay of recordings, fallback, recording), so the same functions run
offline, live and in tests. Calls per case: one generation and one grading (none when the response
is empty: code scores it 0), plus one grading of the cleaned copy of a response flagged for
injection, plus a retry without prefill when the judge refuses one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TypeVar

from evallib.judging.code_graders import Check, grade_by_code
from evallib.judging.data import Case
from evallib.judging.grades import (Grade, Verdict, code_grade_of_empty, generation_failed, parse_grade,
                                    parse_verdict)
from evallib.judging.injection import injection_flags, without_injection
from evallib.judging.judge_prompt import blind, erased_by_blinding, pad
from evallib.judging.requests import ModelSettings, generation_request, judge_request, pairwise_request
from evallib.judging.rubric import Rubric
from evallib.judging.wording import FRENCH_WORDING, JudgeWording
from evallib.llm import ChatRequest, ChatResult
from evallib.llm.collect import DEFAULT_CONCURRENCY, PROGRESS_INTERVAL_S, answer

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")


@dataclass(frozen=True)
class JudgeConfig:
    """One run: who generates, who judges, with which rubric and template.

    ``blinding``: strip self-identifying lines before grading. ``injection_probe``: also grade a
    flagged response without its injected lines, to see whether the score moved. ``wording``: the
    judge's sentences in the workshop's language (`evallib.judging.wording.judge_wording`).
    """

    generator: ModelSettings
    judge: ModelSettings
    rubric: Rubric
    template: str
    template_name: str = "A"
    blinding: bool = True
    injection_probe: bool = True
    wording: JudgeWording = FRENCH_WORDING


@dataclass(frozen=True)
class CaseResult:
    """Everything one chain produced. ``calls``: every model call made, in order (for cost and time).

    ``blinding_erased``: blinding was on and would have erased the whole response (it only named its
    model): the judge graded it as written, and the bias probes leave it out.
    """

    case: Case
    template_name: str
    response: str
    checks: tuple[Check, ...]
    grade: Grade
    graded_text: str = ""
    removed_lines: tuple[str, ...] = ()
    injection: tuple[str, ...] = ()
    clean_grade: Grade | None = None
    calls: tuple[ChatResult, ...] = ()
    blinding_erased: bool = False

    @property
    def generation(self) -> ChatResult:
        return self.calls[0]

    @property
    def grading(self) -> ChatResult | None:
        """The judge's call whose answer is ``grade`` (None when code graded or the generation failed)."""
        if self.grade.by != "judge" or len(self.calls) < 2:
            return None
        retried = self.calls[1].error_kind == "prefill_unsupported" and len(self.calls) > 2  # see `call_judge`
        return self.calls[2 if retried else 1]

    @property
    def recorded(self) -> bool:
        """False when replaying recordings that hold no answer to its generation or its grading: the
        case is not recorded (nothing failed), which a page says apart from errors."""
        return self.grade.details.get("error_kind") != "missing_recording"


@dataclass(frozen=True)
class ChainProgress:
    """State after each finished chain, and every `PROGRESS_INTERVAL_S` while none finishes.

    ``unscored`` counts grades whose status is not ``scored``; ``last`` is the outcome that has just
    arrived (None on a periodic report); ``queued_behind_others``: calls of this run waiting for the
    shared endpoint while other sessions' calls hold it (`evallib.llm.scheduler.Lane`), 0 without a lane.
    """

    done: int
    total: int
    unscored: int
    elapsed_s: float
    last: object
    queued_behind_others: int = 0


def call_judge(provider, build: Callable[[ModelSettings], ChatRequest],
               settings: ModelSettings) -> tuple[ChatResult, ...]:
    """The judge's answer to ``build(settings)``; on a prefill refusal, once more without prefill.

    Returns every call made (the last one is the answer).
    """
    first = answer(provider, build(settings))
    if first.error_kind == "prefill_unsupported" and settings.kind == "anthropic" and settings.prefill:
        return first, answer(provider, build(settings.without_prefill()))
    return (first,)


def run_case(case: Case, config: JudgeConfig, provider) -> CaseResult:
    """One chain: generate, run the code graders, then grade (see the module docstring)."""
    generation = answer(provider, generation_request(case, config.template, config.generator, config.template_name))
    if generation.failed:
        return CaseResult(case, config.template_name, "", (), generation_failed(generation), calls=(generation,))
    response = generation.text
    checks = grade_by_code(case, response)
    if not response.strip():
        return CaseResult(case, config.template_name, response, checks, code_grade_of_empty(config.rubric),
                          calls=(generation,))
    graded, removed = blind(response) if config.blinding else (response, ())
    judged = call_judge(provider, lambda s: judge_request(case, graded, config.rubric, s, config.wording), config.judge)
    grade = parse_grade(judged[-1], config.rubric, graded)
    calls = (generation, *judged)
    flags = injection_flags(response, config.rubric.names)
    clean_grade = None
    cleaned = without_injection(graded, config.rubric.names)
    if flags and config.injection_probe and cleaned.strip():
        cleaned_calls = call_judge(provider, lambda s: judge_request(case, cleaned, config.rubric, s, config.wording),
                                   config.judge)
        clean_grade = parse_grade(cleaned_calls[-1], config.rubric, cleaned)
        calls += cleaned_calls
    return CaseResult(case, config.template_name, response, checks, grade, graded, removed, flags, clean_grade, calls,
                      config.blinding and erased_by_blinding(response))


def run_chains(items: Sequence[Item], chain: Callable[[Item], Outcome], max_concurrency: int = DEFAULT_CONCURRENCY,
               on_progress: Callable[[ChainProgress], None] | None = None,
               unscored: Callable[[Outcome], bool] = lambda _: False, *, lane=None) -> list[Outcome]:
    """``chain(item)`` for every item, ``max_concurrency`` at a time; ``outcomes[i]`` is item i's.

    ``on_progress`` runs in the calling thread after each chain and every `PROGRESS_INTERVAL_S` while
    none ends (then with ``last=None``); an exception it raises ends the run at once (chains not
    started are cancelled, and so are the calls ``lane`` still queues) and propagates. ``lane``: the
    `evallib.llm.scheduler.Lane` the chains' live calls go through (a `ScheduledProvider` inside the
    provider), as `evallib.llm.collect` takes it; None when there is none. Raises ValueError if
    ``max_concurrency`` < 1.
    """
    if max_concurrency < 1:
        raise ValueError(f"max_concurrency must be at least 1, got {max_concurrency}")
    outcomes: list = [None] * len(items)
    start, done, failed = time.perf_counter(), 0, 0

    def report(last) -> None:
        on_progress(ChainProgress(done, len(items), failed, time.perf_counter() - start, last,
                                  lane.queued_behind_others() if lane is not None else 0))

    pool = ThreadPoolExecutor(max_workers=min(max_concurrency, max(len(items), 1)))
    try:
        futures = {pool.submit(chain, item): i for i, item in enumerate(items)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=PROGRESS_INTERVAL_S, return_when=FIRST_COMPLETED)
            for future in finished:
                outcome = future.result()
                outcomes[futures[future]] = outcome
                done += 1
                failed += unscored(outcome)
                if on_progress is not None:
                    report(outcome)
            if on_progress is not None and not finished:
                report(None)
    except BaseException:
        # Interrupted (e.g. a page's script stopped by a click, from ``on_progress``): chains not yet
        # started never start, the caller does not wait for those in flight, and their calls waiting
        # for the shared endpoint are dropped from its queue (as `collect` does).
        pool.shutdown(wait=False, cancel_futures=True)
        if lane is not None:
            lane.cancel()
        raise
    pool.shutdown()
    return outcomes


def run_pipeline(cases: Sequence[Case], config: JudgeConfig, provider, max_concurrency: int = DEFAULT_CONCURRENCY,
                 on_progress: Callable[[ChainProgress], None] | None = None) -> list[CaseResult]:
    """`run_case` for every case, chained per case; ``results[i]`` is ``cases[i]``'s."""
    return run_chains(cases, lambda case: run_case(case, config, provider), max_concurrency, on_progress,
                      lambda result: not result.grade.scored)


def verbosity_candidates(results: Sequence[CaseResult]) -> list[CaseResult]:
    """The results the verbosity probe pads: scored by the judge, and not erased by blinding."""
    return [r for r in results if r is not None and r.grade.scored and r.grade.by == "judge" and not r.blinding_erased]


def pairwise_candidates(results_a: Sequence[CaseResult], results_b: Sequence[CaseResult]
                        ) -> list[tuple[CaseResult, CaseResult]]:
    """(A, B) results of the same case (by id) that the position probe compares: both responses were
    graded, and blinding would have erased neither."""
    by_id = {r.case.id: r for r in results_b if r is not None}
    return [(a, by_id[a.case.id]) for a in results_a if a is not None and a.case.id in by_id
            and a.graded_text and by_id[a.case.id].graded_text
            and not (a.blinding_erased or by_id[a.case.id].blinding_erased)]


@dataclass(frozen=True)
class PaddedGrade:
    """The verbosity probe of one case: the grade of a padded copy of its (graded) response."""

    case_id: str
    original: Grade
    padded: Grade
    calls: tuple[ChatResult, ...]


def run_verbosity(results: Sequence[CaseResult], config: JudgeConfig, provider,
                  max_concurrency: int = DEFAULT_CONCURRENCY,
                  on_progress: Callable[[ChainProgress], None] | None = None) -> list[PaddedGrade]:
    """Grade a padded copy (`pad`) of every response `verbosity_candidates` keeps."""
    chosen = verbosity_candidates(results)

    def probe(result: CaseResult) -> PaddedGrade:
        padded = pad(result.graded_text, config.wording)
        calls = call_judge(provider, lambda s: judge_request(result.case, padded, config.rubric, s, config.wording),
                           config.judge)
        return PaddedGrade(result.case.id, result.grade, parse_grade(calls[-1], config.rubric, padded), calls)
    return run_chains(chosen, probe, max_concurrency, on_progress, lambda p: not p.padded.scored)


@dataclass(frozen=True)
class PairwiseComparison:
    """Template A's and B's responses to one case judged in both orders.

    ``ab``: verdict with A shown first; ``ba``: with B first. ``identical``: the two responses are the
    same text, so the comparison is a tie by code and no call is made.
    """

    case_id: str
    identical: bool
    ab: Verdict | None
    ba: Verdict | None
    calls: tuple[ChatResult, ...] = ()


def run_pairwise(results_a: Sequence[CaseResult], results_b: Sequence[CaseResult], config: JudgeConfig,
                 provider, max_concurrency: int = DEFAULT_CONCURRENCY,
                 on_progress: Callable[[ChainProgress], None] | None = None) -> list[PairwiseComparison]:
    """Judge A vs B in both orders for each pair `pairwise_candidates` keeps."""
    pairs = pairwise_candidates(results_a, results_b)

    def compare(pair: tuple[CaseResult, CaseResult]) -> PairwiseComparison:
        a, b = pair
        if a.graded_text.strip() == b.graded_text.strip():
            return PairwiseComparison(a.case.id, True, None, None)
        both = a.graded_text + "\n" + b.graded_text
        ab = call_judge(provider, lambda s: pairwise_request(a.case, a.graded_text, b.graded_text, config.rubric, s,
                                                             config.wording), config.judge)
        ba = call_judge(provider, lambda s: pairwise_request(a.case, b.graded_text, a.graded_text, config.rubric, s,
                                                             config.wording), config.judge)
        return PairwiseComparison(a.case.id, False, parse_verdict(ab[-1], both), parse_verdict(ba[-1], both), ab + ba)
    return run_chains(pairs, compare, max_concurrency, on_progress)

"""What the grades say, as data and readings: means with intervals, distribution, weakest cases,
per-criterion means, statuses, code grader vs judge, judge vs human, template A vs B, cost.

Only ``scored`` grades enter a mean; every other status is counted and listed. Each function returns
plain data plus `Reading`s (code + values) that the page words through its catalogue.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evallib.agreement import BOTH_RATERS_CONSTANT, CONSTANT_RATER, KappaResult, cohen_kappa
from evallib.judging.code_graders import code_validity
from evallib.judging.data import DIFFICULTIES, TYPES, JudgeDataError
from evallib.judging.grades import STATUSES
from evallib.judging.pipeline import CaseResult
from evallib.judging.rubric import Rubric
from evallib.paired import PairedTest, paired_code, paired_values, sign_flip_test
from evallib.readings import Reading

CONFIDENCE = 0.95
WEAKEST_COUNT = 3
#: The judge calls a response valid when it gives at least half of the validity points (2 of 4 by
#: default): below that it says the code would not run as is, which is what the code graders test.
VALIDITY_PASS_SHARE = 0.5
#: Quadratic weights, as for ordinal scores: a 2-point disagreement costs four times a 1-point one.
HUMAN_WEIGHTS = "quadratic"


@dataclass(frozen=True)
class MeanCI:
    """Mean of ``n`` values with a Student t interval (None when n < 2; equal ends when all are equal)."""

    n: int
    mean: float | None
    low: float | None
    high: float | None


def mean_ci(values: Sequence[float], confidence: float = CONFIDENCE,
            bounds: tuple[float, float] | None = None) -> MeanCI:
    """Mean and t interval: mean ± t(n-1) · s / sqrt(n) (s: sample standard deviation, ddof 1).

    ``bounds``: the range the values can take (0 to the rubric's total for scores); the interval is
    clipped to it, as a t interval on a few bounded scores can reach past the scale.

    >>> mean_ci([6, 8, 10])
    MeanCI(n=3, mean=8.0, low=3.031..., high=12.968...)
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return MeanCI(0, None, None, None)
    mean = float(x.mean())
    if x.size == 1:
        return MeanCI(1, mean, None, None)
    half = float(stats.t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return MeanCI(int(x.size), mean, low, high)



@dataclass(frozen=True)
class GroupMean:
    group: str
    cases: int
    unscored: int
    stat: MeanCI


def _ordered(groups: set[str], order: Sequence[str]) -> list[str]:
    return [g for g in order if g in groups] + sorted(groups - set(order))


def means_by(results: Sequence[CaseResult], key: str, max_total: int | None = None
             ) -> tuple[list[GroupMean], list[Reading]]:
    """Mean score per ``key`` ("type" or "difficulty") with n and interval (clipped to 0..``max_total``
    when given), and readings:
    ``single_case_group`` (one scored case: no interval), ``zero_width_interval`` (every score equal),
    ``group_all_unscored`` (no scored grade in the group)."""
    order = TYPES if key == "type" else DIFFICULTIES
    groups = _ordered({getattr(r.case, key) for r in results}, order)
    rows, readings = [], []
    for group in groups:
        members = [r for r in results if getattr(r.case, key) == group]
        scores = [r.grade.score for r in members if r.grade.scored]
        row = GroupMean(group, len(members), len(members) - len(scores), mean_ci(scores, bounds=None if max_total is None else (0, max_total)))
        rows.append(row)
        values = {"key": key, "group": group, "n": row.stat.n, "mean": row.stat.mean}
        if row.stat.n == 0:
            readings.append(Reading("group_all_unscored", {**values, "cases": len(members)}))
        elif row.stat.n == 1:
            readings.append(Reading("single_case_group", values))
        elif row.stat.low == row.stat.high:
            readings.append(Reading("zero_width_interval", values))
    return rows, readings


def score_distribution(results: Sequence[CaseResult], rubric: Rubric) -> list[int]:
    """``counts[s]``: scored grades with total s, for s = 0..max_total."""
    counts = [0] * (rubric.max_total + 1)
    for r in results:
        if r.grade.scored:
            counts[r.grade.score] += 1
    return counts


def weakest(results: Sequence[CaseResult], count: int = WEAKEST_COUNT) -> tuple[list[CaseResult], list[Reading]]:
    """The ``count`` lowest-scored cases, and every case tied with the last of them.

    When more cases share the boundary score than places remain, all of them are returned (picking
    some would be arbitrary) with the reading ``weakest_tie`` (boundary score, how many tie, places).
    """
    scored = sorted((r for r in results if r.grade.scored), key=lambda r: r.grade.score)
    if not scored:
        return [], [Reading("weakest_none", {})]
    boundary = scored[min(count, len(scored)) - 1].grade.score
    chosen = [r for r in scored if r.grade.score <= boundary]
    readings = []
    if len(chosen) > count:
        tied = sum(r.grade.score == boundary for r in chosen)
        readings.append(Reading("weakest_tie", {"score": boundary, "tied": tied, "shown": len(chosen),
                                                "places": count - (len(chosen) - tied)}))
    return chosen, readings


@dataclass(frozen=True)
class CriterionMean:
    name: str
    max_points: int
    stat: MeanCI

    @property
    def share(self) -> float | None:
        """Mean as a share of the criterion's maximum, in [0, 1]."""
        return None if self.stat.mean is None else self.stat.mean / self.max_points


def criterion_means(results: Sequence[CaseResult], rubric: Rubric) -> list[CriterionMean]:
    """Per-criterion mean over scored grades (by the judge or by code)."""
    scored = [r.grade for r in results if r.grade.scored]
    return [CriterionMean(c.name, c.max_points, mean_ci([g.scores[c.name] for g in scored], bounds=(0, c.max_points))) for c in rubric.criteria]


@dataclass(frozen=True)
class StatusSummary:
    counts: dict[str, int]
    unscored: list[CaseResult]
    share_unscored: float | None


def status_summary(results: Sequence[CaseResult]) -> tuple[StatusSummary, list[Reading]]:
    """Counts per status, the unscored cases (listed with the judge's raw text on the page), and
    readings ``no_cases``, ``all_unscored``, ``some_unscored``, ``empty_scored_by_code``."""
    counts = Counter(r.grade.status for r in results)
    unscored = [r for r in results if not r.grade.scored]
    summary = StatusSummary({s: counts.get(s, 0) for s in STATUSES}, unscored,
                            len(unscored) / len(results) if results else None)
    if not results:
        return summary, [Reading("no_cases", {})]
    readings = []
    if len(unscored) == len(results):
        readings.append(Reading("all_unscored", {"total": len(results)}))
    elif unscored:
        readings.append(Reading("some_unscored", {"count": len(unscored), "total": len(results),
                                                  "share": summary.share_unscored}))
    by_code = [r.case.id for r in results if r.grade.by == "code"]
    if by_code:
        readings.append(Reading("empty_scored_by_code", {"count": len(by_code), "cases": ", ".join(by_code)}))
    return summary, readings


def _kappa_reading(prefix: str, result: KappaResult) -> Reading:
    values = {"kappa": result.kappa, "agreement": result.agreement, "n": result.n, "low": result.ci_low,
              "high": result.ci_high}
    if result.note == BOTH_RATERS_CONSTANT:
        return Reading(f"{prefix}_kappa_undefined", values)
    if result.note == CONSTANT_RATER:
        return Reading(f"{prefix}_constant_rater", values)
    return Reading(f"{prefix}_kappa", values)


@dataclass(frozen=True)
class ValidityAgreement:
    """Paired validity verdicts (1 valid, 0 not) per case: ``code`` from the code graders, ``model``
    from the judge's criterion; ``kappa`` None when fewer than two cases have both."""

    case_ids: list[str]
    code: list[int]
    model: list[int]
    kappa: KappaResult | None


def validity_agreement(results: Sequence[CaseResult], rubric: Rubric,
                       criterion: str = "VALIDITY") -> tuple[ValidityAgreement, list[Reading]]:
    """Code grader vs model grader on validity: agreement and Cohen's kappa (evallib.agreement).

    The judge says valid when it gives at least `VALIDITY_PASS_SHARE` of the criterion's points.
    Readings: ``no_validity_criterion``, ``validity_too_few``, ``validity_kappa``,
    ``validity_kappa_undefined`` (both always said the same thing), ``validity_constant_rater``.
    """
    found = rubric.criterion(criterion)
    empty = ValidityAgreement([], [], [], None)
    if found is None:
        return empty, [Reading("no_validity_criterion", {"criterion": criterion})]
    threshold = math.ceil(VALIDITY_PASS_SHARE * found.max_points)
    ids, code, model = [], [], []
    for r in results:
        verdict = code_validity(r.checks)
        if r.grade.scored and r.grade.by == "judge" and verdict is not None:
            ids.append(r.case.id)
            code.append(int(verdict))
            model.append(int(r.grade.scores[criterion] >= threshold))
    if len(ids) < 2:
        return ValidityAgreement(ids, code, model, None), [Reading("validity_too_few", {"n": len(ids)})]
    kappa = cohen_kappa(code, model)
    return ValidityAgreement(ids, code, model, kappa), [_kappa_reading("validity", kappa)]


class HumanScoresError(JudgeDataError):
    """Human scores that cannot be used (codes: bad_line, unknown_case, not_integer, out_of_range, duplicate)."""


def parse_human_scores(text: str, case_ids: Sequence[str], max_total: int) -> dict[str, int]:
    """Human scores typed or uploaded as lines ``case_id,score`` (``;`` or a tab also separate; a first
    line ``case_id,score`` is a header). Blank lines are skipped. Raises `HumanScoresError` naming the line."""
    known, scores = set(case_ids), {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.replace(";", ",").replace("\t", ",").split(",")]
        if number == 1 and parts[:1] == ["case_id"]:
            continue
        if len(parts) != 2:
            raise HumanScoresError("bad_line", f"line {number}: expected 'case_id,score'", line=number)
        case_id, raw = parts
        if case_id not in known:
            raise HumanScoresError("unknown_case", f"line {number}: no case {case_id!r}", line=number, case=case_id)
        if case_id in scores:
            raise HumanScoresError("duplicate", f"line {number}: case {case_id!r} scored twice", line=number, case=case_id)
        if not raw.isdigit():
            raise HumanScoresError("not_integer", f"line {number}: {raw!r} is not a whole number", line=number, value=raw)
        if int(raw) > max_total:
            raise HumanScoresError("out_of_range", f"line {number}: {raw} is above {max_total}", line=number,
                                   value=int(raw), max=max_total)
        scores[case_id] = int(raw)
    return scores


def human_agreement(results: Sequence[CaseResult], human: dict[str, int],
                    rubric: Rubric) -> tuple[KappaResult | None, list[Reading]]:
    """Weighted (quadratic) Cohen's kappa between the judge's totals and human scores, on the cases
    scored by both. Readings: ``human_too_few``, ``human_kappa``, ``human_kappa_undefined``,
    ``human_constant_rater``."""
    pairs = [(r.grade.score, human[r.case.id]) for r in results if r.grade.scored and r.case.id in human]
    if len(pairs) < 2:
        return None, [Reading("human_too_few", {"n": len(pairs)})]
    kappa = cohen_kappa([p[0] for p in pairs], [p[1] for p in pairs], weights=HUMAN_WEIGHTS,
                        categories=range(rubric.max_total + 1))
    return kappa, [_kappa_reading("human", kappa)]


@dataclass(frozen=True)
class TemplateComparison:
    """Paired differences B - A over cases scored under both templates, and their sign-flip test
    (`evallib.paired`: the case is the unit of the test and of its interval)."""

    case_ids: list[str]
    differences: list[int]
    test: PairedTest
    wins_b: int
    ties: int
    wins_a: int
    excluded: int


#: Reading code of `compare_templates` for each conclusion of `evallib.paired.paired_code`.
_AB_CODES = {"no_pairs": "ab_no_pairs", "all_zero": "ab_all_ties", "positive": "ab_b_better",
             "negative": "ab_a_better", "too_few": "ab_too_few", "cannot_tell": "ab_cannot_tell"}


def compare_templates(results_a: Sequence[CaseResult], results_b: Sequence[CaseResult]
                      ) -> tuple[TemplateComparison, list[Reading]]:
    """Template A vs B on the same cases: paired differences B - A (points), the exact sign-flip
    test of "no difference", the mean difference with its test-inversion interval (unit: the case),
    and wins / ties / losses. The interval lies within the range of the differences, and is None
    when no test can conclude at this size (fewer than six cases).

    Readings (first, always one): ``ab_no_pairs`` (no case scored under both), ``ab_all_ties``
    (every difference 0), ``ab_b_better`` / ``ab_a_better`` (the test concludes, p <= 0.05),
    ``ab_too_few`` (with n cases p cannot fall below 2 / 2^n > 0.05), ``ab_cannot_tell`` (n, p).
    Then ``ab_equal_differences`` when every difference is the same non-zero value: the interval
    has zero width, which does not mean the difference is known exactly.
    """
    b_scores = {r.case.id: r.grade.score for r in results_b}
    ids, diffs = [], []
    for r in results_a:
        other = b_scores.get(r.case.id)
        if r.grade.scored and other is not None:
            ids.append(r.case.id)
            diffs.append(other - r.grade.score)
    test = sign_flip_test(diffs)
    comparison = TemplateComparison(ids, diffs, test, test.positive, test.zero, test.negative,
                                    len(set(r.case.id for r in results_a)) - len(ids))
    values = {**paired_values(test), "wins_b": test.positive, "ties": test.zero, "wins_a": test.negative}
    readings = [Reading(_AB_CODES[paired_code(test)], values)]
    if test.n > 1 and test.positive + test.negative == test.n and len(set(diffs)) == 1:
        readings.append(Reading("ab_equal_differences", {"n": test.n, "difference": diffs[0]}))
    return comparison, readings


@dataclass(frozen=True)
class Cost:
    """Calls made, tokens (None when no call reported them) and the sum of call latencies in seconds."""

    calls: int
    input_tokens: int | None
    output_tokens: int | None
    latency_s: float | None


def cost(*groups: Sequence) -> Cost:
    """Totals over every call of the given results (`CaseResult`, `PaddedGrade`, `PairwiseComparison`)."""
    calls = [call for group in groups for item in group for call in item.calls]

    def total(name: str):
        known = [getattr(c, name) for c in calls if getattr(c, name) is not None]
        return sum(known) if known else None
    return Cost(len(calls), total("input_tokens"), total("output_tokens"), total("latency_s"))

"""A judge run as one JSON-ready report, and the CI gate on it (the page and the CLI share both).

The gate (for teams that gate a prompt change): fail when the share of unscored grades is above a
limit (the mean would describe another set than the one chosen), or when the mean score is below a
minimum. Reading codes: ``gate_no_cases``, ``gate_all_unscored``, ``gate_unscored_over_limit``,
``gate_below_min``, ``gate_pass``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from evallib.judging.analyses import (compare_templates, cost, criterion_means, mean_ci, means_by,
                                      score_distribution, status_summary, validity_agreement, weakest)
from evallib.judging.biases import (blinding_summary, injection_effect, position_bias, self_preference,
                                    verbosity_effect)
from evallib.judging.pipeline import CaseResult, JudgeConfig, PaddedGrade, PairwiseComparison
from evallib.readings import Reading

#: Largest share of unscored grades the gate accepts by default: beyond one in ten, the mean no
#: longer describes the chosen cases.
DEFAULT_MAX_UNSCORED_SHARE = 0.10


@dataclass(frozen=True)
class GateResult:
    passed: bool
    reading: Reading


def judge_gate(results: Sequence[CaseResult], min_mean: float,
               max_unscored_share: float = DEFAULT_MAX_UNSCORED_SHARE) -> GateResult:
    """Pass when the unscored share is at most ``max_unscored_share`` and the mean score (points, as the
    rubric's total) at least ``min_mean``. Values: mean, min_mean, unscored_share, max_unscored_share, n, total."""
    scored = [r.grade.score for r in results if r.grade.scored]
    stat = mean_ci(scored)
    share = (len(results) - len(scored)) / len(results) if results else None
    values = {"mean": stat.mean, "min_mean": min_mean, "unscored_share": share,
              "max_unscored_share": max_unscored_share, "n": len(scored), "total": len(results)}
    if not results:
        return GateResult(False, Reading("gate_no_cases", values))
    if not scored:
        return GateResult(False, Reading("gate_all_unscored", values))
    if share > max_unscored_share:
        return GateResult(False, Reading("gate_unscored_over_limit", values))
    if stat.mean < min_mean:
        return GateResult(False, Reading("gate_below_min", values))
    return GateResult(True, Reading("gate_pass", values))


def _readings(readings: Sequence[Reading]) -> list[dict]:
    return [{"code": r.code, "values": r.values} for r in readings]


def case_row(result: CaseResult) -> dict:
    """One case of the report: identity, status, score, problem, code checks, injection, raw judge text."""
    return {"id": result.case.id, "type": result.case.type, "difficulty": result.case.difficulty,
            "template": result.template_name, "grade": result.grade.to_dict(),
            "checks": [asdict(c) for c in result.checks], "blinded_lines": list(result.removed_lines),
            "injection": list(result.injection),
            "clean_score": result.clean_grade.score if result.clean_grade else None,
            "calls": len(result.calls)}


def report_to_dict(results: Sequence[CaseResult], config: JudgeConfig,
                   results_b: Sequence[CaseResult] = (), duration_s: float | None = None) -> dict:
    """Every analysis of a run (and of template B's run, when given) as plain JSON-ready data."""
    rubric = config.rubric
    by_type, type_readings = means_by(results, "type", rubric.max_total)
    by_difficulty, difficulty_readings = means_by(results, "difficulty", rubric.max_total)
    summary, status_readings = status_summary(results)
    weakest_rows, weakest_readings = weakest(results)
    validity, validity_readings = validity_agreement(results, rubric)
    injected, injection_readings = injection_effect(results, rubric.max_total)
    readings = [*status_readings, *type_readings, *difficulty_readings, *weakest_readings, *validity_readings,
                *injection_readings, *self_preference(config.generator.model, config.judge.model),
                *blinding_summary(results)]
    data = {
        "generator": config.generator.model, "judge": config.judge.model, "template": config.template_name,
        "rubric": rubric.to_dict(), "max_total": rubric.max_total,
        "mean": asdict(mean_ci([r.grade.score for r in results if r.grade.scored], bounds=(0, rubric.max_total))),
        "by_type": [{"group": g.group, "cases": g.cases, "unscored": g.unscored, **asdict(g.stat)} for g in by_type],
        "by_difficulty": [{"group": g.group, "cases": g.cases, "unscored": g.unscored, **asdict(g.stat)}
                          for g in by_difficulty],
        "distribution": score_distribution(results, rubric),
        "statuses": summary.counts, "unscored_share": summary.share_unscored,
        "weakest": [{"id": r.case.id, "score": r.grade.score, "weaknesses": r.grade.weaknesses} for r in weakest_rows],
        "criteria": [{"name": c.name, "max_points": c.max_points, **asdict(c.stat)}
                     for c in criterion_means(results, rubric)],
        "validity": {"cases": validity.case_ids, "code": validity.code, "model": validity.model,
                     "kappa": validity.kappa.kappa if validity.kappa else None,
                     "agreement": validity.kappa.agreement if validity.kappa else None},
        "injection": [{"id": row.case_id, "flags": list(row.flags), "score": row.score,
                       "clean_score": row.clean_score, "moved": row.moved} for row in injected],
        "cost": asdict(cost(results, results_b)), "duration_s": duration_s,
        "cases": [case_row(r) for r in results],
    }
    if results_b:
        comparison, ab_readings = compare_templates(results, results_b)
        readings += ab_readings
        data["template_b"] = {"mean": asdict(mean_ci([r.grade.score for r in results_b if r.grade.scored],
                                                           bounds=(0, rubric.max_total))),
                              "statuses": status_summary(results_b)[0].counts,
                              "paired": {"cases": comparison.case_ids, "differences": comparison.differences,
                                         **asdict(comparison.test), "wins_b": comparison.wins_b,
                                         "ties": comparison.ties, "wins_a": comparison.wins_a},
                              "cases": [case_row(r) for r in results_b]}
    data["readings"] = _readings(readings)
    return data


def probes_to_dict(padded: Sequence[PaddedGrade], comparisons: Sequence[PairwiseComparison],
                   max_total: int | None = None) -> dict:
    """The bias probes as JSON-ready data: verbosity (padded copies) and position (both orders), each
    with its exact sign-flip test; ``max_total`` (the rubric's) tells a score ceiling from no effect."""
    effect, verbosity_readings = verbosity_effect(padded, max_total)
    bias, position_readings = position_bias(comparisons)
    return {
        "verbosity": {"cases": effect.case_ids, "changes": effect.changes, **asdict(effect.test), "up": effect.up,
                      "same": effect.same, "down": effect.down, "unread": effect.unread,
                      "readings": _readings(verbosity_readings)},
        "position": {"final": bias.final, "compared": bias.compared, "flips": bias.flips, "flip_rate": bias.flip_rate,
                     "first_wins": bias.first_wins, "verdicts": bias.verdicts, "identical": bias.identical,
                     "unread": bias.unread, "slot_test": asdict(bias.slot_test),
                     "readings": _readings(position_readings)},
        "cost": asdict(cost(padded, comparisons)),
    }

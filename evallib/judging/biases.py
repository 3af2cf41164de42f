"""The judge's biases, measured: position, verbosity, self-preference, and injection's effect.

Zheng et al. 2023 (MT-Bench, "Judging LLM-as-a-judge"): verdicts flip with the order of the
answers, padding fools weaker judges, judges favour their own outputs. The controls here: judge both
orders and call a disagreement a tie; grade a padded copy; warn when the judge is the generator.
Each function returns data and `Reading`s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from evallib.judging.pipeline import CaseResult, PaddedGrade, PairwiseComparison
from evallib.paired import PairedTest, paired_code, paired_values, sign_flip_test
from evallib.readings import Reading

#: A verdict with A shown first names A for "first"; with B shown first, B.
_AB = {"first": "A", "second": "B", "tie": "tie"}
_BA = {"first": "B", "second": "A", "tie": "tie"}
#: A verdict scored for the slot it favours: the first-shown response +1, the second -1, a tie 0.
_SLOT = {"first": 1, "second": -1, "tie": 0}


@dataclass(frozen=True)
class PositionBias:
    """Final verdict per case (``A``, ``B`` or ``tie``: a disagreement between orders is a tie), the
    flips among cases with both verdicts read, and how often the first-shown response won."""

    final: dict[str, str]
    compared: int
    flips: int
    first_wins: int
    verdicts: int
    identical: int
    unread: int
    slot_test: PairedTest

    @property
    def flip_rate(self) -> float | None:
        return self.flips / self.compared if self.compared else None


def position_bias(comparisons: Sequence[PairwiseComparison]) -> tuple[PositionBias, list[Reading]]:
    """Position bias of pairwise verdicts. Readings: ``pairwise_none`` (nothing compared),
    ``position_flips`` (flip rate, flips, compared, first_wins, verdicts), ``position_consistent``,
    ``identical_tied`` (identical responses tie by code), ``pairwise_unread`` (a verdict not read).

    When some verdict flipped, whether the judge favours a slot: per compared case, the slot score
    is +1 for each verdict that picks the response shown first, -1 for the second, 0 for a tie (a
    consistent case scores 0, a case where the first-shown won both times +2). With no position bias
    it is symmetric about 0, so the exact sign-flip test applies (`evallib.paired`; unit: the case):
    ``position_favours_first`` / ``position_favours_second`` (the test concludes), ``position_too_few``
    (2 / 2^n > 0.05: no test can conclude on so few cases), ``position_cannot_tell`` (n, p).
    """
    final, compared, flips, first_wins, verdicts, identical, unread = {}, 0, 0, 0, 0, 0, 0
    slots = []
    for c in comparisons:
        if c.identical:
            final[c.case_id] = "tie"
            identical += 1
            continue
        read = [v for v in (c.ab, c.ba) if v is not None and v.status == "scored"]
        first_wins += sum(v.winner == "first" for v in read)
        verdicts += len(read)
        if len(read) < 2:
            unread += 1
            continue
        compared += 1
        one, two = _AB[c.ab.winner], _BA[c.ba.winner]
        flips += one != two
        final[c.case_id] = one if one == two else "tie"
        slots.append(_SLOT[c.ab.winner] + _SLOT[c.ba.winner])
    test = sign_flip_test(slots)
    result = PositionBias(final, compared, flips, first_wins, verdicts, identical, unread, test)
    readings = []
    if compared == 0 and identical == 0:
        readings.append(Reading("pairwise_none", {"unread": unread}))
    elif compared:
        values = {"flip_rate": result.flip_rate, "flips": flips, "compared": compared, "first_wins": first_wins,
                  "verdicts": verdicts}
        readings.append(Reading("position_flips" if flips else "position_consistent", values))
        if test.positive + test.negative:
            code = {"positive": "favours_first", "negative": "favours_second"}.get(paired_code(test), paired_code(test))
            readings.append(Reading(f"position_{code}", paired_values(test)))
    if identical:
        readings.append(Reading("identical_tied", {"count": identical}))
    if unread and (compared or identical):
        readings.append(Reading("pairwise_unread", {"count": unread}))
    return result, readings


@dataclass(frozen=True)
class VerbosityEffect:
    """Score change padded - original per case (both scored), its sign-flip test (`evallib.paired`),
    and how many unchanged cases sat at the top (``at_ceiling``) or bottom (``at_floor``) of the scale."""

    case_ids: list[str]
    changes: list[int]
    test: PairedTest
    up: int
    same: int
    down: int
    unread: int
    at_ceiling: int
    at_floor: int


#: Reading code of `verbosity_effect` for each conclusion of `evallib.paired.paired_code`.
_VERBOSITY_CODES = {"no_pairs": "verbosity_none", "all_zero": "verbosity_no_effect", "positive": "verbosity_inflates",
                    "negative": "verbosity_deflates", "too_few": "verbosity_too_few",
                    "cannot_tell": "verbosity_unclear"}


def verbosity_effect(probes: Sequence[PaddedGrade], max_total: int | None = None
                     ) -> tuple[VerbosityEffect, list[Reading]]:
    """Does padding move the judge's score? Exact sign-flip test of the changes (unit: the case).

    ``max_total``: the rubric's maximum, to tell a ceiling from an effect (None: not checked).
    Readings (one): ``verbosity_none`` (no padded copy scored), ``verbosity_no_effect`` (no score
    moved), ``verbosity_ceiling`` / ``verbosity_floor`` (no score moved, but every original was
    already at the maximum / at 0: padding could not raise / lower it, so this cannot tell),
    ``verbosity_inflates`` / ``verbosity_deflates`` (the test concludes, p <= 0.05),
    ``verbosity_too_few`` (no test can conclude on so few cases), ``verbosity_unclear`` (n, p).
    Then ``verbosity_at_bound`` {ceiling, floor, same} when some (not all) unchanged cases sat at a bound.
    """
    pairs = [(p.case_id, p.padded.score - p.original.score, p.original.score)
             for p in probes if p.padded.scored and p.original.scored]
    changes = [d for _, d, _ in pairs]
    test = sign_flip_test(changes)
    unchanged = [score for _, d, score in pairs if d == 0]
    ceiling = sum(max_total is not None and score == max_total for score in unchanged)
    floor = sum(max_total is not None and score == 0 for score in unchanged)
    effect = VerbosityEffect([i for i, _, _ in pairs], changes, test, test.positive, test.zero, test.negative,
                             len(probes) - len(pairs), ceiling, floor)
    if not changes:
        return effect, [Reading("verbosity_none", {"unread": effect.unread})]
    values = {**paired_values(test), "up": effect.up, "same": effect.same, "down": effect.down, "max": max_total}
    code = _VERBOSITY_CODES[paired_code(test)]
    if code == "verbosity_no_effect" and ceiling == len(changes):
        code = "verbosity_ceiling"
    elif code == "verbosity_no_effect" and floor == len(changes):
        code = "verbosity_floor"
    readings = [Reading(code, values)]
    if code not in ("verbosity_ceiling", "verbosity_floor") and (ceiling or floor):
        readings.append(Reading("verbosity_at_bound", {"ceiling": ceiling, "floor": floor, "same": effect.same,
                                                       "max": max_total}))
    return effect, readings


def blinding_summary(results: Sequence[CaseResult]) -> list[Reading]:
    """What blinding did. ``blinding_removed`` {n, total}: responses whose self-identifying lines were
    removed before grading (n may be 0); ``blinding_erased`` {count, cases}: responses that were
    nothing but such a line, graded as written (never as an empty answer) and left out of the bias
    probes (`evallib.judging.pipeline.run_verbosity`, `run_pairwise`)."""
    erased = [r.case.id for r in results if r.blinding_erased]
    readings = [Reading("blinding_removed", {"n": sum(bool(r.removed_lines) for r in results), "total": len(results)})]
    if erased:
        readings.append(Reading("blinding_erased", {"count": len(erased), "cases": ", ".join(erased)}))
    return readings


def model_family(model: str) -> str:
    """A model id without provider prefix, tag, date or version suffix: what "the same model" compares.

    >>> model_family("anthropic/claude-sonnet-4-5-20250929"), model_family("qwen3:8b")
    ('claude-sonnet', 'qwen3')
    """
    name = model.strip().casefold().rsplit("/", 1)[-1].split(":", 1)[0]
    name = re.sub(r"(?:-\d{8}|-latest)$", "", name)
    return re.sub(r"(?:-\d+(?:[.-]\d+)*)+$", "", name)


def self_preference(generator: str, judge: str) -> list[Reading]:
    """A notice when the judge grades its own outputs: ``self_preference_same_model`` (same id) or
    ``self_preference_same_family``; nothing otherwise."""
    values = {"generator": generator, "judge": judge}
    if generator.strip().casefold() == judge.strip().casefold():
        return [Reading("self_preference_same_model", values)]
    if model_family(generator) == model_family(judge):
        return [Reading("self_preference_same_family", values)]
    return []


@dataclass(frozen=True)
class InjectionRow:
    case_id: str
    flags: tuple[str, ...]
    score: int | None
    clean_score: int | None

    @property
    def moved(self) -> int | None:
        """Score with the injection minus score without it (None unless both are scored)."""
        return None if self.score is None or self.clean_score is None else self.score - self.clean_score


def injection_effect(results: Sequence[CaseResult], max_total: int | None = None
                     ) -> tuple[list[InjectionRow], list[Reading]]:
    """Flagged responses and whether their score moved. Readings per flagged case:
    ``injection_moved`` (score, clean_score, moved), ``injection_held`` (same score) or
    ``injection_unscored`` (one of the two grades has no score); ``no_injection`` when none is flagged.
    The same score at the scale's maximum ``max_total`` is ``injection_ceiling`` (the injection asks
    for a top score the response already had: the probe cannot tell), at 0 ``injection_floor``."""
    rows = [InjectionRow(r.case.id, r.injection, r.grade.score, r.clean_grade.score if r.clean_grade else None)
            for r in results if r.injection]
    if not rows:
        return rows, [Reading("no_injection", {})]
    readings = []
    for row in rows:
        values = {"case": row.case_id, "flags": ", ".join(row.flags), "score": row.score,
                  "clean_score": row.clean_score, "moved": row.moved}
        code = "injection_unscored" if row.moved is None else "injection_moved" if row.moved else "injection_held"
        if code == "injection_held" and max_total is not None and row.score in (0, max_total):
            code = "injection_ceiling" if row.score == max_total else "injection_floor"
        readings.append(Reading(code, {**values, "max": max_total}))
    return rows, readings

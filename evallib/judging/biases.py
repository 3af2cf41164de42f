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

from evallib.judging.analyses import MeanCI, mean_ci
from evallib.judging.pipeline import CaseResult, PaddedGrade, PairwiseComparison
from evallib.readings import Reading

#: A verdict with A shown first names A for "first"; with B shown first, B.
_AB = {"first": "A", "second": "B", "tie": "tie"}
_BA = {"first": "B", "second": "A", "tie": "tie"}


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

    @property
    def flip_rate(self) -> float | None:
        return self.flips / self.compared if self.compared else None


def position_bias(comparisons: Sequence[PairwiseComparison]) -> tuple[PositionBias, list[Reading]]:
    """Position bias of pairwise verdicts. Readings: ``pairwise_none`` (nothing compared),
    ``position_flips`` (flip rate, flips, compared, first_wins, verdicts), ``position_consistent``,
    ``identical_tied`` (identical responses tie by code), ``pairwise_unread`` (a verdict not read)."""
    final, compared, flips, first_wins, verdicts, identical, unread = {}, 0, 0, 0, 0, 0, 0
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
    result = PositionBias(final, compared, flips, first_wins, verdicts, identical, unread)
    readings = []
    if compared == 0 and identical == 0:
        readings.append(Reading("pairwise_none", {"unread": unread}))
    elif compared:
        values = {"flip_rate": result.flip_rate, "flips": flips, "compared": compared, "first_wins": first_wins,
                  "verdicts": verdicts}
        readings.append(Reading("position_flips" if flips else "position_consistent", values))
    if identical:
        readings.append(Reading("identical_tied", {"count": identical}))
    if unread and (compared or identical):
        readings.append(Reading("pairwise_unread", {"count": unread}))
    return result, readings


@dataclass(frozen=True)
class VerbosityEffect:
    """Score change padded - original per case (both scored), and its mean with a t interval."""

    case_ids: list[str]
    changes: list[int]
    stat: MeanCI
    up: int
    same: int
    down: int
    unread: int


def verbosity_effect(probes: Sequence[PaddedGrade]) -> tuple[VerbosityEffect, list[Reading]]:
    """Readings: ``verbosity_none`` (no padded copy scored), ``verbosity_no_effect`` (no score moved),
    ``verbosity_inflates`` / ``verbosity_deflates`` (the interval of the mean change lies above / below
    0), ``verbosity_unclear`` (scores moved both ways or too few cases: see up / same / down)."""
    pairs = [(p.case_id, p.padded.score - p.original.score) for p in probes if p.padded.scored and p.original.scored]
    changes = [d for _, d in pairs]
    effect = VerbosityEffect([i for i, _ in pairs], changes, mean_ci(changes), sum(d > 0 for d in changes),
                             sum(d == 0 for d in changes), sum(d < 0 for d in changes), len(probes) - len(pairs))
    values = {"n": effect.stat.n, "mean": effect.stat.mean, "low": effect.stat.low, "high": effect.stat.high,
              "up": effect.up, "same": effect.same, "down": effect.down}
    if not changes:
        return effect, [Reading("verbosity_none", {"unread": effect.unread})]
    if effect.up == effect.down == 0:
        return effect, [Reading("verbosity_no_effect", values)]
    if effect.stat.low is not None and effect.stat.low > 0:
        return effect, [Reading("verbosity_inflates", values)]
    if effect.stat.high is not None and effect.stat.high < 0:
        return effect, [Reading("verbosity_deflates", values)]
    return effect, [Reading("verbosity_unclear", values)]


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
    """A flagged response: its score with the injection (``copied``: the grade the judge repeated from
    the response, unscored but read) and without it."""

    case_id: str
    flags: tuple[str, ...]
    score: int | None
    clean_score: int | None
    copied: bool = False

    @property
    def moved(self) -> int | None:
        """Score with the injection minus score without it (None unless both are read)."""
        return None if self.score is None or self.clean_score is None else self.score - self.clean_score


def _injection_row(result: CaseResult) -> InjectionRow:
    copied = result.grade.problem == "copied_from_response"
    return InjectionRow(result.case.id, result.injection, result.grade.total if copied else result.grade.score,
                        result.clean_grade.score if result.clean_grade else None, copied)


def injection_effect(results: Sequence[CaseResult]) -> tuple[list[InjectionRow], list[Reading]]:
    """Flagged responses and whether their score moved. Readings per flagged case:
    ``injection_copied`` (the judge only repeated the grade written in the response: score, clean_score,
    moved), ``injection_moved`` (score, clean_score, moved), ``injection_held`` (same score) or
    ``injection_unscored`` (one of the two grades has no score); ``no_injection`` when none is flagged."""
    rows = [_injection_row(r) for r in results if r.injection]
    if not rows:
        return rows, [Reading("no_injection", {})]
    readings = []
    for row in rows:
        values = {"case": row.case_id, "flags": ", ".join(row.flags), "score": row.score,
                  "clean_score": row.clean_score, "moved": row.moved}
        code = ("injection_unscored" if row.moved is None else "injection_copied" if row.copied
                else "injection_moved" if row.moved else "injection_held")
        readings.append(Reading(code, values))
    return rows, readings

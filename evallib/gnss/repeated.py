"""Repeated runs of a sampled agent: pass rates with their uncertainty, and how many runs a comparison needs.

A sampled model does not answer the same way twice, so the unit of measurement per case is a pass
rate over N runs with its sampling uncertainty (docs/gnss.md#repeated). ``packs/fr/gnss_recorded_runs.json`` holds
the course material's recorded grades of a reviewing agent (six planted-flaw cases x five runs). Within one case the
runs are the unit of its pass rate; a pass rate over several cases takes the case as its unit
(`overall_pass_rate`), since runs of one case are not independent of each other.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scipy import stats

from evallib.cluster_rates import ClusteredRate
from evallib.errors import InputError
from evallib.readings import Reading
from evallib.stats import DEFAULT_CONFIDENCE, standard_error_proportion, wilson_interval
from evallib.packs.layout import builtin_file

RECORDED_RUNS = builtin_file("gnss_recorded_runs.json")
#: A unanimous case reads as "so few runs" while its Wilson interval still reaches farther than this
#: from the unanimous end (below 90 % after all passes): up to 34 runs at 95 %.
FEW_RUNS_MARGIN = 0.10
#: The unit of the interval of a pass rate over several cases.
INTERVAL_UNIT = "case"
#: Conventional design values: a two-sided 5 % test with 80 % power (Cohen 1988).
DEFAULT_ALPHA = 0.05
DEFAULT_POWER = 0.8


class RecordedRunsError(InputError):
    """The recorded runs file is malformed (code ``bad_runs``; details name the case)."""


@dataclass(frozen=True)
class RunCase:
    """One case's recorded outcomes (1 pass, 0 fail), in run order."""

    case_id: str
    label: str
    outcomes: tuple[int, ...]


@dataclass(frozen=True)
class PassRate:
    """Pass rate k/n of a case with its binomial standard error sqrt(p(1-p)/n) and Wilson interval."""

    case_id: str
    label: str
    passes: int
    runs: int
    rate: float
    standard_error: float
    low: float
    high: float


def load_recorded_runs(path: str | Path = RECORDED_RUNS) -> list[RunCase]:
    """The recorded runs; raises `RecordedRunsError` naming the case on a bad entry."""
    data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    cases = []
    for entry in data.get("cases", []):
        outcomes = entry.get("runs")
        if not isinstance(outcomes, list) or not outcomes or any(o not in (0, 1) or isinstance(o, bool)
                                                                 for o in outcomes):
            raise RecordedRunsError("bad_runs", f"case {entry.get('id')!r}: runs must be a non-empty list of 0/1",
                                    case=entry.get("id"))
        cases.append(RunCase(str(entry["id"]), str(entry.get("label", "")), tuple(outcomes)))
    return cases


def pass_rate(case: RunCase, confidence: float = DEFAULT_CONFIDENCE) -> PassRate:
    """Pass rate, binomial standard error and Wilson interval (`evallib.stats.wilson_interval`)."""
    k, n = sum(case.outcomes), len(case.outcomes)
    low, high = wilson_interval(k, n, confidence)
    return PassRate(case.case_id, case.label, k, n, k / n, standard_error_proportion(k / n, n), low, high)


def overall_pass_rate(cases: Sequence[RunCase], confidence: float = DEFAULT_CONFIDENCE) -> ClusteredRate:
    """Pass rate over every run of ``cases``, its interval with the case as the unit (`ClusteredRate`):
    an agent that fails a case tends to fail it on every run. Cases without a run are left out.

    >>> rate = overall_pass_rate([RunCase("a", "", (1, 1, 1)), RunCase("b", "", (0, 0, 0))])
    >>> rate.value, rate.items, rate.effective_n
    (0.5, 2, 2.0)
    """
    return ClusteredRate.of([(sum(c.outcomes), len(c.outcomes)) for c in cases], confidence)


def runs_to_separate(p1: float, p2: float, alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER) -> int:
    """Runs per agent needed for a two-sided test of p1 = p2 at level ``alpha`` to detect the difference
    with probability ``power`` (normal approximation, no continuity correction):

        n = [z_{1-α/2}·sqrt(2·p̄(1-p̄)) + z_{power}·sqrt(p1(1-p1) + p2(1-p2))]² / (p1 - p2)²,  p̄ = (p1+p2)/2

    rounded up. Source: Fleiss, Levin & Paik (2003), Statistical Methods for Rates and Proportions,
    3rd ed., eq. 4.14. Raises ValueError when p1 = p2 or a value is out of range.

    >>> runs_to_separate(0.4, 0.6)
    97
    """
    for name, value in (("p1", p1), ("p2", p2)):
        if not 0 <= value <= 1:
            raise ValueError(f"{name} must be between 0 and 1, got {value}")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError(f"alpha and power must be strictly between 0 and 1, got {alpha}, {power}")
    if p1 == p2:
        raise ValueError("p1 and p2 are equal: no number of runs separates them")
    p_bar = (p1 + p2) / 2
    z_alpha, z_power = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    root = z_alpha * math.sqrt(2 * p_bar * (1 - p_bar)) + z_power * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(root**2 / (p1 - p2) ** 2)


def pass_rate_reading(rate: PassRate) -> Reading:
    """What a case's pass rate can claim, as a reading:

    - ``rate_unanimous_few_runs`` (k = 0 or k = n, on few runs: the Wilson interval still reaches
      farther than `FEW_RUNS_MARGIN` from the unanimous end): the standard error is 0 yet the interval
      stays wide (values: passes, runs, low, high);
    - ``rate_unanimous`` (k = 0 or k = n on more runs): the interval is narrow, yet not a rate of
      exactly 0 or 1;
    - ``rate_undecided``: the Wilson interval contains 0.5, a single run would have been a coin toss
      (values: rate, low, high);
    - ``rate_mostly_pass`` / ``rate_mostly_fail``: the interval lies above / below 0.5 (values: rate, low, high).
    """
    values = {"passes": rate.passes, "runs": rate.runs, "rate": rate.rate, "low": rate.low, "high": rate.high}
    if rate.passes in (0, rate.runs):
        reach = rate.high if rate.passes == 0 else 1 - rate.low
        return Reading("rate_unanimous_few_runs" if reach > FEW_RUNS_MARGIN else "rate_unanimous", values)
    if rate.low <= 0.5 <= rate.high:
        return Reading("rate_undecided", values)
    return Reading("rate_mostly_pass" if rate.low > 0.5 else "rate_mostly_fail", values)

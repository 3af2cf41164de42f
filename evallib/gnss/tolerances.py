"""Tolerances derived from realisations (docs/gnss.md#tolerances): the spread of an estimator's velocity error.

The velocity tolerance is a property of the estimator under the physics: run it on fresh realisations
of the case designs of each record length (offsets included, seeds disjoint from the evaluation set)
and read the distribution of |error|. With flicker noise the spread falls roughly as 1/T (Mao et al.
1999, JGR 104:2797), so one tolerance cannot suit 2-year and 10-year records.

The tolerance is the 95 % upper confidence bound of the 95th percentile of |error|, read from the
order statistics (distribution-free: the number of realisations below the true percentile is
binomial(n, 0.95); e.g. Hahn & Meeker 1991, Statistical Intervals, sec. 5.2). The largest of n
realisations bounds it from above with confidence 1 - 0.95^n, which reaches 95 % only from n = 59:
fewer realisations cannot bound the 95th percentile at all (`MIN_TRIALS`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from evallib.gnss.agents import V1_JUMP_THRESHOLD_MM, V2_STEP_THRESHOLD_MM, agent_v1, agent_v2, largest_jump
from evallib.gnss.cases import CASES, DERIVATION_SEED_START, held_out_cases
from evallib.gnss.evaluation import pass_count, run_eval, summary_table
from evallib.gnss.spec import DEFAULT_VELOCITY_TOL, SPEC_V1, SPEC_V2, Spec, length_dependent_spec
from evallib.gnss.synthetic import gnss_series
from evallib.readings import Reading

#: Percentile of |error| the tolerance covers, and the confidence of its upper bound.
TOLERANCE_QUANTILE = 0.95
BOUND_CONFIDENCE = 0.95
#: Fewest realisations whose maximum bounds the 95th percentile with 95 % confidence: 1 - 0.95^n >= 0.95.
MIN_TRIALS = int(math.ceil(math.log(1 - BOUND_CONFIDENCE) / math.log(TOLERANCE_QUANTILE)))
#: Realisations per record length (the course material used 50, too few to bound its 95th percentile:
#: docs/gnss.md#tolerances); with 100
#: the 95 % upper bound of the 95th percentile is the 99th smallest |error| (`order_statistic_bounds`).
DEFAULT_TRIALS = 100
#: Realisations of v1's threshold trade-off (the course material's 50: rates, not a tail percentile).
TRADE_OFF_TRIALS = 50
#: The offset-free design (true velocity 12 mm/yr, docs/gnss.md#tolerances), for lengths without case designs.
DERIVATION_VELOCITY = 12.0
DERIVATION_LENGTHS = (10.0, 2.0)
#: The tolerance is the upper bound rounded up to the next 0.5 mm/yr, never below spec v1's.
ROUND_TO = 0.5
HISTOGRAM_BINS = 10


def _rank_at_least(n: int, probability: float, q: float) -> int | None:
    """Smallest k in 1..n with P(Binomial(n, q) <= k - 1) >= probability, or None."""
    from scipy.stats import binom
    ranks = np.arange(1, n + 1)
    ok = np.flatnonzero(binom.cdf(ranks - 1, n, q) >= probability)
    return int(ranks[ok[0]]) if ok.size else None


def _rank_at_most(n: int, probability: float, q: float) -> int | None:
    """Largest k in 1..n with P(Binomial(n, q) <= k - 1) <= probability, or None."""
    from scipy.stats import binom
    ranks = np.arange(1, n + 1)
    ok = np.flatnonzero(binom.cdf(ranks - 1, n, q) <= probability)
    return int(ranks[ok[-1]]) if ok.size else None


@dataclass(frozen=True)
class OrderBounds:
    """Confidence bounds of a quantile from order statistics (values None when n is too small).

    ``low``/``high``: the two-sided interval [X_(l), X_(u)], P(l <= B <= u - 1) >= confidence with
    B ~ Binomial(n, q); ``upper``: the one-sided upper bound X_(k), P(B <= k - 1) >= confidence;
    ``low_rank``, ``high_rank``, ``upper_rank``: l, u, k (1-based)."""

    low: float | None
    high: float | None
    upper: float | None
    low_rank: int | None
    high_rank: int | None
    upper_rank: int | None


def order_statistic_bounds(values: np.ndarray, q: float = TOLERANCE_QUANTILE,
                           confidence: float = BOUND_CONFIDENCE) -> OrderBounds:
    """Distribution-free bounds of the q-quantile of the distribution ``values`` (shape (n,)) were drawn
    from; the unit is the realisation. Two-sided: (1 - confidence)/2 in each tail."""
    ordered = np.sort(np.asarray(values, dtype=float))
    n, tail = len(ordered), (1 - confidence) / 2
    low = _rank_at_most(n, tail, q) if n else None
    high = _rank_at_least(n, 1 - tail, q) if n else None
    upper = _rank_at_least(n, confidence, q) if n else None

    def at(rank):
        return None if rank is None else float(ordered[rank - 1])
    return OrderBounds(at(low), at(high), at(upper), low, high, upper)


@dataclass(frozen=True)
class ErrorSpread:
    """|velocity error| (mm/yr) of an estimator over realisations of one record length.

    Attributes:
        n_years: record length; seeds: the seeds used (shape (n,)); errors: |estimate - truth|, shape (n,).
        designs: the case id (or "offset-free") each realisation copies, shape (n,).
        median, p95: median and 95th percentile (numpy's linear interpolation) of ``errors``.
        p95_bounds: order-statistic bounds of the 95th percentile (`order_statistic_bounds`).
        histogram_counts, histogram_edges: `numpy.histogram` of ``errors`` (bins and bins + 1 values).
    """

    n_years: float
    seeds: tuple[int, ...]
    errors: np.ndarray
    median: float
    p95: float
    histogram_counts: np.ndarray
    histogram_edges: np.ndarray
    designs: tuple[str, ...] = ()
    p95_bounds: OrderBounds | None = None


def derivation_designs(n_years: float) -> tuple[tuple[str, dict], ...]:
    """The case designs of records of ``n_years`` years (offsets included), as (case id, parameters
    without seed); the offset-free seed-001 design when no case has that length."""
    designs = tuple((c.case_id, {k: v for k, v in c.params.items() if k != "seed"})
                    for c in CASES if c.params["n_years"] == n_years)
    return designs or (("offset-free", {"n_years": n_years, "velocity_mm_yr": DERIVATION_VELOCITY}),)


def velocity_error_spread(n_years: float, n_trials: int = DEFAULT_TRIALS,
                          estimator: Callable[[pd.DataFrame], dict] = agent_v2,
                          seed_start: int = DERIVATION_SEED_START) -> ErrorSpread:
    """Run ``estimator`` on ``n_trials`` fresh series of ``n_years`` years, cycling through
    `derivation_designs` (seeds ``seed_start`` onwards). Raises ValueError when ``n_trials`` < 2."""
    if n_trials < 2:
        raise ValueError(f"n_trials must be at least 2, got {n_trials}")
    designs = derivation_designs(n_years)
    seeds = tuple(range(seed_start, seed_start + n_trials))
    used = [designs[k % len(designs)] for k in range(n_trials)]
    errors = np.array([abs(float(estimator(gnss_series(**params, seed=s).observed)["velocity_mm_yr"])
                           - params["velocity_mm_yr"]) for s, (_, params) in zip(seeds, used)])
    counts, edges = np.histogram(errors, bins=HISTOGRAM_BINS)
    return ErrorSpread(n_years, seeds, errors, float(np.median(errors)), float(np.quantile(errors, 0.95)),
                       counts, edges, tuple(name for name, _ in used), order_statistic_bounds(errors))


def rounded_upper_bound(spread: ErrorSpread) -> float:
    """The one-sided 95 % upper bound of the 95th percentile (mm/yr), rounded up to `ROUND_TO`.

    Raises ValueError when the spread has fewer than `MIN_TRIALS` realisations (no upper bound exists).
    """
    bounds = spread.p95_bounds or order_statistic_bounds(spread.errors)
    if bounds.upper is None:
        raise ValueError(f"{len(spread.errors)} realisations cannot bound the 95th percentile from above; "
                         f"at least {MIN_TRIALS} are needed")
    return math.ceil(bounds.upper / ROUND_TO) * ROUND_TO


def tolerance_from_spread(spread: ErrorSpread, floor: float = DEFAULT_VELOCITY_TOL) -> float:
    """max(floor, `rounded_upper_bound`): never below spec v1's tolerance. Raises as `rounded_upper_bound`."""
    return max(floor, rounded_upper_bound(spread))


def derive_spec_v3(long: ErrorSpread, short: ErrorSpread) -> Spec:
    """Spec v3: the long record's tolerance from records of at least ``long.n_years / 2`` years, the
    short record's below. The spreads are kept in ``derived_from``."""
    if long.n_years <= short.n_years:
        raise ValueError(f"the long spread must be longer than the short one ({long.n_years} <= {short.n_years})")
    return length_dependent_spec(tolerance_from_spread(long), tolerance_from_spread(short), long.n_years / 2,
                                 derived_from={f"{s.n_years:g}": _derived(s) for s in (long, short)})


def _derived(spread: ErrorSpread) -> dict:
    bounds = spread.p95_bounds or order_statistic_bounds(spread.errors)
    return {"median": spread.median, "p95": spread.p95, "p95_low": bounds.low, "p95_high": bounds.high,
            "p95_upper": bounds.upper, "upper_rank": bounds.upper_rank, "n": len(spread.errors),
            "seeds": [spread.seeds[0], spread.seeds[-1]], "designs": sorted(set(spread.designs))}


def spread_reading(spread: ErrorSpread, tolerance: float) -> Reading:
    """What a measured spread says of a velocity tolerance (mm/yr), as a reading:

    - ``tolerance_unreachable``: the 95th percentile exceeds the tolerance, the spec asks what the data
      cannot give (values: n_years, p95, median, tolerance, share_outside, and p95_low, p95_high: the
      percentile's 95 % order-statistic interval, None where n is too small, n: realisations);
    - ``tolerance_comfortable``: the 95th percentile is under half the tolerance;
    - ``tolerance_tight``: in between.
    """
    bounds = spread.p95_bounds or order_statistic_bounds(spread.errors)
    values = {"n_years": spread.n_years, "p95": spread.p95, "median": spread.median, "tolerance": tolerance,
              "p95_low": bounds.low, "p95_high": bounds.high, "n": len(spread.errors),
              "share_outside": float(np.mean(spread.errors > tolerance)) if len(spread.errors) else 0.0}
    if spread.p95 > tolerance:
        return Reading("tolerance_unreachable", values)
    return Reading("tolerance_comfortable" if spread.p95 < tolerance / 2 else "tolerance_tight", values)


@dataclass(frozen=True)
class JumpRates:
    """How often agent v1's raw jump exceeds each threshold: on offset-free series (false alarms) and on
    series with a step of ``step_mm`` (detections). Shapes (k,) for k thresholds; seeds as in `ErrorSpread`."""

    thresholds_mm: np.ndarray
    false_alarm_rate: np.ndarray
    detection_rate: np.ndarray
    step_mm: float
    seeds: tuple[int, ...]


def jump_threshold_rates(thresholds_mm: np.ndarray, base_params: dict, step_mm: float, eq_day: int,
                         n_trials: int = TRADE_OFF_TRIALS, seed_start: int = DERIVATION_SEED_START) -> JumpRates:
    """False-alarm and detection rates of the raw-jump rule over fresh realisations of one case design.

    ``base_params`` are `gnss_series` parameters without seed or offset (e.g. a case's, minus those).
    The largest jump of each realisation is computed once; every threshold then costs one comparison.
    """
    seeds = tuple(range(seed_start, seed_start + n_trials))
    base = {k: v for k, v in base_params.items() if k not in ("seed", "eq_day", "coseismic_mm", "postseismic_mm")}
    quiet = np.array([largest_jump(gnss_series(**base, seed=s).observed["disp_mm"].to_numpy()).size_mm for s in seeds])
    stepped = np.array([largest_jump(gnss_series(**base, eq_day=eq_day, coseismic_mm=step_mm, postseismic_mm=0.0,
                                                 seed=s).observed["disp_mm"].to_numpy()).size_mm for s in seeds])
    thresholds = np.asarray(thresholds_mm, dtype=float)
    return JumpRates(thresholds, (quiet[None, :] > thresholds[:, None]).mean(axis=1),
                     (stepped[None, :] > thresholds[:, None]).mean(axis=1), step_mm, seeds)


@dataclass(frozen=True)
class SeedSummary:
    """Seed 001's closing table and what it rests on.

    Attributes:
        table: pass/fail per case for "agent v1, spec v1", "agent v2, spec v2", "agent v2, spec v3", with a
            ``passes`` row (`evallib.gnss.evaluation.summary_table`).
        spec_v3: the spec derived from ``spreads`` (10-year, 2-year).
        held_out_passes, held_out_total: agent v2 under spec v3 on the twelve designs with fresh seeds.
    """

    table: pd.DataFrame
    spec_v3: Spec
    spreads: tuple[ErrorSpread, ErrorSpread]
    held_out_passes: int
    held_out_total: int


def seed_summary(n_trials: int = DEFAULT_TRIALS, v1_threshold_mm: float = V1_JUMP_THRESHOLD_MM,
                 v2_threshold_mm: float = V2_STEP_THRESHOLD_MM) -> SeedSummary:
    """Run the whole evaluation: v1/spec v1, v2/spec v2, spec v3 from ``n_trials`` realisations per length,
    v2/spec v3, and the held-out check."""
    v2 = partial(agent_v2, step_threshold_mm=v2_threshold_mm)
    spreads = tuple(velocity_error_spread(years, n_trials, v2) for years in DERIVATION_LENGTHS)
    spec_v3 = derive_spec_v3(*spreads)
    table = summary_table({"agent v1, spec v1": run_eval(partial(agent_v1, jump_threshold_mm=v1_threshold_mm), SPEC_V1),
                           "agent v2, spec v2": run_eval(v2, SPEC_V2),
                           "agent v2, spec v3": run_eval(v2, spec_v3)})
    held = run_eval(v2, spec_v3, held_out_cases())
    return SeedSummary(table, spec_v3, spreads, pass_count(held), len(held))


def threshold_reading(rates: JumpRates, threshold_mm: float) -> Reading:
    """What agent v1's raw-jump rule does at ``threshold_mm`` (one of ``rates.thresholds_mm``), as a reading:

    - ``threshold_clean``: no false alarm and every step of ``step_mm`` detected;
    - ``threshold_false_alarms``: false alarms on offset-free series, every step detected;
    - ``threshold_misses``: no false alarm, some steps missed;
    - ``threshold_both``: false alarms and missed steps.

    Values: threshold_mm, step_mm, n (realisations), false_alarm_share, detection_share, and
    quiet_from_mm, the lowest threshold of ``rates`` without false alarm (None when every one has some).
    Raises ValueError when ``threshold_mm`` is not among the thresholds.
    """
    at = np.flatnonzero(np.isclose(rates.thresholds_mm, threshold_mm))
    if at.size == 0:
        raise ValueError(f"threshold {threshold_mm} mm is not among the thresholds of the rates")
    false_alarm, detection = float(rates.false_alarm_rate[at[0]]), float(rates.detection_rate[at[0]])
    quiet = rates.thresholds_mm[rates.false_alarm_rate == 0]
    values = {"threshold_mm": float(threshold_mm), "step_mm": float(rates.step_mm), "n": len(rates.seeds),
              "false_alarm_share": false_alarm, "detection_share": detection,
              "quiet_from_mm": float(quiet.min()) if quiet.size else None}
    code = {(False, False): "threshold_clean", (True, False): "threshold_false_alarms",
            (False, True): "threshold_misses", (True, True): "threshold_both"}[(false_alarm > 0, detection < 1)]
    return Reading(code, values)

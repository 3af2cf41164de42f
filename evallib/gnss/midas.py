"""MIDAS: the Median Interannual Difference Adjusted for Skewness velocity estimator.

Source: Blewitt, Kreemer, Hammond & Gazeaux (2016), "MIDAS robust trend estimator for accurate GPS
station velocities without step detection", J. Geophys. Res. Solid Earth 121, 2054-2068,
doi:10.1002/2015JB012552 (section 3 and the MIDAS4 reference program released with it). The steps:

1. **Pairs one year apart, in both time directions.** Moving forward in time, each epoch t_i is paired
   with the epoch one year later (|t_j - t_i - 1 yr| < 0.001 yr). When that epoch is missing (a gap),
   t_i is paired with the next later epoch that no earlier fallback has taken (a pointer that only
   moves forward). A pair never spans a known step: an epoch whose partner would lie at or after the
   next step gets no pair. The same selection is then run backward in time (times negated and
   reversed) so that the estimate does not depend on the direction of time; both sets are kept.
2. **Median** of the pair slopes v_k = (x_j - x_i) / (t_j - t_i).
3. **Trim at 2 sigma**: sigma = 1.4826 · MAD (median absolute deviation from the median, the Gaussian
   consistency factor); slopes with |v_k - median| >= 2 sigma are dropped.
4. **Re-median** the kept slopes: the velocity. Recompute sigma on them.
5. **Uncertainty** sigma_v = 3 · sqrt(pi/2) · sigma / sqrt(n / 4), with n the number of pairs kept
   after trimming: sqrt(pi/2) is the standard error of a median relative to a mean for Gaussian data;
   n/4 counts the independent pairs, since each position enters a nominal four pairs (first and second
   element, forward and backward); the factor 3 is the authors' empirical scaling that makes the
   sigma realistic against coloured (flicker) noise.

As in the reference program, a velocity needs at least `MIN_EPOCHS` epochs, a span of at least one
year plus `MIN_EPOCHS` days, and `MIN_PAIRS` pairs; otherwise it is undefined (NaN) and `MidasVelocity.reason`
says why. Two choices of ours, stated: a step is given as the day index of the first epoch after the
jump (the convention of the agents) and placed half a day before it, so that epoch counts as after
the step (the reference program drops the epoch of the step's own day); when the fallback pointer
reaches the end of the record it restarts from the first epoch past one year, and one epoch later when
it reaches a step (as the reference program does). A slope distribution with MAD = 0 keeps the slopes equal to the
median (a strict 2-sigma test would drop them all).

Everything is vectorised: pair selection uses `numpy.searchsorted` and a running maximum for the
fallback pointer (a loop runs only over the rare pointer restarts), and the trimmed medians of many
realisations sharing one time axis are computed at once (`midas_matrix`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DAYS_PER_YEAR = 365.25
#: Pair tolerance of the reference program: 0.001 yr (0.365 day), so daily data pair at 365 days.
PAIR_TOL_DAYS = 0.001 * DAYS_PER_YEAR
#: The reference program's minimum numbers of epochs and of pairs.
MIN_EPOCHS = 6
MIN_PAIRS = 10
#: Slopes further than 2 sigma from the first median are trimmed, sigma = 1.4826 MAD.
TRIM_SIGMAS = 2.0
MAD_TO_SIGMA = 1.4826
#: Empirical scaling of the uncertainty (Blewitt et al. 2016): the median's formal error times 3.
SIGMA_SCALE = 3.0
#: Each position enters a nominal 4 pairs: n/4 independent pairs.
PAIRS_PER_INDEPENDENT = 4.0
#: A step is placed this many days before the first epoch after it.
STEP_SHIFT_DAYS = 0.5


@dataclass(frozen=True)
class MidasPairs:
    """The selected pairs: ``first`` and ``second`` index arrays into the time axis (shape (n,)), with
    t[second] > t[first]. ``exact`` marks pairs one year apart (within tolerance); the others are
    fallback pairs across a gap (longer than a year). ``n_without_steps`` is the number of pairs the
    same selection finds when no step is given (to tell "no pair at all" from "all excluded by a step")."""

    first: np.ndarray
    second: np.ndarray
    exact: np.ndarray
    n_without_steps: int


@dataclass(frozen=True)
class MidasVelocity:
    """A MIDAS estimate (mm/yr) and what it rests on.

    Attributes:
        velocity_mm_yr, sigma_mm_yr: the velocity and its uncertainty (NaN when undefined).
        n_pairs: pairs selected (both directions); n_kept: pairs kept after trimming.
        n_exact, n_fallback: selected pairs one year apart / longer than a year (across a gap).
        longest_pair_days: the longest pair's span (0 without pairs).
        n_without_steps: pairs the selection finds when the steps are ignored.
        scatter_mm_yr: sigma = 1.4826 MAD of the kept slopes (NaN when undefined).
        reason: None when defined, else ``too_few_epochs``, ``too_short`` (span under a year plus
            `MIN_EPOCHS` days), ``excluded_by_steps`` (pairs exist without the steps, fewer than
            `MIN_PAIRS` with them) or ``too_few_pairs``.
    """

    velocity_mm_yr: float
    sigma_mm_yr: float
    n_pairs: int
    n_kept: int
    n_exact: int = 0
    n_fallback: int = 0
    longest_pair_days: float = 0.0
    n_without_steps: int = 0
    scatter_mm_yr: float = float("nan")
    reason: str | None = None


def _one_direction(t: np.ndarray, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forward selection on sorted times ``t`` (days) with sorted step times ``steps``: (first, second, exact)."""
    m, year, tol = len(t), DAYS_PER_YEAR, PAIR_TOL_DAYS
    # the next step after each epoch (the reference program: the first step with t_i < step + tol)
    at = np.searchsorted(steps, t - tol, side="right")
    next_step = np.append(steps, np.inf)[at]
    starts = (t <= t[-1] + tol - year) & (t <= next_step + tol - year)
    j0 = np.searchsorted(t, t + year - tol, side="left")  # first epoch at least one year (- tol) later
    # the last epoch before each epoch's next step (partners must lie before it)
    limit = np.searchsorted(t, next_step - tol, side="right") - 1
    candidate = starts & (j0 < m)
    candidate[candidate] &= j0[candidate] <= limit[candidate]
    i = np.flatnonzero(candidate)
    j = j0[i]
    exact = t[j] - t[i] < year + tol
    fallback = np.flatnonzero(~exact)
    if fallback.size:
        j[fallback] = _fallback_partners(j0[i[fallback]], limit[i[fallback]], m - 1)
    paired = j >= 0
    return i[paired], j[paired], exact[paired]


def _fallback_partners(a: np.ndarray, limit: np.ndarray, last: int) -> np.ndarray:
    """Partners of the epochs without a partner one year later, in time order: each takes the first
    epoch past one year not taken by an earlier fallback, p_k = max(a_k, p_{k-1} + 1), computed as
    k + running max of (a_k - k). As in the reference program, a pointer that runs past the record's
    end restarts at a_k; one that runs into a step restarts at a_k + 1, and the epoch gets no pair
    (-1) when that one is past the step too. ``last`` is the index of the record's last epoch."""
    partners = np.empty_like(a)
    start, previous = 0, None
    while start < len(a):
        rank = np.arange(len(a) - start)
        base = a[start:] - rank
        if previous is not None:
            base[0] = max(base[0], previous + 1)
        proposed = np.maximum.accumulate(base) + rank
        beyond = np.flatnonzero(proposed > limit[start:])
        if beyond.size == 0:
            partners[start:] = proposed
            break
        stop = start + int(beyond[0])
        partners[start:stop] = proposed[:stop - start]
        if limit[stop] == last:  # the end of the record: restart from the first epoch past one year
            partners[stop] = previous = a[stop]
        else:  # a step: restart one epoch later, if that one is still before the step
            partners[stop] = a[stop] + 1 if a[stop] + 1 <= limit[stop] else -1
            previous = a[stop] + 1 if partners[stop] >= 0 else a[stop]
        start = stop + 1
    return partners


def select_pairs(t_days: np.ndarray, steps: tuple[float, ...] = ()) -> MidasPairs:
    """MIDAS pairs of a sorted time axis (days, shape (m,)) in both time directions; ``steps`` are day
    indices of the first epoch after each known step (steps outside the record are ignored)."""
    t = np.asarray(t_days, dtype=float)
    if t.size < 2:
        empty = np.zeros(0, dtype=int)
        return MidasPairs(empty, empty, np.zeros(0, dtype=bool), 0)
    shifted = np.sort(np.asarray([s - STEP_SHIFT_DAYS for s in steps if t[0] < s <= t[-1]], dtype=float))

    def both(step_times: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        fi, fj, fe = _one_direction(t, step_times)
        bi, bj, be = _one_direction(-t[::-1], -step_times[::-1])
        last = len(t) - 1
        return (np.concatenate([fi, last - bj]), np.concatenate([fj, last - bi]), np.concatenate([fe, be]))

    first, second, exact = both(shifted)
    n_without = len(first) if shifted.size == 0 else len(both(np.zeros(0))[0])
    return MidasPairs(first, second, exact, n_without)


def _trimmed_median(slopes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Median after 2-sigma trimming, row by row: (velocity, sigma of the kept slopes, kept count).

    ``slopes`` has shape (r, n); every step is a vectorised sort, the medians read at the kept counts."""
    median = np.median(slopes, axis=1, keepdims=True)
    deviation = np.abs(slopes - median)
    sigma = MAD_TO_SIGMA * np.median(deviation, axis=1, keepdims=True)
    keep = np.where(sigma > 0, deviation < TRIM_SIGMAS * sigma, deviation == 0)
    velocity = _masked_median(slopes, keep)
    spread = MAD_TO_SIGMA * _masked_median(np.abs(slopes - velocity[:, None]), keep)
    return velocity, spread, keep.sum(axis=1)


def _masked_median(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Median of each row over its kept entries (mean of the two middle ones for an even count)."""
    ordered = np.sort(np.where(keep, values, np.inf), axis=1)
    count = keep.sum(axis=1)
    rows = np.arange(len(values))
    low, high = ordered[rows, np.maximum((count - 1) // 2, 0)], ordered[rows, np.maximum(count // 2, 0)]
    return np.where(count > 0, (low + high) / 2 if ordered.shape[1] else np.nan, np.nan)


def _estimate(t: np.ndarray, d: np.ndarray, pairs: MidasPairs) -> tuple[np.ndarray, ...]:
    """Steps 2-5 on rows of ``d`` (shape (r, m)): velocity, uncertainty, scatter of kept slopes, kept count."""
    years = (t[pairs.second] - t[pairs.first]) / DAYS_PER_YEAR
    slopes = (d[:, pairs.second] - d[:, pairs.first]) / years
    velocity, spread, kept = _trimmed_median(slopes)
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma = SIGMA_SCALE * np.sqrt(np.pi / 2) * spread / np.sqrt(kept / PAIRS_PER_INDEPENDENT)
    return velocity, sigma, spread, kept


def midas_matrix(t_days: np.ndarray, d: np.ndarray, steps: tuple[float, ...] = ()) -> dict[str, np.ndarray]:
    """MIDAS on many realisations sharing one time axis: ``d`` of shape (r, m) in mm, ``t_days`` (m,).

    Returns arrays of shape (r,): ``velocity_mm_yr``, ``sigma_mm_yr``, ``n_kept`` (NaN / 0 when the
    record allows no velocity). Used by the simulations; `midas_velocity` is the one-series view.
    """
    t = np.asarray(t_days, dtype=float)
    d = np.atleast_2d(np.asarray(d, dtype=float))
    pairs = select_pairs(t, steps)
    if _reason(t, pairs) is not None:
        return {"velocity_mm_yr": np.full(len(d), np.nan), "sigma_mm_yr": np.full(len(d), np.nan),
                "n_kept": np.zeros(len(d), dtype=int)}
    velocity, sigma, _, kept = _estimate(t, d, pairs)
    return {"velocity_mm_yr": velocity, "sigma_mm_yr": sigma, "n_kept": kept}


def _reason(t: np.ndarray, pairs: MidasPairs) -> str | None:
    if len(t) < MIN_EPOCHS:
        return "too_few_epochs"
    if t[-1] - t[0] < DAYS_PER_YEAR + MIN_EPOCHS + PAIR_TOL_DAYS:
        return "too_short"
    if len(pairs.first) < MIN_PAIRS:
        return "excluded_by_steps" if pairs.n_without_steps >= MIN_PAIRS else "too_few_pairs"
    return None


def midas_velocity(t_days: np.ndarray, d: np.ndarray, steps: tuple[float, ...] = ()) -> MidasVelocity:
    """The MIDAS velocity of one component (Blewitt et al. 2016; steps 1-5 of the module docstring).

    Args:
        t_days: sorted epoch times in days (shape (m,)), gaps allowed.
        d: displacements in mm (shape (m,)).
        steps: day indices of the first epoch after each known step; pairs never span one.

    Returns a `MidasVelocity`; an undefined velocity (NaN) carries its ``reason``. Never raises on short
    or empty records.
    """
    t = np.asarray(t_days, dtype=float)
    pairs = select_pairs(t, steps)
    reason = _reason(t, pairs)
    span = t[pairs.second] - t[pairs.first]
    counts = dict(n_exact=int(pairs.exact.sum()), n_fallback=int((~pairs.exact).sum()),
                  longest_pair_days=float(span.max()) if span.size else 0.0, n_without_steps=pairs.n_without_steps)
    if reason is not None:
        return MidasVelocity(float("nan"), float("nan"), len(pairs.first), 0, **counts, reason=reason)
    velocity, sigma, spread, kept = _estimate(t, np.asarray(d, dtype=float)[None, :], pairs)
    return MidasVelocity(float(velocity[0]), float(sigma[0]), len(pairs.first), int(kept[0]), **counts,
                         scatter_mm_yr=float(spread[0]))

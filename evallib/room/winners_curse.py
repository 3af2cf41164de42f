"""The winner's curse, quantified from the room's own data: how much luck alone lifts the best.

The best of K attempts on the same n items is biased upward even when all K are equally good: its
visible score is the maximum of K noisy scores. The board re-measures the top attempts on held-out
items (Kaggle's public/private split); this module says how large a drop to expect and whether the
held-out items could have shown it.

Method (what "see the code" shows): a **within-item bootstrap under equal skill**. The outcome
matrix is attempts x items (the paired outcome the board compares: ``correct`` 1/0 for trigger
queries and persona responses, ``loss`` per judge case). If every attempt had the same skill, each
attempt's outcome on item j would be a draw from one distribution per item, which the K observed
outcomes of that column estimate. Each bootstrap draw gives every attempt, on every item it scored,
an outcome drawn with replacement from that item's column (for 0/1 outcomes: a Bernoulli draw at the
item's pooled success rate, the parametric bootstrap with per-item rates; item difficulty is kept,
attempt skill is erased), recomputes every attempt's mean, sorts them, and records how far the r-th
best lies above the mean of the attempts. Over ``draws`` draws:

- ``inflation`` (rank r): the mean of that lift, what luck alone adds to the r-th best of K equal
  attempts on these items (in the outcome's unit: accuracy per query or per response, squared
  points per case for the judge, where "lift" means a lower loss);
- ``luck_high``: its 95th percentile. The observed ``lead`` of the attempt over the mean of the
  attempts, when at most ``luck_high``, is within what luck alone gives: the visible figure is
  ``curse_likely_inflated``; beyond, ``curse_beyond_luck`` (part of the lead is skill).

The held-out check: with n_h held-out items and the outcomes' pooled standard deviation sigma (all
scored outcomes, visible and held-out, all attempts; for 0/1 outcomes sqrt(p(1 - p))), the drop of
the held-out mean below the visible one is significant (one-sided, level alpha) beyond
z_{1-alpha} sigma / sqrt(n_h), and the **smallest drop the held-out items detect** with probability
``power`` is (z_{1-alpha} + z_{power}) sigma / sqrt(n_h) (normal approximation of the held-out mean).
The held-out part can say "consistent" only when that detectable drop is at most the estimated
inflation; otherwise it reads ``curse_heldout_too_small``, never "consistent".

Sources: the optimiser's curse, J. E. Smith & R. L. Winkler (2006), Management Science 52:311-322;
order statistics of the maximum, H. A. David & H. N. Nagaraja (2003), Order Statistics, 3rd ed.;
the bootstrap, B. Efron & R. Tibshirani (1993), An Introduction to the Bootstrap, ch. 6;
detectable effect of a one-sample z test, J. Cohen (1988), Statistical Power Analysis, ch. 2.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evallib.readings import Reading

ALPHA = 0.05
#: Chance that the held-out check sees a drop of the detectable size (the usual 80 %, Cohen 1988).
POWER = 0.80
#: The share of luck's lifts a lead must exceed to be called beyond luck (its 95th percentile).
LUCK_QUANTILE = 0.95
#: Bootstrap draws: the 95th percentile of the lift rests on 25 draws beyond it at 500.
DRAWS = 500
#: Attempts x items x draws simulated at once (float64 cells: about 32 MB).
_BLOCK_CELLS = 1 << 22


@dataclass(frozen=True)
class CurseCheck:
    """The winner's curse for the attempt at board ``rank`` (row ``index`` of the matrices).

    ``visible`` and ``held_out`` are the attempt's mean outcome on its scored visible and held-out items
    (``held_out`` None when ``held_out_n`` is 0); ``inflation`` and ``luck_high`` the mean and 95th
    percentile of what luck alone adds to the ``rank``-th best of the ``attempts`` (module docstring),
    ``lead`` how far the attempt lies above the attempts' mean; ``detectable`` the smallest drop the held-out
    items detect, ``drop`` the observed one (positive: worse on the held-out items). ``luck`` reads the
    lead, ``reading`` the held-out check."""

    rank: int
    index: int
    visible: float
    held_out: float | None
    held_out_n: int
    inflation: float
    luck_high: float
    lead: float
    detectable: float | None
    drop: float | None
    luck: Reading
    reading: Reading


def data_seed(*arrays: np.ndarray) -> int:
    """A seed from the bytes of ``arrays``: the same room gives the same draws at every refresh."""
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array, dtype=float).tobytes())
        digest.update(str(np.shape(array)).encode())
    return int.from_bytes(digest.digest()[:8], "little")


def attempt_means(scored: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each attempt's mean outcome over its scored items: (attempts, items) -> (attempts,), NaN when none."""
    counts = scored.sum(axis=1)
    sums = np.where(scored, values, 0.0).sum(axis=1)
    return np.divide(sums, counts, out=np.full(len(counts), np.nan), where=counts > 0)


def luck_lift(scored: np.ndarray, goodness: np.ndarray, *, top: int, draws: int = DRAWS,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(mean, 95th percentile) of the lift of the r-th best attempt, r = 1..``top``, under equal skill.

    Args:
        scored: (attempts, items) bool, the cells with an outcome.
        goodness: (attempts, items) outcomes oriented so that higher is better (a loss negated).
        top: how many ranks to report (at most the attempts that scored an item).
        draws: bootstrap draws.
        rng: the generator (seed it with `data_seed` for a stable board).

    Returns two arrays of shape (top,): lift = r-th largest simulated mean minus the mean of the
    simulated means (module docstring: within-item bootstrap). Zeros when no item has a spread.
    """
    columns = scored.any(axis=0)
    scored, goodness = scored[:, columns], goodness[:, columns]
    k, n = scored.shape
    active = scored.any(axis=1)
    top = min(top, int(active.sum()))
    if n == 0 or top == 0:
        return np.zeros(top), np.zeros(top)
    counts = scored.sum(axis=0)
    pools = np.zeros((n, k))  # column j's scored outcomes first, padded
    for j in range(n):
        pools[j, :counts[j]] = goodness[scored[:, j], j]
    per_item = np.arange(n)
    weight = scored[active].astype(float)
    lifts = np.empty((draws, top))
    step = max(1, _BLOCK_CELLS // (k * n))
    for start in range(0, draws, step):
        size = min(step, draws - start)
        pick = np.minimum((rng.random((size, k, n)) * counts).astype(np.int64), counts - 1)
        simulated = pools[per_item, pick][:, active]
        means = (simulated * weight).sum(axis=2) / weight.sum(axis=1)
        ordered = -np.sort(-means, axis=1)
        lifts[start:start + size] = ordered[:, :top] - means.mean(axis=1, keepdims=True)
    return lifts.mean(axis=0), np.quantile(lifts, LUCK_QUANTILE, axis=0)


def detectable_drop(sigma: float, n: int, *, alpha: float = ALPHA, power: float = POWER) -> float:
    """Smallest drop of a mean over ``n`` items a one-sided level-``alpha`` z test detects with probability
    ``power``: (z_{1-alpha} + z_{power}) sigma / sqrt(n). Raises ValueError when n < 1.

    >>> round(detectable_drop(0.4, 8), 3)
    0.352
    """
    if n < 1:
        raise ValueError(f"a detectable drop needs at least one item, got {n}")
    return float((stats.norm.ppf(1 - alpha) + stats.norm.ppf(power)) * sigma / np.sqrt(n))


def luck_reading(*, attempts: int, spread: bool, inflation: float, luck_high: float, lead: float,
                 visible: float, rank: int, number: int) -> Reading:
    """What luck alone explains of one top attempt's visible figure.

    Codes: ``curse_single`` (one attempt: nothing was chosen, no curse), ``curse_no_spread`` (every
    visible outcome identical: luck lifts nothing), ``curse_likely_inflated`` (``lead`` <= ``luck_high``:
    luck alone gives such a lead; the visible figure likely overstates by about ``inflation``),
    ``curse_beyond_luck`` (a lead larger than luck gives in 95 % of draws: part of it is skill).
    """
    values = {"attempts": attempts, "rank": rank, "attempt": number, "visible": visible,
              "inflation": inflation, "luck_high": luck_high, "lead": lead, "luck_share": LUCK_QUANTILE}
    if attempts < 2:
        return Reading("curse_single", values)
    if not spread:
        return Reading("curse_no_spread", values)
    if lead <= luck_high:
        return Reading("curse_likely_inflated", values)
    return Reading("curse_beyond_luck", values)


def held_out_check(*, visible: float, held_out: float | None, held_out_n: int, sigma: float, inflation: float,
                   lower_is_better: bool = False, alpha: float = ALPHA, power: float = POWER) -> Reading:
    """What the held-out items say of one visible figure, and whether they could have said it.

    Codes: ``curse_heldout_none`` (no held-out item scored), ``curse_no_gap`` (luck lifts nothing
    here, ``inflation`` 0: no selection gap to check), ``curse_heldout_lower`` (the held-out mean is
    significantly worse, one-sided at ``alpha``: the drop is seen), ``curse_heldout_too_small`` (the
    smallest detectable drop exceeds the inflation: these items could not have shown it), and
    ``curse_consistent`` (they could have shown a drop of that size and did not).
    Values: visible, held_out, held_out_n, inflation, detectable, drop (positive: worse held out),
    power_share, level_share (alpha).
    """
    values = {"visible": visible, "held_out_n": held_out_n, "inflation": inflation, "power_share": power,
              "level_share": alpha}
    if held_out_n == 0 or held_out is None:
        return Reading("curse_heldout_none", values)
    drop = (held_out - visible) if lower_is_better else (visible - held_out)
    detectable = detectable_drop(sigma, held_out_n, alpha=alpha, power=power)
    values.update(held_out=held_out, drop=drop, detectable=detectable)
    threshold = stats.norm.ppf(1 - alpha) * sigma / np.sqrt(held_out_n)
    if drop > threshold and drop > 0:
        return Reading("curse_heldout_lower", values)
    if inflation <= 0:
        return Reading("curse_no_gap", values)
    if detectable > inflation:
        return Reading("curse_heldout_too_small", values)
    return Reading("curse_consistent", values)


def winners_curse(scored: np.ndarray, values: np.ndarray, held_scored: np.ndarray, held_values: np.ndarray,
                  order: Sequence[int], numbers: Sequence[int], *, lower_is_better: bool = False, top_k: int = 3,
                  alpha: float = ALPHA, power: float = POWER, draws: int = DRAWS,
                  seed: int | None = None) -> tuple[CurseCheck, ...]:
    """The winner's curse of the first ``top_k`` attempts of ``order`` (the board's ranking).

    Args:
        scored, values: (attempts, visible items) cells with an outcome and the outcomes.
        held_scored, held_values: (attempts, held-out items), the same on the held-out items.
        order: attempt indices, best first; numbers: each attempt's number (for the readings).
        lower_is_better: True for a loss (judge).
        seed: the bootstrap's seed (None: `data_seed` of the visible matrices).

    Returns one `CurseCheck` per top attempt that scored a visible item (module docstring).
    """
    sign = -1.0 if lower_is_better else 1.0
    scored, held_scored = np.asarray(scored, bool), np.asarray(held_scored, bool)
    goodness = sign * np.asarray(values, float)
    means = attempt_means(scored, values)
    held_means = attempt_means(held_scored, held_values)
    ranked = [i for i in order if not np.isnan(means[i])][:top_k]
    rng = np.random.default_rng(data_seed(scored, goodness) if seed is None else seed)
    lift, high = luck_lift(scored, goodness, top=len(ranked), draws=draws, rng=rng)
    pooled = np.concatenate([np.asarray(values, float)[scored], np.asarray(held_values, float)[held_scored]])
    sigma = float(pooled.std()) if pooled.size else 0.0
    visible_pool = goodness[scored]
    spread = visible_pool.size > 0 and bool(np.ptp(visible_pool) > 0)
    attempts = int((~np.isnan(means)).sum())
    centre = float(np.nanmean(sign * means)) if attempts else 0.0
    checks = []
    for rank, i in enumerate(ranked, start=1):
        n_h = int(held_scored[i].sum())
        held = None if n_h == 0 else float(held_means[i])
        inflation, luck_high = float(lift[rank - 1]), float(high[rank - 1])
        lead = float(sign * means[i] - centre)
        check = held_out_check(visible=float(means[i]), held_out=held, held_out_n=n_h, sigma=sigma,
                               inflation=inflation, lower_is_better=lower_is_better, alpha=alpha, power=power)
        luck = luck_reading(attempts=attempts, spread=spread, inflation=inflation, luck_high=luck_high, lead=lead,
                            visible=float(means[i]), rank=rank, number=int(numbers[i]))
        checks.append(CurseCheck(rank, int(i), float(means[i]), held, n_h, inflation, luck_high, lead,
                                 check.values.get("detectable"), check.values.get("drop"), luck, check))
    return tuple(checks)

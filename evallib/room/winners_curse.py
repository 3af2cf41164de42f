"""The winner's curse, from the room's own data: what the top attempts' scores are worth once chosen.

The best of K attempts on the same n items is biased upward: it was picked *because* its visible score
was high, and luck is part of why. How much depends on the data: among 30 equal attempts the best owes
its lead to luck alone; one attempt far ahead of the rest owes little. This module estimates each top
attempt's true score after selection, from the room's own data, by the conditional inference on
winners of Andrews, Kitagawa & McCloskey (2024, QJE 139(1):305-358; `evallib.room.selection`):

- **scores**: X_i, attempt i's mean outcome over its scored visible items (the paired outcome the board
  compares: ``correct`` 1/0, or a share in [0, 1] per item, for trigger queries and persona responses;
  ``loss`` per judge case, oriented so that higher is better: a loss is negated). A NaN cell counts as
  unscored;
- **Sigma**: their covariance over items, the **ideal paired bootstrap** (resampling items, the same
  for every attempt), computed exactly rather than by Monte Carlo (`score_covariance`);
- **the place**: an attempt at board rank r beats the attempts below it and is beaten by those above
  (ranked by X, ties kept in the board's order); AKM condition on that place. A discrete score ties
  (30 binary items: the top two share a score in about half the rooms of 30 equal attempts), and
  the normal approximation needs a continuous one: every score gets a seeded uniform jitter of at
  most half its smallest step (1/n for 0/1 items), the largest to the first of each tie in board
  order (`split_ties`), and its variance w^2/3 is added to Sigma;
- **variances**: a loss keeps the plug-in Sigma. A score bounded in [0, 1] has a variance tied to its
  mean, and the plug-in p(1 - p)/n is smallest exactly when luck lifted p, so that an interval built on
  it sits too high for a lucky winner (too often above its true score). So for a bounded score the **interval** and the **floor** take the
  variance of X_k at each hypothesised mean mu, phi_k mu (1 - mu) / n_k (phi_k: the attempt's variance over
  its Bernoulli bound, 1 for 0/1 outcomes), as Wilson's interval does for one proportion, and the
  **estimate** takes Agresti & Coull's variance (two successes and two failures added: never 0, even
  at 30/30); the estimate is kept inside the interval. Correlations come from the plug-in Sigma;
- **estimate**: the hybrid median estimate (beta = alpha / 10, AKM's recommendation; median bias at most
  beta / 2) and the hybrid interval at level 1 - alpha, in the outcome's unit. **inflation** = visible
  score minus estimate (positive: luck lifted the visible figure; a lower loss for the judge);
- **floor**: the one-sided projection bound at level 1 - alpha (AKM section 3), the largest mu with
  X_k - mu <= c sd_k(mu), c the 1 - alpha quantile of max_j xi_j / sigma_j, xi ~ N(0, Sigma): every
  attempt's true score is at least its floor with probability 1 - alpha, so the chosen one's is,
  whatever its place (`selection.projection_floor`; Wilson's bound at c for a 0/1 score). The hybrid's
  own one-sided bound conditions on the place: when the runner-up is close, a winner far below its
  visible score would also have just won, and that bound falls to the projection's level-beta limit
  (on 100 items, one attempt at 0.95 among 29 at 0.80 was called luck in 12 % of rooms with it, in
  5.9 % with the projection; bench/board_readings.py, docs/room.md#luck-lift).

Reading (`luck_reading`): the lead is **partly real** (``curse_beyond_luck``) when the floor of the
attempt's true score is better than the mean of the other attempts' visible scores; otherwise **luck may
explain it** (``curse_likely_inflated``). Under equal skill the true score is the others' mean, so
"partly real" should be read in at most about 5 % of rooms (bench/board_readings.py measures it).

The held-out check: with n_h held-out items and the outcomes' pooled standard deviation sigma (all
scored outcomes, visible and held-out, all attempts; for 0/1 outcomes sqrt(p(1 - p))), the drop of
the held-out mean below the visible one is significant (one-sided, level alpha) beyond
z_{1-alpha} sigma / sqrt(n_h), and the **smallest drop the held-out items detect** with probability
``power`` is (z_{1-alpha} + z_{power}) sigma / sqrt(n_h) (normal approximation of the held-out mean).
The held-out part can say "consistent" only when that detectable drop is at most the estimated
inflation; otherwise it reads ``curse_heldout_too_small``, never "consistent".

Sources: I. Andrews, T. Kitagawa & A. McCloskey (2024), "Inference on winners", QJE 139(1):305-358;
the optimiser's curse, J. E. Smith & R. L. Winkler (2006), Management Science 52:311-322; the bootstrap,
B. Efron & R. Tibshirani (1993), An Introduction to the Bootstrap, ch. 6 and 21 (the ideal bootstrap
of a mean); E. B. Wilson (1927), JASA 22:209-212 (variance at the hypothesis); A. Agresti & B. A. Coull (1998),
The American Statistician 52:119-126; detectable effect of a
one-sided z test, J. Cohen (1988), Statistical Power Analysis, ch. 2.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evallib.readings import Reading
from evallib.room.selection import projection_floor, projection_quantile, selected_inference

ALPHA = 0.05
#: The projection's level in the hybrid inference: alpha / 10, as AKM (2024) recommend.
BETA = ALPHA / 10
#: Chance that the held-out check sees a drop of the detectable size (the usual 80 %, Cohen 1988).
POWER = 0.80
#: Bootstrap draws of the board's other resamplings (`evallib.room.ranks`); the curse needs none.
DRAWS = 500


@dataclass(frozen=True)
class CurseCheck:
    """The winner's curse for the attempt at board ``rank`` (row ``index`` of the matrices).

    ``visible`` and ``held_out`` are the attempt's mean outcome on its scored visible and held-out items
    (``held_out`` None when ``held_out_n`` is 0), in the outcome's unit (a loss for the judge);
    ``estimate`` its true score estimated after selection and ``low``-``high`` the hybrid interval
    (None when it cannot be estimated: one attempt, no spread, a loss that never varies);
    ``inflation`` = visible minus estimate, oriented so that positive means luck flattered it (0 when
    not estimated); ``others`` the other attempts' mean visible score and ``lead`` the attempt's lead
    over it (positive: better); ``detectable`` the smallest drop the held-out items detect, ``drop`` the
    observed one (positive: worse on the held-out items). ``luck`` reads the lead, ``reading`` the
    held-out check."""

    rank: int
    index: int
    visible: float
    held_out: float | None
    held_out_n: int
    estimate: float | None
    low: float | None
    high: float | None
    bound: float | None
    inflation: float
    others: float | None
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


def score_covariance(scored: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(means (K,), covariance (K, K)) of the attempts' mean outcomes under the ideal paired bootstrap.

    Resampling the items (columns) with replacement, the same draw for every attempt, each mean X_i =
    sum_j s_ij x_ij / n_i moves, to first order, by sum_j (W_j - 1) u_ij with u_ij = s_ij (x_ij - X_i) / n_i
    (W_j: how often item j is drawn); hence Cov(X_i, X_k) = sum_j u_ij u_kj. Exact for complete data
    (each mean is then linear in W), the delta method when cells are missing (Efron & Tibshirani 1993,
    ch. 21). Attempts with no scored item get NaN means and zero rows.

    >>> means, cov = score_covariance(np.ones((2, 4), bool), np.array([[1., 0., 1., 1.], [1., 1., 0., 1.]]))
    >>> means.tolist(), cov.round(4).tolist()
    ([0.75, 0.75], [[0.0469, -0.0156], [-0.0156, 0.0469]])
    """
    scored = np.asarray(scored, bool)
    means = attempt_means(scored, values)
    counts = np.maximum(scored.sum(axis=1), 1)
    u = np.where(scored, np.asarray(values, float) - np.nan_to_num(means)[:, None], 0.0) / counts[:, None]
    return means, u @ u.T


def split_ties(scores: np.ndarray, place: Sequence[int], half_width: float, rng: np.random.Generator) -> np.ndarray:
    """``scores`` plus a uniform jitter in [-half_width, half_width], the largest jitter of each group of
    equal scores going to its first attempt in ``place`` order (the board's tie-break): given the order,
    that is the jitter's conditional law. With ``half_width`` below half the smallest gap between distinct
    scores, no other order changes."""
    jitter = rng.uniform(-half_width, half_width, len(scores))
    position = np.empty(len(scores), int)
    position[np.asarray(place)] = np.arange(len(place))
    for value in np.unique(scores):
        group = np.flatnonzero(scores == value)
        if len(group) > 1:
            jitter[group[np.argsort(position[group])]] = np.sort(jitter[group])[::-1]
    return scores + jitter


def smallest_step(scored: np.ndarray, goodness: np.ndarray, means: np.ndarray) -> float:
    """Half the step of the scores' lattice: min(smallest gap between distinct item outcomes / the most
    items an attempt scored, smallest gap between distinct means) / 2 (0 when nothing differs)."""
    outcomes = np.unique(goodness[scored])
    finite = np.unique(means[~np.isnan(means)])
    gaps = [np.diff(outcomes).min() / scored.sum(axis=1).max()] if outcomes.size > 1 else []
    gaps += [np.diff(finite).min()] if finite.size > 1 else []
    return float(min(gaps)) / 2 if gaps else 0.0


def luck_reading(*, attempts: int, spread: bool, varies: bool, visible: float, estimate: float | None,
                 low: float | None, high: float | None, bound: float | None, others: float | None,
                 inflation: float, rank: int,
                 number: int, lower_is_better: bool = False, alpha: float = ALPHA) -> Reading:
    """What luck explains of one top attempt's lead, from its true score estimated after selection.

    Codes: ``curse_single`` (one attempt: nothing was chosen, no curse), ``curse_no_spread`` (every
    visible outcome identical: luck lifts nothing), ``curse_no_variance`` (a loss that is the same on every
    item this attempt scored: no spread to gauge luck by), ``curse_beyond_luck`` (the one-sided ``bound`` of
    its true score is better than ``others``, the other attempts' mean visible score: part of the lead is real)
    and ``curse_likely_inflated`` (it is not: luck may explain the lead). Values: attempts, rank, attempt
    (its number), visible, estimate, low, high (the interval), bound (the one-sided floor: a ceiling for a
    loss), others, inflation (visible minus estimate, positive when luck flattered it), level_share (1 - alpha).
    """
    values = {"attempts": attempts, "rank": rank, "attempt": number, "visible": visible, "inflation": inflation,
              "level_share": 1 - alpha}
    if attempts < 2:
        return Reading("curse_single", values)
    if not spread:
        return Reading("curse_no_spread", values)
    if not varies or estimate is None:
        return Reading("curse_no_variance", values)
    values.update(estimate=estimate, low=low, high=high, bound=bound, others=others)
    better = bound < others if lower_is_better else bound > others
    return Reading("curse_beyond_luck" if better else "curse_likely_inflated", values)


def detectable_drop(sigma: float, n: int, *, alpha: float = ALPHA, power: float = POWER) -> float:
    """Smallest drop of a mean over ``n`` items a one-sided level-``alpha`` z test detects with probability
    ``power``: (z_{1-alpha} + z_{power}) sigma / sqrt(n). Raises ValueError when n < 1.

    >>> round(detectable_drop(0.4, 8), 3)
    0.352
    """
    if n < 1:
        raise ValueError(f"a detectable drop needs at least one item, got {n}")
    return float((stats.norm.ppf(1 - alpha) + stats.norm.ppf(power)) * sigma / np.sqrt(n))


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


def _selected(goodness: np.ndarray, covariance: np.ndarray, counts: np.ndarray, dispersion: np.ndarray,
              ranked: Sequence[int], place: Sequence[int], *, bounded: bool, half_width: float,
              alpha: float, beta: float, rng: np.random.Generator) -> dict[int, tuple[float, float, float, float]]:
    """{attempt: (estimate, low, high, floor)} on the goodness scale for the ``ranked`` attempts whose score
    varies, each conditional on its ``place`` (module docstring): the estimate with the plug-in Sigma, the
    interval with the variance at the hypothesis when the score is bounded; the floor by projection (over
    every attempt, whatever the places), with the same variances.
    ``goodness``, ``covariance`` over the active attempts only."""
    jittered = split_ties(goodness, place, half_width, rng)
    sd = np.sqrt(np.diag(covariance))
    with np.errstate(divide="ignore", invalid="ignore"):
        correlation = np.where(np.outer(sd, sd) > 0, covariance / np.outer(sd, sd), 0.0)
    np.fill_diagonal(correlation, 1.0)
    if bounded:  # Agresti & Coull's variance: two successes and two failures added to each attempt
        centre = (goodness * counts + 2) / (counts + 4)
        sd = np.sqrt(dispersion * centre * (1 - centre) / (counts + 4))
    sd = np.sqrt(sd ** 2 + half_width ** 2 / 3)
    c_beta = projection_quantile(correlation, beta, rng)
    c_floor = projection_quantile(correlation, alpha, rng, one_sided=True)
    position = {attempt: p for p, attempt in enumerate(place)}
    options = dict(alpha=alpha, beta=beta, c_beta=c_beta)
    results = {}
    for i in ranked:
        if np.diag(covariance)[i] <= 0 and not bounded:
            continue
        above, below = list(place[:position[i]]), list(place[position[i] + 1:])
        plug_in = selected_inference(jittered, i, below, above, correlation, lambda mu: np.tile(sd, (len(mu), 1)),
                                     bracket=(jittered[i] - c_beta * sd[i], jittered[i] + c_beta * sd[i]), **options)
        if not bounded:
            floor = projection_floor(goodness[i], c_floor, sd=float(np.sqrt(covariance[i, i])))
            results[i] = (plug_in.estimate, plug_in.low, plug_in.high, floor)
            continue

        def sd_at(mu: np.ndarray, i=i) -> np.ndarray:
            spread = np.tile(sd, (len(mu), 1))
            spread[:, i] = np.sqrt(dispersion[i] * mu * (1 - mu) / counts[i] + half_width ** 2 / 3)
            return spread

        widest = np.sqrt(dispersion[i] / (4 * counts[i]) + half_width ** 2 / 3)
        bracket = (max(1e-9, jittered[i] - c_beta * widest), min(1 - 1e-9, jittered[i] + c_beta * widest))
        null = selected_inference(jittered, i, below, above, correlation, sd_at, bracket=bracket, **options)
        # the two variances can part at the edges (30/30): the estimate is kept inside its interval
        floor = projection_floor(goodness[i], c_floor, dispersion=dispersion[i], n=counts[i])
        results[i] = (float(np.clip(plug_in.estimate, null.low, null.high)), null.low, null.high, floor)
    return results


def winners_curse(scored: np.ndarray, values: np.ndarray, held_scored: np.ndarray, held_values: np.ndarray,
                  order: Sequence[int], numbers: Sequence[int], *, lower_is_better: bool = False, top_k: int = 3,
                  alpha: float = ALPHA, beta: float = BETA, power: float = POWER,
                  seed: int | None = None) -> tuple[CurseCheck, ...]:
    """The winner's curse of the first ``top_k`` attempts of ``order`` (the board's ranking).

    Args:
        scored, values: (attempts, visible items) cells with an outcome and the outcomes (1/0, a share in
            [0, 1], or a loss); a NaN value counts as unscored.
        held_scored, held_values: (attempts, held-out items), the same on the held-out items.
        order: attempt indices, best first (it breaks ties); numbers: each attempt's number (for the readings).
        lower_is_better: True for a loss (judge).
        alpha, beta: the hybrid interval's level 1 - alpha and its projection's level beta (AKM 2024).
        seed: the jitter's and projection's seed (None: `data_seed` of the visible matrices).

    Returns one `CurseCheck` per top attempt that scored a visible item (module docstring).
    """
    sign = -1.0 if lower_is_better else 1.0
    values, held_values = np.asarray(values, float), np.asarray(held_values, float)
    scored = np.asarray(scored, bool) & np.isfinite(values)
    held_scored = np.asarray(held_scored, bool) & np.isfinite(held_values)
    values, held_values = np.where(scored, values, 0.0), np.where(held_scored, held_values, 0.0)
    means, covariance = score_covariance(scored, sign * values)
    means = sign * means
    held_means = attempt_means(held_scored, held_values)
    active = np.flatnonzero(~np.isnan(means))
    ranked = [i for i in order if not np.isnan(means[i])][:top_k]
    pooled = np.concatenate([values[scored], held_values[held_scored]])
    sigma = float(pooled.std()) if pooled.size else 0.0
    goodness = sign * values
    spread = bool(scored.any() and np.ptp(goodness[scored]) > 0)
    attempts = len(active)
    counts = scored.sum(axis=1)
    estimates: dict[int, tuple[float, float, float, float]] = {}
    if attempts >= 2 and spread:
        rng = np.random.default_rng(data_seed(scored, goodness) if seed is None else seed)
        scores = sign * means[active]
        rank_of = {int(i): p for p, i in enumerate(order)}
        place = sorted(range(attempts), key=lambda p: (-scores[p], rank_of.get(int(active[p]), len(order)), p))
        bounded = not lower_is_better and bool(np.all((goodness[scored] >= 0) & (goodness[scored] <= 1)))
        local = covariance[np.ix_(active, active)]
        bernoulli = np.clip(scores * (1 - scores), 0.0, None)
        ratio = np.diag(local) * counts[active] / np.where(bernoulli > 0, bernoulli, 1.0)
        dispersion = np.where(bernoulli > 0, ratio, 1.0)
        found = _selected(scores, local, counts[active], np.clip(dispersion, 0.0, 1.0),
                          [int(np.flatnonzero(active == i)[0]) for i in ranked], place, bounded=bounded,
                          half_width=smallest_step(scored, goodness, sign * means), alpha=alpha, beta=beta, rng=rng)
        estimates = {int(active[p]): value for p, value in found.items()}
    checks = []
    for rank, i in enumerate(ranked, start=1):
        n_h = int(held_scored[i].sum())
        held = None if n_h == 0 else float(held_means[i])
        others = float(np.mean(np.delete(means[active], np.flatnonzero(active == i)))) if attempts > 1 else None
        lead = 0.0 if others is None else float(sign * (means[i] - others))
        estimate = low = high = bound = None
        inflation = 0.0
        if i in estimates:
            good_estimate, good_low, good_high, good_floor = estimates[i]
            estimate, bound = sign * good_estimate, sign * good_floor
            low, high = sorted((sign * good_low, sign * good_high))
            inflation = float(sign * means[i] - good_estimate)
        check = held_out_check(visible=float(means[i]), held_out=held, held_out_n=n_h, sigma=sigma,
                               inflation=inflation, lower_is_better=lower_is_better, alpha=alpha, power=power)
        luck = luck_reading(attempts=attempts, spread=spread, varies=i in estimates, visible=float(means[i]),
                            estimate=estimate, low=low, high=high, bound=bound, others=others, inflation=inflation,
                            rank=rank,
                            number=int(numbers[i]), lower_is_better=lower_is_better, alpha=alpha)
        checks.append(CurseCheck(rank, int(i), float(means[i]), held, n_h, estimate, low, high, bound, inflation,
                                 others, lead, check.values.get("detectable"), check.values.get("drop"), luck, check))
    return tuple(checks)

"""Rank uncertainty on the board: rank intervals, the attempts that could be the best, items needed.

All three rest on one **paired bootstrap over items** (every attempt answered the same items, so a
draw resamples items, with replacement, and recomputes every attempt's mean outcome on the same
resampled items: the paired outcome the board compares, ``correct`` per query or response, ``loss``
per judge case, lower better).

1. **Rank interval** (as Chatbot Arena's leaderboard shows one from its bootstrap): in each draw an
   attempt's rank is 1 + the number of attempts strictly better in that draw (ties share the better
   rank); the 95 % interval is the 2.5th and 97.5th percentiles of its ranks (inverted-CDF percentiles,
   so the bounds are ranks that occurred).
2. **The attempts that could be the best**, valid although the best was picked from the same data:
   multiple comparisons with the best (Hsu 1984; Gupta's subset selection), with bootstrap critical
   values. For each attempt i and every other j, t_ij = (s_j - s_i) / se_ij, se_ij the bootstrap
   standard deviation of s*_j - s*_i. Attempt i stays in the set when max_j t_ij <= c_i, c_i the
   (1 - alpha) quantile over draws of max_j [(s*_j - s*_i) - (s_j - s_i)] / se_ij. If b is the truly
   best attempt, every s_j - s_b is at most its centred deviation, so b leaves the set with probability
   at most alpha (asymptotically): the set holds the best with 95 % confidence, whatever attempt the data
   put first. An attempt outside it is "not better than the best of the others" (true also under a tie).
   The critical values come from a multivariate t (df = items - 1) with the bootstrap covariance of the
   scores. Measured (30 attempts all at 0.80, 300 rooms): a given attempt is left out 8.5 % of the time
   on 30 items and 5 % on 200, against the nominal 5 %: the standard errors estimated on few items make
   it somewhat liberal there (an unstudentised max was far more conservative, 1-3 %, and lost all power).
   Naming **one** attempt as the best (a set of one) is the board's "better" call.
3. **Items needed** when the set holds more than one attempt: for the best and the next attempt of the
   set, with per-item paired differences of mean delta and standard deviation sd (normal approximation
   of the paired differences), n = ((c + z_power) sd / delta)^2 items would exclude the second with
   probability ``power`` at the same difference, c the second's critical value c_i above (already
   corrected for the number of attempts).

The seed is derived from the data (`evallib.room.winners_curse.data_seed`): the board is the same at
every refresh.

Sources: W.-L. Chiang et al. (2024), "Chatbot Arena: An Open Platform for Evaluating LLMs by Human
Preference", ICML (bootstrap confidence intervals and ranks); J. C. Hsu (1984), "Constrained
simultaneous confidence intervals for multiple comparisons with the best", Annals of Statistics
12:1136-1144; J. C. Hsu (1996), Multiple Comparisons, ch. 4; M. Mogstad, J. P. Romano, A. Shaikh &
D. Wilhelm (2024), "Inference for ranks", Review of Economic Studies 91:476-518; B. Efron &
R. Tibshirani (1993), An Introduction to the Bootstrap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evallib.readings import Reading
from evallib.room.winners_curse import ALPHA, DRAWS, POWER, attempt_means, data_seed

#: Draws of the multivariate t that give the critical values c_i, per bootstrap draw (2,000 at 500).
CRITICAL_PER_DRAW = 4


@dataclass(frozen=True)
class RankUncertainty:
    """Per attempt (input order, numbered ``numbers``): ``low``/``high`` its 95 % rank interval, ``score``
    its mean outcome, ``critical`` its c_i; ``possible_best`` the indices that could be the best (best
    first); ``reading`` the board's sentence (`rank_reading`), ``needed`` the items it would take (None
    when not asked)."""

    numbers: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    score: tuple[float, ...]
    critical: tuple[float, ...]
    possible_best: tuple[int, ...]
    needed: int | None
    reading: Reading
    draws: int
    alpha: float


def bootstrap_scores(scored: np.ndarray, values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Every attempt's mean outcome on each resample of items: counts (draws, items) of how often each
    item is drawn -> (draws, attempts). NaN where an attempt scored none of the drawn items."""
    weighted = counts @ np.where(scored, values, 0.0).T
    used = counts @ scored.T.astype(float)
    return np.divide(weighted, used, out=np.full(weighted.shape, np.nan), where=used > 0)


def ranks_of(scores: np.ndarray) -> np.ndarray:
    """Competition ranks per row, higher better: 1 + attempts strictly better; NaN ranks last.

    (draws, attempts) -> (draws, attempts) ints, as ``scipy.stats.rankdata(-row, method="min")``."""
    filled = np.where(np.isnan(scores), -np.inf, scores)
    return 1 + (filled[:, None, :] > filled[:, :, None]).sum(axis=2)


def rank_intervals(ranks: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) percentile rank interval of each column of ``ranks`` (draws, attempts)."""
    tail = round((1 - level) / 2, 12)  # 0.025, not 0.025000000000000022 (a rank off at 200 draws)
    low = np.quantile(ranks, tail, axis=0, method="inverted_cdf")
    high = np.quantile(ranks, 1 - tail, axis=0, method="inverted_cdf")
    return low.astype(int), high.astype(int)


def _studentised(differences: np.ndarray, se: np.ndarray) -> np.ndarray:
    """differences / se, with 0 / 0 = 0 and d / 0 = +-inf (a difference that never varies)."""
    safe = np.where(se > 0, se, 1.0)
    return np.where(se > 0, differences / safe, np.sign(differences) * np.inf)


def comparisons_with_best(observed: np.ndarray, covariance: np.ndarray, *, df: int, alpha: float = ALPHA,
                          draws: int = CRITICAL_PER_DRAW * DRAWS, rng: np.random.Generator
                          ) -> tuple[np.ndarray, np.ndarray]:
    """(kept, critical): who could be the best and each attempt's c_i (module docstring, point 2).

    Args:
        observed: (attempts,) scores, higher better (NaN: no score, never kept).
        covariance: (attempts, attempts) covariance of the scores (`bootstrap_scores` draws' covariance).
        df: degrees of freedom of the variance estimate (items - 1): the draws are multivariate t.
        draws: Monte Carlo draws of the critical values; rng: their generator.

    With fewer than two scored attempts, every scored one is kept.
    """
    valid = ~np.isnan(observed)
    kept = valid.copy()
    critical = np.zeros(len(observed))
    if valid.sum() < 2:
        return kept, critical
    index = np.flatnonzero(valid)
    s, cov = observed[index], covariance[np.ix_(index, index)]
    variances = np.diag(cov)
    # Cholesky (a ridge of 1e-10 of the largest variance for identical attempts): LAPACK's eigh was 100
    # times slower on a loaded machine; the ridge's noise meets a zero standard error below and counts 0
    ridge = 1e-10 * variances.max() if variances.max() > 0 else 1.0
    root = np.linalg.cholesky(cov + ridge * np.eye(len(s)))
    noise = (rng.standard_normal((draws, len(s))) @ root.T).astype(np.float32)
    noise /= np.sqrt(rng.chisquare(max(df, 1), size=(draws, 1)) / max(df, 1)).astype(np.float32)
    se = np.sqrt(np.clip(variances[:, None] + variances[None, :] - 2 * cov, 0.0, None))
    off = ~np.eye(len(s), dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore"):
        t_obs = np.where(off, _studentised(s[None, :] - s[:, None], se), -np.inf).max(axis=1)
        # 0 on the diagonal and where a difference never varies; the max over j >= 0 changes no c_i > 0
        inverse = np.where(off & (se > 0), 1.0 / se, 0.0).astype(np.float32)
    centred = ((noise[:, None, :] - noise[:, :, None]) * inverse).max(axis=2)  # max_j (Z_j - Z_i) / se_ij
    c = np.quantile(centred, 1 - alpha, axis=0)
    critical[index] = c
    kept[index] = np.nan_to_num(t_obs, nan=0.0) <= c
    return kept, critical


def items_needed(delta: float, sd: float, critical: float, *, power: float = POWER) -> int | None:
    """Items for a paired mean difference ``delta`` (sd ``sd`` per item) to pass ``critical`` with
    probability ``power``: ceil(((critical + z_power) sd / delta)^2); None when delta is 0.

    >>> items_needed(0.1, 0.5, 1.96)
    197
    """
    if delta == 0:
        return None
    return int(np.ceil(((critical + stats.norm.ppf(power)) * sd / abs(delta)) ** 2))


def rank_reading(*, attempts: int, items: int, possible: Sequence[int], numbers: Sequence[int],
                 needed: int | None, difference: float, alpha: float, power: float = POWER) -> Reading:
    """The board's sentence on who could be the best.

    Codes: ``ranks_no_items`` (no visible item scored), ``ranks_single`` (one attempt),
    ``ranks_best_separated`` (one attempt could be the best: the board's "better" call),
    ``ranks_top_tied`` (several could; the top two have the same mean: no number of items would tell
    them apart at this difference), ``ranks_best_among`` (several could; ``needed`` items would separate
    the top two at the observed ``difference``). Values: attempts, items, best (its number), possible
    (numbers, best first), size, confidence_share, power_share; second, difference, needed when asked.
    """
    values = {"attempts": attempts, "items": items, "confidence_share": 1 - alpha, "power_share": power,
              "size": len(possible),
              "possible": tuple(f"#{numbers[i]}" for i in possible)}
    if items == 0 or not possible:
        return Reading("ranks_no_items", values)
    values["best"] = int(numbers[possible[0]])
    if attempts == 1:
        return Reading("ranks_single", values)
    if len(possible) == 1:
        return Reading("ranks_best_separated", values)
    values.update(second=int(numbers[possible[1]]), difference=difference)
    if needed is None:
        return Reading("ranks_top_tied", values)
    values["needed"] = needed
    return Reading("ranks_best_among", values)


def rank_uncertainty(scored: np.ndarray, values: np.ndarray, numbers: Sequence[int], *,
                     lower_is_better: bool = False, alpha: float = ALPHA, power: float = POWER,
                     draws: int = DRAWS, seed: int | None = None) -> RankUncertainty:
    """Rank intervals, the set that could be the best and the items needed (module docstring).

    Args:
        scored: (attempts, items) bool, the visible cells with an outcome; values: the outcomes.
        numbers: each attempt's number (for the reading).
        lower_is_better: True for a loss (judge).
        draws: bootstrap draws (and `CRITICAL_PER_DRAW` times as many for the critical values);
            seed: None derives one from the data (`data_seed`).

    Raises ValueError when the shapes differ.
    """
    scored = np.asarray(scored, bool)
    values = np.asarray(values, float)
    if scored.shape != values.shape or len(numbers) != len(scored):
        raise ValueError(f"scored {scored.shape}, values {values.shape} and {len(numbers)} numbers do not match")
    sign = -1.0 if lower_is_better else 1.0
    columns = scored.any(axis=0)
    scored, goodness = scored[:, columns], sign * values[:, columns]
    m, n = scored.shape
    rng = np.random.default_rng(data_seed(scored, goodness) if seed is None else seed)
    observed = attempt_means(scored, goodness)
    if n == 0:
        empty = tuple([1] * m)
        return RankUncertainty(tuple(numbers), empty, empty, tuple([np.nan] * m), tuple([0.0] * m), (), None,
                               rank_reading(attempts=m, items=0, possible=(), numbers=numbers, needed=None,
                                            difference=0.0, alpha=alpha), draws, alpha)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=draws).astype(float)
    boot = bootstrap_scores(scored, goodness, counts)
    low, high = rank_intervals(ranks_of(boot))
    filled_boot = np.where(np.isnan(boot), observed, boot)  # unscored in a draw: its observed score
    # the bootstrap's covariance divides by n (plug-in); n / (n - 1) makes it the usual unbiased one
    covariance = np.atleast_2d(np.cov(filled_boot, rowvar=False)) * (n / (n - 1) if n > 1 else 1.0)
    kept, critical = comparisons_with_best(observed, covariance, df=n - 1, alpha=alpha,
                                           draws=CRITICAL_PER_DRAW * draws, rng=rng)
    filled = np.where(np.isnan(observed), -np.inf, observed)
    possible = tuple(int(i) for i in sorted(np.flatnonzero(kept), key=lambda i: (-filled[i], i)))
    needed, difference = None, 0.0
    if len(possible) > 1:
        best, second = possible[0], possible[1]
        both = scored[best] & scored[second]
        d = goodness[best, both] - goodness[second, both]
        difference = float(observed[best] - observed[second])
        sd = float(d.std(ddof=1)) if d.size > 1 else 0.0
        needed = items_needed(float(d.mean()) if d.size else 0.0, sd, float(critical[second]), power=power)
    reading = rank_reading(attempts=m, items=n, possible=possible, numbers=numbers, needed=needed,
                           difference=difference, alpha=alpha, power=power)
    return RankUncertainty(tuple(int(x) for x in numbers), tuple(int(x) for x in low), tuple(int(x) for x in high),
                           tuple(float(sign * x) for x in observed), tuple(float(c) for c in critical),
                           possible, needed, reading, draws, alpha)

"""Rank uncertainty on the board: rank confidence sets, the attempts that could be the best, items needed.

Everything rests on one **paired bootstrap over items** (every attempt answered the same items, so a
draw resamples the items, with replacement, and recomputes every attempt's mean outcome on the same
resampled items) and on one family of intervals per attempt. The outcome is the paired one the board
compares: ``correct`` per query or response, ``loss`` per judge case (lower better, turned into a
goodness here); the unit of every interval is the item.

1. **Simultaneous intervals on the differences, marginal per attempt** (Mogstad, Romano, Shaikh &
   Wilhelm 2024, section 3, "marginal confidence sets"). For attempt j and every other k, with
   d_kj = s_k - s_j (scores s, higher better) and se_kj its standard error, the intervals
   d_kj +- c_j se_kj hold together, for the K - 1 attempts k, with probability 1 - alpha. c_j is the
   (1 - alpha) quantile over the draws of the max-|t| statistic max_k |d*_kj - d_kj| / se*_kj, with
   se*_kj computed on the draw's own items (a **bootstrap-t of the maximum**, `STUDENTISE`; the bench
   measured it against the plug-in se_kj, bench/board_readings.py, section C). Two attempts that
   differ on only a few of 30 binary items often differ on none of a draw's items (se*_kj = 0, an
   infinite t in a tenth of the draws): such a draw is studentised by the observed se_kj instead,
   which keeps c_j finite (the bench measured the same coverage). The standard errors are
   the delta-method ones of a difference of means over (possibly) different scored items
   (`difference_errors`); a difference whose standard error is 0 never varies (the two attempts differ
   by the same amount on every item): its interval is the point d_kj.
2. **Rank set** of attempt j (the rank is 1 + the number of attempts strictly better, the board's
   convention; ties share the better rank): [1 + #{k : d_kj - c_j se_kj > 0},
   K - #{k : d_kj + c_j se_kj <= 0}], the attempts surely better, and those surely not better. When
   j's K - 1 intervals hold, its true rank lies in the set: each set holds with probability 1 - alpha
   (marginal: one attempt's set at a time, not all of them together).
3. **The attempts that could be the best**: those whose rank set holds 1 (no attempt surely better),
   the same intervals read once more, so the board's two figures never disagree. The truly best
   attempt's set holds 1 with probability 1 - alpha, whichever attempt the data put first: the set
   holds the best with that confidence although the best was picked on the same data. A set of one is
   the board's "better" call. (Hsu's multiple comparisons with the best, one-sided, would be a little
   sharper but could show an attempt whose rank set reaches 1 outside this list.)
4. **Items needed** when the set holds more than one attempt: for the best and the next attempt of the
   set, with per-item paired differences of mean delta and standard deviation sd (normal approximation
   of the paired differences), n = ((c + z_power) sd / delta)^2 items would exclude the second with
   probability ``power`` at the same difference, c the second's critical value c_j (already corrected
   for the number of attempts).

A cell an attempt did not score (NaN, ``scored`` False) leaves that attempt's mean to the items it
scored; in a draw where it scored none of the drawn items, its score keeps its observed value (that
draw adds nothing to its differences). An attempt with no scored item at all could be anywhere: its set
is [1, K] and it is never named as a possible best. The seed is derived from the data
(`evallib.room.winners_curse.data_seed`): the board is the same at every refresh.

Sources: M. Mogstad, J. P. Romano, A. Shaikh & D. Wilhelm (2024), "Inference for ranks", Review of
Economic Studies 91:476-518 (rank confidence sets from simultaneous intervals on differences,
studentised max statistic); P. Hall (1992), The Bootstrap and Edgeworth Expansion, ch. 3 (bootstrap-t);
B. Efron & R. Tibshirani (1993), An Introduction to the Bootstrap, ch. 12 (bootstrap-t) and 21 (the
delta method); J. C. Hsu (1996), Multiple Comparisons, ch. 4 (comparisons with the best).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evallib.readings import Reading
from evallib.room.winners_curse import ALPHA, DRAWS, POWER, attempt_means, data_seed

#: How the max-|t| statistic is studentised in each draw: "draw" divides each difference by the standard
#: error computed on that draw's items (bootstrap-t; the observed one where the draw's is 0), "plug_in"
#: by the observed one. The bench (bench/board_readings.py, section C) measured both on 30 to 200
#: binary items: "plug_in" fell short on 30 (0.935, its lowest attempt 0.912, with 30 equal attempts),
#: "draw" held (0.971, lowest 0.955).
STUDENTISE = "draw"
STUDENTISATIONS = ("draw", "plug_in")
#: Below this, a squared standard error or a deviation is a rounding error of zero (outcomes of order 1).
_ZERO = 1e-12


@dataclass(frozen=True)
class RankUncertainty:
    """Per attempt (input order, numbered ``numbers``): ``low``/``high`` its marginal rank set at level
    1 - ``alpha``, ``score`` its mean outcome, ``critical`` its c_j; ``possible_best`` the indices whose
    set holds 1 (best first); ``reading`` the board's sentence (`rank_reading`), ``needed`` the items it
    would take (None when not asked); ``studentise`` how the max-|t| was studentised."""

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
    studentise: str = STUDENTISE


def bootstrap_scores(scored: np.ndarray, values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Every attempt's mean outcome on each resample of items: counts (draws, items) of how often each
    item is drawn -> (draws, attempts). NaN where an attempt scored none of the drawn items."""
    weighted = counts @ np.where(scored, values, 0.0).T
    used = counts @ scored.T.astype(float)
    return np.divide(weighted, used, out=np.full(weighted.shape, np.nan), where=used > 0)


def difference_errors(scored: np.ndarray, values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Standard errors of every difference of mean outcomes, on each weighting of the items.

    The delta method (Efron & Tibshirani 1993, ch. 21): attempt j's mean over its scored items has
    per-item influence a_ji = s_ji (x_ji - m_j) / p_j (s the scored mask, m_j the weighted mean, p_j the
    weighted share of items it scored), and se_jk^2 = sum_i w_i (a_ji - a_ki)^2 / n^2 for weights w
    summing to n. With every cell scored it is the plug-in standard deviation of the paired per-item
    differences over sqrt(n).

    Args:
        scored: (attempts, items) bool; values: (attempts, items) outcomes (unscored cells ignored).
        counts: (draws, items) weights, each row summing to the number of items (ones: the data).

    Returns:
        (draws, attempts, attempts) standard errors, 0 on the diagonal and where a difference never
        varies; NaN where an attempt has no weighted item.
    """
    x = np.where(scored, values, 0.0)
    m, n = x.shape
    counts = np.atleast_2d(np.asarray(counts, float))
    total = counts.sum(axis=1)[:, None, None]

    def gram(left: np.ndarray, right: np.ndarray) -> np.ndarray:  # sum_i w_i left_ji right_ki
        return (counts @ (left[:, None, :] * right[None, :, :]).reshape(m * m, n).T).reshape(-1, m, m)

    xx = gram(x, x)
    if scored.all():  # every cell scored: p_j = 1, and the cross terms reduce to the means
        mean = (counts @ x.T) / total[:, :, 0]
        cross = xx / total - mean[:, :, None] * mean[:, None, :]
        cross *= total
    else:
        s = scored.astype(float)
        both, x_both = gram(s, s), gram(x, s)
        used = np.diagonal(both, axis1=1, axis2=2)                  # (draws, attempts): sum_i w_i s_ji
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.diagonal(x_both, axis1=1, axis2=2) / used
            share = used / total[:, :, 0]
            mj, mk = mean[:, :, None], mean[:, None, :]
            cross = (xx - mk * x_both - mj * np.swapaxes(x_both, 1, 2) + mj * mk * both) \
                / (share[:, :, None] * share[:, None, :])
    own = np.diagonal(cross, axis1=1, axis2=2)
    spread = own[:, :, None] + own[:, None, :]
    variance = spread - 2 * cross
    variance[variance <= _ZERO * np.maximum(spread, total)] = 0.0  # rounding errors of a zero
    variance /= total ** 2
    return np.sqrt(variance)


def _abs_t(deviation: np.ndarray, se: np.ndarray) -> np.ndarray:
    """|deviation| / se, with 0 / 0 = 0, d / 0 = inf (a difference the data never vary moved) and NaN = 0."""
    size = np.abs(np.nan_to_num(deviation, nan=0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(se > 0, size / np.where(se > 0, se, 1.0), np.where(size > _ZERO, np.inf, 0.0))
    return np.where(np.isnan(se), 0.0, t)


def max_t_critical(deviation: np.ndarray, se: np.ndarray, *, alpha: float = ALPHA) -> np.ndarray:
    """c_j: the (1 - alpha) quantile over draws of max_{k != j} |deviation_bjk| / se_bjk (module point 1).

    Args:
        deviation: (draws, attempts, attempts) centred bootstrap differences d*_kj - d_kj (NaN: unscored
            in the draw, counts 0).
        se: their standard errors, (draws, attempts, attempts) for a bootstrap-t or (attempts, attempts)
            for the plug-in one. 0 / 0 counts 0; a nonzero deviation over a zero standard error, infinity.

    Returns (attempts,) critical values (0 with one attempt), the quantile taken as the smallest draw
    value with at least 1 - alpha of the draws at or below it (inverted CDF: never below the level).
    """
    draws, m, _ = deviation.shape
    if m < 2:
        return np.zeros(m)
    t = _abs_t(deviation, np.broadcast_to(se, deviation.shape))
    t[:, np.arange(m), np.arange(m)] = 0.0
    return np.quantile(t.max(axis=1), 1 - alpha, axis=0, method="inverted_cdf")


def rank_sets(difference: np.ndarray, se: np.ndarray, critical: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) rank sets from the intervals difference_kj +- critical_j se_kj (module point 2).

    ``difference`` (attempts, attempts) holds s_k - s_j at [k, j] (NaN: not comparable, neither surely
    better nor surely not better); ``se`` its standard errors; ``critical`` (attempts,) each attempt's c_j.
    Low = 1 + #{k: lower bound > 0}; high = K - #{k != j: upper bound <= 0}."""
    m = len(critical)
    with np.errstate(invalid="ignore"):
        half = np.where(se == 0, 0.0, np.nan_to_num(critical[None, :] * se, nan=np.inf))  # se 0: a point
    off = ~np.eye(m, dtype=bool)
    with np.errstate(invalid="ignore"):
        better = off & (difference - half > 0)
        not_better = off & (difference + half <= 0)
    return 1 + better.sum(axis=0), m - not_better.sum(axis=0)


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
                     draws: int = DRAWS, seed: int | None = None, studentise: str = STUDENTISE
                     ) -> RankUncertainty:
    """Rank sets, the attempts that could be the best and the items needed (module docstring).

    Args:
        scored: (attempts, items) bool, the visible cells with an outcome; values: the outcomes.
        numbers: each attempt's number (for the reading).
        lower_is_better: True for a loss (judge).
        draws: bootstrap draws over items; seed: None derives one from the data (`data_seed`).
        studentise: "draw" (bootstrap-t of the max, the default) or "plug_in" (`STUDENTISE`).

    Raises ValueError when the shapes differ or ``studentise`` is unknown.
    """
    scored = np.asarray(scored, bool)
    values = np.asarray(values, float)
    if scored.shape != values.shape or len(numbers) != len(scored):
        raise ValueError(f"scored {scored.shape}, values {values.shape} and {len(numbers)} numbers do not match")
    if studentise not in STUDENTISATIONS:
        raise ValueError(f"studentise must be one of {STUDENTISATIONS}, got {studentise!r}")
    sign = -1.0 if lower_is_better else 1.0
    columns = scored.any(axis=0)
    scored, goodness = scored[:, columns], sign * np.where(scored, values, 0.0)[:, columns]
    m, n = scored.shape
    numbers = tuple(int(x) for x in numbers)
    observed = attempt_means(scored, goodness)
    if n == 0:
        return RankUncertainty(numbers, (1,) * m, (m,) * m, (np.nan,) * m, (0.0,) * m, (), None,
                               rank_reading(attempts=m, items=0, possible=(), numbers=numbers, needed=None,
                                            difference=0.0, alpha=alpha), draws, alpha, studentise)
    rng = np.random.default_rng(data_seed(scored, goodness) if seed is None else seed)
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=draws).astype(float)
    boot = bootstrap_scores(scored, goodness, counts)
    difference = observed[:, None] - observed[None, :]                 # [k, j] = s_k - s_j
    deviation = (boot[:, :, None] - boot[:, None, :]) - difference     # NaN where unscored in a draw
    se = difference_errors(scored, goodness, np.ones((1, n)))[0]
    if studentise == "draw":  # a draw that leaves a pair no varying item: the observed standard error
        draw_se = difference_errors(scored, goodness, counts)
        draw_se = np.where(draw_se > 0, draw_se, se[None, :, :])
    else:
        draw_se = se
    critical = max_t_critical(deviation, draw_se, alpha=alpha)
    low, high = rank_sets(difference, se, critical)
    valid = ~np.isnan(observed)
    filled = np.where(valid, observed, -np.inf)
    possible = tuple(int(i) for i in sorted(np.flatnonzero(valid & (low == 1)), key=lambda i: (-filled[i], i)))
    needed, gap = None, 0.0
    if len(possible) > 1:
        best, second = possible[0], possible[1]
        both = scored[best] & scored[second]
        d = goodness[best, both] - goodness[second, both]
        gap = float(observed[best] - observed[second])
        sd = float(d.std(ddof=1)) if d.size > 1 else 0.0
        needed = items_needed(float(d.mean()) if d.size else 0.0, sd, float(critical[second]), power=power)
    reading = rank_reading(attempts=m, items=n, possible=possible, numbers=numbers, needed=needed,
                           difference=gap, alpha=alpha, power=power)
    return RankUncertainty(numbers, tuple(int(x) for x in low), tuple(int(x) for x in high),
                           tuple(float(sign * x) for x in observed), tuple(float(c) for c in critical),
                           possible, needed, reading, draws, alpha, studentise)

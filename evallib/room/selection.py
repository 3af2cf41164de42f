"""Inference on a score chosen because it ranked where it did (inference on winners).

Andrews, Kitagawa & McCloskey (2024), "Inference on winners", Quarterly Journal of Economics
139(1):305-358 (AKM). Scores X (K,) ~ N(mu, Sigma). Attempt k is picked because of its place among the
others (first, or r-th: the attempts above it and those below it are known). Write sigma_k^2 =
Sigma_kk and, for every attempt j, a_j = Sigma_jk / sigma_k^2 and Z_j = X_j - a_j X_k: Z is independent
of X_k, and given Z the place of k is an interval of X_k,

    X_k >= X_j  (j below k)  <=>  (1 - a_j) X_k >= Z_j,      X_k <= X_j  (j above k)  <=>  (1 - a_j) X_k <= Z_j,

so that, given Z and the place, X_k is a normal N(mu_k, sigma_k^2) truncated to [L, U] (`truncation`;
AKM section 3, the polyhedral lemma). Its CDF at the observed X_k, F(mu), falls as mu rises:

- the **conditional median-unbiased estimate** solves F(mu) = 1/2 (AKM section 4.1); with beta = 0 the
  same inversion gives the conditional equal-tailed interval;
- the **hybrid** (AKM section 4.3) also truncates X_k to the level-beta projection interval
  [mu - c_beta sigma_k, mu + c_beta sigma_k], c_beta the 1 - beta quantile of max_j |xi_j| / sigma_j with
  xi ~ N(0, Sigma) (`projection_quantile`); its interval solves F^H(mu) = 1 - a/2 and a/2 with
  a = (alpha - beta) / (1 - beta), its estimate F^H(mu) = 1/2 (median bias at most beta/2). Both lie
  inside the projection interval, and the interval covers mu_k with probability at least 1 - alpha.

``sd_at(mu)`` gives sigma_k (and every sigma_j, to form a_j) under each hypothesised mu: constant for a
plug-in Sigma, or the variance a bounded score would have at mean mu (as Wilson's interval does for one
proportion; see `evallib.room.winners_curse`). The CDF is computed from log Phi (`scipy.special.log_ndtr`)
so that a truncation deep in a tail keeps its precision.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special

#: Normal draws for the projection quantile c_beta (its 1 - beta quantile rests on 50 draws beyond it
#: at beta = 0.005).
PROJECTION_DRAWS = 10_000
#: Grid cells per refinement of the root search (128 cells, then 64 and 64: a step of 1/2^19 of the bracket).
_GRID = 64
#: |1 - a_j| below this: X_j moves with X_k, its constraint does not bound X_k.
_PARALLEL = 1e-9


@dataclass(frozen=True)
class Selected:
    """Inference on the chosen score's mean: ``estimate`` (hybrid median estimate, or the conditional one
    when ``beta`` is 0), the equal-tailed ``low``-``high`` interval at level 1 - ``alpha``, the truncation
    ``lower``-``upper`` of X_k given Z at the estimate, and ``c_beta`` (inf for the conditional inference)."""

    estimate: float
    low: float
    high: float
    lower: float
    upper: float
    c_beta: float


def projection_quantile(correlation: np.ndarray, beta: float, rng: np.random.Generator,
                        draws: int = PROJECTION_DRAWS, *, one_sided: bool = False) -> float:
    """c_beta: the 1 - ``beta`` quantile of max_j |xi_j| (``one_sided``: of max_j xi_j) for
    xi ~ N(0, ``correlation``) (K, K), by simulation.

    The standardised maximum depends on Sigma through its correlations only. Negative eigenvalues of an
    estimated matrix are set to 0. Raises ValueError unless 0 < beta < 1.
    """
    if not 0 < beta < 1:
        raise ValueError(f"beta must lie strictly between 0 and 1, got {beta}")
    values, vectors = np.linalg.eigh(np.asarray(correlation, float))
    root = vectors * np.sqrt(np.clip(values, 0.0, None))
    xi = rng.standard_normal((draws, len(values))) @ root.T
    return float(np.quantile((xi if one_sided else np.abs(xi)).max(axis=1), 1 - beta))


def projection_floor(x: float, c: float, *, sd: float | None = None, dispersion: float = 1.0,
                     n: int | None = None) -> float:
    """A lower confidence bound for the mean of a score chosen by its place, whatever the place: the
    largest mu with x - mu <= c sd(mu), c the one-sided `projection_quantile` at level alpha, so that
    P(every attempt's mean is at least its floor) >= 1 - alpha (AKM 2024, section 3: projection).

    ``sd`` given: a plug-in standard deviation, floor x - c sd. Else a score bounded in [0, 1] over ``n``
    items with variance ``dispersion`` mu (1 - mu) / n at the hypothesised mu (Wilson's score bound when
    ``dispersion`` is 1; E. B. Wilson 1927, JASA 22:209-212), clipped to [0, x].

    >>> round(projection_floor(1.0, 1.96, n=30), 3)  # Wilson's lower bound for 30/30
    0.886
    >>> projection_floor(0.9, 2.0, sd=0.05)
    0.8
    """
    if sd is not None:
        return x - c * sd
    q = c * c * dispersion / n
    root = np.sqrt(max(0.0, (2 * x + q) ** 2 - 4 * (1 + q) * x * x))
    return float(np.clip((2 * x + q - root) / (2 * (1 + q)), 0.0, x))


def truncation(x: np.ndarray, a: np.ndarray, k: int, below: Sequence[int], above: Sequence[int]
               ) -> tuple[np.ndarray, np.ndarray]:
    """[L, U] of X_k given Z = X - a X_k and k's place, for each row of ``a`` (shape (M, K): one row per
    hypothesised mean; a[:, k] = 1). ``below``: the attempts k beats; ``above``: those that beat it."""
    x = np.asarray(x, float)
    a = np.atleast_2d(a)
    z = x[None, :] - a * x[k]
    slope = 1.0 - a
    lower = np.full(len(a), -np.inf)
    upper = np.full(len(a), np.inf)
    for group, sign in ((list(below), 1.0), (list(above), -1.0)):
        if not group:
            continue
        s, bound = sign * slope[:, group], z[:, group] / np.where(np.abs(slope[:, group]) > _PARALLEL,
                                                                  slope[:, group], 1.0)
        lower = np.maximum(lower, np.where(s > _PARALLEL, bound, -np.inf).max(axis=1))
        upper = np.minimum(upper, np.where(s < -_PARALLEL, bound, np.inf).min(axis=1))
    return lower, upper


def truncated_cdf(y: float, mu: np.ndarray, sd: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """P(X <= y) for X ~ N(mu, sd^2) truncated to [lower, upper], elementwise; 1 at or beyond ``upper``, 0 at
    or below ``lower``. Computed from log Phi on the side of the interval's mass (stable in either tail)."""
    mu, sd, lower, upper = np.broadcast_arrays(*(np.asarray(v, float) for v in (mu, sd, lower, upper)))
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b, t = (lower - mu) / sd, (upper - mu) / sd, (y - mu) / sd
    t = np.clip(t, a, b)
    upper_tail = (a + b) > 0
    # upper tail: survival functions; lower tail: CDFs (each a ratio of differences of exp(log Phi))
    la = np.where(upper_tail, special.log_ndtr(-a), special.log_ndtr(a))
    lb = np.where(upper_tail, special.log_ndtr(-b), special.log_ndtr(b))
    lt = np.where(upper_tail, special.log_ndtr(-t), special.log_ndtr(t))
    with np.errstate(invalid="ignore", over="ignore"):
        share = np.where(upper_tail, -np.expm1(lt - la) / -np.expm1(lb - la),
                         (np.exp(lt - lb) - np.exp(la - lb)) / -np.expm1(la - lb))
    share = np.where(y >= upper, 1.0, np.where(y <= lower, 0.0, share))
    return np.clip(np.nan_to_num(share, nan=0.5), 0.0, 1.0)


def _roots(f: Callable[[np.ndarray], np.ndarray], levels: Sequence[float], left: float, right: float
           ) -> list[float]:
    """For each q in ``levels``, the first mu in [left, right] where the decreasing ``f`` (vectorised)
    falls to q: one shared grid, two refinements of the crossing cell, then a linear interpolation; an
    end of the bracket when ``f`` stays on one side of q."""
    grid = np.linspace(left, right, 2 * _GRID + 1)
    values = f(grid)
    found = []
    for q in levels:
        points, shifted = grid, values - q
        for refinement in range(3):
            if shifted[0] <= 0:
                result = points[0]
                break
            crossed = np.flatnonzero(shifted <= 0)
            if not crossed.size:
                result = points[-1]
                break
            i = crossed[0]
            a, b, fa, fb = points[i - 1], points[i], shifted[i - 1], shifted[i]
            if refinement == 2:
                result = a + (b - a) * fa / (fa - fb)
                break
            points = np.linspace(a, b, _GRID + 1)
            shifted = f(points) - q
        found.append(float(result))
    return found


def selected_inference(x: np.ndarray, k: int, below: Sequence[int], above: Sequence[int], correlation: np.ndarray,
                       sd_at: Callable[[np.ndarray], np.ndarray], *, alpha: float, beta: float, c_beta: float,
                       bracket: tuple[float, float]) -> Selected:
    """AKM's hybrid (``beta`` > 0) or conditional (``beta`` = 0) inference on mu_k, k chosen by its place.

    Args:
        x: (K,) observed scores; k: the chosen one; below / above: the attempts it beats / that beat it.
        correlation: (K, K) correlations of the scores (Sigma_jk = rho_jk sigma_j sigma_k).
        sd_at: hypothesised means (M,) -> standard deviations (M, K) of every score under each.
        alpha: 1 - the interval's level; beta: the projection's level (AKM recommend alpha / 10).
        c_beta: `projection_quantile` (ignored when beta = 0).
        bracket: where to search mu (the bounded range of a score, or wide enough for a plug-in one).

    Returns a `Selected` (module docstring). Raises ValueError unless 0 <= beta < alpha < 1.
    """
    if not 0 <= beta < alpha < 1:
        raise ValueError(f"need 0 <= beta < alpha < 1, got alpha={alpha}, beta={beta}")
    x = np.asarray(x, float)
    rho = np.asarray(correlation, float)[:, k]
    c = c_beta if beta > 0 else np.inf
    level = (alpha - beta) / (1 - beta)

    def pieces(mu: np.ndarray):
        sd = np.atleast_2d(sd_at(mu))
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(sd[:, [k]] > 0, rho[None, :] * sd / sd[:, [k]], 0.0)
        a[:, k] = 1.0
        lower, upper = truncation(x, a, k, below, above)
        return sd[:, k], lower, upper

    def cdf(mu: np.ndarray) -> np.ndarray:
        sd, lower, upper = pieces(mu)
        if np.isfinite(c):
            lower, upper = np.maximum(lower, mu - c * sd), np.minimum(upper, mu + c * sd)
        return truncated_cdf(x[k], mu, sd, lower, upper)

    left, right = bracket
    estimate, low, high = _roots(cdf, (0.5, 1 - level / 2, level / 2), left, right)
    _, lower, upper = pieces(np.array([estimate]))
    return Selected(estimate, low, high, float(lower[0]), float(upper[0]), float(c))

"""Resampling tests of the persona audit: label permutations, a bootstrap over probes, Mantel.

Every function here is pure and seeded: the same inputs and seed give the same numbers. Ranks are
computed with numpy (``ranks``) so that no page import pays for ``scipy.stats``; the tests check
them against ``scipy.stats.rankdata`` and ``scipy.stats.spearmanr``.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

from evallib.persona.classifier import PersonaDataError, predict_codes

# 999 or 1000 permutations resolve p-values down to 0.001 (the smallest reachable is 1/(1 + n)).
DEFAULT_PERMUTATIONS = 1000
# Any fixed seed makes the resampled figures reproducible; 7 is the notebook's sampling seed.
DEFAULT_SEED = 7
# The confidence of every interval the page reports (as ``evallib.stats.DEFAULT_CONFIDENCE``, not
# imported from there: that module loads scipy.stats, which the persona page does not need).
DEFAULT_CONFIDENCE = 0.95
# Resamples of the bootstrap over probes: the percentile interval's ends move by less than 0.01
# between seeds at 2,000 (checked on the shipped recordings).
DEFAULT_BOOTSTRAP_RESAMPLES = 2000

# The Mantel test enumerates every relabelling of the assistants up to this many (8! = 40,320
# permutations of 28 pairs: a few megabytes); above, it samples MANTEL_SAMPLED_PERMUTATIONS of them.
MAX_EXACT_MANTEL_ASSISTANTS = 8
MANTEL_SAMPLED_PERMUTATIONS = 9999

# Spearman's rho needs at least three pairs (k >= 3 assistants) to be defined.
MIN_PAIRS_FOR_SPEARMAN = 3

# Distances are rounded to this many decimals before ranking: two pairs whose distances differ by
# rounding alone (identical answers give 0 +- 1e-16) share a rank instead of being ordered by noise.
RANK_DECIMALS = 12


def permutation_p_value(observed: int, null: np.ndarray) -> float | None:
    """(1 + #{null >= observed}) / (1 + len(null)); None when there is no permutation.

    Counting the observed labelling among the permutations keeps the p-value above 0 and the
    test valid (Phipson & Smyth 2010, "Permutation p-values should never be zero").
    """
    if len(null) == 0:
        return None
    return float((1 + np.sum(null >= observed)) / (1 + len(null)))


def permutation_null(
    X,
    codes: np.ndarray,
    n_classes: int,
    probes: np.ndarray,
    n_permutations: int,
    seed: int,
    within_probes: bool,
) -> np.ndarray:
    """Leave-one-out n_correct under ``n_permutations`` label shuffles; int array (n_permutations,).

    Labels are shuffled with ``numpy.random.default_rng(seed)`` among the responses to the same
    probe (``within_probes``) or among all responses; class sizes are kept either way. A
    response without a prediction counts as an error, as in the observed accuracy.
    """
    if n_permutations < 0:
        raise PersonaDataError(f"n_permutations must be 0 or more, got {n_permutations}")
    rng = np.random.default_rng(seed)
    groups = [np.flatnonzero(probes == p) for p in np.unique(probes)] if within_probes else [
        np.arange(len(codes))
    ]
    null = np.empty(n_permutations, dtype=int)
    for b in range(n_permutations):
        shuffled = codes.copy()
        for group in groups:
            shuffled[group] = rng.permutation(codes[group])
        null[b] = int(np.sum(predict_codes(X, shuffled, n_classes) == shuffled))
    return null


def probe_bootstrap_interval(
    correct: np.ndarray,
    probes: np.ndarray,
    *,
    confidence: float,
    n_resamples: int = DEFAULT_BOOTSTRAP_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """Percentile interval of the accuracy when the probes, not the answers, are resampled.

    correct: (n,) booleans (prediction equals the author); probes: (n,) probe index of each
    answer. The answers to one probe share its wording, so they are not independent trials: a
    cluster bootstrap draws P probes with replacement among the P probes answered and pools their
    answers (Davison & Hinkley 1997, section 3.8). The predictions are kept as they are (the
    classifier is not refitted), so the interval shows how much the figure depends on which
    probes were asked. With one probe the interval has zero width: it says nothing, and the
    reading says so. Returns (low, high) in [0, 1]; raises PersonaDataError for no answer.
    """
    correct = np.asarray(correct, dtype=float)
    probes = np.asarray(probes)
    if len(correct) == 0:
        raise PersonaDataError("no answer to resample")
    _, cluster = np.unique(probes, return_inverse=True)
    hits = np.bincount(cluster, weights=correct)
    sizes = np.bincount(cluster).astype(float)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(len(hits), np.full(len(hits), 1 / len(hits)), size=n_resamples)
    accuracies = (draws @ hits) / (draws @ sizes)
    tail = (1 - confidence) / 2
    low, high = np.quantile(accuracies, [tail, 1 - tail])
    return float(low), float(high)


# --------------------------------------------------------------------------------------------
# Ranks and the Mantel test


def ranks(values, *, method: str = "average") -> np.ndarray:
    """Ranks 1..n of ``values`` (shape (n,)), ascending; ties share the average or the min rank.

    Values are rounded to RANK_DECIMALS first. Same as ``scipy.stats.rankdata(values, method)``
    for "average" and "min" on values that differ by more than the rounding.

    >>> ranks([0.5, 0.2, 0.5]).tolist()
    [2.5, 1.0, 2.5]
    >>> ranks([0.5, 0.2, 0.5], method="min").tolist()
    [2.0, 1.0, 2.0]
    """
    if method not in ("average", "min"):
        raise ValueError(f"method must be 'average' or 'min', got {method!r}")
    _, inverse, counts = np.unique(np.round(np.asarray(values, dtype=float), RANK_DECIMALS),
                                   return_inverse=True, return_counts=True)
    ends = np.cumsum(counts).astype(float)
    starts = ends - counts + 1
    return (starts if method == "min" else (starts + ends) / 2)[inverse.ravel()]


class MantelResult(NamedTuple):
    """Spearman's rho between two distance matrices and its Mantel permutation p-value.

    p_value is nan when rho is; n_permutations counts the relabellings compared (the observed one
    included when exact); exact says whether all k! relabellings were enumerated.
    """

    rho: float
    p_value: float
    n_permutations: int
    exact: bool


def mantel_test(
    d_x: np.ndarray,
    d_y: np.ndarray,
    *,
    n_permutations: int = MANTEL_SAMPLED_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
) -> MantelResult:
    """Mantel test of two (k, k) symmetric distance matrices over the same k items, Spearman form.

    The statistic is Spearman's rho between the k(k-1)/2 pairs of the upper triangles. The k(k-1)/2
    pairs share items, so they are not independent and spearmanr's p-value does not apply; the
    null distribution comes from relabelling the items of ``d_y`` (rows and columns together)
    (Mantel 1967, "The detection of disease clustering and a generalized regression approach").
    Two-sided: p = #{|rho_perm| >= |rho|} / #permutations. Exact over the k! relabellings for
    k <= MAX_EXACT_MANTEL_ASSISTANTS (720 for six assistants, identity included); above, it uses
    ``n_permutations`` random relabellings from ``numpy.random.default_rng(seed)`` and
    p = (1 + #{|rho_perm| >= |rho|}) / (1 + n_permutations). As ``skbio.stats.distance.mantel``
    with method="spearman", alternative="two-sided".

    rho and p are nan with fewer than MIN_PAIRS_FOR_SPEARMAN pairs or a constant triangle.
    Raises PersonaDataError when the shapes differ or are not square.
    """
    d_x, d_y = np.asarray(d_x, dtype=float), np.asarray(d_y, dtype=float)
    if d_x.shape != d_y.shape or d_x.ndim != 2 or d_x.shape[0] != d_x.shape[1]:
        raise PersonaDataError(f"two square matrices of one shape are needed, got {d_x.shape} and {d_y.shape}")
    k = d_x.shape[0]
    i, j = np.triu_indices(k, 1)
    exact = k <= MAX_EXACT_MANTEL_ASSISTANTS
    total = math.factorial(k) if exact else n_permutations
    if len(i) < MIN_PAIRS_FOR_SPEARMAN or np.ptp(ranks(d_x[i, j])) == 0 or np.ptp(ranks(d_y[i, j])) == 0:
        return MantelResult(float("nan"), float("nan"), total, exact)
    x, y = _centred(ranks(d_x[i, j])), _centred(ranks(d_y[i, j]))
    rank_matrix = np.zeros((k, k))
    rank_matrix[i, j] = rank_matrix[j, i] = ranks(d_y[i, j])
    if exact:
        orders = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    else:
        rng = np.random.default_rng(seed)
        orders = np.argsort(rng.random((n_permutations, k)), axis=1)
    permuted = _centred(rank_matrix[orders[:, i], orders[:, j]])
    rhos = permuted @ x / (np.linalg.norm(permuted, axis=1) * np.linalg.norm(x))
    rho = float(y @ x / (np.linalg.norm(y) * np.linalg.norm(x)))
    extreme = int(np.sum(np.abs(rhos) >= abs(rho) - 1e-12))
    p_value = extreme / total if exact else (1 + extreme) / (1 + total)
    return MantelResult(rho, float(p_value), total, exact)


def _centred(values: np.ndarray) -> np.ndarray:
    return values - values.mean(axis=-1, keepdims=True)

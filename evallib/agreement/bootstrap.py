"""Percentile bootstrap intervals over items, drawn from sufficient statistics.

Resampling n items with replacement only changes how many items of each kind the sample holds, and
every coefficient here depends on the items only through those counts:

* Cohen's kappa depends on the k x k contingency table, so a resample of items is one multinomial
  draw of n items over the k² cells with the observed cell shares as probabilities.
* Fleiss' kappa and Krippendorff's alpha depend on each item only through its count pattern (how
  many of its ratings fell in each category); items with the same pattern are interchangeable, so a
  resample is one multinomial draw of n items over the distinct patterns.

The draws are the same distribution as the item-level bootstrap (``bootstrap_ci``), at a cost that
depends on the number of cells or patterns, not on the number of items, and every resample is
computed at once with numpy. The random streams differ from the item-level ones, so the two give
equal intervals within Monte Carlo error, not digit for digit (the tests check it).
Source: Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13 (percentile interval).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from evallib.agreement.cohen import agreement_weights, cohen_kappa
from evallib.agreement.multirater import (
    AlphaResult,
    FleissResult,
    _alpha_counts,
    _alpha_from_counts,
    _alpha_result,
    _distance_matrix,
    _fleiss_counts,
    _fleiss_from_counts,
    _fleiss_result,
)
from evallib.agreement.ratings import _TOLERANCE, _z

# Bytes of intermediate arrays allowed per chunk of resamples (Krippendorff's ordinal level builds
# one k x k coincidence matrix per resample): bounds memory whatever n_boot and k are.
_CHUNK_BYTES = 32_000_000


@dataclass(frozen=True)
class BootstrapInterval:
    """Percentile bootstrap interval over items, with the estimate it surrounds."""

    low: float | None     # None when fewer than two resamples gave a defined coefficient
    high: float | None
    confidence: float
    n_boot: int
    n_valid: int          # resamples where the coefficient was defined (the others are left out)
    estimate: float | None = None  # the coefficient on the data themselves
    #: Cohen's kappa: defined resamples in which a rater gave one label to every item (kappa 0 by
    #: construction, `cohen_kappa_table_resamples`); None where not counted (Fleiss' kappa, alpha).
    n_constant: int | None = None

    @property
    def n_undefined(self) -> int:
        return self.n_boot - self.n_valid


def _percentile_interval(values: np.ndarray, confidence: float, n_boot: int,
                         estimate: float | None, constant: np.ndarray | None = None) -> BootstrapInterval:
    """The interval from resampled values, NaN marking the resamples where the coefficient is undefined;
    ``constant`` (Cohen's kappa) marks those in which a rater is constant, counted among the defined ones."""
    defined = ~np.isnan(values)
    valid = values[defined]
    n_constant = None if constant is None else int(np.count_nonzero(constant & defined))
    if len(valid) < 2:
        return BootstrapInterval(None, None, confidence, n_boot, len(valid), estimate, n_constant)
    tail = 50 * (1 - confidence)
    low, high = np.percentile(valid, [tail, 100 - tail])
    return BootstrapInterval(float(low), float(high), confidence, n_boot, len(valid), estimate, n_constant)


def bootstrap_ci(statistic: Callable[[np.ndarray], float | None], n_items: int, *,
                 n_boot: int = 2000, confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """Item-level percentile bootstrap: draw ``n_items`` item indices with replacement ``n_boot`` times.

    ``statistic(indices)`` computes the coefficient on the items at ``indices`` (an int array of
    shape (n_items,)) and returns None when it is undefined there; such resamples are left out and
    counted (``n_valid``). The interval is the (1 - confidence)/2 and (1 + confidence)/2 quantiles
    of the defined values. Seeded (``numpy.random.default_rng(seed)``), hence reproducible.
    Cost grows with n_items x n_boot: the coefficient functions below draw from sufficient
    statistics instead; this one stays as the reference they are tested against.
    """
    _z(confidence)
    rng = np.random.default_rng(seed)
    values = [statistic(rng.integers(0, n_items, size=n_items)) for _ in range(n_boot)]
    return _percentile_interval(np.array([np.nan if v is None else v for v in values], dtype=float),
                                confidence, n_boot, None)


def _draws(frequencies: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """``n_boot`` multinomial draws of ``frequencies.sum()`` items over the kinds, shape (n_boot, kinds)."""
    n = int(frequencies.sum())
    return np.random.default_rng(seed).multinomial(n, frequencies / n, size=n_boot)


def cohen_kappa_table_resamples(table: np.ndarray, w: np.ndarray, *, n_boot: int = 2000,
                                seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Kappa of ``n_boot`` resampled k x k tables (NaN where p_e = 1), shape (n_boot,), and which of them
    have a constant rater (one label on every item: kappa is 0 there, or undefined when both are constant
    on the same label), a boolean array of the same shape."""
    k = table.shape[0]
    tables = _draws(table.ravel().astype(float), n_boot, seed).reshape(n_boot, k, k).astype(float)
    n = table.sum()
    rows, columns = tables.sum(axis=2), tables.sum(axis=1)
    p_o = np.einsum("ij,bij->b", w, tables) / n
    p_e = np.einsum("bi,ij,bj->b", rows, w, columns) / n**2
    constant = (np.count_nonzero(rows, axis=1) == 1) | (np.count_nonzero(columns, axis=1) == 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(1 - p_e < _TOLERANCE, np.nan, (p_o - p_e) / (1 - p_e)), constant


def cohen_kappa_table_bootstrap(table: np.ndarray, w: np.ndarray, *, n_boot: int = 2000,
                                seed: int = 0) -> np.ndarray:
    """Kappa of ``n_boot`` resampled k x k tables (NaN where p_e = 1), shape (n_boot,)."""
    return cohen_kappa_table_resamples(table, w, n_boot=n_boot, seed=seed)[0]


def cohen_kappa_bootstrap_ci(r1: Sequence[object], r2: Sequence[object], *, weights: str | None = None,
                             n_boot: int = 2000, confidence: float = 0.95,
                             seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap interval of Cohen's kappa: multinomial draws of the contingency table.

    Shapes as ``cohen_kappa``. Resamples where both raters are constant and equal (kappa
    undefined) are left out and counted; those where a rater is constant (kappa 0) are counted
    (``n_constant``).
    """
    _z(confidence)
    result = cohen_kappa(r1, r2, weights=weights)
    w = agreement_weights(result.categories, weights)
    values, constant = cohen_kappa_table_resamples(result.table, w, n_boot=n_boot, seed=seed)
    return _percentile_interval(values, confidence, n_boot, result.kappa, constant)


def _patterns(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of an items x categories count table, sorted, and how many items have each.

    Each row is read as one integer whose digits (base: the largest count + 1) are its counts, so
    that numeric order is the rows' lexicographic order and one sort of integers finds them;
    ``np.unique(axis=0)`` does the same on rows, several times slower.
    """
    counts = counts.astype(np.int64)
    base = int(counts.max()) + 1
    k = counts.shape[1]
    if k * np.log2(base) >= 62:  # the integers would overflow: sort the rows themselves
        patterns, frequencies = np.unique(counts, axis=0, return_counts=True)
        return patterns.astype(float), frequencies.astype(float)
    keys = counts @ base ** np.arange(k - 1, -1, -1, dtype=np.int64)
    _, first, frequencies = np.unique(keys, return_index=True, return_counts=True)
    return counts[first].astype(float), frequencies.astype(float)


def fleiss_kappa_bootstrap_ci(ratings: Iterable[Iterable[object]], *, n_boot: int = 2000,
                              confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap interval of Fleiss' kappa, resampling the counts of item patterns.

    ``ratings`` of shape (n_items, n_raters) as ``fleiss_kappa``; complete items only.
    """
    return fleiss_bootstrap_from_counts(_fleiss_counts(ratings)[0], n_boot=n_boot, confidence=confidence,
                                        seed=seed)


def fleiss_bootstrap_from_counts(counts: np.ndarray, *, n_boot: int = 2000, confidence: float = 0.95,
                                 seed: int = 0) -> BootstrapInterval:
    """``fleiss_kappa_bootstrap_ci`` from the items x categories count table (equal row sums m)."""
    _z(confidence)
    patterns, frequencies = _patterns(counts)
    m = patterns[0].sum()
    n = frequencies.sum()
    per_pattern = (patterns * (patterns - 1)).sum(axis=1) / (m * (m - 1))
    draws = _draws(frequencies, n_boot, seed).astype(float)
    p_o = draws @ per_pattern / n
    p_e = ((draws @ patterns / (n * m)) ** 2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(1 - p_e < _TOLERANCE, np.nan, (p_o - p_e) / (1 - p_e))
    return _percentile_interval(values, confidence, n_boot, _fleiss_from_counts(counts)[2])


def _alpha_of_draws(draws: np.ndarray, patterns: np.ndarray, values: tuple, level: str) -> np.ndarray:
    """Alpha of each resample (rows of ``draws``: how many items of each pattern), NaN if undefined.

    Follows ``_alpha_from_counts``: the coincidence matrix is Σ_u (c_u c_uᵀ - diag c_u) / (m_u - 1),
    whose marginals are the value counts n_c. For the nominal and interval levels δ² is fixed, so
    D_o is a sum over patterns of a per-pattern scalar; the ordinal δ² depends on n_c, so the
    coincidence matrices are built per resample, in chunks.
    """
    m = patterns.sum(axis=1)
    n_c = draws @ patterns                       # (n_boot, k) value counts of each resample
    n = n_c.sum(axis=1)
    k = patterns.shape[1]
    if level == "ordinal":
        per_unit = np.einsum("pi,pj->pij", patterns, patterns) / (m - 1)[:, None, None]
        per_unit -= np.einsum("pi,ij->pij", patterns / (m - 1)[:, None], np.eye(k))
        chunk = max(1, _CHUNK_BYTES // (8 * k * k))
        d_o, d_e = np.empty(len(draws)), np.empty(len(draws))
        for start in range(0, len(draws), chunk):
            part = slice(start, start + chunk)
            coincidences = np.einsum("bp,pij->bij", draws[part], per_unit)
            delta2 = np.stack([_distance_matrix(values, row, level) for row in n_c[part]])
            expected = np.einsum("bi,bj->bij", n_c[part], n_c[part]) - np.einsum("bi,ij->bij", n_c[part], np.eye(k))
            d_o[part] = (coincidences * delta2).sum(axis=(1, 2)) / n[part]
            d_e[part] = (expected * delta2).sum(axis=(1, 2)) / (n[part] * (n[part] - 1))
    else:
        delta2 = _distance_matrix(values, None, level)
        per_pattern = np.einsum("pi,ij,pj->p", patterns, delta2, patterns) / (m - 1)  # δ²_cc = 0
        d_o = draws @ per_pattern / n
        d_e = np.einsum("bi,ij,bj->b", n_c, delta2, n_c) / (n * (n - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d_e < _TOLERANCE, np.nan, 1 - d_o / d_e)


def krippendorff_alpha_bootstrap_ci(reliability_data: Iterable[Iterable[object]], *,
                                    level: str = "nominal", n_boot: int = 2000,
                                    confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap interval of Krippendorff's alpha, resampling the counts of item patterns.

    ``reliability_data`` of shape (n_raters, n_items) as ``krippendorff_alpha``; pairable items only.
    (Krippendorff's own bootstrap resamples pairs of values; resampling items is the common,
    simpler alternative and respects the dependence between ratings of one item.)
    """
    counts, values, _, _ = _alpha_counts(reliability_data, level)
    return alpha_bootstrap_from_counts(counts, values, level, n_boot=n_boot, confidence=confidence, seed=seed)


def alpha_bootstrap_from_counts(counts: np.ndarray, values: tuple, level: str, *, n_boot: int = 2000,
                                confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """``krippendorff_alpha_bootstrap_ci`` from the units x values count table (pairable units)."""
    _z(confidence)
    patterns, frequencies = _patterns(counts)
    draws = _draws(frequencies, n_boot, seed).astype(float)
    return _percentile_interval(_alpha_of_draws(draws, patterns, values, level), confidence, n_boot,
                                _alpha_from_counts(counts, values, level)[2])


def fleiss_kappa_with_interval(ratings: Iterable[Iterable[object]], *, n_boot: int = 2000,
                               confidence: float = 0.95, seed: int = 0) -> tuple[FleissResult, BootstrapInterval]:
    """``fleiss_kappa`` and ``fleiss_kappa_bootstrap_ci`` reading the labels once (large inputs)."""
    counts, cats, n_raters, n_dropped = _fleiss_counts(ratings)
    return (_fleiss_result(counts, cats, n_raters, n_dropped),
            fleiss_bootstrap_from_counts(counts, n_boot=n_boot, confidence=confidence, seed=seed))


def krippendorff_alpha_with_interval(reliability_data: Iterable[Iterable[object]], *, level: str = "nominal",
                                     n_boot: int = 2000, confidence: float = 0.95,
                                     seed: int = 0) -> tuple[AlphaResult, BootstrapInterval]:
    """``krippendorff_alpha`` and its bootstrap interval reading the labels once (large inputs)."""
    counts, values, n_raters, n_dropped = _alpha_counts(reliability_data, level)
    return (_alpha_result(counts, values, n_raters, n_dropped, level),
            alpha_bootstrap_from_counts(counts, values, level, n_boot=n_boot, confidence=confidence, seed=seed))


def alpha_from_table(table: np.ndarray, categories: tuple) -> float | None:
    """Nominal Krippendorff's alpha of two raters from their k x k contingency table (None if undefined).

    Each cell (i, j) is the count pattern of its items (one value i, one value j), so the table's
    cells are the patterns and their counts the frequencies: no need to read the labels again.
    """
    k = table.shape[0]
    rows, cols = np.nonzero(table)
    patterns = np.zeros((len(rows), k))
    np.add.at(patterns, (np.arange(len(rows)), rows), 1)
    np.add.at(patterns, (np.arange(len(rows)), cols), 1)
    value = _alpha_of_draws(table[rows, cols][None, :].astype(float), patterns, categories, "nominal")[0]
    return None if np.isnan(value) else float(value)

"""More than two raters: Fleiss' kappa and Krippendorff's alpha (missing ratings allowed)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from evallib.agreement.ratings import (
    _TOLERANCE,
    BOTH_RATERS_CONSTANT,
    LEVELS,
    NO_VARIATION,
    Label,
    _categories_of,
    _used,
    _require_finite,
    _require_two_items,
    _require_two_raters,
    _scale_exponent,
    _scaled,
    coded_matrix,
)


# --------------------------------------------------------------------------------------------
# More than two raters
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FleissResult:
    """Fleiss' kappa for several raters."""

    kappa: float | None   # None when undefined (p_e = 1)
    p_o: float            # mean agreement between pairs of raters on an item
    p_e: float            # chance agreement from the pooled category shares
    n_items: int          # items rated by every rater
    n_raters: int
    n_dropped: int        # items left out because a rating was missing
    categories: tuple[Label, ...]
    note: str | None      # BOTH_RATERS_CONSTANT (every rater, one label) or None


def _fleiss_from_counts(counts: np.ndarray) -> tuple[float, float, float | None]:
    """(p_o, p_e, kappa) from an items x categories table of counts with equal row sums m."""
    n_items = counts.shape[0]
    m = counts[0].sum()
    per_item = (counts * (counts - 1)).sum(axis=1) / (m * (m - 1))
    shares = counts.sum(axis=0) / (n_items * m)
    p_o, p_e = float(per_item.mean()), float((shares**2).sum())
    return p_o, p_e, None if 1 - p_e < _TOLERANCE else (p_o - p_e) / (1 - p_e)


def _fleiss_counts(ratings) -> tuple[np.ndarray, tuple[Label, ...], int, int]:
    """Items x categories counts of the complete items, the categories, m and the items left out."""
    codes, uniques = coded_matrix(ratings, "item (row)")
    n_items, n_raters = codes.shape
    _require_two_raters(n_raters)
    complete = (codes >= 0).all(axis=1)
    n_complete = int(complete.sum())
    _require_two_items(n_complete, n_items, "every rater")
    raw = codes[complete].ravel()
    lookup, cats, _ = _categories_of(uniques, _used(raw, len(uniques)))
    item_codes = lookup[raw]
    k = len(cats)
    # item_codes run item by item (row-major), m per complete item
    cells = np.repeat(np.arange(n_complete), n_raters) * k + item_codes
    counts = np.bincount(cells, minlength=n_complete * k).reshape(n_complete, k)
    return counts, cats, n_raters, n_items - n_complete


def fleiss_kappa(ratings: Iterable[Iterable[object]]) -> FleissResult:
    """Fleiss' kappa: chance-corrected agreement among m >= 2 raters on nominal labels.

        P_i = Σ_c n_ic (n_ic - 1) / (m (m - 1))      agreeing pairs of raters on item i
        p_o = mean_i P_i,   p_e = Σ_c p_c²,  p_c = share of all ratings in category c
        kappa = (p_o - p_e) / (1 - p_e)

    ``ratings`` has shape (n_items, n_raters): one row per item, one column per rater (the layout
    of the CSV file), labels of any kind. The formula assumes every item has m ratings, so items
    with a missing rating are left out (``n_dropped``); ``krippendorff_alpha`` uses them.
    Range: -1/(m-1) to 1. With two raters it equals Scott's pi. Undefined (None, note
    BOTH_RATERS_CONSTANT) when every rating is the same label.
    Source: Fleiss (1971), Psychological Bulletin 76:378-382; same as statsmodels ``fleiss_kappa``.
    """
    return _fleiss_result(*_fleiss_counts(ratings))


def _fleiss_result(counts: np.ndarray, cats: tuple[Label, ...], n_raters: int, n_dropped: int) -> FleissResult:
    p_o, p_e, kappa = _fleiss_from_counts(counts)
    _require_finite({"p_o": p_o, "p_e": p_e, "kappa": kappa}, cats)
    return FleissResult(kappa=kappa, p_o=p_o, p_e=p_e, n_items=counts.shape[0], n_raters=n_raters,
                        n_dropped=n_dropped, categories=cats,
                        note=BOTH_RATERS_CONSTANT if kappa is None else None)


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha for any number of raters, missing ratings allowed.

    At the interval level ``d_o`` and ``d_e`` are in squared label units: with labels below about
    1e-154 they underflow to 0 while ``alpha``, computed on scaled labels, is still defined.
    """

    alpha: float | None   # None when undefined (no variation at all)
    d_o: float            # observed disagreement
    d_e: float            # disagreement expected by chance
    level: str
    n_units: int          # items with at least two ratings (pairable)
    n_values: int         # ratings in those items
    n_raters: int
    n_dropped: int        # items with fewer than two ratings
    categories: tuple[Label, ...]
    note: str | None      # NO_VARIATION or None


def _distance_matrix(values: tuple[Label, ...], n_c: np.ndarray, level: str) -> np.ndarray:
    """Squared distances δ²_ck between the values (Krippendorff 2011)."""
    k = len(values)
    if level == "nominal":
        return 1 - np.eye(k)
    if level == "interval":  # on the values scaled by 2**e (see ``_scaled``): δ² is then divided by 4**e
        x = _scaled(values)
        return (x[:, None] - x[None, :]) ** 2
    # ordinal: (n_c + ... + n_k - (n_c + n_k) / 2)², sums over the values between c and k inclusive
    cumulative = np.cumsum(n_c)
    low = np.minimum.outer(np.arange(k), np.arange(k))
    high = np.maximum.outer(np.arange(k), np.arange(k))
    between = cumulative[high] - cumulative[low] + n_c[low]
    return (between - (n_c[:, None] + n_c[None, :]) / 2) ** 2


def _alpha_from_counts(counts: np.ndarray, values: tuple[Label, ...],
                       level: str) -> tuple[float, float, float | None]:
    """(d_o, d_e, alpha) from a units x values table of counts (every unit with >= 2 values).

    At the interval level d_o and d_e are in the squared units of the scaled values (``_scaled``),
    so that the test for no variation does not depend on the unit of the labels.
    """
    m = counts.sum(axis=1)
    scaled = counts / (m - 1)[:, None]
    coincidences = scaled.T @ counts - np.diag(scaled.sum(axis=0))
    n_c = coincidences.sum(axis=0)
    n = n_c.sum()
    expected = (np.outer(n_c, n_c) - np.diag(n_c)) / (n - 1)
    delta2 = _distance_matrix(values, n_c, level)
    d_o = float((coincidences * delta2).sum() / n)
    d_e = float((expected * delta2).sum() / n)
    return d_o, d_e, None if d_e < _TOLERANCE else 1 - d_o / d_e


def _ldexp(x: float, exponent: int) -> float:
    """x · 2**exponent, infinite rather than an exception when it overflows."""
    try:
        return math.ldexp(x, exponent)
    except OverflowError:
        return math.copysign(math.inf, x)


def _alpha_counts(reliability_data, level: str) -> tuple[np.ndarray, tuple[Label, ...], int, int]:
    """Pairable units x values counts (float), the values, the number of raters and the units left out."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    codes, uniques = coded_matrix(reliability_data, "rater (row)")
    n_raters, n_units = codes.shape
    _require_two_raters(n_raters)
    rated = codes >= 0
    pairable = rated.sum(axis=0) >= 2
    n_pairable = int(pairable.sum())
    _require_two_items(n_pairable, n_units, "at least two raters")
    used = rated & pairable[None, :]
    raw = codes[used]
    lookup, values, _ = _categories_of(
        uniques, _used(raw, len(uniques)),
        numbers_for=None if level == "nominal" else f"Krippendorff's alpha at the {level} level")
    value_codes = lookup[raw]
    unit = np.broadcast_to((np.cumsum(pairable) - 1)[None, :], codes.shape)[used]  # row-major, as value_codes
    k = len(values)
    counts = np.bincount(unit * k + value_codes, minlength=n_pairable * k).reshape(n_pairable, k).astype(float)
    return counts, values, n_raters, n_units - n_pairable


def krippendorff_alpha(reliability_data: Iterable[Iterable[object]], *,
                       level: str = "nominal") -> AlphaResult:
    """Krippendorff's alpha: 1 - observed disagreement / disagreement expected by chance.

        alpha = 1 - D_o / D_e,  D_o = Σ_ck o_ck δ²_ck / n,  D_e = Σ_ck n_c n_k δ²_ck / (n (n - 1))

    o_ck is the coincidence matrix (pairs of values given to the same item by different raters,
    each item weighted 1/(m_u - 1)), n_c its marginals, n the number of pairable values, δ² the
    squared distance of the ``level``: nominal (0 if equal, else 1), ordinal (ranks weighted by how
    many values lie between), interval ((c - k)²). Ordinal and interval need numeric labels.

    ``reliability_data`` has shape (n_raters, n_items) like the ``krippendorff`` package (the
    transpose of a CSV file with one column per rater); missing ratings (None, NaN, blank) are
    allowed and items with fewer than two ratings do not count. The level is explicit here
    (the package defaults to interval). Range: at most 1; 0 is chance; negative is systematic
    disagreement. None (note NO_VARIATION) when every pairable rating has the same value.
    At the interval level d_o and d_e are in squared label units; labels so far apart that these
    overflow (gaps beyond about 1e154) raise ``AgreementInputError`` (``not_finite``), although
    alpha itself, which does not depend on the unit, would be defined.
    Source: Krippendorff (2011), "Computing Krippendorff's alpha-reliability", Annenberg School
    for Communication, University of Pennsylvania.
    """
    return _alpha_result(*_alpha_counts(reliability_data, level), level)


def _alpha_result(counts: np.ndarray, values: tuple[Label, ...], n_raters: int, n_dropped: int,
                  level: str) -> AlphaResult:
    d_o, d_e, alpha = _alpha_from_counts(counts, values, level)
    if level == "interval":  # back to squared label units
        exponent = 2 * _scale_exponent(values)
        d_o, d_e = _ldexp(d_o, exponent), _ldexp(d_e, exponent)
    _require_finite({"d_o": d_o, "d_e": d_e, "alpha": alpha}, values)
    return AlphaResult(alpha=alpha, d_o=d_o, d_e=d_e, level=level, n_units=counts.shape[0],
                       n_values=int(counts.sum()), n_raters=n_raters, n_dropped=n_dropped,
                       categories=values, note=NO_VARIATION if alpha is None else None)

"""Two raters: Cohen's kappa (weighted or not), its relatives and what explains the kappa paradox."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evallib.agreement.ratings import (
    _LABELS_SHOWN,
    _TOLERANCE,
    BOTH_RATERS_CONSTANT,
    CONSTANT_RATER,
    NOTES,
    WEIGHTINGS,
    AgreementInputError,
    Label,
    _require_finite,
    _scaled,
    _z,
    format_label,
    pair_table,
)


def contingency_table(r1: Sequence[object], r2: Sequence[object],
                      categories: Sequence[object] | None = None) -> tuple[tuple[Label, ...], np.ndarray]:
    """Counts of items by (rater 1's label, rater 2's label).

    Returns ``(categories, table)`` with ``table`` of shape (k, k): rows are rater 1's categories,
    columns rater 2's, in the order of ``categories`` (sorted observed labels unless given).
    The diagonal holds the items on which the raters agree. Missing ratings are dropped pairwise.
    """
    pair = pair_table(r1, r2, categories)
    return pair.categories, pair.table


# --------------------------------------------------------------------------------------------
# Cohen's kappa
# --------------------------------------------------------------------------------------------

def agreement_weights(categories: Sequence[Label], weights: str | None) -> np.ndarray:
    """k x k agreement weights w_ij in [0, 1], 1 on the diagonal.

    ``None``: w = identity (only identical labels agree). With x the numeric category values and
    R = max(x) - min(x): ``"linear"``: w_ij = 1 - |x_i - x_j| / R; ``"quadratic"``:
    w_ij = 1 - (x_i - x_j)² / R² (Cohen 1968; Fleiss & Cohen 1973). Computed on the values scaled by
    a power of two, so that any finite labels give finite weights.

    Decision: weights follow the label *values*, as in Krippendorff's interval level. scikit-learn
    and statsmodels weight by the *rank* of the categories present, which gives the same kappa when
    the observed labels are evenly spaced (0..10 with every score used) but not when a score is
    never used (raters who gave 2, 3 and 9: ranks say 3 and 9 are neighbours, values do not).
    """
    if weights not in WEIGHTINGS:
        raise ValueError(f"weights must be one of {WEIGHTINGS}, not {weights!r}")
    k = len(categories)
    if weights is None or k == 1:
        return np.eye(k)
    values = _scaled(categories)  # the weights do not depend on the unit; this keeps gaps finite
    distance = np.abs(values[:, None] - values[None, :]) / (values.max() - values.min())
    return 1 - distance if weights == "linear" else 1 - distance**2


@dataclass(frozen=True, eq=False)
class KappaResult:
    """Cohen's kappa for two raters, with what is needed to read it."""

    kappa: float | None       # None when undefined (p_e = 1); see ``note``
    p_o: float                # observed agreement (weighted when ``weights`` is set)
    p_e: float                # agreement expected by chance from the two raters' marginals
    agreement: float          # share of items with identical labels, in [0, 1]
    n: int                    # items rated by both raters
    n_dropped: int            # items left out because a rating was missing
    categories: tuple[Label, ...]
    table: np.ndarray         # k x k counts, rows = rater 1, columns = rater 2
    weights: str | None
    se: float | None          # large-sample standard error (Fleiss, Cohen & Everitt 1969)
    ci_low: float | None      # analytic interval kappa ± z·se, clipped to [-1, 1]
    ci_high: float | None
    confidence: float
    note: str | None          # BOTH_RATERS_CONSTANT, CONSTANT_RATER or None

    @property
    def percent_agreement(self) -> float:
        return 100 * self.agreement

    @property
    def marginals_1(self) -> np.ndarray:
        """Share of items rater 1 put in each category."""
        return self.table.sum(axis=1) / self.n

    @property
    def marginals_2(self) -> np.ndarray:
        """Share of items rater 2 put in each category."""
        return self.table.sum(axis=0) / self.n

    @property
    def half_width(self) -> float | None:
        """Half-width z·se of the analytic interval before clipping, or None when undefined."""
        return None if self.se is None else _z(self.confidence) * self.se

    @property
    def reason(self) -> str | None:
        """An English sentence explaining ``note``, or None."""
        return NOTES.get(self.note)


def _chance_corrected(table: np.ndarray, w: np.ndarray) -> tuple[float, float, float | None]:
    """(p_o, p_e, kappa) of a k x k count table under agreement weights w; kappa None if p_e = 1.

    Sums run over the integer counts and divide once, so perfect agreement gives exactly 1.
    """
    n = table.sum()
    p_o = float((w * table).sum() / n)
    p_e = float((w * np.outer(table.sum(axis=1), table.sum(axis=0))).sum() / n**2)
    if 1 - p_e < _TOLERANCE:
        return p_o, p_e, None
    return p_o, p_e, (p_o - p_e) / (1 - p_e)


def _kappa_standard_error(table: np.ndarray, w: np.ndarray, kappa: float, p_e: float) -> float:
    """Large-sample (non-null) standard error of weighted or unweighted kappa.

    var = [Σ_ij p_ij (w_ij - (w̄_i + w̄_j)(1 - κ))² - (κ - p_e(1 - κ))²] / (n (1 - p_e)²), with
    w̄_i = Σ_j p_.j w_ij and w̄_j = Σ_i p_i. w_ij (Fleiss, Cohen & Everitt 1969).
    """
    n = table.sum()
    p = table / n
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    w_bar_row = w @ cols          # mean weight of each rater-1 category against rater 2's marginals
    w_bar_col = rows @ w          # mean weight of each rater-2 category against rater 1's marginals
    spread = (p * (w - (w_bar_row[:, None] + w_bar_col[None, :]) * (1 - kappa)) ** 2).sum()
    variance = (spread - (kappa - p_e * (1 - kappa)) ** 2) / (n * (1 - p_e) ** 2)
    return math.sqrt(max(float(variance), 0.0))


def _constant_rater_note(table: np.ndarray) -> str | None:
    used_1 = np.count_nonzero(table.sum(axis=1))
    used_2 = np.count_nonzero(table.sum(axis=0))
    if used_1 == 1 and used_2 == 1 and np.trace(table) == table.sum():
        return BOTH_RATERS_CONSTANT
    if used_1 == 1 or used_2 == 1:
        return CONSTANT_RATER
    return None


def cohen_kappa(r1: Sequence[object], r2: Sequence[object], *, weights: str | None = None,
                categories: Sequence[object] | None = None, confidence: float = 0.95) -> KappaResult:
    """Cohen's kappa: agreement between two raters corrected for the agreement expected by chance.

        kappa = (p_o - p_e) / (1 - p_e)

    p_o is the share of items on which the raters agree and p_e = Σ_c p_1c · p_2c the agreement two
    independent raters with the same marginals (p_1c: share of items rater 1 put in category c)
    would reach by chance. With ``weights`` ("linear" or "quadratic", numeric labels only), partial
    credit w_ij goes to near misses: p_o = Σ w_ij p_ij and p_e = Σ w_ij p_i. p_.j (Cohen 1968); see
    ``agreement_weights`` for how the weights follow the label values.

    Parameters: ``r1``, ``r2`` sequences of shape (n_items,), one label per item (missing: None,
    NaN or blank, dropped pairwise); ``categories`` the full scale when some categories were never
    used (changes the table shown, not kappa); ``confidence`` of the analytic interval.

    Range: -1 to 1; 1 is perfect agreement, 0 is what chance gives, negative is worse than chance.
    Symmetric in the two raters. Undefined (``kappa`` None, ``note`` BOTH_RATERS_CONSTANT) when
    p_e = 1, i.e. both raters gave one and the same label to every item. When only one rater is
    constant, kappa is exactly 0 (``note`` CONSTANT_RATER) because then p_e = p_o.

    The interval is kappa ± z·se with the large-sample standard error of Fleiss, Cohen & Everitt
    (1969), the ``std_kappa`` (ASE) of statsmodels, clipped to [-1, 1] for display. It is poor on a
    few dozen items; ``cohen_kappa_bootstrap_ci`` gives a percentile bootstrap over items.

    Source: Cohen (1960), Educational and Psychological Measurement 20:37-46; weighted: Cohen (1968),
    Psychological Bulletin 70:213-220.

    >>> result = cohen_kappa([1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1])
    >>> round(result.percent_agreement), round(result.kappa, 3), round(result.se, 3)
    (83, 0.625, 0.24)
    """
    pair = pair_table(r1, r2, categories, numbers_for=None if weights is None else f"{weights} weighted kappa")
    return kappa_from_table(pair.table, pair.categories, weights=weights, confidence=confidence,
                            n_dropped=pair.n_dropped)


def kappa_from_table(table: np.ndarray, categories: tuple[Label, ...], *, weights: str | None = None,
                     confidence: float = 0.95, n_dropped: int = 0) -> KappaResult:
    """``cohen_kappa`` from a k x k count table (rows rater 1, columns rater 2, in ``categories`` order).

    Lets a caller that already holds the table (weighted variants, large inputs) skip reading the
    labels again. Weights other than None need numeric categories.
    """
    cats = categories
    w = agreement_weights(cats, weights)
    n = int(table.sum())

    p_o, p_e, kappa = _chance_corrected(table, w)
    note = _constant_rater_note(table)
    if note == CONSTANT_RATER:
        kappa = 0.0  # exactly: p_o equals p_e whatever the other rater does; only rounding differs

    se = ci_low = ci_high = None
    if kappa is not None:
        # With a constant rater kappa is 0 for every table, so its variance is 0 too.
        se = 0.0 if note == CONSTANT_RATER else _kappa_standard_error(table, w, kappa, p_e)
        half_width = _z(confidence) * se
        ci_low, ci_high = max(-1.0, kappa - half_width), min(1.0, kappa + half_width)
    _require_finite({"p_o": p_o, "p_e": p_e, "kappa": kappa, "se": se}, cats)

    return KappaResult(kappa=kappa, p_o=p_o, p_e=p_e, agreement=float(np.trace(table)) / n,
                       n=n, n_dropped=n_dropped, categories=cats, table=table,
                       weights=weights, se=se, ci_low=ci_low, ci_high=ci_high,
                       confidence=confidence, note=note)


# --------------------------------------------------------------------------------------------
# Relatives of kappa for two raters, and what explains the kappa paradox
# --------------------------------------------------------------------------------------------

def _agreement_and_pooled_shares(table: np.ndarray) -> tuple[float, np.ndarray]:
    """Observed agreement p_o and the pooled share of each category over both raters."""
    n = table.sum()
    return float(np.trace(table) / n), (table.sum(axis=1) + table.sum(axis=0)) / (2 * n)


def scott_pi(r1: Sequence[object], r2: Sequence[object]) -> float | None:
    """Scott's pi: like kappa, but chance uses the two raters' *pooled* marginals.

        pi = (p_o - p_e) / (1 - p_e),   p_e = Σ_c ((p_1c + p_2c) / 2)²

    Shapes as ``cohen_kappa``. Range -1 to 1. Pi <= kappa, with equality when both raters use the
    categories equally often. None when p_e = 1 (both raters gave one and the same label throughout).
    Source: Scott (1955), Public Opinion Quarterly 19:321-325.
    """
    return _scott_pi(contingency_table(r1, r2)[1])


def _scott_pi(table: np.ndarray) -> float | None:
    p_o, pooled = _agreement_and_pooled_shares(table)
    p_e = float((pooled**2).sum())
    return None if 1 - p_e < _TOLERANCE else (p_o - p_e) / (1 - p_e)


def pabak(r1: Sequence[object], r2: Sequence[object], *,
          categories: Sequence[object] | None = None) -> float | None:
    """Prevalence-adjusted bias-adjusted kappa: kappa with chance fixed at 1/k.

        PABAK = (k · p_o - 1) / (k - 1)      (= 2 p_o - 1 for two categories)

    k is the number of categories: ``len(categories)`` when given, else the number observed.
    Range -1 to 1; a plain rescaling of percent agreement, so it ignores how the raters spread
    their labels. None when k < 2 (``SINGLE_CATEGORY``). For k > 2 this is Bennett, Alpert &
    Goldstein's S, the usual extension.
    Source: Byrt, Bishop & Carlin (1993), Journal of Clinical Epidemiology 46:423-429.
    """
    return _pabak(contingency_table(r1, r2, categories)[1])


def _pabak(table: np.ndarray) -> float | None:
    p_o, pooled = _agreement_and_pooled_shares(table)
    k = len(pooled)
    if k < 2:
        return None
    return (k * p_o - 1) / (k - 1)


def gwet_ac1(r1: Sequence[object], r2: Sequence[object], *,
             categories: Sequence[object] | None = None) -> float | None:
    """Gwet's first-order agreement coefficient AC1.

        AC1 = (p_o - p_e) / (1 - p_e),   p_e = Σ_c π_c (1 - π_c) / (k - 1),   π_c = (p_1c + p_2c) / 2

    Chance agreement shrinks when one category dominates, so AC1 stays high where kappa collapses
    (the lenient-rater paradox). k as in ``pabak``; None when k < 2. Range -1 to 1.
    Source: Gwet (2008), British Journal of Mathematical and Statistical Psychology 61:29-48.
    """
    return _gwet_ac1(contingency_table(r1, r2, categories)[1])


def _gwet_ac1(table: np.ndarray) -> float | None:
    p_o, pooled = _agreement_and_pooled_shares(table)
    k = len(pooled)
    if k < 2:
        return None
    p_e = float((pooled * (1 - pooled)).sum() / (k - 1))
    return (p_o - p_e) / (1 - p_e)


def _binary_table(cats: tuple[Label, ...], table: np.ndarray) -> np.ndarray:
    if len(cats) > 2:
        shown = tuple(format_label(c) for c in cats[:_LABELS_SHOWN])
        raise AgreementInputError("not_binary", f"prevalence and bias indices are defined for two "
                                  f"categories; these ratings have {len(cats)}: {', '.join(map(repr, shown))}",
                                  n_categories=len(cats), labels=shown)
    padded = np.zeros((2, 2))
    padded[:len(cats), :len(cats)] = table
    return padded / padded.sum()


def prevalence_index(r1: Sequence[object], r2: Sequence[object]) -> float:
    """Prevalence index |p_11 - p_00|: how much more often the raters agree on one category than on the other.

    p_11 and p_00 are the shares of items both raters put in the second and in the first category.
    Range 0 to 1. Near 1, one category dominates, chance agreement p_e is high and kappa is low even
    when percent agreement is high. Binary ratings only: more than two categories raise
    ``AgreementInputError`` (``not_binary``) rather than pick a category arbitrarily; with a single
    category the index is 1. With the bias index, kappa = (PABAK - PI² + BI²) / (1 - PI² + BI²).
    Source: Byrt, Bishop & Carlin (1993).
    """
    return _prevalence_index(*contingency_table(r1, r2))


def _prevalence_index(cats: tuple[Label, ...], table: np.ndarray) -> float:
    p = _binary_table(cats, table)
    return abs(float(p[1, 1] - p[0, 0]))


def bias_index(r1: Sequence[object], r2: Sequence[object]) -> float:
    """Bias index |p_10 - p_01|: how differently the two raters use the categories.

    Equal to the difference between the raters' shares of the second category. Range 0 to 1; 0 when
    the raters use each category equally often. Binary ratings only, as ``prevalence_index``.
    Source: Byrt, Bishop & Carlin (1993).
    """
    return _bias_index(*contingency_table(r1, r2))


def _bias_index(cats: tuple[Label, ...], table: np.ndarray) -> float:
    p = _binary_table(cats, table)
    return abs(float(p[1, 0] - p[0, 1]))


def items_for_half_width(result: KappaResult, *, half_width: float = 0.1,
                         confidence: float = 0.95) -> int | None:
    """Items needed for a ``confidence`` interval of kappa ± ``half_width``, planning from a pilot.

        n_needed = ceil(n · (z · se / half_width)²)

    Approximation: the large-sample standard error shrinks as 1/sqrt(n) when the raters keep the
    same table proportions, so the pilot's n·se² is the per-item variance. The pilot's own
    proportions are assumed to hold; with a dozen items that is itself uncertain, so read the
    answer as an order of magnitude. None when kappa is undefined or se is 0 (a pilot with perfect
    agreement or a constant rater gives no variance to plan from; a non-finite se, which
    ``cohen_kappa`` never returns, gives None too).
    Source: the variance of Fleiss, Cohen & Everitt (1969); Sim & Wright (2005), Physical Therapy
    85:257-268, on planning kappa studies.
    """
    if half_width <= 0:
        raise ValueError(f"half_width must be positive, got {half_width}")
    if result.se is None or result.se == 0 or not math.isfinite(result.se):
        return None
    return math.ceil(result.n * (_z(confidence) * result.se / half_width) ** 2)

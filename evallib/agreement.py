"""Agreement between raters: Cohen's kappa and its relatives, with intervals and reading aids.

Plain numpy (scipy only for the normal quantile): usable from a script, the CLI or a test.

Conventions shared by every function
------------------------------------
* Two raters are two sequences of labels of the same length, one entry per item. A missing rating
  is ``None``, a float NaN or a blank string; an item enters a two-rater coefficient only when both
  raters rated it (pairwise deletion), and the result says how many items were left out.
* Labels are compared as numbers when every label of the input reads as a number (``7``, ``"7"``,
  ``"7.0"`` and the French ``"7,5"``), otherwise as stripped text. Categories are sorted,
  numerically when the labels are numbers.
* A coefficient that the data cannot define (chance agreement of 1, no variation at all) is
  ``None`` together with a ``note`` code, never NaN. ``NOTES`` gives an English explanation.
* Every figure of a result is a finite float. Gaps between numeric labels are computed on the labels
  scaled by a power of two (exact in floating point), so that huge labels (1e308) do not overflow;
  a figure that still cannot be represented raises ``AgreementInputError`` with code ``not_finite``.
  ``inf`` and ``nan`` typed as labels are not numbers: they are text labels.
* Input that no coefficient can use raises ``AgreementInputError``, whose ``code`` and ``details``
  let a user interface word the problem in its own language.
* Results are frozen dataclasses; how to show them is the caller's business.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from evallib.errors import InputError

Label = float | str
WEIGHTINGS = (None, "linear", "quadratic")
LEVELS = ("nominal", "ordinal", "interval")

# Chance agreement this close to 1 counts as 1: with integer counts the only way to reach it is
# that both raters used one and the same category, and the difference is then rounding noise.
_TOLERANCE = 1e-12

# How many offending labels an error message lists before it says "and N more".
_LABELS_SHOWN = 5

# Note codes attached to results whose coefficient is undefined or degenerate.
BOTH_RATERS_CONSTANT = "both_raters_constant"
CONSTANT_RATER = "constant_rater"
NO_VARIATION = "no_variation"
SINGLE_CATEGORY = "single_category"
NOTES = {
    BOTH_RATERS_CONSTANT: "Both raters gave the same label to every item, so chance agreement p_e is 1 "
                          "and kappa = (p_o - p_e) / (1 - p_e) divides by zero: kappa is undefined. "
                          "Observed agreement is 100 %, but the data cannot show whether the raters "
                          "would tell items apart.",
    CONSTANT_RATER: "One rater gave the same label to every item. Chance agreement then equals "
                    "observed agreement whatever the other rater does (p_e = p_o), so kappa is 0 "
                    "by construction: a rater who never varies carries no information about the items.",
    NO_VARIATION: "Every rating has the same value, so the disagreement expected by chance is 0 "
                  "and the coefficient divides by zero: it is undefined.",
    SINGLE_CATEGORY: "Only one category occurs and no number of categories was given, so a "
                     "coefficient whose chance model counts the categories is undefined.",
}


class AgreementInputError(InputError):
    """Ratings that no agreement coefficient can use.

    ``code`` names the problem (``"lengths_differ"``, ``"empty"``, ``"single_item"``,
    ``"non_numeric"``, ``"not_finite"``, ``"csv_encoding"``...) and ``details`` holds the figures of
    the message,
    so that a user interface can word it in its own language.
    """


# --------------------------------------------------------------------------------------------
# Presets (figures from the seed course text; the authored ones are examples written for the app)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Preset:
    """A named set of ratings, one tuple of labels per rater, with where it comes from."""

    key: str
    ratings: tuple[tuple[Label | None, ...], ...]
    source: str


SEED_RUBRIC_PAIR = Preset(
    key="rubric_pair",
    ratings=((1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1),
             (1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1)),
    source="Seed course text 001, section 'Noter sans vérité calculable': two raters apply the same "
           "12-check rubric to one AI-written review (1 = criterion met). 83 % agreement, kappa 0.63.",
)
SEED_LENIENT_PAIR = Preset(
    key="lenient_pair",
    ratings=((1,) * 11 + (0,), (1,) * 12),
    source="Seed course text 001, same section: two lenient raters who pass almost everything. "
           "92 % agreement, kappa 0.00.",
)
AUTHORED_JUDGE_SCORES = Preset(
    key="judge_scores",
    ratings=((7, 8, 5, 9, 6, 3, 8, 7, 4, 10, 6, 2, 7, 9, 5),
             (8, 8, 4, 9, 7, 2, 6, 7, 5, 9, 6, 3, 8, 10, 5)),
    source="Authored for this app (not measured): two LLM judges score the same 15 answers from 0 to "
           "10; they rarely give the same score but rarely differ by more than one point.",
)
AUTHORED_THREE_RATERS = Preset(
    key="three_raters",
    ratings=((7, 8, 5, 9, 6, 3, 8, 7, 4, 10, 6, 2),
             (8, 8, 4, 9, 7, 2, 6, None, 5, 9, 6, 3),
             (7, 9, 5, 8, 6, 4, 7, 7, None, 10, 5, 2)),
    source="Authored for this app (not measured): three judges score 12 answers from 0 to 10; two "
           "scores are missing.",
)
PRESETS = (SEED_RUBRIC_PAIR, SEED_LENIENT_PAIR, AUTHORED_JUDGE_SCORES)


# --------------------------------------------------------------------------------------------
# Reading and checking labels
# --------------------------------------------------------------------------------------------

def is_missing(value: object) -> bool:
    """True for a missing rating: ``None``, a float NaN or a blank string."""
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    if isinstance(value, (float, np.floating)):
        return math.isnan(value)
    return False


def as_number(value: object) -> float | None:
    """The label as a finite number, or None when it is not one.

    ``7``, ``"7"``, ``" 7.0 "`` and ``"7,5"`` (decimal comma) are numbers; ``"yes"`` and ``"inf"``
    are not.
    """
    if isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
    else:
        text = str(value).strip()
        if text.count(",") == 1 and "." not in text:
            text = text.replace(",", ".")
        try:
            number = float(text)
        except ValueError:
            return None
    return number if math.isfinite(number) else None


# Whole numbers up to this size are written out in full (every integer below 2**53 is exact);
# larger ones in scientific notation, so that 1e300 is "1e+300" and not a 301-digit string.
_LARGEST_WRITTEN_OUT = 1e15


def format_label(label: Label) -> str:
    """A label as text: whole numbers without decimals (``1.0`` -> ``"1"``), text as it is.

    Other numbers are written in the shortest form that reads back as the same float (``7.5``,
    ``1e+300``), so that two different numbers never share a text.
    """
    if isinstance(label, float):
        if label.is_integer() and abs(label) < _LARGEST_WRITTEN_OUT:
            return str(int(label))
        return repr(label)
    return str(label)


def _normalise(labels: Sequence[object]) -> tuple[list[Label], bool]:
    """Labels as floats when every one reads as a number, else as stripped text; and which."""
    numbers = [as_number(label) for label in labels]
    if all(number is not None for number in numbers):
        return numbers, True
    texts = [format_label(number) if number is not None else str(label).strip()
             for label, number in zip(labels, numbers)]
    return texts, False


def _require_numbers(labels: Iterable[Label], purpose: str) -> None:
    """Raise a ``non_numeric`` error naming the labels that are not numbers."""
    offending = sorted({str(label) for label in labels if as_number(label) is None})
    if offending:
        shown = ", ".join(repr(label) for label in offending[:_LABELS_SHOWN])
        if len(offending) > _LABELS_SHOWN:
            shown += f" and {len(offending) - _LABELS_SHOWN} more"
        raise AgreementInputError(
            "non_numeric", f"{purpose} needs numeric labels; these are not numbers: {shown}",
            labels=shown, purpose=purpose)


def parse_labels(text: str) -> list[str | None]:
    """Labels typed or pasted by a person: one per line, or separated on a single line.

    Several lines: one label per line. A single line is split on tabs when it has any (a row
    copied from a spreadsheet), otherwise on semicolons when it has any, otherwise on commas;
    spaces never separate, since a label may contain them. A comma stays inside a label when the
    label is on its own line or the line is split on tabs or semicolons (``"7,5;8"``: a decimal
    comma). A blank entry is a missing rating (``None``). Trailing blank lines are ignored, and so
    is one comma or semicolon at the very end of the line (``"1, 0,"`` has two items; write
    ``"1, 0, ,"`` for a missing third). A trailing tab is kept: a spreadsheet writes one only for
    an empty last cell.

    >>> parse_labels("1, 0, ,1")
    ['1', '0', None, '1']
    >>> parse_labels("yes\\n\\nno\\n")
    ['yes', None, 'no']
    >>> parse_labels("7,5\\t8\\t\\n"), parse_labels("1; 0;")
    (['7,5', '8', None], ['1', '0'])
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return []
    if len(lines) > 1:
        return [line.strip() or None for line in lines]
    line = lines[0]
    separator = "\t" if "\t" in line else ";" if ";" in line else ","
    entries = line.split(separator)
    if separator != "\t" and len(entries) > 1 and not entries[-1].strip():
        entries.pop()  # a separator typed at the very end adds no item
    return [entry.strip() or None for entry in entries]


@dataclass(frozen=True)
class RatingPair:
    """Two raters' labels on the items both rated, in the same order."""

    labels_1: tuple[Label, ...]
    labels_2: tuple[Label, ...]
    n_dropped: int  # items left out because one or both ratings were missing
    numeric: bool   # every label is a number

    @property
    def n(self) -> int:
        return len(self.labels_1)


def pair_ratings(r1: Sequence[object], r2: Sequence[object]) -> RatingPair:
    """Align two raters' labels item by item, dropping items where either rating is missing.

    Raises ``AgreementInputError`` when both are empty (``empty``), the lengths differ
    (``lengths_differ``, with both lengths), no item has both ratings (``no_complete_item``) or only
    one does (``single_item``).
    """
    r1, r2 = list(r1), list(r2)
    if not r1 and not r2:
        raise AgreementInputError("empty", "no ratings were given")
    if len(r1) != len(r2):
        raise AgreementInputError(
            "lengths_differ",
            f"rater 1 has {len(r1)} ratings and rater 2 has {len(r2)}: each item needs one entry per "
            "rater (leave an entry blank for a missing rating)", n1=len(r1), n2=len(r2))
    kept = [(a, b) for a, b in zip(r1, r2) if not is_missing(a) and not is_missing(b)]
    if not kept:
        raise AgreementInputError("no_complete_item", f"none of the {len(r1)} items was rated by both "
                                  "raters", n_items=len(r1))
    if len(kept) == 1:
        raise AgreementInputError("single_item", "only one item was rated by both raters; agreement "
                                  "needs at least two items", n_items=len(r1))
    labels, numeric = _normalise([a for a, _ in kept] + [b for _, b in kept])
    n = len(kept)
    return RatingPair(tuple(labels[:n]), tuple(labels[n:]), len(r1) - n, numeric)


def _category_list(labels: Iterable[Label], numeric: bool,
                   categories: Sequence[object] | None) -> tuple[Label, ...]:
    """The sorted observed categories, or the declared ones after checking they cover the labels."""
    observed = set(labels)
    if categories is None:
        return tuple(sorted(observed))
    declared = [as_number(c) if numeric else str(c).strip() for c in categories]
    if numeric and None in declared:
        _require_numbers([str(c) for c in categories], "declaring the categories of numeric labels")
    unknown = sorted(observed - set(declared))
    if unknown:
        shown = ", ".join(repr(format_label(label)) for label in unknown[:_LABELS_SHOWN])
        raise AgreementInputError("unknown_labels", f"labels not among the declared categories: {shown}",
                                  labels=shown)
    return tuple(sorted(set(declared)))


def _codes(labels: Sequence[Label], categories: Sequence[Label]) -> np.ndarray:
    index = {category: i for i, category in enumerate(categories)}
    return np.array([index[label] for label in labels], dtype=int)


def _table_from_codes(codes_1: np.ndarray, codes_2: np.ndarray, k: int) -> np.ndarray:
    return np.bincount(codes_1 * k + codes_2, minlength=k * k).reshape(k, k)


def _scale_exponent(values: Sequence[float]) -> int:
    """The e for which values / 2**e all lie in (-1, 1); 0 when every value is 0."""
    largest = max((abs(float(v)) for v in values), default=0.0)
    return math.frexp(largest)[1] if largest else 0


def _scaled(values: Sequence[float]) -> np.ndarray:
    """Numeric labels divided by 2**e so that they lie in (-1, 1).

    Dividing by a power of two is exact in floating point (down to 1e-308), so ratios of gaps are
    unchanged while the gaps and their squares neither overflow (labels of 1e308) nor vanish
    (labels of 1e-200).
    """
    return np.ldexp(np.array(values, dtype=float), -_scale_exponent(values))


def _require_finite(figures: dict[str, float | None], categories: Sequence[Label]) -> None:
    """Raise ``not_finite`` when a figure of a result is NaN or infinite, naming the extreme labels."""
    bad = [name for name, value in figures.items() if value is not None and not math.isfinite(value)]
    if bad:
        low, high = format_label(min(categories)), format_label(max(categories))
        raise AgreementInputError(
            "not_finite", f"{', '.join(bad)} cannot be computed as a finite number: the labels run from "
                          f"{low} to {high}, too far apart for floating-point arithmetic; divide every "
                          "label by the same constant (agreement coefficients do not change)",
            figures=", ".join(bad), low=low, high=high)


def contingency_table(r1: Sequence[object], r2: Sequence[object],
                      categories: Sequence[object] | None = None) -> tuple[tuple[Label, ...], np.ndarray]:
    """Counts of items by (rater 1's label, rater 2's label).

    Returns ``(categories, table)`` with ``table`` of shape (k, k): rows are rater 1's categories,
    columns rater 2's, in the order of ``categories`` (sorted observed labels unless given).
    The diagonal holds the items on which the raters agree. Missing ratings are dropped pairwise.
    """
    pair = pair_ratings(r1, r2)
    cats = _category_list(pair.labels_1 + pair.labels_2, pair.numeric, categories)
    return cats, _table_from_codes(_codes(pair.labels_1, cats), _codes(pair.labels_2, cats), len(cats))


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


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return float(norm.ppf(0.5 + confidence / 2))


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
    pair = pair_ratings(r1, r2)
    if weights is not None:
        _require_numbers(pair.labels_1 + pair.labels_2, f"{weights} weighted kappa")
    cats = _category_list(pair.labels_1 + pair.labels_2, pair.numeric, categories)
    table = _table_from_codes(_codes(pair.labels_1, cats), _codes(pair.labels_2, cats), len(cats))
    w = agreement_weights(cats, weights)

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

    return KappaResult(kappa=kappa, p_o=p_o, p_e=p_e, agreement=float(np.trace(table)) / pair.n,
                       n=pair.n, n_dropped=pair.n_dropped, categories=cats, table=table,
                       weights=weights, se=se, ci_low=ci_low, ci_high=ci_high,
                       confidence=confidence, note=note)


# --------------------------------------------------------------------------------------------
# Relatives of kappa for two raters, and what explains the kappa paradox
# --------------------------------------------------------------------------------------------

def _agreement_and_pooled_shares(r1, r2, categories) -> tuple[float, np.ndarray]:
    """Observed agreement p_o and the pooled share of each category over both raters."""
    _, table = contingency_table(r1, r2, categories)
    n = table.sum()
    return float(np.trace(table) / n), (table.sum(axis=1) + table.sum(axis=0)) / (2 * n)


def scott_pi(r1: Sequence[object], r2: Sequence[object]) -> float | None:
    """Scott's pi: like kappa, but chance uses the two raters' *pooled* marginals.

        pi = (p_o - p_e) / (1 - p_e),   p_e = Σ_c ((p_1c + p_2c) / 2)²

    Shapes as ``cohen_kappa``. Range -1 to 1. Pi <= kappa, with equality when both raters use the
    categories equally often. None when p_e = 1 (both raters gave one and the same label throughout).
    Source: Scott (1955), Public Opinion Quarterly 19:321-325.
    """
    p_o, pooled = _agreement_and_pooled_shares(r1, r2, None)
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
    p_o, pooled = _agreement_and_pooled_shares(r1, r2, categories)
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
    p_o, pooled = _agreement_and_pooled_shares(r1, r2, categories)
    k = len(pooled)
    if k < 2:
        return None
    p_e = float((pooled * (1 - pooled)).sum() / (k - 1))
    return (p_o - p_e) / (1 - p_e)


def _binary_table(r1, r2) -> np.ndarray:
    cats, table = contingency_table(r1, r2)
    if len(cats) > 2:
        shown = ", ".join(repr(format_label(c)) for c in cats[:_LABELS_SHOWN])
        raise AgreementInputError("not_binary", f"prevalence and bias indices are defined for two "
                                  f"categories; these ratings have {len(cats)}: {shown}",
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
    p = _binary_table(r1, r2)
    return abs(float(p[1, 1] - p[0, 0]))


def bias_index(r1: Sequence[object], r2: Sequence[object]) -> float:
    """Bias index |p_10 - p_01|: how differently the two raters use the categories.

    Equal to the difference between the raters' shares of the second category. Range 0 to 1; 0 when
    the raters use each category equally often. Binary ratings only, as ``prevalence_index``.
    Source: Byrt, Bishop & Carlin (1993).
    """
    p = _binary_table(r1, r2)
    return abs(float(p[1, 0] - p[0, 1]))


# --------------------------------------------------------------------------------------------
# More than two raters
# --------------------------------------------------------------------------------------------

def _rows(matrix: Iterable[Iterable[object]], what: str) -> list[list[object]]:
    rows = [list(row) for row in matrix]
    widths = {len(row) for row in rows}
    if not rows or widths == {0}:
        raise AgreementInputError("empty", "no ratings were given")
    if len(widths) > 1:
        raise AgreementInputError("ragged", f"every {what} needs the same number of entries; found "
                                  f"{sorted(widths)}", widths=str(sorted(widths)))
    return rows


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


def _require_two_raters(n_raters: int) -> None:
    if n_raters < 2:
        raise AgreementInputError("too_few_raters", f"agreement needs at least two raters; found {n_raters}",
                                  n_raters=n_raters)


def _require_two_items(n_usable: int, n_items: int, rated_by: str) -> None:
    """Raise unless at least two of the ``n_items`` items are usable (rated by ``rated_by``)."""
    if n_usable == 0:
        raise AgreementInputError("no_complete_item", f"none of the {n_items} items was rated by {rated_by}",
                                  n_items=n_items)
    if n_usable == 1:
        raise AgreementInputError("single_item", f"only one item was rated by {rated_by}; agreement needs at "
                                  "least two items", n_items=n_items)


def _fleiss_counts(ratings) -> tuple[np.ndarray, tuple[Label, ...], int, int]:
    rows = _rows(ratings, "item (row)")
    n_raters = len(rows[0])
    _require_two_raters(n_raters)
    complete = [row for row in rows if not any(is_missing(x) for x in row)]
    _require_two_items(len(complete), len(rows), "every rater")
    labels, _ = _normalise([x for row in complete for x in row])
    cats = tuple(sorted(set(labels)))
    codes = _codes(labels, cats).reshape(len(complete), n_raters)
    counts = np.stack([np.bincount(item, minlength=len(cats)) for item in codes])
    return counts, cats, n_raters, len(rows) - len(complete)


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
    counts, cats, n_raters, n_dropped = _fleiss_counts(ratings)
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
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    raters = _rows(reliability_data, "rater (row)")
    _require_two_raters(len(raters))
    units = [[x for x in unit if not is_missing(x)] for unit in zip(*raters)]
    pairable = [unit for unit in units if len(unit) >= 2]
    _require_two_items(len(pairable), len(units), "at least two raters")
    labels, _ = _normalise([x for unit in pairable for x in unit])
    if level != "nominal":
        _require_numbers(labels, f"Krippendorff's alpha at the {level} level")
    values = tuple(sorted(set(labels)))
    codes = _codes(labels, values)
    unit_of_rating = np.repeat(np.arange(len(pairable)), [len(unit) for unit in pairable])
    counts = np.zeros((len(pairable), len(values)))
    np.add.at(counts, (unit_of_rating, codes), 1)
    return counts, values, len(raters), len(units) - len(pairable)


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
    counts, values, n_raters, n_dropped = _alpha_counts(reliability_data, level)
    d_o, d_e, alpha = _alpha_from_counts(counts, values, level)
    if level == "interval":  # back to squared label units
        exponent = 2 * _scale_exponent(values)
        d_o, d_e = _ldexp(d_o, exponent), _ldexp(d_e, exponent)
    _require_finite({"d_o": d_o, "d_e": d_e, "alpha": alpha}, values)
    return AlphaResult(alpha=alpha, d_o=d_o, d_e=d_e, level=level, n_units=counts.shape[0],
                       n_values=int(counts.sum()), n_raters=n_raters, n_dropped=n_dropped,
                       categories=values, note=NO_VARIATION if alpha is None else None)


# --------------------------------------------------------------------------------------------
# Intervals and planning
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BootstrapInterval:
    """Percentile bootstrap interval over items."""

    low: float | None     # None when fewer than two resamples gave a defined coefficient
    high: float | None
    confidence: float
    n_boot: int
    n_valid: int          # resamples where the coefficient was defined (the others are left out)


def bootstrap_ci(statistic: Callable[[np.ndarray], float | None], n_items: int, *,
                 n_boot: int = 2000, confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap: draw ``n_items`` item indices with replacement ``n_boot`` times.

    ``statistic(indices)`` computes the coefficient on the items at ``indices`` (an int array of
    shape (n_items,)) and returns None when it is undefined there; such resamples are left out and
    counted (``n_valid``). The interval is the (1 - confidence)/2 and (1 + confidence)/2 quantiles
    of the defined values. Seeded (``numpy.random.default_rng(seed)``), hence reproducible.
    Source: Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13.
    """
    _z(confidence)
    rng = np.random.default_rng(seed)
    values = [value for value in (statistic(rng.integers(0, n_items, size=n_items))
                                  for _ in range(n_boot)) if value is not None]
    if len(values) < 2:
        return BootstrapInterval(None, None, confidence, n_boot, len(values))
    tail = 50 * (1 - confidence)
    low, high = np.percentile(values, [tail, 100 - tail])
    return BootstrapInterval(float(low), float(high), confidence, n_boot, len(values))


def cohen_kappa_bootstrap_ci(r1: Sequence[object], r2: Sequence[object], *, weights: str | None = None,
                             n_boot: int = 2000, confidence: float = 0.95,
                             seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap interval of Cohen's kappa, resampling items (see ``bootstrap_ci``).

    Resamples where both raters are constant and equal (kappa undefined) are left out.
    """
    result = cohen_kappa(r1, r2, weights=weights)
    pair = pair_ratings(r1, r2)
    codes_1, codes_2 = _codes(pair.labels_1, result.categories), _codes(pair.labels_2, result.categories)
    w, k = agreement_weights(result.categories, weights), len(result.categories)

    def kappa_of(rows: np.ndarray) -> float | None:
        return _chance_corrected(_table_from_codes(codes_1[rows], codes_2[rows], k), w)[2]

    return bootstrap_ci(kappa_of, pair.n, n_boot=n_boot, confidence=confidence, seed=seed)


def fleiss_kappa_bootstrap_ci(ratings: Iterable[Iterable[object]], *, n_boot: int = 2000,
                              confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap interval of Fleiss' kappa, resampling complete items."""
    counts, _, _, _ = _fleiss_counts(ratings)
    return bootstrap_ci(lambda rows: _fleiss_from_counts(counts[rows])[2], counts.shape[0],
                        n_boot=n_boot, confidence=confidence, seed=seed)


def krippendorff_alpha_bootstrap_ci(reliability_data: Iterable[Iterable[object]], *,
                                    level: str = "nominal", n_boot: int = 2000,
                                    confidence: float = 0.95, seed: int = 0) -> BootstrapInterval:
    """Percentile bootstrap interval of Krippendorff's alpha, resampling pairable items.

    (Krippendorff's own bootstrap resamples pairs of values; resampling items is the common,
    simpler alternative and respects the dependence between ratings of one item.)
    """
    counts, values, _, _ = _alpha_counts(reliability_data, level)
    return bootstrap_ci(lambda rows: _alpha_from_counts(counts[rows], values, level)[2],
                        counts.shape[0], n_boot=n_boot, confidence=confidence, seed=seed)


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


# --------------------------------------------------------------------------------------------
# Reading a value: published conventions (bands are conventions, not tests)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Band:
    """Values up to ``upper`` (included or not) fall in the band ``key``."""

    key: str
    upper: float
    includes_upper: bool


@dataclass(frozen=True)
class InterpretationScale:
    """A published set of bands; values are rounded to ``digits`` as in the published table."""

    key: str
    source: str
    digits: int
    bands: tuple[Band, ...]


LANDIS_KOCH_1977 = InterpretationScale(
    key="landis_koch", source="Landis & Koch (1977), Biometrics 33:159-174", digits=2,
    bands=(Band("poor", 0.0, False), Band("slight", 0.20, True), Band("fair", 0.40, True),
           Band("moderate", 0.60, True), Band("substantial", 0.80, True),
           Band("almost_perfect", 1.0, True)))
FLEISS_1981 = InterpretationScale(
    key="fleiss", source="Fleiss (1981), Statistical Methods for Rates and Proportions, 2nd ed.",
    digits=2, bands=(Band("poor", 0.40, False), Band("fair_to_good", 0.75, True),
                     Band("excellent", 1.0, True)))
KRIPPENDORFF_2004 = InterpretationScale(
    key="krippendorff", source="Krippendorff (2004), Content Analysis, 2nd ed., §11.4", digits=3,
    bands=(Band("discard", 0.667, False), Band("tentative", 0.800, False),
           Band("reliable", 1.0, True)))


def interpret(value: float, scale: InterpretationScale) -> str:
    """The key of the band of ``scale`` holding ``value`` (rounded to the scale's digits).

    Raises ValueError for NaN or an infinite value, which no band holds.

    >>> interpret(0.625, LANDIS_KOCH_1977), interpret(0.625, FLEISS_1981)
    ('substantial', 'fair_to_good')
    """
    if not math.isfinite(value):
        raise ValueError(f"cannot read {value} on the {scale.key} scale: not a finite number")
    rounded = round(value, scale.digits)
    for band in scale.bands:
        if rounded < band.upper or (band.includes_upper and rounded == band.upper):
            return band.key
    return scale.bands[-1].key


# --------------------------------------------------------------------------------------------
# Ratings from a CSV file
# --------------------------------------------------------------------------------------------

_DELIMITERS = (",", ";", "\t")


@dataclass(frozen=True)
class RatingsTable:
    """Ratings read from a file: one column per rater, one row per item; None is a missing rating."""

    raters: tuple[str, ...]
    rows: tuple[tuple[str | None, ...], ...]   # shape (n_items, n_raters)

    def column(self, j: int) -> list[str | None]:
        """The ratings of rater ``j``, one per item."""
        return [row[j] for row in self.rows]

    def by_rater(self) -> list[list[str | None]]:
        """Shape (n_raters, n_items), the layout of ``krippendorff_alpha``."""
        return [self.column(j) for j in range(len(self.raters))]


def read_ratings_csv(data: bytes) -> RatingsTable:
    """Parse a UTF-8 CSV file: one column per rater, one row per item, a blank cell = missing.

    The separator is the most frequent of ``,``, ``;`` and tab on the first line. The first row
    holds the raters' names unless every cell of it is a number (then the raters are named R1,
    R2...). Blank lines are skipped; empty cells past the last column are ignored.
    Raises ``AgreementInputError`` with code ``csv_empty``, ``csv_binary`` (NUL bytes: a
    spreadsheet, not a CSV), ``csv_encoding`` (not UTF-8; gives the line), ``csv_malformed``,
    ``csv_one_column``, ``csv_no_rows`` or ``csv_ragged`` (gives the first line whose number of
    cells differs from the header, and both counts).
    """
    if not data.strip():
        raise AgreementInputError("csv_empty", "the file is empty")
    if b"\x00" in data:
        raise AgreementInputError("csv_binary", "the file contains binary data (NUL bytes): is it a "
                                  "spreadsheet? Export it as CSV (UTF-8)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise AgreementInputError("csv_encoding", f"the file is not UTF-8 text (byte "
                                  f"0x{data[error.start]:02x} on line {line}); save it as CSV UTF-8",
                                  line=line) from None
    if not text.strip():
        raise AgreementInputError("csv_empty", "the file is empty")
    first_line = text.lstrip().splitlines()[0]
    delimiter = max(_DELIMITERS, key=first_line.count)
    try:
        lines = [(number, [cell.strip() for cell in cells]) for number, cells in
                 enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1)]
    except csv.Error as error:
        raise AgreementInputError("csv_malformed", f"the file is not valid CSV: {error}",
                                  problem=str(error)) from None
    lines = [(number, cells) for number, cells in lines if any(cells)]
    if not lines:
        raise AgreementInputError("csv_empty", "the file has no ratings, only separators")
    header = lines[0][1]
    while header and not header[-1]:
        header.pop()
    if len(header) < 2:
        raise AgreementInputError("csv_one_column", "the file has one column; it needs one column per "
                                  "rater (at least two), separated by commas or semicolons")
    has_names = not all(as_number(cell) is not None for cell in header)
    body = lines[1:] if has_names else lines
    if not body:
        raise AgreementInputError("csv_no_rows", "the file has a header but no ratings")
    rows = []
    for number, cells in body:
        while len(cells) > len(header) and not cells[-1]:
            cells.pop()
        if len(cells) != len(header):
            raise AgreementInputError(
                "csv_ragged", f"line {number} has {len(cells)} cells but the file has {len(header)} "
                "columns (leave a cell blank for a missing rating, keep its separator)",
                line=number, found=len(cells), expected=len(header))
        rows.append(tuple(cell or None for cell in cells))
    raters = tuple(name or f"R{j + 1}" for j, name in enumerate(header)) if has_names else \
        tuple(f"R{j + 1}" for j in range(len(header)))
    return RatingsTable(raters=raters, rows=tuple(rows))


def ratings_to_csv(preset: Preset, raters: Sequence[str]) -> str:
    """A preset as CSV text in the layout ``read_ratings_csv`` reads (a blank cell = missing)."""
    lines = [",".join(raters)]
    for item in zip(*preset.ratings):
        lines.append(",".join("" if is_missing(x) else str(x) for x in item))
    return "\n".join(lines) + "\n"

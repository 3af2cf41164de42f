"""Labels and ratings: missing values, numbers, pairing two raters, presets, shared checks.

See the package docstring (``evallib.agreement``) for the conventions shared by every function.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from evallib.delimited import decimal_number
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
        return number if math.isfinite(number) else None
    return decimal_number(str(value))


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
    """Raise a ``non_numeric`` error naming the labels that are not numbers.

    ``details``: ``labels`` (the first ``_LABELS_SHOWN`` offending labels, as a tuple of texts) and
    ``n_more`` (how many more there are), so that a user interface words the list itself.
    """
    offending = sorted({str(label) for label in labels if as_number(label) is None})
    if offending:
        shown, n_more = tuple(offending[:_LABELS_SHOWN]), max(0, len(offending) - _LABELS_SHOWN)
        listed = ", ".join(map(repr, shown)) + (f" and {n_more} more" if n_more else "")
        raise AgreementInputError(
            "non_numeric", f"{purpose} needs numeric labels; these are not numbers: {listed}",
            labels=shown, n_more=n_more, purpose=purpose)


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


def _z(confidence: float) -> float:
    """The two-sided normal quantile z for ``confidence`` (1.96 for 0.95), from the standard library."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def _rows(matrix: Iterable[Iterable[object]], what: str) -> list[list[object]]:
    rows = [list(row) for row in matrix]
    widths = {len(row) for row in rows}
    if not rows or widths == {0}:
        raise AgreementInputError("empty", "no ratings were given")
    if len(widths) > 1:
        raise AgreementInputError("ragged", f"every {what} needs the same number of entries; found "
                                  f"{sorted(widths)}", widths=str(sorted(widths)))
    return rows


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

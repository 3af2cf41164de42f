"""Labels and ratings: missing values, numbers, pairing two raters, presets, shared checks.

See the package docstring (``evallib.agreement``) for the conventions shared by every function.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from evallib.delimited import decimal_number
from evallib.errors import InputError
from evallib.packs.layout import builtin_file

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
# Presets (figures from the course material, docs/kappa.md#figures; the authored ones are examples written for the app)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Preset:
    """A named set of ratings, one tuple of labels per rater, with where it comes from."""

    key: str
    ratings: tuple[tuple[Label | None, ...], ...]
    source: str
    title: str = ""


def presets_from(data: dict) -> tuple[tuple[Preset, ...], Preset | None]:
    """(examples offered as buttons, the example of the CSV download or None) of a ``kappa_examples.json``.

    ``data`` is the parsed file (docs/packs.md#files): ``{"examples": [{"key", "title", "source",
    "ratings"}], "csv_example"?}``; checking it is the pack loader's work (evallib.packs.check).
    """
    examples = [Preset(e["key"], tuple(tuple(r) for r in e["ratings"]), e["source"], e.get("title", e["key"]))
                for e in data["examples"]]
    csv_key = data.get("csv_example")
    return (tuple(p for p in examples if p.key != csv_key), next((p for p in examples if p.key == csv_key), None))


#: The built-in French pack's examples: the two pairs of the course material and two authored sets.
PRESETS, _CSV_EXAMPLE = presets_from(json.loads(builtin_file("kappa_examples.json").read_text(encoding="utf-8-sig")))
_BUILTIN = {p.key: p for p in (*PRESETS, _CSV_EXAMPLE)}
SEED_RUBRIC_PAIR = _BUILTIN["rubric_pair"]
SEED_LENIENT_PAIR = _BUILTIN["lenient_pair"]
AUTHORED_JUDGE_SCORES = _BUILTIN["judge_scores"]
AUTHORED_THREE_RATERS = _BUILTIN["three_raters"]


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


@dataclass(frozen=True, eq=False)
class PairTable:
    """Two raters' contingency table over the sorted categories, with how it was read."""

    categories: tuple[Label, ...]
    table: np.ndarray     # k x k counts: rows rater 1, columns rater 2
    n_dropped: int        # items left out because one or both ratings were missing
    numeric: bool         # every label is a number


def _as_array(labels: object) -> np.ndarray:
    """Labels as a numpy array, kept as it is when it already is one (numbers stay numbers)."""
    if isinstance(labels, np.ndarray):
        return labels
    return np.asarray(labels if isinstance(labels, (list, tuple)) else list(labels), dtype=object)


def _factorise(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(codes, distinct values): ``values`` factorised once, codes -1 where a rating is missing.

    Codes have the shape of ``values``. ``pandas.factorize`` hashes each value once (None and NaN
    get -1); a blank string is found among the few distinct values, not item by item.
    """
    if values.ndim == 2 and values.flags.f_contiguous and not values.flags.c_contiguous:
        codes, uniques = _factorise(values.T)  # a transposed view: read in memory order, no copy
        return codes.T, uniques
    codes, uniques = pd.factorize(values.ravel())
    blank = np.array([is_missing(value) for value in uniques] + [True])  # the last entry serves code -1
    if blank[:-1].any():
        codes = np.where(blank[codes], -1, codes)
    return codes.reshape(values.shape), np.asarray(uniques, dtype=object)


def _categories_of(uniques: np.ndarray, present: np.ndarray, categories: Sequence[object] | None = None,
                   numbers_for: str | None = None) -> tuple[np.ndarray, tuple[Label, ...], bool]:
    """Read the distinct values at ``present`` as numbers or text: the sorted categories and a lookup.

    Returns ``lookup`` (shape (len(uniques),): the category of each distinct value at ``present``),
    the categories and whether every label is a number. Only the distinct values are read
    (``_normalise``): the cost per rating is one array lookup at most. ``numbers_for`` names a
    computation that needs numeric labels (``non_numeric`` error otherwise).
    """
    labels, numeric = _normalise(list(uniques[present]))
    if numbers_for is not None:
        _require_numbers(labels, numbers_for)
    cats = _category_list(labels, numeric, categories)
    index = {category: i for i, category in enumerate(cats)}
    lookup = np.zeros(len(uniques), dtype=np.intp)
    lookup[present] = [index[label] for label in labels]
    return lookup, cats, numeric


def _used(codes: np.ndarray, n_uniques: int) -> np.ndarray:
    """Indices of the distinct values that occur among ``codes`` (codes >= 0)."""
    return np.flatnonzero(np.bincount(codes, minlength=n_uniques))


def _coded_pair(r1: Sequence[object], r2: Sequence[object]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """(codes_1, uniques_1, codes_2, uniques_2, n_dropped) on the items both raters rated."""
    values_1, values_2 = _as_array(r1), _as_array(r2)
    if len(values_1) == 0 and len(values_2) == 0:
        raise AgreementInputError("empty", "no ratings were given")
    if len(values_1) != len(values_2):
        raise AgreementInputError(
            "lengths_differ",
            f"rater 1 has {len(values_1)} ratings and rater 2 has {len(values_2)}: each item needs one entry "
            "per rater (leave an entry blank for a missing rating)", n1=len(values_1), n2=len(values_2))
    n_items = len(values_1)
    (codes_1, uniques_1), (codes_2, uniques_2) = _factorise(values_1), _factorise(values_2)
    kept = (codes_1 >= 0) & (codes_2 >= 0)
    n = int(np.count_nonzero(kept))
    if n == 0:
        raise AgreementInputError("no_complete_item", f"none of the {n_items} items was rated by both "
                                  "raters", n_items=n_items)
    if n == 1:
        raise AgreementInputError("single_item", "only one item was rated by both raters; agreement "
                                  "needs at least two items", n_items=n_items)
    if n < n_items:
        codes_1, codes_2 = codes_1[kept], codes_2[kept]
    return codes_1, uniques_1, codes_2, uniques_2, n_items - n


def pair_table(r1: Sequence[object], r2: Sequence[object], categories: Sequence[object] | None = None,
               numbers_for: str | None = None) -> PairTable:
    """Two raters' contingency table, missing ratings dropped pairwise, labels read as ``pair_ratings``.

    ``r1`` and ``r2`` of shape (n_items,): lists, tuples or numpy arrays. Each rater's labels are
    factorised once and counted with one ``bincount`` over (value of rater 1, value of rater 2);
    the small table of distinct values is then summed into the categories (``"7"`` and ``"7.0"``
    are one category). No Python loop runs over the items. Raises as ``pair_ratings`` and
    ``_category_list``; ``numbers_for`` as ``_categories_of``.
    """
    codes_1, uniques_1, codes_2, uniques_2, n_dropped = _coded_pair(r1, r2)
    k_1, k_2 = len(uniques_1), len(uniques_2)
    raw = np.bincount(codes_1 * k_2 + codes_2, minlength=k_1 * k_2).reshape(k_1, k_2)
    rows, columns = np.flatnonzero(raw.sum(axis=1)), np.flatnonzero(raw.sum(axis=0))
    # one code space for both raters: rater 2's distinct values follow rater 1's
    lookup, cats, numeric = _categories_of(np.concatenate([uniques_1, uniques_2]),
                                           np.concatenate([rows, k_1 + columns]), categories, numbers_for)
    table = np.zeros((len(cats), len(cats)), dtype=raw.dtype)
    np.add.at(table, (lookup[:k_1][rows][:, None], lookup[k_1:][columns][None, :]), raw[np.ix_(rows, columns)])
    return PairTable(cats, table, n_dropped, numeric)


def pair_ratings(r1: Sequence[object], r2: Sequence[object]) -> RatingPair:
    """Align two raters' labels item by item, dropping items where either rating is missing.

    Raises ``AgreementInputError`` when both are empty (``empty``), the lengths differ
    (``lengths_differ``, with both lengths), no item has both ratings (``no_complete_item``) or only
    one does (``single_item``).
    """
    codes_1, uniques_1, codes_2, uniques_2, n_dropped = _coded_pair(r1, r2)
    codes = np.concatenate([codes_1, codes_2 + len(uniques_1)])
    uniques = np.concatenate([uniques_1, uniques_2])
    lookup, cats, numeric = _categories_of(uniques, _used(codes, len(uniques)))
    labels = np.empty(len(cats), dtype=object)
    labels[:] = cats
    named = labels[lookup[codes]]
    return RatingPair(tuple(named[:len(codes_1)]), tuple(named[len(codes_1):]), n_dropped, numeric)


def coded_matrix(matrix: Iterable[Iterable[object]], what: str) -> tuple[np.ndarray, np.ndarray]:
    """(codes, distinct values) of a rectangular table of labels, -1 for a missing rating.

    ``matrix``: a 2-D numpy array or a sequence of equally long rows. Raises ``empty`` or ``ragged``
    (naming the widths found) as the rows demand.
    """
    if not isinstance(matrix, (np.ndarray, list, tuple)):
        matrix = list(matrix)
    array = _as_array(matrix)
    if array.ndim != 2 or 0 in array.shape:
        rows = _rows(matrix, what)  # raises the error that fits
        array = np.empty((len(rows), len(rows[0])), dtype=object)
        array[...] = rows
    return _factorise(array)


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

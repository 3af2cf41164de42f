"""The labels are factorised once (pandas.factorize) and counted with bincount: the tables must be the
ones a reading of every label one by one gives, whatever mixture of spellings, missing values and
container (list, tuple, numpy array) the ratings come in."""

from __future__ import annotations

from collections import Counter

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss_kappa

from evallib.agreement import as_number, cohen_kappa, fleiss_kappa, format_label, is_missing, krippendorff_alpha
from evallib.agreement.bootstrap import (
    bootstrap_ci,
    cohen_kappa_table_bootstrap,
    fleiss_bootstrap_from_counts,
)
from evallib.agreement.cohen import _chance_corrected, contingency_table
from evallib.agreement.multirater import _fleiss_counts, _fleiss_from_counts

# Spellings that must meet: "7", "7.0", " 7 " and 7 are one number; "7,5" is 7.5; blank, None and
# NaN are missing; True reads as 1; "yes" makes every label text.
LABELS = [None, float("nan"), "", " ", "7", "7.0", " 7 ", 7, 7.5, "7,5", "8", 8.0, True, 1, "yes", " yes", "no"]
label = st.sampled_from(LABELS)


def reference_table(r1, r2):
    """The contingency table read label by label, as the library did before it factorised."""
    kept = [(a, b) for a, b in zip(r1, r2) if not is_missing(a) and not is_missing(b)]
    flat = [x for pair in kept for x in pair]
    numbers = [as_number(x) for x in flat]
    numeric = all(n is not None for n in numbers)
    labels = numbers if numeric else [format_label(n) if n is not None else str(x).strip()
                                      for x, n in zip(flat, numbers)]
    cats = tuple(sorted(set(labels)))
    counts = Counter(zip(labels[0::2], labels[1::2]))
    return cats, np.array([[counts[(a, b)] for b in cats] for a in cats])


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 30).flatmap(lambda n: st.tuples(st.lists(label, min_size=n, max_size=n),
                                                        st.lists(label, min_size=n, max_size=n))))
def test_the_factorised_table_is_the_label_by_label_table(pair):
    r1, r2 = pair
    expected = reference_table(r1, r2)
    if expected[1].sum() < 2:
        return  # fewer than two complete items: an input error, tested elsewhere
    for container in (list, tuple, lambda x: np.array(x, dtype=object)):
        cats, table = contingency_table(container(r1), container(r2))
        assert cats == expected[0] and table.tolist() == expected[1].tolist()


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.lists(st.lists(label, min_size=3, max_size=3),
                                                      min_size=n, max_size=n)))
def test_fleiss_counts_are_the_label_by_label_counts(rows):
    complete = [row for row in rows if not any(is_missing(x) for x in row)]
    if len(complete) < 2:
        return
    flat = [x for row in complete for x in row]
    numbers = [as_number(x) for x in flat]
    numeric = all(n is not None for n in numbers)
    labels = numbers if numeric else [format_label(n) if n is not None else str(x).strip()
                                      for x, n in zip(flat, numbers)]
    cats = sorted(set(labels))
    expected = [[labels[3 * i:3 * i + 3].count(c) for c in cats] for i in range(len(complete))]
    counts, found, _, dropped = _fleiss_counts(rows)
    assert list(found) == cats and counts.tolist() == expected and dropped == len(rows) - len(complete)


def test_numpy_arrays_of_numbers_and_of_text_give_the_library_values():
    rng = np.random.default_rng(14)
    a = rng.integers(0, 5, 3000)
    b = np.where(rng.random(3000) < 0.7, a, rng.integers(0, 5, 3000))
    expected = cohen_kappa_score(a, b, weights="quadratic")
    assert cohen_kappa(a, b, weights="quadratic").kappa == pytest.approx(expected, abs=1e-12)
    assert cohen_kappa(a.astype(str), b.astype(str), weights="quadratic").kappa == pytest.approx(expected, abs=1e-12)
    rows = np.stack([a, b, np.roll(a, 1)], axis=1)
    assert fleiss_kappa(rows).kappa == pytest.approx(statsmodels_fleiss_kappa(aggregate_raters(rows)[0]), abs=1e-12)
    data = np.stack([a, b]).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    for level in ("nominal", "interval"):
        assert krippendorff_alpha(data, level=level).alpha == pytest.approx(
            krippendorff.alpha(data, level_of_measurement=level), abs=1e-12)


def test_an_infinite_float_in_an_array_is_a_text_label_as_in_a_list():
    values = np.array([1.0, np.inf, 2.0, 1.0])
    assert contingency_table(values, values)[0] == contingency_table(list(values), list(values))[0] == ("1", "2", "inf")


def test_rows_that_differ_in_length_are_still_named():
    from evallib.agreement import AgreementInputError
    with pytest.raises(AgreementInputError) as error:
        fleiss_kappa([[1, 2], [1]])
    assert error.value.code == "ragged"
    with pytest.raises(AgreementInputError) as error:
        fleiss_kappa(iter([]))
    assert error.value.code == "empty"


# Two bootstraps of 2,000 resamples on a few hundred items: their percentile bounds differ by Monte
# Carlo error only. The standard error of a 2.5 % quantile from B draws is about
# sqrt(p (1 - p) / B) / density = 0.06 bootstrap standard deviations (normal density at z = 1.96);
# two independent runs differ by sqrt(2) times that, so 4 of those is a generous bound that a wrong
# resampling scheme (items drawn in pairs, a table drawn with the wrong n) still exceeds by far.
def monte_carlo_bound(values: np.ndarray, n_boot: int) -> float:
    se = np.sqrt(0.025 * 0.975 / n_boot) / 0.0584 * np.nanstd(values)
    return 4 * np.sqrt(2) * se


def test_table_and_item_level_bootstraps_of_kappa_and_fleiss_agree_within_monte_carlo_error():
    rng = np.random.default_rng(3)
    n, n_boot = 400, 2000
    truth = rng.integers(0, 3, n)
    rows = np.stack([np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n)) for _ in range(3)], axis=1)
    table = contingency_table(rows[:, 0], rows[:, 1])[1]
    w = np.eye(3)
    table_values = cohen_kappa_table_bootstrap(table, w, n_boot=n_boot, seed=1)
    item = bootstrap_ci(lambda idx: _chance_corrected(
        np.bincount(rows[idx, 0] * 3 + rows[idx, 1], minlength=9).reshape(3, 3), w)[2], n, n_boot=n_boot, seed=2)
    low, high = np.percentile(table_values, [2.5, 97.5])
    bound = monte_carlo_bound(table_values, n_boot)
    assert abs(low - item.low) < bound and abs(high - item.high) < bound
    counts = _fleiss_counts(rows)[0]
    fleiss_table = fleiss_bootstrap_from_counts(counts, n_boot=n_boot, seed=1)
    fleiss_item = bootstrap_ci(lambda idx: _fleiss_from_counts(counts[idx])[2], n, n_boot=n_boot, seed=2)
    spread = (fleiss_table.high - fleiss_table.low) / (2 * 1.96)  # the bootstrap standard deviation
    bound = 4 * np.sqrt(2) * np.sqrt(0.025 * 0.975 / n_boot) / 0.0584 * spread
    assert abs(fleiss_table.low - fleiss_item.low) < bound and abs(fleiss_table.high - fleiss_item.high) < bound


# ------------------------------------------------------------------ CSV: the fast reader reads as the csv module

from evallib.agreement.csv_input import _read_line_by_line, _read_regular  # noqa: E402

TOKENS = ["a", "b", "1", "0", "7,5", "x y", " ", "", '"', '""', '"p,q"', ",", ";", "\t", "\n", "\n", "\r\n", "\u00a0"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=40))
def test_a_file_the_fast_reader_accepts_reads_as_the_line_by_line_reader_reads_it(tokens):
    text = "".join(tokens)
    if not text.strip():
        return
    fast = _read_regular(text)
    if fast is None:
        return
    assert fast == _read_line_by_line(text)


@pytest.mark.parametrize("text", [
    "a,b,c\n1,2,3\n1,2,\n4,,6\n\n  \n,,\n",
    "\ufeffalice;bob\n7,5;8\n;9\n",
    '"judge 1","judge 2"\n"pass","fail"\n"fail",""\n',
    "a\tb\n 1 \t 0\r\n0\t1\r\n",
])
def test_regular_files_take_the_fast_reader(text):
    fast = _read_regular(text.lstrip("\ufeff"))
    assert fast is not None and fast == _read_line_by_line(text.lstrip("\ufeff"))


@pytest.mark.parametrize("text", ["a,b,c\n1,2\n", "a,b\n1,2,3\n", "1,0\n0,0\n1,1,\n", "a;b,c\n1;2\n", 'a,b\n"' + "x" * 200_000 + '",1\n'])
def test_irregular_files_go_to_the_line_by_line_reader(text):
    assert _read_regular(text) is None


CELLS = ["a", "1", "0", "7,5", "", " x ", '"q"', '"p;q"', '"p,q"', '""', "\u00a0b", "yes no"]


@st.composite
def tables_as_text(draw):
    """Mostly regular files (one separator, equal rows), sometimes with a cell too many or too few."""
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    width = draw(st.integers(2, 4))
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        cells = draw(st.lists(st.sampled_from(CELLS), min_size=width, max_size=width))
        cells = cells[:width + draw(st.sampled_from([0, 0, 0, 0, -1, 1]))] if cells else cells
        lines.append(delimiter.join(cells))
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["", "  ", delimiter * (width - 1)])))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + "\n"


@settings(max_examples=600, deadline=None)
@given(tables_as_text())
def test_a_table_the_fast_reader_accepts_reads_as_the_line_by_line_reader_reads_it(text):
    if not text.strip():
        return
    fast = _read_regular(text)
    if fast is not None:
        assert fast == _read_line_by_line(text)

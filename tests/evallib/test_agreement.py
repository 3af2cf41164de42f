"""evallib.agreement against reference libraries (scikit-learn, statsmodels, krippendorff) and the course
material's figures (docs/kappa.md#figures)."""

from __future__ import annotations

import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import cohens_kappa as statsmodels_cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss_kappa

from evallib.agreement import (
    AUTHORED_JUDGE_SCORES,
    AUTHORED_THREE_RATERS,
    BOTH_RATERS_CONSTANT,
    CONSTANT_RATER,
    FLEISS_1981,
    KRIPPENDORFF_2004,
    LANDIS_KOCH_1977,
    NO_VARIATION,
    PRESETS,
    SEED_LENIENT_PAIR,
    SEED_RUBRIC_PAIR,
    WEIGHTINGS,
    AgreementInputError,
    agreement_weights,
    bias_index,
    cohen_kappa,
    cohen_kappa_bootstrap_ci,
    contingency_table,
    fleiss_kappa,
    fleiss_kappa_bootstrap_ci,
    format_label,
    gwet_ac1,
    interpret,
    items_for_half_width,
    krippendorff_alpha,
    krippendorff_alpha_bootstrap_ci,
    pair_report,
    pabak,
    pair_ratings,
    parse_labels,
    prevalence_index,
    ratings_to_csv,
    read_ratings_csv,
    scott_pi,
)

RUBRIC_1, RUBRIC_2 = SEED_RUBRIC_PAIR.ratings
LENIENT_1, LENIENT_2 = SEED_LENIENT_PAIR.ratings

label_pairs = st.integers(min_value=2, max_value=40).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 4), min_size=n, max_size=n),
                        st.lists(st.integers(0, 4), min_size=n, max_size=n)))


def sklearn_kappa(r1, r2, **kwargs) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cohen_kappa_score(r1, r2, **kwargs)


# ----------------------------------------------------------------------------- seed figures

def test_seed_rubric_pair_figures():
    result = cohen_kappa(RUBRIC_1, RUBRIC_2)
    assert result.n == 12 and result.agreement == pytest.approx(10 / 12)
    assert round(result.percent_agreement) == 83
    assert result.kappa == pytest.approx(0.625)
    assert result.p_e == pytest.approx(5 / 9)
    assert result.se == pytest.approx(0.240, abs=5e-4)
    assert scott_pi(RUBRIC_1, RUBRIC_2) == pytest.approx(0.625)
    assert pabak(RUBRIC_1, RUBRIC_2) == pytest.approx(2 / 3)
    assert gwet_ac1(RUBRIC_1, RUBRIC_2) == pytest.approx(0.700)
    assert krippendorff_alpha([RUBRIC_1, RUBRIC_2]).alpha == pytest.approx(0.640625)
    assert result.note is None


def test_seed_lenient_pair_figures():
    result = cohen_kappa(LENIENT_1, LENIENT_2)
    assert result.agreement == pytest.approx(11 / 12)
    assert round(result.percent_agreement) == 92
    assert result.kappa == 0.0
    assert scott_pi(LENIENT_1, LENIENT_2) == pytest.approx(-0.043, abs=5e-4)
    assert pabak(LENIENT_1, LENIENT_2) == pytest.approx(0.833, abs=5e-4)
    assert krippendorff_alpha([LENIENT_1, LENIENT_2]).alpha == pytest.approx(0.0, abs=1e-12)
    assert gwet_ac1(LENIENT_1, LENIENT_2) == pytest.approx(0.909, abs=5e-4)
    assert prevalence_index(LENIENT_1, LENIENT_2) == pytest.approx(11 / 12)
    assert bias_index(LENIENT_1, LENIENT_2) == pytest.approx(1 / 12)


def test_seed_pair_bootstrap_spans_about_zero_to_one():
    interval = cohen_kappa_bootstrap_ci(RUBRIC_1, RUBRIC_2, n_boot=2000, seed=0)
    assert interval.low == pytest.approx(0.0, abs=0.1)
    assert interval.high == pytest.approx(1.0, abs=1e-9)
    assert interval.n_valid > 1900


def test_analytic_interval_is_clipped_to_one():
    result = cohen_kappa(RUBRIC_1, RUBRIC_2)
    assert result.kappa + 1.96 * result.se > 1
    assert result.ci_high == 1.0
    assert result.ci_low == pytest.approx(0.625 - 1.959964 * result.se, abs=1e-6)


def test_presets_have_equal_lengths_and_a_source():
    for preset in (*PRESETS, AUTHORED_THREE_RATERS):
        assert len({len(r) for r in preset.ratings}) == 1
        assert preset.source


# ----------------------------------------------------------------------------- oracles

@settings(max_examples=200, deadline=None)
@given(label_pairs)
def test_unweighted_kappa_matches_scikit_learn(pair):
    r1, r2 = pair
    expected = sklearn_kappa(r1, r2)
    result = cohen_kappa(r1, r2)
    if math.isnan(expected):
        assert result.kappa is None and result.note == BOTH_RATERS_CONSTANT
    else:
        assert result.kappa == pytest.approx(expected, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(label_pairs, st.sampled_from(["linear", "quadratic"]))
def test_weighted_kappa_matches_scikit_learn_on_the_full_integer_scale(pair, weights):
    r1, r2 = pair
    # scikit-learn weights by rank; listing every integer of the range makes rank = value - min.
    scale = list(range(min(r1 + r2), max(r1 + r2) + 1))
    expected = sklearn_kappa(r1, r2, weights=weights, labels=scale)
    result = cohen_kappa(r1, r2, weights=weights)
    if math.isnan(expected):
        assert result.kappa is None
    else:
        assert result.kappa == pytest.approx(expected, abs=1e-9)


def test_weights_follow_values_not_ranks():
    r1, r2 = [2, 3, 9, 2, 3, 9], [3, 3, 9, 2, 9, 9]
    by_rank = sklearn_kappa(r1, r2, weights="linear")
    by_value = sklearn_kappa(r1, r2, weights="linear", labels=list(range(2, 10)))
    assert cohen_kappa(r1, r2, weights="linear").kappa == pytest.approx(by_value)
    assert by_rank != pytest.approx(by_value)


def test_three_category_weighted_example():
    # One checked example of docs/kappa.md#figures: unweighted 0.50, linear 0.625, quadratic 0.75.
    r1, r2 = [0, 1, 2, 0, 1, 2], [0, 1, 2, 1, 2, 0]
    assert cohen_kappa(r1, r2).kappa == pytest.approx(sklearn_kappa(r1, r2))
    for weights in ("linear", "quadratic"):
        assert cohen_kappa(r1, r2, weights=weights).kappa == pytest.approx(
            sklearn_kappa(r1, r2, weights=weights))


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_standard_error_matches_statsmodels_ase(seed, weights):
    rng = np.random.default_rng(seed)
    n, k = rng.integers(15, 80), rng.integers(2, 6)
    r1 = rng.integers(0, k, n)
    r2 = np.where(rng.random(n) < 0.6, r1, rng.integers(0, k, n))
    result = cohen_kappa(r1, r2, weights=weights)
    if weights is None:
        reference = statsmodels_cohens_kappa(result.table)
    else:
        reference = statsmodels_cohens_kappa(result.table, weights=np.array(result.categories), wt=weights)
    assert result.kappa == pytest.approx(reference.kappa, abs=1e-9)
    assert result.se == pytest.approx(reference.std_kappa, abs=1e-9)


def test_seed_pair_standard_error_matches_statsmodels():
    result = cohen_kappa(RUBRIC_1, RUBRIC_2)
    assert result.se == pytest.approx(statsmodels_cohens_kappa(result.table).std_kappa, abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_fleiss_kappa_matches_statsmodels(seed):
    rng = np.random.default_rng(100 + seed)
    n_items, n_raters, k = rng.integers(5, 60), rng.integers(2, 7), rng.integers(2, 5)
    truth = rng.integers(0, k, n_items)
    ratings = np.where(rng.random((n_items, n_raters)) < 0.7, truth[:, None],
                       rng.integers(0, k, (n_items, n_raters)))
    table, _ = aggregate_raters(ratings)
    expected = statsmodels_fleiss_kappa(table)
    result = fleiss_kappa(ratings)
    assert result.kappa == pytest.approx(expected, abs=1e-9)
    assert (result.n_items, result.n_raters, result.n_dropped) == (n_items, n_raters, 0)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_krippendorff_alpha_matches_the_krippendorff_package_with_missing_data(seed, level):
    rng = np.random.default_rng(200 + seed)
    n_raters, n_items, k = rng.integers(2, 6), rng.integers(4, 40), rng.integers(2, 8)
    truth = rng.integers(0, k, n_items)
    data = np.where(rng.random((n_raters, n_items)) < 0.6, truth, rng.integers(0, k, (n_raters, n_items)))
    data = data.astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    try:
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    except ValueError:   # the package refuses data with no variation or nothing pairable
        with pytest.raises(AgreementInputError):
            result = krippendorff_alpha(data, level=level)
            if result.note == NO_VARIATION:
                raise AgreementInputError("no_variation", "undefined, as expected")
        return
    result = krippendorff_alpha(data, level=level)
    assert result.alpha == pytest.approx(expected, abs=1e-9)


def test_krippendorff_package_example_with_strings_nominal():
    data = [["a", "b", None, "a"], ["a", "b", "b", "b"], ["a", None, "b", "a"]]
    numeric = [[0, 1, np.nan, 0], [0, 1, 1, 1], [0, np.nan, 1, 0]]
    expected = krippendorff.alpha(reliability_data=numeric, level_of_measurement="nominal")
    assert krippendorff_alpha(data, level="nominal").alpha == pytest.approx(expected)


@settings(max_examples=150, deadline=None)
@given(label_pairs)
def test_fleiss_kappa_with_two_raters_equals_scott_pi(pair):
    r1, r2 = pair
    pi = scott_pi(r1, r2)
    result = fleiss_kappa(list(zip(r1, r2)))
    if pi is None:
        assert result.kappa is None
    else:
        assert result.kappa == pytest.approx(pi, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                       st.lists(st.integers(0, 1), min_size=n, max_size=n))))
def test_byrt_identity_links_kappa_to_pabak_prevalence_and_bias(pair):
    # Byrt, Bishop & Carlin (1993): kappa = (PABAK - PI² + BI²) / (1 - PI² + BI²).
    r1, r2 = pair
    result = cohen_kappa(r1, r2)
    pi, bi = prevalence_index(r1, r2), bias_index(r1, r2)
    denominator = 1 - pi**2 + bi**2
    if result.kappa is None:
        assert denominator == pytest.approx(0, abs=1e-12)
    else:
        assert result.kappa == pytest.approx((pabak(r1, r2) - pi**2 + bi**2) / denominator, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(label_pairs)
def test_kappa_is_symmetric_and_at_most_one(pair):
    r1, r2 = pair
    forward, backward = cohen_kappa(r1, r2), cohen_kappa(r2, r1)
    assert (forward.kappa is None) == (backward.kappa is None)
    if forward.kappa is not None:
        assert forward.kappa == pytest.approx(backward.kappa, abs=1e-12)
        assert -1 <= forward.kappa <= 1
        assert -1 <= forward.ci_low <= forward.kappa <= forward.ci_high <= 1


# ----------------------------------------------------------------------------- edge cases

def test_both_raters_constant_and_equal_is_undefined_with_full_agreement():
    result = cohen_kappa([1] * 6, [1] * 6)
    assert result.kappa is None and result.se is None and result.ci_low is None
    assert result.p_e == 1.0 and result.agreement == 1.0
    assert result.note == BOTH_RATERS_CONSTANT and "p_e is 1" in result.reason
    assert math.isnan(sklearn_kappa([1] * 6, [1] * 6))
    assert scott_pi([1] * 6, [1] * 6) is None
    assert pabak([1] * 6, [1] * 6) is None and gwet_ac1([1] * 6, [1] * 6) is None
    assert pabak([1] * 6, [1] * 6, categories=[0, 1]) == pytest.approx(1.0)
    assert prevalence_index([1] * 6, [1] * 6) == 1.0 and bias_index([1] * 6, [1] * 6) == 0.0
    assert fleiss_kappa([[1, 1, 1]] * 4).kappa is None
    assert krippendorff_alpha([[1] * 4, [1] * 4]).note == NO_VARIATION


def test_one_constant_rater_gives_kappa_zero_with_the_reason():
    result = cohen_kappa([1, 0, 1, 1, 0], [1] * 5)
    assert result.kappa == 0.0 and result.note == CONSTANT_RATER
    assert result.p_o == pytest.approx(result.p_e)
    assert "p_e = p_o" in result.reason
    assert sklearn_kappa([1, 0, 1, 1, 0], [1] * 5) == pytest.approx(0.0)
    assert items_for_half_width(result) is None


def test_perfect_agreement_gives_exactly_one():
    # Found by hypothesis: summing float proportions once gave p_o = 1.0000000000000002.
    labels = [1, 0, 3, 2, 2, 2, 3, 4, 0, 2, 2, 0, 0, 3, 1, 3, 2, 1, 2, 0, 1, 1, 1, 0, 4, 3, 0, 1] * 3
    for weights in (None, "linear", "quadratic"):
        result = cohen_kappa(labels, labels, weights=weights)
        assert result.p_o == 1.0 and result.kappa == 1.0
        assert result.ci_low == result.ci_high == 1.0
    assert scott_pi(labels, labels) == 1.0 and pabak(labels, labels) == 1.0 and gwet_ac1(labels, labels) == 1.0


def test_two_constant_raters_who_disagree_get_kappa_zero():
    result = cohen_kappa(["yes"] * 4, ["no"] * 4)
    assert result.kappa == 0.0 and result.agreement == 0.0 and result.note == CONSTANT_RATER


def test_missing_ratings_are_dropped_pairwise():
    result = cohen_kappa([1, None, 0, "", 1, float("nan"), 0], [1, 1, 0, 1, None, 0, 1])
    assert (result.n, result.n_dropped) == (3, 4)
    assert result.table.tolist() == [[1, 1], [0, 1]]


def test_numbers_are_compared_as_numbers_whatever_their_spelling():
    pair = pair_ratings(["1", " 2.0", "2,5", 3], [1.0, 2, 2.5, "3"])
    assert pair.numeric and pair.labels_1 == pair.labels_2


def test_mixed_labels_are_text_and_sort_alphabetically():
    categories, table = contingency_table(["yes", "no", 1], ["no", "no", "1"])
    assert categories == ("1", "no", "yes")
    assert table.sum() == 3 and np.trace(table) == 2


def test_declared_categories_widen_the_table():
    categories, table = contingency_table([0, 2, 2], [0, 2, 0], categories=range(4))
    assert categories == (0.0, 1.0, 2.0, 3.0) and table.shape == (4, 4)
    with pytest.raises(AgreementInputError) as error:
        contingency_table([0, 5], [0, 5], categories=range(4))
    assert error.value.code == "unknown_labels" and "'5'" in str(error.value)


# ----------------------------------------------------------------------------- error messages

def test_lengths_that_differ_name_both_lengths():
    with pytest.raises(AgreementInputError) as error:
        cohen_kappa([1, 0, 1], [1, 0])
    assert error.value.code == "lengths_differ"
    assert "3" in str(error.value) and "2" in str(error.value)
    assert error.value.details == {"n1": 3, "n2": 2}


def test_empty_input_is_an_error():
    with pytest.raises(AgreementInputError, match="no ratings") as error:
        cohen_kappa([], [])
    assert error.value.code == "empty"
    with pytest.raises(AgreementInputError) as error:
        fleiss_kappa([])
    assert error.value.code == "empty"


def test_a_single_item_is_an_error():
    with pytest.raises(AgreementInputError, match="only one item") as error:
        cohen_kappa([1], [1])
    assert error.value.code == "single_item"
    with pytest.raises(AgreementInputError, match="only one item"):
        cohen_kappa([1, None, 0], [1, 0, None])


def test_no_item_rated_by_both_is_an_error():
    with pytest.raises(AgreementInputError, match="none of the 2 items") as error:
        cohen_kappa([1, None], [None, 0])
    assert error.value.code == "no_complete_item"


def test_weighted_kappa_on_text_labels_names_the_offending_labels():
    with pytest.raises(AgreementInputError) as error:
        cohen_kappa(["1", "good", "2"], ["bad", "1", "2"], weights="linear")
    assert error.value.code == "non_numeric"
    assert "'bad', 'good'" in str(error.value) and "linear weighted kappa" in str(error.value)
    assert error.value.details["labels"] == ("bad", "good") and error.value.details["n_more"] == 0


def test_interval_and_ordinal_alpha_on_text_labels_name_the_offending_labels():
    for level in ("interval", "ordinal"):
        with pytest.raises(AgreementInputError, match="'high', 'low'") as error:
            krippendorff_alpha([["low", "high", 3], ["low", 3, 3]], level=level)
        assert error.value.code == "non_numeric" and level in str(error.value)


def test_many_offending_labels_are_summarised():
    labels = [f"x{i}" for i in range(8)]
    with pytest.raises(AgreementInputError, match="and 3 more"):
        cohen_kappa(labels, labels, weights="quadratic")


def test_too_few_raters_and_ragged_rows_are_errors():
    with pytest.raises(AgreementInputError, match="at least two raters"):
        fleiss_kappa([[1], [0]])
    with pytest.raises(AgreementInputError, match="at least two raters"):
        krippendorff_alpha([[1, 0, 1]])
    with pytest.raises(AgreementInputError, match="same number of entries") as error:
        fleiss_kappa([[1, 0], [1, 0, 1]])
    assert error.value.code == "ragged"


def test_prevalence_index_refuses_more_than_two_categories():
    with pytest.raises(AgreementInputError, match="3: '0', '1', '2'") as error:
        prevalence_index([0, 1, 2], [0, 1, 1])
    assert error.value.code == "not_binary"


# ----------------------------------------------------------------------------- extreme numbers

EXTREME_1, EXTREME_2 = ("1e308", "-1e308", "0", "5"), ("1e308", "0", "0", "5")


@pytest.mark.parametrize("weights", WEIGHTINGS)
def test_huge_labels_give_finite_weighted_kappa_independent_of_the_unit(weights):
    # Reported: the gap 1e308 - (-1e308) overflowed and every figure of the page read "nan".
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        result = cohen_kappa(EXTREME_1, EXTREME_2, weights=weights)
    small = cohen_kappa([float(x) / 1e300 for x in EXTREME_1], [float(x) / 1e300 for x in EXTREME_2],
                        weights=weights)
    figures = (result.kappa, result.p_o, result.p_e, result.se, result.ci_low, result.ci_high)
    assert all(math.isfinite(x) for x in figures)
    assert figures == pytest.approx((small.kappa, small.p_o, small.p_e, small.se, small.ci_low, small.ci_high))
    assert isinstance(items_for_half_width(result), int)
    interval = cohen_kappa_bootstrap_ci(EXTREME_1, EXTREME_2, weights=weights, n_boot=200)
    assert math.isfinite(interval.low) and math.isfinite(interval.high)


def test_scaling_leaves_ordinary_weights_exactly_as_before():
    values = np.arange(11.0)
    distance = np.abs(values[:, None] - values[None, :]) / 10
    assert np.array_equal(agreement_weights(tuple(values), "linear"), 1 - distance)
    assert np.array_equal(agreement_weights(tuple(values), "quadratic"), 1 - distance**2)


def test_huge_labels_at_the_interval_level_raise_not_finite_naming_the_labels():
    with pytest.raises(AgreementInputError) as error:
        krippendorff_alpha([EXTREME_1, EXTREME_2], level="interval")
    assert error.value.code == "not_finite"
    assert error.value.details == {"figures": "d_o, d_e", "low": "-1e+308", "high": "1e+308"}
    assert "divide every label by the same constant" in str(error.value)
    for level in ("nominal", "ordinal"):
        assert math.isfinite(krippendorff_alpha([EXTREME_1, EXTREME_2], level=level).alpha)
    interval = krippendorff_alpha_bootstrap_ci([EXTREME_1, EXTREME_2], level="interval", n_boot=200)
    assert math.isfinite(interval.low) and math.isfinite(interval.high)
    fleiss = fleiss_kappa(list(zip(EXTREME_1, EXTREME_2)))
    assert all(math.isfinite(x) for x in (fleiss.kappa, fleiss.p_o, fleiss.p_e))


def test_interval_alpha_does_not_depend_on_the_unit_of_the_labels():
    data = [[1, 2, 3, 4, 2], [1, 2, 2, 4, 3], [2, 2, 3, 4, None]]
    expected = krippendorff_alpha(data, level="interval").alpha
    for unit in (1e-200, 1e-7, 1e150):
        scaled = [[None if x is None else x * unit for x in row] for row in data]
        result = krippendorff_alpha(scaled, level="interval")
        assert result.note is None and result.alpha == pytest.approx(expected)  # was "no variation" below 1e-6


def test_a_figure_that_is_not_finite_is_an_input_error_not_a_nan(monkeypatch):
    monkeypatch.setattr("evallib.agreement.cohen._chance_corrected", lambda table, w: (math.nan, math.nan, math.nan))
    with pytest.raises(AgreementInputError) as error:
        cohen_kappa([1, 2, 3], [1, 2, 2], weights="linear")
    assert error.value.code == "not_finite" and error.value.details["low"] == "1"


@pytest.mark.parametrize("label", ["inf", "-inf", "Infinity", "nan", "NaN", "1e309", float("inf")])
def test_infinite_and_nan_labels_are_not_numbers(label):
    with pytest.raises(AgreementInputError) as error:
        cohen_kappa([label, 1, 2], [1, 1, 2], weights="linear")
    assert error.value.code == "non_numeric" and str(label) in error.value.details["labels"]
    assert cohen_kappa([label, 1, 2], [1, 1, 2]).kappa is not None  # unweighted: a text label like any other


def test_interpret_refuses_what_is_not_a_number():
    for value in (math.nan, math.inf):
        with pytest.raises(ValueError, match="not a finite number"):
            interpret(value, LANDIS_KOCH_1977)


def test_format_label_writes_huge_numbers_compactly_and_keeps_them_apart():
    assert format_label(1.0) == "1" and format_label(-12.0) == "-12" and format_label(7.5) == "7.5"
    assert format_label(float("1" + "0" * 40)) == "1e+40"
    assert format_label(1e308) == "1e+308"
    assert format_label(7.1234567) != format_label(7.1234568)


def test_unknown_weighting_and_level_are_programming_errors():
    with pytest.raises(ValueError, match="weights must be"):
        cohen_kappa([1, 0], [1, 0], weights="cubic")
    with pytest.raises(ValueError, match="level must be"):
        krippendorff_alpha([[1, 0], [1, 0]], level="ratio")


# ----------------------------------------------------------------------------- multi-rater details

def test_fleiss_leaves_out_items_with_a_missing_rating_and_alpha_keeps_them():
    rows = list(zip(*AUTHORED_THREE_RATERS.ratings))
    fleiss = fleiss_kappa(rows)
    assert (fleiss.n_items, fleiss.n_dropped, fleiss.n_raters) == (10, 2, 3)
    complete = [row for row in rows if None not in row]
    table, _ = aggregate_raters(np.array(complete, dtype=float))
    assert fleiss.kappa == pytest.approx(statsmodels_fleiss_kappa(table))
    alpha = krippendorff_alpha(AUTHORED_THREE_RATERS.ratings, level="interval")
    assert alpha.n_units == 12 and alpha.n_values == 34
    data = np.array([[np.nan if x is None else x for x in r] for r in AUTHORED_THREE_RATERS.ratings])
    assert alpha.alpha == pytest.approx(krippendorff.alpha(reliability_data=data,
                                                           level_of_measurement="interval"))


def test_items_rated_once_do_not_count_for_alpha():
    result = krippendorff_alpha([[1, 0, 1, None], [1, 0, None, 1]])
    assert (result.n_units, result.n_dropped) == (2, 2)


def test_judge_scores_preset_shows_what_weighting_does():
    r1, r2 = AUTHORED_JUDGE_SCORES.ratings
    kappas = [cohen_kappa(r1, r2, weights=w).kappa for w in (None, "linear", "quadratic")]
    assert kappas[0] < 0.3 < 0.7 < kappas[1] < kappas[2]


# ----------------------------------------------------------------------------- intervals and planning

def test_bootstrap_is_reproducible_and_depends_on_the_seed():
    first = cohen_kappa_bootstrap_ci(RUBRIC_1, RUBRIC_2, n_boot=300, seed=3)
    again = cohen_kappa_bootstrap_ci(RUBRIC_1, RUBRIC_2, n_boot=300, seed=3)
    assert first == again
    scores_1, scores_2 = AUTHORED_JUDGE_SCORES.ratings
    assert (cohen_kappa_bootstrap_ci(scores_1, scores_2, n_boot=300, seed=1)
            != cohen_kappa_bootstrap_ci(scores_1, scores_2, n_boot=300, seed=2))


def test_bootstrap_leaves_out_undefined_resamples():
    interval = cohen_kappa_bootstrap_ci(LENIENT_1, LENIENT_2, n_boot=500, seed=0)
    # A resample without the one item rated 0 has both raters constant: undefined, left out.
    assert 0 < interval.n_valid < 500
    assert interval.low == interval.high == 0.0


def test_bootstrap_interval_narrows_with_more_items():
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 2, 400)
    noisy = np.where(rng.random(400) < 0.8, truth, 1 - truth)
    small = cohen_kappa_bootstrap_ci(truth[:40], noisy[:40], n_boot=400)
    large = cohen_kappa_bootstrap_ci(truth, noisy, n_boot=400)
    assert large.high - large.low < small.high - small.low
    analytic = cohen_kappa(truth, noisy)
    assert large.low == pytest.approx(analytic.ci_low, abs=0.04)
    assert large.high == pytest.approx(analytic.ci_high, abs=0.04)


def test_multi_rater_bootstraps_bracket_the_estimate():
    rows = list(zip(*AUTHORED_THREE_RATERS.ratings))
    fleiss = fleiss_kappa_bootstrap_ci(rows, n_boot=400)
    assert fleiss.low < fleiss_kappa(rows).kappa < fleiss.high
    alpha = krippendorff_alpha_bootstrap_ci(AUTHORED_THREE_RATERS.ratings, level="interval", n_boot=400)
    assert alpha.low < krippendorff_alpha(AUTHORED_THREE_RATERS.ratings, level="interval").alpha < alpha.high


def test_items_for_half_width_scales_the_pilot_variance():
    result = cohen_kappa(RUBRIC_1, RUBRIC_2)
    needed = items_for_half_width(result, half_width=0.1)
    assert needed == math.ceil(12 * (1.959964 * result.se / 0.1) ** 2) == 266
    assert items_for_half_width(result, half_width=0.2) == math.ceil(needed / 4)
    assert items_for_half_width(cohen_kappa([1] * 4, [1] * 4)) is None
    with pytest.raises(ValueError, match="half_width"):
        items_for_half_width(result, half_width=0)


# ----------------------------------------------------------------------------- interpretation scales

@pytest.mark.parametrize(("value", "landis_koch", "fleiss"), [
    (-0.1, "poor", "poor"), (0.0, "slight", "poor"), (0.2, "slight", "poor"), (0.204, "slight", "poor"),
    (0.21, "fair", "poor"), (0.40, "fair", "fair_to_good"), (0.625, "substantial", "fair_to_good"),
    (0.75, "substantial", "fair_to_good"), (0.76, "substantial", "excellent"),
    (0.805, "almost_perfect", "excellent"), (1.0, "almost_perfect", "excellent"),
])
def test_interpretation_bands(value, landis_koch, fleiss):
    assert interpret(value, LANDIS_KOCH_1977) == landis_koch
    assert interpret(value, FLEISS_1981) == fleiss


def test_krippendorff_bands():
    assert [interpret(v, KRIPPENDORFF_2004) for v in (0.5, 0.667, 0.7999, 0.8, 1.0)] == [
        "discard", "tentative", "reliable", "reliable", "reliable"]


# ----------------------------------------------------------------------------- text and CSV input

def test_parse_labels_lines_commas_and_blanks():
    assert parse_labels("1\n0\n\n1\n") == ["1", "0", None, "1"]
    assert parse_labels("1, 0,1 , ,0") == ["1", "0", "1", None, "0"]
    assert parse_labels("1; 0;1 ; ;0") == ["1", "0", "1", None, "0"]
    assert parse_labels("7,5\n8\n") == ["7,5", "8"]
    assert parse_labels("  \n ") == []


def test_parse_labels_splits_a_spreadsheet_row_on_tabs_and_keeps_decimal_commas():
    assert parse_labels("1\t0\t1\t1") == ["1", "0", "1", "1"]
    assert parse_labels("1\t0\t1\t1\r\n") == ["1", "0", "1", "1"]  # as a spreadsheet copies a row
    assert parse_labels("7,5\t8\t6,5") == ["7,5", "8", "6,5"]
    assert parse_labels("7,5;8;6,5") == ["7,5", "8", "6,5"]
    assert parse_labels("très bien\tbien") == ["très bien", "bien"]  # spaces never separate
    assert parse_labels("très bien, bien") == ["très bien", "bien"]


def test_parse_labels_ignores_one_typed_separator_at_the_end_but_not_a_trailing_tab():
    assert parse_labels("1, 0, 1,") == ["1", "0", "1"]
    assert parse_labels("1; 0; 1; ") == ["1", "0", "1"]
    assert parse_labels("1, 0, ,") == ["1", "0", None]          # two separators: a missing last item
    assert parse_labels("1\t0\t\n") == ["1", "0", None]         # a spreadsheet row whose last cell is empty
    assert parse_labels("1\n0\n\t\n") == ["1", "0"]               # a blank last line, tab or not


def test_read_csv_with_header_semicolons_bom_and_missing_cells():
    table = read_ratings_csv("\ufeffalice;bob;carol\n1;0;1\n0;;0\n\n1;1;1\n".encode())
    assert table.raters == ("alice", "bob", "carol")
    assert table.rows == (("1", "0", "1"), ("0", None, "0"), ("1", "1", "1"))
    assert table.column(1) == ("0", None, "1")
    assert table.by_rater()[2] == ("1", "0", "1")


def test_read_csv_without_header_names_the_raters():
    table = read_ratings_csv(b"1,0\n0,0\n1,1,\n")
    assert table.raters == ("R1", "R2") and len(table.rows) == 3


def test_csv_round_trip_of_a_preset():
    text = ratings_to_csv(AUTHORED_THREE_RATERS, ["A", "B", "C"])
    table = read_ratings_csv(text.encode())
    assert table.by_rater()[1][7] is None
    assert fleiss_kappa(table.rows).kappa == pytest.approx(
        fleiss_kappa(list(zip(*AUTHORED_THREE_RATERS.ratings))).kappa)


@pytest.mark.parametrize(("data", "code", "fragment"), [
    (b"", "csv_empty", "empty"),
    (b"  \n\n", "csv_empty", "empty"),
    (b",,\n,,\n", "csv_empty", "only separators"),
    ("a,b\n1,é\n".encode("latin-1"), "csv_encoding", "line 2"),
    (b"PK\x03\x04\x00\x00binary", "csv_binary", "spreadsheet"),
    (b"a,b\n1,0\n0,1,1\n1,1\n", "csv_ragged", "line 3 has 3 cells"),
    (b"a,b\n1\n", "csv_ragged", "line 2 has 1 cell but the file has 2"),
    (b"ratings\n1\n0\n", "csv_one_column", "one column"),
    (b"a,b\n", "csv_no_rows", "no ratings"),
])
def test_broken_csv_files_name_the_problem(data, code, fragment):
    with pytest.raises(AgreementInputError) as error:
        read_ratings_csv(data)
    assert error.value.code == code
    assert fragment in str(error.value)


# ------------------------------------- bootstrap from sufficient statistics (docs/kappa.md#interval)

from evallib.agreement import readings as rd  # noqa: E402
from evallib.agreement.bootstrap import (  # noqa: E402
    alpha_from_table,
    bootstrap_ci,
    fleiss_kappa_with_interval,
    krippendorff_alpha_with_interval,
)
from evallib.agreement.cohen import _chance_corrected  # noqa: E402
from evallib.agreement.multirater import _alpha_counts, _alpha_from_counts, _fleiss_counts, _fleiss_from_counts  # noqa: E402

# Percentile bounds of two independent bootstraps of 4,000 resamples on 12-15 items differ by a few
# hundredths at most (Monte Carlo error); a wrong resampling scheme moves them by much more.
MC_TOLERANCE = 0.06


def _item_level(statistic, n):
    return bootstrap_ci(statistic, n, n_boot=4000, seed=1)


@pytest.mark.parametrize("weights", [None, "linear"])
def test_cohen_bootstrap_from_the_table_matches_the_item_level_bootstrap(weights):
    r1, r2 = AUTHORED_JUDGE_SCORES.ratings
    result = cohen_kappa(r1, r2, weights=weights)
    k = len(result.categories)
    codes_1 = np.searchsorted(result.categories, [float(x) for x in r1])
    codes_2 = np.searchsorted(result.categories, [float(x) for x in r2])
    w = agreement_weights(result.categories, weights)
    old = _item_level(lambda idx: _chance_corrected(
        np.bincount(codes_1[idx] * k + codes_2[idx], minlength=k * k).reshape(k, k), w)[2], result.n)
    new = cohen_kappa_bootstrap_ci(r1, r2, weights=weights, n_boot=4000, seed=2)
    assert abs(new.low - old.low) < MC_TOLERANCE and abs(new.high - old.high) < MC_TOLERANCE
    assert new.estimate == result.kappa


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_bootstrap_from_patterns_matches_the_item_level_bootstrap(level):
    data = AUTHORED_THREE_RATERS.ratings
    counts, values, _, _ = _alpha_counts(data, level)
    old = _item_level(lambda idx: _alpha_from_counts(counts[idx], values, level)[2], counts.shape[0])
    new = krippendorff_alpha_bootstrap_ci(data, level=level, n_boot=4000, seed=2)
    assert abs(new.low - old.low) < MC_TOLERANCE and abs(new.high - old.high) < MC_TOLERANCE


def test_fleiss_bootstrap_from_patterns_matches_the_item_level_one_and_counts_the_undefined():
    rows = list(zip(*SEED_LENIENT_PAIR.ratings))
    counts = _fleiss_counts(rows)[0]
    old = _item_level(lambda idx: _fleiss_from_counts(counts[idx])[2], counts.shape[0])
    new = fleiss_kappa_bootstrap_ci(rows, n_boot=4000, seed=2)
    assert abs(new.low - old.low) < MC_TOLERANCE and abs(new.high - old.high) < MC_TOLERANCE
    # About (11/12)^12 = 35 % of resamples hold no 0 at all: Fleiss' kappa is undefined there.
    assert abs(new.n_undefined / 4000 - (11 / 12) ** 12) < 0.03
    assert abs(old.n_undefined / 4000 - (11 / 12) ** 12) < 0.03


def test_reading_the_labels_once_gives_the_same_results_as_the_separate_functions():
    data = AUTHORED_THREE_RATERS.ratings
    fleiss, fleiss_ci = fleiss_kappa_with_interval(list(zip(*data)))
    assert fleiss == fleiss_kappa(list(zip(*data))) and fleiss_ci == fleiss_kappa_bootstrap_ci(list(zip(*data)))
    alpha, alpha_ci = krippendorff_alpha_with_interval(data, level="ordinal")
    assert alpha == krippendorff_alpha(data, level="ordinal")
    assert alpha_ci == krippendorff_alpha_bootstrap_ci(data, level="ordinal")


@pytest.mark.parametrize("pair", [SEED_RUBRIC_PAIR.ratings, SEED_LENIENT_PAIR.ratings, (["A", "B"], ["B", "A"]),
                                  AUTHORED_JUDGE_SCORES.ratings, (["x"] * 4, ["x"] * 4)])
def test_pair_report_takes_every_coefficient_from_one_table(pair):
    r1, r2 = pair
    report = pair_report(r1, r2, weights=None, bootstrap=True)
    assert report.alpha == pytest.approx(krippendorff_alpha([r1, r2]).alpha) if report.alpha is not None \
        else krippendorff_alpha([r1, r2]).alpha is None
    assert report.scott_pi == (None if scott_pi(r1, r2) is None else pytest.approx(scott_pi(r1, r2)))
    assert report.pabak == pabak(r1, r2) and report.ac1 == gwet_ac1(r1, r2)
    assert report.bootstrap.n_boot == 2000


def test_the_normal_quantile_comes_from_the_standard_library():
    code = "import sys, evallib.agreement; print('scipy.stats' in sys.modules)"
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------- CSV reading over every line (docs/kappa.md#question)

def test_semicolon_file_with_decimal_commas_is_read_as_two_numeric_columns():
    table = read_ratings_csv(b"7,5;8,5\n6,5;7\n9;9,5\n")
    assert table.delimiter == ";" and table.raters == ("R1", "R2")
    assert table.column(0) == ("7,5", "6,5", "9") and table.column(1) == ("8,5", "7", "9,5")
    assert cohen_kappa(table.column(0), table.column(1), weights="linear").n == 3
    # Read with commas, every line has three cells too ("7", "5;8", "5"): the clean reading wins.
    assert read_ratings_csv(b"7,5;8,5\n6,5;7,5\n").rows == (("7,5", "8,5"), ("6,5", "7,5"))


def test_a_file_two_separators_read_equally_well_is_refused_naming_them():
    with pytest.raises(AgreementInputError) as error:
        read_ratings_csv(b"a;b,c;d\n1;2,3;4\n")
    assert error.value.code == "csv_ambiguous" and error.value.details["separators"] == (",", ";")


def test_the_separator_is_chosen_over_every_line_not_the_first():
    table = read_ratings_csv(b"name, with comma;other\n1;0\n0;1\n")
    assert table.raters == ("name, with comma", "other") and table.delimiter == ";"


def test_csv_errors_carry_a_code_and_a_line_never_the_csv_modules_english():
    with pytest.raises(AgreementInputError) as error:
        read_ratings_csv(b'a,b\n"' + b"x" * 200_000 + b'",1\n')
    assert error.value.code == "csv_field_too_large" and error.value.details == {"line": 2}


def test_a_missing_last_rating_keeps_its_separator_and_is_not_ragged():
    table = read_ratings_csv(b"a,b,c\n1,2,\n1,2,3\n")
    assert table.rows[0] == ("1", "2", None)


def test_non_numeric_labels_are_listed_as_data_with_the_count_of_the_rest():
    with pytest.raises(AgreementInputError) as error:
        cohen_kappa([f"w{i}" for i in range(24)], [str(i) for i in range(24)], weights="linear")
    assert error.value.details["labels"] == ("w0", "w1", "w10", "w11", "w12")
    assert error.value.details["n_more"] == 19

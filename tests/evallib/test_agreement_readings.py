"""evallib.agreement.readings: each reading code with values that trigger it (docs/kappa.md#readings)."""

from __future__ import annotations

import pytest

from evallib.agreement import (
    LANDIS_KOCH_1977,
    SEED_LENIENT_PAIR,
    SEED_RUBRIC_PAIR,
    BootstrapInterval,
    cohen_kappa,
    cohen_kappa_bootstrap_ci,
    fleiss_kappa_bootstrap_ci,
    krippendorff_alpha,
    krippendorff_alpha_bootstrap_ci,
    pair_report,
    scott_pi,
)
from evallib.agreement import readings as rd

SWAPPED = (["A", "B"], ["B", "A"])


def codes(readings):
    return [reading.code for reading in readings]


# ---------------------------------------------------------------- intervals

def test_perfect_agreement_analytic_interval_is_zero_width_and_called_so():
    result = cohen_kappa([1, 0, 1, 0, 1], [1, 0, 1, 0, 1])
    assert (result.ci_low, result.ci_high) == (1.0, 1.0)
    reading = rd.interval_reading(result.kappa, result.ci_low, result.ci_high, result.n, LANDIS_KOCH_1977,
                                  analytic=True)
    assert reading.code == "zero_width_analytic"


def test_perfect_agreement_gets_an_exact_lower_bound_from_clopper_pearson():
    result = cohen_kappa([1, 0, 1, 0, 1], [1, 0, 1, 0, 1])
    low, high = rd.exact_interval(result)
    # 5 items all agreeing: agreement >= 0.025**(1/5) = 0.478; p_e = 0.52, so kappa >= -0.087.
    assert high == 1.0 and low == pytest.approx((0.025 ** 0.2 - 0.52) / 0.48)
    assert rd.exact_interval(cohen_kappa(*SEED_RUBRIC_PAIR.ratings)) is None  # neither all nor none agree


def test_two_items_swapped_give_kappa_minus_one_with_a_zero_width_interval_and_an_exact_one():
    result = cohen_kappa(*SWAPPED)
    assert result.kappa == -1.0 and result.se == 0.0
    assert rd.interval_reading(-1.0, result.ci_low, result.ci_high, 2, LANDIS_KOCH_1977,
                               analytic=True).code == "zero_width_analytic"
    low, high = rd.exact_interval(result)
    assert low == -1.0 and high > 0.5


def test_three_raters_on_three_items_give_a_zero_width_bootstrap_interval():
    ci = krippendorff_alpha_bootstrap_ci([[1, 2, 3]] * 3)
    assert (ci.low, ci.high) == (1.0, 1.0)
    assert rd.interval_reading(ci.estimate, ci.low, ci.high, 3, rd.KRIPPENDORFF_2004,
                               analytic=False).code == "zero_width_resamples"


@pytest.mark.parametrize("low, high, code", [(0.45, 0.55, "one_band"), (0.0, 1.0, "bands"), (None, None, "undefined")])
def test_interval_bands(low, high, code):
    reading = rd.interval_reading(0.5, low, high, 12, LANDIS_KOCH_1977, analytic=False)
    assert reading.code == code
    if code == "bands":
        assert (reading.values["low_band"], reading.values["high_band"]) == ("landis_koch.slight",
                                                                             "landis_koch.almost_perfect")


def test_lenient_pair_fleiss_interval_is_flagged_for_undefined_resamples_and_its_estimate_on_a_bound():
    interval = fleiss_kappa_bootstrap_ci(list(zip(*SEED_LENIENT_PAIR.ratings)))
    flags = rd.bootstrap_flags(interval)
    assert codes(flags) == ["usable", "many_undefined", "on_bound"]
    assert flags[0].values == {"n_valid": interval.n_valid, "n_boot": 2000}


def test_a_clean_bootstrap_interval_only_says_how_many_resamples_were_usable():
    interval = BootstrapInterval(0.1, 0.9, 0.95, 2000, 2000, 0.5)
    assert codes(rd.bootstrap_flags(interval)) == ["usable"]
    outside = BootstrapInterval(0.1, 0.4, 0.95, 2000, 1990, 0.5)
    assert codes(rd.bootstrap_flags(outside)) == ["usable", "on_bound"]


#: One rater gives "pass" to 14 of 15 items: a resample leaves the single "fail" out (14/15)^15 = 36 % of the time.
DOMINANT = (["pass"] * 14 + ["fail"], ["pass"] * 12 + ["partial", "fail", "fail"])


def test_a_dominant_label_flags_the_resamples_where_a_rater_is_constant_and_kappa_0():
    interval = cohen_kappa_bootstrap_ci(*DOMINANT, n_boot=2000, seed=0)
    flags = rd.bootstrap_flags(interval)
    assert (interval.low, interval.high) == (0.0, 1.0)  # the interval the caution is about
    assert codes(flags) == ["usable", "constant_rater"]
    # Rater 1 constant: the "fail" item not drawn; rater 2 also constant ("pass" items only): kappa undefined.
    expected = (14 / 15) ** 15 - (12 / 15) ** 15
    assert flags[1].values == {"n_constant": interval.n_constant, "n_boot": 2000,
                               "constant_share": interval.n_constant / 2000}
    assert abs(interval.n_constant / 2000 - expected) < 0.03
    assert pair_report(*DOMINANT, bootstrap=True).bootstrap == interval  # the page's and the command's


@pytest.mark.parametrize("n_constant, flagged", [(None, False), (0, False), (100, False), (101, True)])
def test_the_constant_rater_caution_starts_above_the_share_of_the_undefined_ones(n_constant, flagged):
    """100 of 2000 is exactly MANY_CONSTANT_SHARE (5 %, Fleiss' threshold): not above it; None is Fleiss'."""
    interval = BootstrapInterval(0.1, 0.9, 0.95, 2000, 2000, 0.5, n_constant)
    assert rd.MANY_CONSTANT_SHARE == rd.MANY_UNDEFINED_SHARE
    assert ("constant_rater" in codes(rd.bootstrap_flags(interval))) is flagged


def test_resamples_where_both_raters_are_constant_count_as_undefined_on_one_label_as_constant_on_two():
    same = cohen_kappa_bootstrap_ci(["a"] * 14 + ["b"], ["a"] * 14 + ["b"], n_boot=2000, seed=0)
    assert same.n_constant == 0 and same.n_undefined > 500  # kappa undefined there: left out, not kappa 0
    apart = cohen_kappa_bootstrap_ci(["a"] * 14 + ["b"], ["b"] * 14 + ["a"], n_boot=2000, seed=0)
    assert apart.n_undefined == 0 and apart.n_constant > 500  # each rater on its own label: kappa 0
    assert codes(rd.bootstrap_flags(apart))[:2] == ["usable", "constant_rater"]


def test_fleiss_and_alpha_intervals_do_not_count_constant_raters():
    ratings = list(zip(*DOMINANT))
    assert fleiss_kappa_bootstrap_ci(ratings).n_constant is None
    assert krippendorff_alpha_bootstrap_ci(list(DOMINANT)).n_constant is None


@pytest.mark.parametrize("n, code", [(12, "small"), (49, "small"), (50, "large")])
def test_analytic_interval_size(n, code):
    assert rd.analytic_interval_size(n).code == code


# ---------------------------------------------------------------- degenerate pairs

@pytest.mark.parametrize("r1, r2, code, values", [
    (["x"] * 4, ["x"] * 4, "both_constant", {"label": "x", "agreement_share": 1.0}),
    (["x"] * 4, ["y"] * 4, "both_constant_apart", {"label_a": "x", "label_b": "y"}),
    ([1, 1, 1, 1], [1, 0, 1, 1], "constant_rater", {"rater": 0, "label": "1", "p": 0.75, "agreement_share": 0.75}),
    ([1, 0, 1, 1], [0, 0, 0, 0], "constant_rater", {"rater": 1, "label": "0", "p": 0.25, "agreement_share": 0.25}),
])
def test_degenerate_pairs(r1, r2, code, values):
    reading = rd.degenerate_pair(cohen_kappa(r1, r2))
    assert reading.code == code and reading.values == values


def test_an_ordinary_pair_is_not_degenerate():
    assert rd.degenerate_pair(cohen_kappa(*SEED_RUBRIC_PAIR.ratings)) is None


# ---------------------------------------------------------------- sample size

@pytest.mark.parametrize("r1, r2, code", [
    ([1, 0, 1, 0, 1], [1, 0, 1, 0, 1], "none_perfect"),
    (*SWAPPED, "none_opposite"),
    ([1, 1, 1, 1], [1, 0, 1, 1], "none_constant"),
    (*SEED_RUBRIC_PAIR.ratings, "needed"),
])
def test_sample_size_reasons(r1, r2, code):
    result = cohen_kappa(r1, r2)
    needed = pair_report(r1, r2).items_needed
    assert rd.sample_size(result, needed, 0.1).code == code


def test_complete_disagreement_is_read_as_possible_chance_only_on_few_items():
    # Failed before: 60 items all in disagreement were read "on so few items".
    few = cohen_kappa([1, 0] * 5, [0, 1] * 5)
    many = cohen_kappa([1, 0] * 30, [0, 1] * 30)
    assert rd.sample_size(few, None, 0.1).code == "none_opposite"
    assert rd.sample_size(many, None, 0.1).code == "none_opposite_many"


def test_sample_size_enough_on_few_and_many_items():
    few = cohen_kappa([1, 0] * 20, [1, 0] * 19 + [0, 1])
    assert rd.sample_size(few, 10, 0.1).code == "enough_small"
    many = cohen_kappa([1, 0] * 100, [1, 0] * 99 + [0, 1])
    assert rd.sample_size(many, 10, 0.1).code == "enough_large"


# ---------------------------------------------------------------- prevalence, the pass label, bias, chance

@pytest.mark.parametrize("categories, expected", [
    ((0.0, 1.0), 1.0), (("non", "oui"), "oui"), (("FAIL", "pass"), "pass"), (("A", "B"), None),
    ((1.0, 2.0), None), (("no", "yes", "maybe"), None), (("Réussi", "échec"), "Réussi")])
def test_pass_label(categories, expected):
    assert rd.pass_label(categories) == expected


def test_a_dominant_pass_label_is_a_rubric_almost_always_met():
    result = cohen_kappa(*SEED_LENIENT_PAIR.ratings)
    reading = rd.prevalence(result, 11 / 12, rd.pass_label(result.categories))
    assert reading.code == "high_pass" and reading.values["label"] == "1"


def test_a_dominant_fail_label_is_not_called_a_rubric_almost_always_met():
    r1, r2 = [0] * 11 + [1], [0] * 12
    result = cohen_kappa(r1, r2)
    assert rd.prevalence(result, 11 / 12, rd.pass_label(result.categories)).code == "high_fail"


def test_a_dominant_label_that_is_neither_pass_nor_fail_is_named_neutrally():
    result = cohen_kappa(["A"] * 11 + ["B"], ["A"] * 12)
    reading = rd.prevalence(result, 11 / 12, rd.pass_label(result.categories))
    assert reading.code == "high" and reading.values["label"] == "A"


def test_prevalence_low_and_tie():
    result = cohen_kappa(*SEED_RUBRIC_PAIR.ratings)
    assert rd.prevalence(result, 1 / 3, 1.0).code == "low"
    tie = cohen_kappa([1, 0, 1, 0], [1, 0, 0, 1])
    assert rd.prevalence(tie, 0.0, 1.0).code == "tie"
    assert rd.chance(tie).code == "chance_tie"


def test_chance_names_the_label_most_agreed_on():
    reading = rd.chance(cohen_kappa(*SEED_RUBRIC_PAIR.ratings))
    assert reading.code == "chance" and reading.values["label"] == "1"
    assert reading.values["a_share"] == pytest.approx(8 / 12)


@pytest.mark.parametrize("r1, r2, index, code", [
    ([1, 1, 0, 0], [1, 1, 0, 0], 0.0, "none"),
    ([1] * 8 + [0] * 4, [1] * 5 + [0] * 7, 0.25, "high"),
    ([1] * 6 + [0] * 6, [1] * 5 + [0] * 7, 1 / 12, "low"),
    ([1] * 150 + [0] * 151, [1] * 151 + [0] * 150, 1 / 301, "low_counts"),
])
def test_bias_readings(r1, r2, index, code):
    assert rd.bias(cohen_kappa(r1, r2), index).code == code


# ---------------------------------------------------------------- alpha beside kappa

def test_alpha_differs_from_kappa_on_two_swapped_items_because_of_its_small_sample_correction():
    kappa, pi, alpha = cohen_kappa(*SWAPPED).kappa, scott_pi(*SWAPPED), krippendorff_alpha(list(SWAPPED)).alpha
    assert (kappa, pi, alpha) == (-1.0, -1.0, -0.5)
    reading = rd.alpha_beside_kappa(kappa, pi, alpha, 2)
    assert reading.code == "small_sample" and reading.values["n_values"] == 4


def test_kappa_differs_from_pi_when_the_raters_marginals_differ():
    assert rd.alpha_beside_kappa(0.30, 0.20, 0.2004, 1000).code == "marginals"
    assert rd.alpha_beside_kappa(0.30, 0.20, 0.25, 8).code == "both"
    assert rd.alpha_beside_kappa(0.5, 0.5, 0.5001, 1000) is None
    assert rd.alpha_beside_kappa(None, None, None, 4) is None


def test_alpha_equal_to_kappa_needs_no_explanation_even_when_pi_differs():
    # The lenient pair: kappa 0, pi -0.043, alpha 0: the two effects cancel.
    kappa, pi = cohen_kappa(*SEED_LENIENT_PAIR.ratings).kappa, scott_pi(*SEED_LENIENT_PAIR.ratings)
    alpha = krippendorff_alpha(list(SEED_LENIENT_PAIR.ratings)).alpha
    assert abs(alpha - kappa) < 1e-12 and abs(pi - kappa) > 0.04
    assert rd.alpha_beside_kappa(kappa, pi, alpha, 12) is None


# ---------------------------------------------------------------- coefficients, weights

def test_coefficient_band_and_undefined():
    assert rd.coefficient(0.625, LANDIS_KOCH_1977).values["band"] == "landis_koch.substantial"
    assert rd.coefficient(None, LANDIS_KOCH_1977).code == "undefined"


def test_closest_scores_credit():
    reading = rd.closest_scores_credit((0.0, 5.0, 10.0))
    assert reading.values == {"step": 5.0, "linear": 0.5, "quadratic": 0.75, "low": "0", "high": "10"}

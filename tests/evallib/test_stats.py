"""evallib.stats against statsmodels and scipy."""

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from statsmodels.stats.proportion import proportion_confint

from evallib import stats
from evallib.stats import (
    binomial_test_greater,
    clopper_pearson_interval,
    exact_upper_after_zero,
    standard_error_proportion,
    wilson_interval,
)

counts = st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))
confidences = st.sampled_from([0.8, 0.9, 0.95, 0.99])


def test_doctests():
    assert doctest.testmod(stats).failed == 0


@settings(max_examples=200, deadline=None)
@given(counts, confidences)
def test_wilson_equals_statsmodels(kn, confidence):
    k, n = kn
    expected = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    assert wilson_interval(k, n, confidence) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(counts, confidences)
def test_clopper_pearson_equals_statsmodels(kn, confidence):
    k, n = kn
    expected = proportion_confint(k, n, alpha=1 - confidence, method="beta")
    assert clopper_pearson_interval(k, n, confidence) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(counts, st.floats(0.01, 0.99))
def test_binomial_greater_equals_scipy_tail(kn, p):
    k, n = kn
    tail = scipy_stats.binom.sf(k - 1, n, p)
    assert binomial_test_greater(k, n, p) == pytest.approx(tail, rel=1e-9, abs=1e-300)


def test_intervals_contain_the_estimate_and_stay_in_unit_interval():
    for k, n in [(0, 5), (5, 5), (21, 36), (1, 1)]:
        for interval in (wilson_interval(k, n), clopper_pearson_interval(k, n)):
            assert 0 <= interval[0] <= k / n <= interval[1] <= 1


@pytest.mark.parametrize("n", [1, 2, 3, 5, 10, 38, 100, 1000])
def test_the_bound_after_zero_events_is_the_exact_one_sided_binomial_bound(n):
    # The one-sided 95 % upper bound is the upper end of the two-sided 90 % exact interval at k = 0.
    oracle = scipy_stats.binomtest(0, n).proportion_ci(confidence_level=0.90, method="exact").high
    assert exact_upper_after_zero(n) == pytest.approx(oracle, rel=1e-12)
    assert scipy_stats.binom.pmf(0, n, exact_upper_after_zero(n)) == pytest.approx(0.05)


def test_the_bound_after_zero_events_never_exceeds_one_where_three_over_n_did():
    # Failed before: rule_of_three_upper(1) returned 3/1 = 300 %.
    assert exact_upper_after_zero(1) == pytest.approx(0.95)
    assert all(0 < exact_upper_after_zero(n) < 1 for n in range(1, 200))
    assert exact_upper_after_zero(2) < 3 / 2 and exact_upper_after_zero(3) < 3 / 3


def test_standard_error():
    assert standard_error_proportion(0.25, 12) == pytest.approx((0.25 * 0.75 / 12) ** 0.5)
    assert standard_error_proportion(0.0, 5) == 0.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: wilson_interval(5, 4), "between 0 and n=4"),
        (lambda: wilson_interval(-1, 4), "between 0 and n=4"),
        (lambda: wilson_interval(0, 0), "must be positive"),
        (lambda: wilson_interval(1, 4, confidence=1.0), "confidence"),
        (lambda: clopper_pearson_interval(3, 2), "between 0 and n=2"),
        (lambda: clopper_pearson_interval(0, -1), "must be positive"),
        (lambda: binomial_test_greater(3, 2, 0.5), "between 0 and n=2"),
        (lambda: binomial_test_greater(1, 2, 1.5), "null proportion"),
        (lambda: exact_upper_after_zero(0), "must be positive"),
        (lambda: exact_upper_after_zero(5, confidence=1.0), "confidence"),
        (lambda: standard_error_proportion(0.5, 0), "must be positive"),
        (lambda: standard_error_proportion(-0.1, 10), "between 0 and 1"),
    ],
)
def test_invalid_inputs_raise_value_error_with_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_binomial_tail_keeps_its_precision_deep_in_the_tail():
    # Found by Hypothesis on a fresh clone: Cephes' bdtrc was 2e-8 off scipy's tail here.
    assert binomial_test_greater(174, 190, 0.015625) == pytest.approx(scipy_stats.binom.sf(173, 190, 0.015625),
                                                                      rel=1e-12)

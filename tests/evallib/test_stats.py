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
    rule_of_three_upper,
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


def test_rule_of_three_is_close_to_the_exact_one_sided_bound():
    assert rule_of_three_upper(100) == pytest.approx(0.03)
    exact = 1 - 0.05 ** (1 / 100)
    assert rule_of_three_upper(100) == pytest.approx(exact, rel=0.02)


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
        (lambda: rule_of_three_upper(0), "must be positive"),
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

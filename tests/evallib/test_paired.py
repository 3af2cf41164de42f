"""Exact paired tests against scipy: the sign test (binomtest), the sign-flip test (permutation_test),
their interval (by what it means: the shifts the test does not reject), ties and degenerate inputs."""

import numpy as np
import pytest
from scipy import stats

from evallib.paired import (EXACT_MAX_CASES, PairedTest, p_floor, paired_code, sign_flip_test, sign_test)

SAMPLES = [
    [2, 1, 0, 2, 1],
    [1, 2, 1, 3, 2, 2, 1],
    [3, -1, 2, 0, 1, 2, -2, 1],
    [-1, -1, -1, 4, -3, 0, -3],
    [0.5, -0.25, 1.75, 2.0, 0.0, 1.25],
    [1, -1],
    [4],
    [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, -2],   # 16 cases: the largest exact enumeration
]


def scipy_sign_flip(d, **options):
    options.setdefault("n_resamples", np.inf)
    return stats.permutation_test((np.asarray(d, dtype=float),), np.mean, permutation_type="samples", **options)


@pytest.mark.parametrize("d", [s for s in SAMPLES if len(s) > 1])   # scipy wants two cases or more
def test_sign_flip_p_equals_scipy_permutation_test(d):
    test = sign_flip_test(d)
    assert test.method == "exact" and test.flips == 2 ** len(d)
    assert test.p == pytest.approx(scipy_sign_flip(d).pvalue, abs=1e-12)


def test_one_case_flips_two_ways_and_gives_p_one():
    assert (sign_flip_test([4]).p, sign_flip_test([4]).flips) == (1.0, 2)


@pytest.mark.parametrize("d", SAMPLES + [[0, 0, 0], [0, 3, 0, 0]])
def test_sign_test_equals_scipy_binomtest(d):
    test = sign_test(d)
    m = test.positive + test.negative
    assert test.p == (1.0 if m == 0 else pytest.approx(stats.binomtest(test.positive, m).pvalue, abs=1e-12))
    assert test.zero == sum(x == 0 for x in d)


@pytest.mark.parametrize("d", [s for s in SAMPLES if len(s) >= 6])
def test_the_interval_holds_exactly_the_shifts_the_test_does_not_reject(d):
    test = sign_flip_test(d)
    for end, outward in ((test.low, -1), (test.high, 1)):   # the bisection stops within 1e-9 of the end
        assert scipy_sign_flip(np.asarray(d) - (end - outward * 1e-9)).pvalue > 0.05
        assert scipy_sign_flip(np.asarray(d) - (end + outward * 1e-4)).pvalue <= 0.05
    assert test.low <= test.mean <= test.high


def test_monte_carlo_beyond_the_exact_size_is_close_to_scipy():
    d = np.random.default_rng(3).integers(-2, 4, EXACT_MAX_CASES + 14)
    test = sign_flip_test(d, resamples=20_000, seed=1)
    assert (test.method, test.flips) == ("monte_carlo", 20_000)
    assert test.p == pytest.approx(scipy_sign_flip(d, n_resamples=200_000, rng=0).pvalue, abs=0.01)
    assert test.low < test.mean < test.high
    assert sign_flip_test(d, resamples=20_000, seed=1) == test   # seeded: the same figures on every run


@pytest.mark.parametrize("n, floor", [(1, 1.0), (2, 0.5), (3, 0.25), (5, 0.0625), (6, 0.03125)])
def test_no_test_can_conclude_below_six_cases(n, floor):
    assert p_floor(n) == floor
    test = sign_flip_test([3] * n)
    assert test.p == floor and test.p_floor == floor
    assert paired_code(test) == ("positive" if n >= 6 else "too_few")
    assert (test.low is None) == (n < 6)


def test_two_identical_differences_have_no_interval_and_cannot_conclude():
    """The old paired t interval over [2, 2] had zero width, [2, 2], and excluded 0."""
    test = sign_flip_test([2, 2])
    assert (test.low, test.high, test.p, paired_code(test)) == (None, None, 0.5, "too_few")
    assert not test.equal


def test_equal_differences_on_six_cases_give_a_named_zero_width_interval():
    test = sign_flip_test([-1] * 6)
    assert (test.low, test.high, test.equal, paired_code(test)) == (-1.0, -1.0, True, "negative")


@pytest.mark.parametrize("d, code", [
    ([], "no_pairs"),
    ([0], "all_zero"),
    ([0, 0, 0, 0, 0, 0, 0], "all_zero"),
    ([1, -1, 1, -1, 1, -1], "cannot_tell"),   # a tie in signs on enough cases: p = 1
    ([1, 1, 1, 1, 1, 1, -1], "cannot_tell"),
    ([1, 2, 1, 3, 2, 2, 1], "positive"),
])
def test_paired_codes(d, code):
    assert paired_code(sign_flip_test(d)) == code


def test_no_pairs_and_bad_input():
    assert sign_flip_test([]) == PairedTest(0, None, None, None, None, "exact", 0, 1.0, 0, 0, 0, 0.95)
    assert sign_test([]).p is None
    with pytest.raises(ValueError, match="finite"):
        sign_flip_test([1, float("nan")])


def test_the_interval_is_named_for_the_centre_of_symmetry_wherever_a_reading_shows_it():
    from evallib.paired import INTERVAL_OF, paired_values
    from ui.i18n import catalogue
    TEXTS = catalogue()

    assert paired_values(sign_flip_test([1, 2, 0, 3, 1, 2, 1]))["interval_of"] == INTERVAL_OF == "centre_of_symmetry"
    shown = {key: texts for key, texts in TEXTS.items() if "{ci}" in texts["en"] and key.startswith("judge.reading.")}
    assert len(shown) == 4
    for texts in shown.values():
        assert "centre of symmetry" in texts["en"] and "centre de symétrie" in texts["fr"]

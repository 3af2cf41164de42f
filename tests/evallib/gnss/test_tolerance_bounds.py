"""Order-statistic bounds of the 95th percentile (docs/gnss.md#tolerances): 50 realisations cannot bound it from above,
59 can; the bounds match the binomial definition (scipy) and cover at the nominal rate in simulation."""

import numpy as np
import pytest
from scipy.stats import binom

from evallib.runs.gnss.cli import main
from evallib.gnss.tolerances import (MIN_TRIALS, ErrorSpread, derivation_designs, order_statistic_bounds,
                                     tolerance_from_spread)


def test_fifty_realisations_have_no_upper_bound_and_fifty_nine_do():
    assert MIN_TRIALS == 59 and 1 - 0.95 ** 59 >= 0.95 > 1 - 0.95 ** 58
    assert order_statistic_bounds(np.arange(50.0)).upper is None
    bounds = order_statistic_bounds(np.arange(59.0))
    assert bounds.upper == 58.0 and bounds.upper_rank == 59


@pytest.mark.parametrize("n", [20, 59, 100, 300])
def test_ranks_follow_the_binomial_definition(n):
    b = order_statistic_bounds(np.arange(float(n)))
    if b.upper_rank is not None:
        assert binom.cdf(b.upper_rank - 1, n, 0.95) >= 0.95 > binom.cdf(b.upper_rank - 2, n, 0.95)
    if b.low_rank is not None:
        assert binom.cdf(b.low_rank - 1, n, 0.95) <= 0.025 < binom.cdf(b.low_rank, n, 0.95)
    if b.high_rank is not None:
        assert binom.cdf(b.high_rank - 1, n, 0.95) >= 0.975 > binom.cdf(b.high_rank - 2, n, 0.95)


def test_upper_bound_covers_the_true_percentile_at_least_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    truth = 1.959963984540054  # 95th percentile of |N(0,1)| is the 97.5th of N(0,1)
    samples = np.abs(rng.standard_normal((2000, 100)))
    ordered = np.sort(samples, axis=1)
    rank = order_statistic_bounds(samples[0]).upper_rank
    coverage = np.mean(ordered[:, rank - 1] >= truth)
    assert coverage >= 0.94  # nominal 0.95; binomial SE over 2000 simulations is 0.005


def test_tolerance_refuses_a_spread_too_small_to_bound_and_the_command_line_says_so(capsys):
    small = ErrorSpread(2, tuple(range(50)), np.linspace(0, 1, 50), 0.5, 0.95, np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="59"):
        tolerance_from_spread(small)
    assert main(["--spec", "v3", "--trials", "50"]) == 2
    assert "at least 59" in capsys.readouterr().err


def test_derivation_designs_include_offsets():
    long = derivation_designs(10.0)
    assert any(params.get("eq_day") for _, params in long) and any(not params.get("eq_day") for _, params in long)
    assert derivation_designs(2.0) and derivation_designs(7.0)[0][0] == "offset-free"


def test_the_tolerance_is_the_rounded_bound_raised_to_spec_v1s_floor():
    """100 errors 0.00 ... 0.99: the bound is the 99th smallest (0.98), rounded up to 1.0, raised to 1.5."""
    from evallib.gnss.tolerances import rounded_upper_bound
    errors = np.arange(100) / 100
    spread = ErrorSpread(10, tuple(range(100)), errors, 0.5, 0.95, np.zeros(0), np.zeros(0))
    assert rounded_upper_bound(spread) == 1.0
    assert tolerance_from_spread(spread, floor=1.5) == 1.5 and tolerance_from_spread(spread, floor=0.5) == 1.0

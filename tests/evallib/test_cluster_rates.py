"""The cluster interval: coverage under correlated runs (simulated), scipy/statsmodels oracles, degenerate cases."""

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats

from evallib.cluster_rates import ClusteredRate, cluster_interval_arrays, clustered_rate_reading
from evallib.stats import clopper_pearson_interval

NOMINAL, CLAIMED = 0.95, 0.93
#: Replications per cell: the one-sided 99 % lower bound of an observed coverage of 0.96 is then
#: about 0.95, so "at least 93 %" is a claim the simulation can make (and "below 93 %" for the old one).
REPLICATIONS = 3000
ICCS = (0.0, 0.3, 0.7, 1.0)
RUNS = tuple(range(1, 11))


def correlated_runs(rng, items: int, runs, p: float, icc: float):
    """Beta-binomial runs, arrays (REPLICATIONS, items): each item's probability has mean p and intra-class
    correlation icc; ``runs`` per item, a number or an array (REPLICATIONS, items)."""
    shape = (REPLICATIONS, items)
    if icc == 0:
        q = np.full(shape, p)
    elif icc == 1:
        q = (rng.random(shape) < p).astype(float)
    else:
        q = rng.beta(p * (1 - icc) / icc, (1 - p) * (1 - icc) / icc, shape)
    return rng.binomial(runs, q), np.broadcast_to(runs, shape)


def coverage_bounds(covered: np.ndarray) -> tuple[float, float]:
    """One-sided 99 % Clopper-Pearson bounds (lower, upper) of a coverage from its replications."""
    return clopper_pearson_interval(int(covered.sum()), covered.size, confidence=0.98)


def old_per_decision(k: np.ndarray, n: np.ndarray):
    """The page's former headline: Clopper-Pearson over all runs as independent trials."""
    total, hits = n.sum(-1), k.sum(-1)
    low = np.where(hits > 0, stats.beta.ppf(0.025, hits, total - hits + 1), 0.0)
    high = np.where(hits < total, stats.beta.ppf(0.975, hits + 1, total - hits), 1.0)
    return low, high


@pytest.mark.parametrize("items, p", [(38, 0.9), (38, 0.97), (12, 0.9), (12, 0.7)])
def test_the_cluster_interval_covers_at_least_93_percent_under_correlated_runs(items, p):
    rng = np.random.default_rng(items * 100 + int(100 * p))
    for icc in ICCS:
        for runs in RUNS:
            _, low, high, _ = cluster_interval_arrays(*correlated_runs(rng, items, runs, p, icc))
            lower, _ = coverage_bounds((low <= p) & (p <= high))
            assert lower >= CLAIMED, (items, p, icc, runs, lower)


@pytest.mark.parametrize("icc", ICCS)
def test_the_cluster_interval_covers_when_items_have_unequal_numbers_of_runs(icc):
    # Errored runs are left out, so items end up with 1 to 10 scored runs each.
    rng = np.random.default_rng(int(icc * 10))
    runs = rng.integers(1, 11, (REPLICATIONS, 38))
    _, low, high, _ = cluster_interval_arrays(*correlated_runs(rng, 38, runs, 0.9, icc))
    lower, _ = coverage_bounds((low <= 0.9) & (0.9 <= high))
    assert lower >= CLAIMED, (icc, lower)


@pytest.mark.parametrize("icc, runs", [(0.3, 5), (0.3, 10), (0.7, 3), (0.7, 5), (0.7, 10), (1.0, 5)])
def test_clopper_pearson_per_decision_under_covers_repeated_correlated_runs(icc, runs):
    # The interval the page headlined before: with correlated runs it covers well under 93 %.
    rng = np.random.default_rng(int(icc * 10) + runs)
    k, n = correlated_runs(rng, 38, runs, 0.9, icc)
    low, high = old_per_decision(k, n)
    _, upper = coverage_bounds((low <= 0.9) & (0.9 <= high))
    assert upper < CLAIMED
    _, new_low, new_high, _ = cluster_interval_arrays(k, n)
    assert np.mean((new_low <= 0.9) & (0.9 <= new_high)) >= CLAIMED


def test_with_independent_runs_the_cluster_interval_stays_close_to_the_per_decision_one():
    # ICC 0: the runs are independent; the cluster interval may widen a little, not by a factor.
    rng = np.random.default_rng(0)
    k, n = correlated_runs(rng, 38, 5, 0.9, 0.0)
    _, low, high, _ = cluster_interval_arrays(k, n)
    old_low, old_high = old_per_decision(k, n)
    assert np.median((high - low) / (old_high - old_low)) < 1.3


@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 12), (5, 12), (12, 12), (21, 38), (37, 38), (1, 200)])
def test_one_run_per_item_is_exactly_clopper_pearson_as_in_scipy(k, n):
    successes = np.array([1] * k + [0] * (n - k))
    rate, low, high, effective = cluster_interval_arrays(successes, np.ones(n, dtype=int))
    exact = stats.binomtest(k, n).proportion_ci(confidence_level=NOMINAL, method="exact")
    assert (low, high) == (pytest.approx(exact.low, abs=1e-12), pytest.approx(exact.high, abs=1e-12))
    assert rate == k / n and effective == n


def test_the_variance_is_statsmodels_cluster_robust_variance_of_the_mean():
    # Items alternate 3/4 and 1/4: the residuals all have one size, so df = m - 1 and n* follows the formula.
    items, runs = 10, 4
    k = np.array([3, 1] * (items // 2))
    y = np.concatenate([[1] * s + [0] * (runs - s) for s in k])
    groups = np.repeat(np.arange(items), runs)
    fit = sm.OLS(y, np.ones(len(y))).fit(cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False})
    variance = float(fit.bse[0] ** 2) * items / (items - 1)  # with the m / (m - 1) factor of the module
    total, r = len(y), y.mean()
    design_effect = variance / (r * (1 - r) / (total - 1))
    t_ratio = stats.t.ppf(0.975, total - 1) / stats.t.ppf(0.975, items - 1)
    expected_n = total / max(design_effect, 1) * t_ratio**2
    rate = ClusteredRate.of(zip(k, [runs] * items))
    assert rate.value == pytest.approx(r) and rate.effective_n == pytest.approx(expected_n)
    x = r * expected_n
    assert rate.low == pytest.approx(stats.beta.ppf(0.025, x, expected_n - x + 1))
    assert rate.high == pytest.approx(stats.beta.ppf(0.975, x + 1, expected_n - x))


def test_all_right_counts_each_item_once():
    rate = ClusteredRate.of([(5, 5)] * 12)
    assert (rate.value, rate.effective_n, rate.high) == (1.0, 12, 1.0)
    assert rate.low == pytest.approx(0.025 ** (1 / 12))  # Clopper-Pearson on 12 of 12
    assert rate.decision_low == pytest.approx(0.025 ** (1 / 60))  # narrower, as if 60 trials


def test_all_wrong_counts_each_item_once():
    rate = ClusteredRate.of([(0, 3)] * 38)
    assert (rate.value, rate.low, rate.effective_n) == (0.0, 0.0, 38)
    assert rate.high == pytest.approx(1 - 0.025 ** (1 / 38))


def test_one_item_is_one_unit_whatever_its_runs():
    rate = ClusteredRate.of([(7, 10)])
    assert rate.items == 1 and rate.effective_n == 1
    assert rate.high - rate.low > 0.9
    assert ClusteredRate.of([(1, 1)]).low == pytest.approx(0.025)


def test_items_with_the_same_rate_exactly_behave_as_independent_trials():
    # Zero variance between items: no sign of clustering, the interval is the per-decision one.
    rate = ClusteredRate.of([(3, 5)] * 10)
    assert rate.effective_n == 50
    assert (rate.low, rate.high) == (pytest.approx(rate.decision_low), pytest.approx(rate.decision_high))


def test_items_without_a_scored_run_are_left_out_and_nothing_scored_is_undefined():
    assert ClusteredRate.of([(2, 4), (0, 0), (4, 4)]) == ClusteredRate.of([(2, 4), (4, 4)])
    empty = ClusteredRate.of([(0, 0)])
    assert not empty.defined and empty.value is None and empty.to_dict()["ci95"] is None
    rate, low, high, effective = cluster_interval_arrays(np.zeros(3), np.zeros(3))
    assert np.isnan([rate, low, high, effective]).all()


def test_the_effective_size_stays_between_the_number_of_items_and_of_runs():
    rng = np.random.default_rng(5)
    k, n = correlated_runs(rng, 12, 6, 0.8, 0.5)
    _, low, high, effective = cluster_interval_arrays(k, n)
    assert np.all((effective >= 12 - 1e-9) & (effective <= 72 + 1e-9))
    assert np.all((0 <= low) & (low <= k.sum(-1) / 72) & (k.sum(-1) / 72 <= high) & (high <= 1))


@pytest.mark.parametrize("successes, trials, message", [
    ([1, 2], [2], "one shape"), ([3], [2], "successes <= trials"), ([-1], [2], "successes <= trials")])
def test_bad_counts_raise_a_clear_error(successes, trials, message):
    with pytest.raises(ValueError, match=message):
        cluster_interval_arrays(np.array(successes), np.array(trials))
    with pytest.raises(ValueError, match="confidence"):
        cluster_interval_arrays(np.array([1]), np.array([2]), confidence=1.5)


@pytest.mark.parametrize("per_item, code", [
    ([], "clustered_undefined"),
    ([(3, 5)], "clustered_one_item"),
    ([(1, 1)], "clustered_one_item"),
    ([(1, 1), (0, 1), (1, 1)], "clustered_one_run_each"),
    ([(4, 4), (4, 4)], "clustered_unanimous"),
    ([(0, 2), (0, 2)], "clustered_unanimous"),
    ([(5, 5)] * 10 + [(0, 5)] * 2, "clustered_correlated"),
    ([(3, 5)] * 10, "clustered_as_independent"),
])
def test_each_reading_of_the_interval(per_item, code):
    reading = clustered_rate_reading(ClusteredRate.of(per_item))
    assert reading.code == code
    if code != "clustered_undefined":
        values = reading.values
        assert values["low_share"] <= values["rate_share"] <= values["high_share"]
        assert values["effective"] <= values["n"] and values["items"] == len([p for p in per_item if p[1]])


def test_the_correlated_reading_gives_fewer_effective_runs_than_runs():
    values = clustered_rate_reading(ClusteredRate.of([(5, 5)] * 10 + [(0, 5)] * 2)).values
    assert values["effective"] < values["n"] == 60
    assert values["high_share"] - values["low_share"] > values["decision_high_share"] - values["decision_low_share"]

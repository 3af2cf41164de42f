"""AKM's inference on winners (evallib.room.selection) against independent computations: scipy's truncated
normal, the closed-form maximum of independent normals, and simulated rooms with the truth known."""

import numpy as np
import pytest
from scipy import optimize, stats

from statsmodels.stats.proportion import proportion_confint

from evallib.room.selection import projection_floor, projection_quantile, selected_inference, truncated_cdf, truncation


def constant(sd):
    sd = np.asarray(sd, float)
    return lambda mu: np.tile(sd, (len(mu), 1))


@pytest.mark.parametrize("y, mu, lo, hi", [(0.3, 0.0, -1.0, 2.0), (5.2, 0.0, 5.0, np.inf), (-7.9, 0.0, -np.inf, -7.5),
                                           (1.0, 3.0, 0.5, 1.5), (9.1, 0.0, 9.0, 9.5)])
def test_the_truncated_cdf_is_scipys_even_deep_in_a_tail(y, mu, lo, hi):
    expected = stats.truncnorm.cdf(y, lo - mu, hi - mu, loc=mu, scale=1.0)
    found = truncated_cdf(y, np.array([mu]), np.array([1.0]), np.array([lo]), np.array([hi]))[0]
    assert found == pytest.approx(expected, rel=1e-6)


def test_the_conditional_median_of_the_winner_of_two_is_the_truncated_normal_median():
    # two independent scores, the first won: given X2, X1 ~ N(mu, s1^2) truncated to [X2, inf)
    x, s = np.array([0.74, 0.70]), np.array([0.05, 0.08])
    chosen = selected_inference(x, 0, [1], [], np.eye(2), constant(s), alpha=0.05, beta=0.0, c_beta=np.inf,
                                bracket=(x[0] - 2.0, x[0] + 1.0))
    oracle = optimize.brentq(lambda mu: stats.truncnorm.cdf(x[0], (x[1] - mu) / s[0], np.inf, loc=mu, scale=s[0]) - 0.5,
                             -2, 2)
    low = optimize.brentq(lambda mu: stats.truncnorm.cdf(x[0], (x[1] - mu) / s[0], np.inf, loc=mu, scale=s[0]) - 0.975,
                          -2, 2)
    assert chosen.estimate == pytest.approx(oracle, abs=1e-5) and chosen.low == pytest.approx(low, abs=1e-5)
    assert chosen.lower == pytest.approx(x[1]) and chosen.upper == np.inf and chosen.estimate < x[0]


def test_correlated_scores_truncate_along_the_winner():
    # correlation rho: X2 = Z + a X1 with a = rho s2 / s1, and X1 >= X2  <=>  X1 >= Z / (1 - a)
    x, s, rho = np.array([0.9, 0.85]), np.array([0.04, 0.05]), 0.6
    a = rho * s[1] / s[0]
    lower, upper = truncation(x, np.array([[1.0, a]]), 0, [1], [])
    assert lower[0] == pytest.approx((x[1] - a * x[0]) / (1 - a)) and upper[0] == np.inf
    lower, upper = truncation(x[::-1], np.array([[a, 1.0]]), 1, [], [0])  # the loser: bounded above
    assert upper[0] == pytest.approx((x[1] - a * x[0]) / (1 - a)) and lower[0] == -np.inf


def test_the_projection_quantile_of_independent_scores_is_sidaks():
    k, beta = 5, 0.05
    exact = stats.norm.ppf((1 + (1 - beta) ** (1 / k)) / 2)
    found = projection_quantile(np.eye(k), beta, np.random.default_rng(1), draws=200_000)
    assert found == pytest.approx(exact, abs=0.02)
    with pytest.raises(ValueError, match="beta"):
        projection_quantile(np.eye(2), 0.0, np.random.default_rng(1))


def test_simulated_winners_are_estimated_without_median_bias_and_covered():
    # three correlated normal scores, truth known: the hybrid estimate of the winner's mean falls above
    # the truth about half the time, and its 95 % interval covers it at least 95 % of the time
    rng = np.random.default_rng(7)
    mu, s = np.array([0.0, 0.05, 0.1]), np.array([0.1, 0.1, 0.12])
    corr = np.array([[1, 0.3, 0.1], [0.3, 1, 0.2], [0.1, 0.2, 1]])
    cov = corr * np.outer(s, s)
    c_beta = projection_quantile(corr, 0.005, np.random.default_rng(0))
    above, covered, n = 0, 0, 600
    for x in rng.multivariate_normal(mu, cov, n):
        k = int(np.argmax(x))
        chosen = selected_inference(x, k, [j for j in range(3) if j != k], [], corr, constant(s), alpha=0.05,
                                    beta=0.005, c_beta=c_beta, bracket=(x[k] - c_beta * s[k], x[k] + c_beta * s[k]))
        above += chosen.estimate > mu[k]
        covered += chosen.low <= mu[k] <= chosen.high
        assert chosen.low <= chosen.estimate <= chosen.high
    error = np.sqrt(0.25 / n)
    assert abs(above / n - 0.5) < 3 * error + 0.0025 and covered / n >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / n)


def test_bad_levels_are_refused():
    with pytest.raises(ValueError, match="alpha"):
        selected_inference(np.zeros(2), 0, [1], [], np.eye(2), constant([1, 1]), alpha=0.05, beta=0.05, c_beta=2.0,
                           bracket=(-1, 1))


def test_projection_floors_hold_every_mean_at_once_whatever_is_chosen():
    """The one-sided projection bound: P(mu_j >= x_j - c sd_j for every j) >= 1 - alpha, so the chosen
    attempt's floor holds whichever was chosen (simulated: the winner's floor and all floors together)."""
    rng = np.random.default_rng(3)
    mu, s = np.array([0.0, 0.05, 0.1, 0.1]), np.array([0.1, 0.1, 0.12, 0.08])
    corr = np.array([[1, 0.3, 0.1, 0], [0.3, 1, 0.2, 0], [0.1, 0.2, 1, 0.4], [0, 0, 0.4, 1]])
    c = projection_quantile(corr, 0.05, np.random.default_rng(0), one_sided=True)
    assert stats.norm.ppf(0.95) < c < stats.norm.ppf(1 - 0.05 / 4)  # above one test's, below Bonferroni's
    n, every, winner = 2000, 0, 0
    for x in rng.multivariate_normal(mu, corr * np.outer(s, s), n):
        floors = np.array([projection_floor(x[j], c, sd=s[j]) for j in range(4)])
        every += np.all(floors <= mu)
        winner += floors[np.argmax(x)] <= mu[np.argmax(x)]
    assert abs(every / n - 0.95) < 3 * np.sqrt(0.05 * 0.95 / n)
    assert winner / n >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / n)


@pytest.mark.parametrize("successes, n, c", [(30, 30, 2.9), (27, 30, 1.645), (0, 12, 2.0), (81, 100, 3.1)])
def test_a_bounded_score_s_projection_floor_is_wilson_s_bound_at_the_projection_quantile(successes, n, c):
    low, _ = proportion_confint(successes, n, alpha=2 * stats.norm.sf(c), method="wilson")
    assert projection_floor(successes / n, c, n=n) == pytest.approx(low, abs=1e-9)
    higher = projection_floor(successes / n, c, n=n, dispersion=0.5)  # less variance, a higher floor
    assert higher > low if successes else higher == low == 0.0

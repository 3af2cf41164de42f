"""Prompt vs answer distances: ranks, the Mantel test over assistant labels, against scipy."""

import itertools

import numpy as np
import pytest
from scipy import stats as scipy_stats

from evallib.persona import PersonaDataError, mantel_test, pairwise, rank_comparison, ranks
from evallib.persona.permutation import MAX_EXACT_MANTEL_ASSISTANTS, probe_bootstrap_interval


def symmetric(values_by_pair, classes):
    """(k, k) matrix from {(a, b): value} (0 on the diagonal)."""
    index = {c: i for i, c in enumerate(classes)}
    matrix = np.zeros((len(classes), len(classes)))
    for (a, b), value in values_by_pair.items():
        matrix[index[a], index[b]] = matrix[index[b], index[a]] = value
    return matrix


def random_distances(k, rng):
    upper = np.triu(rng.random((k, k)), 1)
    return upper + upper.T


def brute_force_mantel(d_x, d_y):
    """Spearman rho and two-sided p over every relabelling, with scipy.stats.spearmanr."""
    k = len(d_x)
    i, j = np.triu_indices(k, 1)
    rho = scipy_stats.spearmanr(d_x[i, j], d_y[i, j]).statistic
    rhos = [scipy_stats.spearmanr(d_x[i, j], d_y[np.ix_(p, p)][i, j]).statistic
            for p in map(list, itertools.permutations(range(k)))]
    return rho, np.mean(np.abs(rhos) >= abs(rho) - 1e-12)


def test_ranks_equal_scipy_rankdata():
    rng = np.random.default_rng(1)
    values = rng.integers(0, 5, size=30).astype(float) / 7
    np.testing.assert_array_equal(ranks(values), scipy_stats.rankdata(values))
    np.testing.assert_array_equal(ranks(values, method="min"), scipy_stats.rankdata(values, method="min"))
    # Values that differ by rounding alone share a rank.
    assert ranks([0.1 + 0.2, 0.3]).tolist() == [1.5, 1.5]


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_exact_mantel_equals_brute_force_over_all_relabellings(k):
    rng = np.random.default_rng(k)
    for _ in range(3):
        d_x, d_y = random_distances(k, rng), random_distances(k, rng)
        result = mantel_test(d_x, d_y)
        rho, p = brute_force_mantel(d_x, d_y)
        assert result.exact and result.n_permutations == np.prod(range(1, k + 1))
        assert result.rho == pytest.approx(rho)
        assert result.p_value == pytest.approx(p)


def test_mantel_p_differs_from_spearmanr_p_which_treats_pairs_as_independent():
    rng = np.random.default_rng(3)
    d_x, d_y = random_distances(6, rng), random_distances(6, rng)
    i, j = np.triu_indices(6, 1)
    naive = scipy_stats.spearmanr(d_x[i, j], d_y[i, j]).pvalue
    result = mantel_test(d_x, d_y)
    assert result.n_permutations == 720
    assert abs(result.p_value - naive) > 0.01
    # The identity relabelling is among the 720: p is at least 1/720 even for identical matrices.
    assert mantel_test(d_x, d_x).p_value >= 1 / 720 and mantel_test(d_x, d_x).rho == pytest.approx(1)


def test_sampled_mantel_above_the_exact_limit_is_seeded_and_close_to_exact():
    k = MAX_EXACT_MANTEL_ASSISTANTS + 1
    rng = np.random.default_rng(4)
    d_x = random_distances(k, rng)
    d_y = d_x + 0.3 * random_distances(k, rng)
    result = mantel_test(d_x, d_y, n_permutations=2000, seed=5)
    assert not result.exact and result.n_permutations == 2000
    assert result == mantel_test(d_x, d_y, n_permutations=2000, seed=5)
    assert result.p_value == pytest.approx(1 / 2001)  # strongly associated: no relabelling does as well


def test_mantel_undefined_cases_and_bad_shapes():
    constant = np.ones((4, 4)) - np.eye(4)
    result = mantel_test(constant, random_distances(4, np.random.default_rng(0)))
    assert np.isnan(result.rho) and np.isnan(result.p_value)
    two = mantel_test(np.array([[0, 1.0], [1.0, 0]]), np.array([[0, 2.0], [2.0, 0]]))
    assert np.isnan(two.rho)
    with pytest.raises(PersonaDataError, match="square"):
        mantel_test(np.zeros((3, 3)), np.zeros((4, 4)))


# The 15 pair distances printed (rounded) by the course material's persona notebook (docs/persona.md#figures).
SEED_CLASSES = ["structure", "style", "documentation", "pratique", "expression", "relecture"]
SEED_TABLE = [
    ("structure", "expression", 0.90, 0.82), ("pratique", "expression", 0.89, 0.78),
    ("structure", "relecture", 0.89, 0.79), ("documentation", "relecture", 0.88, 0.78),
    ("pratique", "relecture", 0.88, 0.74), ("documentation", "expression", 0.87, 0.81),
    ("style", "relecture", 0.85, 0.71), ("style", "expression", 0.84, 0.54),
    ("structure", "documentation", 0.84, 0.80), ("structure", "style", 0.83, 0.84),
    ("style", "documentation", 0.82, 0.81), ("documentation", "pratique", 0.82, 0.80),
    ("style", "pratique", 0.82, 0.78), ("expression", "relecture", 0.81, 0.71),
    ("structure", "pratique", 0.80, 0.77),
]


def test_rank_comparison_on_the_seed_table():
    # The notebook guessed "rho < 0.3" without computing it; on these rounded values rho is 0.17.
    # spearmanr's p (0.55) treats the 15 pairs as independent; the exact Mantel p is computed over
    # the 720 relabellings of the six assistants.
    d_prompts = symmetric({(a, b): dp for a, b, dp, _ in SEED_TABLE}, SEED_CLASSES)
    d_responses = symmetric({(a, b): dr for a, b, _, dr in SEED_TABLE}, SEED_CLASSES)
    result = rank_comparison(d_prompts, d_responses, SEED_CLASSES)
    assert result.spearman_rho == pytest.approx(0.1673, abs=1e-4)
    rho, p = brute_force_mantel(d_prompts, d_responses)
    assert result.mantel.p_value == pytest.approx(p) and result.mantel.exact
    table = result.table.set_index(["a", "b"])
    assert tuple(table.loc[("style", "expression"), ["rank_prompts", "rank_responses"]]) == (8, 15)
    assert table.loc[("structure", "style"), "rank_responses"] == 1


def test_rank_comparison_ties_share_the_best_rank():
    classes = ["a", "b", "c"]
    d_prompts = symmetric({("a", "b"): 0.9, ("a", "c"): 0.9, ("b", "c"): 0.5}, classes)
    d_responses = symmetric({("a", "b"): 0.1, ("a", "c"): 0.2, ("b", "c"): 0.3}, classes)
    result = rank_comparison(d_prompts, d_responses, classes)
    assert result.table["rank_prompts"].tolist() == [1, 1, 3]
    assert result.table["rank_responses"].tolist() == [3, 2, 1]
    assert result.n_changed == 3
    constant = rank_comparison(symmetric({("a", "b"): .5, ("a", "c"): .5, ("b", "c"): .5}, classes),
                               d_responses, classes)
    assert np.isnan(constant.spearman_rho) and np.isnan(constant.mantel.p_value)


def test_rank_comparison_rejects_bad_shapes():
    with pytest.raises(PersonaDataError, match="3 assistants"):
        rank_comparison(np.zeros((2, 2)), np.zeros((3, 3)), ["a", "b", "c"])
    with pytest.raises(PersonaDataError, match="no pair"):
        rank_comparison(np.zeros((1, 1)), np.zeros((1, 1)), ["a"])


def test_pairwise_upper_triangle():
    pairs, values = pairwise(np.arange(9).reshape(3, 3), "abc")
    assert pairs == [("a", "b"), ("a", "c"), ("b", "c")] and values.tolist() == [1, 2, 5]


def test_probe_bootstrap_resamples_probes_not_answers():
    # Two probes: every answer to probe 0 right, every answer to probe 1 wrong. Answers are not
    # independent within a probe, so the interval spans nearly [0, 1] (a resample may draw probe 0
    # twice or probe 1 twice), where a binomial interval on 12 answers would be far narrower.
    correct = np.array([True] * 6 + [False] * 6)
    probes = np.array([0] * 6 + [1] * 6)
    low, high = probe_bootstrap_interval(correct, probes, confidence=0.95, seed=1)
    assert (low, high) == (0.0, 1.0)
    # One probe: nothing to resample, zero width.
    assert probe_bootstrap_interval(correct[:6], probes[:6], confidence=0.95) == (1.0, 1.0)
    # Reproducible and ordered.
    rng = np.random.default_rng(2)
    correct, probes = rng.random(60) < 0.6, np.repeat(np.arange(10), 6)
    a = probe_bootstrap_interval(correct, probes, confidence=0.9, seed=3)
    assert a == probe_bootstrap_interval(correct, probes, confidence=0.9, seed=3) and a[0] <= correct.mean() <= a[1]
    with pytest.raises(PersonaDataError, match="no answer"):
        probe_bootstrap_interval(np.array([]), np.array([]), confidence=0.95)

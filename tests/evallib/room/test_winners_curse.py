import numpy as np
import pytest
from scipy import stats

from evallib.room.winners_curse import (attempt_means, data_seed, detectable_drop, held_out_check, luck_reading,
                                        score_covariance, split_ties, winners_curse)


def full(values):
    values = np.asarray(values, float)
    return np.ones(values.shape, bool), values


def test_attempt_means_skip_unscored_cells_and_give_nan_without_any():
    scored = np.array([[True, True, False], [False, False, False]])
    values = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    means = attempt_means(scored, values)
    assert means[0] == 0.5 and np.isnan(means[1])


def test_the_seed_depends_on_the_data_only():
    a = np.eye(3)
    assert data_seed(a) == data_seed(a.copy()) != data_seed(a.T[::-1])


def test_detectable_drop_is_the_one_sided_z_formula():
    expected = (stats.norm.ppf(0.95) + stats.norm.ppf(0.8)) * 0.4 / np.sqrt(8)
    assert detectable_drop(0.4, 8) == pytest.approx(expected)
    assert detectable_drop(0.4, 32) == pytest.approx(expected / 2)
    with pytest.raises(ValueError, match="at least one item"):
        detectable_drop(0.4, 0)


@pytest.mark.parametrize("visible, held, n, inflation, code", [
    (0.9, None, 0, 0.1, "curse_heldout_none"),       # zero held-out items
    (0.9, 0.5, 8, 0.1, "curse_heldout_lower"),       # a drop of 0.4 on 8 items: seen
    (0.9, 0.85, 8, 0.1, "curse_heldout_too_small"),  # 8 items detect about 0.35 only
    (0.9, 0.9, 400, 0.1, "curse_consistent"),        # 400 items detect 0.05 < 0.1, and no drop
    (0.9, 0.9, 400, 0.0, "curse_no_gap"),            # nothing to check
    (0.9, 0.95, 8, 0.0, "curse_no_gap"),
])
def test_held_out_checks(visible, held, n, inflation, code):
    reading = held_out_check(visible=visible, held_out=held, held_out_n=n, sigma=0.4, inflation=inflation)
    assert reading.code == code
    if n:
        assert reading.values["detectable"] == pytest.approx(detectable_drop(0.4, n))
        assert reading.values["drop"] == pytest.approx(visible - held)


def test_consistent_is_never_read_when_the_held_out_items_could_not_show_the_gap():
    for n in range(1, 60):
        reading = held_out_check(visible=0.93, held_out=0.93, held_out_n=n, sigma=0.4, inflation=0.13)
        assert (reading.code == "curse_consistent") == (detectable_drop(0.4, n) <= 0.13)


def test_a_loss_drops_upward():
    lower = held_out_check(visible=1.0, held_out=5.0, held_out_n=9, sigma=2.0, inflation=0.5, lower_is_better=True)
    assert lower.code == "curse_heldout_lower" and lower.values["drop"] == 4.0
    better = held_out_check(visible=5.0, held_out=1.0, held_out_n=9, sigma=2.0, inflation=0.5, lower_is_better=True)
    assert better.code == "curse_heldout_too_small" and better.values["drop"] == -4.0




def test_the_covariance_is_the_paired_bootstrap_over_items():
    rng = np.random.default_rng(4)
    values = (rng.random((4, 25)) < np.array([[0.5], [0.6], [0.7], [0.8]])).astype(float)
    values[1] = np.where(rng.random(25) < 0.7, values[0], values[1])  # correlated with attempt 0
    scored = np.ones(values.shape, bool)
    scored[3, :5] = False  # a few missing cells: the first-order (delta method) form
    means, covariance = score_covariance(scored, values)
    draws = rng.integers(0, 25, (40_000, 25))
    boot = np.array([[values[i, d][scored[i, d]].mean() for i in range(4)] for d in draws[:4000]])
    assert np.allclose(means, attempt_means(scored, values))
    assert np.allclose(np.cov(boot.T, ddof=0), covariance, atol=6e-4, rtol=0.12)
    # complete data: the bootstrap covariance of a mean is exactly the plug-in covariance over n
    full_means, full = score_covariance(np.ones((4, 25), bool), values)
    assert np.allclose(full, np.cov(values, ddof=0) / 25)


def test_ties_are_split_in_the_board_order_and_nothing_else_moves():
    scores = np.array([0.8, 0.9, 0.9, 0.7, 0.9])
    place = [4, 1, 2, 0, 3]  # the board put #4 first among the three tied at 0.9
    for seed in range(20):
        jittered = split_ties(scores, place, 0.05 / 2, np.random.default_rng(seed))
        assert list(np.argsort(-jittered, kind="stable")) == place
        assert np.all(np.abs(jittered - scores) <= 0.025)


@pytest.mark.parametrize("code, bound, others, lower", [
    ("curse_beyond_luck", 0.85, 0.80, False),
    ("curse_likely_inflated", 0.79, 0.80, False),
    ("curse_likely_inflated", 0.80, 0.80, False),   # a floor on the others' mean: not above it
    ("curse_beyond_luck", 2.0, 3.0, True),           # a loss: its ceiling below the others' mean
    ("curse_likely_inflated", 3.5, 3.0, True),
])
def test_luck_readings_compare_the_floor_with_the_others(code, bound, others, lower):
    reading = luck_reading(attempts=30, spread=True, varies=True, visible=0.9, estimate=0.86, low=0.7, high=0.95,
                           bound=bound, others=others, inflation=0.04, rank=1, number=4, lower_is_better=lower)
    assert reading.code == code and reading.values["attempt"] == 4 and reading.values["others"] == others


def test_degenerate_luck_readings():
    common = dict(visible=0.9, estimate=None, low=None, high=None, bound=None, others=None, inflation=0.0, rank=1,
                  number=2)
    assert luck_reading(attempts=1, spread=True, varies=True, **common).code == "curse_single"
    assert luck_reading(attempts=5, spread=False, varies=True, **common).code == "curse_no_spread"
    assert luck_reading(attempts=5, spread=True, varies=False, **common).code == "curse_no_variance"


def curse(values, scored=None, lower=False, top_k=1, held=None):
    values = np.asarray(values, float)
    scored = np.ones(values.shape, bool) if scored is None else scored
    k = len(values)
    means = attempt_means(scored & np.isfinite(values), np.nan_to_num(values))
    order = list(np.lexsort((np.arange(k), means if lower else -means)))
    held = held if held is not None else (np.zeros((k, 0), bool), np.zeros((k, 0)))
    return winners_curse(scored, values, *held, order, list(range(1, k + 1)), lower_is_better=lower, top_k=top_k)


def test_the_best_of_equal_attempts_owes_its_lead_to_luck_and_one_far_ahead_does_not():
    rng = np.random.default_rng(11)
    equal = rng.random((30, 30)) < 0.8
    best = curse(equal)[0]
    assert best.luck.code == "curse_likely_inflated" and best.reading.code == "curse_heldout_none"
    assert 0.03 < best.inflation < 0.25 and best.low < best.estimate < best.visible < best.high + 0.1
    assert best.luck.values["others"] == pytest.approx(np.delete(equal.mean(1), best.index).mean())
    ahead = np.vstack([rng.random((1, 100)) < 0.98, rng.random((29, 100)) < 0.6])
    first = curse(ahead)[0]
    assert first.index == 0 and first.luck.code == "curse_beyond_luck" and 0 <= first.inflation < 0.01
    assert curse(equal) == curse(equal.copy())  # the same room gives the same figures at every refresh


def test_degenerate_rooms_each_get_a_reading():
    (only,) = curse([[1, 0, 1]])
    assert only.luck.code == "curse_single" and only.reading.code == "curse_heldout_none" and only.inflation == 0
    assert only.estimate is None
    flat = curse(np.ones((3, 4)), top_k=2, held=full(np.ones((3, 2))))
    assert [c.luck.code for c in flat] == ["curse_no_spread"] * 2
    assert [c.reading.code for c in flat] == ["curse_no_gap"] * 2
    assert curse(np.zeros((2, 3)), scored=np.zeros((2, 3), bool)) == ()


def test_a_tie_for_first_is_read_like_any_lead():
    rng = np.random.default_rng(2)
    values = (rng.random((10, 30)) < 0.6).astype(float)
    values[0], values[3] = np.arange(30) < 26, np.arange(30) >= 4  # tied for first (26/30), on other items
    first, second = curse(values, top_k=2)
    assert (first.index, second.index) == (0, 3) and first.visible == second.visible
    assert first.estimate < first.visible and first.low < first.estimate < first.high
    # the floor holds whatever the place: the tied pair shares it, and so its reading
    assert first.bound == second.bound and first.luck.code == second.luck.code


def test_nan_cells_count_as_unscored():
    rng = np.random.default_rng(5)
    values = (rng.random((6, 20)) < 0.7).astype(float)
    holes = rng.random((6, 20)) < 0.1
    with_nan = np.where(holes, np.nan, values)
    a = curse(with_nan, top_k=2)
    b = curse(np.where(holes, 0.0, values), scored=~holes, top_k=2)
    assert [(c.index, c.estimate, c.luck.code) for c in a] == [(c.index, c.estimate, c.luck.code) for c in b]
    assert a[0].visible == pytest.approx(np.nanmean(with_nan[a[0].index]))


def test_a_perfect_score_on_binary_items_still_gets_an_estimate():
    rng = np.random.default_rng(8)
    values = (rng.random((10, 30)) < 0.75).astype(float)
    values[0] = 1.0  # 30/30: no spread of its own
    best = curse(values)[0]
    assert best.index == 0 and best.luck.code in ("curse_beyond_luck", "curse_likely_inflated")
    assert best.estimate < 1.0 and best.low < best.estimate <= best.high <= 1.0


def test_fractional_outcomes_are_bounded_scores():
    rng = np.random.default_rng(9)
    runs = rng.binomial(3, 0.8, (20, 40)) / 3  # each query's share of 3 runs right
    best = curse(runs)[0]
    assert best.luck.code == "curse_likely_inflated" and 0 < best.inflation < 0.2 and 0 <= best.low < best.high <= 1


def test_a_loss_mirrors_a_score_and_a_constant_loss_has_no_variance():
    rng = np.random.default_rng(10)
    loss = rng.integers(0, 4, (8, 25)).astype(float) ** 2
    as_loss = curse(loss, lower=True, top_k=2)
    as_score = curse(-loss, top_k=2)
    for a, b in zip(as_loss, as_score):
        assert a.index == b.index and a.estimate == pytest.approx(-b.estimate)
        assert a.inflation == pytest.approx(b.inflation)
        assert (a.low, a.high) == pytest.approx((-b.high, -b.low)) and a.luck.code == b.luck.code
    assert as_loss[0].estimate > as_loss[0].visible  # luck lowered the best's visible loss
    loss[2] = 0.0  # a judge that matched the humans on every case
    (best,) = curse(loss, lower=True)
    assert best.index == 2 and best.luck.code == "curse_no_variance" and best.estimate is None

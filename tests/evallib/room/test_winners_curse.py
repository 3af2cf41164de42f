import numpy as np
import pytest
from scipy import stats

from evallib.room.winners_curse import (attempt_means, data_seed, detectable_drop, held_out_check, luck_lift,
                                        luck_reading, winners_curse)


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


def test_luck_lift_matches_a_plain_loop_over_the_same_draws():
    rng = np.random.default_rng(3)
    scored = rng.random((5, 7)) < 0.85
    values = (rng.random((5, 7)) < 0.6).astype(float)
    lift, high = luck_lift(scored, values, top=2, draws=300, rng=np.random.default_rng(9))
    # the oracle: the same uniforms, one attempt, item and draw at a time
    u = np.random.default_rng(9).random((300, 5, 7))
    cols = [j for j in range(7) if scored[:, j].any()]
    lifts = []
    for b in range(300):
        means = []
        for i in range(5):
            if not scored[i, cols].any():
                continue
            drawn = []
            for jj, j in enumerate(cols):
                if scored[i, j]:
                    pool = values[scored[:, j], j]
                    drawn.append(pool[min(int(u[b, i, jj] * len(pool)), len(pool) - 1)])
            means.append(np.mean(drawn))
        means = sorted(means, reverse=True)
        lifts.append([means[0] - np.mean(means), means[1] - np.mean(means)])
    assert np.allclose(lift, np.mean(lifts, axis=0)) and np.allclose(high, np.quantile(lifts, 0.95, axis=0))


def test_luck_lift_of_the_best_of_equal_attempts_is_the_expected_maximum():
    # 30 attempts, 30 items all at 0.8: E[max of 30] - mean ~ 2.04 sd of one mean (normal order statistic)
    rng = np.random.default_rng(5)
    scored, values = full(rng.random((30, 30)) < 0.8)
    lift, _ = luck_lift(scored, values, top=1, draws=1000, rng=rng)
    sd = np.sqrt(values.mean() * (1 - values.mean()) / 30)
    assert lift[0] == pytest.approx(2.04 * sd, rel=0.12)


def test_no_spread_and_no_item_give_no_lift():
    scored, values = full(np.ones((4, 5)))
    assert luck_lift(scored, values, top=2, draws=50, rng=np.random.default_rng(1))[0].tolist() == [0.0, 0.0]
    empty = luck_lift(np.zeros((3, 0), bool), np.zeros((3, 0)), top=2, draws=50, rng=np.random.default_rng(1))
    assert empty[0].size == 0


@pytest.mark.parametrize("attempts, spread, lead, code", [
    (1, True, 0.0, "curse_single"),
    (5, False, 0.0, "curse_no_spread"),
    (5, True, 0.10, "curse_likely_inflated"),
    (5, True, 0.12, "curse_likely_inflated"),   # a tie with luck's 95th percentile: still luck
    (5, True, 0.13, "curse_beyond_luck"),
])
def test_luck_readings(attempts, spread, lead, code):
    reading = luck_reading(attempts=attempts, spread=spread, inflation=0.08, luck_high=0.12, lead=lead,
                           visible=0.9, rank=1, number=4)
    assert reading.code == code and reading.values["attempt"] == 4 and reading.values["lead"] == lead


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


def test_winners_curse_on_degenerate_rooms():
    scored, values = full([[1, 0, 1]])
    (only,) = winners_curse(scored, values, np.zeros((1, 0), bool), np.zeros((1, 0)), [0], [7])
    assert only.luck.code == "curse_single" and only.reading.code == "curse_heldout_none" and only.inflation == 0
    scored, values = full(np.ones((3, 4)))
    tied = winners_curse(scored, values, *full(np.ones((3, 2))), [0, 1, 2], [1, 2, 3], top_k=2)
    assert [c.luck.code for c in tied] == ["curse_no_spread"] * 2
    assert [c.reading.code for c in tied] == ["curse_no_gap"] * 2
    unscored = winners_curse(np.zeros((2, 3), bool), np.zeros((2, 3)), np.zeros((2, 0), bool), np.zeros((2, 0)),
                             [0, 1], [1, 2])
    assert unscored == ()


def test_winners_curse_is_stable_between_refreshes_and_flags_the_best_of_equals():
    rng = np.random.default_rng(11)
    scored, values = full(rng.random((30, 30)) < 0.8)
    held = full(rng.random((30, 8)) < 0.8)
    order = list(np.argsort(-values.mean(axis=1), kind="stable"))
    first = winners_curse(scored, values, *held, order, list(range(1, 31)))
    again = winners_curse(scored, values, *held, order, list(range(1, 31)))
    assert first == again
    best = first[0]
    assert best.luck.code == "curse_likely_inflated" and best.reading.code != "curse_consistent"
    assert 0.05 < best.inflation < 0.25 and best.lead == pytest.approx(values[order[0]].mean() - values.mean())

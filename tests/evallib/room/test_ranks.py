import numpy as np
import pytest
from scipy import stats

from evallib.room.ranks import (bootstrap_scores, difference_errors, items_needed, max_t_critical, rank_reading,
                                rank_sets, rank_uncertainty)


def full(values):
    values = np.asarray(values, float)
    return np.ones(values.shape, bool), values


def test_bootstrap_scores_equal_the_means_on_explicitly_resampled_items():
    rng = np.random.default_rng(2)
    scored = rng.random((4, 9)) < 0.8
    values = rng.random((4, 9))
    picks = rng.integers(0, 9, size=(50, 9))
    counts = np.stack([np.bincount(p, minlength=9) for p in picks]).astype(float)
    got = bootstrap_scores(scored, values, counts)
    for b, pick in enumerate(picks):
        for i in range(4):
            kept = [values[i, j] for j in pick if scored[i, j]]
            assert (np.isnan(got[b, i]) and not kept) or got[b, i] == pytest.approx(np.mean(kept))


def test_difference_errors_are_the_paired_standard_errors_on_the_resampled_items():
    rng = np.random.default_rng(3)
    values = (rng.random((4, 20)) < 0.7).astype(float)
    picks = rng.integers(0, 20, size=(30, 20))
    counts = np.stack([np.bincount(p, minlength=20) for p in picks]).astype(float)
    got = difference_errors(np.ones(values.shape, bool), values, np.vstack([np.ones(20), counts]))
    for b, pick in enumerate([np.arange(20)] + list(picks)):
        for j in range(4):
            for k in range(4):
                d = values[j, pick] - values[k, pick]
                assert got[b, j, k] == pytest.approx(d.std() / np.sqrt(20), abs=1e-12)


def test_difference_errors_with_unscored_cells_follow_the_delta_method():
    rng = np.random.default_rng(4)
    values = rng.random((3, 15))
    scored = rng.random((3, 15)) < 0.7
    got = difference_errors(scored, np.where(scored, values, np.nan), np.ones((1, 15)))[0]
    n = 15
    influence = []
    for j in range(3):
        s = scored[j]
        mean, share = values[j, s].mean(), s.mean()
        influence.append(np.where(s, values[j] - mean, 0.0) / share)
    for j in range(3):
        for k in range(3):
            assert got[j, k] == pytest.approx(np.sqrt(np.sum((influence[j] - influence[k]) ** 2)) / n)


def test_difference_errors_are_zero_for_a_difference_that_never_varies():
    values = np.array([[1.0, 0.0, 1.0, 1.0], [0.0, -1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 0.0]])
    se = difference_errors(np.ones(values.shape, bool), values, np.ones((1, 4)))[0]
    assert se[0, 1] == se[0, 2] == se[1, 2] == 0.0 and se[0, 3] > 0 and (np.diag(se) == 0).all()


def test_the_max_t_critical_value_is_a_direct_quantile_of_the_maximum():
    rng = np.random.default_rng(5)
    deviation = rng.standard_normal((400, 4, 4))
    se = rng.random((400, 4, 4)) + 0.5
    se[:, 0, 1] = se[:, 1, 0] = 0.0
    deviation[:7, 0, 1] = 0.0           # 0 / 0 counts 0; a moved zero-error difference counts infinity
    deviation[7:, 0, 1] = 1e-15         # a rounding error of zero
    deviation[:, 1, 0] = -deviation[:, 0, 1]
    got = max_t_critical(deviation, se, alpha=0.1)
    for j in range(4):
        maxima = [max(abs(deviation[b, k, j]) / se[b, k, j] if se[b, k, j] > 0 else 0.0
                      for k in range(4) if k != j) for b in range(400)]
        assert got[j] == np.sort(maxima)[int(np.ceil(0.9 * 400)) - 1]
    deviation[:30, 0, 1] = 0.5          # 30 / 400 infinities exceed the 5 % tail
    assert np.isinf(max_t_critical(deviation, se, alpha=0.05)[1])
    assert max_t_critical(np.zeros((10, 1, 1)), np.zeros((1, 1))).tolist() == [0.0]


def test_two_attempts_on_many_items_give_the_normal_two_sided_critical_value():
    rng = np.random.default_rng(6)
    scored, values = full(rng.normal(size=(2, 400)))
    for studentise in ("draw", "plug_in"):
        got = rank_uncertainty(scored, values, [1, 2], draws=2000, seed=1, studentise=studentise)
        assert got.critical[0] == got.critical[1] == pytest.approx(stats.norm.ppf(0.975), abs=0.12)


def test_rank_sets_count_the_attempts_surely_better_and_surely_not_better():
    scores = np.array([0.9, 0.6, 0.55, 0.2])
    difference = scores[:, None] - scores[None, :]
    se = np.full((4, 4), 0.05)
    np.fill_diagonal(se, 0.0)
    low, high = rank_sets(difference, se, np.array([2.0, 2.0, 2.0, 2.0]))
    assert low.tolist() == [1, 2, 2, 4] and high.tolist() == [1, 3, 3, 4]  # 0.05 apart is within 2 x 0.05
    low, high = rank_sets(difference, se, np.full(4, np.inf))
    assert low.tolist() == [1] * 4 and high.tolist() == [4] * 4
    se[:] = 0.0                                                         # known exactly: the observed ranks
    low, high = rank_sets(difference, se, np.full(4, np.inf))
    assert low.tolist() == high.tolist() == [1, 2, 3, 4]


def test_an_attempt_right_everywhere_against_one_wrong_everywhere_is_exact():
    got = rank_uncertainty(*full([[1.0] * 12, [0.0] * 12]), [1, 2])
    assert got.reading.code == "ranks_best_separated" and got.possible_best == (0,)
    assert got.low == (1, 2) and got.high == (1, 2)


def test_identical_attempts_share_their_set_and_a_tie_at_the_top_is_no_call():
    rng = np.random.default_rng(7)
    values = (rng.random((5, 40)) < 0.7).astype(float)
    values[3] = values[0]
    got = rank_uncertainty(*full(values), [1, 2, 3, 4, 5])
    assert (got.low[0], got.high[0]) == (got.low[3], got.high[3]) and got.score[0] == got.score[3]
    tied = rank_uncertainty(*full(np.ones((4, 6))), [1, 2, 3, 4])
    assert tied.reading.code == "ranks_top_tied" and tied.possible_best == (0, 1, 2, 3)
    assert tied.low == (1,) * 4 and tied.high == (1,) * 4 and tied.needed is None


def test_degenerate_rooms():
    single = rank_uncertainty(*full([[1, 0, 1]]), [3])
    assert single.reading.code == "ranks_single" and single.possible_best == (0,)
    assert single.low == single.high == (1,) and single.critical == (0.0,)
    nothing = rank_uncertainty(np.zeros((2, 3), bool), np.zeros((2, 3)), [1, 2])
    assert nothing.reading.code == "ranks_no_items" and nothing.possible_best == ()
    assert nothing.low == (1, 1) and nothing.high == (2, 2)            # no item: any rank
    with pytest.raises(ValueError, match="do not match"):
        rank_uncertainty(np.ones((2, 3), bool), np.ones((2, 3)), [1])
    with pytest.raises(ValueError, match="studentise"):
        rank_uncertainty(np.ones((2, 3), bool), np.ones((2, 3)), [1, 2], studentise="t")


def test_unscored_cells_leave_each_attempt_its_own_items():
    rng = np.random.default_rng(8)
    values = (rng.random((4, 30)) < np.array([[0.95], [0.9], [0.3], [0.5]])).astype(float)
    scored = np.ones(values.shape, bool)
    scored[1, :10] = False
    scored[3] = False                                                   # scored nothing
    got = rank_uncertainty(scored, np.where(scored, values, np.nan), [1, 2, 3, 4], seed=3)
    assert got.score[1] == values[1, 10:].mean() and np.isnan(got.score[3])
    assert (got.low[3], got.high[3]) == (1, 4) and 3 not in got.possible_best
    without = rank_uncertainty(scored[:3], values[:3], [1, 2, 3], seed=3)  # the same draws of the 30 items
    assert got.critical[:3] == without.critical and got.low[:3] == without.low
    assert [h - 1 for h in got.high[:3]] == list(without.high)          # the unscored one could be above any
    assert got.low[2] >= 2 and got.high[0] <= 3                         # 0.95 and 0.9 against 0.3 on 20-30 items


def test_a_loss_ranks_lowest_first():
    scored, losses = full([[4.0, 9.0, 4.0, 9.0], [0.0, 0.0, 1.0, 0.0]])
    got = rank_uncertainty(scored, losses, [1, 2], lower_is_better=True, seed=1)
    assert got.possible_best[0] == 1 and got.score == (6.5, 0.25) and got.low[1] == 1


def test_the_possible_best_are_exactly_the_scored_attempts_whose_set_holds_one():
    rng = np.random.default_rng(9)
    for _ in range(20):
        skills = rng.uniform(0.3, 0.95, size=8)
        scored, values = full(rng.random((8, 40)) < skills[:, None])
        got = rank_uncertainty(scored, values, list(range(1, 9)))
        assert set(got.possible_best) == {i for i in range(8) if got.low[i] == 1}
        assert all(got.score[got.possible_best[0]] >= s for s in got.score)
        assert all(low <= high for low, high in zip(got.low, got.high))


def test_the_top_two_not_separated_say_how_many_items_it_would_take():
    rng = np.random.default_rng(6)
    scored, values = full(rng.random((6, 30)) < 0.75)
    got = rank_uncertainty(scored, values, list(range(1, 7)))
    assert got.reading.code == "ranks_best_among" and len(got.possible_best) >= 2
    best, second = got.possible_best[:2]
    d = values[best] - values[second]
    assert got.needed == items_needed(d.mean(), d.std(ddof=1), got.critical[second])
    assert got.reading.values["needed"] == got.needed and got.reading.values["second"] == second + 1


def test_items_needed_is_the_normal_approximation_and_none_for_no_difference():
    assert items_needed(0.1, 0.5, 1.96) == int(np.ceil(((1.96 + stats.norm.ppf(0.8)) * 5) ** 2))
    assert items_needed(0.0, 0.5, 1.96) is None


@pytest.mark.parametrize("possible, attempts, items, needed, code", [
    ((), 3, 0, None, "ranks_no_items"),
    ((0,), 1, 5, None, "ranks_single"),
    ((2,), 3, 5, None, "ranks_best_separated"),
    ((2, 0), 3, 5, None, "ranks_top_tied"),
    ((2, 0), 3, 5, 80, "ranks_best_among"),
])
def test_rank_readings(possible, attempts, items, needed, code):
    reading = rank_reading(attempts=attempts, items=items, possible=possible, numbers=[11, 12, 13], needed=needed,
                           difference=0.1, alpha=0.05)
    assert reading.code == code
    if possible and code != "ranks_no_items":
        assert reading.values["best"] == 11 + possible[0]
        assert reading.values["possible"] == tuple(f"#{11 + i}" for i in possible)


def _rooms(skills, items, rooms, seed):
    rng = np.random.default_rng(seed)
    for _ in range(rooms):
        yield full(rng.random((len(skills), items)) < np.asarray(skills)[:, None])


def test_coverage_sanity_the_sets_cover_the_true_ranks():
    skills = [0.85, 0.8, 0.7, 0.6, 0.5]
    kept = covered = 0
    rooms = 120
    for scored, values in _rooms(skills, 60, rooms, seed=21):
        got = rank_uncertainty(scored, values, [1, 2, 3, 4, 5], draws=300)
        kept += 0 in got.possible_best
        covered += np.mean([got.low[i] <= i + 1 <= got.high[i] for i in range(5)])
    assert kept / rooms >= 0.9
    assert covered / rooms >= 0.9


def test_thirty_equal_attempts_rarely_get_a_single_best():
    singles = sum(len(rank_uncertainty(scored, values, list(range(30)), draws=200).possible_best) == 1
                  for scored, values in _rooms([0.8] * 30, 30, 60, seed=5))
    assert singles <= 3  # 5 % of 60 rooms

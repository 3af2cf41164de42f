import numpy as np
import pytest
from scipy import stats

from evallib.room.ranks import (bootstrap_scores, comparisons_with_best, items_needed, rank_intervals, rank_reading,
                                rank_uncertainty, ranks_of)


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


def test_ranks_are_scipys_min_ranks_with_nan_last():
    rng = np.random.default_rng(4)
    scores = np.round(rng.random((40, 6)), 1)  # rounded: ties occur
    scores[3, 2] = np.nan
    expected = np.stack([stats.rankdata(-np.nan_to_num(row, nan=-np.inf), method="min") for row in scores])
    assert ranks_of(scores).tolist() == expected.tolist()


def test_rank_intervals_are_percentiles_of_ranks_that_occurred():
    ranks = np.array([[1, 2], [1, 2], [2, 1], [1, 2]] * 10)
    low, high = rank_intervals(ranks)
    assert low.tolist() == [1, 1] and high.tolist() == [2, 2]
    assert rank_intervals(np.ones((100, 3), int))[0].tolist() == [1, 1, 1]
    column = np.arange(1, 201)[:, None]
    assert rank_intervals(column)[0][0] == np.percentile(column, 2.5, method="inverted_cdf")


def test_rank_uncertainty_against_a_brute_force_bootstrap():
    rng = np.random.default_rng(8)
    scored, values = full(rng.random((5, 25)) < np.array([[0.9], [0.8], [0.8], [0.6], [0.3]]))
    got = rank_uncertainty(scored, values, [1, 2, 3, 4, 5], seed=123, draws=400)
    replay = np.random.default_rng(123)
    counts = replay.multinomial(25, np.full(25, 1 / 25), size=400)
    ranks = []
    for row in counts:
        items = np.repeat(np.arange(25), row)
        ranks.append(stats.rankdata(-values[:, items].mean(axis=1), method="min"))
    ranks = np.array(ranks)
    assert list(got.low) == np.percentile(ranks, 2.5, axis=0, method="inverted_cdf").astype(int).tolist()
    assert list(got.high) == np.percentile(ranks, 97.5, axis=0, method="inverted_cdf").astype(int).tolist()
    assert got.score == tuple(values.mean(axis=1))


def test_a_loss_ranks_lowest_first():
    scored, losses = full([[4.0, 9.0, 4.0, 9.0], [0.0, 0.0, 1.0, 0.0]])
    got = rank_uncertainty(scored, losses, [1, 2], lower_is_better=True, seed=1)
    assert got.possible_best[0] == 1 and got.score == (6.5, 0.25) and got.low[1] == 1


def test_degenerate_rooms():
    single = rank_uncertainty(*full([[1, 0, 1]]), [3])
    assert single.reading.code == "ranks_single" and single.possible_best == (0,) and single.low == (1,)
    nothing = rank_uncertainty(np.zeros((2, 3), bool), np.zeros((2, 3)), [1, 2])
    assert nothing.reading.code == "ranks_no_items" and nothing.possible_best == ()
    tied = rank_uncertainty(*full(np.ones((4, 6))), [1, 2, 3, 4])
    assert tied.reading.code == "ranks_top_tied" and tied.possible_best == (0, 1, 2, 3)
    assert tied.low == (1,) * 4 and tied.high == (1,) * 4 and tied.needed is None
    with pytest.raises(ValueError, match="do not match"):
        rank_uncertainty(np.ones((2, 3), bool), np.ones((2, 3)), [1])


def test_an_attempt_right_everywhere_against_one_wrong_everywhere_is_separated():
    got = rank_uncertainty(*full([[1.0] * 12, [0.0] * 12]), [1, 2])
    assert got.reading.code == "ranks_best_separated" and got.possible_best == (0,)
    assert got.low == (1, 2) and got.high == (1, 2)


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


def test_coverage_sanity_the_set_keeps_the_true_best_and_rank_intervals_cover_true_ranks():
    skills = [0.85, 0.8, 0.7, 0.6, 0.5]
    kept = covered = 0
    rooms = 120
    for scored, values in _rooms(skills, 60, rooms, seed=21):
        got = rank_uncertainty(scored, values, [1, 2, 3, 4, 5], draws=300)
        kept += 0 in got.possible_best
        covered += np.mean([got.low[i] <= i + 1 <= got.high[i] for i in range(5)])
    assert kept / rooms >= 0.9
    assert covered / rooms >= 0.85


def test_thirty_equal_attempts_rarely_get_a_single_best():
    singles = sum(len(rank_uncertainty(scored, values, list(range(30)), draws=200).possible_best) == 1
                  for scored, values in _rooms([0.8] * 30, 30, 60, seed=5))
    assert singles <= 3  # 5 % of 60 rooms


def test_comparisons_with_best_keep_every_attempt_of_identical_scores():
    kept, critical = comparisons_with_best(np.array([0.5, 0.5, 0.5]), np.zeros((3, 3)), df=10,
                                           rng=np.random.default_rng(0))
    assert kept.all() and (critical == 0).all()
    kept, _ = comparisons_with_best(np.array([0.5, np.nan]), np.zeros((2, 2)), df=10, rng=np.random.default_rng(0))
    assert kept.tolist() == [True, False]

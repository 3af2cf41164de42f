from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

from evallib.room.board import build_board, holm, mcnemar_p, pairwise
from evallib.triggering.comparison import mcnemar_exact
from evallib.cluster_rates import ClusteredRate
from evallib.room.figures import Figure


def rate(k: int, n: int) -> Figure:
    """k right out of n queries, one outcome per query, as the board's figure (value, interval, n)."""
    r = ClusteredRate.of([(1, 1)] * k + [(0, 1)] * (n - k))
    return Figure(r.value, r.low, r.high, r.n)
from tests.evallib.room.conftest import trigger_payload


def entry(number, visible, held_out=(), name=None):
    return SimpleNamespace(number=number, participant=name or f"P{number}", payload=trigger_payload(visible, held_out))


_RNG = np.random.default_rng(7)
_P_SETS = [[0.0], [1.0], [0.5, 0.5, 0.5], [0.0, 1.0, 0.01, 0.01], [0.2, 0.04, 0.03, 0.9, 0.04]] + [
    np.round(_RNG.random(n) ** 3, 3).tolist() for n in (2, 7, 29, 40, 435)]  # rounded: ties occur


@pytest.mark.parametrize("p", _P_SETS)
def test_holm_equals_statsmodels(p):
    assert np.allclose(holm(p), multipletests(p, method="holm")[1])


def test_holm_of_nothing_is_empty():
    assert holm([]).size == 0


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=60))
def test_vectorised_mcnemar_equals_the_trigger_page_and_statsmodels(pairs):
    before, after = [p[0] for p in pairs], [p[1] for p in pairs]
    expected = mcnemar_exact(before, after)
    got = float(mcnemar_p(np.array(expected.b), np.array(expected.c)))
    assert got == pytest.approx(expected.p_value, abs=1e-12)
    table = [[0, expected.b], [expected.c, 0]]
    assert got == pytest.approx(sm_mcnemar(table, exact=True).pvalue, abs=1e-12)


def test_pairwise_counts_only_items_both_scored():
    scored = np.array([[True, True, True, False], [True, True, False, True]])
    correct = np.array([[True, True, True, False], [False, True, False, True]])
    b, p, adjusted = pairwise(scored, correct)
    assert b.tolist() == [[0, 1], [0, 0]]  # item 0 only: item 2 and 3 are scored by one attempt each
    assert p[0, 1] == p[1, 0] == 1.0 and np.isnan(p[0, 0]) and adjusted[0, 1] == 1.0


def test_the_board_ranks_by_visible_accuracy_ties_in_submission_order():
    board = build_board([entry(1, [True, False, True, False]), entry(2, [True] * 4), entry(3, [True, True, False, False])])
    assert [(r.number, r.rank) for r in board.rows] == [(2, 1), (1, 2), (3, 3)]
    best = board.rows[0]
    assert best.p_vs_best is None and best.tied_with_best and best.accuracy == rate(4, 4)
    assert board.rows[1].b == 2 and board.rows[1].c == 0
    # 4 queries: the smallest McNemar p is 2 / 2^4, far above 0.05 / 3 pairs: the board says so.
    assert board.reading.code == "board_too_few_items" and board.reading.values["tied"] == 3
    assert board.reading.values["needed"] == 7  # 2 / 2^7 * 3 < 0.05
    assert board.n_pairs == 3 and board.correction == "holm_all_pairs" and board.unit == "query"


def test_a_clearly_worse_attempt_leaves_the_group_of_the_best():
    good = [True] * 40
    bad = [True] * 10 + [False] * 30
    board = build_board([entry(1, bad), entry(2, good), entry(3, good[:39] + [False])])
    rows = {r.number: r for r in board.rows}
    assert rows[2].rank == 1 and rows[3].tied_with_best and not rows[1].tied_with_best
    # Holm over the three pairs: the 1-vs-2 p is the smallest, multiplied by 3.
    assert rows[1].p_adjusted == pytest.approx(min(1.0, 3 * rows[1].p_vs_best))
    assert board.reading.code == "board_separated" and board.reading.values == {
        "attempts": 3, "tied": 2, "alpha": 0.05, "pairs": 3, "best": 2, "items": 40}


def test_board_readings_for_degenerate_rooms():
    assert build_board([]).reading.code == "board_empty"
    single = build_board([entry(1, [True, False])])
    assert single.reading.code == "board_single" and single.rows[0].rank == 1
    unscored = build_board([entry(1, [None, None]), entry(2, [None])])
    assert unscored.reading.code == "board_no_items"
    assert [r.accuracy.value for r in unscored.rows] == [None, None]


def test_an_attempt_without_a_figure_ranks_last():
    board = build_board([entry(1, [None]), entry(2, [False])])
    assert [r.number for r in board.rows] == [2, 1]


def test_the_winners_curse_rows_set_visible_beside_held_out():
    board = build_board([entry(1, [True] * 10, [False] * 10), entry(2, [True] * 9 + [False], [True] * 10),
                         entry(3, [False] * 10, [True] * 10), entry(4, [False] * 10)], top_k=3)
    assert [c.number for c in board.winners_curse] == [1, 2, 3]
    first = board.winners_curse[0]
    assert first.visible == rate(10, 10) and first.held_out == rate(0, 10)
    assert first.reading.code == "curse_heldout_lower"  # 10/10 visible, 0/10 held out: the drop is seen
    # the second (9/10) is held below the first (10/10), the third (0/10) at the floor: the data say luck
    # lifted neither (estimated inflation <= 0), so there is no gap for the held-out items to check
    assert [c.reading.code for c in board.winners_curse[1:]] == ["curse_no_gap", "curse_no_gap"]
    assert board.curse[0].inflation > 0 >= max(board.curse[1].inflation, board.curse[2].inflation)
    assert [c.index for c in board.curse] == [0, 1, 2] and board.curse[0].luck.values["attempt"] == 1


def _simulate_identical_rooms(reps, attempts=30, items=40, accuracy=0.7, seed=1):
    """Share of rooms of identical attempts (same true accuracy, independent answers) whose board
    calls some attempt significantly worse than the best."""
    rng = np.random.default_rng(seed)
    flagged = 0
    for _ in range(reps):
        correct = rng.random((attempts, items)) < accuracy
        room = [SimpleNamespace(number=i + 1, participant=str(i),
                                payload={"items": [{"id": str(j), "held_out": False, "correct": bool(c)}
                                                   for j, c in enumerate(row)]})
                for i, row in enumerate(correct)]
        flagged += build_board(room, draws=20).reading.code == "board_separated"  # Holm's reading only
    return flagged / reps


def test_thirty_identical_attempts_rarely_yield_a_significant_winner():
    rate = _simulate_identical_rooms(300)
    # Holm over all pairs keeps the family-wise error at most 5 %; 300 rooms: 5 % + 2.5 standard errors.
    assert rate <= 0.05 + 2.5 * (0.05 * 0.95 / 300) ** 0.5


def test_a_truly_better_attempt_is_separated_from_the_rest():
    rng = np.random.default_rng(3)
    room = [SimpleNamespace(number=i + 1, participant=str(i),
                            payload={"items": [{"id": str(j), "held_out": False, "correct": bool(c)}
                                               for j, c in enumerate(rng.random(60) < (0.98 if i == 7 else 0.5))]})
            for i in range(30)]
    board = build_board(room)
    assert board.rows[0].number == 8
    assert board.reading.code == "board_separated" and board.reading.values["tied"] < 5


def test_correcting_only_the_comparisons_with_the_best_would_fail_the_check():
    """Why the board corrects over all pairs: Holm over the 29 comparisons with a best chosen by the
    same data flags a winner in about 15 % of rooms of identical attempts (the simulation can fail)."""
    rng = np.random.default_rng(1)
    flagged, reps = 0, 300
    for _ in range(reps):
        correct = rng.random((30, 40)) < 0.7
        b, p, _ = pairwise(np.ones_like(correct), correct)
        best = int(np.argmax(correct.sum(axis=1)))
        others = [j for j in range(30) if j != best]
        adjusted = holm([p[best, j] for j in others])
        flagged += any(a < 0.05 and b[best, j] > b[j, best] for a, j in zip(adjusted, others))
    assert flagged / reps > 0.05 + 2.5 * (0.05 * 0.95 / reps) ** 0.5

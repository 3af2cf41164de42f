"""The board for persona and judge attempts: paired tests per kind, readings, the winner's curse and
the thirty-identical-attempts check for each kind."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evallib.paired import sign_flip_test
from evallib.room.attempts import validate_attempt
from evallib.room.board import Figure, build_board, build_boards, pairwise_scores, sign_flip_p
from evallib.room.judge_attempt import build_judge_attempt
from evallib.room.persona_attempt import build_persona_attempt
from tests.evallib.room.conftest import trigger_payload
from tests.evallib.room.kinds import HUMAN, judge_runs, persona_responses


def persona_entry(number, correct, held=(), accuracy=None):
    """A persona attempt as the board reads it: per-response outcomes and a stored visible figure."""
    items = [{"id": f"r{j}", "held_out": False, "correct": c} for j, c in enumerate(correct)] + \
            [{"id": f"h{j}", "held_out": True, "correct": c} for j, c in enumerate(held)]
    scored = [c for c in correct if c is not None]
    value = accuracy if accuracy is not None else (sum(scored) / len(scored) if scored else None)
    figure = {"value": value, "ci95": None if value is None else [max(0, value - 0.1), min(1, value + 0.1)],
              "n": len(scored)}
    held_value = sum(held) / len(held) if held else None
    held_figure = {"value": held_value, "ci95": [max(0, held_value - 0.2), min(1, held_value + 0.2)],
                   "n": len(held)} if held else \
        {"value": None, "ci95": None, "n": 0}
    return SimpleNamespace(number=number, participant=f"P{number}", payload={
        "kind": "persona", "unit": "response", "items": items,
        "figures": {"visible": {"accuracy": figure}, "held_out": {"accuracy": held_figure}}})


def judge_case(case_id, j, loss, held_out=False):
    """A judge case with human score j % 11 and a judge total off by sqrt(``loss``) (None: unscored)."""
    human = j % 11
    if loss is None:
        return {"id": case_id, "held_out": held_out, "loss": None, "score": None, "human": human}
    off = loss ** 0.5
    return {"id": case_id, "held_out": held_out, "loss": loss, "human": human,
            "score": human + off if human + off <= 10 else human - off}


def judge_entry(number, losses, kappa, held=(), held_kappa=None):
    """A judge attempt as the board reads it: per-case totals and losses, stored kappas (``kappa``: the
    ranked figure, set by the test)."""
    items = [judge_case(f"c{j}", j, x) for j, x in enumerate(losses)] + \
            [judge_case(f"h{j}", j, x, True) for j, x in enumerate(held)]

    def fig(value, n):
        return {"value": value, "ci95": None if value is None else [value - 0.3, min(1.0, value + 0.3)], "n": n}
    return SimpleNamespace(number=number, participant=f"P{number}", payload={
        "kind": "judge", "unit": "case", "items": items,
        "figures": {"visible": {"kappa": fig(kappa, len(losses))}, "held_out": {"kappa": fig(held_kappa, len(held))}}})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=12))
def test_sign_flip_p_equals_the_paired_module(differences):
    got = sign_flip_p(np.array([differences]))[0]
    assert got == pytest.approx(sign_flip_test(differences).p, abs=1e-12)


def test_sign_flip_p_beyond_the_exact_size_uses_the_paired_module():
    rows = np.array([[1.0] * 14 + [-1.0] * 6, [0.0] * 20])
    p = sign_flip_p(rows)
    assert p[0] == sign_flip_test(rows[0]).p and p[1] == 1.0


def test_pairwise_scores_count_wins_on_common_cases_only():
    scored = np.array([[True, True, True, False], [True, True, False, True]])
    losses = np.array([[0.0, 4.0, 1.0, 0.0], [1.0, 4.0, 0.0, 9.0]])
    wins, p, adjusted = pairwise_scores(scored, losses)
    assert wins.tolist() == [[0, 1], [0, 0]]  # case 0 only: case 1 tied, cases 2 and 3 not shared
    assert p[0, 1] == p[1, 0] == 1.0 and np.isnan(p[0, 0]) and adjusted[0, 1] == 1.0


def test_a_judge_board_ranks_by_kappa_and_separates_a_far_worse_judge():
    good = [0.0] * 12
    bad = [16.0] * 10 + [0.0, 0.0]
    board = build_board([judge_entry(1, bad, 0.1), judge_entry(2, good, 0.9), judge_entry(3, good[:11] + [1.0], 0.85)])
    rows = {r.number: r for r in board.rows}
    assert [r.number for r in board.rows] == [2, 3, 1] and board.test == "sign_flip_exact" and board.unit == "case"
    assert rows[1].b == 10 and rows[1].c == 0 and rows[1].p_vs_best == pytest.approx(2 / 2 ** 10)
    assert not rows[1].tied_with_best and rows[3].tied_with_best
    assert board.reading.code == "board_separated" and rows[2].accuracy == Figure(0.9, 0.9 - 0.3, 1.0, 12)


def test_judge_board_readings_ties_single_and_unscored():
    tied = build_board([judge_entry(1, [1.0, 0.0] * 5, 0.5), judge_entry(2, [0.0, 1.0] * 5, 0.5)])
    assert [r.number for r in tied.rows] == [1, 2] and tied.reading.code == "board_all_tied"
    assert tied.rows[1].p_vs_best == 1.0 and (tied.rows[1].b, tied.rows[1].c) == (5, 5)
    two_cases = build_board([judge_entry(1, [1.0, 0.0], 0.5), judge_entry(2, [0.0, 1.0], 0.5)])
    assert two_cases.reading.code == "board_too_few_items" and two_cases.reading.values["needed"] == 6
    assert build_board([judge_entry(1, [0.0, 4.0], 0.4)]).reading.code == "board_single"
    unscored = build_board([judge_entry(1, [None, None], None), judge_entry(2, [None], None)])
    assert unscored.reading.code == "board_no_items" and [r.accuracy.value for r in unscored.rows] == [None, None]


def test_the_winners_curse_on_held_out_probe_and_cases():
    board = build_board([persona_entry(1, [True] * 30, [False] * 6), persona_entry(2, [True] * 20 + [False] * 10)])
    first, second = board.winners_curse
    assert first.visible.value == 1.0 and first.held_out.value == 0.0 and first.reading.code == "curse_heldout_lower"
    assert second.reading.code == "curse_heldout_none"  # no held-out probe
    judge = build_board([judge_entry(1, [0.0] * 9, 0.8, [9.0] * 3, 0.1), judge_entry(2, [1.0] * 9, 0.7)])
    assert judge.winners_curse[0].reading.code == "curse_heldout_lower"
    assert judge.winners_curse[0].reading.values["held_out_n"] == 3
    assert judge.winners_curse[1].reading.code == "curse_heldout_none"


def test_a_mixed_room_gets_one_board_per_kind():
    room = [SimpleNamespace(number=1, participant="A", payload=trigger_payload([True, False])),
            persona_entry(2, [True, False]), judge_entry(3, [0.0], 0.2)]
    boards = build_boards(room)
    assert list(boards) == ["trigger", "persona", "judge"]
    assert [b.rows[0].number for b in boards.values()] == [1, 2, 3]
    with pytest.raises(ValueError):
        build_board(room)


def test_a_version_1_trigger_attempt_still_reads_and_ranks():
    old = trigger_payload([True, True, False])
    old["version"] = 1
    assert validate_attempt(old)["version"] == 1
    board = build_board([SimpleNamespace(number=1, participant="A", payload=old),
                         SimpleNamespace(number=2, participant="B", payload=trigger_payload([True, False, False]))])
    assert [r.number for r in board.rows] == [1, 2]


def _share_separated(make, reps, attempts=30, seed=1):
    rng = np.random.default_rng(seed)
    return sum(build_board([make(rng, i + 1) for i in range(attempts)], draws=20).reading.code == "board_separated"
               for _ in range(reps)) / reps


def _identical_persona(rng, number):
    correct = (rng.random(30) < 0.6).tolist()
    return persona_entry(number, correct)


def _identical_judge(rng, number):
    human = np.arange(9) % 11  # nine visible cases, as on the default data (twelve, three held out)
    scores = np.clip(human + rng.integers(-2, 3, 9), 0, 10)
    losses = ((scores - human) ** 2).astype(float)
    return judge_entry(number, losses.tolist(), float(1 - losses.mean() / 30))


@pytest.mark.parametrize("make, reps", [(_identical_persona, 300), (_identical_judge, 200)])
def test_thirty_identical_attempts_rarely_yield_a_significant_winner(make, reps):
    share = _share_separated(make, reps)
    assert share <= 0.05 + 2.5 * (0.05 * 0.95 / reps) ** 0.5


def _better_judge_room(attempts, cases, seed=5):
    """Attempt 2 agrees with the humans on every case; the others miss by 2 points or more on each."""
    rng = np.random.default_rng(seed)
    return [judge_entry(i + 1, [0.0] * cases if i == 1 else (4.0 + 5 * rng.random(cases)).round().tolist(),
                        1.0 if i == 1 else 0.3) for i in range(attempts)]


def test_a_truly_better_judge_is_separated_when_the_cases_allow_it():
    board = build_board(_better_judge_room(4, 12))
    assert board.rows[0].number == 2 and board.reading.code == "board_separated"
    assert board.reading.values["tied"] == 1


def test_thirty_judges_on_twelve_cases_cannot_be_told_apart_and_the_board_says_why():
    # 2 / 2^12 = 0.00049 is the smallest p; Holm over 435 pairs needs it below 0.05 / 435 = 0.000115.
    board = build_board(_better_judge_room(30, 12))
    assert board.rows[0].number == 2 and all(r.tied_with_best for r in board.rows)
    assert board.reading.code == "board_too_few_items"
    assert board.reading.values["items"] == 12 and board.reading.values["needed"] == 15
    assert 2 / 2 ** 15 * 435 < 0.05 <= 2 / 2 ** 14 * 435


@pytest.fixture(scope="module")
def default_attempts():
    catalogue, responses = persona_responses()
    configs, results, compared = judge_runs()
    persona = build_persona_attempt(catalogue, responses, model="authored-examples", source="offline")
    judges = [build_judge_attempt(results[name], HUMAN, configs[name].rubric, template=configs[name].template,
                                  template_name=name, generator=configs[name].generator.model,
                                  judge=configs[name].judge.model, source="offline",
                                  comparisons=compared if name == "A" else None) for name in "AB"]
    return persona, judges


def test_the_board_shows_the_figures_the_attempts_stored(default_attempts):
    persona, judges = default_attempts
    board = build_board([SimpleNamespace(number=1, participant="A", payload=persona)])
    stored = persona["figures"]["visible"]["accuracy"]
    assert board.rows[0].accuracy == Figure(stored["value"], *stored["ci95"], stored["n"])
    assert board.reading.code == "board_single" and board.unit == "response"
    judge_board = build_board([SimpleNamespace(number=i + 1, participant=n, payload=p)
                               for i, (n, p) in enumerate(zip("AB", judges))])
    for row in judge_board.rows:
        assert row.accuracy.value == judges[row.number - 1]["figures"]["visible"]["kappa"]["value"]
    assert judge_board.winners_curse[0].held_out.n == judges[judge_board.rows[0].number - 1][
        "figures"]["held_out"]["kappa"]["n"]


def test_the_held_out_part_undoes_the_winners_curse():
    """Thirty equally good persona attempts (each response recognised with probability 0.6): the best
    visible accuracy is biased upward, its held-out accuracy is not."""
    rng = np.random.default_rng(11)
    visible, held = [], []
    for _ in range(100):
        room = [persona_entry(i + 1, (rng.random(30) < 0.6).tolist(), (rng.random(12) < 0.6).tolist())
                for i in range(30)]
        top = build_board(room, draws=20).winners_curse[0]
        visible.append(top.visible.value)
        held.append(top.held_out.value)
    assert np.mean(visible) > 0.6 + 0.1  # the winner's curse: about 0.77 for 30 draws of Bin(30, 0.6)/30
    assert abs(np.mean(held) - 0.6) < 0.03  # 100 rooms x 12 items: standard error about 0.014

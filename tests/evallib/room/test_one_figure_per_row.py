"""One figure per row (docs/room.md#page-board): every number the board's sentences quote for an attempt
(the winner's curse sentence, the held-out reading cell, the held-out column, the sentence on who could be
best) is the figure that attempt's row shows, in the row's unit, for every kind of attempt."""

from types import SimpleNamespace

import numpy as np
import pytest

from evallib.room.board import build_board
from evallib.room.figures import attempt_figure
from evallib.room.outcomes import figure_matrices, kappa_contributions, linearised, unit_values
from tests.evallib.room.row_boards import KINDS, ROOMS, boards, trigger_attempts

TOLERANCE = 1e-9


def _approx(value):
    return pytest.approx(value, abs=TOLERANCE)


@pytest.fixture(scope="module", params=ROOMS)
def room(request):
    return request.param, *boards()[request.param]


def test_every_kind_the_board_knows_is_built_here():
    assert {board.kind for board, _ in boards().values()} == set(KINDS)
    runs = {name: {e.payload["provenance"]["runs"] for e in entries} for name, (board, entries) in boards().items()
            if board.kind == "trigger"}
    assert runs == {"trigger_runs": {3}, "trigger_runs_failed": {3}, "trigger_one_run": {1}}


def test_the_rooms_have_what_the_sentences_quote(room):
    name, board, _ = room
    assert len(board.rows) >= 5 and len(board.curse) == 3 and board.ranks is not None
    assert all(r.accuracy.defined for r in board.rows), name
    assert len({r.accuracy.value for r in board.rows}) > 2, name  # attempts that differ
    held = [c for c in board.winners_curse if c.held_out.value is not None]
    assert held, name


def test_each_row_mean_of_the_matrix_is_the_row_figure(room):
    name, board, entries = room
    for part in ("visible", "held_out"):
        scored, values, _ = figure_matrices(entries, part)
        for i, entry in enumerate(entries):
            figure = attempt_figure(entry.payload, part)
            if figure.value is None:
                assert not scored[i].any() or board.kind == "judge", (name, part)
                continue
            assert values[i, scored[i]].mean() == _approx(figure.value), (name, part, entry.number)
            assert scored[i].sum() == figure.units, (name, part)  # the row's unit: queries, probes, cases


def test_the_curse_sentence_quotes_the_row(room):
    name, board, _ = room
    rows = {r.number: r.accuracy.value for r in board.rows}
    for check, row in zip(board.curse, board.winners_curse):
        values = check.luck.values
        assert values["attempt"] == row.number and values["visible"] == _approx(rows[row.number]), name
        if "others" in values:  # the others' mean: the mean of the other rows' figures
            others = [v for n, v in rows.items() if n != row.number]
            assert values["others"] == _approx(float(np.mean(others))), name
            assert values["inflation"] == _approx(values["visible"] - values["estimate"]), name
        assert check.visible == _approx(rows[row.number]), name


def test_the_held_out_cell_and_column_quote_the_row(room):
    name, board, entries = room
    by_number = {e.number: e for e in entries}
    rows = {r.number: r.accuracy for r in board.rows}
    for row in board.winners_curse:
        assert row.visible == rows[row.number]
        held = attempt_figure(by_number[row.number].payload, "held_out")
        assert row.held_out == held and row.held_out.units == held.units
        values = row.reading.values
        assert values["visible"] == _approx(rows[row.number].value), (name, row.reading)
        if row.reading.code == "curse_heldout_none":
            assert held.value is None
            continue
        assert values["held_out"] == _approx(held.value), (name, row.reading)
        assert values["held_out_n"] == held.units, (name, row.reading)  # queries, probes, cases: the row's unit
        if "drop" in values:
            assert values["drop"] == _approx(rows[row.number].value - held.value), (name, row.reading)


def test_who_could_be_best_quotes_the_rows(room):
    name, board, _ = room
    reading = board.ranks.reading
    rows = {r.number: r.accuracy.value for r in board.rows}
    assert reading.values["best"] == board.rows[0].number, name
    assert np.array(board.ranks.score) == _approx(np.array([rows[n] for n in board.ranks.numbers]))
    if "difference" in reading.values:
        assert reading.values["difference"] == _approx(rows[reading.values["best"]] - rows[reading.values["second"]])


def test_persona_s_single_held_out_probe_is_said_too_few(room):
    name, board, _ = room
    if board.kind != "persona":
        return
    for row in board.winners_curse:
        assert row.held_out.units == 1 and row.reading.code == "curse_heldout_too_few", row.reading
        assert row.reading.values["needed"] == 5 and row.reading.values["detectable"] > 0.3


def test_a_drift_to_the_all_runs_right_outcome_would_fail():
    """The per-query outcome the paired test uses (right only when every run was right) is another
    figure: had the curse read it, its sentence would not quote the row (the issue's 0.93 beside 0.97)."""
    entries = trigger_attempts(3)
    board = build_board(entries, draws=20)
    best = next(e for e in entries if e.number == board.rows[0].number)
    visible = [i for i in best.payload["items"] if not i["held_out"] and i["correct"] is not None]
    all_runs = np.mean([i["correct"] for i in visible])
    assert abs(all_runs - board.rows[0].accuracy.value) > 0.01
    assert board.curse[0].luck.values["visible"] == _approx(board.rows[0].accuracy.value)


def test_linearised_rates_are_each_query_s_rate_when_runs_are_equal_and_keep_the_ratio_otherwise():
    assert linearised({"a": (3, 3), "b": (1, 3), "c": (0, 3)}) == {"a": 1.0, "b": 1 / 3, "c": 0.0}
    unequal = linearised({"a": (3, 3), "b": (0, 1), "c": (1, 2)})
    assert np.mean(list(unequal.values())) == _approx(4 / 6)
    assert linearised({"a": (0, 0)}) == {} and linearised({}) == {}


def test_kappa_contributions_average_to_the_weighted_kappa_of_scikit_learn():
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(8)
    for _ in range(20):
        human = rng.integers(0, 11, 9)
        judge = np.clip(human + rng.integers(-3, 4, 9), 0, 10)
        items = [{"id": f"c{j}", "score": int(s), "human": int(h)} for j, (s, h) in enumerate(zip(judge, human))]
        expected = cohen_kappa_score(judge, human, weights="quadratic", labels=list(range(11)))
        assert np.mean(list(kappa_contributions(items).values())) == _approx(expected)
    constant = [{"id": f"c{j}", "score": 5, "human": 5} for j in range(3)]
    assert kappa_contributions(constant) == {} and kappa_contributions(constant[:1]) == {}


def test_an_attempt_stored_before_runs_were_kept_counts_each_query_once():
    old = {"kind": "trigger", "items": [{"id": "q1", "held_out": False, "correct": True},
                                        {"id": "q2", "held_out": False, "correct": False},
                                        {"id": "q3", "held_out": False, "correct": None}]}
    assert unit_values(old) == {"q1": 1.0, "q2": 0.0}
    scored, values, units = figure_matrices([SimpleNamespace(payload=old)])
    assert units == ("q1", "q2") and scored.tolist() == [[True, True]] and values.tolist() == [[1.0, 0.0]]


def test_a_held_out_part_under_five_probes_reads_too_few_and_only_then():
    from evallib.readings import Reading
    from evallib.room.board import held_out_size_reading, held_out_too_small
    from evallib.room.figures import Figure

    check = Reading("curse_heldout_lower", {"visible": 0.9, "held_out": 0.5, "held_out_n": 1, "detectable": 0.6,
                                            "power_share": 0.8, "drop": 0.4})
    one, five = Figure(0.5, 0.01, 1.0, 6, 3, "probe", 1), Figure(0.5, 0.3, 0.7, 30, 15, "probe", 5)
    few = held_out_size_reading(check, one, "persona")
    assert few.code == "curse_heldout_too_few" and few.values == {
        "visible": 0.9, "held_out": 0.5, "detectable": 0.6, "power_share": 0.8, "held_out_n": 1, "needed": 5}
    assert held_out_size_reading(check, five, "persona") is check  # five probes: the check's own reading
    assert held_out_size_reading(check, Figure(0.5, 0.0, 1.0, 2, 1, "case", 1), "judge") is check  # persona only
    none = Reading("curse_heldout_none", {"visible": 0.9, "held_out_n": 0})
    assert held_out_size_reading(none, Figure(None, None, None, 0, unit="probe", units=0), "persona") is none
    bare = Reading("curse_heldout_lower", {"visible": 0.9})  # a check naming no detectable drop: the one given
    assert held_out_size_reading(bare, one, "persona", 0.55).values["detectable"] == 0.55
    assert held_out_too_small("persona", one) and not held_out_too_small("persona", five)
    assert not held_out_too_small("trigger", one)

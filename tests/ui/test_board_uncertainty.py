"""The board's rank sets, possible-best set and winner's curse (ui/room/board_uncertainty.py) are
worded in French and English from the values evallib returns: every ``curse_`` and ``ranks_`` code
of evallib.room.winners_curse and evallib.room.ranks, produced here by the functions themselves."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import streamlit as st

from evallib.room.board import build_board
from evallib.room.ranks import rank_reading
from evallib.room.winners_curse import held_out_check, luck_reading
from tests.evallib.room.conftest import trigger_payload
from tests.ui.test_room_texts import _codes
from evallib.room import ranks as ranks_module, winners_curse as curse_module
from ui.i18n import LANGUAGE_KEY, integer, number, percent, t
from ui.room.board import board_records, curse_records, kind_parts, say, say_plain
from ui.room.board_uncertainty import rank_cell, rank_column_help, rank_record


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def luck_readings():
    common = dict(visible=0.93, rank=1, number=7, inflation=0.131)
    found = dict(varies=True, estimate=0.799, low=0.712, high=0.901, others=0.781)
    return [luck_reading(attempts=1, spread=True, varies=True, estimate=None, low=None, high=None, bound=None,
                         others=None, **common),
            luck_reading(attempts=4, spread=False, varies=True, estimate=None, low=None, high=None, bound=None,
                         others=None, **common),
            luck_reading(attempts=4, spread=True, varies=False, estimate=None, low=None, high=None, bound=None,
                         others=0.5, **common),
            luck_reading(attempts=30, spread=True, bound=0.723, **found, **common),
            luck_reading(attempts=30, spread=True, bound=0.792, **found, **common)]


def checks():
    return [held_out_check(visible=0.93, held_out=None, held_out_n=0, sigma=0.4, inflation=0.13),
            held_out_check(visible=0.93, held_out=0.2, held_out_n=8, sigma=0.4, inflation=0.13),
            held_out_check(visible=0.93, held_out=0.8, held_out_n=8, sigma=0.4, inflation=0.13),
            held_out_check(visible=0.93, held_out=0.92, held_out_n=500, sigma=0.4, inflation=0.13),
            held_out_check(visible=0.93, held_out=0.92, held_out_n=8, sigma=0.4, inflation=0.0)]


def rank_readings():
    numbers = [4, 5, 6]
    return [rank_reading(attempts=3, items=0, possible=(), numbers=numbers, needed=None, difference=0, alpha=0.05),
            rank_reading(attempts=1, items=9, possible=(0,), numbers=numbers, needed=None, difference=0, alpha=0.05),
            rank_reading(attempts=3, items=9, possible=(1,), numbers=numbers, needed=None, difference=0, alpha=0.05),
            rank_reading(attempts=3, items=9, possible=(1, 2), numbers=numbers, needed=None, difference=0.0,
                         alpha=0.05),
            rank_reading(attempts=3, items=9, possible=(1, 2, 0), numbers=numbers, needed=1234, difference=0.111,
                         alpha=0.05)]


def test_every_curse_and_ranks_code_is_produced_here_and_worded(lang):
    produced = {r.code for r in luck_readings() + checks() + rank_readings()}
    assert produced == _codes(curse_module, "curse") | _codes(ranks_module, "ranks")
    for reading in luck_readings() + rank_readings():
        shown = say(reading)
        assert "⟦" not in shown and "{" not in shown and "None" not in shown, shown
        worded = reading.code in ("curse_likely_inflated", "curse_beyond_luck", "ranks_best_among")
        for name in ("inflation", "estimate", "low", "high", "bound", "others", "needed", "difference"):
            if worded and name in reading.values:
                value = reading.values[name]
                assert (integer(value) if isinstance(value, int) else number(value)) in shown, (name, shown)
        if "possible" in reading.values and reading.code != "ranks_no_items" and reading.values["size"] > 1:
            assert all(n in shown for n in reading.values["possible"])
            assert percent(reading.values["power_share"]) in shown or reading.code == "ranks_top_tied"
    for reading in checks():
        cell = say_plain(reading)
        assert "⟦" not in cell and "{" not in cell and number(reading.values["visible"]) in cell, cell
        if reading.code in ("curse_heldout_too_small", "curse_consistent"):
            assert number(reading.values["detectable"]) in cell and number(reading.values["inflation"]) in cell
            assert percent(reading.values["power_share"]) in cell, cell


def test_only_consistent_says_consistent(lang):
    word = {"fr": "cohérent", "en": "consistent"}[lang]
    for reading in checks():
        assert (word in say_plain(reading)) == (reading.code == "curse_consistent")


def test_the_board_table_has_a_rank_set_column_and_the_download_its_bounds(lang):
    rng = np.random.default_rng(1)
    attempts = [SimpleNamespace(number=i, participant=f"P{i}",
                                payload=trigger_payload(list(rng.random(12) < 0.7), [True] * 4))
                for i in range(1, 6)]
    board = build_board(attempts)
    parts = kind_parts("trigger", board)
    column = next(iter(rank_cell(board, 1)))
    cells = parts.table.column(column).to_pylist()
    assert len(cells) == 5 and all(c and c != "—" for c in cells)
    records = board_records(board)
    for record, cell in zip(records, cells):
        low, high = record["rank_low"], record["rank_high"]
        assert 1 <= low <= high <= 5  # a rank set within the 5 attempts (bootstrap of the paired outcome)
        assert cell == (integer(low) if low == high else f"{integer(low)}–{integer(high)}")
    assert column == {"fr": "Rang (ensemble à 95 %)", "en": "Rank (95% set)"}[lang]
    help_text = rank_column_help(board)[column]["help"]
    assert t("room.unit.query") in help_text and {"fr": "marginal", "en": "marginal"}[lang] in help_text


def test_a_possible_best_has_rank_one_in_its_set_on_the_board():
    rng = np.random.default_rng(3)
    for skills in ([0.8] * 8, [0.95, 0.9, 0.6, 0.6, 0.5, 0.3]):
        attempts = [SimpleNamespace(number=i + 1, participant=f"P{i + 1}",
                                    payload=trigger_payload(list(rng.random(40) < p), [True] * 4))
                    for i, p in enumerate(skills)]
        board = build_board(attempts)
        possible = {board.ranks.numbers[i] for i in board.ranks.possible_best}
        for row in board.rows:
            cell = rank_cell(board, row.number)[next(iter(rank_cell(board, row.number)))]
            assert (row.number in possible) == (cell.split("–")[0] == "1") == (
                rank_record(board, row.number)["rank_low"] == 1)


def test_the_held_out_download_carries_the_curse_figures():
    rng = np.random.default_rng(2)
    attempts = [SimpleNamespace(number=i, participant=f"P{i}",
                                payload=trigger_payload(list(rng.random(20) < 0.7), list(rng.random(6) < 0.7)))
                for i in range(1, 8)]
    board = build_board(attempts)
    records = curse_records(board)
    assert [r["luck_inflation"] for r in records] == [c.inflation for c in board.curse]
    assert [r["held_out_detectable_drop"] for r in records] == [c.detectable for c in board.curse]
    assert records[0]["luck_reading"] == board.curse[0].luck.code
    assert [(r["estimate"], r["estimate_low"], r["estimate_high"], r["others_mean"]) for r in records] == [
        (c.estimate, c.low, c.high, c.others) for c in board.curse]

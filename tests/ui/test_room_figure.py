"""The figure texts shared by a page's room box and the board (ui/room/figure.py) and the board's model
scope readings (evallib.room.models), in French and English, from the values evallib returns."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import streamlit as st

from evallib.room import models as models_module
from evallib.room.figures import Figure, attempt_figures
from evallib.room.models import model_boards
from tests.evallib.room.conftest import trigger_payload
from tests.ui.test_room_texts import _codes
from ui.i18n import LANGUAGE_KEY, catalogue, integer, interval, number
from ui.room.board import kind_parts, say
from ui.room.figure import basis, figure_text, page_line


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def test_every_scope_reading_has_a_text_in_both_languages():
    codes = _codes(models_module, "scope")
    assert codes == {"scope_within_model", "scope_model_unknown", "scope_mixed"}
    assert sorted(c for c in codes if f"room.reading.{c}" not in catalogue()) == []


@pytest.mark.parametrize("figure, fr, en", [
    (Figure(0.9, 0.8, 0.95, 60, 54, "query", 30, "decision"), "54/60 décisions justes sur 30 requêtes",
     "54/60 right decisions over 30 queries"),
    (Figure(0.8, 0.01, 1.0, 6, 5, "probe", 1, "response"), "5/6 réponses reconnues sur 1 sonde",
     "5/6 answers recognised over 1 probe"),
    (Figure(0.4, 0.1, 0.8, 8, None, "case", 8, "case"), "8 cas", "8 cases"),
    (Figure(1.0, 0.2, 1.0, 1, 1, "query", 1, "item"), "1/1 élément juste sur 1 requête", "1/1 right item over 1 query"),
])
def test_a_figure_names_its_counts_and_unit(lang, figure, fr, en):
    assert basis(figure) == (fr if lang == "fr" else en)
    assert figure_text(figure) == f"{number(figure.value)} {interval(figure.low, figure.high)}, {basis(figure)}"


def test_an_undefined_figure_says_so(lang):
    undefined = Figure(None, None, None, 0)
    assert basis(undefined) == "—" and figure_text(undefined) == catalogue()["format.undefined"][lang]


def test_the_page_line_names_both_parts(lang):
    payload = trigger_payload([True, True, False], [True])
    line = page_line(payload)
    figures = attempt_figures(payload)
    assert figure_text(figures["visible"]) in line and figure_text(figures["held_out"]) in line
    assert "⟦" not in line and "{" not in line


def test_the_board_table_and_scope_use_the_same_texts(lang):
    room = [SimpleNamespace(number=i, participant=f"P{i}", payload=trigger_payload([True] * i + [False]))
            for i in (1, 2)]
    room[1].payload["provenance"]["model"] = "other"
    for mixed in (False, True):
        for board in model_boards(room, mixed=mixed):
            parts = kind_parts(board.kind, board)
            shown = say(board.scope)
            assert "⟦" not in shown and "{" not in shown and shown in parts.reading
            assert all(model in shown for model in board.models)
            table = parts.table.to_pylist()
            for row, cells in zip(board.rows, table):
                values = list(cells.values())
                assert basis(row.accuracy) in values and number(row.accuracy.value) in values
                assert row.model in values and integer(row.rank) in values

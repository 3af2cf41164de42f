"""One figure per row, as worded (docs/room.md#page-board): on boards of every kind, every decimal number
the board writes in the winner's curse sentence, a held-out reading cell and the sentence on who could be
best is the row's figure (or a value computed from the rows: the lead, the drop, the difference of the top
two, the others' mean) or one of the estimates the sentence names (the true score estimated after
selection, its interval and floor, what luck adds, the smallest detectable drop); the
held-out column is the attempt's held-out figure, with no interval where it rests on too few units."""

from __future__ import annotations

import re

import numpy as np
import pytest
import streamlit as st

from evallib.room.board import held_out_too_small
from evallib.room.figures import attempt_figure
from evallib.room.figures import UNITS
from tests.evallib.room.row_boards import KINDS, ROOMS, boards
from ui.i18n import LANGUAGE_KEY, number, t
from ui.room.board import kind_parts, say, say_plain
from ui.room.figure import figure_text, page_line

#: A decimal number as `ui.i18n.number` writes it ("0,93" in French, "0.93" in English; "761,110" is an
#: English integer).
DECIMAL = {"fr": re.compile(r"-?\d+,\d+"), "en": re.compile(r"-?\d+\.\d+")}
#: The estimates a sentence may name beside the rows' figures (not a figure of any row).
ESTIMATES = ("inflation", "estimate", "low", "high", "bound", "detectable")


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def _decimals(text: str) -> set[str]:
    return set(DECIMAL[st.session_state[LANGUAGE_KEY]].findall(text.replace("\u2212", "-")))


def _unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _written(*values) -> set[str]:
    return {number(v).replace("\u2212", "-") for v in values if v is not None}


@pytest.mark.parametrize("name", ROOMS)
def test_every_number_a_sentence_quotes_is_the_row_s(lang, name):
    board, entries = boards()[name]
    rows = {r.number: r.accuracy.value for r in board.rows}
    mean = float(np.mean(list(rows.values())))
    by_number = {e.number: e for e in entries}
    for check, row in zip(board.curse, board.winners_curse):
        visible = rows[row.number]
        held = attempt_figure(by_number[row.number].payload, "held_out").value
        others = float(np.mean([v for n, v in rows.items() if n != row.number])) if len(rows) > 1 else None
        from_rows = _written(visible, held, None if held is None else visible - held, visible - mean, others)
        estimates = _written(*(check.reading.values.get(k) for k in ESTIMATES),
                             *(check.luck.values.get(k) for k in ESTIMATES))
        luck, cell = say(check.luck), say_plain(row.reading)
        assert number(visible) in luck and number(visible) in cell, (luck, cell)
        if held is not None:
            assert number(held) in cell, cell
        for text in (luck, cell):
            assert _decimals(text) <= from_rows | estimates, (name, text, from_rows, estimates)
    reading = board.ranks.reading
    shown = say(reading)
    allowed = _written(*(rows[a] - rows[b] for a in rows for b in rows))
    assert _decimals(shown) <= allowed, (name, shown)


@pytest.mark.parametrize("name", ROOMS)
def test_the_held_out_column_is_the_attempt_s_held_out_figure(lang, name):
    board, entries = boards()[name]
    parts = kind_parts(board.kind, board)
    # the table's cells as drawn (Markdown-escaped by ui.tables.prepared_table), unescaped
    names = [_unescaped(n) for n in parts.curse.column_names]
    column = [_unescaped(c) for c in parts.curse.column(names.index(t("room.col.held_out"))).to_pylist()]
    by_number = {e.number: e for e in entries}
    for cell, row in zip(column, board.winners_curse):
        figure = attempt_figure(by_number[row.number].payload, "held_out")
        small = held_out_too_small(board.kind, figure)
        assert cell == figure_text(figure, checked=not small)
        assert (board.kind == "persona") == small, name  # one held-out probe of six
        if small:
            assert "[" not in cell and number(figure.value) in cell  # a number, no pseudo-interval
            assert "[" not in page_line(by_number[row.number].payload).split(";")[-1]


def test_too_few_probes_is_said_with_the_values_it_rests_on(lang):
    board, _ = boards()["persona"]
    for row in board.winners_curse:
        cell = say_plain(row.reading)
        values = row.reading.values
        assert row.reading.code == "curse_heldout_too_few"
        assert number(values["detectable"]) in cell and number(values["held_out"]) in cell
        words = {"fr": ("1 sonde", "5 sondes", "trop peu"), "en": ("1 probe", "5 probes", "too few")}[lang]
        assert all(w in cell for w in words), cell
        assert "⟦" not in cell and "{" not in cell and "[" not in cell


def test_every_kind_names_the_measure_its_curse_and_ranks_read(lang):
    """The caption under the winner's curse says what the matrix holds: the row's figure, per unit; a kind
    without its text showed the key in brackets (judge_code did)."""
    for kind in KINDS:
        text = t(f"room.uncertainty.measure.{kind}")
        assert "⟦" not in text and t(f"room.unit.{UNITS[kind]}") in text, (kind, text)


def test_the_persona_page_names_the_held_out_probes_the_rule_chose(lang):
    """One probe of six (too few, said so) or a catalogue's last quarter (workshop packs): both worded."""
    from evallib.room.persona_attempt import held_out_probes

    one = t("persona.room_held_out", probe="6", n="6", visible="5")
    held = held_out_probes(20)
    many = t("persona.room_held_out_many", first=str(held[0] + 1), last=str(held[-1] + 1), held=str(len(held)),
             n="20", visible="15")
    assert {"fr": "trop peu", "en": "too few"}[lang] in one
    assert "16" in many and "20" in many and "15" in many
    for text in (one, many):
        assert "⟦" not in text and "{" not in text

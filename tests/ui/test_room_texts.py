"""Every reading of the board (evallib.room.board) and of the kappa rated by the room
(evallib.room.ratings) is worded in French and English by the Room page, from the values evallib
returns; the codes are read from evallib's source so that a new code without a text fails here."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import streamlit as st

from evallib.room import board as board_module, ranks as ranks_module, ratings as ratings_module
from evallib.room import winners_curse as curse_module
from evallib.room.board import build_board
from evallib.room.ratings import room_agreement
from tests.evallib.room.conftest import trigger_payload
from ui.i18n import LANGUAGE_KEY, catalogue, integer, number, percent
from ui.room.board import say, say_plain

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def attempts(*outcomes):
    """Attempts (number, participant, payload) from (visible, held-out) outcome lists."""
    return [SimpleNamespace(number=i, participant=f"P{i}", payload=trigger_payload(list(v), list(h)))
            for i, (v, h) in enumerate(outcomes, start=1)]


def boards():
    many = [True] * 28 + [False] * 2
    return [build_board([]), build_board(attempts(([None, None], []))), build_board(attempts((many, []))),
            build_board(attempts((many, [True] * 20), ([True] * 5 + [False] * 25, [False] * 2))),
            build_board(attempts(([True, True, False], [True]), ([True, False, False], [False]))),
            build_board(attempts(([True] * 15 + [False] * 15, [False] * 20), ([True] * 16 + [False] * 14, [True] * 20),
                                 ([True] * 14 + [False] * 16, [True] * 10 + [False] * 10)))]


def rating(name, item, label):
    return SimpleNamespace(participant=name, item_id=item, label=label)


def agreements():
    same = [rating(n, i, "pass") for n in "ABC" for i in "xyz"]
    outlier = [rating(n, i, "pass" if n != "C" or i == "z" else "fail") for n in "ABCD" for i in "xyz"]
    tie = [rating(n, i, "fail" if (n, i) in (("A", "x"), ("B", "y")) else "pass") for n in "ABCD" for i in "xyz"]
    return [room_agreement([], ["x"], n_boot=50), room_agreement([rating("A", "x", "pass")], n_boot=50),
            room_agreement(same, n_boot=50), room_agreement(outlier, n_boot=50), room_agreement(tie, n_boot=50)]


def _codes(module, prefix: str) -> set[str]:
    """Reading codes: ``Reading("<prefix>_...")`` or a code chosen before one (``code = "<prefix>_..."``)."""
    source = Path(module.__file__).read_text(encoding="utf-8")
    return set(re.findall(rf'(?:Reading\(|code = |else |\()"({prefix}_[a-z_]+)"', source))


def test_every_reading_code_of_evallib_has_a_text_in_both_languages():
    codes = (_codes(board_module, "board") | _codes(curse_module, "curse") | _codes(ranks_module, "ranks")
             | _codes(ratings_module, "room"))
    assert {"board_too_few_items", "curse_heldout_too_small", "ranks_best_among", "room_majority_outlier"} <= codes
    known = catalogue()
    assert sorted(c for c in codes if f"room.reading.{c}" not in known) == []


def test_each_reading_is_worded_from_its_values(lang):
    found = boards()
    codes = {b.reading.code for b in found} | {c.reading.code for b in found for c in b.winners_curse}
    agreed = agreements()
    codes |= {r.code for a in agreed for r in a.readings}
    wanted = _codes(board_module, "board") | _codes(ratings_module, "room")  # curse_, ranks_: test_board_uncertainty
    assert wanted <= codes, wanted - codes
    for board in found:
        shown = say(board.reading)
        assert "⟦" not in shown and "{" not in shown and "None" not in shown, shown
        if "best" in board.reading.values:
            assert integer(board.reading.values["best"]) in shown or board.reading.code == "board_no_items"
        for row in board.winners_curse:
            cell = say_plain(row.reading)
            assert "⟦" not in cell and "{" not in cell
            assert number(row.reading.values["visible"]) in cell
    for agreement in agreed:
        for reading in agreement.readings:
            shown = say(reading)
            assert "⟦" not in shown and "{" not in shown, shown
            if reading.code in ("room_majority_outlier", "room_majority_tie"):
                assert percent(reading.values["share"]) in shown
                assert all(name in shown for name in reading.values["participants"])


def test_every_reason_a_coefficient_waits_is_worded():
    """Why Fleiss' kappa or Krippendorff's alpha is not shown yet: each note evallib gives has its text."""
    notes = {c.note for a in agreements() for c in (a.fleiss, a.alpha) if c.value is None}
    assert {"too_few_raters", "no_variation"} <= notes
    assert sorted(n for n in notes if f"room.note.{n}" not in catalogue()) == []


#: A count placeholder right before a plural noun or adjective: "{n} essais" reads "1 essais" for one.
COUNT_THEN_PLURAL = re.compile(r"\{(?:n|tied|raters|items|pairs|compared|disagreements|pairable_items|"
                               r"complete_items|shown|hidden)\} (?:essais|participants|réponses|éléments|paires|"
                               r"visibles|masqués|attempts|answers|items|pairs)\b")


def test_room_texts_put_no_count_before_a_plural_noun_outside_a_plural_message():
    """Brackets are caught for every text (tests/ui/test_i18n.py); here, "{n} essais" in a text that no count
    chooses (a plural message's forms are chosen by ngettext)."""
    bad = [(key, lang, text) for key, texts in catalogue().items() if key.startswith(("room.", "room_submit.", "room_endpoint."))
           for lang, text in texts.items() if isinstance(text, str) and COUNT_THEN_PLURAL.search(text)]
    assert bad == []


def test_the_ratings_readings_agree_in_number_with_their_counts(lang):
    """"0 participant(s), 0 réponse(s)" is gone from the board (docs/room.md#ratings): each count reads
    "1 participant" / "2 participants", and the figures evallib counted are the ones shown."""
    for agreement in agreements():
        for reading in agreement.readings:
            if not reading.code.startswith("room_ratings_"):
                continue
            shown = say(reading)
            assert "(s)" not in shown, shown
            raters = reading.values["raters"]
            one = raters in (0, 1) if lang == "fr" else raters == 1
            assert f"{integer(raters)} participant{'' if one else 's'}" in shown, shown
            assert integer(reading.values["pairable_items"]) in shown, shown


def test_the_scope_sentence_names_the_model_in_full(lang):
    """"Attempts compared within model authored-example-light-…." cut the name the table beside it shows
    whole (docs/room.md#models): the sentence names it in full, still escaped."""
    from evallib.room.models import scope_reading
    from ui.labels import md

    name = "authored-example-light-router_v2*"
    shown = say(scope_reading([name, name], mixed=False))
    assert "…" not in shown and md(name, None) in shown, shown
    mixed = say(scope_reading([name, "gpt-4o-mini-2024-07-18-long-name"], mixed=True))
    assert "…" not in mixed and md("gpt-4o-mini-2024-07-18-long-name", None) in mixed, mixed

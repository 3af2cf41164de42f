"""Every reading of the exact paired tests, the bounds and blinding (judge) and of the Mantel size limit
(persona) is worded in French and English by the pages' own `say`, from the values evallib returns."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import streamlit as st

from evallib.judging.analyses import compare_templates
from evallib.judging.biases import blinding_summary, injection_effect, position_bias, verbosity_effect
from evallib.judging.grades import Verdict
from evallib.judging.pipeline import PaddedGrade, PairwiseComparison
from evallib.persona import rank_comparison, readings
from tests.evallib.judging.conftest import result, scored
from ui.i18n import LANGUAGE_KEY, p_value
from ui.judge import view as judge_view
from ui.persona import view as persona_view


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def ab(a_scores, b_scores):
    return compare_templates([result(str(i), scored(x)) for i, x in enumerate(a_scores)],
                             [result(str(i), scored(x)) for i, x in enumerate(b_scores)])[1]


def padded(pairs):
    return verbosity_effect([PaddedGrade(str(i), scored(o), scored(p), ()) for i, (o, p) in enumerate(pairs)], 10)[1]


def slots(first, second):
    both = [PairwiseComparison(f"f{i}", False, Verdict("scored", "first"), Verdict("scored", "first"))
            for i in range(first)]
    return position_bias(both + [PairwiseComparison(f"s{i}", False, Verdict("scored", "second"),
                                                    Verdict("scored", "second")) for i in range(second)])[1]


def judge_readings():
    injected = [result("a", scored(10), injection=("asks_for_score",), clean_grade=scored(10)),
                result("b", scored(0), injection=("asks_for_score",), clean_grade=scored(0))]
    return [*ab((6, 7), (8, 9)), *ab((), ()), *ab((5,) * 6, (7,) * 6), *ab((7,) * 6, (5,) * 6),
            *ab((5, 6, 5, 7, 6, 5, 6), (7, 5, 6, 9, 5, 7, 8)),
            *padded(((7, 8),) * 6), *padded(((7, 6),) * 6), *padded(((7, 8), (9, 8))), *padded(((10, 10),)),
            *padded(((0, 0),)), *padded(((10, 10), (5, 5), (4, 5), (3, 4), (6, 5), (2, 2), (7, 8))),
            *slots(2, 0), *slots(6, 0), *slots(0, 6), *slots(4, 3), *injection_effect(injected, 10)[1],
            *blinding_summary([replace(result("c", scored(9)), blinding_erased=True)])]


def test_every_new_judge_reading_is_worded_in_both_languages(lang):
    found = judge_readings()
    codes = {r.code for r in found}
    assert {"ab_too_few", "ab_equal_differences", "ab_no_pairs", "ab_b_better", "ab_a_better", "ab_cannot_tell",
            "verbosity_inflates", "verbosity_deflates", "verbosity_too_few", "verbosity_ceiling", "verbosity_floor",
            "verbosity_unclear", "verbosity_at_bound", "position_too_few", "position_favours_first",
            "position_favours_second", "position_cannot_tell", "injection_ceiling", "injection_floor",
            "blinding_removed", "blinding_erased"} <= codes
    for reading in found:
        shown = []
        judge_view.say(reading, show=shown.append)
        assert shown and "{" not in shown[0] and "None" not in shown[0], (reading.code, shown)
        if reading.code.endswith("_too_few"):   # the smallest p the size allows, not the p obtained
            assert p_value(reading.values["p_floor"]) in shown[0], (reading.code, shown)
        elif reading.code.endswith(("better", "flates", "unclear", "cannot_tell", "first", "second")):
            assert f"p = {p_value(reading.values['p'])}" in shown[0], (reading.code, shown)


def test_the_zero_width_interval_is_named_not_shown_as_a_range(lang):
    [reading, _] = ab((5,) * 6, (7,) * 6)
    assert reading.values["low"] == reading.values["high"] == 2.0
    shown = []
    judge_view.say(reading, show=shown.append)
    assert {"fr": "IC à 95\u00a0% de largeur nulle", "en": "95% CI of zero width"}[lang] in shown[0]
    assert "[2" not in shown[0]
    comparison = compare_templates([result(str(i), scored(5)) for i in range(6)],
                                   [result(str(i), scored(7)) for i in range(6)])[0]
    assert judge_view.paired_interval(comparison.test) == {"fr": "largeur nulle", "en": "zero width"}[lang]


def square():
    return np.array([[0, .1, .5, .9], [.1, 0, .9, .5], [.5, .9, 0, .1], [.9, .5, .1, 0]])


def test_every_new_persona_reading_is_worded_in_both_languages(lang):
    three = np.array([[0, .9, .5], [.9, 0, .2], [.5, .2, 0]])
    found = [*readings.ranks(rank_comparison(three, three, ["a", "b", "c"])),
             *readings.ranks(rank_comparison(three, three[::-1, ::-1], ["a", "b", "c"])),
             *readings.ranks(rank_comparison(square(), square(), list("abcd")))]
    assert [r.code for r in found][:1] == ["ranks_agree_too_few"]
    assert {"ranks_agree_too_few", "mantel_too_few", "ranks_agree_not_shown"} <= {r.code for r in found}
    for reading in found:
        shown = []
        persona_view.say("persona.ranks", reading, show=shown.append)
        assert shown and "{" not in shown[0], (reading.code, shown)

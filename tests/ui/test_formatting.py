"""One number formatter (ui/i18n.py), labels as data (ui/labels.py) and the shared figure builders (ui/figures.py)."""

from __future__ import annotations

import pytest
import streamlit as st

from ui import figures
from ui.i18n import LANGUAGE_KEY, integer, interval, number, p_value, percent, plural, signed, t
from ui.labels import md, name_list, plain, shorten


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


EXPECTED = {
    "fr": {"number": "0,64", "negative": "−0,12", "zero": "0,00", "integer": "250\u202f000", "percent": "67\u00a0%",
           "hundred": "100\u00a0%", "signed": ("+0,12", "−0,12"), "interval": "[−0,10\u00a0;\u00a00,04]",
           "p": "< 0,001", "undefined": "non défini", "plural": ("1 jour", "0 jour", "2 jours"),
           "many": "250\u202f000 jours"},
    "en": {"number": "0.64", "negative": "−0.12", "zero": "0.00", "integer": "250,000", "percent": "67%",
           "hundred": "100%", "signed": ("+0.12", "−0.12"), "interval": "[−0.10,\u00a00.04]",
           "p": "< 0.001", "undefined": "undefined", "plural": ("1 day", "0 days", "2 days"),
           "many": "250,000 days"},
}


def test_numbers_in_the_sessions_language(lang):
    expected = EXPECTED[lang]
    assert number(0.6412) == expected["number"]
    assert number(-0.1234) == expected["negative"]  # the minus sign, never a hyphen
    assert number(-0.0001) == expected["zero"]      # no "−0,00"
    assert integer(250_000) == expected["integer"]
    assert percent(2 / 3) == expected["percent"] and percent(1.0) == expected["hundred"]
    assert (signed(0.12), signed(-0.12)) == expected["signed"]
    assert interval(-0.1, 0.04) == expected["interval"]
    assert p_value(0.0001) == expected["p"]
    assert number(None) == expected["undefined"] and number(float("nan")) == expected["undefined"]
    assert interval(None, 1.0) == expected["undefined"]


def test_a_signed_spec_keeps_the_hyphen_that_st_metric_reads_for_its_delta(lang):
    assert number(-0.25, "+.2f").startswith("-")


def test_plurals_follow_each_languages_rule(lang):
    """``ngettext`` by the catalogue's Plural-Forms: French says "0 jour", English "0 days"."""
    assert (plural("gnss.gap_days", 1), plural("gnss.gap_days", 0), plural("gnss.gap_days", 2)) == EXPECTED[lang]["plural"]
    assert plural("gnss.gap_days", 250_000) == EXPECTED[lang]["many"]  # the count written as `integer` writes it


@pytest.mark.parametrize("label", ["[link](http://x)", "**bold**", "$x^2$", "<b>x</b>", "a_b_c", "# title"])
def test_labels_are_escaped_for_markdown(label):
    escaped = md(label)
    assert all(f"\\{char}" in escaped for char in "[]()*$<>_#" if char in label)
    assert escaped.replace("\\", "") == label


def test_labels_are_escaped_for_plotly_and_shortened():
    assert plain("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"
    assert shorten("x" * 40, 10) == "x" * 9 + "…" and shorten("a\nb") == "a b"
    assert md("y" * 40).endswith("…")


def test_long_lists_of_names_are_capped(lang):
    names = [f"rater_{i}" for i in range(5000)]
    text = name_list(names)
    assert text.count("rater") == 6 and ("4\u202f994 autres" in text if lang == "fr" else "4,994 more" in text)
    assert name_list(["a", "b"]) == "a, b"


def test_heatmap_escapes_and_shortens_labels_and_keeps_them_whole_on_hover(lang):
    fig = figures.heatmap([[1, 0], [0, 1]], ["<b>x</b>", "a very long label indeed"], ["<b>x</b>", "y"],
                          title="t", label_chars=12)
    trace = fig.data[0]
    assert list(trace.x) == ["&lt;b&gt;x&lt;/b&gt;", "a very long…"]  # cut before escaping
    assert trace.customdata[0][1][1] == "a very long label indeed"


def test_grouped_bars_label_bars_apart_and_escape_names(lang):
    fig = figures.grouped_bars([0.0, 1.0], [("<i>A</i>", [0.5, 0.5]), ("B", [0.2, 0.8])], title="t",
                               texts=[["50 %", "50 %"], ["20 %", "80 %"]])
    assert list(fig.data[0].x) == ["0", "1"] and fig.data[0].name == "&lt;i&gt;A&lt;/i&gt;"
    assert fig.layout.bargap >= 0.2 and fig.layout.bargroupgap > 0


def test_numeric_axis_labels_keep_their_leading_digits():
    assert figures.axis_labels([1.23456789e20, 2.0]) == ["1.2346e+20", "2"]


def test_proportion_axes_write_percentages_as_the_sentences_do(lang):
    # Plotly's ".0%" wrote "100%" on the French page beside "67 %" in the bar labels.
    fig = figures.grouped_bars(["a"], [("A", [0.67])], title="t", texts=[[percent(0.67)]])
    assert list(fig.layout.yaxis.ticktext)[-1] == percent(1.0) == ("100\u00a0%" if lang == "fr" else "100%")


def test_a_negative_float_in_a_sentence_gets_the_minus_sign(lang):
    # "ρ = -0,12" on the persona page: floats placed by t() with a format of their own.
    text = t("persona.ranks.mantel_exact", changed=14, n=15, rho=-0.12, p="0,680", n_perm=720)
    assert "\u22120" in text and "= -0" not in text


def test_a_float_placed_in_a_text_without_a_spec_reads_as_python_writes_it(lang):
    """``{temperature}`` of 0.0 reads "0,0" in French, as ``str(0.0)`` writes it; an exponent keeps its minus sign."""
    mark = {"fr": ",", "en": "."}[lang]
    assert number(0.0, "") == f"0{mark}0" and number(0.7, "") == f"0{mark}7"
    assert number(1.5e-7, "") == f"1{mark}5e−07" and number(123456789.0, ".6g") == f"1{mark}23457e+08"

"""AppTest runs of the Kappa page: presets, edge cases and broken CSV files, in French and English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evallib import agreement as ag
from evallib.runs.kappa.bundle import CI_METHODS
from ui.i18n import catalogue
NBSP = "\u00a0"

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGUAGES = ("fr", "en")
MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def text(key: str, lang: str) -> str:
    """The catalogue's text, with plain spaces (see ``plain``); a plural message's forms joined by a space."""
    found = catalogue()[key][lang]
    return plain(" ".join(found) if isinstance(found, tuple) else found)


def plain(shown: str) -> str:
    """Text as a reader sees it, for comparisons: no-break spaces (French typography, intervals,
    thousands) as plain spaces and Markdown escapes removed (labels are escaped, see ``ui.labels``);
    ``test_french_punctuation_never_starts_a_line`` checks the no-break spaces themselves."""
    return MARKDOWN_ESCAPE.sub(r"\1", shown.replace(NBSP, " ").replace("\u202f", " "))


def values(elements) -> list[str]:
    return [plain(element.value) for element in elements]


def open_page(lang: str = "fr") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("pages/kappa.py").run()
    assert not at.exception
    return at


def metric(at: AppTest, key: str, lang: str, **values: str) -> str:
    """Value of the first metric whose label is the text of ``key`` (formatted with ``values``)."""
    label = text(key, lang).format(**values)
    found = [plain(m.value) for m in at.metric if plain(m.label) == label]
    assert found, f"no metric labelled {label!r}; labels: {[m.label for m in at.metric]}"
    return found[0]


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [e.value for kind in (at.error, at.warning, at.info) for e in kind]
    return plain("\n".join(parts))


def no_nan(at: AppTest) -> bool:
    """No figure on the page reads nan or inf."""
    return not re.search(r"\b(nan|inf|infinity)\b", page_text(at), re.IGNORECASE)


def metric_widths(at: AppTest) -> dict[str, float]:
    """Each metric's label and the share of the page width its column gets (nested columns multiply)."""
    widths = {}

    def walk(node, share: float) -> None:
        kind = getattr(node, "type", "")
        if kind == "column":
            share *= node.proto.weight
        if kind == "metric":
            widths.setdefault(node.label, share)
        for child in (node.children.values() if isinstance(getattr(node, "children", None), dict) else ()):
            walk(child, share)

    walk(at.main, 1.0)
    return widths


def chart_axes(at: AppTest) -> list[list[str]]:
    return [json.loads(chart.proto.spec)["data"][0]["x"] for chart in at.get("plotly_chart")]


def type_ratings(at: AppTest, first: str, second: str) -> AppTest:
    at.text_area(key="kappa_r1").set_value(first)
    at.text_area(key="kappa_r2").set_value(second).run()
    assert not at.exception
    return at


#: Values offered by each translated radio of the page, in order (see ``ui.widgets.translated_choice``).
RADIO_OPTIONS = {"kappa_source": ("typed", "csv"), "kappa_weights": ag.WEIGHTINGS,
                 "kappa_ci": CI_METHODS, "kappa_level": ag.LEVELS}


class radio:
    """The page's radio ``name`` by value: its widget chooses among positions, keyed per language."""

    def __init__(self, at: AppTest, name: str) -> None:
        self.at, self.name = at, name
        self.widget = at.radio(key=f"_{name}_{at.session_state['lang']}")

    def set_value(self, value):
        return self.widget.set_value(RADIO_OPTIONS[self.name].index(value))

    @property
    def value(self):
        return RADIO_OPTIONS[self.name][self.widget.value]


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    radio(at, "kappa_source").set_value("csv").run()
    at.file_uploader(key="kappa_csv").set_value((name, data, "text/csv")).run()
    assert not at.exception
    return at


FIGURES = {
    # lang: (rubric agreement, rubric kappa, lenient agreement, lenient kappa)
    "fr": ("83 %", "0,63", "92 %", "0,00"),
    "en": ("83%", "0.63", "92%", "0.00"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_opens_on_the_seed_rubric_pair(lang):
    at = open_page(lang)
    assert plain(at.title[0].value) == text("kappa.title", lang)
    agreement, kappa, _, _ = FIGURES[lang]
    assert metric(at, "kappa.metric.agreement", lang) == agreement
    assert metric(at, "kappa.metric.kappa_plain", lang) == kappa
    assert metric(at, "kappa.metric.p_e", lang) == ("0,56" if lang == "fr" else "0.56")
    # The default interval is the small-sample one: Donner & Eliasziw's on two labels (doctest of
    # evallib.agreement.small_sample), beside the analytic one a click away.
    assert metric(at, "kappa.metric.ci_small_sample", lang) == ("[0,05 ; 0,89]" if lang == "fr" else "[0.05, 0.89]")
    assert text("kappa.ci_small.goodness_of_fit", lang).split("{n}")[0] in page_text(at)
    radio(at, "kappa_ci").set_value("analytic").run()
    assert metric(at, "kappa.metric.ci_analytic", lang) == ("[0,16 ; 1,00]" if lang == "fr" else "[0.16, 1.00]")
    assert metric(at, "kappa.metric.items_needed", lang, half="0,1" if lang == "fr" else "0.1") == "266"
    shown = page_text(at)
    assert text("kappa.band.landis_koch.substantial", lang) in shown
    assert text("kappa.preset.rubric_pair.source", lang) in shown
    assert no_nan(at)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lenient_preset_shows_the_paradox(lang):
    at = open_page(lang)
    at.button(key="kappa_preset_lenient_pair").click().run()
    assert not at.exception
    _, _, agreement, kappa = FIGURES[lang]
    assert metric(at, "kappa.metric.agreement", lang) == agreement
    assert metric(at, "kappa.metric.kappa_plain", lang) == kappa
    assert metric(at, "kappa.metric.ac1", lang) == ("0,91" if lang == "fr" else "0.91")
    assert metric(at, "kappa.metric.prevalence", lang) == ("0,92" if lang == "fr" else "0.92")
    assert [plain(m.value) for m in at.metric if m.label == "PABAK"] == ["0,83" if lang == "fr" else "0.83"]
    infos = " ".join(values(at.info))
    assert ("par construction" if lang == "fr" else "by construction") in infos
    assert ("p_e = p_o = 0,92" if lang == "fr" else "p_e = p_o = 0.92") in infos
    high_prevalence = "Prévalence élevée (0,92)" if lang == "fr" else "High prevalence (0.92)"
    assert any(high_prevalence in md for md in values(at.markdown))


def test_judge_scores_with_quadratic_weights_and_bootstrap():
    at = open_page("en")
    at.button(key="kappa_preset_judge_scores").click().run()
    radio(at, "kappa_weights").set_value("quadratic").run()
    radio(at, "kappa_ci").set_value("bootstrap").run()
    assert not at.exception
    assert metric(at, "kappa.metric.kappa_quadratic", "en") == "0.91"
    assert metric(at, "kappa.metric.kappa_plain", "en") == "0.24"
    assert metric(at, "kappa.metric.ci_bootstrap", "en").startswith("[0.7")
    labels = [m.label for m in at.metric]
    start = labels.index(text("kappa.metric.kappa_linear", "en")) - 1  # the three side by side
    assert labels[start:start + 3] == [text(f"kappa.metric.kappa_{w}", "en") for w in ("plain", "linear", "quadratic")]
    assert values(at.metric)[start:start + 3] == ["0.24", "0.71", "0.91"]
    # One interval per kappa: the analytic ones only in the expander that names them, not beside the default.
    assert not any(c.startswith("95% CI (analytic)") for c in values(at.caption))
    expander, = [e for e in at.expander if e.label == text("kappa.weighted_analytic", "en")]
    assert f"{text('kappa.metric.kappa_linear', 'en')}: [0.58, 0.84]" in values(expander.markdown)
    radio(at, "kappa_ci").set_value("analytic").run()
    assert "95% CI (analytic): [0.58, 0.84]" in values(at.caption)
    assert not [e for e in at.expander if e.label == text("kappa.weighted_analytic", "en")]


def test_choices_survive_a_language_switch():
    at = open_page("fr")
    radio(at, "kappa_weights").set_value("linear").run()
    radio(at, "kappa_ci").set_value("bootstrap").run()
    at.session_state["lang"] = "en"
    at.run()
    assert radio(at, "kappa_weights").value == "linear" and radio(at, "kappa_ci").value == "bootstrap"
    assert metric(at, "kappa.metric.kappa_linear", "en") == "0.63"
    at.session_state["lang"] = "fr"
    at.run()
    assert radio(at, "kappa_weights").value == "linear"
    assert metric(at, "kappa.metric.ci_bootstrap", "fr") == "[0,00 ; 1,00]"


def test_see_the_code_shows_the_kappa_function():
    at = open_page("fr")
    assert "def cohen_kappa(" in at.code[0].value
    assert "def pair_table(" in at.code[1].value and "np.bincount" in at.code[1].value
    assert "pd.factorize" in at.code[2].value
    assert "def kappa_from_table(" in at.code[3].value
    assert "(p_o - p_e) / (1 - p_e)" in at.code[4].value


@pytest.mark.parametrize(("first", "second", "kind", "fragment"), [
    ("1, 0, 1", "1, 0", "error", "3 étiquettes pour le premier évaluateur, 2 pour le second"),
    ("", "", "info", "Saisissez ou collez"),
    ("1", "0", "error", "Un seul item"),
    ("1, , 0", ", 1, ,", "error", "Aucun des 3 items"),
    ("1, 1, 1, 1", "1, 1, 1, 1", "warning", "p_e = 1"),
    ("oui, non, oui", "non, non, non", "info", "κ = 0 par construction"),
])
def test_edge_cases_show_a_plain_message(first, second, kind, fragment):
    at = type_ratings(open_page("fr"), first, second)
    messages = " ".join(values(getattr(at, kind)))
    assert fragment in messages
    assert no_nan(at)


# ----------------------------------------------------------------------------- the tester's reports

EXTREME = ("1e308, -1e308, 0, 5", "1e308, 0, 0, 5")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("weights", ag.WEIGHTINGS)
def test_extreme_numbers_give_figures_not_nan(lang, weights):
    # Reported: quadratic weighting showed "nan" everywhere, read "κ = nan: almost perfect" and crashed
    # in items_for_half_width (cannot convert float NaN to integer).
    at = type_ratings(open_page(lang), *EXTREME)
    radio(at, "kappa_weights").set_value(weights).run()
    assert not at.exception and not at.error
    kappa = metric(at, f"kappa.metric.kappa_{weights or 'plain'}", lang)
    expected = {None: "0,67", "linear": "0,60", "quadratic": "0,67"}[weights]
    assert kappa == (expected if lang == "fr" else expected.replace(",", "."))
    assert metric(at, "kappa.metric.items_needed", lang, half="0,1" if lang == "fr" else "0.1").isdigit()
    assert f"κ = {kappa}" in page_text(at)  # the reading, with a band for a real number
    assert no_nan(at)
    for level in ag.LEVELS:
        radio(at, "kappa_level").set_value(level).run()
        assert not at.exception and no_nan(at)
    # Interval alpha would need squared gaps of 4e616: a plain message naming the labels, no figure.
    assert values(at.error) == [text("kappa.error.not_finite", lang).format(low="-1e+308", high="1e+308")]
    assert metric(at, "kappa.metric.fleiss", lang) == ("0,65" if lang == "fr" else "0.65")


def test_huge_labels_are_shortened_on_the_chart_axes_and_whole_on_hover():
    huge, text_label = "1" + "0" * 40, "1" + "0" * 400   # the second overflows a float: a text label
    at = type_ratings(open_page("fr"), f"{huge}; 2; 3; {text_label}", f"{huge}; 3; 2; {text_label}")
    assert not at.exception
    for axis in chart_axes(at):
        assert axis == ["10000000000…", "1e+40", "2", "3"]  # one label is text, so all sort as text
    heatmap = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    assert heatmap["customdata"][0][0] == [text_label, text_label]


def test_labels_cut_to_the_same_text_stay_apart_on_the_axes():
    first, second = "réponse trop longue A", "réponse trop longue B"
    at = type_ratings(open_page("fr"), f"{first}; {second}; {first}", f"{first}; {second}; {second}")
    for axis in chart_axes(at):
        assert axis == ["réponse tro… (1)", "réponse tro… (2)"]


@pytest.mark.parametrize("preset", [p.key for p in ag.PRESETS])
def test_every_metric_gets_a_third_of_the_width_at_least(preset):
    # Reported: at 1280 x 720 with the sidebar open, "[0,16 ; 1…", "p_e, accord dû au h…" and
    # "α de Krippendorff (nom…" were cut off in rows of five metrics.
    at = open_page("fr")
    at.button(key=f"kappa_preset_{preset}").click().run()
    radio(at, "kappa_weights").set_value("quadratic" if preset == "judge_scores" else None).run()
    widths = metric_widths(at)
    assert len(widths) >= 8
    assert min(widths.values()) >= 0.33, widths
    radio(at, "kappa_source").set_value("csv").run()
    at.button(key="kappa_csv_example").click().run()
    widths = metric_widths(at)
    assert widths[text("kappa.metric.fleiss", "fr")] >= 0.33 and min(widths.values()) >= 0.33, widths


@pytest.mark.parametrize(("first", "second", "count"), [
    ("1\t0\t1\t1", "1\t1\t1\t0", 4),           # a row copied from a spreadsheet
    ("1;0;1;1", "1;1;1;0", 4),
    ("1, 0, 1, 1,", "1, 1, 1, 0", 4),               # a trailing comma adds no item
])
def test_tabs_and_semicolons_separate_and_a_trailing_comma_is_ignored(first, second, count):
    at = type_ratings(open_page("fr"), first, second)
    assert values(at.caption[:2]) == [f"Étiquettes : {count}"] * 2
    assert not at.error and not at.info
    assert metric(at, "kappa.metric.agreement", "fr") == "50 %"


def test_decimal_commas_survive_a_pasted_spreadsheet_row():
    at = type_ratings(open_page("fr"), "7,5\t8\t6,5\t9", "7,5\t8\t7\t9")
    assert values(at.caption[:2]) == ["Étiquettes : 4"] * 2
    radio(at, "kappa_weights").set_value("linear").run()
    assert not at.error and metric(at, "kappa.metric.agreement", "fr") == "75 %"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_typed_help_names_the_separators(lang):
    at = open_page(lang)
    help_text = at.text_area(key="kappa_r1").help
    words = ("virgules", "points-virgules", "tabulations") if lang == "fr" else ("commas", "semicolons", "tabs")
    assert all(word in help_text for word in words)


@pytest.mark.parametrize(("n", "small"), [(12, True), (49, True), (50, False), (10_000, False)])
def test_interval_note_depends_on_the_number_of_items(n, small):
    first = ", ".join(str(i % 3) for i in range(n))
    second = ", ".join(str((i % 3) if i % 5 else (i + 1) % 3) for i in range(n))
    at = type_ratings(open_page("fr"), first, second)
    radio(at, "kappa_ci").set_value("analytic").run()
    notes = " ".join(values(at.caption))
    written = f"{n:,}".replace(",", " ")  # French thousands separator, as `plain` shows it
    rough = text("kappa.ci_size.small", "fr").format(n=written)
    reliable = text("kappa.ci_size.large", "fr").format(n=written)
    assert (rough in notes, reliable in notes) == (small, not small)
    assert "grossière" not in notes or small


def test_large_sample_does_not_say_so_few_items_when_the_interval_is_already_narrow():
    at = type_ratings(open_page("en"), ", ".join(["1, 0"] * 500), ", ".join(["1, 0"] * 499 + ["1, 1"]))
    shown = page_text(at)
    assert "already below" in shown and "so few items" not in shown
    assert "With this many items" in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_raters_are_not_called_several_and_equal_shares_read_exactly(lang):
    at = open_page(lang)  # the rubric pair: each rater puts 8 of the 12 items in "1"
    headers = values(at.subheader)
    assert text("kappa.multi_title_two", lang) in headers
    shown = page_text(at)
    assert "(2)" not in " ".join(headers) and "all 2" not in shown and "les 2 évaluateurs" not in shown
    assert text("kappa.fleiss_caption_two", lang).format(n=12) in shown
    exactly = "exactement aussi souvent" if lang == "fr" else "exactly as often"
    assert exactly in shown and ("67 % des items chacun" if lang == "fr" else "67% of the items each") in shown
    assert "contre 67 %" not in shown and "against 67%" not in shown


def test_shares_that_round_alike_are_told_apart_by_their_counts():
    # 201 and 202 items out of 400 both round to 50 %: the counts are given instead.
    first = ", ".join(["1"] * 201 + ["0"] * 199)
    second = ", ".join(["1"] * 201 + ["1"] + ["0"] * 198)
    at = type_ratings(open_page("en"), first, second)
    shown = page_text(at)
    assert "about equally often" in shown and "(201 items against 202 items" in shown


def test_english_uses_one_possessive_for_fleiss():
    at = open_page("en")
    shown = page_text(at) + " ".join(text(key, "en") for key in catalogue() if key.startswith("kappa."))
    assert "Fleiss's" not in shown and "Fleiss' (1981)" in shown


def test_negative_interval_bounds_use_the_minus_sign():
    at = open_page("fr")
    radio(at, "kappa_source").set_value("csv").run()
    at.button(key="kappa_csv_example").click().run()
    radio(at, "kappa_ci").set_value("analytic").run()
    shown = values(at.metric)
    assert "[−0,10 ; 0,44]" in shown  # judge_1 and judge_2, analytic interval
    assert not any("-" in value for value in shown)


def test_french_punctuation_never_starts_a_line():
    at = open_page("fr")
    shown = [m.value for m in at.markdown] + [c.value for c in at.caption] + [m.value for m in at.metric]
    assert "[0,05\u00a0;\u00a00,89]" in shown and "83\u00a0%" in shown
    assert any("**κ = 0,63**\u00a0: accord «\u00a0fort\u00a0»" in md for md in shown)
    for key, texts in catalogue().items():
        for form in (texts["fr"] if isinstance(texts["fr"], tuple) else (texts["fr"],)):
            if key.startswith("kappa."):
                assert not re.search(r" [:;?!»]| %(?!\{)|« ", form), (key, form)


def test_weighted_kappa_on_words_names_the_labels():
    at = type_ratings(open_page("en"), "yes, no, 2", "yes, yes, 2")
    radio(at, "kappa_weights").set_value("linear").run()
    assert not at.exception
    assert "These labels are not numbers: “no”, “yes”" in values(at.error)[0]


def test_example_csv_gives_fleiss_and_krippendorff():
    at = open_page("en")
    radio(at, "kappa_source").set_value("csv").run()
    at.button(key="kappa_csv_example").click().run()
    radio(at, "kappa_level").set_value("interval").run()
    assert not at.exception
    assert text("kappa.multi_title", "en").format(m=3) in values(at.subheader)
    assert metric(at, "kappa.metric.fleiss", "en") == "0.16"
    assert metric(at, "kappa.metric.alpha", "en", level="interval") == "0.916"
    shown = page_text(at)
    assert "10 items rated by all 3 raters. Items left out for a missing rating: 2." in shown
    assert "12 items rated at least twice (34 ratings in all)." in shown
    assert "Items left out for lack of one of the two ratings: 1" in shown


def test_interval_alpha_on_words_is_an_error_not_a_traceback():
    at = upload(open_page("fr"), "mots.csv", "a,b,c\noui,non,oui\nnon,non,non\noui,oui,\n".encode())
    radio(at, "kappa_level").set_value("interval").run()
    assert not at.exception
    assert any("« non », « oui »" in e for e in values(at.error))


@pytest.mark.parametrize(("data", "fragment"), [
    ("a,b\n1,é\n".encode("latin-1"), "pas en UTF-8 (premier caractère illisible à la ligne 2)"),
    (b"a;b;c\n1;0;1\n0;0\n", "la ligne 3 compte 2 cases alors que le fichier a 3 colonnes"),
    (b"", "le fichier est vide"),
    (b"PK\x03\x04\x00\x00", "octets nuls"),
    (b"notes\n1\n0\n", "une seule colonne"),
])
def test_broken_csv_shows_an_error_naming_the_problem(data, fragment):
    at = upload(open_page("fr"), "notes.csv", data)
    assert len(at.error) == 1
    error = values(at.error)[0]
    assert "« notes.csv »" in error and fragment in error
    assert not at.metric


# ---------------------------------------------------------------- readings (docs/kappa.md#readings)

def chart_specs(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def test_lenient_pair_fleiss_interval_says_how_many_resamples_were_usable_and_flags_them():
    at = open_page("en")
    at.button(key="kappa_preset_lenient_pair").click().run()
    shown = page_text(at)
    assert "Usable resamples: 1,292 of 2,000." in shown
    assert "undefined in 708 of 2,000 resamples (35%)" in shown
    assert "sits on a bound of the interval" in shown


def test_perfect_agreement_interval_is_called_uninformative_and_an_exact_bound_is_shown():
    at = type_ratings(open_page("en"), "1, 0, 1, 0, 1", "1, 0, 1, 0, 1")
    radio(at, "kappa_ci").set_value("analytic").run()
    shown = page_text(at)
    assert metric(at, "kappa.metric.ci_analytic", "en") == "[1.00, 1.00]"
    assert "has zero width" in shown and "On 5 items this interval says nothing" in shown
    assert "Exact interval (Clopper-Pearson on the agreement of the 5 items, observed marginals): κ in " \
           "[−0.09, 1.00]" in shown
    assert "stays within" not in shown
    assert "all 5 items agree" in shown  # the sample-size box gives the reason


def test_two_swapped_items_are_not_read_as_worse_than_chance_and_alpha_is_explained():
    at = type_ratings(open_page("en"), "A, B", "B, A")
    shown = page_text(at)
    assert "has zero width" in shown and "stays within" not in shown
    assert "all 2 items disagree" in shown
    assert "Why α (−0.50) differs from κ (−1.00): α corrects for the small sample" in shown


def test_three_raters_on_three_items_flag_a_zero_width_alpha_interval():
    at = upload(open_page("en"), "three.csv", b"a,b,c\n1,1,1\n2,2,2\n3,3,3\n")
    assert metric(at, "kappa.metric.ci_bootstrap", "en") == "[1.00, 1.00]"
    assert "every usable resample gives the same value, because 3 items leave almost no room" in page_text(at)


@pytest.mark.parametrize(("first", "second", "said", "not_said"), [
    ("0, " * 11 + "1", "0, " * 11 + "0", "almost never met", "nearly always"),
    ("1, " * 11 + "0", "1, " * 11 + "1", "nearly always", "almost never"),
    ("A, " * 11 + "B", "A, " * 11 + "A", "hardly test the raters", "nearly always"),
])
def test_a_rubric_almost_always_met_only_when_the_pass_label_dominates(first, second, said, not_said):
    at = type_ratings(open_page("en"), first.rstrip(", "), second.rstrip(", "))
    shown = page_text(at)
    assert said in shown and not_said not in shown


def test_semicolon_file_with_decimal_commas_loads_as_numbers():
    at = upload(open_page("fr"), "notes.csv", b"7,5;8,5\n6,5;7\n9;9,5\n4;4\n")
    assert not at.error
    radio(at, "kappa_weights").set_value("linear").run()
    assert not at.error and "« notes.csv » : 4 items, 2 évaluateurs (R1, R2)." in page_text(at)


@pytest.mark.parametrize(("data", "fragment"), [
    (b"a;b,c;d\n1;2,3;4\n", "plusieurs séparateurs (virgule, point-virgule)"),
    (b'a,b\n"' + b"x" * 200_000 + b'",1\n', "une case de la ligne 2 est démesurément longue"),
    (b"a;b;c\n1;0;1\n0\n", "la ligne 3 compte 1 case alors"),
])
def test_csv_errors_are_french_with_no_python_english(data, fragment):
    at = upload(open_page("fr"), "notes.csv", data)
    error = values(at.error)[0]
    assert fragment in error and "field" not in error and "limit" not in error


def test_labels_are_shown_as_typed_never_as_markdown_latex_or_html():
    at = type_ratings(open_page("en"), "[link](http://x), [link](http://x), **bold**, <b>x</b>",
                      "[link](http://x), [link](http://x), $x^2$, <b>x</b>")
    sources = [m.value for m in at.markdown]
    assert any(r"\[link\]\(http\://x\)" in s for s in sources)  # the label most agreed on, escaped
    assert not any("[link](http://x)" in s for s in sources)
    assert not any("$x^2$" in s for s in sources) and not any("**bold**" in s for s in sources)
    ticks = [tick for spec in chart_specs(at) for tick in spec["data"][0]["x"]]
    assert "&lt;b&gt;x&lt;/b&gt;" in ticks and "<b>x</b>" not in ticks


def test_long_labels_are_shortened_in_sentences_as_on_the_axes():
    long_label = "a verdict written as a whole sentence by a careful rater"
    at = type_ratings(open_page("en"), ", ".join([long_label] * 11 + ["no"]), ", ".join([long_label] * 12))
    shown = page_text(at)
    assert long_label not in shown and "a verdict written as a …" in shown


def test_five_thousand_raters_are_not_all_listed():
    header = ",".join(f"rater_{j}" for j in range(5000)).encode()
    rows = b"\n".join(b",".join(b"1" if (i + j) % 3 else b"0" for j in range(5000)) for i in range(4))
    at = upload(open_page("fr"), "many.csv", header + b"\n" + rows + b"\n")
    caption = next(c for c in values(at.caption) if "many.csv" in c)
    assert "5 000 évaluateurs" in caption and "et 4 994 autres" in caption and "rater_100" not in caption


def test_french_figures_use_one_formatter_throughout():
    at = open_page("fr")
    at.button(key="kappa_preset_lenient_pair").click().run()
    shown = page_text(at)
    assert "92 %" in shown and "100%" not in shown
    assert "2 000" in shown and not re.search(r"\b2000\b", shown)
    bars = [spec for spec in chart_specs(at) if spec["data"][0]["type"] == "bar"][0]
    assert bars["data"][1]["text"][1] == "100\u00a0%"
    assert bars["layout"]["bargap"] >= 0.2  # labels of neighbouring bars do not touch


def test_a_rerun_reuses_the_computed_figures(monkeypatch):
    calls = []
    original = ag.fleiss_kappa_with_interval
    monkeypatch.setattr(ag, "fleiss_kappa_with_interval", lambda *a, **k: calls.append(1) or original(*a, **k))
    at = upload(open_page("en"), "rerun.csv", b"a,b,c\n1,0,1\n0,0,1\n1,1,1\n0,1,0\n1,0,0\n")
    radio(at, "kappa_weights").set_value("linear").run()
    at.session_state["lang"] = "fr"
    at.run()
    assert not at.exception and len(calls) == 1


def test_the_example_file_replaces_an_upload_and_a_rerun_keeps_it():
    """The upload is stored once per file (its digest computed then), not again on every rerun: a rerun
    after clicking the example must not bring the uploaded file back."""
    at = upload(open_page("en"), "mine.csv", b"x,y\n1,0\n0,0\n1,1\n")
    assert any("mine.csv" in c for c in values(at.caption))
    at.button(key="kappa_csv_example").click().run()
    at.run()
    captions = values(at.caption)
    assert any("kappa_example.csv" in c for c in captions) and not any("mine.csv" in c for c in captions)
    assert st_digest(at) == ui_digest(ag.ratings_to_csv(ag.AUTHORED_THREE_RATERS, ("judge_1", "judge_2", "judge_3")))


def st_digest(at: AppTest) -> str:
    return at.session_state["kappa_csv_data"].digest


def ui_digest(text: str) -> str:
    import hashlib
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def test_labels_that_differ_only_by_case_are_named_and_folded_on_request():
    yes_no_a = "Yes, Yes, No, no, yes, No, Yes, no, yes, No"
    yes_no_b = "yes, Yes, no, No, yes, no, Yes, no, No, No"
    at = type_ratings(open_page("en"), yes_no_a, yes_no_b)
    shown = page_text(at)
    assert "Some labels differ only by case: No / no, Yes / yes. They count as 4 categories instead of 2" in shown
    assert "κ = 0.33 as they are, 0.80 once merged." in shown
    assert metric(at, "kappa.metric.kappa_plain", "en") == "0.33"
    at.checkbox(key="kappa_fold_case").check().run()
    assert not at.exception
    assert metric(at, "kappa.metric.kappa_plain", "en") == "0.80"
    assert plain(at.metric[0].value) == "90%"  # percent agreement recomputed on the folded labels
    at.checkbox(key="kappa_fold_case").uncheck().run()
    assert metric(at, "kappa.metric.kappa_plain", "en") == "0.33"


@pytest.mark.parametrize("method", CI_METHODS)
def test_few_items_quote_the_coverage_the_bench_measured_for_the_interval_shown(method):
    from evallib.agreement.measured import measured_coverage

    at = open_page("en")
    radio(at, "kappa_ci").set_value(method).run()
    # The seed pair has two labels: the small-sample interval is Donner-Eliasziw's goodness of fit.
    reading = measured_coverage({"bootstrap": "percentile", "small_sample": "goodness_of_fit"}.get(method, method), 12)
    shown = page_text(at)
    assert text(f"kappa.measured.{reading.code}", "en").split(":")[0] in shown
    figure = f"{100 * reading.values['coverage_share']:.1f}%"
    assert f"in {'only ' if reading.code == 'measured_below' else 'at least '}{figure} of" in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_three_labels_show_the_posterior_interval_once_and_a_constant_rater_the_items_needed(lang):
    at = type_ratings(open_page(lang), "0, 1, 2, 2, 1, 0, 2, 1, 0, 2, 1, 1", "0, 1, 2, 1, 1, 0, 2, 2, 0, 2, 1, 0")
    radio(at, "kappa_weights").set_value("linear").run()
    shown = page_text(at)
    assert text("kappa.ci_small.dirichlet_posterior", lang).split("{n}")[0] in shown
    low, high = metric(at, "kappa.metric.ci_small_sample", lang).strip("[]").replace("\u2212", "-").replace(",", ".") \
        .replace(" ; ", ";").replace(". ", ";").split(";")
    assert -1 < float(low) < float(high) < 1
    assert not any(c.startswith(text("kappa.weighted_ci", lang).split("{")[0]) for c in values(at.caption))
    at = type_ratings(at, ", ".join(["0"] * 13 + ["1", "2"]), ", ".join(["0"] * 15))
    messages = " ".join(values(at.info))
    assert text("kappa.rare_labels.too_few_off_main", lang).split(":")[0] in messages and "44" in messages
    assert metric(at, "kappa.metric.ci_small_sample", lang) == text("format.undefined", lang)
    assert no_nan(at)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bootstrap_interval_with_many_constant_rater_resamples_is_cautioned(lang):
    """15 items, rater 1 on "pass" 14 times: a third of the resamples leave its "fail" out, κ is 0 there,
    and the interval [0.00, 1.00] owes its lower bound to them."""
    at = type_ratings(open_page(lang), ", ".join(["pass"] * 14 + ["fail"]),
                      ", ".join(["pass"] * 12 + ["partial", "fail", "fail"]))
    caution = text("kappa.ci_flag.constant_rater", lang).split("{n_constant}")[0]
    assert not any(caution in c for c in values(at.caption))  # the small-sample interval has no resamples
    radio(at, "kappa_ci").set_value("bootstrap").run()
    assert metric(at, "kappa.metric.ci_bootstrap", lang) == ("[0,00 ; 1,00]" if lang == "fr" else "[0.00, 1.00]")
    said = [c for c in values(at.caption) if caution in c]
    assert len(said) == 1
    share = re.search(r"\((\d+) ?%\)", said[0].split(caution)[1])
    assert share and 25 <= int(share.group(1)) <= 40, said

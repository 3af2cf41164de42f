"""AppTest runs of the Kappa page: presets, edge cases and broken CSV files, in French and English."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evallib import agreement as ag
from ui.i18n import catalogue

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGUAGES = ("fr", "en")


def text(key: str, lang: str) -> str:
    return catalogue()[key][lang]


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
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"no metric labelled {label!r}; labels: {[m.label for m in at.metric]}"
    return values[0]


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [e.value for kind in (at.error, at.warning, at.info) for e in kind]
    return "\n".join(parts)


def type_ratings(at: AppTest, first: str, second: str) -> AppTest:
    at.text_area(key="kappa_r1").set_value(first)
    at.text_area(key="kappa_r2").set_value(second).run()
    assert not at.exception
    return at


#: Values offered by each translated radio of the page, in order (see ``ui.widgets.translated_choice``).
RADIO_OPTIONS = {"kappa_source": ("typed", "csv"), "kappa_weights": ag.WEIGHTINGS,
                 "kappa_ci": ("analytic", "bootstrap"), "kappa_level": ag.LEVELS}


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
    assert at.title[0].value == text("kappa.title", lang)
    agreement, kappa, _, _ = FIGURES[lang]
    assert metric(at, "kappa.metric.agreement", lang) == agreement
    assert metric(at, "kappa.metric.kappa_plain", lang) == kappa
    assert metric(at, "kappa.metric.p_e", lang) == ("0,56" if lang == "fr" else "0.56")
    assert metric(at, "kappa.metric.ci_analytic", lang) == ("[0,16 ; 1,00]" if lang == "fr" else "[0.16, 1.00]")
    assert metric(at, "kappa.metric.items_needed", lang, half="0,1" if lang == "fr" else "0.1") == "266"
    shown = page_text(at)
    assert text("kappa.band.landis_koch.substantial", lang) in shown
    assert text("kappa.preset.rubric_pair.source", lang) in shown
    assert "nan" not in shown.lower().replace("nominal", "")


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
    assert [m.value for m in at.metric if m.label == "PABAK"] == ["0,83" if lang == "fr" else "0.83"]
    infos = " ".join(i.value for i in at.info)
    assert ("par construction" if lang == "fr" else "by construction") in infos
    assert ("p_e = p_o = 0,92" if lang == "fr" else "p_e = p_o = 0.92") in infos
    high_prevalence = "Prévalence élevée (0,92)" if lang == "fr" else "High prevalence (0.92)"
    assert any(high_prevalence in md.value for md in at.markdown)


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
    assert [m.value for m in at.metric][start:start + 3] == ["0.24", "0.71", "0.91"]
    assert "95% CI (analytic): [0.58, 0.84]" in [c.value for c in at.caption]


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
    assert "(p_o - p_e) / (1 - p_e)" in at.code[1].value


@pytest.mark.parametrize(("first", "second", "kind", "fragment"), [
    ("1, 0, 1", "1, 0", "error", "3 étiquettes pour le premier évaluateur, 2 pour le second"),
    ("", "", "info", "Saisissez ou collez"),
    ("1", "0", "error", "Un seul item"),
    ("1, , 0", ", 1, ", "error", "Aucun des 3 items"),
    ("1, 1, 1, 1", "1, 1, 1, 1", "warning", "p_e = 1"),
    ("oui, non, oui", "non, non, non", "info", "κ = 0 par construction"),
])
def test_edge_cases_show_a_plain_message(first, second, kind, fragment):
    at = type_ratings(open_page("fr"), first, second)
    messages = " ".join(element.value for element in getattr(at, kind))
    assert fragment in messages
    assert "nan" not in page_text(at).lower().replace("nominal", "")


def test_weighted_kappa_on_words_names_the_labels():
    at = type_ratings(open_page("en"), "yes, no, 2", "yes, yes, 2")
    radio(at, "kappa_weights").set_value("linear").run()
    assert not at.exception
    assert "These labels are not numbers: 'no', 'yes'" in at.error[0].value


def test_example_csv_gives_fleiss_and_krippendorff():
    at = open_page("en")
    radio(at, "kappa_source").set_value("csv").run()
    at.button(key="kappa_csv_example").click().run()
    radio(at, "kappa_level").set_value("interval").run()
    assert not at.exception
    assert text("kappa.multi_title", "en").format(m=3) in [h.value for h in at.subheader]
    assert metric(at, "kappa.metric.fleiss", "en") == "0.16"
    assert metric(at, "kappa.metric.alpha", "en", level="interval") == "0.916"
    shown = page_text(at)
    assert "10 items rated by all 3 raters; items left out for a missing rating: 2" in shown
    assert "Items left out for lack of one of the two ratings: 1" in shown


def test_interval_alpha_on_words_is_an_error_not_a_traceback():
    at = upload(open_page("fr"), "mots.csv", "a,b,c\noui,non,oui\nnon,non,non\noui,oui,\n".encode())
    radio(at, "kappa_level").set_value("interval").run()
    assert not at.exception
    assert any("'non', 'oui'" in e.value for e in at.error)


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
    assert "« notes.csv »" in at.error[0].value and fragment in at.error[0].value
    assert not at.metric

"""The persona page offline: every figure shown equals what evallib computes on the recordings."""

from pathlib import Path

from evallib import persona
from evallib.llm import Recordings
from evallib.persona_catalogue import AUTHORED_MODEL, build_requests, load_catalogue

PAGE = "pages/persona.py"


def fr(value: float, spec: str = ".2f") -> str:
    """How the French page writes a number (decimal comma)."""
    return format(value, spec).replace(".", ",")

RECORDINGS = Path(__file__).resolve().parents[2] / "recordings"


def _recorded_grid(catalogue):
    store = Recordings(RECORDINGS)
    cells = build_requests(catalogue, AUTHORED_MODEL)
    return cells, [store.get(c.request.key()) for c in cells]


def test_every_cell_of_the_default_grid_and_the_rewrite_example_is_recorded_and_authored():
    catalogue = load_catalogue()
    cells, found = _recorded_grid(catalogue)
    assert len(cells) == 36 and all(f is not None for f in found)
    assert {f.provenance["source"] for f in found} == {"authored"}
    name, prompt = catalogue.rewrite_example
    _, rewritten = _recorded_grid(catalogue.with_prompt(name, prompt))
    assert all(f is not None for f in rewritten)
    assert Recordings(RECORDINGS).problems == []


def _expected():
    catalogue = load_catalogue()
    cells, found = _recorded_grid(catalogue)
    return catalogue, persona.discriminability([f.result.text for f in found], [c.assistant for c in cells],
                                               [c.probe_index for c in cells], classes=catalogue.names)


def test_page_shows_the_figures_evallib_computes_on_the_recordings(open_page):
    catalogue, expected = _expected()
    at = open_page(PAGE)
    assert not at.exception and not at.error
    assert at.title[0].value.startswith("Audit de personas")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude"] == fr(expected.accuracy)
    assert metrics["Hasard (1/k)"] == fr(1 / len(catalogue.names))
    low, high = expected.accuracy_interval
    assert metrics["Intervalle à 95 % (Wilson)"] == f"[{fr(low)} ; {fr(high)}]"
    a, b, count = expected.most_confused_pair
    assert any(f"**{a} / {b}** avec **{count}** confusions" in m.value for m in at.markdown)
    assert any(f"{expected.n_correct} réponses sur {expected.n_responses}" in m.value for m in at.markdown)
    mutual = expected.mutual_confusions[0]
    assert any(f"{mutual.a} ↔ {mutual.b}" in w.value for w in at.warning)
    assert any("rédigés à la main" in i.value for i in at.info)


def test_exercise_3_offline_example_compares_before_and_after(open_page):
    catalogue, before = _expected()
    name, prompt = catalogue.rewrite_example
    cells, found = _recorded_grid(catalogue.with_prompt(name, prompt))
    after = persona.discriminability([f.result.text for f in found], [c.assistant for c in cells],
                                     [c.probe_index for c in cells], classes=catalogue.names)
    at = open_page(PAGE)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude · avant"] == fr(before.accuracy)
    assert metrics["Exactitude · après"] == fr(after.accuracy)
    assert after.accuracy > before.accuracy


def test_page_in_english(open_page):
    at = open_page(PAGE, "en")
    assert not at.exception
    assert at.title[0].value.startswith("Persona audit")
    catalogue, expected = _expected()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Accuracy"] == f"{expected.accuracy:.2f}"
    assert any(f"{expected.n_correct} of {expected.n_responses} answers find their author" in m.value
               for m in at.markdown)


def test_an_invalid_catalogue_upload_and_a_broken_table_give_messages_not_exceptions(open_page):
    at = open_page(PAGE, persona_source={"assistants": [{"name": "seul", "system_prompt": "x", "role": ""}],
                                         "probes": ["q"]}, persona_editor_version=1)
    assert not at.exception
    assert any("il faut au moins deux assistants" in e.value for e in at.error)


def test_duplicate_names_are_named(open_page):
    source = load_catalogue().to_dict()
    source["assistants"][1]["name"] = source["assistants"][0]["name"]
    at = open_page(PAGE, persona_source=source, persona_editor_version=1)
    assert not at.exception
    assert any("nom(s) en double" in e.value and source["assistants"][0]["name"] in e.value for e in at.error)


def test_an_edited_prompt_offline_reports_missing_recordings_not_invented_answers(open_page):
    source = load_catalogue().to_dict()
    source["assistants"][0]["system_prompt"] = "Un prompt réécrit que personne n'a enregistré."
    at = open_page(PAGE, persona_source=source, persona_editor_version=1)
    assert not at.exception
    problems = [e for e in at.expander if "à examiner" in e.label]
    assert problems, "the missing recordings must be listed"
    text = " ".join(m.value for m in problems[0].markdown)
    assert f"pas d'enregistrement** ({len(source['probes'])})" in text
    assert any(f"{len(source['probes'])} requête(s) en échec" in e.value for e in at.error)
    assert any("provenance : rédigé 30" in c.value for c in at.caption), "missing answers are not 'recorded'"
    first = source["assistants"][0]["name"]
    assert any(f"{first} (0)" in e.value for e in at.error)
    assert not at.metric, "no figure may be computed from invented answers"

"""A run loaded into the persona page is shown offline with its own answers, not the recordings: the
figures are those its answers give (ui/persona/bundle.py); an edit of the catalogue closes it."""

from dataclasses import replace

from evallib.llm import collect, default_recordings, provider_for_mode
from evallib.persona.catalogue import AUTHORED_MODEL, build_requests, load_catalogue
from evallib.runs.persona.bundle import PersonaRun, persona_report
from ui.run_bundles import LOADED_KEY
from ui.i18n import catalogue
TEXTS = catalogue()

PAGE = "pages/persona.py"
HEADER = {"made_by": "page", "created_at": "2026-12-01T19:00:00+00:00", "app_version": "0.12.0"}


def _own_words_run() -> PersonaRun:
    """The default grid whose answers each assistant words in its own vocabulary: no recording holds them."""
    catalogue = load_catalogue()
    cells = build_requests(catalogue, AUTHORED_MODEL)
    results = collect([c.request for c in cells], provider_for_mode("offline", default_recordings()), 4)
    own = tuple(replace(r, text=f"{c.assistant} {c.assistant}-{c.probe_index} réponse") for c, r in zip(cells, results))
    return PersonaRun(catalogue, tuple(cells), own)


def test_a_loaded_run_shows_its_own_answers_and_figures(open_page):
    run = _own_words_run()
    expected = persona_report(run.catalogue, run.responses)[1]["discriminability"]["accuracy"]
    at = open_page(PAGE, "en", **{LOADED_KEY: {"persona": {"value": run, "name": "run.json", "bundle": HEADER}}})
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Accuracy"] == f"{expected:.2f}" and expected == 1.0  # the recordings give 0.64
    assert any(text.startswith("This page shows the run loaded from") for text in (i.value for i in at.info))


def test_an_edited_catalogue_closes_the_loaded_run(open_page):
    run = _own_words_run()
    edited = load_catalogue().to_dict()
    edited["probes"] = edited["probes"][:5]
    at = open_page(PAGE, "en", **{LOADED_KEY: {"persona": {"value": run, "name": "run.json", "bundle": HEADER}},
                                  "persona_source": edited, "persona_editor_version": 0})
    assert not at.exception
    assert TEXTS["run_bundles.closed_by_edit"]["en"] in [i.value for i in at.info]
    assert at.session_state[LOADED_KEY].get("persona") is None
    at.run()  # said while the edit stands, through the restarts of the page
    assert TEXTS["run_bundles.closed_by_edit"]["en"] in [i.value for i in at.info]

"""A loaded run on the trigger page: the page shows its answers (a run of another recorded model than
the page's default source) until an input is edited, which closes it and says so."""

from evallib.llm import default_recordings, provider_for_mode
from evallib.runs.bundle import dumps
from evallib.runs.trigger.bundle import TriggerRun, read_trigger_bundle, trigger_bundle, trigger_report
from evallib.triggering.data import load_queries, load_skills, queries_to_dict
from evallib.triggering.report import route
from ui.run_bundles import LOADED_KEY
from ui.i18n import catalogue
TEXTS = catalogue()
from ui.trigger.editor import SOURCE_KEY, VERSION_KEY

PAGE = "pages/trigger.py"
SHOWING = TEXTS["run_bundles.showing"]["en"].split("{")[0]


def _texts(at) -> str:
    return " ".join(str(e.value) for kind in ("markdown", "info", "caption") for e in at.get(kind))


def test_a_loaded_run_shows_its_own_figures_until_an_input_is_edited(open_page):
    catalogue = load_skills()
    queries = load_queries(catalogue)
    strong = "authored-example-strong-router"  # the page replays the light router by default
    cells, results = route(catalogue, queries, provider_for_mode("offline", default_recordings()), strong, 1)
    made = TriggerRun(catalogue, queries, 1, "tools", "openai", strong, tuple(c.request for c in cells), tuple(results))
    bundle, run, report = read_trigger_bundle(dumps(trigger_bundle(made, trigger_report(made))))
    entry = {"value": run, "name": "run.json", "bundle": {k: bundle[k] for k in ("made_by", "created_at",
                                                                                 "app_version")}}
    at = open_page(PAGE, "en", **{LOADED_KEY: {"trigger": entry}, "trigger_runs": run.runs, VERSION_KEY: 1,
                                  SOURCE_KEY: {"skills": run.catalogue.to_dict(),
                                               "queries": queries_to_dict(run.queries)}})
    assert not at.exception
    shown = _texts(at)
    assert SHOWING in shown and report["metrics"]["accuracy"]["value"] == 1.0
    assert "gate: **pass** (accuracy 100.0" in shown.replace("\u00a0", " ")
    at.number_input(key="trigger_runs").set_value(2).run()
    assert not at.exception and SHOWING not in _texts(at)
    assert TEXTS["run_bundles.closed_by_edit"]["en"] in _texts(at)
    assert "trigger" not in at.session_state[LOADED_KEY]
    assert "accuracy 100.0" not in _texts(at).replace("\u00a0", " ")  # back to the light router's answers

"""A run loaded into the kappa page is shown while the page's inputs are its inputs; an edit closes it,
said once (ui/kappa/bundle.py)."""

from evallib import agreement as ag
from evallib.runs.kappa.bundle import KappaInputs
from ui.ratings_input import preset_text
from ui.run_bundles import LOADED_KEY
from ui.i18n import catalogue
TEXTS = catalogue()

PAGE = "pages/kappa.py"
TYPED = tuple(preset_text(r) for r in ag.SEED_RUBRIC_PAIR.ratings)
HEADER = {"made_by": "cli", "created_at": "2026-12-01T19:00:00+00:00", "app_version": "0.12.0"}


def _loaded(inputs: KappaInputs) -> dict:
    return {"kappa": {"value": inputs, "name": "run.json", "bundle": HEADER}}


def test_the_loaded_run_stays_while_its_inputs_are_the_page_s(open_page):
    at = open_page(PAGE, "en", **{LOADED_KEY: _loaded(KappaInputs("typed", TYPED)), "kappa_r1": TYPED[0],
                                  "kappa_r2": TYPED[1]})
    assert not at.exception
    assert any(text.startswith("This page shows the run loaded from") for text in (i.value for i in at.info))
    assert LOADED_KEY in at.session_state and at.session_state[LOADED_KEY].get("kappa") is not None


def test_an_edit_closes_the_loaded_run_and_says_so(open_page):
    at = open_page(PAGE, "en", **{LOADED_KEY: _loaded(KappaInputs("typed", TYPED)), "kappa_r1": TYPED[0],
                                  "kappa_r2": TYPED[1]})
    at.text_area(key="kappa_r1").set_value("1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0").run()
    assert not at.exception
    assert TEXTS["run_bundles.closed_by_edit"]["en"] in [i.value for i in at.info]
    assert at.session_state[LOADED_KEY].get("kappa") is None
    at.run()
    assert TEXTS["run_bundles.closed_by_edit"]["en"] not in [i.value for i in at.info]

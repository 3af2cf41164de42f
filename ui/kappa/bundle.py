"""The kappa page's run bundle: the page's ratings and options as `evallib.runs.kappa.bundle.KappaInputs`, and a
loaded run put back into the page's widgets (`ui.run_bundles` draws the buttons and says why a file is
refused). A kappa run has no requests: its inputs are the ratings, typed or from a file."""

from __future__ import annotations

import streamlit as st

from evallib.runs.kappa.bundle import CI_METHODS, PAGE, KappaInputs, inputs_from_bundle, make_bundle
from ui.i18n import LANGUAGES, t
from ui.ratings_input import Upload
from ui.run_bundles import close_loaded, loaded, run_bundle_controls

#: The page's choices kept by `ui.widgets.translated_radio` (a plain value, and a widget per language).
RADIOS = {"source": "kappa_source", "weights": "kappa_weights", "ci_method": "kappa_ci", "level": "kappa_level"}
#: The page's name of each bundle source.
PAGE_SOURCES = {"typed": "typed", "file": "csv"}


def current_inputs(pair: tuple[int, int] = (0, 1)) -> KappaInputs:
    """What the page computes from now: the ratings of its source and its options (``pair``: the two
    raters of a file picked for Cohen's kappa)."""
    state = st.session_state
    options = {"weights": state.get("kappa_weights"), "ci_method": state.get("kappa_ci", CI_METHODS[0]),
               "level": state.get("kappa_level", "nominal"), "fold_case": bool(state.get("kappa_fold_case", False))}
    if state.get("kappa_source", "typed") == "typed":
        return KappaInputs("typed", (state.get("kappa_r1", ""), state.get("kappa_r2", "")), **options)
    stored = state.get("kappa_csv_data")
    return KappaInputs("file", file_name=stored.name if stored else "", file_text=stored.text if stored else "",
                       pair=pair, **options)


def load_run(bundle: dict) -> KappaInputs:
    inputs = inputs_from_bundle(bundle)  # raises before anything changes
    state = st.session_state
    values = {"source": PAGE_SOURCES[inputs.source], "weights": inputs.weights, "ci_method": inputs.ci_method,
              "level": inputs.level}
    for name, key in RADIOS.items():
        state[key] = values[name]
        for lang in LANGUAGES:  # the radio starts again from the value (ui.widgets.translated_choice)
            state.pop(f"_{key}_{lang}", None)
    state["kappa_fold_case"] = inputs.fold_case
    if inputs.source == "typed":
        state["kappa_r1"], state["kappa_r2"] = inputs.typed
    else:
        state["kappa_csv_data"] = Upload.of(inputs.file_name, inputs.file_text.encode("utf-8"))
        state["kappa_col_a"], state["kappa_col_b"] = inputs.pair
    return inputs


def controls(pair: tuple[int, int] = (0, 1)) -> None:
    """Download this run / load a run; a loaded run whose inputs were edited since is closed (said once)."""
    inputs = current_inputs(pair)
    shown = loaded(PAGE)
    if shown is not None and shown != inputs:
        close_loaded(PAGE)
        st.info(t("run_bundles.closed_by_edit"))
    checked, found = inputs.to_dict(), None
    stored = st.session_state.get("kappa_csv_data")
    if inputs.source == "file" and stored is not None:  # the file is scanned once per upload, not per rerun
        checked["file"], found = {"name": inputs.file_name}, stored.secret
    run_bundle_controls(PAGE, lambda: make_bundle(inputs), load_run, inputs=checked, found=found)

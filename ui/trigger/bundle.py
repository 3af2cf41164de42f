"""The trigger page's run bundle: its run as a `evallib.runs.trigger.bundle.TriggerRun`, and a loaded run
put back as the page's inputs (`ui.run_bundles` draws the buttons and says why a file is refused)."""

from __future__ import annotations

import streamlit as st

from evallib.runs.bundle import RunBundleError
from evallib.runs.trigger.bundle import TriggerRun, load_trigger_bundle, trigger_bundle, trigger_report
from evallib.triggering.data import queries_to_dict
from ui.run_bundles import close_loaded, loaded, run_bundle_controls
from ui.trigger.editor import set_data

PAGE = "trigger"
RUNS_KEY = "trigger_runs"


def loaded_run(catalogue, queries, runs: int) -> TriggerRun | None:
    """The loaded run the page shows, while its inputs are the page's (an edit closes it)."""
    run = loaded(PAGE)
    if run is not None and (run.catalogue, run.queries, run.runs) != (catalogue, tuple(queries), runs):
        close_loaded(PAGE, edited=True)
        return None
    return run


def load_run(bundle: dict, max_runs: int) -> TriggerRun:
    run, _ = load_trigger_bundle(bundle)
    if not 1 <= run.runs <= max_runs:
        raise RunBundleError("inputs", f"bundle inputs: runs {run.runs} is not within 1..{max_runs}", field="runs")
    set_data({"skills": run.catalogue.to_dict(), "queries": queries_to_dict(run.queries)})
    st.session_state[RUNS_KEY] = run.runs
    return run


def controls(run: TriggerRun, report, labels, max_runs: int) -> None:
    """Download this run / load a run, for ``run`` (``report``: its `TriggerReport`, None before any answer)."""
    run_bundle_controls(PAGE, lambda: trigger_bundle(run, trigger_report(run, report), "page", labels),
                        lambda bundle: load_run(bundle, max_runs),
                        {"skills": run.catalogue.to_dict(), "queries": queries_to_dict(run.queries)})

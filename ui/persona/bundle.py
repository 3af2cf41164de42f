"""The persona page's run bundle: its run as an `evallib.persona.run.PersonaRun`, and a loaded run put back
as the page's catalogue (`ui.run_bundles` draws the buttons and says why a file is refused)."""

from __future__ import annotations

import hashlib
import json

import streamlit as st

from evallib.persona.catalogue import Catalogue
from evallib.persona.run import PAGE, PersonaRun, make_bundle, persona_report, run_from_bundle
from ui.i18n import t
from ui.persona.editor import set_catalogue
from ui.run_bundles import close_loaded, loaded, run_bundle_controls


def loaded_run(catalogue: Catalogue) -> PersonaRun | None:
    """The loaded run the page shows, while its catalogue is the page's (an edit closes it, said once)."""
    run = loaded(PAGE)
    if run is not None and run.catalogue != catalogue:
        close_loaded(PAGE)
        st.info(t("run_bundles.closed_by_edit"))
        return None
    return run


def load_run(bundle: dict) -> PersonaRun:
    run = run_from_bundle(bundle)  # raises before anything changes
    set_catalogue(run.catalogue.to_dict())
    return run


def _run_key(run: PersonaRun) -> str:
    """What the report depends on, as a digest (the cache key of `_report`)."""
    data = [run.catalogue.to_dict(), run.live, [[c.assistant, c.probe_index, r.to_dict() if r else None]
                                                 for c, r in zip(run.cells, run.results)]]
    return hashlib.blake2b(json.dumps(data, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


# The report runs the whole audit (permutations included): once per run, not on every rerun.
@st.cache_data(show_spinner=False, max_entries=8)
def _report(key: str, _run: PersonaRun) -> dict:
    return persona_report(_run.catalogue, _run.responses, live=_run.live)[1]


def controls(run: PersonaRun) -> None:
    """Download this run / load a run, for ``run`` (the grid as sent and its answers so far)."""
    run_bundle_controls(PAGE, lambda: make_bundle(run, report=_report(_run_key(run), run)), load_run)

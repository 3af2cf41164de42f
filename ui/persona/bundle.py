"""The persona page's run bundle: its run as an `evallib.runs.persona.bundle.PersonaRun`, and a loaded run put back
as the page's catalogue (`ui.run_bundles` draws the buttons and says why a file is refused)."""

from __future__ import annotations

import streamlit as st

from evallib.persona.catalogue import Catalogue
from evallib.runs.persona.bundle import PAGE, PersonaRun, make_bundle, run_from_bundle
from ui.i18n import t
from ui.persona.editor import set_catalogue
from ui.run_bundles import close_loaded, loaded, run_bundle_controls


#: Session state: the catalogue whose edit closed the loaded run (said while that edit stands).
CLOSED_KEY = "_persona_loaded_run_closed"


def loaded_run(catalogue: Catalogue) -> PersonaRun | None:
    """The loaded run the page shows, while its catalogue is the page's.

    An edit closes it; the page says so while the catalogue stays as that edit left it (a first look-up
    in the recordings restarts the page, which would wipe a message said once).
    """
    run = loaded(PAGE)
    if run is not None and run.catalogue != catalogue:
        close_loaded(PAGE)
        st.session_state[CLOSED_KEY] = catalogue
        run = None
    if run is None and st.session_state.get(CLOSED_KEY) == catalogue:
        st.info(t("run_bundles.closed_by_edit"))
    else:
        st.session_state.pop(CLOSED_KEY, None)
    return run


def load_run(bundle: dict) -> PersonaRun:
    run = run_from_bundle(bundle)  # raises before anything changes
    set_catalogue(run.catalogue.to_dict())
    return run


def controls(run: PersonaRun) -> None:
    """Download this run / load a run, for ``run`` (the grid as sent and its answers so far)."""
    run_bundle_controls(PAGE, lambda: make_bundle(run), load_run, inputs=run.catalogue.to_dict())

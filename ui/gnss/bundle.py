"""The GNSS page's run bundle: its settings, the live agent's answers and the uploaded series as a
`evallib.runs.gnss.bundle.GnssRun`, and a loaded run put back as the page's sliders, answers and upload
(`ui.run_bundles` draws the buttons and says why a file is refused)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from evallib.runs.gnss.bundle import AGENT_NAMES, GnssRun, Station, gnss_bundle, gnss_report, load_gnss_bundle
from evallib.gnss.readers import COMPONENTS, GnssFileError, read_text
from evallib.gnss.reference import StepsFileError, parse_steps
from evallib.gnss.spec import SPEC_V1
from evallib.runs.bundle import RunBundleError
from ui.gnss import view
from ui.gnss.station import STEP_SOURCE_KEY, STEPS_KEY, UPLOAD_KEY
from ui.run_bundles import close_loaded, loaded, run_bundle_controls

PAGE = "gnss"
#: The sliders a loaded run sets, and the grid of values each offers.
SLIDERS = {"gnss_v1_threshold": view.V1_THRESHOLDS, "gnss_v2_threshold": view.V2_THRESHOLDS,
           "gnss_velocity_tol": view.VELOCITY_TOLERANCES}
MAX_DAY_TOL = 1000


def keep_loaded(velocity_tol: float, day_tol: int, v1_threshold: float, v2_threshold: float) -> None:
    """Close the loaded run once a slider leaves its value."""
    run = loaded(PAGE)
    if run is not None and (run.spec.velocity_tol_bands[0][1], run.spec.day_tol, run.v1_threshold,
                            run.v2_threshold) != (velocity_tol, day_tol, v1_threshold, v2_threshold):
        close_loaded(PAGE, edited=True)


def loaded_text_model():
    """The loaded run's text model (None: the live section collects as usual)."""
    run = loaded(PAGE)
    return None if run is None else run.text_model


def kept_station() -> Station | None:
    """The kept upload as a `Station` (read from the session: call it on the script's thread)."""
    kept = st.session_state.get(UPLOAD_KEY)
    if not kept:
        return None
    name, data = kept
    component = COMPONENTS[-1] if Path(name).suffix.lower() == ".csv" else st.session_state.get("gnss_component",
                                                                                                COMPONENTS[-1])
    return Station(Path(name).name, component, data.decode("utf-8", errors="replace"),
                   st.session_state.get(STEP_SOURCE_KEY, "detected"), st.session_state.get(STEPS_KEY) or "")


def page_run(velocity_tol: float, day_tol: int, v1_threshold: float, v2_threshold: float, text_model,
             station: Station | None) -> GnssRun:
    """The run the page shows: the reference agents under its tolerances, the live agent, the upload with
    its reference's step source (left out when the file or its steps file does not read: the page names
    the problem)."""
    if station is not None:
        try:
            read_text(station.text, station.file, station.component)
            if station.step_source == "file":
                parse_steps(station.steps_text, station.component)
        except (GnssFileError, StepsFileError):
            station = None
    return GnssRun(SPEC_V1.with_tolerances(velocity_tol, day_tol), v1_threshold, v2_threshold, AGENT_NAMES, False,
                   text_model, station)


def load_run(bundle: dict) -> GnssRun:
    run, _ = load_gnss_bundle(bundle)
    bands, day_tol = run.spec.velocity_tol_bands, run.spec.day_tol
    values = {"gnss_v1_threshold": run.v1_threshold, "gnss_v2_threshold": run.v2_threshold,
              "gnss_velocity_tol": bands[0][1]}
    if run.held_out or len(bands) != 1 or day_tol > MAX_DAY_TOL or any(
            value not in SLIDERS[key] for key, value in values.items()):
        raise RunBundleError("inputs", "this page shows the twelve cases under one velocity tolerance, with its "
                             "sliders' values", field="spec/thresholds")
    st.session_state.update(values)
    st.session_state["gnss_day_tol"] = day_tol
    if run.station is None:
        st.session_state[UPLOAD_KEY] = None
    else:
        st.session_state[UPLOAD_KEY] = (run.station.file, run.station.text.encode("utf-8"))
        st.session_state["gnss_component"] = run.station.component
        st.session_state[STEP_SOURCE_KEY] = run.station.step_source
        st.session_state[STEPS_KEY] = run.station.steps_text or None
    return run


def controls(make_run) -> None:
    """Download this run (``make_run(station)``, called on click, off the script's thread) / load a run."""
    station = kept_station()
    run_bundle_controls(PAGE, lambda: _bundle(make_run(station)), load_run,
                        {"file": station.file if station else ""})


def _bundle(run: GnssRun) -> dict:
    return gnss_bundle(run, gnss_report(run))

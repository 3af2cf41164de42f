"""The GNSS page's upload: a real daily series read, described, and put through the agents (no truth)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from evallib.gnss import agents
from evallib.gnss.station import estimate_station
from evallib.gnss.readers import COMPONENTS, FORMATS, MIN_DAYS, GnssFileError, read_text, station_readings
from evallib.gnss.reference import MIN_SIDE_EPOCHS, OFFSET_WINDOW_DAYS, STEP_SOURCES, StepsFileError, parse_steps
from ui.downloads import download_table
from ui.figures import chart_config, extremes_per_bucket, time_series
from ui.gnss.view import say, sentence
from ui.i18n import integer, number, plural, t
from ui.labels import md, plain
from ui.tables import results_table
from ui.widgets import translated_radio

#: The uploader's limit (MB, as Streamlit counts them: 2**20 bytes), said by the widget and applied here:
#: 30 years of daily .tenv3 lines weigh about 2 MB.
MAX_UPLOAD_MB = 20
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 2**20
#: The last file uploaded, (name, bytes): kept in the session so that it survives a page switch.
UPLOAD_KEY = "gnss_upload_data"
#: The step source chosen for the reference, and the last steps file's text (kept as the upload is).
STEP_SOURCE_KEY = "gnss_step_source"
STEPS_KEY = "gnss_steps_text"
#: Points drawn in the station figure at most: beyond a few thousand markers the browser slows down
#: for nothing the eye can see at 1280 px (the estimates use every day).
MAX_FIGURE_POINTS = 4000


@st.cache_data(show_spinner=False, max_entries=8)
def _read(data: bytes, name: str, component: str):
    return read_text(data.decode("utf-8", errors="replace"), name, component)


@st.cache_data(show_spinner=False, max_entries=8)
def _estimates(data: bytes, name: str, component: str, v1_threshold: float, v2_threshold: float,
               step_source: str = "detected", file_steps: tuple = ()):
    # keyed on the upload's bytes, as `_read`: the command line runs the same `estimate_station`
    return estimate_station(_read(data, name, component), v1_threshold, v2_threshold, step_source, file_steps)


def _remember_steps() -> None:
    upload = st.session_state.get("gnss_steps_upload")
    st.session_state[STEPS_KEY] = upload.getvalue().decode("utf-8", errors="replace") if upload is not None else None


def _reference_steps(component: str) -> tuple[str, tuple] | None:
    """The step source chosen and, for a steps file, its dates; None (with the message shown) when the
    steps file is missing or unreadable."""
    source = translated_radio(STEP_SOURCE_KEY, "gnss.step_source", STEP_SOURCES, help=t("gnss.step_source_help"))
    if source != "file":
        return source, ()
    st.file_uploader(t("gnss.steps_upload_label"), type=["txt", "csv"], key="gnss_steps_upload",
                     help=t("gnss.steps_upload_help"), on_change=_remember_steps)
    text = st.session_state.get(STEPS_KEY)
    if text is None:  # no file; an empty one is parsed, and named empty
        st.info(t("gnss.steps_needed"))
        return None
    try:
        return source, parse_steps(text, component)
    except StepsFileError as exc:
        st.error(t(f"gnss.steps_error.{exc.code}", **{k: md(v, None) if isinstance(v, str) else integer(v)
                                                       for k, v in exc.details.items()}))
        return None


def station_sentence(reading) -> str:
    """A real-station reading in the session's language: a count of days agrees in number ("1 jour",
    "2 jours"), and the agents a jump dominates are joined by "et" / "and" ("v1 et v2")."""
    extra = {}
    if reading.code == "agents_gaps":
        extra["longest_gap_days"] = plural("gnss.gap_days", reading.values["longest_gap_days"])
    elif reading.code == "jump_in_margin_absorbed":
        names = reading.values["agents"].split(", ")
        extra["agents"] = names[0] if len(names) == 1 else t("gnss.agents_both", a=", ".join(names[:-1]),
                                                              b=names[-1])
    return sentence("gnss.station", reading, **extra)


def _verdict(grade) -> str:
    return t("gnss.verdict.pass") if grade.passed else t("gnss.verdict.fail")


def grades_table(result) -> pd.DataFrame:
    """Each agent against the reference: verdict, offsets, velocities, tolerances and the failures named."""
    def offset(value):
        return "—" if value is None else number(value, ".1f")
    rows = [(g, e) for g, e in zip(result.grades, result.estimates)]
    return pd.DataFrame({
        t("gnss.col.graded_agent"): [t(f"gnss.agent.{g.agent}") for g, _ in rows],
        t("gnss.col.verdict"): [_verdict(g) for g, _ in rows],
        t("gnss.col.agent_offset"): [_offset_text(e) for _, e in rows],
        t("gnss.col.reference_offset"): [offset(g.reference_offset_mm) for g, _ in rows],
        t("gnss.col.offset_tolerance"): [offset(g.offset_tolerance_mm) for g, _ in rows],
        t("gnss.col.estimated_velocity"): [number(g.velocity_mm_yr) for g, _ in rows],
        t("gnss.col.reference_velocity"): [number(g.reference_velocity_mm_yr) if "velocity" not in g.unchecked
                                           else t("gnss.velocity_unchecked") for g, _ in rows],
        t("gnss.col.velocity_tolerance"): ["—" if "velocity" in g.unchecked else number(g.velocity_tolerance_mm_yr, ".1f")
                                           for g, _ in rows],
        t("gnss.col.failures"): [", ".join(t(f"gnss.station_failure.{f}") for f in g.failures) or "—"
                                 for g, _ in rows],
    })


def failures_text(reading) -> str:
    """The failure codes of a ``station_agent_fails`` reading in the session's language."""
    return ", ".join(t(f"gnss.station_failure.{f}") for f in reading.values.get("failures", ()))


def _offset_text(estimate) -> str:
    if estimate.offset_date is None:
        return t("gnss.no_offset")
    return t("gnss.offset_on", date=estimate.offset_date.isoformat(), size=number(estimate.offset_mm, ".1f"))


def file_error_text(exc: GnssFileError, name: str) -> str:
    """The reader's problem in the session's language, naming the line when one line is at fault and
    recalling the layout the file's format expects."""
    where = t("gnss.file_line", line=integer(exc.details["line"])) if exc.details.get("line") else ""
    kind = Path(name).suffix.lstrip(".").lower()
    layout = t(f"gnss.file_layout.{kind}") if kind in FORMATS else t("gnss.file_layout.any")
    return t(f"gnss.file_error.{exc.code}", where=where, format=md(exc.details.get("format", kind), None),
             min_days=MIN_DAYS) + " " + layout


def _remember_upload() -> None:
    """A new file replaces the kept one; removing the file from the widget forgets it."""
    upload = st.session_state.get("gnss_upload")
    st.session_state[UPLOAD_KEY] = (upload.name, upload.getvalue()) if upload is not None else None


def station_section(v1_threshold: float, v2_threshold: float) -> None:
    """Upload, component choice, the reader's notes, the three agents' estimates and v2's fit."""
    st.header(t("gnss.upload_title"))
    st.markdown(t("gnss.upload_intro"))
    upload = st.file_uploader(t("gnss.upload_label"), type=list(FORMATS), key="gnss_upload",
                              help=t("gnss.upload_help"), max_upload_size=MAX_UPLOAD_MB, on_change=_remember_upload)
    if not st.session_state.get(UPLOAD_KEY):
        return
    name, data = st.session_state[UPLOAD_KEY]
    if upload is None:  # back from another page: the widget is empty, the file is not forgotten
        st.caption(t("gnss.upload_kept", name=md(name)))
        st.button(t("gnss.upload_forget"), key="gnss_upload_forget", on_click=st.session_state.pop,
                  args=(UPLOAD_KEY, None))
    # A plain CSV holds one displacement column: no east/north/up choice to offer, the reader ignores it.
    one_component = Path(name).suffix.lower() == ".csv"
    component = COMPONENTS[-1] if one_component else translated_radio("gnss_component", "gnss.component",
                                                                      COMPONENTS)
    if len(data) > MAX_UPLOAD_BYTES:
        st.error(t("gnss.upload_too_large", mb=integer(MAX_UPLOAD_MB)))
        return
    progress = st.progress(0.0, text=t("gnss.progress.read"))
    try:
        series = _read(data, name, component)
    except GnssFileError as exc:
        progress.empty()
        st.error(file_error_text(exc, name))
        return
    progress.progress(1 / 3, text=t("gnss.progress.agents"))
    observed = series.observed
    if series.file_format == "csv":
        st.caption(t("gnss.csv_component", column=md(series.component, None)))
    span = observed["date"].iloc[-1] - observed["date"].iloc[0]
    st.markdown(t("gnss.station_read", station=md(series.station or name), days=integer(len(observed)),
                  first=observed["date"].iloc[0].date().isoformat(), last=observed["date"].iloc[-1].date().isoformat(),
                  years=number(span.days / agents.DAYS_PER_YEAR, ".1f")))
    for reading in station_readings(series):
        say("gnss.station", reading, st.info)
    chosen = _reference_steps(series.component)
    if chosen is None:
        progress.empty()
        return
    result = _estimates(data, name, component, v1_threshold, v2_threshold, *chosen)
    fit, midas = result.fit, result.estimates[2]
    progress.progress(2 / 3, text=t("gnss.progress.figure"))
    results_table(pd.DataFrame({
        t("gnss.col.agent"): [t("gnss.agent.v1"), t("gnss.agent.v2"), t("gnss.agent.reference")],
        t("gnss.col.estimated_velocity"): [number(e.velocity_mm_yr) for e in result.estimates],
        t("gnss.col.offset_date"): [_offset_text(e) for e in result.estimates],
        t("gnss.col.sigma"): ["—", "—", number(midas.sigma_mm_yr)],
    }), hide_index=True)
    download_table("gnss_station", lambda: result.estimates)
    st.caption(t("gnss.reference_method", window=integer(OFFSET_WINDOW_DAYS), min_epochs=integer(MIN_SIDE_EPOCHS)))
    results_table(grades_table(result), hide_index=True)
    for reading in result.readings:
        if reading.code == "station_agent_fails":
            say("gnss.station", reading, st.warning, agent=t(f"gnss.agent.{reading.values['agent']}"),
                failures=failures_text(reading))
        elif reading.code == "station_agent_passes":
            say("gnss.station", reading, st.success, agent=t(f"gnss.agent.{reading.values['agent']}"))
        else:
            st.info(station_sentence(reading))
    st.caption(t("gnss.station_no_truth"))
    st.caption(t("gnss.detector_margin", margin=integer(agents.JUMP_MARGIN_DAYS),
                 window=integer(agents.JUMP_WINDOW_DAYS)))
    shown = extremes_per_bucket(observed["disp_mm"].to_numpy(), MAX_FIGURE_POINTS)
    dates = observed["date"].to_numpy()[shown]
    markers = tuple((pd.Timestamp(day), t("gnss.equipment_marker")) for day in series.equipment_changes)
    if fit.step_day is not None:
        markers += ((observed["date"].iloc[0] + pd.Timedelta(days=fit.step_day), t("gnss.v2_step_marker")),)
    # A chart title is not Markdown: the column name is escaped for plotly, never with backslashes.
    title = t(f"gnss.component.{component}") if series.file_format != "csv" else plain(series.component, None)
    st.plotly_chart(time_series(dates, observed["disp_mm"].to_numpy()[shown],
                                title=t("gnss.station_figure", component=title), y_title=t("gnss.disp_mm"),
                                data_name=t("gnss.observed"),
                                fitted=None if fit.fitted_mm is None else np.asarray(fit.fitted_mm)[shown],
                                fitted_name=t("gnss.v2_fit"), markers=markers), width="stretch",
                    key="gnss_station_figure", config=chart_config())
    if len(shown) < len(observed):
        st.caption(t("gnss.points_shown", shown=integer(len(shown)), total=integer(len(observed))))
    progress.empty()

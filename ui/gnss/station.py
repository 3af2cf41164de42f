"""The GNSS page's upload: a real daily series read, described, and put through the agents (no truth)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from evallib.gnss import agents
from evallib.gnss.readers import COMPONENTS, FORMATS, MIN_DAYS, GnssFileError, read_text, station_readings
from ui.figures import extremes_per_bucket, time_series
from ui.gnss.view import say
from ui.i18n import integer, number, t
from ui.labels import md
from ui.widgets import translated_radio

#: Uploads above this size are refused before reading: 30 years of daily .tenv3 lines weigh about 2 MB.
MAX_UPLOAD_BYTES = 20_000_000
#: Points drawn in the station figure at most: beyond a few thousand markers the browser slows down
#: for nothing the eye can see at 1280 px (the estimates use every day).
MAX_FIGURE_POINTS = 4000


@st.cache_data(show_spinner=False, max_entries=8)
def _read(data: bytes, name: str, component: str):
    return read_text(data.decode("utf-8", errors="replace"), name, component)


@st.cache_data(show_spinner=False, max_entries=8)
def _estimates(observed: pd.DataFrame, v1_threshold: float, v2_threshold: float):
    t_days, d = agents.day_index(observed), observed["disp_mm"].to_numpy()
    fit = agents.fit_v2(observed, v2_threshold)
    midas = agents.midas_velocity(t_days, d, () if fit.step_day is None else (fit.step_day,))
    # agent_v2's answer from the fit already made (agent_v2 would fit the series a second time)
    v2 = agents._answer(fit["velocity_mm_yr"], fit.step_day is not None, fit.step_day)
    return agents.agent_v1(observed, v1_threshold), v2, fit, midas


def _day_text(observed: pd.DataFrame, answer: dict) -> str:
    if not answer["offset"]:
        return t("gnss.no_offset")
    day = observed["date"].iloc[0] + pd.Timedelta(days=answer["offset_day"])
    return day.date().isoformat()


def file_error_text(exc: GnssFileError, name: str) -> str:
    """The reader's problem in the session's language, naming the line when one line is at fault and
    recalling the layout the file's format expects."""
    where = t("gnss.file_line", line=integer(exc.details["line"])) if exc.details.get("line") else ""
    kind = Path(name).suffix.lstrip(".").lower()
    layout = t(f"gnss.file_layout.{kind}") if kind in FORMATS else t("gnss.file_layout.any")
    return t(f"gnss.file_error.{exc.code}", where=where, format=md(exc.details.get("format", kind), None),
             min_days=MIN_DAYS) + " " + layout


def station_section(v1_threshold: float, v2_threshold: float) -> None:
    """Upload, component choice, the reader's notes, the three agents' estimates and v2's fit."""
    st.header(t("gnss.upload_title"))
    st.markdown(t("gnss.upload_intro"))
    upload = st.file_uploader(t("gnss.upload_label"), type=list(FORMATS), key="gnss_upload",
                              help=t("gnss.upload_help"))
    if upload is None:
        return
    # A plain CSV holds one displacement column: no east/north/up choice to offer, the reader ignores it.
    one_component = Path(upload.name).suffix.lower() == ".csv"
    component = COMPONENTS[-1] if one_component else translated_radio("gnss_component", "gnss.component",
                                                                      COMPONENTS)
    data = upload.getvalue()
    if len(data) > MAX_UPLOAD_BYTES:
        st.error(t("gnss.upload_too_large", mb=number(MAX_UPLOAD_BYTES / 1e6, ".0f")))
        return
    progress = st.progress(0.0, text=t("gnss.progress.read"))
    try:
        series = _read(data, upload.name, component)
    except GnssFileError as exc:
        progress.empty()
        st.error(file_error_text(exc, upload.name))
        return
    progress.progress(1 / 3, text=t("gnss.progress.agents"))
    observed = series.observed
    if series.file_format == "csv":
        st.caption(t("gnss.csv_component", column=md(series.component, None)))
    span = observed["date"].iloc[-1] - observed["date"].iloc[0]
    st.markdown(t("gnss.station_read", station=md(series.station or upload.name), days=integer(len(observed)),
                  first=observed["date"].iloc[0].date().isoformat(), last=observed["date"].iloc[-1].date().isoformat(),
                  years=number(span.days / agents.DAYS_PER_YEAR, ".1f")))
    for reading in station_readings(series):
        say("gnss.station", reading, st.info)
    v1, v2, fit, midas = _estimates(observed, v1_threshold, v2_threshold)
    progress.progress(2 / 3, text=t("gnss.progress.figure"))
    st.dataframe(pd.DataFrame({
        t("gnss.col.agent"): [t("gnss.agent.v1"), t("gnss.agent.v2"), t("gnss.agent.midas")],
        t("gnss.col.estimated_velocity"): [number(v1["velocity_mm_yr"]), number(v2["velocity_mm_yr"]),
                                           number(midas.velocity_mm_yr)],
        t("gnss.col.offset_date"): [_day_text(observed, v1), _day_text(observed, v2), _day_text(observed, v2)],
        t("gnss.col.sigma"): ["—", "—", number(midas.sigma_mm_yr)],
    }), hide_index=True)
    if not np.isfinite(midas.velocity_mm_yr):
        st.info(t("gnss.midas_undefined"))
    st.caption(t("gnss.station_no_truth"))
    st.caption(t("gnss.detector_margin", margin=integer(agents.JUMP_MARGIN_DAYS),
                 window=integer(agents.JUMP_WINDOW_DAYS)))
    shown = extremes_per_bucket(observed["disp_mm"].to_numpy(), MAX_FIGURE_POINTS)
    dates = observed["date"].to_numpy()[shown]
    markers = tuple((pd.Timestamp(day), t("gnss.equipment_marker")) for day in series.equipment_changes)
    if fit.step_day is not None:
        markers += ((observed["date"].iloc[0] + pd.Timedelta(days=fit.step_day), t("gnss.v2_step_marker")),)
    name = t(f"gnss.component.{component}") if series.file_format != "csv" else md(series.component, None)
    st.plotly_chart(time_series(dates, observed["disp_mm"].to_numpy()[shown],
                                title=t("gnss.station_figure", component=name), y_title=t("gnss.disp_mm"),
                                data_name=t("gnss.observed"),
                                fitted=None if fit.fitted_mm is None else np.asarray(fit.fitted_mm)[shown],
                                fitted_name=t("gnss.v2_fit"), markers=markers), width="stretch",
                    key="gnss_station_figure")
    if len(shown) < len(observed):
        st.caption(t("gnss.points_shown", shown=integer(len(shown)), total=integer(len(observed))))
    progress.empty()

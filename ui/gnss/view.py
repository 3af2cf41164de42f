"""Cached computations, tables and reading sentences of the GNSS page (the page itself stays thin).

Every computation is a call to `evallib.gnss`, cached on hashable inputs (thresholds, tolerances,
case ids): the whole 12-case evaluation of both agents and the tolerance derivation take well under
a second, and a warm rerun costs nothing.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from evallib.gnss import agents, tolerances
from evallib.gnss.cases import case_by_id
from evallib.gnss.station import agent_midas_reading
from evallib.gnss.midas_scatter import SigmaScatter, sigma_versus_scatter
from evallib.gnss.evaluation import AlarmThreshold, CaseResult, compare_velocities, highest_false_alarm_threshold, run_eval
from evallib.gnss.spec import SPEC_V1, SPEC_V2
from evallib.cluster_rates import ClusteredRate, clustered_rate_reading
from evallib.readings import Reading
from ui.figures import chart_config, figure_key, histogram_bars, rate_curves, time_series
from ui.i18n import integer, interval, number, percent, t
from ui.labels import md, name_list

#: Thresholds of agent v1's trade-off curve (mm): from where ordinary noise trips the rule to above
#: the largest offset of the cases; the page's slider moves on the same grid.
V1_THRESHOLDS = tuple(float(x) for x in np.arange(2.0, 26.5, 0.5))
#: Agent v2's step threshold on the slider (mm): from below the noise to above the cases' offsets.
V2_THRESHOLDS = tuple(float(x) for x in np.arange(1.0, 20.5, 0.5))
#: Velocity tolerances offered (mm/yr), in tenths from the finest the cases' noise allows to far above it.
VELOCITY_TOLERANCES = tuple(round(float(x), 1) for x in np.arange(0.1, 20.05, 0.1))
#: Longest column title (characters): the twelve-column results table and the live table fit 1280 px
#: without scrolling sideways; units go to a caption under the tables.
MAX_TITLE_CHARS = 16
#: Pass rates offered by the runs-needed calculator, in steps of 5 %.
RATES = tuple(round(x, 2) for x in np.arange(0.0, 1.0001, 0.05))
#: Rows drawn by a table before it scrolls: the twelve cases and the passes row fit without a scrollbar.
ROW_PX, HEADER_PX = 35, 38
#: The trade-off is measured on the clean 10-year design (C01) with an 8 mm step (C07's, the
#: detection limit Gazeaux et al. 2013 report) at C07's day.
TRADE_OFF_BASE, TRADE_OFF_STEP = "C01", "C07"

AGENT_FUNCTIONS = {"v1": agents.agent_v1, "v2": agents.agent_v2, "midas": agents.agent_midas}
#: Whether an agent's velocity model includes the step it flags (`failure_groups`).
MODELS_OFFSETS = {"v1": False, "v2": True, "midas": True}
BASE_SPECS = {"v1": SPEC_V1, "v2": SPEC_V2, "midas": SPEC_V2}


@st.cache_data(show_spinner=False, max_entries=64)
def evaluation(agent: str, threshold_mm: float, velocity_tol: float, day_tol: int) -> list[CaseResult]:
    """Rows of ``agent`` ("v1", "v2", "midas") at its threshold under its spec with the edited tolerances."""
    spec = BASE_SPECS[agent].with_tolerances(velocity_tol, day_tol)
    function = AGENT_FUNCTIONS[agent]
    keyword = "jump_threshold_mm" if agent == "v1" else "step_threshold_mm"
    return run_eval(partial(function, **{keyword: threshold_mm}), spec)


@st.cache_data(show_spinner=False, max_entries=16)
def alarm_threshold(velocity_tol: float, day_tol: int) -> AlarmThreshold | None:
    """Agent v1 re-run on the cases down its slider's grid to the highest threshold with a false alarm."""
    return highest_false_alarm_threshold(V1_THRESHOLDS, SPEC_V1.with_tolerances(velocity_tol, day_tol))


@st.cache_data(show_spinner=False, max_entries=16)
def summary(v1_threshold_mm: float, v2_threshold_mm: float) -> tolerances.SeedSummary:
    return tolerances.seed_summary(tolerances.DEFAULT_TRIALS, v1_threshold_mm, v2_threshold_mm)


#: Record lengths of the MIDAS sigma check: the cases' two lengths.
MIDAS_CHECK_YEARS = (2.0, 10.0)


@st.cache_data(show_spinner=False, max_entries=4)
def midas_scatter() -> tuple[SigmaScatter, ...]:
    """MIDAS's published sigma against the scatter of its velocity, on the cases' default noise."""
    return tuple(sigma_versus_scatter(years) for years in MIDAS_CHECK_YEARS)


def midas_scatter_table(results: tuple[SigmaScatter, ...]) -> pd.DataFrame:
    return pd.DataFrame({
        t("gnss.col.years"): [number(r.n_years, ".0f") for r in results],
        t("gnss.col.realisations"): [integer(r.realisations) for r in results],
        t("gnss.col.sigma_published"): [number(r.sigma) for r in results],
        t("gnss.col.sigma_unscaled"): [number(r.sigma_unscaled) for r in results],
        t("gnss.col.scatter"): [number(r.scatter) for r in results],
        t("gnss.col.scatter_interval"): [interval(r.scatter_low, r.scatter_high) for r in results],
    })


@st.cache_data(show_spinner=False, max_entries=4)
def trade_off() -> tolerances.JumpRates:
    step = case_by_id(TRADE_OFF_STEP).params
    return tolerances.jump_threshold_rates(np.array(V1_THRESHOLDS), case_by_id(TRADE_OFF_BASE).params,
                                           step["coseismic_mm"], step["eq_day"])


@st.cache_data(show_spinner=False, max_entries=32)
def case_fit(case_id: str, threshold_mm: float) -> tuple[pd.DataFrame, dict, agents.TrajectoryFit]:
    """The observed table, truth and agent v2's final fit of a case."""
    series = case_by_id(case_id).load()
    return series.observed, series.truth, agents.fit_v2(series.observed, threshold_mm)


@st.cache_data(show_spinner=False, max_entries=16)
def midas_case_reading(case_id: str, threshold_mm: float) -> Reading:
    """Why the MIDAS agent has (or has no) velocity on a case."""
    return agent_midas_reading(case_by_id(case_id).load().observed, threshold_mm)


@st.cache_data(show_spinner=False, max_entries=8)
def case_observed(case_id: str) -> pd.DataFrame:
    return case_by_id(case_id).load().observed


# ------------------------------------------------------------------------------ sentences

def millimetres(value: float) -> str:
    """A threshold on a slider: "12 mm", "6,5 mm"."""
    return f"{number(value, '.0f' if float(value).is_integer() else '.1f')} mm"


def tenths(value: float) -> str:
    """A tolerance on a slider in the session's language: "1,5" in French."""
    return number(value, ".1f")


def table_height(rows: int) -> int:
    """Pixels for a table of ``rows`` rows to show them all."""
    return HEADER_PX + ROW_PX * rows


def sentence_value(name: str, value: object) -> str:
    """One reading value as text, as `sentence` writes it."""
    return _text(name, value)


def _text(name: str, value: object) -> str:
    if value is None:
        return t("format.undefined")
    if "share" in name:
        return percent(value)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return ", ".join(number(v, ".0f") for v in value)
        return name_list([str(v) for v in value])
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return integer(value)
    if isinstance(value, float):  # whole figures (12 mm, 10 years) without decimals, others to two
        return number(value, ".0f" if float(value).is_integer() else ".2f")
    return md(value, None)


def sentence(prefix: str, reading: Reading, **extra: object) -> str:
    """``t(f"{prefix}.{code}")`` with the reading's values as text: shares as percentages, lists named,
    counts with thousands separators, figures in the language's decimal mark, labels escaped."""
    return t(f"{prefix}.{reading.code}", **{**{k: _text(k, v) for k, v in reading.values.items()}, **extra})


def say(prefix: str, reading: Reading, show=st.markdown, **extra: object) -> None:
    show(sentence(prefix, reading, **extra))


def problems_text(problems) -> str:
    """An answer's schema problems in the session's language ("missing key « offset_day »; ...")."""
    return "; ".join(t(f"gnss.problem.{code}", **{k: md(v, None) for k, v in values.items()})
                     for code, values in problems)


# ------------------------------------------------------------------------------ tables

def _mark(ok: bool | None) -> str:
    return "—" if ok is None else ("✓" if ok else "✗")


def results_table(rows: list[CaseResult]) -> pd.DataFrame:
    """The per-case table with translated headers; a malformed answer shows its problems."""
    # The verdicts first: at 1280 px the numbers scroll out of sight before the ✓/✗ would.
    return pd.DataFrame({
        t("gnss.col.case"): [r.case_id for r in rows],
        t("gnss.col.description"): [t(f"gnss.case.{r.description}") for r in rows],
        t("gnss.col.passed"): [_mark(r.passed) for r in rows],
        t("gnss.col.velocity_ok"): [_mark(r.velocity_ok) for r in rows],
        t("gnss.col.offset_ok"): [_mark(r.flag_ok and r.day_ok) for r in rows],
        t("gnss.col.true_velocity"): [number(r.true_velocity, ".1f") for r in rows],
        t("gnss.col.estimated_velocity"): [number(r.estimated_velocity) for r in rows],
        t("gnss.col.tolerance"): [number(r.velocity_tol, ".1f") for r in rows],
        t("gnss.col.true_offset"): [number(r.coseismic_mm, ".0f") if r.true_offset else "—" for r in rows],
        t("gnss.col.true_day"): ["—" if r.true_day is None else integer(r.true_day) for r in rows],
        t("gnss.col.flagged_day"): [("—" if r.flagged is None else t("gnss.no_offset")) if not r.flagged
                                    else integer(r.estimated_day) for r in rows],
        t("gnss.col.years"): [number(r.n_years, ".0f") for r in rows],
        t("gnss.col.problems"): [problems_text(r.problems) if r.problems else "" for r in rows],
    })


def summary_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The closing table (docs/gnss.md#tolerances) with translated column names and ✓/✗ cells."""
    names = {"agent v1, spec v1": t("gnss.run.v1_v1"), "agent v2, spec v2": t("gnss.run.v2_v2"),
             "agent v2, spec v3": t("gnss.run.v2_v3")}
    shown = table.rename(columns=names)
    cells = shown.drop(index="passes").map(_mark)
    cells.loc[t("gnss.passes_row")] = [f"{int(v)}/{len(cells)}" for v in shown.loc["passes"]]
    return cells.rename_axis(t("gnss.col.case")).reset_index()


def comparison_table(rows_v2: list[CaseResult], rows_midas: list[CaseResult]) -> tuple[pd.DataFrame, Reading]:
    comparison, reading = compare_velocities(rows_v2, rows_midas)
    frame = pd.DataFrame({t("gnss.col.case"): list(comparison.case_ids),
                          t("gnss.col.true_velocity"): [number(r.true_velocity, ".1f") for r in rows_v2],
                          t("gnss.col.v2_velocity"): [number(r.estimated_velocity) for r in rows_v2],
                          t("gnss.col.midas_velocity"): [number(r.estimated_velocity) for r in rows_midas],
                          t("gnss.col.v2_error"): [number(e) for e in comparison.errors_a],
                          t("gnss.col.midas_error"): [number(e) for e in comparison.errors_b]})
    return frame, reading


def say_overall(rate: ClusteredRate) -> None:
    """A pass rate over several cases (`evallib.gnss.repeated.overall_pass_rate`): the interval with the
    case as the unit, the one per run beside it, and what separates them."""
    if rate.defined:
        st.markdown(t("gnss.overall", items=integer(rate.items), n=integer(rate.n), rate=number(rate.value),
                      ci=interval(rate.low, rate.high), decision_ci=interval(rate.decision_low, rate.decision_high)))
    say("gnss.cluster", clustered_rate_reading(rate), st.caption)


def rate_row(rate) -> dict:
    """One row of a pass-rate table (`evallib.gnss.repeated.PassRate`)."""
    return {t("gnss.col.passes"): f"{rate.passes}/{rate.runs}", t("gnss.col.rate"): percent(rate.rate),
            t("gnss.col.standard_error"): number(rate.standard_error),
            t("gnss.col.wilson"): interval(rate.low, rate.high)}


# ------------------------------------------------------------------------------ figures
# A resource cache: a plotly figure is rebuilt only when its data, texts, language or presentation mode change.

@st.cache_resource(show_spinner=False, max_entries=64)
def _figure(builder: str, style: str, *args, **kwargs):
    return {"series": time_series, "histogram": histogram_bars, "rates": rate_curves}[builder](*args, **kwargs)


def chart(container, builder: str, *args, key: str | None = None, **kwargs) -> None:
    container.plotly_chart(_figure(builder, figure_key(), *args, **kwargs), width="stretch", key=key,
                           config=chart_config())


@st.cache_resource(show_spinner=False, max_entries=64)
def _case_chart(case_id: str, threshold_mm: float, residuals: bool, style: str, texts: tuple):
    """A case's figure, cached on small keys (hashing the series itself would cost more than drawing it)."""
    title, marker, y_data, data_name, y_fit, fit_name = texts
    observed, truth, fit = case_fit(case_id, threshold_mm)
    dates = observed["date"].to_numpy()
    markers = ((dates[truth["offset_day"]], marker),) if truth["offset"] else ()
    if residuals:
        return time_series(dates, fit.residuals_mm, title=title, y_title=y_data, data_name=data_name, markers=markers)
    return time_series(dates, observed["disp_mm"].to_numpy(), title=title, y_title=y_fit,
                       data_name=data_name, fitted=fit.fitted_mm, fitted_name=fit_name, markers=markers)


def case_figure(container, case_id: str, threshold_mm: float, residuals: bool) -> None:
    """A case's series with v2's fit (or its residuals) and the true offset day marked."""
    texts = (f"{case_id} · {t(f'gnss.case.{case_by_id(case_id).description}')}", t("gnss.true_offset_marker"),
             t("gnss.residual_mm"), t("gnss.residuals") if residuals else t("gnss.observed"), t("gnss.disp_mm"),
             t("gnss.v2_fit"))
    container.plotly_chart(_case_chart(case_id, threshold_mm, residuals, figure_key(), texts), width="stretch",
                           key=f"gnss_fig_{case_id}", config=chart_config())


def spread_figure(container, spread: tolerances.ErrorSpread, tolerance: float) -> None:
    chart(container, "histogram", tuple(spread.histogram_edges), tuple(int(c) for c in spread.histogram_counts),
          title=t("gnss.spread_figure", years=number(spread.n_years, ".0f")), x_title=t("gnss.abs_error"),
          y_title=t("gnss.realisations"),
          references=((spread.median, t("gnss.median")), (spread.p95, t("gnss.p95")),
                      (tolerance, t("gnss.tolerance_line"))), key=f"gnss_spread_{spread.n_years:g}")


def trade_off_figure(container, rates: tolerances.JumpRates, threshold_mm: float) -> None:
    chart(container, "rates", tuple(rates.thresholds_mm),
          ((t("gnss.false_alarm_rate"), tuple(rates.false_alarm_rate)),
           (t("gnss.detection_rate", step=number(rates.step_mm, ".0f")), tuple(rates.detection_rate))),
          title=t("gnss.trade_off_figure", n=len(rates.seeds)), x_title=t("gnss.threshold_mm"),
          marker=(threshold_mm, t("gnss.current_threshold")), key="gnss_trade_off")


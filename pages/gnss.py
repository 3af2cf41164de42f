"""GNSS agent evaluation: build the evaluation before trusting an agent (docs/gnss.md).

Thin on purpose: widgets -> evallib.gnss (cached in ui/gnss/view.py) -> tables, figures and readings
translated from their codes. The live agent is in ui/gnss/live.py, the station upload in ui/gnss/station.py.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evallib.gnss import agents
from evallib.gnss.cases import PLOT_CASES
from evallib.gnss.evaluation import (failure_groups, false_alarm_threshold_reading, first_alarm_comparison_reading,
                                     pass_count)
from evallib.gnss.midas_scatter import sigma_scatter_reading
from evallib.gnss.repeated import (load_recorded_runs, overall_pass_rate, pass_rate, pass_rate_reading,
                                   runs_to_separate)
from evallib.gnss.spec import DEFAULT_DAY_TOL, DEFAULT_VELOCITY_TOL, SPEC_V1, render_spec
from evallib.gnss import tolerances
from evallib.gnss.tolerances import rounded_upper_bound, spread_reading, threshold_reading, tolerance_from_spread
from evallib.gnss import evaluation, midas
from ui import result_tables as rt
from ui.code_view import see_the_code
from ui.gnss import view
from ui.gnss.bundle import controls as bundle_controls, keep_loaded, page_run
from ui.gnss.live import live_section
from ui.gnss.station import station_section
from ui.downloads import download_table
from ui.i18n import integer, interval, number, percent, t
from ui.labels import md
from ui.packs import pack_file
from ui.shell import require_navigation
from ui.tables import results_table, wrapped_table
from ui.widgets import metric_rows

require_navigation()

#: The planted flaws are short sentences: shown whole in the readings up to this length.
FLAW_CHARS = 64


def _spec_section() -> tuple[float, int]:
    st.header(t("gnss.spec_title"))
    st.markdown(t("gnss.spec_intro"))
    left, right = st.columns(2)
    velocity_tol = left.select_slider(t("gnss.velocity_tol"), options=view.VELOCITY_TOLERANCES,
                                      value=DEFAULT_VELOCITY_TOL, persist_state="session", key="gnss_velocity_tol",
                                      help=t("gnss.velocity_tol_help"), format_func=view.tenths)
    day_tol = right.number_input(t("gnss.day_tol"), min_value=0, max_value=1000, value=DEFAULT_DAY_TOL, step=5,
                                 persist_state="session", key="gnss_day_tol", help=t("gnss.day_tol_help"))
    st.code(render_spec(SPEC_V1.with_tolerances(velocity_tol, day_tol)), language=None, wrap_lines=True)
    st.caption(t("gnss.spec_english"))
    return float(velocity_tol), int(day_tol)


def _agents_section() -> tuple[float, float]:
    st.header(t("gnss.agents_title"))
    st.markdown(t("gnss.agents_intro"))
    left, right = st.columns(2)
    v1 = left.select_slider(t("gnss.v1_threshold"), options=view.V1_THRESHOLDS, value=agents.V1_JUMP_THRESHOLD_MM,
                            persist_state="session", key="gnss_v1_threshold", help=t("gnss.v1_threshold_help"),
                            format_func=view.millimetres)
    v2 = right.select_slider(t("gnss.v2_threshold"), options=view.V2_THRESHOLDS, value=agents.V2_STEP_THRESHOLD_MM,
                             persist_state="session", key="gnss_v2_threshold", help=t("gnss.v2_threshold_help"),
                             format_func=view.millimetres)
    return float(v1), float(v2)


def _results_section(agent: str, threshold: float, velocity_tol: float, day_tol: int) -> list:
    rows = view.evaluation(agent, threshold, velocity_tol, day_tol)
    st.subheader(t(f"gnss.results_title.{agent}"))
    _results_table(rows, agent)
    download_table(f"gnss_results_{agent}", lambda: rt.gnss_cases(rows))
    see_the_code(view.AGENT_FUNCTIONS[agent], *AGENT_CODE[agent], evaluation.run_eval)
    return rows


#: What each agent that `view.evaluation` runs calls to estimate: shown under its results with the agent.
AGENT_CODE = {"v1": (agents.straight_line_velocity, agents.located_jump),
              "v2": (agents.fit_v2, agents.fit_trajectory, agents.design_matrix)}


def _results_table(rows: list, agent: str) -> None:
    st.metric(t("gnss.passes"), f"{pass_count(rows)}/{len(rows)}")
    wrapped_table(view.results_table(rows), hide_index=True)
    st.caption(t("gnss.units_caption"))
    for reading in failure_groups(rows, view.MODELS_OFFSETS[agent]):
        view.say("gnss.failure", reading, st.info if reading.code == "all_passed" else st.warning)


def _false_alarm_section(rows_v1: list, v1_threshold: float, velocity_tol: float, day_tol: int) -> None:
    found = view.alarm_threshold(velocity_tol, day_tol)
    reading = false_alarm_threshold_reading(rows_v1, v1_threshold, found)
    extra = {k: view.millimetres(reading.values[k]) for k in ("threshold_mm", "default_mm") if k in reading.values}
    view.say("gnss.alarm", reading, **extra)
    if reading.code == "alarm_below":
        st.subheader(t("gnss.results_title.v1_alarm", threshold=extra["threshold_mm"]))
        _results_table(found.rows, "v1")
        download_table("gnss_results_v1_alarm", lambda: rt.gnss_cases(found.rows))


def _trade_off_section(v1_threshold: float, velocity_tol: float, day_tol: int) -> None:
    st.subheader(t("gnss.trade_off_title"))
    st.markdown(t("gnss.trade_off_intro"))
    with st.spinner(t("gnss.computing")):
        rates = view.trade_off()
    view.trade_off_figure(st, rates, v1_threshold)
    view.say("gnss.threshold", threshold_reading(rates, v1_threshold))
    # Where the first false alarm comes on the cases is read from the same computation as section 3's.
    comparison = first_alarm_comparison_reading(view.alarm_threshold(velocity_tol, day_tol), rates.thresholds_mm,
                                                rates.false_alarm_rate, len(rates.seeds))
    view.say("gnss.first_alarm", comparison,
             **{k: view.millimetres(comparison.values[k]) for k in ("cases_mm", "series_mm")
                if comparison.values[k] is not None})


def _plots_section(v2_threshold: float) -> None:
    st.header(t("gnss.plots_title"))
    st.markdown(t("gnss.plots_intro"))
    residuals = st.toggle(t("gnss.show_residuals"), value=False, persist_state="session", key="gnss_residuals")
    for start in range(0, len(PLOT_CASES), 2):
        for column, case_id in zip(st.columns(2), PLOT_CASES[start:start + 2]):
            view.case_figure(column, case_id, v2_threshold, residuals)


def _tolerance_section(v1_threshold: float, v2_threshold: float, velocity_tol: float) -> None:
    st.header(t("gnss.tolerance_title"))
    st.markdown(t("gnss.tolerance_intro.bounded", n=integer(tolerances.DEFAULT_TRIALS),
                  min_trials=integer(tolerances.MIN_TRIALS)))
    with st.spinner(t("gnss.computing")):
        summary = view.summary(v1_threshold, v2_threshold)
    for column, spread in zip(st.columns(2), summary.spreads):
        with column:
            derived = tolerance_from_spread(spread)
            bounds = spread.p95_bounds
            st.metric(t("gnss.spread_metric", years=number(spread.n_years, ".0f")),
                      t("gnss.spread_value.bounded", p95=number(spread.p95)),
                      help=t("gnss.spread_help.bounded", n=integer(len(spread.errors)), first=spread.seeds[0],
                             last=spread.seeds[-1], designs=", ".join(sorted(set(spread.designs)))))
            st.caption(t("gnss.spread_caption.bounded", median=number(spread.median),
                         interval=interval(bounds.low, bounds.high)))
            view.spread_figure(st, spread, velocity_tol)
            view.say("gnss.spread", spread_reading(spread, velocity_tol))
            rounded = rounded_upper_bound(spread)
            values = {"tolerance": number(derived, ".1f"), "upper": number(bounds.upper),
                      "rounded": number(rounded, ".1f"), "rank": integer(bounds.upper_rank), "n": integer(len(spread.errors))}
            st.caption(t("gnss.derived_tolerance.bounded", **values) if derived == rounded
                       else t("gnss.derived_tolerance.floored", **values))
    st.subheader(t("gnss.spec_v3_title"))
    st.code(render_spec(summary.spec_v3), language=None, wrap_lines=True)
    st.subheader(t("gnss.summary_title"))
    results_table(view.summary_frame(summary.table), hide_index=True, width="stretch",
                  height=view.table_height(len(summary.table)))
    download_table("gnss_summary", lambda: rt.gnss_summary(summary.table))
    st.caption(t("gnss.summary_caption", v1=number(v1_threshold, ".1f"), v2=number(v2_threshold, ".1f")))
    st.metric(t("gnss.held_out"), f"{summary.held_out_passes}/{summary.held_out_total}", help=t("gnss.held_out_help"))
    see_the_code(tolerances.velocity_error_spread, tolerances.order_statistic_bounds, rounded_upper_bound,
                 tolerance_from_spread,
                 tolerances.derive_spec_v3)


def _midas_section(rows_v2: list, v2_threshold: float, velocity_tol: float, day_tol: int) -> None:
    st.header(t("gnss.midas_title"))
    st.markdown(t("gnss.midas_intro"))
    rows_midas = view.evaluation("midas", v2_threshold, velocity_tol, day_tol)
    frame, reading = view.comparison_table(rows_v2, rows_midas)
    results_table(frame, hide_index=True, width="stretch", height=view.table_height(len(frame)))
    download_table("gnss_v2_midas", lambda: rt.velocity_comparison(
        rows_v2, rows_midas, evaluation.compare_velocities(rows_v2, rows_midas)[0]))
    st.metric(t("gnss.midas_passes"), f"{pass_count(rows_midas)}/{len(rows_midas)}")
    view.say("gnss.comparison", reading, a=t("gnss.agent.v2"), b=t("gnss.agent.midas"))
    see_the_code(view.AGENT_FUNCTIONS["midas"], agents.midas_velocity, midas.select_pairs, midas._estimate,
                 midas._trimmed_median)
    for case_id in reading.values["undefined_b"]:
        st.caption(f"{case_id} · {view.sentence('gnss.station', view.midas_case_reading(case_id, v2_threshold))}")
    st.subheader(t("gnss.midas_sigma_title"))
    st.markdown(t("gnss.midas_sigma_intro"))
    with st.spinner(t("gnss.computing")):
        checks = view.midas_scatter()
    results_table(view.midas_scatter_table(checks), hide_index=True, width="stretch")
    download_table("gnss_midas_sigma", lambda: checks)
    st.caption(t("gnss.midas_sigma_caption"))
    for check in checks:
        view.say("gnss.midas_sigma", sigma_scatter_reading(check))


def _repeated_section() -> None:
    st.header(t("gnss.repeated_title"))
    st.markdown(t("gnss.repeated_intro"))
    recorded = load_recorded_runs(pack_file("gnss_recorded_runs.json"))  # the session's pack's, in its language
    rates = [pass_rate(case) for case in recorded]
    results_table(pd.DataFrame([{t("gnss.col.case"): r.case_id, t("gnss.col.flaw"): r.label, **view.rate_row(r)}
                                for r in rates]), hide_index=True, width="stretch")
    download_table("gnss_repeated_runs", lambda: rates)
    for rate in rates:
        view.say("gnss.rate", pass_rate_reading(rate), what=f"{rate.case_id} ({md(rate.label, FLAW_CHARS)})")
    st.subheader(t("gnss.overall_title"))
    view.say_overall(overall_pass_rate(recorded))
    st.subheader(t("gnss.calculator_title"))
    left, right = st.columns(2)
    p1 = left.select_slider(t("gnss.p1"), view.RATES, value=0.6,
                            persist_state="session", key="gnss_p1", format_func=percent)
    p2 = right.select_slider(t("gnss.p2"), view.RATES, value=0.8,
                             persist_state="session", key="gnss_p2", format_func=percent)
    if p1 == p2:
        st.info(t("gnss.calculator_equal"))
        return
    runs = runs_to_separate(p1, p2)
    metric_rows([(t("gnss.runs_needed"), integer(runs), t("gnss.runs_needed_help"))])
    st.markdown(t("gnss.calculator_reading", runs=integer(runs), p1=percent(p1), p2=percent(p2)))


# ---------------------------------------------------------------- page

st.title(t("gnss.title"))
st.markdown(t("gnss.intro"))
velocity_tol, day_tol = _spec_section()
v1_threshold, v2_threshold = _agents_section()
keep_loaded(velocity_tol, day_tol, v1_threshold, v2_threshold)
st.header(t("gnss.results_header"))
rows_v1 = _results_section("v1", v1_threshold, velocity_tol, day_tol)
_false_alarm_section(rows_v1, v1_threshold, velocity_tol, day_tol)
_trade_off_section(v1_threshold, velocity_tol, day_tol)
rows_v2 = _results_section("v2", v2_threshold, velocity_tol, day_tol)
_plots_section(v2_threshold)
_tolerance_section(v1_threshold, v2_threshold, velocity_tol)
_midas_section(rows_v2, v2_threshold, velocity_tol, day_tol)
_repeated_section()
text_model = live_section()
station_section(v1_threshold, v2_threshold)
st.divider()
bundle_controls(lambda station: page_run(velocity_tol, day_tol, v1_threshold, v2_threshold, text_model, station))
st.divider()
st.markdown(t("gnss.cli"))

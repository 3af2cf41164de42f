"""Kappa page: how much raters agree beyond chance, and why percent agreement alone misleads.

Thin on purpose: widgets -> evallib.agreement (figures and readings, computed once and cached) ->
texts translated from reading codes, figures from ``ui.figures``. Labels and names are data: they
reach the page through ``ui.labels`` (escaped, shortened).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from evallib import agreement as ag
from evallib.agreement import readings as rd
from evallib.agreement.measured import measured_coverage
from evallib.agreement.small_sample import donner_eliasziw_interval, posterior_interval, posterior_intervals
from evallib.agreement.cohen import _chance_corrected, _kappa_standard_error, kappa_from_table
from ui import result_tables as rt
from ui.code_view import see_the_code
from ui.downloads import download_table
from evallib.agreement.ratings import _factorise, pair_table
from evallib.runs.kappa.bundle import BOOT_SEED, CI_METHODS, HALF_WIDTH, N_BOOT  # the run bundle's too
from ui.kappa.bundle import controls as bundle_controls
from ui.kappa.folding import case_folding
from ui.figures import figure_key, grouped_bars, heatmap
from ui.i18n import integer, interval, number, percent, plural, t
from ui.labels import AXIS_LABEL_CHARS, md, plain
from ui.ratings_input import file_ratings, load_preset, pick_pair, show_input_error, typed_ratings
from ui.readings import say as say_reading
from ui.room.rating import rating_form
from ui.shell import require_navigation
from ui.widgets import METRICS_PER_ROW, metric_rows, translated_radio

require_navigation()






# ------------------------------------------------------------------------------ translating readings

def say(prefix: str, reading: rd.Reading, **extra: object) -> str:
    """The text of ``reading`` under ``prefix`` (see ``ui.readings.say``); bands are the kappa page's."""
    return say_reading(prefix, reading, bands="kappa.band", **extra)


# ------------------------------------------------------------------------------ cached computations
# Reading 250,000 labels costs seconds: each computation runs once per input and is kept between
# reruns; a spinner shows while one runs.

def _cached(function):
    return st.cache_data(show_spinner=t("kappa.computing"), max_entries=16)(function)


def ratings_key(*columns: Sequence) -> str:
    """A cache key for typed ratings (a few hundred labels): Python's hash of the labels.

    The cached functions below take the ratings as underscore arguments, left out of Streamlit's
    hash (it hashes element by element), and this key instead. A file's ratings are keyed by the
    file's digest and the columns picked, computed once per upload (``ui.ratings_input.Upload``), so
    that a rerun costs the same whatever the size of the file.
    """
    return f"typed:{hash(tuple(tuple(column) for column in columns))}"


@_cached
def pair_report(key: str, _labels_a: Sequence, _labels_b: Sequence, weights: str | None,
                ci_method: str) -> ag.PairReport:
    return ag.pair_report(_labels_a, _labels_b, weights=weights, bootstrap=ci_method == "bootstrap", n_boot=N_BOOT,
                          seed=BOOT_SEED, half_width=HALF_WIDTH, small_sample=ci_method == "small_sample")


def _items_by_raters(by_rater: Sequence | np.ndarray) -> Sequence | np.ndarray:
    """Shape (n_raters, n_items) -> (n_items, n_raters), the layout of ``fleiss_kappa``."""
    return by_rater.T if isinstance(by_rater, np.ndarray) else list(zip(*by_rater))


@_cached
def fleiss(key: str, _by_rater: Sequence | np.ndarray) -> tuple:
    return ag.fleiss_kappa_with_interval(_items_by_raters(_by_rater), n_boot=N_BOOT, seed=BOOT_SEED)


@_cached
def alpha(key: str, _by_rater: Sequence | np.ndarray, level: str) -> tuple:
    return ag.krippendorff_alpha_with_interval(_by_rater, level=level, n_boot=N_BOOT, seed=BOOT_SEED)


# ------------------------------------------------------------------------------ two raters

@st.cache_resource(show_spinner=False, max_entries=32)
def pair_figures(key: str, style: str, name_a: str, name_b: str, _result: ag.KappaResult) -> tuple:
    """The contingency heatmap and the marginal bars, built once per data, names, language and presentation
    mode (``style``: `figure_key`; ``key``: the ratings' cache key; the table and shares do not depend on the
    weights)."""
    result = _result
    names = [ag.format_label(c) for c in result.categories]
    table = heatmap(
        result.table, result.categories, result.categories, title=t("kappa.heatmap_title"), x_title=name_b, y_title=name_a,
        value_format=".0f", hover=t("kappa.heatmap_hover", a=plain(name_a), b=plain(name_b)),
        label_chars=AXIS_LABEL_CHARS)
    shares = (result.marginals_1, result.marginals_2)
    counts = (result.table.sum(axis=1), result.table.sum(axis=0))
    bars = grouped_bars(
        result.categories, [(name_a, shares[0]), (name_b, shares[1])], title=t("kappa.marginals_title"),
        x_title=t("kappa.label"), texts=[[percent(s) for s in share] for share in shares],
        hover=[[f"{plain(label, None)}: {integer(c)} ({percent(s)})" for label, c, s in zip(names, cs, share)]
               for cs, share in zip(counts, shares)], value_range=(0, 1.15))
    return table, bars


def figures(result: ag.KappaResult, name_a: str, name_b: str, key: str) -> None:
    left, right = st.columns(2)
    table, bars = pair_figures(key, figure_key(), name_a, name_b, result)
    left.plotly_chart(table, width="stretch")
    right.plotly_chart(bars, width="stretch")


def interval_shown(report: ag.PairReport) -> rd.Reading:
    """The interval chosen, and what it can and cannot say (bootstrap flags, zero width, exact bound)."""
    result, boot, small = report.result, report.bootstrap, report.small_sample
    shown = ag.shown_interval(report)
    low, high = shown.low, shown.high
    if boot:
        st.caption(t("kappa.ci_bootstrap_caption", n_boot=integer(N_BOOT), n=integer(result.n), seed=BOOT_SEED)
                   + " " + " ".join(say("kappa.ci_flag", flag) for flag in rd.bootstrap_flags(boot)))
    elif small:
        st.caption(" ".join(say("kappa.ci_small", flag, n=integer(result.n))
                            for flag in rd.small_sample_flags(small, result.kappa)))
    else:
        st.caption(t("kappa.ci_analytic_caption", se=number(result.se, ".3f")) + " "
                   + say("kappa.ci_size", rd.analytic_interval_size(result.n)))
    measured = measured_coverage(shown.method, result.n)
    if measured:
        st.caption(say("kappa.measured", measured, coverage=percent(measured.values["coverage_share"], 1)))
    ci = rd.interval_reading(result.kappa, low, high, result.n, rd.LANDIS_KOCH_1977, analytic=not boot)
    if ci.code.startswith("zero_width"):
        exact = rd.exact_interval(result)
        extra = t("kappa.ci_exact", ci=interval(*exact), n=integer(result.n)) if exact else ""
        st.warning(say("kappa.ci", ci, ci=interval(low, high)) + " " + extra)
    return ci


def headline(report: ag.PairReport, name_a: str, name_b: str, ci_method: str) -> rd.Reading | None:
    """Percent agreement, p_o, p_e, kappa and its interval, with the notes on degenerate cases."""
    result = report.result
    weighted = result.weights is not None
    degenerate = rd.degenerate_pair(result)
    rare = report.rare_labels
    shown = ag.shown_interval(report)  # none beside a constant rater or too few items on the rarer labels
    metric_rows([
        (t("kappa.metric.agreement"), percent(result.agreement), t("kappa.metric.agreement_help")),
        ((t("kappa.metric.p_o_weighted") if weighted else t("kappa.metric.p_o")), number(result.p_o),
         t("kappa.metric.p_o_help")),
        ((t("kappa.metric.p_e_weighted") if weighted else t("kappa.metric.p_e")), number(result.p_e),
         t("kappa.metric.p_e_help")),
        (t(f"kappa.metric.kappa_{result.weights or 'plain'}"), number(result.kappa), t("kappa.metric.kappa_help")),
        (t(f"kappa.metric.ci_{ci_method}"), interval(shown.low, shown.high), t(f"kappa.metric.ci_{ci_method}_help")),
    ])
    if result.n_dropped:
        st.info(t("kappa.dropped", dropped=integer(result.n_dropped), n=integer(result.n)))
    if degenerate:
        names = (md(name_a), md(name_b))
        rater = degenerate.values.get("rater", 0)
        (st.warning if degenerate.code == "both_constant" else st.info)(say(
            "kappa.degenerate", degenerate, a=names[0], b=names[1], rater=names[rater], other=names[1 - rater]))
        pooled = rd.constant_rater_interval(degenerate, report.small_sample)
        if pooled:
            st.caption(say("kappa.ci_small", pooled, ci=interval(pooled.values["low"], pooled.values["high"])))
    if rare:
        needed = rare.values["items_needed"]
        st.info(say("kappa.rare_labels", rare, rater=md((name_a, name_b)[rare.values["rater"]]),
                    items_needed=integer(needed) if needed else t("format.undefined")))
    if shown.withheld:
        return None
    return interval_shown(report)


def reading(result: ag.KappaResult, ci: rd.Reading) -> None:
    """Where kappa and the interval shown fall on the usual scales."""
    st.subheader(t("kappa.reading_title"))
    st.markdown(t("kappa.reading_value", kappa=number(result.kappa),
                  landis_koch=t(f"kappa.band.{rd.band_of(result.kappa, rd.LANDIS_KOCH_1977)}"),
                  fleiss=t(f"kappa.band.{rd.band_of(result.kappa, rd.FLEISS_1981)}")))
    if ci.code in ("one_band", "bands"):
        st.markdown(say("kappa.ci", ci, ci=interval(ci.values["low"], ci.values["high"])))
    st.caption(t("kappa.reading_caveat"))


def paradox(report: ag.PairReport, name_a: str, name_b: str) -> None:
    """Kappa beside Scott's pi, PABAK, AC1 and alpha, and what prevalence and bias do to it."""
    st.subheader(t("kappa.paradox_title"))
    plain_kappa = report.plain
    metric_rows([
        (t("kappa.metric.kappa_plain"), number(plain_kappa.kappa), None),
        (t("kappa.metric.scott_pi"), number(report.scott_pi), t("kappa.metric.scott_pi_help")),
        ("PABAK", number(report.pabak), t("kappa.metric.pabak_help")),
        (t("kappa.metric.ac1"), number(report.ac1), t("kappa.metric.ac1_help")),
        (t("kappa.metric.alpha_nominal"), number(report.alpha), t("kappa.metric.alpha_help")),
    ])
    beside = rd.alpha_beside_kappa(plain_kappa.kappa, report.scott_pi, report.alpha, plain_kappa.n)
    if beside:
        st.caption(say("kappa.alpha_vs_kappa", beside))
    if plain_kappa.kappa is None:
        return
    names = {"a": md(name_a), "b": md(name_b)}
    st.markdown(say("kappa.chance", rd.chance(plain_kappa), **names))
    if report.prevalence is None:
        st.caption(t("kappa.paradox_not_binary", k=integer(len(plain_kappa.categories))))
    else:
        left, right = st.columns(2)
        left.metric(t("kappa.metric.prevalence"), number(report.prevalence), help=t("kappa.metric.prevalence_help"))
        right.metric(t("kappa.metric.bias"), number(report.bias), help=t("kappa.metric.bias_help"))
        st.markdown(say("kappa.prevalence", rd.prevalence(plain_kappa, report.prevalence,
                                                          rd.pass_label(plain_kappa.categories))))
        bias = rd.bias(plain_kappa, report.bias)
        st.markdown(say("kappa.bias", bias, a_count=plural("kappa.n_items", bias.values["a_count"]),
                        b_count=plural("kappa.n_items", bias.values["b_count"]), **names))
    if report.pabak is not None and report.ac1 is not None:
        st.markdown(t("kappa.paradox_alternatives", pabak=number(report.pabak), ac1=number(report.ac1),
                      kappa=number(plain_kappa.kappa), agreement=percent(plain_kappa.agreement),
                      k=integer(len(plain_kappa.categories))))


def weighted_comparison(report: ag.PairReport, ci_method: str) -> None:
    """Unweighted, linear and quadratic kappa side by side for numeric scores.

    One interval per kappa: the headline's. The analytic intervals of the three show beside them only
    when the analytic interval is the one chosen, else in an expander that says what they are.
    """
    st.subheader(t("kappa.weighted_title"))
    for cell, weighted in zip(st.columns(len(ag.WEIGHTINGS)), report.weighted):
        cell.metric(t(f"kappa.metric.kappa_{weighted.weights or 'plain'}"), number(weighted.kappa))
        if ci_method == "analytic":
            cell.caption(t("kappa.weighted_ci", ci=interval(weighted.ci_low, weighted.ci_high)))
    if ci_method != "analytic":
        with st.expander(t("kappa.weighted_analytic")):
            for cell, weighted in zip(st.columns(len(ag.WEIGHTINGS)), report.weighted):
                name = t(f"kappa.metric.kappa_{weighted.weights or 'plain'}")
                cell.markdown(f"{name}: {interval(weighted.ci_low, weighted.ci_high)}")
            st.caption(t("kappa.weighted_analytic_caption"))
    credit = rd.closest_scores_credit(report.result.categories)
    st.markdown(say("kappa.weighted", credit, step=md(number(credit.values["step"], ".6g"))))
    st.caption(t("kappa.weighted_values_not_ranks"))


def sample_size(report: ag.PairReport) -> None:
    st.subheader(t("kappa.items_title"))
    size = rd.sample_size(report.result, report.items_needed, HALF_WIDTH)
    values = {"half": number(HALF_WIDTH, ".1f")}
    if size.code.startswith("none"):
        st.info(say("kappa.size", size, **values))
        return
    left, right = st.columns([1, METRICS_PER_ROW - 1])
    left.metric(t("kappa.metric.items_needed", half=values["half"]), integer(report.items_needed))
    right.markdown(say("kappa.size", size, **values))


# ------------------------------------------------------------------------------ several raters

def coefficient_row(name: str, value: float | None, spec: str, help_text: str, ci: ag.BootstrapInterval,
                    n: int, scale: rd.InterpretationScale, prefix: str, caption: str) -> None:
    """The coefficient, its bootstrap interval and its reading on one row, then what the interval can say."""
    value_cell, ci_cell, side = st.columns(METRICS_PER_ROW)
    value_cell.metric(name, number(value, spec), help=help_text)
    ci_cell.metric(t("kappa.metric.ci_bootstrap"), interval(ci.low, ci.high), help=t("kappa.metric.ci_bootstrap_help"))
    side.markdown(say(prefix, rd.coefficient(value, scale), value=number(value, spec)))
    ci_reading = rd.interval_reading(ci.estimate, ci.low, ci.high, n, scale, analytic=False)
    if ci_reading.code.startswith("zero_width"):
        st.warning(say("kappa.ci", ci_reading, ci=interval(ci.low, ci.high)))
    flags = " ".join(say("kappa.ci_flag", flag) for flag in rd.bootstrap_flags(ci))
    st.caption(f"{caption} {t('kappa.bootstrap_over_items')} {flags}")


def multi_rater(by_rater: Sequence | np.ndarray, names: tuple[str, ...], data_key: str) -> None:
    """Fleiss' kappa and Krippendorff's alpha over every rater, with bootstrap intervals."""
    two = len(names) == 2
    st.subheader(t("kappa.multi_title_two") if two else t("kappa.multi_title", m=integer(len(names))))
    if two:
        st.caption(t("kappa.multi_two_raters"))
    level = translated_radio("kappa_level", "kappa.level", ag.LEVELS, help=t("kappa.level_help"))
    try:
        result, ci = fleiss(data_key, by_rater)
    except ag.AgreementInputError as error:
        show_input_error(error)
    else:
        counts = {"n": integer(result.n_items), "m": integer(result.n_raters)}
        caption = t("kappa.fleiss_caption_two", **counts) if two else t("kappa.fleiss_caption", **counts)
        if result.n_dropped:
            caption += " " + t("kappa.fleiss_dropped", dropped=integer(result.n_dropped))
        coefficient_row(t("kappa.metric.fleiss"), result.kappa, ".2f", t("kappa.metric.fleiss_help"), ci,
                        result.n_items, rd.LANDIS_KOCH_1977, "kappa.fleiss", caption)
    try:
        result, ci = alpha(data_key, by_rater, level)
    except ag.AgreementInputError as error:
        show_input_error(error, context="level")
    else:
        caption = t("kappa.alpha_caption", n=integer(result.n_units), values=integer(result.n_values))
        if result.n_dropped:
            caption += " " + t("kappa.alpha_dropped", dropped=integer(result.n_dropped))
        coefficient_row(t("kappa.metric.alpha", level=t(f"kappa.level.{level}")), result.alpha, ".3f",
                        t("kappa.metric.alpha_help"), ci, result.n_units, rd.KRIPPENDORFF_2004, "kappa.alpha", caption)


def show_code() -> None:
    see_the_code(ag.cohen_kappa, pair_table, _factorise, kappa_from_table, _chance_corrected, _kappa_standard_error,
                 donner_eliasziw_interval, posterior_interval, posterior_intervals, caption=t("kappa.code_caption"))


# ------------------------------------------------------------------------------ page

if "kappa_r1" not in st.session_state or "kappa_r2" not in st.session_state:
    load_preset(ag.SEED_RUBRIC_PAIR)

st.title(t("kappa.title"))
st.markdown(t("kappa.intro"))
rating_form()

st.subheader(t("kappa.data_title"))
source = translated_radio("kappa_source", "kappa.source", ("typed", "csv"))
if source == "typed":
    labels_a, labels_b, name_a, name_b = typed_ratings()
    by_rater, rater_names = [labels_a, labels_b], (name_a, name_b)
    data_key = pair_key = ratings_key(labels_a, labels_b)
    first, second = 0, 1
else:
    table = file_ratings()
    if table is None:
        bundle_controls()
        st.stop()
    labels_a, labels_b, name_a, name_b, (first, second) = pick_pair(table)
    by_rater, rater_names = table.matrix, table.raters
    data_key = st.session_state["kappa_csv_data"].digest
    pair_key = f"{data_key}:{first}:{second}"

labels_a, labels_b, by_rater, folded_key = case_folding(labels_a, labels_b, by_rater, (first, second), pair_key)
if folded_key != pair_key:
    data_key, pair_key = f"{data_key}:folded", folded_key

weights_column, ci_column = st.columns(2)
with weights_column:
    weights = translated_radio("kappa_weights", "kappa.weights", ag.WEIGHTINGS, help=t("kappa.weights_help"))
with ci_column:
    ci_method = translated_radio("kappa_ci", "kappa.ci_method", CI_METHODS,
                                 help=t("kappa.ci_method_help", n_boot=integer(N_BOOT)))

st.subheader(t("kappa.pair_title", a=md(name_a), b=md(name_b)))
try:
    report = pair_report(pair_key, labels_a, labels_b, weights, ci_method)
except ag.AgreementInputError as error:
    show_input_error(error, context="weighted")
    report = None

if report is not None:
    ci_reading = headline(report, name_a, name_b, ci_method)
    figures(report.result, name_a, name_b, pair_key)
    download_table("kappa_agreement_table", lambda: rt.agreement_table(report.result),
                   label=t("downloads.kappa_table"))
    if ci_reading is not None:
        reading(report.result, ci_reading)
    paradox(report, name_a, name_b)
    if report.weighted:
        weighted_comparison(report, ci_method)
    download_table("kappa_coefficients", lambda: rt.pair_coefficients(report), label=t("downloads.kappa_coefficients"))
    if report.result.kappa is not None:
        sample_size(report)
if report is not None or source == "csv":
    multi_rater(by_rater, rater_names, data_key)

bundle_controls((first, second))
show_code()

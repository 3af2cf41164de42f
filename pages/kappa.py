"""Kappa page: how much raters agree beyond chance, and why percent agreement alone misleads.

Thin on purpose: widgets -> evallib.agreement (figures and readings, computed once and cached) ->
texts translated from reading codes, figures from ``ui.figures``. Labels and names are data: they
reach the page through ``ui.labels`` (escaped, shortened).
"""

from __future__ import annotations

import inspect

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from evallib import agreement as ag
from evallib.agreement import readings as rd
from evallib.agreement.cohen import _chance_corrected, _kappa_standard_error, kappa_from_table
from ui.figures import grouped_bars, heatmap
from ui.i18n import integer, interval, number, percent, plural, t
from ui.labels import AXIS_LABEL_CHARS, md, name_list, plain
from ui.readings import say as say_reading
from ui.shell import require_navigation
from ui.widgets import METRICS_PER_ROW, metric_rows, translated_radio

require_navigation()

PRESETS = ag.PRESETS
EXAMPLE_CSV_NAME = "kappa_example.csv"
EXAMPLE_RATERS = ("judge_1", "judge_2", "judge_3")

# Bootstrap settings shown on the page: enough resamples for stable 2.5 % / 97.5 % quantiles at the
# second decimal, and a fixed seed so that the projected figures do not move between reruns.
N_BOOT = 2000
BOOT_SEED = 0
HALF_WIDTH = 0.1


SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


# ------------------------------------------------------------------------------ translating readings

def say(prefix: str, reading: rd.Reading, **extra: object) -> str:
    """The text of ``reading`` under ``prefix`` (see ``ui.readings.say``); bands are the kappa page's."""
    return say_reading(prefix, reading, bands="kappa.band", **extra)


def input_error_text(error: ag.AgreementInputError, context: str = "") -> str:
    """The translated message of an input error; lists of labels are data, capped and escaped."""
    details = dict(error.details)
    if "labels" in details:
        shown = ", ".join(t("kappa.quoted", label=md(label)) for label in details["labels"])
        more = details.pop("n_more", 0)
        details["labels"] = plural("format.more", more, shown=shown) if more else shown
    if error.code == "csv_ambiguous":
        details["separators"] = ", ".join(t(f"kappa.separator.{SEPARATOR_NAMES[s]}") for s in details["separators"])
    if error.code == "csv_ragged":
        return plural("kappa.error.csv_ragged", details.pop("found"), line=integer(details.pop("line")),
                      expected=integer(details.pop("expected")))
    key = f"kappa.error.{error.code}_{context}" if error.code == "non_numeric" else f"kappa.error.{error.code}"
    return t(key, **{k: integer(v) if isinstance(v, int) else v for k, v in details.items()})


def show_input_error(error: ag.AgreementInputError, *, context: str = "") -> None:
    """Empty input is an invitation, not an error."""
    (st.info if error.code == "empty" else st.error)(input_error_text(error, context))


# ------------------------------------------------------------------------------ cached computations
# Reading 250,000 labels costs seconds: each computation runs once per input and is kept between
# reruns; a spinner shows while one runs.

def _cached(function):
    return st.cache_data(show_spinner=t("kappa.computing"), max_entries=16)(function)


@_cached
def read_csv(data: bytes) -> ag.RatingsTable:
    return ag.read_ratings_csv(data)


@_cached
def pair_report(labels_a: tuple, labels_b: tuple, weights: str | None, bootstrap: bool) -> ag.PairReport:
    return ag.pair_report(labels_a, labels_b, weights=weights, bootstrap=bootstrap, n_boot=N_BOOT,
                          seed=BOOT_SEED, half_width=HALF_WIDTH)


@_cached
def fleiss(rows: tuple) -> tuple:
    return ag.fleiss_kappa_with_interval(rows, n_boot=N_BOOT, seed=BOOT_SEED)


@_cached
def alpha(by_rater: tuple, level: str) -> tuple:
    return ag.krippendorff_alpha_with_interval(by_rater, level=level, n_boot=N_BOOT, seed=BOOT_SEED)


# ------------------------------------------------------------------------------ inputs

def preset_text(values: tuple) -> str:
    return ", ".join("" if ag.is_missing(v) else str(v) for v in values)


def load_preset(preset: ag.Preset) -> None:
    st.session_state["kappa_r1"] = preset_text(preset.ratings[0])
    st.session_state["kappa_r2"] = preset_text(preset.ratings[1])


def remember_upload() -> None:
    """Keep the uploaded bytes in the session so that the file survives a page switch."""
    uploaded = st.session_state.get("kappa_csv")
    st.session_state["kappa_csv_data"] = (uploaded.name, uploaded.getvalue()) if uploaded else None


def load_example_csv() -> None:
    text = ag.ratings_to_csv(ag.AUTHORED_THREE_RATERS, EXAMPLE_RATERS)
    st.session_state["kappa_csv_data"] = (EXAMPLE_CSV_NAME, text.encode())


def typed_ratings() -> tuple[list, list, str, str]:
    """Two raters typed or pasted, with the preset buttons above them."""
    for column, preset in zip(st.columns(len(PRESETS)), PRESETS):
        column.button(t(f"kappa.preset.{preset.key}"), key=f"kappa_preset_{preset.key}",
                      on_click=load_preset, args=(preset,), width="stretch")
    labels = []
    for column, key, name in zip(st.columns(2), ("kappa_r1", "kappa_r2"), (t("kappa.rater_a"), t("kappa.rater_b"))):
        with column:
            text = st.text_area(name, key=key, height=110, help=t("kappa.typed_help"), persist_state="session")
            labels.append(ag.parse_labels(text or ""))
            st.caption(t("kappa.count", n=integer(len(labels[-1]))))
    for preset in PRESETS:
        if (st.session_state["kappa_r1"], st.session_state["kappa_r2"]) == tuple(map(preset_text, preset.ratings)):
            st.caption(t(f"kappa.preset.{preset.key}.source"))
    return labels[0], labels[1], t("kappa.rater_a"), t("kappa.rater_b")


def file_ratings() -> ag.RatingsTable | None:
    """A CSV file (one column per rater), or the example file; None when there is nothing usable."""
    upload, example = st.columns([3, 2])
    with upload:
        uploaded = st.file_uploader(t("kappa.csv_upload"), type=["csv", "txt", "tsv"], key="kappa_csv",
                                    on_change=remember_upload, help=t("kappa.csv_help"))
        if uploaded is not None:
            st.session_state["kappa_csv_data"] = (uploaded.name, uploaded.getvalue())
    with example:
        st.caption(t("kappa.csv_example_caption"))
        st.button(t("kappa.csv_use_example"), key="kappa_csv_example", on_click=load_example_csv)
        st.download_button(t("kappa.csv_download_example"), key="kappa_csv_download",
                           data=ag.ratings_to_csv(ag.AUTHORED_THREE_RATERS, EXAMPLE_RATERS),
                           file_name=EXAMPLE_CSV_NAME, mime="text/csv", on_click="ignore")
    stored = st.session_state.get("kappa_csv_data")
    if not stored:
        st.info(t("kappa.csv_waiting"))
        return None
    name, data = stored
    try:
        table = read_csv(data)
    except ag.AgreementInputError as error:
        st.error(t("kappa.csv_file", name=md(name)) + " " + input_error_text(error))
        return None
    st.caption(t("kappa.csv_loaded", name=md(name), items=integer(len(table.rows)),
                 raters=integer(len(table.raters)), names=name_list(table.raters)))
    return table


def pick_pair(table: ag.RatingsTable) -> tuple[list, list, str, str]:
    """The two columns used for Cohen's kappa (the first two unless the user picks others)."""
    choices = list(range(len(table.raters)))
    picked = [column.selectbox(t(key), choices, index=index, key=state, persist_state="session",
                               format_func=lambda j: table.raters[j])
              for column, key, index, state in zip(st.columns(2), ("kappa.rater_a", "kappa.rater_b"), (0, 1),
                                                   ("kappa_col_a", "kappa_col_b"))]
    first, second = (min(j, len(choices) - 1) for j in picked)
    return table.column(first), table.column(second), table.raters[first], table.raters[second]


# ------------------------------------------------------------------------------ two raters

def figures(result: ag.KappaResult, name_a: str, name_b: str) -> None:
    names = [ag.format_label(c) for c in result.categories]
    left, right = st.columns(2)
    left.plotly_chart(heatmap(
        result.table, names, names, title=t("kappa.heatmap_title"), x_title=name_b, y_title=name_a,
        value_format=".0f", hover=t("kappa.heatmap_hover", a=plain(name_a), b=plain(name_b)),
        label_chars=AXIS_LABEL_CHARS), width="stretch")
    shares = (result.marginals_1, result.marginals_2)
    counts = (result.table.sum(axis=1), result.table.sum(axis=0))
    right.plotly_chart(grouped_bars(
        result.categories, [(name_a, shares[0]), (name_b, shares[1])], title=t("kappa.marginals_title"),
        x_title=t("kappa.label"), texts=[[percent(s) for s in share] for share in shares],
        hover=[[f"{plain(label, None)}: {integer(c)} ({percent(s)})" for label, c, s in zip(names, cs, share)]
               for cs, share in zip(counts, shares)], value_range=(0, 1.15)), width="stretch")


def interval_shown(report: ag.PairReport) -> rd.Reading:
    """The interval chosen, and what it can and cannot say (bootstrap flags, zero width, exact bound)."""
    result, boot = report.result, report.bootstrap
    low, high = (boot.low, boot.high) if boot else (result.ci_low, result.ci_high)
    if boot:
        st.caption(t("kappa.ci_bootstrap_caption", n_boot=integer(N_BOOT), n=integer(result.n), seed=BOOT_SEED)
                   + " " + " ".join(say("kappa.ci_flag", flag) for flag in rd.bootstrap_flags(boot)))
    else:
        st.caption(t("kappa.ci_analytic_caption", se=number(result.se, ".3f")) + " "
                   + say("kappa.ci_size", rd.analytic_interval_size(result.n)))
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
    boot = report.bootstrap
    low, high = (None, None) if degenerate else (boot.low, boot.high) if boot else (result.ci_low, result.ci_high)
    metric_rows([
        (t("kappa.metric.agreement"), percent(result.agreement), t("kappa.metric.agreement_help")),
        (t("kappa.metric.p_o_weighted" if weighted else "kappa.metric.p_o"), number(result.p_o),
         t("kappa.metric.p_o_help")),
        (t("kappa.metric.p_e_weighted" if weighted else "kappa.metric.p_e"), number(result.p_e),
         t("kappa.metric.p_e_help")),
        (t(f"kappa.metric.kappa_{result.weights or 'plain'}"), number(result.kappa), t("kappa.metric.kappa_help")),
        (t(f"kappa.metric.ci_{ci_method}"), interval(low, high), t(f"kappa.metric.ci_{ci_method}_help")),
    ])
    if result.n_dropped:
        st.info(t("kappa.dropped", dropped=integer(result.n_dropped), n=integer(result.n)))
    if degenerate:
        names = (md(name_a), md(name_b))
        rater = degenerate.values.get("rater", 0)
        (st.warning if degenerate.code == "both_constant" else st.info)(say(
            "kappa.degenerate", degenerate, a=names[0], b=names[1], rater=names[rater], other=names[1 - rater]))
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


def weighted_comparison(report: ag.PairReport) -> None:
    """Unweighted, linear and quadratic kappa side by side for numeric scores."""
    st.subheader(t("kappa.weighted_title"))
    for cell, weighted in zip(st.columns(len(ag.WEIGHTINGS)), report.weighted):
        cell.metric(t(f"kappa.metric.kappa_{weighted.weights or 'plain'}"), number(weighted.kappa))
        cell.caption(t("kappa.weighted_ci", ci=interval(weighted.ci_low, weighted.ci_high)))
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

def coefficient_row(name: str, value: str, help_text: str, ci: ag.BootstrapInterval, n: int,
                    scale: rd.InterpretationScale) -> DeltaGenerator:
    """The coefficient and its bootstrap interval; the third column is returned for the reading."""
    value_cell, ci_cell, side = st.columns(METRICS_PER_ROW)
    value_cell.metric(name, value, help=help_text)
    ci_cell.metric(t("kappa.metric.ci_bootstrap"), interval(ci.low, ci.high), help=t("kappa.metric.ci_bootstrap_help"))
    flags = " ".join(say("kappa.ci_flag", flag) for flag in rd.bootstrap_flags(ci))
    ci_reading = rd.interval_reading(ci.estimate, ci.low, ci.high, n, scale, analytic=False)
    if ci_reading.code.startswith("zero_width"):
        st.warning(say("kappa.ci", ci_reading, ci=interval(ci.low, ci.high)))
    st.caption(t("kappa.bootstrap_over_items") + " " + flags)
    return side


def multi_rater(by_rater: list[list], names: tuple[str, ...]) -> None:
    """Fleiss' kappa and Krippendorff's alpha over every rater, with bootstrap intervals."""
    two = len(names) == 2
    st.subheader(t("kappa.multi_title_two") if two else t("kappa.multi_title", m=integer(len(names))))
    if two:
        st.caption(t("kappa.multi_two_raters"))
    level = translated_radio("kappa_level", "kappa.level", ag.LEVELS, help=t("kappa.level_help"))
    rows = tuple(zip(*by_rater))
    try:
        result, ci = fleiss(rows)
    except ag.AgreementInputError as error:
        show_input_error(error)
    else:
        side = coefficient_row(t("kappa.metric.fleiss"), number(result.kappa), t("kappa.metric.fleiss_help"), ci,
                               result.n_items, rd.LANDIS_KOCH_1977)
        side.markdown(say("kappa.fleiss", rd.coefficient(result.kappa, rd.LANDIS_KOCH_1977)))
        caption = t("kappa.fleiss_caption_two" if two else "kappa.fleiss_caption", n=integer(result.n_items),
                    m=integer(result.n_raters))
        if result.n_dropped:
            caption += " " + t("kappa.fleiss_dropped", dropped=integer(result.n_dropped))
        st.caption(caption)
    try:
        result, ci = alpha(tuple(map(tuple, by_rater)), level)
    except ag.AgreementInputError as error:
        show_input_error(error, context="level")
    else:
        side = coefficient_row(t("kappa.metric.alpha", level=t(f"kappa.level.{level}")), number(result.alpha, ".3f"),
                               t("kappa.metric.alpha_help"), ci, result.n_units, rd.KRIPPENDORFF_2004)
        coefficient = rd.coefficient(result.alpha, rd.KRIPPENDORFF_2004)
        side.markdown(say("kappa.alpha", coefficient, value=number(result.alpha, ".3f")))
        caption = t("kappa.alpha_caption", n=integer(result.n_units), values=integer(result.n_values))
        if result.n_dropped:
            caption += " " + t("kappa.alpha_dropped", dropped=integer(result.n_dropped))
        st.caption(caption)


def show_code() -> None:
    with st.expander(t("kappa.code_title")):
        st.caption(t("kappa.code_caption"))
        for function in (ag.cohen_kappa, kappa_from_table, _chance_corrected,
                         _kappa_standard_error):
            st.code(inspect.getsource(function), language="python")


# ------------------------------------------------------------------------------ page

if "kappa_r1" not in st.session_state or "kappa_r2" not in st.session_state:
    load_preset(ag.SEED_RUBRIC_PAIR)

st.title(t("kappa.title"))
st.markdown(t("kappa.intro"))

st.subheader(t("kappa.data_title"))
source = translated_radio("kappa_source", "kappa.source", ("typed", "csv"))
if source == "typed":
    labels_a, labels_b, name_a, name_b = typed_ratings()
    by_rater, rater_names = [labels_a, labels_b], (name_a, name_b)
else:
    table = file_ratings()
    if table is None:
        st.stop()
    labels_a, labels_b, name_a, name_b = pick_pair(table)
    by_rater, rater_names = table.by_rater(), table.raters

weights_column, ci_column = st.columns(2)
with weights_column:
    weights = translated_radio("kappa_weights", "kappa.weights", ag.WEIGHTINGS, help=t("kappa.weights_help"))
with ci_column:
    ci_method = translated_radio("kappa_ci", "kappa.ci_method", ("analytic", "bootstrap"),
                                 help=t("kappa.ci_method_help", n_boot=integer(N_BOOT)))

st.subheader(t("kappa.pair_title", a=md(name_a), b=md(name_b)))
try:
    report = pair_report(tuple(labels_a), tuple(labels_b), weights, ci_method == "bootstrap")
except ag.AgreementInputError as error:
    show_input_error(error, context="weighted")
    report = None

if report is not None:
    ci_reading = headline(report, name_a, name_b, ci_method)
    figures(report.result, name_a, name_b)
    if ci_reading is not None:
        reading(report.result, ci_reading)
    paradox(report, name_a, name_b)
    if report.weighted:
        weighted_comparison(report)
    if report.result.kappa is not None:
        sample_size(report)
if report is not None or source == "csv":
    multi_rater(by_rater, rater_names)

show_code()

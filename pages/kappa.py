"""Kappa page: how much raters agree beyond chance, and why percent agreement alone misleads.

Thin on purpose: widgets -> evallib.agreement -> metrics, plotly figures and texts read from the
computed values. Every string goes through ``t``; the texts live in ``ui/texts/kappa.py``.
"""

from __future__ import annotations

import inspect

import plotly.graph_objects as go
import streamlit as st

from evallib import agreement as ag
from ui.i18n import number, t
from ui.shell import require_navigation
from ui.widgets import translated_choice

require_navigation()

# Presets offered as buttons, in this order (the two seed pairs first).
PRESETS = ag.PRESETS
EXAMPLE_CSV_NAME = "kappa_example.csv"
EXAMPLE_RATERS = ("judge_1", "judge_2", "judge_3")

# Bootstrap settings shown on the page: enough resamples for stable 2.5 % / 97.5 % quantiles at the
# second decimal, and a fixed seed so that the projected figures do not move between reruns.
N_BOOT = 2000
BOOT_SEED = 0
HALF_WIDTH = 0.1

# Reading thresholds for the prevalence and bias indices (they range over [0, 1]). Above 0.5 one
# category holds most of the agreement and the paradox is worth spelling out; a bias above 0.2 means
# the raters' shares of a label differ by more than a fifth of the items.
HIGH_PREVALENCE = 0.5
HIGH_BIAS = 0.2

FIGURE_FONT = 18
# Beyond this many labels, percentages written above the bars overlap; hovering still shows them.
MAX_LABELLED_BARS = 5


# ------------------------------------------------------------------------------ formatting

def num(value: float | None, digits: int = 2) -> str:
    """A figure in the session's language (decimal comma in French); "undefined" for None."""
    if value is None:
        return t("kappa.undefined")
    return number(round(value, digits) + 0.0, f".{digits}f")  # + 0.0 turns -0.0 into 0.0


def pct(share: float) -> str:
    return t("kappa.percent", value=f"{100 * share:.0f}")


def interval(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return t("kappa.undefined")
    return t("kappa.interval", low=num(low), high=num(high))


def label(value: ag.Label) -> str:
    return ag.format_label(value)


def band(value: float, scale: ag.InterpretationScale) -> str:
    return t(f"kappa.band.{scale.key}.{ag.interpret(value, scale)}")


def translated_radio(state_key: str, label_key: str, options: tuple, *, help: str | None = None):
    """A horizontal radio with translated options (see `ui.widgets.translated_choice`)."""
    names = {option: t(f"{label_key}.{option or 'none'}") for option in options}
    return translated_choice(st.radio, t(label_key), options, names, state_key=state_key, horizontal=True,
                             help=help)


def show_input_error(error: ag.AgreementInputError, *, context: str = "") -> None:
    """The translated message of an input error; empty input is an invitation, not an error."""
    if error.code == "empty":
        st.info(t("kappa.error.empty"))
    elif error.code == "non_numeric":
        st.error(t(f"kappa.error.non_numeric_{context}", labels=error.details["labels"]))
    else:
        st.error(t(f"kappa.error.{error.code}", **error.details))


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


def typed_ratings() -> tuple[list, list, str, str] | None:
    """Two raters typed or pasted, with the preset buttons above them."""
    buttons = st.columns(len(PRESETS))
    for column, preset in zip(buttons, PRESETS):
        column.button(t(f"kappa.preset.{preset.key}"), key=f"kappa_preset_{preset.key}",
                      on_click=load_preset, args=(preset,), width="stretch")
    name_a, name_b = t("kappa.rater_a"), t("kappa.rater_b")
    left, right = st.columns(2)
    with left:
        text_a = st.text_area(name_a, key="kappa_r1", height=110, help=t("kappa.typed_help"),
                              persist_state="session")
        labels_a = ag.parse_labels(text_a or "")
        st.caption(t("kappa.count", n=len(labels_a)))
    with right:
        text_b = st.text_area(name_b, key="kappa_r2", height=110, help=t("kappa.typed_help"),
                              persist_state="session")
        labels_b = ag.parse_labels(text_b or "")
        st.caption(t("kappa.count", n=len(labels_b)))
    for preset in PRESETS:
        if (text_a, text_b) == (preset_text(preset.ratings[0]), preset_text(preset.ratings[1])):
            st.caption(t(f"kappa.preset.{preset.key}.source"))
    return labels_a, labels_b, name_a, name_b


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
        table = ag.read_ratings_csv(data)
    except ag.AgreementInputError as error:
        st.error(t("kappa.csv_file", name=name) + " " + t(f"kappa.error.{error.code}", **error.details))
        return None
    st.caption(t("kappa.csv_loaded", name=name, items=len(table.rows), raters=len(table.raters),
                 names=", ".join(table.raters)))
    return table


def pick_pair(table: ag.RatingsTable) -> tuple[list, list, str, str]:
    """The two columns used for Cohen's kappa (the first two unless the user picks others)."""
    choices = list(range(len(table.raters)))
    left, right = st.columns(2)
    first = left.selectbox(t("kappa.rater_a"), choices, index=0, key="kappa_col_a",
                           format_func=lambda j: table.raters[j], persist_state="session")
    second = right.selectbox(t("kappa.rater_b"), choices, index=1, key="kappa_col_b",
                             format_func=lambda j: table.raters[j], persist_state="session")
    first, second = min(first, len(choices) - 1), min(second, len(choices) - 1)
    return table.column(first), table.column(second), table.raters[first], table.raters[second]


# ------------------------------------------------------------------------------ figures

def count_font_size(k: int) -> int:
    """Counts stay readable from the back of the room, and still fit in a 10 x 10 table."""
    return 28 if k <= 3 else 20 if k <= 6 else 14


def heatmap(result: ag.KappaResult, name_a: str, name_b: str) -> go.Figure:
    names = [label(c) for c in result.categories]
    figure = go.Figure(go.Heatmap(
        z=result.table, x=names, y=names, text=result.table, texttemplate="%{text}",
        textfont={"size": count_font_size(len(names))}, colorscale="Blues", showscale=False,
        hovertemplate=t("kappa.heatmap_hover", a=name_a, b=name_b) + "<extra></extra>"))
    figure.update_layout(title=t("kappa.heatmap_title"), font={"size": FIGURE_FONT}, height=420,
                         margin={"t": 60, "b": 10, "l": 10, "r": 10},
                         xaxis={"title": name_b, "type": "category"},
                         yaxis={"title": name_a, "type": "category", "autorange": "reversed"})
    return figure


def marginal_bars(result: ag.KappaResult, name_a: str, name_b: str) -> go.Figure:
    names = [label(c) for c in result.categories]
    figure = go.Figure()
    few = len(names) <= MAX_LABELLED_BARS
    for name, shares in ((name_a, result.marginals_1), (name_b, result.marginals_2)):
        figure.add_bar(x=names, y=shares, name=name, text=[pct(s) for s in shares] if few else None,
                       textposition="outside", customdata=shares * result.n,
                       hovertemplate="%{x}: %{customdata:.0f} (%{y:.0%})<extra>" + name + "</extra>")
    figure.update_layout(title=t("kappa.marginals_title"), font={"size": FIGURE_FONT}, height=420,
                         barmode="group", yaxis={"range": [0, 1.15], "tickformat": ".0%"},
                         xaxis={"type": "category", "title": t("kappa.label")},
                         legend={"orientation": "h", "y": -0.25},
                         margin={"t": 60, "b": 10, "l": 10, "r": 10})
    return figure


# ------------------------------------------------------------------------------ sections

@st.cache_data(show_spinner=False)
def kappa_bootstrap(labels_a: tuple, labels_b: tuple, weights: str | None) -> ag.BootstrapInterval:
    return ag.cohen_kappa_bootstrap_ci(labels_a, labels_b, weights=weights, n_boot=N_BOOT, seed=BOOT_SEED)


@st.cache_data(show_spinner=False)
def fleiss_bootstrap(rows: tuple) -> ag.BootstrapInterval:
    return ag.fleiss_kappa_bootstrap_ci(rows, n_boot=N_BOOT, seed=BOOT_SEED)


@st.cache_data(show_spinner=False)
def alpha_bootstrap(by_rater: tuple, level: str) -> ag.BootstrapInterval:
    return ag.krippendorff_alpha_bootstrap_ci(by_rater, level=level, n_boot=N_BOOT, seed=BOOT_SEED)


def constant_label(marginals, categories) -> str | None:
    """The only label a rater used, or None when the rater used several."""
    used = [c for c, share in zip(categories, marginals) if share > 0]
    return label(used[0]) if len(used) == 1 else None


def headline(result: ag.KappaResult, name_a: str, name_b: str, ci_method: str,
             labels: tuple) -> tuple[float | None, float | None]:
    """Percent agreement, p_o, p_e, kappa and its interval, with the notes on degenerate cases.

    Returns the interval shown (None, None when there is none to read).
    """
    weighted = result.weights is not None
    kappa_name = t(f"kappa.metric.kappa_{result.weights or 'plain'}")
    bootstrap = kappa_bootstrap(*labels, result.weights) if ci_method == "bootstrap" else None
    low, high = (bootstrap.low, bootstrap.high) if bootstrap else (result.ci_low, result.ci_high)
    if result.note is not None:  # undefined, or 0 for every table: no interval to show
        low = high = None

    cells = st.columns(5)
    cells[0].metric(t("kappa.metric.agreement"), pct(result.agreement), help=t("kappa.metric.agreement_help"))
    cells[1].metric(t("kappa.metric.p_o_weighted" if weighted else "kappa.metric.p_o"), num(result.p_o),
                    help=t("kappa.metric.p_o_help"))
    cells[2].metric(t("kappa.metric.p_e_weighted" if weighted else "kappa.metric.p_e"), num(result.p_e),
                    help=t("kappa.metric.p_e_help"))
    cells[3].metric(kappa_name, num(result.kappa), help=t("kappa.metric.kappa_help"))
    cells[4].metric(t(f"kappa.metric.ci_{ci_method}"), interval(low, high))

    if result.n_dropped:
        st.info(t("kappa.dropped", dropped=result.n_dropped, n=result.n))
    if result.note == ag.BOTH_RATERS_CONSTANT:
        st.warning(t("kappa.note.both_constant", label=label(result.categories[0]),
                     agreement=pct(result.agreement)))
        return low, high
    if result.note == ag.CONSTANT_RATER:
        constant_a = constant_label(result.marginals_1, result.categories)
        constant_b = constant_label(result.marginals_2, result.categories)
        if constant_a and constant_b:
            st.info(t("kappa.note.both_constant_apart", a=name_a, b=name_b, label_a=constant_a,
                      label_b=constant_b))
        else:
            st.info(t("kappa.note.constant_rater", rater=name_a if constant_a else name_b,
                      other=name_b if constant_a else name_a, label=constant_a or constant_b,
                      p=num(result.p_o), agreement=pct(result.agreement)))
        return low, high
    if bootstrap:
        st.caption(t("kappa.ci_bootstrap_caption", n_boot=N_BOOT, n=result.n, seed=BOOT_SEED,
                     left_out=bootstrap.n_boot - bootstrap.n_valid))
    else:
        st.caption(t("kappa.ci_analytic_caption", se=num(result.se, 3), n=result.n))
    return low, high


def reading(result: ag.KappaResult, low: float | None, high: float | None) -> None:
    """Where kappa and the interval shown fall on the usual scales, read from the computed values."""
    st.subheader(t("kappa.reading_title"))
    kappa = result.kappa
    st.markdown(t("kappa.reading_value", kappa=num(kappa), landis_koch=band(kappa, ag.LANDIS_KOCH_1977),
                  fleiss=band(kappa, ag.FLEISS_1981)))
    if low is not None and high is not None:
        low_band, high_band = band(low, ag.LANDIS_KOCH_1977), band(high, ag.LANDIS_KOCH_1977)
        if low_band == high_band:
            st.markdown(t("kappa.reading_ci_one_band", ci=interval(low, high), band=low_band))
        else:
            st.markdown(t("kappa.reading_ci_bands", ci=interval(low, high), n=result.n, low=low_band,
                          high=high_band))
    st.caption(t("kappa.reading_caveat"))


def paradox(labels_a: list, labels_b: list, result: ag.KappaResult, name_a: str, name_b: str) -> None:
    """Kappa beside PABAK, AC1, Scott's pi and alpha, and what prevalence and bias do to it."""
    st.subheader(t("kappa.paradox_title"))
    plain = result if result.weights is None else ag.cohen_kappa(labels_a, labels_b)
    cells = st.columns(5)
    cells[0].metric(t("kappa.metric.kappa_plain"), num(plain.kappa))
    cells[1].metric(t("kappa.metric.scott_pi"), num(ag.scott_pi(labels_a, labels_b)),
                    help=t("kappa.metric.scott_pi_help"))
    cells[2].metric("PABAK", num(ag.pabak(labels_a, labels_b)), help=t("kappa.metric.pabak_help"))
    cells[3].metric(t("kappa.metric.ac1"), num(ag.gwet_ac1(labels_a, labels_b)),
                    help=t("kappa.metric.ac1_help"))
    cells[4].metric(t("kappa.metric.alpha_nominal"),
                    num(ag.krippendorff_alpha([labels_a, labels_b], level="nominal").alpha),
                    help=t("kappa.metric.alpha_help"))

    if plain.kappa is None:
        return
    top = int(plain.table.diagonal().argmax())  # the label the raters agree on most often
    st.markdown(t("kappa.paradox_chance", p_e=num(plain.p_e), p_o=num(plain.p_o), kappa=num(plain.kappa),
                  a=name_a, b=name_b, label=label(plain.categories[top]),
                  share_a=pct(plain.marginals_1[top]), share_b=pct(plain.marginals_2[top])))

    if len(plain.categories) > 2:
        st.caption(t("kappa.paradox_not_binary", k=len(plain.categories)))
    else:
        prevalence = ag.prevalence_index(labels_a, labels_b)
        bias = ag.bias_index(labels_a, labels_b)
        left, right = st.columns(2)
        left.metric(t("kappa.metric.prevalence"), num(prevalence), help=t("kappa.metric.prevalence_help"))
        right.metric(t("kappa.metric.bias"), num(bias), help=t("kappa.metric.bias_help"))
        key = "kappa.paradox_prevalence_high" if prevalence >= HIGH_PREVALENCE else "kappa.paradox_prevalence_low"
        st.markdown(t(key, index=num(prevalence), label=label(plain.categories[top]),
                      both=pct(plain.table[top, top] / plain.n)))
        key = "kappa.paradox_bias_high" if bias >= HIGH_BIAS else "kappa.paradox_bias_low"
        st.markdown(t(key, index=num(bias), a=name_a, b=name_b, label=label(plain.categories[top]),
                      share_a=pct(plain.marginals_1[top]), share_b=pct(plain.marginals_2[top])))
    pabak, ac1 = ag.pabak(labels_a, labels_b), ag.gwet_ac1(labels_a, labels_b)
    if pabak is not None and ac1 is not None:
        st.markdown(t("kappa.paradox_alternatives", pabak=num(pabak), ac1=num(ac1), kappa=num(plain.kappa),
                      agreement=pct(plain.agreement), k=len(plain.categories)))


def weighted_comparison(labels_a: list, labels_b: list, result: ag.KappaResult) -> None:
    """Unweighted, linear and quadratic kappa side by side for numeric scores."""
    st.subheader(t("kappa.weighted_title"))
    for cell, weights in zip(st.columns(len(ag.WEIGHTINGS)), ag.WEIGHTINGS):
        weighted = ag.cohen_kappa(labels_a, labels_b, weights=weights)
        cell.metric(t(f"kappa.metric.kappa_{weights or 'plain'}"), num(weighted.kappa))
        cell.caption(t("kappa.weighted_ci", ci=interval(weighted.ci_low, weighted.ci_high)))
    values = [float(c) for c in result.categories]
    step = min(b - a for a, b in zip(values, values[1:]))
    spread = values[-1] - values[0]
    st.markdown(t("kappa.weighted_reading", step=ag.format_label(step), linear=num(1 - step / spread),
                  quadratic=num(1 - (step / spread) ** 2), low=label(result.categories[0]),
                  high=label(result.categories[-1])))
    st.caption(t("kappa.weighted_values_not_ranks"))


def sample_size(result: ag.KappaResult) -> None:
    st.subheader(t("kappa.items_title"))
    needed = ag.items_for_half_width(result, half_width=HALF_WIDTH)
    if needed is None:
        st.info(t("kappa.items_none"))
        return
    left, right = st.columns([1, 3])
    left.metric(t("kappa.metric.items_needed", half=num(HALF_WIDTH, 1)), f"{needed}")
    key = "kappa.items_reading" if needed > result.n else "kappa.items_enough"
    right.markdown(t(key, n=result.n, half_now=num(result.half_width), half=num(HALF_WIDTH, 1), needed=needed))


def multi_rater(by_rater: list[list], names: tuple[str, ...]) -> None:
    """Fleiss' kappa and Krippendorff's alpha over every rater, with bootstrap intervals."""
    st.subheader(t("kappa.multi_title", m=len(names)))
    if len(names) == 2:
        st.caption(t("kappa.multi_two_raters"))
    level = translated_radio("kappa_level", "kappa.level", ag.LEVELS, help=t("kappa.level_help"))
    rows = tuple(zip(*by_rater))
    fleiss_cell, alpha_cell = st.columns(2)
    with fleiss_cell:
        try:
            fleiss = ag.fleiss_kappa(rows)
        except ag.AgreementInputError as error:
            show_input_error(error)
        else:
            ci = fleiss_bootstrap(rows)
            left, right = st.columns(2)
            left.metric(t("kappa.metric.fleiss"), num(fleiss.kappa), help=t("kappa.metric.fleiss_help"))
            right.metric(t("kappa.metric.ci_bootstrap"), interval(ci.low, ci.high))
            st.caption(t("kappa.fleiss_caption", n=fleiss.n_items, m=fleiss.n_raters, dropped=fleiss.n_dropped))
            if fleiss.kappa is None:
                st.warning(t("kappa.note.fleiss_constant"))
            else:
                st.markdown(t("kappa.fleiss_reading", kappa=num(fleiss.kappa),
                              landis_koch=band(fleiss.kappa, ag.LANDIS_KOCH_1977)))
    with alpha_cell:
        try:
            alpha = ag.krippendorff_alpha(by_rater, level=level)
        except ag.AgreementInputError as error:
            show_input_error(error, context="level")
        else:
            ci = alpha_bootstrap(tuple(map(tuple, by_rater)), level)
            left, right = st.columns(2)
            left.metric(t("kappa.metric.alpha", level=t(f"kappa.level.{level}")), num(alpha.alpha, 3),
                        help=t("kappa.metric.alpha_help"))
            right.metric(t("kappa.metric.ci_bootstrap"), interval(ci.low, ci.high))
            st.caption(t("kappa.alpha_caption", n=alpha.n_units, values=alpha.n_values,
                         dropped=alpha.n_dropped))
            if alpha.alpha is None:
                st.warning(t("kappa.note.no_variation"))
            else:
                st.markdown(t("kappa.alpha_reading", alpha=num(alpha.alpha, 3),
                              band=band(alpha.alpha, ag.KRIPPENDORFF_2004)))


def show_code() -> None:
    with st.expander(t("kappa.code_title")):
        st.caption(t("kappa.code_caption"))
        for function in (ag.cohen_kappa, ag._chance_corrected, ag._kappa_standard_error):
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
                                 help=t("kappa.ci_method_help", n_boot=N_BOOT))

st.subheader(t("kappa.pair_title", a=name_a, b=name_b))
try:
    result = ag.cohen_kappa(labels_a, labels_b, weights=weights)
except ag.AgreementInputError as error:
    show_input_error(error, context="weighted")
    result = None

if result is not None:
    pair = ag.pair_ratings(labels_a, labels_b)
    low, high = headline(result, name_a, name_b, ci_method, (pair.labels_1, pair.labels_2))
    left, right = st.columns(2)
    left.plotly_chart(heatmap(result, name_a, name_b), width="stretch")
    right.plotly_chart(marginal_bars(result, name_a, name_b), width="stretch")
    if result.kappa is not None and result.note is None:
        reading(result, low, high)
    paradox(labels_a, labels_b, result, name_a, name_b)
    if pair.numeric and len(result.categories) > 2:
        weighted_comparison(labels_a, labels_b, result)
    if result.kappa is not None:
        sample_size(result)
if result is not None or source == "csv":
    multi_rater(by_rater, rater_names)

show_code()

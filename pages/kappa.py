"""Kappa page: how much raters agree beyond chance, and why percent agreement alone misleads.

Thin on purpose: widgets -> evallib.agreement -> metrics, plotly figures and texts read from the
computed values. Every string goes through ``t``; the texts live in ``ui/texts/kappa.py``.
"""

from __future__ import annotations

import inspect
import math
from collections import Counter

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

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

# Below this many items the analytic interval is flagged as rough. A rule of thumb, not a theorem:
# kappa's sampling distribution is skewed on a few dozen items, most visibly when kappa is near 1.
LARGE_SAMPLE_ITEMS = 50

# Metrics per row: at 1280 px wide with the sidebar open (a common projector), three columns leave
# each value about 260 px, enough for an interval such as "[−0,10 ; −0,04]" at the metric font size.
METRICS_PER_ROW = 3

FIGURE_FONT = 18
# Beyond this many labels, percentages written above the bars overlap; hovering still shows them.
MAX_LABELLED_BARS = 5
# Labels longer than this are shortened on the chart axes (1e+40, "10000000000…"); hovering shows them whole.
AXIS_LABEL_CHARS = 12
MINUS = "\u2212"  # the minus sign, as in the texts' [−1 ; 1], rather than a hyphen


# ------------------------------------------------------------------------------ formatting

def num(value: float | None, digits: int = 2) -> str:
    """A figure in the session's language (decimal comma in French, minus sign); "undefined" for None.

    evallib never returns NaN or infinities; should one slip through, it reads "undefined" too.
    """
    if value is None or not math.isfinite(value):
        return t("kappa.undefined")
    return number(round(value, digits) + 0.0, f".{digits}f").replace("-", MINUS)  # + 0.0: no -0.00


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


def metric_rows(cells: list[tuple], per_row: int = METRICS_PER_ROW) -> None:
    """``st.metric`` for each ``(label, value, help)``, ``per_row`` to a row so that none is cut off."""
    for start in range(0, len(cells), per_row):
        for column, (name, value, help_text) in zip(st.columns(per_row), cells[start:start + per_row]):
            column.metric(name, value, help=help_text)


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
    elif error.code == "not_finite":
        st.error(t("kappa.error.not_finite", low=error.details["low"], high=error.details["high"]))
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


def axis_labels(categories: tuple) -> list[str]:
    """Category names short enough for a chart axis, still told apart (the hover shows them whole).

    Numbers keep their leading digits (1.2346e+20), text is cut with "…"; names that the cut makes
    equal get a suffix (2), (3)...
    """
    short = []
    for category in categories:
        name = label(category)
        if len(name) > AXIS_LABEL_CHARS:
            name = f"{category:.5g}" if isinstance(category, float) else name[:AXIS_LABEL_CHARS - 1] + "…"
        short.append(name)
    seen: Counter = Counter()
    repeated = {name for name, count in Counter(short).items() if count > 1}
    for i, name in enumerate(short):
        if name in repeated:
            seen[name] += 1
            short[i] = f"{name} ({seen[name]})"
    return short


def heatmap(result: ag.KappaResult, name_a: str, name_b: str) -> go.Figure:
    names = axis_labels(result.categories)
    full = [label(c) for c in result.categories]
    figure = go.Figure(go.Heatmap(
        z=result.table, x=names, y=names, text=result.table, texttemplate="%{text}",
        customdata=[[[row, column] for column in full] for row in full],
        textfont={"size": count_font_size(len(names))}, colorscale="Blues", showscale=False,
        hovertemplate=t("kappa.heatmap_hover", a=name_a, b=name_b) + "<extra></extra>"))
    figure.update_layout(title=t("kappa.heatmap_title"), font={"size": FIGURE_FONT}, height=420,
                         margin={"t": 60, "b": 10, "l": 10, "r": 10},
                         xaxis={"title": name_b, "type": "category"},
                         yaxis={"title": name_a, "type": "category", "autorange": "reversed"})
    return figure


def bar_text_size(k: int) -> int:
    """Percentages above the bars: full size for two or three labels, smaller beyond so they do not overlap."""
    return FIGURE_FONT if k <= 3 else 14


def marginal_bars(result: ag.KappaResult, name_a: str, name_b: str) -> go.Figure:
    names = axis_labels(result.categories)
    full = [label(c) for c in result.categories]
    figure = go.Figure()
    few = len(names) <= MAX_LABELLED_BARS
    for name, shares in ((name_a, result.marginals_1), (name_b, result.marginals_2)):
        counts = np.rint(shares * result.n).astype(int).tolist()
        figure.add_bar(x=names, y=shares, name=name, text=[pct(s) for s in shares] if few else None,
                       textposition="outside", textfont={"size": bar_text_size(len(names))},
                       customdata=[[whole, count] for whole, count in zip(full, counts)],
                       hovertemplate="%{customdata[0]}: %{customdata[1]} (%{y:.0%})<extra>" + name + "</extra>")
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

    # Row 1: the raw figures; row 2: kappa and its interval, the numbers people copy down.
    metric_rows([
        (t("kappa.metric.agreement"), pct(result.agreement), t("kappa.metric.agreement_help")),
        (t("kappa.metric.p_o_weighted" if weighted else "kappa.metric.p_o"), num(result.p_o),
         t("kappa.metric.p_o_help")),
        (t("kappa.metric.p_e_weighted" if weighted else "kappa.metric.p_e"), num(result.p_e),
         t("kappa.metric.p_e_help")),
        (kappa_name, num(result.kappa), t("kappa.metric.kappa_help")),
        (t(f"kappa.metric.ci_{ci_method}"), interval(low, high), t(f"kappa.metric.ci_{ci_method}_help")),
    ])

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
        size = "small" if result.n < LARGE_SAMPLE_ITEMS else "large"
        st.caption(t("kappa.ci_analytic_caption", se=num(result.se, 3)) + " "
                   + t(f"kappa.ci_analytic_{size}", n=result.n))
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
    metric_rows([
        (t("kappa.metric.kappa_plain"), num(plain.kappa), None),
        (t("kappa.metric.scott_pi"), num(ag.scott_pi(labels_a, labels_b)), t("kappa.metric.scott_pi_help")),
        ("PABAK", num(ag.pabak(labels_a, labels_b)), t("kappa.metric.pabak_help")),
        (t("kappa.metric.ac1"), num(ag.gwet_ac1(labels_a, labels_b)), t("kappa.metric.ac1_help")),
        (t("kappa.metric.alpha_nominal"), num(ag.krippendorff_alpha([labels_a, labels_b], level="nominal").alpha),
         t("kappa.metric.alpha_help")),
    ])

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
        st.markdown(bias_reading(plain, bias, top, name_a, name_b))
    pabak, ac1 = ag.pabak(labels_a, labels_b), ag.gwet_ac1(labels_a, labels_b)
    if pabak is not None and ac1 is not None:
        st.markdown(t("kappa.paradox_alternatives", pabak=num(pabak), ac1=num(ac1), kappa=num(plain.kappa),
                      agreement=pct(plain.agreement), k=len(plain.categories)))


def bias_reading(plain: ag.KappaResult, bias: float, top: int, name_a: str, name_b: str) -> str:
    """How differently the raters use the label they agree on most, worded from the counts."""
    count_a, count_b = int(plain.table[top].sum()), int(plain.table[:, top].sum())
    share_a, share_b = pct(plain.marginals_1[top]), pct(plain.marginals_2[top])
    values = {"index": num(bias), "a": name_a, "b": name_b, "label": label(plain.categories[top])}
    if count_a == count_b:
        return t("kappa.paradox_bias_none", share=share_a, **values)
    if bias >= HIGH_BIAS:
        return t("kappa.paradox_bias_high", share_a=share_a, share_b=share_b, **values)
    if share_a == share_b:  # rounded to the same percentage: give the counts, which differ
        share_a, share_b = t("kappa.items", n=count_a), t("kappa.items", n=count_b)
    return t("kappa.paradox_bias_low", share_a=share_a, share_b=share_b, **values)


def weighted_comparison(labels_a: list, labels_b: list, result: ag.KappaResult) -> None:
    """Unweighted, linear and quadratic kappa side by side for numeric scores."""
    st.subheader(t("kappa.weighted_title"))
    for cell, weights in zip(st.columns(len(ag.WEIGHTINGS)), ag.WEIGHTINGS):
        weighted = ag.cohen_kappa(labels_a, labels_b, weights=weights)
        cell.metric(t(f"kappa.metric.kappa_{weights or 'plain'}"), num(weighted.kappa))
        cell.caption(t("kappa.weighted_ci", ci=interval(weighted.ci_low, weighted.ci_high)))
    # The closest two scores, and the credit each weighting gives them (read from the weights, which
    # evallib computes without overflow even for labels such as 1e308).
    gaps = [b - a for a, b in zip(result.categories, result.categories[1:])]
    closest = gaps.index(min(gaps))
    credit = {w: ag.agreement_weights(result.categories, w)[closest, closest + 1] for w in ("linear", "quadratic")}
    st.markdown(t("kappa.weighted_reading", step=number(min(gaps), ".6g"), linear=num(credit["linear"]),
                  quadratic=num(credit["quadratic"]), low=label(result.categories[0]),
                  high=label(result.categories[-1])))
    st.caption(t("kappa.weighted_values_not_ranks"))


def sample_size(result: ag.KappaResult) -> None:
    st.subheader(t("kappa.items_title"))
    needed = ag.items_for_half_width(result, half_width=HALF_WIDTH)
    if needed is None:
        st.info(t("kappa.items_none"))
        return
    left, right = st.columns([1, METRICS_PER_ROW - 1])
    left.metric(t("kappa.metric.items_needed", half=num(HALF_WIDTH, 1)), f"{needed}")
    values = {"n": result.n, "half_now": num(result.half_width), "half": num(HALF_WIDTH, 1), "needed": needed}
    if needed > result.n:
        right.markdown(t("kappa.items_reading", **values))
    else:
        size = "small" if result.n < LARGE_SAMPLE_ITEMS else "large"
        right.markdown(t("kappa.items_enough", **values) + " " + t(f"kappa.items_enough_{size}"))


def coefficient_row(name: str, value: str, help_text: str, ci: ag.BootstrapInterval) -> DeltaGenerator:
    """The coefficient and its bootstrap interval in the first two of three columns; the third is returned."""
    value_cell, ci_cell, side = st.columns(METRICS_PER_ROW)
    value_cell.metric(name, value, help=help_text)
    ci_cell.metric(t("kappa.metric.ci_bootstrap"), interval(ci.low, ci.high),
                   help=t("kappa.metric.ci_bootstrap_help"))
    return side


def multi_rater(by_rater: list[list], names: tuple[str, ...]) -> None:
    """Fleiss' kappa and Krippendorff's alpha over every rater, with bootstrap intervals.

    One row per coefficient (value, interval, reading), so that the intervals are never cut off.
    """
    two = len(names) == 2
    st.subheader(t("kappa.multi_title_two") if two else t("kappa.multi_title", m=len(names)))
    if two:
        st.caption(t("kappa.multi_two_raters"))
    level = translated_radio("kappa_level", "kappa.level", ag.LEVELS, help=t("kappa.level_help"))
    rows = tuple(zip(*by_rater))
    try:
        fleiss = ag.fleiss_kappa(rows)
    except ag.AgreementInputError as error:
        show_input_error(error)
    else:
        side = coefficient_row(t("kappa.metric.fleiss"), num(fleiss.kappa), t("kappa.metric.fleiss_help"),
                               fleiss_bootstrap(rows))
        if fleiss.kappa is None:
            side.warning(t("kappa.note.fleiss_constant"))
        else:
            side.markdown(t("kappa.fleiss_reading", kappa=num(fleiss.kappa),
                            landis_koch=band(fleiss.kappa, ag.LANDIS_KOCH_1977)))
        caption = t("kappa.fleiss_caption_two" if two else "kappa.fleiss_caption", n=fleiss.n_items,
                    m=fleiss.n_raters)
        if fleiss.n_dropped:
            caption += " " + t("kappa.fleiss_dropped", dropped=fleiss.n_dropped)
        st.caption(caption + " " + t("kappa.bootstrap_over_items"))
    try:
        alpha = ag.krippendorff_alpha(by_rater, level=level)
    except ag.AgreementInputError as error:
        show_input_error(error, context="level")
    else:
        side = coefficient_row(t("kappa.metric.alpha", level=t(f"kappa.level.{level}")), num(alpha.alpha, 3),
                               t("kappa.metric.alpha_help"), alpha_bootstrap(tuple(map(tuple, by_rater)), level))
        if alpha.alpha is None:
            side.warning(t("kappa.note.no_variation"))
        else:
            side.markdown(t("kappa.alpha_reading", alpha=num(alpha.alpha, 3),
                            band=band(alpha.alpha, ag.KRIPPENDORFF_2004)))
        caption = t("kappa.alpha_caption", n=alpha.n_units, values=alpha.n_values)
        if alpha.n_dropped:
            caption += " " + t("kappa.alpha_dropped", dropped=alpha.n_dropped)
        st.caption(caption + " " + t("kappa.bootstrap_over_items"))


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

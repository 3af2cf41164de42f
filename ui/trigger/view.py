"""Cached analyses, tables and figures of the trigger page, and the translation of its readings.

The report and the similarity baseline are cached on their hashable inputs (frozen dataclasses of
evallib), figures once per data, texts, language and presentation mode, so a warm rerun costs little.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from evallib.triggering.data import LabelledQuery, SkillCatalogue
from evallib.triggering.decisions import STATUSES
from evallib.triggering.metrics import RoutedDecision, TriggerMetrics
from evallib.triggering.report import TriggerReport, evaluate
from evallib.triggering.similarity import (EMBEDDING_SWEEP_THRESHOLDS, EMBEDDING_TABLE_THRESHOLDS, SWEEP_THRESHOLDS,
                                           TABLE_THRESHOLDS, baseline_table, embedding_scores, expected_indices,
                                           similarity_scores, threshold_sweep)
from ui.figures import figure_key, heatmap, threshold_lines
from ui.i18n import integer, interval, number, p_value, percent, t
from ui.labels import md
from ui.readings import formatted

RATES = ("accuracy", "precision", "recall", "false_activation_rate")
#: Reading values that are proportions (bounds of a rate): shown as percentages with one decimal,
#: since a bound after zero errors such as 1 - 0.05^(1/76) reads better as "3,9 %" than as "0,04".
PERCENT_VALUES = frozenset({"exact_upper", "query_exact_upper", "accuracy", "accuracy_low", "accuracy_high",
                            "min_accuracy", "unusable_rate", "max_unusable_rate", "rate_share", "low_share", "high_share",
                            "decision_low_share", "decision_high_share"})
#: Reading values that are similarity thresholds: the sweep steps by 0.0025, so four decimals (three
#: would round 0.0875 and 0.0925 to the same 0.09x neighbourhood and misname the thresholds).
THRESHOLD_VALUES = frozenset({"threshold", "low", "high"})
THRESHOLD_FORMAT = ".4f"


@st.cache_data(show_spinner=False, max_entries=32)
def cached_report(rows: tuple[RoutedDecision, ...], catalogue: SkillCatalogue,
                  queries: tuple[LabelledQuery, ...]) -> TriggerReport:
    return evaluate(rows, catalogue, queries)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_baseline(catalogue: SkillCatalogue, queries: tuple[LabelledQuery, ...]):
    """(table at `TABLE_THRESHOLDS`, full sweep) of the TF-IDF similarity baseline."""
    scores = similarity_scores(catalogue, queries)
    return baseline_table(queries, catalogue), threshold_sweep(scores, expected_indices(queries, catalogue),
                                                               SWEEP_THRESHOLDS)


@st.cache_data(show_spinner=False, max_entries=16)
def cached_embedding_baseline(catalogue: SkillCatalogue, queries: tuple[LabelledQuery, ...], vectors: tuple):
    """(table, sweep) of the baseline on embeddings: ``vectors`` embed the skill texts, then the queries.

    Raises ValueError when the vectors do not match the texts (count or dimensions).
    """
    k = len(catalogue.skills)
    if len(vectors) != k + len(queries):
        raise ValueError(f"{len(vectors)} embeddings for {k + len(queries)} texts")
    scores = embedding_scores(vectors[:k], vectors[k:])
    return (baseline_table(queries, catalogue, EMBEDDING_TABLE_THRESHOLDS, scores=scores),
            threshold_sweep(scores, expected_indices(queries, catalogue), EMBEDDING_SWEEP_THRESHOLDS))


def say(prefix: str, reading, show=st.markdown) -> None:
    """Translate a reading: bounds and rates as percentages, p-values in their reported form."""
    extra = {k: percent(v, 1) for k, v in reading.values.items() if k in PERCENT_VALUES and v is not None}
    extra.update({k: number(v, THRESHOLD_FORMAT) for k, v in reading.values.items() if k in THRESHOLD_VALUES})
    if "listed" in reading.values:  # query ids, whole (formatted() would cut them at a label's length)
        extra["listed"] = md(reading.values["listed"], None)
    if "more" in reading.values:
        more_key = "trigger.sweep.ranges_more" if "ranges" in reading.values else "trigger.and_more"
        extra["more"] = t(more_key, n=integer(reading.values["more"])) if reading.values["more"] else ""
    if "ranges" in reading.values:
        extra["ranges"] = t("trigger.sweep.range_separator").join(number(low, THRESHOLD_FORMAT) if low == high else
                                    t("trigger.sweep.range", low=number(low, THRESHOLD_FORMAT),
                                      high=number(high, THRESHOLD_FORMAT))
                                    for low, high in reading.values["ranges"])
    if "p_value" in reading.values:
        extra["p_value"] = p_value(reading.values["p_value"])
    if "better" in reading.values:
        extra["better"] = t(f"trigger.side.{reading.values['better']}")
    values = {k: v for k, v in reading.values.items() if not isinstance(v, (bool, list))}
    show(t(f"{prefix}.{reading.code}", **{**formatted(values, bands="trigger"), **extra}))


def rate_cell(metrics: TriggerMetrics, name: str) -> str:
    """"0,91 [0,82 ; 0,96] (69/76)": the rate with its interval per query, or why the rate is undefined."""
    rate = getattr(metrics, name)
    if not rate.defined:
        return t(f"trigger.undefined.{name}")
    return f"{number(rate.value)} {interval(rate.low, rate.high)} ({integer(rate.k)}/{integer(rate.n)})"


def decision_cell(metrics: TriggerMetrics, name: str) -> str:
    """"[0,85 ; 0,95]": the interval per decision (every run independent), or "—" when undefined."""
    rate = getattr(metrics, name)
    return interval(rate.decision_low, rate.decision_high) if rate.defined else "—"


def rates_table(columns: Sequence[tuple[str, TriggerMetrics]]) -> pd.DataFrame:
    """One row per rate (and the counts); per metric set, the rate with its interval per query, then
    the interval per decision beside it."""
    frame = {}
    for title, m in columns:
        frame[t("trigger.col.rate", title=title)] = [rate_cell(m, name) for name in RATES] + [
            t("trigger.scored_of", n=integer(m.n), total=integer(m.total))]
        frame[t("trigger.col.per_decision", title=title)] = [decision_cell(m, name) for name in RATES] + [""]
    return pd.DataFrame(frame, index=[t(f"trigger.rate.{name}") for name in RATES] + [t("trigger.rate.n")])


def status_counts(rows: Sequence[RoutedDecision]) -> dict[str, int]:
    counts = Counter(r.decision.status for r in rows)
    return {status: counts.get(status, 0) for status in STATUSES}


def misroute_lines(report: TriggerReport) -> list[str]:
    """Each error as "expected X -> got Y: query", the query and names escaped (shown as typed)."""
    return [t("trigger.misroute", expected=md(m.expected or "none", None), obtained=md(m.obtained or "none", None),
              query=md(m.query, None), run=m.run + 1) for m in report.misroutes]


BUILDERS = {"heatmap": heatmap, "threshold_lines": threshold_lines}


@st.cache_resource(show_spinner=False, max_entries=64)
def _figure(builder: str, style: str, *args, **kwargs):
    return BUILDERS[builder](*args, **kwargs)


def chart(container, builder: str, *args, key: str | None = None, **kwargs) -> None:
    container.plotly_chart(_figure(builder, figure_key(), *args, **kwargs), width="stretch", key=key)


def confusion_chart(container, report: TriggerReport, title: str, key: str | None = None) -> None:
    matrix = report.confusion
    chart(container, "heatmap", tuple(map(tuple, matrix.counts.tolist())), matrix.obtained_labels,
          matrix.expected_labels, title=title, x_title=t("trigger.obtained"), y_title=t("trigger.expected"),
          value_format=".0f", colorscale="Oranges", key=key)


def sweep_chart(container, sweep, marked: Sequence[float] = TABLE_THRESHOLDS, key: str | None = None) -> None:
    series = tuple((t(f"trigger.rate.{name}"), tuple(getattr(sweep, name).tolist())) for name in RATES)
    chart(container, "threshold_lines", tuple(sweep.thresholds.tolist()), series, title=t("trigger.sweep_figure"),
          x_title=t("trigger.threshold"), marked=tuple(marked), key=key)

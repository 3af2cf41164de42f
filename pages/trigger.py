"""Trigger eval: does each skill fire when it should, and only then? (docs/trigger.md)"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evallib import cluster_rates
from evallib.cluster_rates import clustered_rate_reading
from evallib.triggering.authored import TRIGGER_SET, rewrite_example
from ui.packs import current_pack
from evallib.triggering.comparison import (ALPHA, mcnemar_exact, mcnemar_reading, min_discordant_for_significance,
                                           paired_correctness)
from evallib.triggering.gate import trigger_gate
from evallib.triggering.readings import routing_errors_reading, sweep_reading
from evallib.llm import EmbeddingRequest
from evallib.runs.trigger.bundle import TriggerRun
from evallib.triggering.routing import DEFAULT_RUNS, build_requests
from evallib.triggering import report as trigger_report, similarity
from evallib.triggering.similarity import EMBEDDING_TABLE_THRESHOLDS, TABLE_THRESHOLDS, skill_texts
from ui import result_tables as rt
from ui.code_view import see_the_code
from ui.collection import answers_summary, collection_panel, source_badge
from ui.downloads import download_table
from ui.i18n import integer, number, percent, t
from ui.labels import md
from ui.settings import current_settings
from ui.room.submit import submit_trigger
from ui.shell import require_navigation
from ui.sources import chosen_source, recorded_source_choice
from ui.trigger.bundle import controls as bundle_controls, loaded_run
from ui.tables import results_table, wrapped_table
from ui.trigger.editor import data_editors, data_tools
from ui.trigger.view import (cached_baseline, cached_embedding_baseline, cached_report, confusion_chart,
                             misroute_lines, rates_table, say, status_counts, sweep_chart)
from ui.widgets import metric_rows, translated_radio

require_navigation()

#: Offline, requests are built with this model and replayed as the chosen recorded source asked them.
OFFLINE_MODEL = "authored-example-strong-router"
#: Most runs per query offered: beyond five, a workshop endpoint spends minutes on 38 queries.
MAX_RUNS = 5
#: Errors listed before the rest is folded into an expander.
ERRORS_SHOWN = 10


def _collect(catalogue, queries, model, runs, provider_kind, mode, key, replay=None):
    """(decisions of the answered requests, how many the recordings lack, the run, its labels); ``replay``:
    a loaded run whose answers are shown instead of collecting."""
    cells = build_requests(catalogue, queries, model, runs, provider_kind, mode)
    labels = [t("trigger.cell_label", id=c.query_id, run=c.run + 1) for c in cells]
    if replay is not None:
        run = replay
        answers_summary(run.results, labels)
    else:
        results = collection_panel([c.request for c in cells], set_name=TRIGGER_SET, key=key, labels=labels)
        source = None if current_settings().live else chosen_source(TRIGGER_SET)
        sent = tuple(source.apply(c.request) if source else c.request for c in cells)
        run = TriggerRun(catalogue, tuple(queries), runs, mode, provider_kind, sent[0].model if sent else model,
                         sent, tuple(results))
    # An answer the chosen recordings never held is not recorded, not an error: left out of the decisions.
    missing = sum(r is not None and r.error_kind == "missing_recording" for r in run.results)
    badges = sorted({source_badge(r) for _, r in run.answered() if not r.failed})
    if badges:
        st.markdown(t("trigger.answers_from", badges=" ".join(badges)))
    return run.decisions(), missing, run, labels


def _statuses(rows) -> None:
    counts = status_counts(rows)
    results_table(pd.DataFrame({t("trigger.status"): [t(f"trigger.status.{s}") for s in counts],
                                t("trigger.count"): [integer(v) for v in counts.values()]}),
                  hide_index=True, width="content")
    download_table("trigger_statuses", lambda: rt.counts(counts, "status"))
    st.caption(t("trigger.statuses_caption", empty=integer(counts["empty"]), errors=integer(counts["error"])))


def _metrics(report, queries, run) -> None:
    st.header(t("trigger.metrics_title"))
    st.markdown(t("trigger.metrics_intro_clustered"))
    results_table(rates_table([(t("trigger.all"), report.metrics)]), width="stretch")
    download_table("trigger_metrics", lambda: rt.rate_sets([("all", report.metrics)]))
    say("trigger.cluster", clustered_rate_reading(report.metrics.accuracy), st.caption)
    for reading in report.readings:
        say("trigger.reading", reading, st.info if reading.code == "perfect_score" else st.markdown)
    st.subheader(t("trigger.held_out_title"))
    held = sum(q.held_out for q in queries)
    st.markdown(t("trigger.held_out_intro", held=integer(held), visible=integer(len(queries) - held)))
    wrapped_table(rates_table([(t("trigger.visible"), report.visible), (t("trigger.held_out"), report.held_out)]))
    download_table("trigger_held_out", lambda: rt.rate_sets([("visible", report.visible), ("held_out", report.held_out)]))
    tokens = report.mean_input_tokens
    seconds = report.model_time_s
    metric_rows([(t("trigger.mean_tokens"), number(tokens, ".0f") if tokens is not None else t("trigger.not_reported"),
                  t("trigger.mean_tokens_help")),
                 (t("trigger.duration"), t("trigger.seconds", s=number(seconds, ".1f")) if seconds is not None
                  else t("trigger.not_reported"), t("trigger.duration_help"))])
    gate = trigger_gate(report.metrics, run.min_accuracy, run.max_error_rate).reading
    say("trigger.gate", gate)
    if gate.values["accuracy_low"] is not None:
        st.caption(t("trigger.gate_interval", low=percent(gate.values["accuracy_low"], 1),
                     high=percent(gate.values["accuracy_high"], 1)))
    see_the_code(trigger_report.evaluate, trigger_report.trigger_metrics, trigger_report.by_query,
                 cluster_rates.ClusteredRate.of, cluster_rates.cluster_interval_arrays,
                 cluster_rates.clopper_pearson_interval)


def _errors(report) -> None:
    st.header(t("trigger.errors_title"))
    reading = routing_errors_reading(report.metrics, len(report.misroutes))
    if reading.code == "nothing_routed":
        say("trigger.routed", reading, st.info)
        return
    confusion_chart(st, report, t("trigger.confusion_figure"))
    download_table("trigger_decisions", lambda: rt.routed_decisions(report.rows))
    lines = misroute_lines(report)
    if reading.code == "no_routing_error":
        say("trigger.routed", reading, st.success)
        return
    say("trigger.routed", reading)
    st.markdown("\n".join(f"- {line}" for line in lines[:ERRORS_SHOWN]))
    if len(lines) > ERRORS_SHOWN:
        with st.expander(t("trigger.more_errors", n=integer(len(lines) - ERRORS_SHOWN))):
            st.markdown("\n".join(f"- {line}" for line in lines[ERRORS_SHOWN:]))


def _baseline_result(table, sweep, marked, key: str) -> None:
    wrapped_table(rates_table([(t("trigger.at_threshold", threshold=number(th)), m) for th, m in table]))
    download_table(key.replace("_sweep", "_baseline"), lambda: rt.rate_sets(table, key="threshold"))
    sweep_chart(st, sweep, marked, key=key)
    say("trigger.sweep", sweep_reading(sweep))


def _baseline(catalogue, queries) -> None:
    st.header(t("trigger.baseline_title"))
    st.markdown(t("trigger.baseline_intro"))
    with st.spinner(t("trigger.computing")):
        table, sweep = cached_baseline(catalogue, queries)
    _baseline_result(table, sweep, TABLE_THRESHOLDS, "trigger_tfidf_sweep")
    see_the_code(similarity.similarity_scores, similarity.tfidf_matrix, similarity.baseline_table,
                 similarity.routed_by_similarity, similarity.decide, similarity.threshold_sweep, similarity._sweep,
                 similarity.embedding_scores)
    st.subheader(t("trigger.embeddings_title"))
    settings = current_settings()
    if not settings.live or settings.config.kind != "openai":
        st.caption(t("trigger.embeddings_live_only"))
        return
    model = st.text_input(t("trigger.embedding_model"), persist_state="session", key="trigger_embedding_model",
                          placeholder="nomic-embed-text").strip()
    if not model:
        return
    texts = (*skill_texts(catalogue), *(q.query for q in queries))
    [result] = collection_panel([EmbeddingRequest(model, texts)], set_name=TRIGGER_SET, key="trigger_embed",
                                labels=[t("trigger.embedding_label", n=integer(len(texts)))])
    if result is None or result.failed:
        return
    try:
        table, sweep = cached_embedding_baseline(catalogue, queries, tuple(map(tuple, result.vectors)))
    except ValueError:
        st.warning(t("trigger.embedding_mismatch", n=integer(len(texts))))
        return
    _baseline_result(table, sweep, EMBEDDING_TABLE_THRESHOLDS, "trigger_embedding_sweep")


def _set_state(key: str, value: str) -> None:
    st.session_state[key] = value


def _before_after(catalogue, queries, rows, model, runs, provider_kind, mode, live) -> tuple | None:
    """The edit section; returns (edited catalogue, its decisions, answers without a recording), None when unedited."""
    st.header(t("trigger.edit_title"))
    st.markdown(t("trigger.edit_intro"))
    st.caption(t("trigger.edit_power", n=integer(len(queries)), needed=integer(min_discordant_for_significance()),
                 alpha=number(ALPHA)))
    see_the_code(paired_correctness, mcnemar_exact, min_discordant_for_significance)
    name = st.selectbox(t("trigger.edit_skill"), catalogue.names, persist_state="session", key="trigger_edit_skill")
    key = f"trigger_edit_description_{name}"
    st.session_state.setdefault(key, next(s.description for s in catalogue.skills if s.name == name))
    description = st.text_area(t("trigger.edit_description"), persist_state="session", key=key, height=140).strip()
    decisions = current_pack().file("triggering_authored_decisions.json")
    example = None if live or decisions is None else rewrite_example(decisions)
    if example is not None and example[0] == name:
        st.button(t("trigger.edit_use_example"), key="trigger_edit_example", on_click=_set_state,
                  args=(key, example[1]), help=t("trigger.edit_example_help"))
    if not description or description == next(s.description for s in catalogue.skills if s.name == name):
        st.info(t("trigger.edit_unchanged"))
        return None
    edited = catalogue.with_description(name, description)
    after_rows, missing, _, _ = _collect(edited, queries, model, runs, provider_kind, mode, "trigger_after")
    if missing and not live:
        st.info(t("trigger.edit_offline", n=integer(missing)))
        return edited, after_rows, missing
    if not after_rows:
        return edited, after_rows, missing
    before, after = cached_report(rows, catalogue, queries), cached_report(after_rows, edited, queries)
    wrapped_table(rates_table([(t("trigger.side.before"), before.metrics), (t("trigger.side.after"), after.metrics)]))
    download_table("trigger_before_after", lambda: rt.rate_sets([("before", before.metrics), ("after", after.metrics)]))
    _, right_before, right_after = paired_correctness(rows, after_rows)
    say("trigger.mcnemar", mcnemar_reading(mcnemar_exact(right_before, right_after)))
    return edited, after_rows, missing


# ---------------------------------------------------------------- page

st.title(t("trigger.title"))
st.markdown(t("trigger.intro"))

st.header(t("trigger.data_title"))
catalogue, queries, problem = data_editors()
data_tools(catalogue, queries)
if catalogue is None:
    st.error(t("trigger.invalid", error=problem))
    st.stop()

settings = current_settings()
st.header(t("trigger.collect_title"))
columns = st.columns(2)
runs = int(columns[0].number_input(t("trigger.runs"), min_value=1, max_value=MAX_RUNS, value=DEFAULT_RUNS,
                                   persist_state="session", key="trigger_runs", help=t("trigger.runs_help")))
replay = loaded_run(catalogue, queries, runs)
if replay is not None:
    model, provider_kind, mode, source = replay.model, replay.provider_kind, replay.mode, None
elif settings.live:
    model, provider_kind, source = settings.model, settings.config.kind, None
    with columns[1]:
        mode = translated_radio("trigger_mode", "trigger.mode", ("tools", "json"), help=t("trigger.mode_help"))
else:
    model, provider_kind, mode = OFFLINE_MODEL, "openai", "tools"
    with columns[1]:
        source = recorded_source_choice([c.request for c in build_requests(catalogue, queries, model, runs)],
                                        set_name=TRIGGER_SET, key="trigger")
    if source is not None:
        st.caption(t("trigger.replaying", model=md(source.model, None)))
rows, missing, run, labels = _collect(catalogue, queries, model, runs, provider_kind, mode, "trigger_routing", replay)
if missing and not settings.live:
    st.info(t("trigger.missing_offline", n=integer(missing)))
report = cached_report(rows, catalogue, queries) if rows else None
bundle_controls(run, report, labels, MAX_RUNS)
if not rows:
    st.info(t("trigger.nothing_yet"))
    st.stop()
_statuses(rows)
_metrics(report, queries, run)
_errors(report)
_baseline(catalogue, queries)
tried = _before_after(catalogue, queries, rows, model, runs, provider_kind, mode, settings.live)
submit_trigger(queries, rows, tried or (catalogue, rows, missing), model=model, runs=runs, mode=mode, live=settings.live)

st.header(t("trigger.cli_title"))
st.markdown(t("trigger.cli_intro"))
recorded = run.model if source is not None or replay is not None else "MODEL"
st.code(f"python -m evallib trigger --offline --runs {runs} --model {recorded}\n"
        "python -m evallib trigger --runs 2 --provider openai --base-url URL --model MODEL\n"
        "python -m evallib record trigger --kind openai --base-url URL --model MODEL", language="bash")
st.caption(t("trigger.limits", n=integer(len(queries))))

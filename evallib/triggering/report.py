"""From answers to a triggering report: decisions, metrics (per decision and per query), confusion,
misroutes, consistency, the held-out split, readings; and its JSON form for the CLI and CI.

The page and the CLI call the same functions, so the figures on screen and in
``triggering-<model>.json`` are one computation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evallib.llm import ChatResult, collect
from evallib.llm.collect import DEFAULT_CONCURRENCY, Progress
from evallib.readings import Reading
from evallib.triggering.data import LabelledQuery, SkillCatalogue
from evallib.triggering.decisions import parse_decision
from evallib.triggering.metrics import (Confusion, Misroute, QueryConsistency, RoutedDecision, TriggerMetrics,
                                        by_query, confusion, consistency, mean_input_tokens, misroutes,
                                        total_latency_s, trigger_metrics)
from evallib.triggering.readings import metrics_readings
from evallib.triggering.routing import RoutingRequest, build_requests


def decide_all(cells: Sequence[RoutingRequest], results: Sequence[ChatResult], queries: Sequence[LabelledQuery],
               names: Sequence[str], mode: str = "tools") -> list[RoutedDecision]:
    """One `RoutedDecision` per (cell, result) pair; ``results[i]`` answers ``cells[i]``.

    Raises ValueError when the two sequences differ in length.
    """
    if len(cells) != len(results):
        raise ValueError(f"{len(cells)} requests but {len(results)} results")
    rows = []
    for cell, result in zip(cells, results):
        query = queries[cell.query_index]
        rows.append(RoutedDecision(query.id, query.query, query.expected, parse_decision(result, names, mode),
                                   cell.run, result.input_tokens, result.latency_s))
    return rows


def route(catalogue: SkillCatalogue, queries: Sequence[LabelledQuery], provider, model: str, runs: int,
          provider_kind: str = "openai", mode: str = "tools", concurrency: int = DEFAULT_CONCURRENCY,
          on_progress: Callable[[Progress], None] | None = None) -> tuple[list[RoutingRequest], list[ChatResult]]:
    """Build the routing requests and collect their answers from ``provider`` (any mode)."""
    cells = build_requests(catalogue, queries, model, runs, provider_kind, mode)
    return cells, collect([c.request for c in cells], provider, concurrency, on_progress)


@dataclass(frozen=True)
class TriggerReport:
    """Everything the page shows and the CLI writes about one routing run."""

    rows: tuple[RoutedDecision, ...]
    metrics: TriggerMetrics
    per_query: TriggerMetrics
    visible: TriggerMetrics
    held_out: TriggerMetrics
    confusion: Confusion
    misroutes: tuple[Misroute, ...]
    consistency: tuple[QueryConsistency, ...]
    mean_input_tokens: float | None
    model_time_s: float | None
    readings: tuple[Reading, ...]


def evaluate(rows: Sequence[RoutedDecision], catalogue: SkillCatalogue,
             queries: Sequence[LabelledQuery]) -> TriggerReport:
    """The `TriggerReport` of decisions on ``queries`` (``held_out`` queries scored apart too)."""
    held_out_ids = {q.id for q in queries if q.held_out}
    agreement = consistency(rows)
    metrics, per_query = trigger_metrics(rows), trigger_metrics(by_query(rows))
    return TriggerReport(
        rows=tuple(rows), metrics=metrics, per_query=per_query,
        visible=trigger_metrics(r for r in rows if r.query_id not in held_out_ids),
        held_out=trigger_metrics(r for r in rows if r.query_id in held_out_ids),
        confusion=confusion(rows, catalogue.names), misroutes=tuple(misroutes(rows)),
        consistency=tuple(agreement), mean_input_tokens=mean_input_tokens(rows),
        model_time_s=total_latency_s(rows), readings=tuple(metrics_readings(metrics, per_query, agreement)))


def report_to_dict(report: TriggerReport, *, model: str, runs: int, mode: str, duration_s: float,
                   gate: dict | None = None, baseline: Sequence[tuple[float, TriggerMetrics]] = ()) -> dict:
    """The JSON-ready figures (the ``report`` of the run bundle in ``triggering-<model>.json``).

    ``duration_s`` is the wall time of the run; ``model_time_s`` the sum of per-call latencies (as
    recorded, when replayed; None when never measured); ``baseline`` the similarity baseline's
    (threshold, metrics) rows. Each rate's ``ci95`` takes the query as its unit, ``ci95_per_decision``
    counts every run as independent; ``metrics_by_query`` holds the rates of the queries right on
    every run (McNemar's pairing unit), which is not the accuracy.
    """
    return {
        "model": model, "runs": runs, "mode": mode,
        "metrics": report.metrics.to_dict(),
        "metrics_by_query": report.per_query.to_dict(),
        "held_out": {"visible": report.visible.to_dict(), "held_out": report.held_out.to_dict()},
        "errors": [m.describe() for m in report.misroutes],
        "inconsistent_queries": [c.query_id for c in report.consistency if not c.consistent],
        "confusion": {"expected": list(report.confusion.expected_labels),
                      "obtained": list(report.confusion.obtained_labels),
                      "counts": report.confusion.counts.tolist()},
        "mean_input_tokens": report.mean_input_tokens,
        "duration_s": duration_s,
        "model_time_s": report.model_time_s,
        "readings": [{"code": r.code, "values": r.values} for r in report.readings],
        "gate": gate,
        "similarity_baseline": [{"threshold": t, **m.to_dict()} for t, m in baseline],
    }

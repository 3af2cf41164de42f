"""A routing run as a run bundle (`evallib.runs.bundle`), and the bundle back as the run it was.

``inputs`` (page "trigger"): ``skills`` and ``queries`` in the JSON forms of `evallib.triggering.data`,
``runs``, ``mode`` (tools / json), ``provider_kind``, ``model`` (the model the requests named) and
``gate`` (``min_accuracy``, ``max_error_rate``). ``requests``: every routing request as sent, query by
query and run by run (`evallib.triggering.routing.build_requests`, with the options of the recorded
source replayed, if any). ``report``: `trigger_report`, the dict ``python -m evallib trigger`` writes.

`load_trigger_bundle` rebuilds the requests from the inputs, checks that each asks what the bundle's
request asks (`evallib.llm.recordings.content_key`), and replays the stored answers through the same
functions, so the figures are recomputed, not copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evallib.runs.replay import AnswerBook, book_of, matching_requests
from evallib.llm.request import ChatRequest, ChatResult
from evallib.runs.bundle import RunBundleError, make_run_bundle, read_run_bundle
from evallib.triggering.data import (LabelledQuery, SkillCatalogue, TriggerDataError, parse_queries, parse_skills,
                                     queries_to_dict)
from evallib.triggering.gate import DEFAULT_MAX_UNUSABLE_RATE, DEFAULT_MIN_ACCURACY, trigger_gate
from evallib.triggering.metrics import RoutedDecision
from evallib.triggering.report import TriggerReport, decide_all, evaluate, report_to_dict
from evallib.triggering.routing import RoutingRequest, build_requests
from evallib.triggering.similarity import baseline_table

PAGE = "trigger"
#: Report entries that describe how the run went, not what its answers measure: kept as written.
RUN_FACTS = ("duration_s", "failures", "outcome", "exit_code")


@dataclass(frozen=True)
class TriggerRun:
    """One routing run: its inputs, each request as sent and its answer (None: not collected)."""

    catalogue: SkillCatalogue
    queries: tuple[LabelledQuery, ...]
    runs: int
    mode: str
    provider_kind: str
    model: str
    requests: tuple[ChatRequest, ...]
    results: tuple[ChatResult | None, ...]
    min_accuracy: float = DEFAULT_MIN_ACCURACY
    max_error_rate: float = DEFAULT_MAX_UNUSABLE_RATE

    def cells(self) -> list[RoutingRequest]:
        return build_requests(self.catalogue, self.queries, self.model, self.runs, self.provider_kind, self.mode)

    def answered(self) -> list[tuple[RoutingRequest, ChatResult]]:
        """(cell, answer) of the requests answered (a request nothing recorded is left out, not an error)."""
        return [(c, r) for c, r in zip(self.cells(), self.results)
                if r is not None and r.error_kind != "missing_recording"]

    def decisions(self) -> tuple[RoutedDecision, ...]:
        pairs = self.answered()
        return tuple(decide_all([c for c, _ in pairs], [r for _, r in pairs], self.queries, self.catalogue.names,
                                self.mode))


def trigger_report(run: TriggerRun, report: TriggerReport | None = None, duration_s: float | None = None) -> dict:
    """The JSON report of ``run`` (`evallib.triggering.report.report_to_dict`, with the gate and the baseline)."""
    report = report or evaluate(run.decisions(), run.catalogue, run.queries)
    gate = trigger_gate(report.metrics, run.min_accuracy, run.max_error_rate)
    return report_to_dict(report, model=run.model, runs=run.runs, mode=run.mode, duration_s=duration_s,
                          gate={"passed": gate.passed, "code": gate.reading.code, "values": gate.reading.values},
                          baseline=baseline_table(run.queries, run.catalogue))


def trigger_bundle(run: TriggerRun, report: Mapping, made_by: str = "page",
                   labels: Sequence[str] = ()) -> dict:
    """The run bundle of ``run`` with its ``report``; ``labels``: one per request. Raises `RunBundleError`."""
    book = AnswerBook([r for r in run.results if r is not None])
    for request in run.requests:
        book.chat(request)
    requests, answers = book.requests_and_answers(dict(zip((r.key() for r in run.requests), labels)))
    inputs = {"skills": run.catalogue.to_dict(), "queries": queries_to_dict(run.queries), "runs": run.runs,
              "mode": run.mode, "provider_kind": run.provider_kind, "model": run.model,
              "gate": {"min_accuracy": run.min_accuracy, "max_error_rate": run.max_error_rate}}
    return make_run_bundle(PAGE, inputs=inputs, requests=requests, answers=answers, report=report, made_by=made_by)


def _number(inputs: Mapping, name: str, default: float) -> float:
    value = (inputs.get("gate") or {}).get(name, default) if isinstance(inputs.get("gate"), dict) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise RunBundleError("inputs", f"bundle inputs: gate {name} must be a number in [0, 1]", field=f"gate/{name}")
    return float(value)


def _inputs(inputs: Mapping) -> tuple:
    try:
        catalogue = parse_skills(inputs.get("skills"))
        queries = parse_queries(inputs.get("queries"), catalogue)
    except TriggerDataError as error:
        raise RunBundleError("inputs", f"bundle inputs: {error}", field="skills/queries") from error
    runs, mode, kind, model = (inputs.get(k) for k in ("runs", "mode", "provider_kind", "model"))
    if not isinstance(runs, int) or isinstance(runs, bool) or not isinstance(model, str):
        raise RunBundleError("inputs", "bundle inputs: runs must be a whole number and model a text", field="runs")
    return catalogue, queries, runs, mode, kind, model


def load_trigger_bundle(bundle: Mapping) -> tuple[TriggerRun, dict]:
    """(the run, its report recomputed) of a bundle checked by `read_run_bundle`.

    Raises `RunBundleError`: ``inputs`` (details: field) when the inputs are not a valid run,
    ``requests`` (details: index) when a request does not ask what the inputs build.
    """
    catalogue, queries, runs, mode, kind, model = _inputs(bundle["inputs"])
    try:
        cells = build_requests(catalogue, queries, model, runs, kind, mode)
    except (ValueError, TypeError) as error:
        raise RunBundleError("inputs", f"bundle inputs: {error}", field="runs/mode/provider_kind") from error
    stored = bundle["requests"]
    if len(stored) != len(cells):
        raise RunBundleError("requests", f"the bundle holds {len(stored)} requests, its inputs build {len(cells)}",
                             index=min(len(stored), len(cells)))
    sent = matching_requests([cell.request for cell in cells], stored)
    book = book_of(bundle)
    results = tuple(book.results.get(r.key()) for r in sent)
    run = TriggerRun(catalogue, queries, runs, mode, kind, model, tuple(sent), results,
                     _number(bundle["inputs"], "min_accuracy", DEFAULT_MIN_ACCURACY),
                     _number(bundle["inputs"], "max_error_rate", DEFAULT_MAX_UNUSABLE_RATE))
    try:
        report = trigger_report(run, duration_s=bundle["report"].get("duration_s"))
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise RunBundleError("answers", f"the bundle's answers cannot be read as routing decisions: {error}") from error
    report |= {k: bundle["report"][k] for k in RUN_FACTS if k in bundle["report"]}
    return run, report


def read_trigger_bundle(raw: bytes | str) -> tuple[dict, TriggerRun, dict]:
    """(bundle, run, recomputed report) of a file's text; raises `RunBundleError` before returning anything."""
    bundle = read_run_bundle(raw, PAGE)
    return (bundle, *load_trigger_bundle(bundle))

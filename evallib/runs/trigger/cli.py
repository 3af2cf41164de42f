"""``trigger``: route the labelled set through a model, write ``triggering-<model>.json``, gate on accuracy.

The file is the run bundle of the run (`evallib.runs.trigger.bundle`): the trigger page loads it.

    trigger --runs 2 --model M [--provider openai|anthropic --base-url URL --timeout S] [--offline]
            [--min-accuracy 0.85] [--max-failed-share 0] [--out outputs/]

Exit codes: 0 the gate passed, 1 the gate failed on measured answers (accuracy under the threshold,
or too many empty, cut or unreadable answers), 2 not measured: a usage or data error (bad option,
invalid data file, offline without recordings for the model) or calls that got no answer (see below).
The threshold defaults to ``TRIGGER_MIN_ACCURACY``, else 0.85 (docs/trigger.md#gate). Offline, answers are replayed
from ``recordings/`` (`evallib.llm.provider_for_mode("offline", ...)`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from evallib.packs.options import add_pack_option
from evallib.runs.failures import call_failures
from evallib.runs.gate import (EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS, LIVE_OPTIONS_HELP, ProgressLine,
                              UsageError, add_live_options, command_options, exit_code, live_config, outcome,
                              report_failures, report_file, run_command, verdict, write_bundle)
from evallib.llm import Recordings, default_recordings, make_provider, provider_for_mode
from evallib.runs.unmatched import stale_recordings
from evallib.triggering.authored import TRIGGER_SET, recorded_models
from evallib.triggering.data import DEFAULT_QUERIES, DEFAULT_SKILLS, TriggerDataError, load_queries, load_skills
from evallib.triggering.gate import DEFAULT_MAX_UNUSABLE_RATE, min_accuracy_from_env, trigger_gate
from evallib.cluster_rates import ClusteredRate
from evallib.runs.trigger.bundle import TriggerRun, trigger_bundle, trigger_report
from evallib.triggering.report import decide_all, evaluate, route
from evallib.triggering.routing import DEFAULT_RUNS, MODES

__all__ = ["EXIT_GATE_FAILED", "EXIT_NOT_MEASURED", "EXIT_PASS", "main", "report_path", "run"]
#: Misroutes printed under the table (all of them are in the JSON report).
MAX_PRINTED_ERRORS = 10


def report_path(out: Path, model: str) -> Path:
    """``<out>/triggering-<model>.json``, the model id made safe for a file name.

    >>> report_path(Path("outputs"), "org/model:7b").name
    'triggering-org_model_7b.json'
    """
    return report_file(out, "triggering", model)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib trigger", description=__doc__ + LIVE_OPTIONS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="model id (offline: a recorded model)")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS, help="runs per query (default %(default)s)")
    add_live_options(parser)
    parser.add_argument("--mode", choices=MODES, default="tools", help="tool calling, or the JSON fallback")
    parser.add_argument("--offline", action="store_true", help="replay recordings/ instead of calling a model")
    parser.add_argument("--min-accuracy", type=float, default=None,
                        help="gate threshold (default: TRIGGER_MIN_ACCURACY, else 0.85)")
    parser.add_argument("--max-error-rate", type=float, default=DEFAULT_MAX_UNUSABLE_RATE,
                        help="largest share of unusable answers (empty, cut, unreadable, or failed calls "
                             "within --max-failed-share) before the gate fails (default %(default)s)")
    parser.add_argument("--out", type=Path, default=Path("outputs"))
    parser.add_argument("--skills", type=Path, default=DEFAULT_SKILLS)
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--recordings", type=Path, default=None,
                        help="one folder to read and write recordings in (default: the shipped recordings/ "
                             "and the local folder, where new recordings go)")
    add_pack_option(parser, "trigger", {"skills": "triggering_skills.json", "queries": "triggering_queries.json"})
    return parser


def _check(args: argparse.Namespace) -> float:
    """The gate threshold; raises UsageError on an option out of range."""
    try:
        min_accuracy = min_accuracy_from_env() if args.min_accuracy is None else args.min_accuracy
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    for name, value in (("--min-accuracy", min_accuracy), ("--max-error-rate", args.max_error_rate)):
        if not 0 <= value <= 1:
            raise UsageError(f"{name} must be between 0 and 1, got {value}")
    if args.runs < 1:
        raise UsageError("--runs must be at least 1")
    return min_accuracy


def _provider(args: argparse.Namespace, recordings: Recordings):
    """Offline: the recordings only. Live: the endpoint only, without falling back on a recording, since
    a gate must measure the live model (a failed call counts as an error)."""
    if args.offline:
        return provider_for_mode("offline", recordings)
    return make_provider(live_config(args))


def _cell(rate: ClusteredRate) -> str:
    if not rate.defined:
        return f"{'undefined':>9} {'':>16}   {'':>16}"
    return (f"{rate.value:>9.3f} [{rate.low:.3f}, {rate.high:.3f}]   "
            f"[{rate.decision_low:.3f}, {rate.decision_high:.3f}]")


def gate_words(reading) -> str:
    """The gate's reading (`evallib.triggering.gate.trigger_gate`) as a terminal says it, from its values.

    >>> from evallib.readings import Reading
    >>> gate_words(Reading("gate_unusable_over_limit", {"unusable_rate": 0.25, "max_unusable_rate": 0.1}))
    'unusable answers 25.0 % of the decisions, above the limit of 10.0 %'
    """
    values = reading.values
    words = {
        "gate_no_decisions": lambda: "no decision to measure",
        "gate_all_errored": lambda: f"all {values['total']} decisions are errors: none to measure",
        "gate_unusable_over_limit": lambda: (f"unusable answers {values['unusable_rate']:.1%} of the decisions, "
                                             f"above the limit of {values['max_unusable_rate']:.1%}"),
        "gate_below_min": lambda: "accuracy below the minimum",
        "gate_pass": lambda: "accuracy at or above the minimum",
    }
    return words[reading.code]().replace("%", " %")


def print_table(report, data: dict, gate, path: Path, code: int, results=(), n_queries: int = 0) -> None:
    """The short table of the CLI: each rate with its 95 % interval (the query as the unit) and,
    beside it, the interval per decision (every run counted as independent). ``results``: the answers
    (to count those cut at the token limit); ``n_queries``: the queries asked."""
    m, q = report.metrics, report.per_query
    cut = sum(r.status == "truncated" for r in results)
    errors = f"{m.errors} errors, {cut} of them cut at the token limit" if cut else f"{m.errors} errors"
    print(f"model {data['model']}, {data['runs']} run(s), {m.total} decisions "
          f"({m.n} scored, {m.empty} empty, {errors}), {q.n} of {n_queries} queries measured")
    print(f"{'metric':<22} {'rate':>9} {'95 % CI (query)':<16}   {'95 % CI (decision)':<16}")
    for name in ("accuracy", "precision", "recall", "false_activation_rate"):
        print(f"{name.replace('_', ' '):<22} {_cell(getattr(m, name))}")
    tokens = "n/a" if report.mean_input_tokens is None else f"{report.mean_input_tokens:.0f}"
    print(f"mean input tokens {tokens}, duration {data['duration_s']:.1f} s")
    for line in data["errors"][:MAX_PRINTED_ERRORS]:
        print(f"  {line}")
    if len(data["errors"]) > MAX_PRINTED_ERRORS:
        print(f"  ... {len(data['errors']) - MAX_PRINTED_ERRORS} more in the report")
    values = gate.reading.values
    accuracy = "undefined" if values["accuracy"] is None else (
        f"{values['accuracy']:.3f} [{values['accuracy_low']:.3f}, {values['accuracy_high']:.3f}] per query")
    print(f"gate: {verdict(code)} ({gate_words(gate.reading)}; accuracy {accuracy}, "
          f"minimum {values['min_accuracy']:.3f})")
    print(f"report: {path}")


def run(args: argparse.Namespace) -> int:
    min_accuracy = _check(args)
    try:
        catalogue = load_skills(args.skills)
        queries = load_queries(catalogue, args.queries)
    except (TriggerDataError, OSError) as exc:
        raise UsageError(f"data: {exc}") from None
    recordings = (Recordings(args.recordings) if args.recordings else default_recordings())
    start = time.perf_counter()
    progress = ProgressLine("trigger")
    cells, results = route(catalogue, queries, _provider(args, recordings), args.model, args.runs,
                           args.provider, args.mode, args.concurrency, progress)
    progress.close()
    duration = time.perf_counter() - start
    missing = sum(r.error_kind == "missing_recording" for r in results)
    if args.offline and missing:
        stale = stale_recordings(recordings, TRIGGER_SET, [args.model], args.pack,
                                 f"record trigger --model {args.model} --base-url URL")
        why = stale or f"recorded models: {', '.join(recorded_models(recordings)) or 'none'}"
        raise UsageError(f"{missing} of {len(results)} requests have no recording for model {args.model!r} "
                         f"(runs {args.runs}, mode {args.mode}, provider {args.provider}); {why}")
    failures = call_failures(results, [f"{c.query_id} run {c.run + 1}" for c in cells], command_options(args),
                             args.max_failed_share)
    trigger_run = TriggerRun(catalogue, tuple(queries), args.runs, args.mode, args.provider, args.model,
                             tuple(c.request for c in cells), tuple(results), min_accuracy, args.max_error_rate)
    report = evaluate(decide_all(cells, results, queries, catalogue.names, args.mode), catalogue, queries)
    gate = trigger_gate(report.metrics, min_accuracy, args.max_error_rate)
    code = exit_code(gate.passed, failures)
    data = trigger_report(trigger_run, report, duration)
    data |= {"failures": failures.to_dict(), "outcome": outcome(code), "exit_code": code}
    path = report_path(args.out, args.model)
    write_bundle(path, trigger_bundle(trigger_run, data, "cli",
                                      [f"{c.query_id} run {c.run + 1}" for c in cells]))
    print_table(report, data, gate, path, code, results, len(queries))
    report_failures(failures)
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the ``trigger`` command; returns the exit code (0 pass, 1 gate failed, 2 not measured)."""
    return run_command("trigger", _parser(), run, argv)


if __name__ == "__main__":
    sys.exit(main())

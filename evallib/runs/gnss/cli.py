"""``gnss``: run the GNSS evaluation from the command line (table or JSON, pass-count gate).

    gnss [--agents v1,v2,midas] [--spec v1|v2|v3] [--min-passes N] [--json] [--held-out]
         [--v1-threshold MM] [--v2-threshold MM] [--trials N]
    gnss --summary [--trials N] [--json]      the closing table: v1/spec v1, v2/spec v2, v2/spec v3, held-out check
    gnss --recorded MODEL [--runs N]          grade recorded answers of a model (offline replay)
    gnss --live MODEL [--runs N] [--base-url URL --timeout S ...] [--out DIR]   a live text model as the agent
    gnss --file PATH [--component up] [--steps STEPS | --no-steps]
                                              estimates on a real station file, graded against the reference

Spec v3's tolerances are derived on the spot from ``--trials`` realisations per record length.
Exit codes: 0 every agent passed at least ``--min-passes`` cases (default 1: an agent that passes no
case fails, so a text model whose every answer is unreadable never passes), 1 an agent fell below
(measured answers), 2 not measured: a usage or input error (bad option, unreadable file, missing
recordings) or, with ``--live``, calls that got no answer (see below).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from evallib.packs.options import add_pack_option
from evallib.runs.gnss.bundle import (AGENT_NAMES, MODELS_OFFSETS, GnssRun, Station, TextModelRun, evaluation_report,
                                 gnss_bundle, pass_rate_by_case, station_report, text_model_report, text_model_rows)
from evallib.gnss.evaluation import failure_groups, pass_count
from evallib.gnss.live import GNSS_SET, case_requests
from evallib.gnss.readers import COMPONENTS, GnssFileError
from evallib.gnss.reference import StepsFileError
from evallib.gnss.spec import SPEC_V1, SPEC_V2, Spec, render_spec
from evallib.gnss.tolerances import DEFAULT_TRIALS, MIN_TRIALS, derive_spec_v3, seed_summary, velocity_error_spread
from evallib.runs.failures import call_failures
from evallib.runs.gate import (EXIT_GATE_FAILED, EXIT_PASS, LIVE_OPTIONS_HELP, ProgressLine, UsageError,
                              add_live_options, command_options, exit_code, live_config, report_failures,
                              outcome, report_file, run_command, write_bundle)
from evallib.llm import Recordings, collect, default_recordings, make_provider
from evallib.runs.bundle import dumps

EXIT_BELOW = EXIT_GATE_FAILED  # an agent passes fewer cases than --min-passes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib gnss", description=__doc__ + LIVE_OPTIONS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", default="v1,v2", help="comma-separated among v1, v2, midas (default %(default)s)")
    parser.add_argument("--spec", choices=("v1", "v2", "v3"), default="v1")
    parser.add_argument("--min-passes", type=int, default=1,
                        help="exit 1 when an agent passes fewer cases (default 1: passing no case fails)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--held-out", action="store_true", help="the twelve designs with fresh seeds (5000 on)")
    parser.add_argument("--v1-threshold", type=float, default=12.0, help="v1's jump threshold in mm")
    parser.add_argument("--v2-threshold", type=float, default=6.0, help="v2's and MIDAS's step threshold in mm")
    parser.add_argument("--trials", type=int, default=DEFAULT_TRIALS, help="realisations per length for spec v3")
    parser.add_argument("--summary", action="store_true", help="the v1/v2/v3 summary table and the held-out check")
    parser.add_argument("--recorded", metavar="MODEL", help="grade the recorded answers of MODEL instead")
    parser.add_argument("--live", metavar="MODEL", help="ask MODEL at the live endpoint to be the agent, and grade it")
    parser.add_argument("--runs", type=int, default=2, help="runs per case (with --recorded or --live)")
    parser.add_argument("--out", type=Path, default=None,
                        help="also write the run bundle (the page loads it) to OUT/gnss-<model>.json "
                             "(--recorded, --live) or OUT/gnss-spec-<version>.json")
    parser.add_argument("--recordings", type=Path, default=None,
                        help="one folder to read and write recordings in (default: the shipped recordings/ "
                             "and the local folder, where new recordings go)")
    add_pack_option(parser, "gnss", {})
    parser.add_argument("--file", type=Path, help="a .csv, .tenv3, .pos or .neu file: estimates, no truth")
    parser.add_argument("--component", choices=COMPONENTS, default="up")
    parser.add_argument("--steps", type=Path, default=None,
                        help="with --file: a steps file for the reference (one YYYY-MM-DD a line, optionally a "
                             "component); without it the reference takes the reader's detected steps")
    parser.add_argument("--no-steps", action="store_true", help="with --file: the reference takes no step at all")
    add_live_options(parser)
    return parser


def _spec(args: argparse.Namespace) -> tuple[Spec, dict]:
    if args.spec == "v1":
        return SPEC_V1, {}
    if args.spec == "v2":
        return SPEC_V2, {}
    if args.trials < MIN_TRIALS:
        raise UsageError(f"--trials must be at least {MIN_TRIALS} to bound a 95th percentile, got {args.trials}")
    spec = derive_spec_v3(velocity_error_spread(10, args.trials), velocity_error_spread(2, args.trials))
    return spec, spec.derived_from


def _agents(args: argparse.Namespace) -> list[str]:
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    unknown = [n for n in names if n not in AGENT_NAMES]
    if unknown or not names:
        raise UsageError(f"unknown agent(s) {unknown or names}; choose among {', '.join(AGENT_NAMES)}")
    for option, value in (("--v1-threshold", args.v1_threshold), ("--v2-threshold", args.v2_threshold)):
        if not math.isfinite(value) or value < 0:
            raise UsageError(f"{option} must be a non-negative number, got {value}")
    return names


#: How the terminal names each failure group of `evallib.gnss.evaluation.failure_groups`.
GROUP_WORDS = {
    "failure_malformed": "answer not in the schema", "failure_unmodelled_offset": "offset not modelled",
    "failure_small_offset_missed": "offset missed", "failure_false_alarm": "offset flagged where none is",
    "failure_short_record": "short record", "failure_other": "other failure",
}


def _print_table(name: str, rows: list, groups: list) -> None:
    if not rows:  # every call failed (their causes follow) or nothing was graded: no table of nothing
        print(f"agent {name}: no answer to grade, so no case passes or fails")
        return
    print(f"agent {name}: {pass_count(rows)}/{len(rows)} cases pass")
    print(f"{'case':<10} {'true v':>7} {'est. v':>8} {'tol':>4} {'offset':>6} {'flag':>5} {'day':>5} "
          f"{'est.':>5}  result")
    for r in rows:
        est = "-" if r.estimated_velocity is None else f"{r.estimated_velocity:.2f}"
        flag = "-" if r.flagged is None else ("yes" if r.flagged else "no")
        verdict = "pass" if r.passed else "FAIL" + (f" ({r.problem_text})" if r.problem_text else "")
        print(f"{r.case_id:<10} {r.true_velocity:>7g} {est:>8} {r.velocity_tol:>4g} "
              f"{'yes' if r.true_offset else 'no':>6} {flag:>5} {str(r.true_day or '-'):>5} "
              f"{str(r.estimated_day if r.estimated_day is not None else '-'):>5}  {verdict}")
    for reading in groups:
        if reading.code == "all_passed":
            print(f"  every one of the {reading.values['n']} cases passes")
        else:
            print(f"  {GROUP_WORDS[reading.code]}: {', '.join(reading.values['cases'])}")


def _spec_run(args: argparse.Namespace, spec: Spec, **parts) -> GnssRun:
    return GnssRun(spec, args.v1_threshold, args.v2_threshold, held_out=args.held_out, **parts)


def _emit(args: argparse.Namespace, bundle: dict, path: Path | None) -> None:
    """The run bundle: printed with ``--json``, written to ``path`` with ``--out``."""
    if path is not None:
        write_bundle(path, bundle)
    if args.json:
        print(dumps(bundle).decode("utf-8"))


def _evaluate(args: argparse.Namespace) -> int:
    names = _agents(args)
    spec, derived = _spec(args)
    run = _spec_run(args, spec, agents=tuple(names))
    rows = run.agent_rows()
    below = [name for name in names if pass_count(rows[name]) < args.min_passes]
    if not args.json:
        for name in names:
            _print_table(name, rows[name], failure_groups(rows[name], MODELS_OFFSETS[name]))
    _emit(args, gnss_bundle(run, {"evaluation": evaluation_report(run, rows)}, "cli"),
          None if args.out is None else args.out / f"gnss-spec-{spec.version}.json")
    if derived and not args.json:
        print(f"spec v3 tolerances derived from {args.trials} realisations per length: "
              + "; ".join(f"{k} yr median {v['median']:.2f} p95 {v['p95']:.2f}" for k, v in derived.items()))
    if below:
        print(f"gnss: below {args.min_passes} passes: {', '.join(below)}", file=sys.stderr)
    return EXIT_BELOW if below else EXIT_PASS


def _summary(args: argparse.Namespace) -> int:
    if args.trials < MIN_TRIALS:
        raise UsageError(f"--trials must be at least {MIN_TRIALS} to bound a 95th percentile, got {args.trials}")
    summary = seed_summary(args.trials, args.v1_threshold, args.v2_threshold)
    passes = summary.table.loc["passes"]
    if args.json:
        print(json.dumps({"passes": {k: int(v) for k, v in passes.items()},
                          "cases": {c: {k: bool(v) for k, v in row.items()}
                                    for c, row in summary.table.drop("passes").iterrows()},
                          "spec_v3": render_spec(summary.spec_v3), "derived_from": summary.spec_v3.derived_from,
                          "held_out": {"passes": summary.held_out_passes, "total": summary.held_out_total}}, indent=2))
    else:
        print(summary.table.to_string())
        for spread in summary.spreads:
            tolerance = summary.spec_v3.velocity_tol(spread.n_years)
            print(f"{spread.n_years:g}-yr records, {len(spread.errors)} seeds: median |error| {spread.median:.2f} "
                  f"mm/yr, 95th percentile {spread.p95:.2f} mm/yr (95 % upper bound {spread.p95_bounds.upper:.2f}, "
                  f"order statistic {spread.p95_bounds.upper_rank} of {len(spread.errors)}) -> tolerance {tolerance:g}")
        print(f"held-out seeds, agent v2 under spec v3: {summary.held_out_passes}/{summary.held_out_total}")
    return EXIT_BELOW if int(passes.min()) < args.min_passes else EXIT_PASS


def _recorded(args: argparse.Namespace) -> int:
    spec, _ = _spec(args)
    store = (Recordings(args.recordings) if args.recordings else default_recordings())
    requests = [request for _, _, request in case_requests(args.recorded, args.runs, spec)]
    found = [store.get(request.key()) for request in requests]
    missing = sum(r is None for r in found)
    if missing:
        raise UsageError(f"{missing} answers of {args.recorded!r} are not in {args.recordings}/{GNSS_SET}.jsonl "
                         f"(spec {spec.version}, {args.runs} runs)")
    model = TextModelRun(args.recorded, args.runs, tuple(requests), tuple(r.result for r in found), spec)
    return _graded(args, _spec_run(args, spec, agents=(), text_model=model))


def _graded(args: argparse.Namespace, run: GnssRun, failures=None) -> int:
    """Print (table or bundle) the graded answers of a text model; the exit code of its pass count."""
    rows = text_model_rows(run)
    code = exit_code(pass_count(rows) >= args.min_passes, failures)
    report = text_model_report(run, rows)
    if failures is not None:
        report |= {"failures": failures.to_dict(), "outcome": outcome(code), "exit_code": code}
    model = run.text_model.model
    _emit(args, gnss_bundle(run, {"text_model": report}, "cli"),
          None if args.out is None else report_file(args.out, "gnss", model))
    if not args.json:
        rate = pass_rate_by_case(rows)
        _print_table(f"{model} ({args.runs} runs per case)", rows, failure_groups(rows, True))
        if rate.defined:
            print(f"pass rate {rate.value:.3f}, 95 % CI [{rate.low:.3f}, {rate.high:.3f}] per case "
                  f"({rate.items} cases), [{rate.decision_low:.3f}, {rate.decision_high:.3f}] per run")
    if failures is not None:
        report_failures(failures)
    return code


def _live(args: argparse.Namespace) -> int:
    """A live text model as the agent: ``--runs`` runs of each case, graded; failed calls by cause."""
    spec, _ = _spec(args)
    cells = case_requests(args.live, args.runs, spec)
    progress = ProgressLine("gnss")
    results = collect([request for _, _, request in cells], make_provider(live_config(args)), args.concurrency,
                      progress)
    progress.close()
    failures = call_failures(results, [f"{case.case_id} run {repeat + 1}" for case, repeat, _ in cells],
                             command_options(args), args.max_failed_share)
    model = TextModelRun(args.live, args.runs, tuple(request for _, _, request in cells), tuple(results), spec)
    return _graded(args, _spec_run(args, spec, agents=(), text_model=model), failures)


def _estimate(args: argparse.Namespace) -> int:
    """The estimates on a station file, printed as the run bundle (the file's name only, no folder)."""
    try:
        text = args.file.read_text(encoding="utf-8", errors="replace")
        steps = "" if args.steps is None else args.steps.read_text(encoding="utf-8", errors="replace")
        source = "none" if args.no_steps else ("file" if args.steps is not None else "detected")
        run = GnssRun(SPEC_V1, args.v1_threshold, args.v2_threshold, agents=(),
                      station=Station(args.file.name, args.component, text, source, steps))
        report = station_report(run)
    except StepsFileError as exc:
        raise UsageError(f"{args.steps}: {exc}") from None
    except (GnssFileError, OSError) as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    print(dumps(gnss_bundle(run, {"station": report}, "cli")).decode("utf-8"))
    return EXIT_PASS


def run(args: argparse.Namespace) -> int:
    """The command asked for by ``args``: a station file, the tolerance summary, recorded answers or
    the evaluation of the agents; returns its exit code."""
    if args.min_passes < 0 or args.runs < 1:
        raise UsageError("--min-passes must be >= 0 and --runs >= 1")
    if args.file:
        return _estimate(args)
    if args.summary:
        return _summary(args)
    if args.recorded:
        return _recorded(args)
    if args.live:
        return _live(args)
    return _evaluate(args)


def main(argv: list[str] | None = None) -> int:
    """Run the ``gnss`` command; returns the exit code (0 pass, 1 below the pass count, 2 usage error)."""
    return run_command("gnss", _parser(), run, argv)


if __name__ == "__main__":
    sys.exit(main())

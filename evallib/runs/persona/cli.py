"""``persona``: the persona audit from the command line, its run bundle and an optional accuracy gate.

    persona [--recorded SOURCE] [--catalogue FILE] [--out DIR] [--json] [--min-accuracy A]
    persona --live MODEL [--kind openai|anthropic --base-url URL --timeout S ...] [--out DIR] [--json]

Offline (the default), the answers are replayed from the recordings of SOURCE: "authored" (the
hand-written examples, the default) or the name of a model recorded live (`python -m evallib record
persona`). Live, every assistant x probe request goes to MODEL at the endpoint. The audit is the page's
(`evallib.runs.persona.bundle.persona_report`): leave-one-out accuracy with its 95 % interval over probes, the
permutation p-value, recognition per assistant, and prompt vs answer distances. ``--out DIR`` writes the
run bundle ``DIR/persona-<model>.json`` that the persona page loads ("Load a run"); ``--json`` prints it.

Exit codes: 0 measured (and, with ``--min-accuracy``, the accuracy reached it), 1 the accuracy stayed
under ``--min-accuracy`` on measured answers, 2 not measured: a usage or data error (bad option, invalid
catalogue, a source with no recording of some request, fewer than two assistants with two answers), or
live calls that got no answer beyond ``--max-failed-share``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evallib.packs.options import add_pack_option
from evallib.runs.failures import call_failures
from evallib.runs.gate import (EXIT_NOT_MEASURED, LIVE_OPTIONS_HELP, ProgressLine, UsageError, add_live_options,
                              command_options, exit_code, live_config, outcome, report_failures, report_file,
                              run_command, verdict, write_bundle)
from evallib.llm import Recordings, collect, default_recordings, make_provider, provider_for_mode
from evallib.persona.catalogue import (AUTHORED_MODEL, DEFAULT_CATALOGUE, CatalogueError, build_requests,
                                       load_catalogue)
from evallib.persona.readings import P_VALUES
from evallib.runs.persona.bundle import PersonaRun, make_bundle, persona_report
from evallib.runs.bundle import RunBundleError, dumps
from evallib.runs.sentences import p_value, say

AUTHORED = "authored"
#: Cells named in a message before "and N more".
NAMES_SHOWN = 5


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib persona", description=__doc__ + LIVE_OPTIONS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--recorded", metavar="SOURCE", default=AUTHORED,
                       help="replay the recordings of SOURCE: \"authored\" (default) or a model recorded live")
    where.add_argument("--live", metavar="MODEL", help="ask MODEL at the live endpoint")
    add_live_options(parser, ("--kind", "--provider"))
    parser.add_argument("--catalogue", type=Path, default=DEFAULT_CATALOGUE,
                        help="assistants and probes (JSON, the page's download; default: packs/fr/personas.json)")
    parser.add_argument("--min-accuracy", type=float, default=None,
                        help="gate: exit 1 when the leave-one-out accuracy (its point value; the interval over "
                             "probes is in the report) is below (default: no gate)")
    parser.add_argument("--out", type=Path, default=None, help="write the run bundle to OUT/persona-<model>.json")
    parser.add_argument("--json", action="store_true", help="print the run bundle as JSON instead of the table")
    parser.add_argument("--recordings", type=Path, default=None,
                        help="one folder to read recordings from (default: the shipped recordings/ and the local "
                             "folder)")
    add_pack_option(parser, "persona", {"catalogue": "personas.json"})
    return parser


def _listed(names: list[str]) -> str:
    more = f" and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else ""
    return ", ".join(names[:NAMES_SHOWN]) + more


def _recorded_cells(args: argparse.Namespace, catalogue) -> tuple[list, list]:
    """The grid as SOURCE asked it and its recorded answers; UsageError naming what is not recorded."""
    cells = build_requests(catalogue, AUTHORED_MODEL)
    recordings = Recordings(args.recordings) if args.recordings else default_recordings()
    sources = recordings.sources([c.request for c in cells])
    wanted = args.recorded.strip()
    chosen = next((s for s in sources if (s.origin == AUTHORED and wanted == AUTHORED)
                   or (s.origin != AUTHORED and s.model == wanted)), None)
    if chosen is None:
        offered = [AUTHORED if s.origin == AUTHORED else s.model for s in sources]
        raise UsageError(f"no recorded source {wanted!r} for this catalogue; recorded: {_listed(offered) or 'none'}")
    cells = [type(c)(c.assistant, c.probe_index, chosen.apply(c.request)) for c in cells]
    results = collect([c.request for c in cells], provider_for_mode("offline", recordings), args.concurrency)
    missing = [f"{c.assistant} / probe {c.probe_index + 1}" for c, r in zip(cells, results)
               if r.error_kind == "missing_recording"]
    if missing:
        raise UsageError(f"{len(missing)} of {len(cells)} requests have no recording in source {wanted!r} "
                         f"({_listed(missing)}): an edited prompt or probe needs --live or a new recording")
    return cells, results


def _print_table(run: PersonaRun, report: dict, name: str) -> None:
    print(f"persona audit: {len(run.catalogue.names)} assistants x {report['n_probes']} probes, answers of {name}")
    disc = report.get("discriminability")
    recognised = dict(zip(disc["classes"], zip(disc["recognition"]["correct"], disc["recognition"]["total"]))) \
        if disc else {}
    print(f"{'assistant':<24} {'usable':>6} {'recognised':>10}")
    for assistant in run.catalogue.names:
        correct, total = recognised.get(assistant, (None, None))
        shown = f"{correct}/{total}" if correct is not None else "not measured"
        print(f"{assistant[:24]:<24} {report['usable'][assistant]:>6} {shown:>10}")
    if disc:
        low, high = disc["accuracy_interval"]
        p = disc["permutation_p_value"]
        print(f"accuracy {disc['accuracy']:.3f} ({disc['n_correct']}/{disc['n_responses']}), chance "
              f"{disc['chance']:.3f}, 95 % interval [{low:.3f}, {high:.3f}] over probes "
              f"({disc['n_probes_answered']} probes), permutation p {p:.4f} ({disc['n_permutations']} permutations)")
        ranks = report["ranks"]
        rho = "undefined" if ranks["spearman_rho"] is None else f"{ranks['spearman_rho']:.3f}"
        print(f"prompt vs answer distances: Spearman rho {rho}, {ranks['n_changed']} of {len(ranks['pairs'])} "
              "pairs change rank")
    for reading in report["readings"]:
        print(f"  {sentence(reading)}")


def sentence(reading: dict) -> str:
    """A reading of the report (``{"topic", "code", "values"}``) as the English persona page says it
    (`ui.persona.view.say`): its p-values as p-values, the other values as the sentence writes them."""
    values = reading["values"]
    return say(f"{reading['topic']}.{reading['code']}",
               {k: p_value(v) if k in P_VALUES else v for k, v in values.items()}, values.get("n"))


def run(args: argparse.Namespace) -> int:
    if args.min_accuracy is not None and not 0 <= args.min_accuracy <= 1:
        raise UsageError(f"--min-accuracy must be between 0 and 1, got {args.min_accuracy}")
    try:
        catalogue = load_catalogue(args.catalogue)
    except (CatalogueError, OSError) as error:
        raise UsageError(f"catalogue {args.catalogue.name}: {error}") from None
    failures = None
    if args.live:
        cells = build_requests(catalogue, args.live, disable_reasoning=args.provider == "openai")
        progress = ProgressLine("persona")
        results = collect([c.request for c in cells], make_provider(live_config(args)), args.concurrency, progress)
        progress.close()
        failures = call_failures(results, [f"{c.assistant} / probe {c.probe_index + 1}" for c in cells],
                                 command_options(args), args.max_failed_share)
        name = args.live
    else:
        cells, results = _recorded_cells(args, catalogue)
        name = cells[0].request.model
    persona_run = PersonaRun(catalogue, tuple(cells), tuple(results), live=bool(args.live))
    _, report = persona_report(catalogue, persona_run.responses, live=persona_run.live)
    accuracy = (report.get("discriminability") or {}).get("accuracy")
    if accuracy is None:
        code = EXIT_NOT_MEASURED
        gate = {"code": "not_measured", "values": {"status": report["status"], "measured": report["measured"]}}
    else:
        passed = args.min_accuracy is None or accuracy >= args.min_accuracy
        code = exit_code(passed, failures)
        gate = {"code": "no_gate" if args.min_accuracy is None else "passed" if passed else "below",
                "values": {"accuracy": accuracy, "min_accuracy": args.min_accuracy}}
    extra = {"gate": gate, "outcome": outcome(code), "exit_code": code}
    if failures is not None:
        extra["failures"] = failures.to_dict()
    try:
        bundle = make_bundle(persona_run, made_by="cli", extra=extra, report=report)
    except RunBundleError as error:
        raise UsageError(f"the run bundle cannot be written: {error}") from None
    if args.out is not None:
        path = report_file(args.out, "persona", name)
        write_bundle(path, bundle)
    if args.json:
        sys.stdout.write(dumps(bundle).decode("utf-8") + "\n")
    else:
        _print_table(persona_run, report, name)
        if accuracy is None:
            print(f"gate: NOT MEASURED ({report['status'].replace('_', ' ')}: {len(report['measured'])} assistants "
                  "with two answers)")
        elif args.min_accuracy is not None:
            print(f"gate: {verdict(code)} (accuracy {accuracy:.3f}, minimum {args.min_accuracy:.3f})")
        if args.out is not None:
            print(f"run bundle: {path}")
    if failures is not None:
        report_failures(failures)
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the ``persona`` command; returns the exit code (0 measured/passed, 1 below, 2 not measured)."""
    return run_command("persona", _parser(), run, argv)


if __name__ == "__main__":
    sys.exit(main())

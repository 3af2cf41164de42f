"""``judge``: generate, grade by code then by a model judge, write a JSON report, gate on the mean.

    judge [--offline] [--generator M --judge M --provider openai|anthropic --base-url URL --timeout S [--record]]
          [--template A|B] [--compare] [--probes] [--min-mean 7] [--max-unscored-share 0.1]
          [--max-failed-share 0] [--out outputs/]

Exit codes: 0 the gate passed, 1 it failed on measured answers (mean under ``--min-mean`` points, or
more than ``--max-unscored-share`` of the grades unscored), 2 not measured: a usage or data error (bad
option, invalid cases, template or rubric file, offline without recordings for the chosen models) or
calls that got no answer (see below). Offline, answers are
replayed from ``recordings/`` and the models default to the authored ones. ``--record`` (live) adds
every successful answer to ``packs/fr/recordings/judge.jsonl``: with ``--compare --probes`` on the default
cases it records the whole default set the page replays. ``--probes`` also grades padded copies
(verbosity) and, with ``--compare``, judges A against B in both orders (position); offline, on the
cases the authored recordings cover, live on every case. The report is the run bundle of the run
(`evallib.runs.judge.bundle`): the judge page loads it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from evallib.packs.options import add_pack_option
from evallib.judging.authored import AUTHORED, JUDGE_SET, authored_settings, load_authored, recorded_models
from evallib.judging.data import DEFAULT_CASES, JudgeDataError, load_cases
from evallib.judging.pipeline import JudgeConfig, run_pairwise, run_pipeline, run_verbosity
from evallib.runs.judge.bundle import JudgeReplay, JudgeRun, judge_bundle, judge_report
from evallib.judging.analyses import status_summary
from evallib.judging.report import DEFAULT_MAX_UNSCORED_SHARE, judge_gate
from evallib.judging.requests import ModelSettings
from evallib.judging.rubric import DEFAULT_PROMPTS, parse_rubric
from evallib.judging.templates import TEMPLATE_NAMES, check_template
from evallib.judging.wording import judge_wording
from evallib.runs.failures import call_failures
from evallib.runs.unmatched import stale_recordings
from evallib.runs.gate import (LIVE_OPTIONS_HELP, ProgressLine, UsageError, add_live_options, command_options,
                              exit_code, live_config, outcome, report_failures, run_command, verdict, write_bundle)
from evallib.llm import RecordingProvider, Recordings, default_recordings, make_provider, provider_for_mode
from evallib.runs.sentences import text



def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib judge", description=__doc__ + LIVE_OPTIONS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offline", action="store_true", help="replay recordings/ instead of calling models")
    parser.add_argument("--generator", help="model that answers (offline default: the authored one)")
    parser.add_argument("--judge", help="model that grades (offline default: the authored one)")
    add_live_options(parser)
    parser.add_argument("--no-prefill", action="store_true", help="Anthropic judge refuses prefill: forced tool call")
    parser.add_argument("--json-mode", action="store_true", help="OpenAI-compatible judge accepts response_format")
    parser.add_argument("--no-temperature", action="store_true", help="models refuse temperature (reasoning models)")
    parser.add_argument("--template", choices=TEMPLATE_NAMES, default="A")
    parser.add_argument("--compare", action="store_true", help="also run template B and compare it with A")
    parser.add_argument("--probes", action="store_true", help="verbosity probe; with --compare, position bias too")
    parser.add_argument("--record", action="store_true", help="live: record every answer in recordings/judge.jsonl")
    parser.add_argument("--prompts", type=Path, default=DEFAULT_PROMPTS, help="templates and rubric (JSON)")
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--min-mean", type=float, default=0.0, help="lowest mean score accepted, in points")
    parser.add_argument("--max-unscored-share", type=float, default=DEFAULT_MAX_UNSCORED_SHARE,
                        help="largest share of unscored grades accepted (default %(default)s)")
    parser.add_argument("--out", type=Path, default=Path("outputs"))
    parser.add_argument("--recordings", type=Path, default=None,
                        help="one folder to read and write recordings in (default: the shipped recordings/ "
                             "and the local folder, where new recordings go)")
    parser.set_defaults(authored=AUTHORED)
    add_pack_option(parser, "judge", {"prompts": "judging_prompts.json", "cases": "judging_cases.json",
                                      "authored": "judging_authored.json"})
    return parser


def _configs(args: argparse.Namespace) -> dict[str, JudgeConfig]:
    """The run of each template asked for (``--template``, or A and B with ``--compare``)."""
    try:
        prompts = json.loads(args.prompts.read_text(encoding="utf-8-sig"))
        rubric = parse_rubric(prompts["rubric"])
        templates = prompts["templates"]
        for name in TEMPLATE_NAMES:
            check_template(templates[name], name)
        wording = judge_wording(prompts)
    except (OSError, json.JSONDecodeError, KeyError, TypeError, JudgeDataError) as exc:
        raise UsageError(f"prompts {args.prompts}: {type(exc).__name__}: {exc}") from None
    if args.offline and args.authored is None and not (args.generator and args.judge):
        raise UsageError("this pack has no judging_authored.json: an offline run needs --generator and --judge "
                         "(the models its recordings were made with)")
    if args.offline:
        generator, judge = authored_settings(load_authored(args.authored)) if args.authored else (
            ModelSettings(args.generator, "openai"), ModelSettings(args.judge, "openai"))
        generator = ModelSettings(args.generator or generator.model, generator.kind)
        judge = ModelSettings(args.judge or judge.model, judge.kind)
    else:
        if not args.generator or not args.judge:
            raise UsageError("a live run needs --generator and --judge")
        temperature = None if args.no_temperature else 0.0
        generator = ModelSettings(args.generator, args.provider, temperature=temperature)
        judge = ModelSettings(args.judge, args.provider, prefill=not args.no_prefill, json_mode=args.json_mode,
                              temperature=temperature)
    names = TEMPLATE_NAMES if args.compare else (args.template,)
    return {name: JudgeConfig(generator, judge, rubric, templates[name], name, wording=wording) for name in names}


def _provider(args: argparse.Namespace, recordings: Recordings):
    """Offline: the recordings only. Live: the endpoint only (a gate measures the live models)."""
    if args.offline:
        return provider_for_mode("offline", recordings)
    live = make_provider(live_config(args))
    return RecordingProvider(live, recordings, JUDGE_SET, args.provider) if args.record else live


def _probes(args: argparse.Namespace, configs: dict, runs: dict, provider, progress) -> tuple[list, list]:
    """(padded grades, pairwise comparisons) of ``--probes``: offline on the authored cases only."""
    chosen = load_authored(args.authored) if args.offline and args.authored else None

    def kept(results, key):
        return [r for r in results if chosen is None or r.case.id in chosen[key]]
    padded = run_verbosity(kept(runs[args.template], "verbosity_cases"), configs[args.template], provider,
                           args.concurrency, progress)
    compared = run_pairwise(kept(runs["A"], "pairwise_cases"), kept(runs["B"], "pairwise_cases"), configs["A"],
                            provider, args.concurrency, progress) if args.compare else []
    return padded, compared


def _calls(runs: dict, padded: list, compared: list) -> tuple[list, list[str]]:
    """(every call that counts, its label): a call refused for its prefill and made again without it
    is not counted (`evallib.judging.pipeline.call_judge`)."""
    chains = [(f"{r.case.id} template {name}", r.calls) for name, results in runs.items() for r in results]
    chains += [(f"{p.case_id} verbosity probe", p.calls) for p in padded]
    chains += [(f"{c.case_id} position probe", c.calls) for c in compared]
    calls, labels = [], []
    for label, chain in chains:
        for i, call in enumerate(chain):
            if call.error_kind == "prefill_unsupported" and i + 1 < len(chain):
                continue
            calls.append(call)
            labels.append(label + (" generation" if i == 0 and "template" in label else ""))
    return calls, labels


def _missing(results) -> int:
    return sum(call.error_kind == "missing_recording" for r in results for call in r.calls)



def gate_words(reading) -> str:
    """The gate's reading (`evallib.judging.report.judge_gate`) as a terminal says it, from its values.

    >>> from evallib.readings import Reading
    >>> gate_words(Reading("gate_unscored_over_limit", {"unscored_share": 0.25, "max_unscored_share": 0.1,
    ...                                                  "n": 9, "total": 12}))
    'unscored grades 3 of 12 (25 %), above the limit of 10 %'
    """
    values = reading.values
    unscored = values["total"] - values["n"]
    words = {
        "gate_no_cases": lambda: "no case to grade",
        "gate_all_unscored": lambda: f"none of the {values['total']} grades is scored: nothing to measure",
        "gate_unscored_over_limit": lambda: (f"unscored grades {unscored} of {values['total']} "
                                             f"({values['unscored_share']:.0%}), above the limit of "
                                             f"{values['max_unscored_share']:.0%}"),
        "gate_below_min": lambda: f"mean {values['mean']:.2f} below the minimum {values['min_mean']:g}",
        "gate_pass": lambda: f"mean {values['mean']:.2f} at or above the minimum {values['min_mean']:g}",
    }
    return words[reading.code]().replace("%", " %")


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.max_unscored_share <= 1:
        raise UsageError(f"--max-unscored-share must be between 0 and 1, got {args.max_unscored_share}")
    if args.record and args.offline:
        raise UsageError("--record needs a live run (it records live answers)")
    try:
        cases = load_cases(args.cases)
    except (JudgeDataError, OSError) as exc:
        raise UsageError(f"cases: {exc}") from None
    configs = _configs(args)
    recordings = (Recordings(args.recordings) if args.recordings else default_recordings())
    provider = _provider(args, recordings)
    start = time.perf_counter()
    runs = {}
    for name, config in configs.items():
        progress = ProgressLine(f"judge template {name}")
        runs[name] = run_pipeline(cases, config, provider, args.concurrency, progress)
        progress.close()
    progress = ProgressLine("judge probes")
    padded, compared = _probes(args, configs, runs, provider, progress) if args.probes else ([], [])
    progress.close()
    duration = time.perf_counter() - start
    config = configs[args.template]
    missing = sum(_missing(results) for results in runs.values()) + _missing(padded) + _missing(compared)
    if args.offline and missing:
        models = [config.generator.model, config.judge.model]
        stale = stale_recordings(recordings, JUDGE_SET, models, args.pack,
                                 f"record judge --model {models[0]} --judge-model {models[1]} --base-url URL")
        why = stale or f"recorded models: {', '.join(recorded_models(recordings)) or 'none'}"
        raise UsageError(f"{missing} requests have no recording for generator {config.generator.model!r} and judge "
                         f"{config.judge.model!r}; {why}")
    calls, labels = _calls(runs, padded, compared)
    failures = call_failures(calls, labels, command_options(args, ("--generator", "--judge"), "--no-prefill"),
                             args.max_failed_share)
    probes = (tuple(p.case_id for p in padded), tuple(c.case_id for c in compared)) if args.probes else None
    answers = [call for results in runs.values() for r in results for call in r.calls]
    answers += [call for outcome in (*padded, *compared) for call in outcome.calls]
    judge_run = JudgeRun(cases, tuple((name, c.template) for name, c in configs.items()), config.rubric,
                         config.generator, config.judge, tuple(answers), config.blinding, args.template, probes,
                         args.min_mean, args.max_unscored_share, config.wording)
    shown = JudgeReplay(judge_run, configs, runs, padded, compared)
    data = judge_report(shown)
    gate = judge_gate(runs[args.template], args.min_mean, args.max_unscored_share)
    code = exit_code(gate.passed, failures)
    data |= {"duration_s": duration, "failures": failures.to_dict(), "outcome": outcome(code), "exit_code": code}
    path = args.out / "judge-report.json"
    write_bundle(path, judge_bundle(judge_run, data, "cli"))
    values = gate.reading.values
    mean = "undefined" if values["mean"] is None else f"{values['mean']:.2f}"
    statuses = status_summary(runs[args.template])[0].counts  # the gate's template's, as the mean beside them
    print(f"{values['total']} cases, {values['n']} scored, mean {mean} / {config.rubric.max_total}, statuses "
          + ", ".join(f"{text(f'judge.status.{k}')} {v}" for k, v in statuses.items() if v))
    print(f"gate: {verdict(code)} ({gate_words(gate.reading)}); report: {path}")
    report_failures(failures)
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the ``judge`` command; returns the exit code (0 pass, 1 gate failed, 2 not measured)."""
    return run_command("judge", _parser(), run, argv)


if __name__ == "__main__":
    sys.exit(main())

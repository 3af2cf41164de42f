"""Command line: ``python -m evallib <command> <page> [options]``.

Commands:
  trigger            the trigger eval as a CI gate (see `python -m evallib trigger --help`)
  judge              the LLM-as-judge pipeline with a JSON report and a gate
  gnss               the GNSS agent evaluation (table, JSON, pass-count gate, station files)
  record persona     collect the persona page's default grid from a live endpoint and record it in
                     the local recordings folder (ignored by git; see evallib.llm.recordings)
  record trigger     the same for the trigger page's routing requests (tools mode, 2 runs per query)
  record judge       run the judge page's default set (templates A and B, verbosity and position
                     probes) against a live generator and judge, recording every answer locally
  record gnss        collect the GNSS live agent's requests (12 cases x --runs) and record them likewise
  authored persona   write the shipped recordings/persona.jsonl from data/persona_authored_responses.json
                     (hand-written example answers, recorded with provenance "authored")
  authored gnss      write the shipped recordings/gnss.jsonl from data/gnss_authored_answers.json

Exit codes of record: 0 every request answered, 1 some failed, 2 usage error (each evaluation
command documents its own gate).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

from evallib.llm import (ChatResult, ProviderConfig, RecordingProvider, Recordings, collect, is_recordable,
                         local_directory, make_provider)
from evallib.llm.recordings import LOCAL_DIR_VARIABLE, SHIPPED_DIR
from evallib.persona.catalogue import AUTHORED_MODEL, build_requests, load_catalogue

ROOT = Path(__file__).resolve().parent.parent
AUTHORED_RESPONSES = ROOT / "data" / "persona_authored_responses.json"
PERSONA_SET = "persona"
PAGES = ("persona", "gnss")
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
#: Where the base URL comes from when --base-url is not given (the variables the SDKs themselves read).
BASE_URL_VARIABLES = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}


def persona_authored(recordings_dir: Path) -> int:
    """Record the hand-written persona answers (base grid and the rewrite example); returns the count."""
    catalogue = load_catalogue()
    written = json.loads(AUTHORED_RESPONSES.read_text(encoding="utf-8"))
    store = Recordings(recordings_dir)
    grids = {"base": catalogue}
    if catalogue.rewrite_example:
        grids["rewrite"] = catalogue.with_prompt(*catalogue.rewrite_example)
    count = 0
    for variant, grid in grids.items():
        texts = {(w["assistant"], w["probe_index"]): w["text"] for w in written if w.get("variant", "base") == variant}
        for cell in build_requests(grid, AUTHORED_MODEL):
            if variant == "rewrite" and cell.assistant != catalogue.rewrite_example[0]:
                continue
            text = texts[(cell.assistant, cell.probe_index)]
            result = ChatResult(request_key=cell.request.key(), text=text, finish_reason="stop",
                                model=AUTHORED_MODEL, output_tokens=len(text.split()))
            store.add(PERSONA_SET, cell.request, result,
                      {"source": "authored", "note": "example answer written by hand for the workshop demo"})
            count += 1
    return count


def _recording_provider(args: argparse.Namespace, set_name: str):
    """(endpoint config, recordings, live provider recording into ``set_name``) for a ``record`` command."""
    base_url = args.base_url if args.base_url is not None else os.environ.get(BASE_URL_VARIABLES[args.kind], "")
    config = ProviderConfig(kind=args.kind, base_url=base_url, api_key=os.environ.get(KEY_VARIABLES[args.kind], ""))
    store = Recordings(SHIPPED_DIR, args.recordings_dir)
    return config, store, RecordingProvider(make_provider(config), store, set_name, args.kind)


def record_requests(requests: list, labels: list[str], args: argparse.Namespace, set_name: str) -> int:
    """Collect ``requests`` from the live endpoint of ``args`` into the local recordings of ``set_name``.

    Prints each failure (with its ``labels`` entry) and a summary answered/failed/recorded; returns the
    exit code: 0 when every request was answered, 1 when some failed.
    """
    _, store, provider = _recording_provider(args, set_name)
    results = collect(requests, provider, args.concurrency,
                      on_progress=lambda p: print(f"\r{p.done}/{p.total} errors={p.errors}", end="", file=sys.stderr))
    print(file=sys.stderr)
    for label, result in zip(labels, results):
        if result.failed:
            print(f"{label}: {result.error} {result.hint}", file=sys.stderr)
    failed = sum(r.failed for r in results)
    recorded = sum(is_recordable(r) for r in results)
    print(f"answered {len(results) - failed}, failed {failed}, recorded {recorded} "
          f"(in {store.write_directory / set_name}.jsonl)")
    return 1 if failed else 0


def persona_record(args: argparse.Namespace) -> int:
    """Collect the persona page's default grid from a live endpoint into the local recordings."""
    cells = build_requests(load_catalogue(), args.model, disable_reasoning=args.kind == "openai")
    return record_requests([c.request for c in cells], [f"{c.assistant} / probe {c.probe_index + 1}" for c in cells],
                           args, PERSONA_SET)


def trigger_record(args: argparse.Namespace) -> int:
    """Collect the trigger page's default routing requests (tools mode, 2 runs) into the local recordings."""
    from evallib.triggering.authored import TRIGGER_SET
    from evallib.triggering.data import load_queries, load_skills
    from evallib.triggering.routing import build_requests as routing_requests

    catalogue = load_skills()
    cells = routing_requests(catalogue, load_queries(catalogue), args.model, provider_kind=args.kind)
    return record_requests([c.request for c in cells], [f"{c.query_id} / run {c.run + 1}" for c in cells],
                           args, TRIGGER_SET)


def gnss_record(args: argparse.Namespace) -> int:
    """Collect the GNSS live agent's default requests (`evallib.gnss.live.case_requests`, 12 cases x
    ``--runs``) into the local recordings."""
    from evallib.gnss.live import GNSS_SET, case_requests

    cells = case_requests(args.model, args.runs)
    return record_requests([request for _, _, request in cells],
                           [f"{case.case_id} / run {repeat + 1}" for case, repeat, _ in cells], args, GNSS_SET)


def judge_record(args: argparse.Namespace) -> int:
    """Run the judge page's default set live (both templates and the bias probes) and record it.

    Every call (generations, gradings, padded copies, pairwise verdicts) goes through a recording
    provider into the local ``judge.jsonl``, which the page then offers offline as a generator and a
    judge. Returns 0 when every call was answered, 1 when some failed.
    """
    from evallib.judging.authored import JUDGE_SET
    from evallib.judging.data import load_cases
    from evallib.judging.pipeline import JudgeConfig, run_pairwise, run_pipeline, run_verbosity
    from evallib.judging.requests import ModelSettings
    from evallib.judging.rubric import default_rubric
    from evallib.judging.templates import TEMPLATE_NAMES, default_templates

    config, store, provider = _recording_provider(args, JUDGE_SET)
    generator = ModelSettings(args.model, args.kind)
    judge = ModelSettings(args.judge_model or args.model, args.kind, prefill=config.prefill)
    cases, templates, rubric = load_cases(), default_templates(), default_rubric()
    runs, calls = {}, []

    def progress(name: str):
        return lambda p: print(f"\r{name} {p.done}/{p.total} unscored={p.unscored}", end="", file=sys.stderr)
    for name in TEMPLATE_NAMES:
        runs[name] = run_pipeline(cases, JudgeConfig(generator, judge, rubric, templates[name], name), provider,
                                  args.concurrency, progress(name))
        calls += [call for result in runs[name] for call in result.calls]
    first = JudgeConfig(generator, judge, rubric, templates["A"], "A")
    probes = [*run_verbosity(runs["A"], first, provider, args.concurrency, progress("verbosity")),
              *run_pairwise(runs["A"], runs["B"], first, provider, args.concurrency, progress("pairwise"))]
    calls += [call for probe in probes for call in probe.calls]
    print(file=sys.stderr)
    failed = [call for call in calls if call.failed]
    for call in failed[:10]:
        print(f"{call.model}: {call.error} {call.hint}", file=sys.stderr)
    recorded = sum(is_recordable(call) for call in calls)
    print(f"answered {len(calls) - len(failed)}, failed {len(failed)}, recorded {recorded} "
          f"(in {store.write_directory / JUDGE_SET}.jsonl)")
    return 1 if failed else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser("record", help="record a page's requests from a live model (local folder)")
    record.add_argument("page", choices=tuple(RECORDERS))
    record.add_argument("--kind", choices=tuple(KEY_VARIABLES), default="openai",
                        help="endpoint kind; the key is read from OPENAI_API_KEY or ANTHROPIC_API_KEY")
    record.add_argument("--base-url", default=None,
                        help="endpoint URL (default: OPENAI_BASE_URL or ANTHROPIC_BASE_URL, by --kind)")
    record.add_argument("--model", required=True)
    record.add_argument("--recordings-dir", type=Path, default=None,
                        help=f"where new recordings go (default: ${LOCAL_DIR_VARIABLE}, else recordings/local)")
    record.add_argument("--concurrency", type=_positive, default=8)
    record.add_argument("--judge-model", default=None, help="judge page: the grading model (default: --model)")
    record.add_argument("--runs", type=_positive, default=3, help="gnss: runs per case (default %(default)s)")
    authored = commands.add_parser("authored", help="write a page's hand-written example answers (shipped file)")
    authored.add_argument("page", choices=PAGES)
    authored.add_argument("--recordings-dir", type=Path, default=SHIPPED_DIR)
    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


#: Pages that ``record`` collects, each with its own function (default requests of the page).
RECORDERS = {"persona": persona_record, "trigger": trigger_record, "judge": judge_record, "gnss": gnss_record}

#: Evaluation commands, each with its own parser and exit codes: name -> module holding ``main(argv)``.
EVALUATIONS = {"trigger": "evallib.triggering.cli", "judge": "evallib.judging.cli", "gnss": "evallib.gnss.cli"}


def main(argv: list[str] | None = None) -> int:
    """Run a command; returns its exit code (argparse exits with 2 on a usage error)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in EVALUATIONS:  # imported only when asked for: each loads its own page library
        return importlib.import_module(EVALUATIONS[argv[0]]).main(argv[1:])
    args = _parser().parse_args(argv)
    if args.command == "authored":
        if args.page == "gnss":
            from evallib.gnss.live import GNSS_SET, write_authored_recordings
            count, set_name = write_authored_recordings(args.recordings_dir), GNSS_SET
        else:
            count, set_name = persona_authored(args.recordings_dir), PERSONA_SET
        print(f"{count} authored answers written to {args.recordings_dir / set_name}.jsonl")
        return 0
    args.recordings_dir = args.recordings_dir or local_directory()
    return RECORDERS[args.page](args)


if __name__ == "__main__":
    sys.exit(main())

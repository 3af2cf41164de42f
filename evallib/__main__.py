"""Command line: ``python -m evallib <command> <page> [options]``.

Commands:
  trigger            the trigger eval as a CI gate (see `python -m evallib trigger --help`)
  judge              the LLM-as-judge pipeline with a JSON report and a gate
  gnss               the GNSS agent evaluation (table, JSON, pass-count gate, station files)
  persona            the persona audit (recorded or live answers), its run bundle, an accuracy gate
  kappa              the kappa page's figures from a ratings file (CSV or JSON), and its run bundle
  record persona     collect the persona page's default grid from a live endpoint and record it in
                     the local recordings folder (ignored by git; see evallib.llm.recordings)
  record trigger     the same for the trigger page's routing requests (tools mode, 2 runs per query)
  record judge       run the judge page's default set (templates A and B, verbosity and position
                     probes) against a live generator and judge, recording every answer locally
  record gnss        collect the GNSS live agent's requests (12 cases x --runs) and record them likewise
  record all         the four pages above in one go, resumable: requests already recorded are not asked
                     again (see evallib.runs.record_all)
  authored --pack DIR  rebuild the authored lines of DIR/recordings/{trigger,persona,judge,gnss}.jsonl from the
                     pack's authored files (hand-written example answers, provenance "authored"; lines
                     recorded from a model are kept; evallib.runs.authored_pack)
  pack check DIR     every problem of a workshop pack (folder or .zip), exit 2 when there is one
  pack new DIR       a copy of a built-in pack (--from fr|en) to edit (docs/packs.md)
  room token         draw a new room instructor token, kept (hashed) in the room database, and print it

Exit codes of record: 0 every request answered, 2 a usage error, or more than --max-failed-share of
the requests (default 0: any) got no answer: the failures are printed grouped by cause, and what was
answered is recorded all the same. Each evaluation command documents its own gate (0 pass, 1 fail on
measured answers, 2 not measured). Every command exits 2, without a traceback, when the reader of its
output closes it before the end (``python -m evallib kappa FILE | head -3``: the report could not be written).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from evallib.runs.failures import call_failures
from evallib.runs.gate import (RECORD_OPTIONS_HELP, ProgressLine, add_live_options, command_options, console,
                              exit_code, live_config, report_failures)
from evallib.llm import (ChatResult, RecordingProvider, Recordings, collect, local_directory,
                         make_provider)
from evallib.llm.recordings import LOCAL_DIR_VARIABLE, SHIPPED_DIR
from evallib.persona.catalogue import AUTHORED_MODEL, DEFAULT_CATALOGUE, build_requests, load_catalogue
from evallib.packs.layout import builtin_file

ROOT = Path(__file__).resolve().parent.parent
AUTHORED_RESPONSES = builtin_file("persona_authored_responses.json")
PERSONA_SET = "persona"


def persona_authored(recordings_dir: Path, catalogue_path: Path | None = None, responses_path: Path | None = None,
                     provenance_extra: dict | None = None) -> int:
    """Record the hand-written persona answers (base grid and the rewrite example) of ``responses_path``
    to the catalogue of ``catalogue_path`` (default: the shipped ones); returns the count.

    ``provenance_extra`` is added to each line's provenance (``{"pack": id}``: `evallib.runs.authored_pack`)."""
    catalogue = load_catalogue(catalogue_path) if catalogue_path else load_catalogue()
    written = json.loads(Path(responses_path or AUTHORED_RESPONSES).read_text(encoding="utf-8-sig"))
    store = Recordings(recordings_dir)
    store.provenance_extra = dict(provenance_extra or {})
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


def _pack_file(args: argparse.Namespace, name: str, default: Path) -> Path:
    """The file ``name`` of the pack being recorded (``record --pack``), else ``default`` (the built-in pack's)."""
    pack = getattr(args, "pack_opened", None)
    return (pack.file(name) if pack is not None else None) or default


def _recording_provider(args: argparse.Namespace, set_name: str):
    """(endpoint config, recordings, live provider recording into ``set_name``) for a ``record`` command.

    ``record all`` sets ``args.resume``: its provider answers what is already recorded, asks a request
    repeated within the run once, and records the rest itself (`evallib.runs.record_all.ResumingProvider`).
    """
    config = live_config(args)
    pack = getattr(args, "pack_opened", None)
    store = Recordings(SHIPPED_DIR, args.recordings_dir) if pack is None else Recordings(args.recordings_dir)
    if pack is not None:
        store.provenance_extra = {"pack": pack.id}
    resume = getattr(args, "resume", None)
    if resume is not None:
        return config, store, resume(make_provider(config), store, set_name, args.provider)
    return config, store, RecordingProvider(make_provider(config), store, set_name, args.provider)


def _progress_line(args: argparse.Namespace, name: str) -> ProgressLine:
    """The progress printer of a ``record`` run (`record all` gives its own, with every page's counts)."""
    return getattr(args, "progress_line", ProgressLine)(name)


def _summary(results: list, labels: list[str], args: argparse.Namespace, store: Recordings, set_name: str,
             model_options: tuple[str, ...] = ("--model",), provider=None) -> int:
    """Print the failures by cause and the summary line answered/failed/recorded; returns the exit code.

    "recorded" counts the lines this run appended to the set's file (`Recordings.appended`), not the
    answers it holds in memory: another writer's lines in the same file are not counted. Under ``record
    all`` (a provider with a ``tally``), the line gives the page's tally, in the words and numbers of the
    closing table: requests, each counted once (a duplicate is not answered twice), not calls."""
    failures = call_failures(results, labels, command_options(args, model_options), args.max_failed_share)
    recorded, path = store.appended(set_name), store.write_directory / f"{set_name}.jsonl"
    tally = getattr(provider, "tally", None)
    counts = tally.columns() if tally is not None else \
        f"answered {len(results) - failures.failed}, failed {failures.failed}, recorded {recorded}"
    print(f"{counts} (in {path})")
    report_failures(failures)
    return exit_code(True, failures)


def record_requests(requests: list, labels: list[str], args: argparse.Namespace, set_name: str) -> int:
    """Collect ``requests`` from the live endpoint of ``args`` into the local recordings of ``set_name``.

    Prints a summary answered/failed/recorded and the failures grouped by cause (with their ``labels``
    entries); returns the exit code: 0 when every request was answered, 2 when more than
    ``--max-failed-share`` of them failed.
    """
    _, store, provider = _recording_provider(args, set_name)
    progress = _progress_line(args, f"record {set_name}")
    results = collect(requests, provider, args.concurrency, progress)
    progress.close()
    return _summary(results, labels, args, store, set_name, provider=provider)


def persona_requests(catalogue, model: str, disable_reasoning: bool) -> tuple[list, list[str]]:
    """(requests, labels) the persona page asks by default: the grid, then exercise 3's rewrite of the
    catalogue's example assistant (its six probes under the suggested prompt), as the page builds them."""
    cells = build_requests(catalogue, model, disable_reasoning=disable_reasoning)
    labels = [f"{c.assistant} / probe {c.probe_index + 1}" for c in cells]
    if catalogue.rewrite_example:
        name = catalogue.rewrite_example[0]
        rewritten = [c for c in build_requests(catalogue.with_prompt(*catalogue.rewrite_example), model,
                                               disable_reasoning=disable_reasoning) if c.assistant == name]
        cells += rewritten
        labels += [f"{name} (rewrite) / probe {c.probe_index + 1}" for c in rewritten]
    return [c.request for c in cells], labels


def persona_record(args: argparse.Namespace) -> int:
    """Collect the persona page's default requests (`persona_requests`) from a live endpoint into the
    local recordings."""
    requests, labels = persona_requests(load_catalogue(_pack_file(args, "personas.json", DEFAULT_CATALOGUE)),
                                        args.model, args.provider == "openai")
    return record_requests(requests, labels, args, PERSONA_SET)


def trigger_record(args: argparse.Namespace) -> int:
    """Collect the trigger page's default routing requests (tools mode, 2 runs) into the local recordings."""
    from evallib.triggering.authored import TRIGGER_SET
    from evallib.triggering.data import DEFAULT_QUERIES, DEFAULT_SKILLS, load_queries, load_skills
    from evallib.triggering.routing import build_requests as routing_requests

    catalogue = load_skills(_pack_file(args, "triggering_skills.json", DEFAULT_SKILLS))
    queries = load_queries(catalogue, _pack_file(args, "triggering_queries.json", DEFAULT_QUERIES))
    cells = routing_requests(catalogue, queries, args.model, provider_kind=args.provider)
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
    from evallib.judging.data import DEFAULT_CASES, load_cases
    from evallib.judging.pipeline import JudgeConfig, run_pairwise, run_pipeline, run_verbosity
    from evallib.judging.requests import ModelSettings
    from evallib.judging.rubric import DEFAULT_PROMPTS, parse_rubric
    from evallib.judging.templates import TEMPLATE_NAMES
    from evallib.judging.wording import judge_wording

    config, store, provider = _recording_provider(args, JUDGE_SET)
    generator = ModelSettings(args.model, args.provider)
    judge = ModelSettings(args.judge_model or args.model, args.provider, prefill=config.prefill)
    prompts = json.loads(_pack_file(args, "judging_prompts.json", DEFAULT_PROMPTS).read_text(encoding="utf-8-sig"))
    cases = load_cases(_pack_file(args, "judging_cases.json", DEFAULT_CASES))
    templates, rubric, wording = prompts["templates"], parse_rubric(prompts["rubric"]), judge_wording(prompts)
    runs, calls = {}, []

    labels = []
    progress = _progress_line(args, "record judge")
    for name in TEMPLATE_NAMES:
        runs[name] = run_pipeline(cases, JudgeConfig(generator, judge, rubric, templates[name], name, wording=wording),
                                  provider,
                                  args.concurrency, progress)
        for result in runs[name]:
            calls += result.calls
            labels += [f"{result.case.id} template {name}"] * len(result.calls)
    first = JudgeConfig(generator, judge, rubric, templates["A"], "A", wording=wording)
    for label, probes in (("verbosity", run_verbosity(runs["A"], first, provider, args.concurrency, progress)),
                          ("position", run_pairwise(runs["A"], runs["B"], first, provider, args.concurrency,
                                                    progress))):
        for probe in probes:
            calls += probe.calls
            labels += [f"{probe.case_id} {label} probe"] * len(probe.calls)
    progress.close()
    return _summary(calls, labels, args, store, JUDGE_SET, ("--model", "--judge-model"), provider)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, summary in EVALUATION_HELP.items():  # parsed by their own modules (`main`); listed here for --help
        commands.add_parser(name, help=summary, add_help=False)
    record = commands.add_parser("record", help="record a page's requests from a live model (local folder)",
                                 description=RECORD_OPTIONS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    record.add_argument("page", choices=tuple(RECORDERS))
    add_live_options(record, ("--kind", "--provider"), gate=False)
    record.add_argument("--model", required=True)
    record.add_argument("--recordings-dir", type=Path, default=None,
                        help=f"where new recordings go (default: ${LOCAL_DIR_VARIABLE}, else recordings/local)")
    record.add_argument("--judge-model", default=None, help="judge page: the grading model (default: --model)")
    record.add_argument("--runs", type=_positive, default=3, help="gnss: runs per case (default %(default)s)")
    record.add_argument("--pack", type=Path, default=None,
                        help="record this pack's content into its own recordings/ folder, each line labelled with "
                             "the pack's id (docs/packs.md#recordings); record all asks only the pages it covers")
    authored = commands.add_parser("authored", help="rebuild a pack's recordings of hand-written example answers")
    authored.add_argument("--pack", type=Path, required=True,
                          help="the pack folder (packs/fr, packs/en, yours): the authored lines of its recordings/ are "
                               "rebuilt, the lines recorded from a model kept")
    return parser


def _authored(pack: Path) -> int:
    """``authored --pack DIR``: one line per set written; 0, or 2 when the folder or a file cannot be used."""
    from evallib.runs.authored_pack import rebuild_pack_recordings

    if not pack.is_dir():
        print(f"authored: error: {pack} is not a pack folder", file=sys.stderr)
        return 2
    try:
        done = rebuild_pack_recordings(pack)
    except (OSError, ValueError, KeyError) as exc:  # InputError is a ValueError
        print(f"authored: error: could not write the authored recordings of {pack}: {exc}", file=sys.stderr)
        return 2
    if not done:
        print(f"authored: error: {pack} holds no authored file", file=sys.stderr)
        return 2
    for set_name, rebuilt in done.items():
        kept = f"; {rebuilt.kept} lines that are not authored kept as they were" if rebuilt.kept else ""
        print(f"{rebuilt.written} authored answers written to {pack / 'recordings' / set_name}.jsonl{kept}")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


#: Pages that ``record`` collects, each with its own function (default requests of the page).
RECORDERS = {"persona": persona_record, "trigger": trigger_record, "judge": judge_record, "gnss": gnss_record}
RECORDERS["all"] = lambda args: importlib.import_module("evallib.runs.record_all").record_all(args, RECORDERS)

#: Evaluation commands, each with its own parser and exit codes: name -> module holding ``main(argv)``.
EVALUATIONS = {"trigger": "evallib.runs.trigger.cli", "judge": "evallib.runs.judge.cli", "gnss": "evallib.runs.gnss.cli"}
EVALUATIONS["persona"] = "evallib.runs.persona.cli"  # the persona audit, its run bundle and an accuracy gate
EVALUATIONS["kappa"] = "evallib.runs.kappa.cli"  # the kappa page's figures from a ratings file
EVALUATIONS["room"] = "evallib.room.cli"  # room token: draw a new instructor token (the drawn one is kept hashed)
EVALUATIONS["pack"] = "evallib.runs.pack_cli"  # pack check DIR, pack new DIR --from fr|en (docs/packs.md#cli)
#: What the top-level ``--help`` says of each evaluation command (its own ``--help`` says the rest).
EVALUATION_HELP = {
    "trigger": "the trigger eval as a CI gate", "judge": "the LLM-as-judge pipeline, a JSON report and a gate",
    "gnss": "the GNSS agent evaluation", "persona": "the persona audit, its run bundle, an accuracy gate",
    "kappa": "the kappa page's figures from a ratings file", "room": "room token: draw a new instructor token",
    "pack": "pack check DIR (every problem of a workshop pack), pack new DIR --from fr|en",
}


def main(argv: list[str] | None = None) -> int:
    """Run a command; returns its exit code (argparse exits with 2 on a usage error)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in EVALUATIONS:  # imported only when asked for: each loads its own page library
        return importlib.import_module(EVALUATIONS[argv[0]]).main(argv[1:])
    args = _parser().parse_args(argv)
    if args.command == "authored":
        return _authored(args.pack)
    args.pack_opened = None
    if args.pack is not None and args.pack.is_file() and args.recordings_dir is None:
        # a zip is opened into a cache folder: what is recorded there would never reach the zip
        print(f"record: error: {args.pack} is not a pack folder: unzip it, record into the folder, and zip "
              f"it again (or give --recordings-dir)", file=sys.stderr)
        return 2
    if args.pack is not None:
        from evallib.packs.loader import PackError, open_pack

        try:
            args.pack_opened = open_pack(args.pack)
        except PackError as exc:
            print(f"record: error: {exc}", file=sys.stderr)
            return 2
        if args.page != "all" and not args.pack_opened.covers(args.page):
            print(f"record: error: the pack {args.pack_opened.id!r} does not cover the page {args.page!r}",
                  file=sys.stderr)
            return 2
        args.recordings_dir = args.recordings_dir or args.pack_opened.recordings_dir
    args.recordings_dir = args.recordings_dir or local_directory()
    return RECORDERS[args.page](args)


if __name__ == "__main__":
    sys.exit(console(main))

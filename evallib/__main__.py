"""Command line: ``python -m evallib <command>``.

Commands:
  persona-authored   write recordings/persona.jsonl from data/persona_authored_responses.json
                     (hand-written example answers, recorded with provenance "authored")
  persona-record     collect the default persona grid live and record it (needs --base-url, --model)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from evallib.llm import ChatResult, ProviderConfig, Recordings, collect, make_provider, provider_for_mode
from evallib.persona_catalogue import AUTHORED_MODEL, build_requests, load_catalogue

ROOT = Path(__file__).resolve().parent.parent
AUTHORED_RESPONSES = ROOT / "data" / "persona_authored_responses.json"
PERSONA_SET = "persona"


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


def persona_record(args: argparse.Namespace) -> int:
    """Collect the default grid from a live endpoint and add it to recordings/persona.jsonl."""
    key_variable = "ANTHROPIC_API_KEY" if args.kind == "anthropic" else "OPENAI_API_KEY"
    config = ProviderConfig(kind=args.kind, base_url=args.base_url, api_key=os.environ.get(key_variable, ""))
    provider = provider_for_mode("live_record", Recordings(args.recordings), make_provider(config), PERSONA_SET)
    cells = build_requests(load_catalogue(), args.model, disable_reasoning=args.kind == "openai")
    results = collect([c.request for c in cells], provider, args.concurrency,
                      on_progress=lambda p: print(f"\r{p.done}/{p.total} errors={p.errors}", end="", file=sys.stderr))
    print(file=sys.stderr)
    for cell, result in zip(cells, results):
        if result.failed:
            print(f"{cell.assistant} / probe {cell.probe_index}: {result.error} {result.hint}", file=sys.stderr)
    return sum(r.failed for r in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evallib", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recordings", type=Path, default=ROOT / "recordings")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("persona-authored", help="record the hand-written persona answers")
    record = commands.add_parser("persona-record", help="record the persona grid from a live model")
    record.add_argument("--kind", choices=("openai", "anthropic"), default="openai")
    record.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL", ""))
    record.add_argument("--model", required=True)
    record.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)
    if args.command == "persona-authored":
        print(f"{persona_authored(args.recordings)} authored answers written to {args.recordings}/{PERSONA_SET}.jsonl")
        return 0
    return 1 if persona_record(args) else 0


if __name__ == "__main__":
    sys.exit(main())

"""What an attempt of each kind holds on the default data, and its size in bytes (docs/README.md#performance).

Offline, on the shipped authored answers: a trigger attempt (first authored model, one run, with the
room's baseline = the same model's decisions), a persona attempt (six assistants x six probes, probe 6
held out) and a judge attempt (template A, twelve cases, three held out, the pairwise probe; human
scores typed in tests/evallib/room/kinds.py since none ship). Prints each attempt's top-level parts
and their sizes as stored (compact JSON, UTF-8), and how long each builder took.

    .venv/bin/python bench/room_attempts.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evallib.room.judge_attempt import build_judge_attempt  # noqa: E402
from evallib.room.persona_attempt import build_persona_attempt  # noqa: E402
from evallib.room.attempts import build_trigger_attempt  # noqa: E402
from tests.evallib.room.kinds import HUMAN, judge_runs, persona_responses, trigger_rows  # noqa: E402


def _size(value) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def trigger() -> dict:
    catalogue, queries, model, rows = trigger_rows()
    return build_trigger_attempt(rows, queries, {s.name: s.description for s in catalogue.skills}, model=model,
                                 source="offline", runs=1, baseline_rows=rows)


def persona() -> dict:
    catalogue, responses = persona_responses()
    return build_persona_attempt(catalogue, responses, model="authored-examples", source="offline")


def judge() -> dict:
    configs, results, compared = judge_runs()
    config = configs["A"]
    return build_judge_attempt(results["A"], HUMAN, config.rubric, template=config.template, template_name="A",
                               generator=config.generator.model, judge=config.judge.model, source="offline",
                               comparisons=compared)


def main() -> None:
    for name, build in (("trigger", trigger), ("persona", persona), ("judge", judge)):
        start = time.perf_counter()
        attempt = build()
        seconds = time.perf_counter() - start
        parts = ", ".join(f"{key} {_size(attempt[key])}" for key in ("inputs", "provenance", "items", "figures",
                                                                     "comparison", "readings"))
        items = attempt["items"]
        print(f"{name:8s} {_size(attempt):7d} bytes  {len(items)} items ({sum(i['held_out'] for i in items)} held out)"
              f"  built in {seconds:.2f} s")
        print(f"         parts (bytes): {parts}")
        print(f"         visible figures: {json.dumps(attempt['figures']['visible'])[:300]}")


if __name__ == "__main__":
    main()

"""Authored offline recordings: hand-written routing decisions turned into replayable answers.

``packs/fr/triggering_authored_decisions.json`` holds, for each example model, one entry per query and
run: a tool name as the model would have written it (casing included) or null for no activation.
`write_authored_recordings` builds the default routing requests (tools mode, OpenAI-compatible
shape, `DEFAULT_RUNS` runs) and records each decision in ``packs/fr/recordings/trigger.jsonl`` with provenance
``{"source": "authored", "note": ...}``: a tool call for a skill, a short text reply for none. No
token count or latency is invented: those fields stay empty.
"""

from __future__ import annotations

import json
from pathlib import Path

from evallib.llm import ChatRequest, ChatResult, Recordings
from evallib.triggering.data import (DATA, DEFAULT_QUERIES, DEFAULT_SKILLS, TriggerDataError, load_queries,
                                     load_skills)
from evallib.triggering.routing import DEFAULT_RUNS, build_requests

AUTHORED_DECISIONS = DATA / "triggering_authored_decisions.json"
#: Recording set (file stem under recordings/) of the triggering page.
TRIGGER_SET = "trigger"
#: The text an authored model answers when it activates no skill (tools mode: text, no tool call), from the
#: decisions file's ``none_reply`` (docs/packs.md#files).
NONE_REPLY = json.loads(AUTHORED_DECISIONS.read_text(encoding="utf-8-sig"))["none_reply"]


class AuthoredDecisionsError(TriggerDataError):
    """The authored decisions do not cover the query set (code ``authored_incomplete``)."""


def _authored_result(request_key: str, model: str, written: str | None, none_reply: str = NONE_REPLY) -> ChatResult:
    if written is None:
        return ChatResult(request_key=request_key, model=model, text=none_reply, finish_reason="stop")
    return ChatResult(request_key=request_key, model=model, finish_reason="tool_calls",
                      tool_calls=({"name": written, "arguments": "{}"},))


def authored_recordings(decisions_path: str | Path = AUTHORED_DECISIONS, skills_path: str | Path = DEFAULT_SKILLS,
                        queries_path: str | Path = DEFAULT_QUERIES) -> list[tuple[ChatRequest, ChatResult, dict]]:
    """(request, result, provenance) for every authored decision, models in file order.

    Raises `AuthoredDecisionsError` when a model lacks a query or has not `DEFAULT_RUNS` entries for one.
    """
    catalogue = load_skills(skills_path)
    queries = load_queries(catalogue, queries_path)
    written = json.loads(Path(decisions_path).read_text(encoding="utf-8-sig"))
    example = rewrite_example(decisions_path)
    recorded = []
    for entry in written["models"]:
        model, decisions = entry["model"], entry["decisions"]
        _check_complete(model, decisions, queries)
        provenance = {"source": "authored", "note": entry["note"]}
        none_reply = written.get("none_reply", NONE_REPLY)
        grids = [(catalogue, decisions)]
        if example is not None:  # the same decisions after the suggested rewrite, but for the listed changes
            grids.append((catalogue.with_description(*example), {**decisions, **entry.get("rewrite_changes", {})}))
        for grid, chosen in grids:
            recorded += [(cell.request, _authored_result(cell.request.key(), model, chosen[cell.query_id][cell.run],
                                                            none_reply),
                          provenance) for cell in build_requests(grid, queries, model, DEFAULT_RUNS)]
    return recorded


def _check_complete(model: str, decisions: dict, queries) -> None:
    for query in queries:
        runs = decisions.get(query.id)
        if not isinstance(runs, list) or len(runs) != DEFAULT_RUNS:
            raise AuthoredDecisionsError("authored_incomplete", f"{model}: query {query.id!r} needs "
                                         f"{DEFAULT_RUNS} decisions", model=model, id=query.id)


def rewrite_example(decisions_path: str | Path = AUTHORED_DECISIONS) -> tuple[str, str] | None:
    """(skill, new description) of the rewrite suggested for the offline before/after, or None.

    The authored models' decisions after this rewrite are recorded too (``rewrite_changes`` in the
    decisions file lists the queries whose decisions the rewrite changes), so the page's before/after
    runs offline on this one edit.
    """
    example = json.loads(Path(decisions_path).read_text(encoding="utf-8-sig")).get("rewrite_example")
    return (example["skill"], example["description"]) if example else None


def write_authored_recordings(recordings_dir: str | Path, decisions_path: str | Path = AUTHORED_DECISIONS) -> int:
    """Record every authored decision into ``<recordings_dir>/trigger.jsonl``; returns how many."""
    store = Recordings(recordings_dir)
    recorded = authored_recordings(decisions_path)
    for request, result, provenance in recorded:
        store.add(TRIGGER_SET, request, result, provenance)
    return len(recorded)


def recorded_models(recordings: Recordings) -> list[str]:
    """Models with recordings in the trigger set, sorted (what offline mode can replay)."""
    return sorted({r.request.model for r in recordings.in_set(TRIGGER_SET)})

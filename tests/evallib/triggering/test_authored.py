"""The authored offline recordings are the hand-written decisions, replayable, and say they are authored."""

import json

import pytest

from evallib.llm import Recordings
from evallib.triggering.authored import (AUTHORED_DECISIONS, AuthoredDecisionsError, TRIGGER_SET,
                                         authored_recordings, recorded_models, write_authored_recordings)
from evallib.triggering.data import DATA


def test_recordings_file_holds_exactly_the_authored_decisions():
    shipped = Recordings(DATA / "recordings")
    expected = authored_recordings()
    in_set = shipped.in_set(TRIGGER_SET)
    assert len(in_set) == len(expected) and not shipped.problems
    for request, result, provenance in expected:
        found = shipped.get(request.key())
        assert found is not None, request.describe()
        assert (found.result.tool_calls, found.result.text) == (result.tool_calls, result.text)
        assert found.provenance == {**provenance, "pack": "fr"} and provenance["source"] == "authored"
    assert recorded_models(shipped) == ["authored-example-light-router", "authored-example-strong-router"]


def test_authored_models_say_so_and_invent_no_measurement():
    for request, result, _ in authored_recordings():
        assert "authored" in request.model
        assert result.input_tokens is None and result.latency_s is None


def test_an_incomplete_decision_file_is_refused(tmp_path):
    data = json.loads(AUTHORED_DECISIONS.read_text(encoding="utf-8"))
    data["models"][0]["decisions"]["leave-01"] = ["leave-balance-calculator"]
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(AuthoredDecisionsError) as info:
        write_authored_recordings(tmp_path / "recordings", path)
    assert info.value.code == "authored_incomplete" and info.value.details["id"] == "leave-01"


def test_the_suggested_rewrite_is_recorded_and_changes_only_the_listed_queries():
    from evallib.triggering.authored import rewrite_example
    from evallib.triggering.data import load_queries, load_skills
    from evallib.triggering.routing import build_requests

    skill, description = rewrite_example()
    catalogue = load_skills()
    queries = load_queries(catalogue)
    assert description != next(s.description for s in catalogue.skills if s.name == skill) and len(description) < 1024
    recorded = {request.key(): result for request, result, _ in authored_recordings()}
    data = json.loads(AUTHORED_DECISIONS.read_text(encoding="utf-8"))
    for entry in data["models"]:
        before = build_requests(catalogue, queries, entry["model"])
        after = build_requests(catalogue.with_description(skill, description), queries, entry["model"])
        changed = {b.query_id for b, a in zip(before, after)
                   if recorded[b.request.key()].tool_calls != recorded[a.request.key()].tool_calls}
        assert changed == set(entry.get("rewrite_changes", {}))

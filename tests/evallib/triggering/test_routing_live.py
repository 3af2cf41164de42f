"""Routing through the real openai and anthropic SDKs against the fake server (tests/fake_llm_server.py).

The fake answers ``fake-tools`` with a call to the first tool of the request, echoes the user's text
after "answer to: " for ``fake-ok`` (so a query holding a JSON decision comes back as a JSON answer
wrapped in prose), returns empty content for ``fake-empty`` and a 429 first for ``fake-429-once``.
"""

import pytest

from evallib.llm import ProviderConfig, make_provider
from evallib.triggering.data import LabelledQuery, Skill, SkillCatalogue
from evallib.triggering.report import decide_all, evaluate, route
from tests.fake_llm_server import FakeLLMServer

KEY = "sk-test-trigger-41d2"


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer(api_key=KEY) as running:
        yield running


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()
    server.retry_after = 0.05


def provider(server, kind, max_retries=0):
    base_url = server.openai_base_url if kind == "openai" else server.anthropic_base_url
    return make_provider(ProviderConfig(kind=kind, base_url=base_url, api_key=KEY, max_retries=max_retries,
                                        timeout_s=5))


def routed(server, kind, catalogue, queries, model, *, names=None, mode="tools", runs=1, max_retries=0):
    """Decisions of ``queries`` sent with ``catalogue`` and read against ``names`` (default: its names)."""
    cells, results = route(catalogue, queries, provider(server, kind, max_retries), model, runs, kind, mode)
    return decide_all(cells, results, queries, names or catalogue.names, mode), results


KINDS = ["openai", "anthropic"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_native_tool_call_activates_that_skill(server, kind, catalogue):
    query = LabelledQuery("q", "Combien de jours de congés me reste-t-il ?", catalogue.names[0])
    rows, _ = routed(server, kind, catalogue, [query], "fake-tools", runs=2)
    assert [(r.run, r.decision.status, r.decision.skill) for r in rows] == \
        [(0, "skill", catalogue.names[0]), (1, "skill", catalogue.names[0])]
    bodies = [r["body"] for r in server.requests]
    assert len(bodies) == 2  # one call per run: the repeat index is in the key, nothing is served twice
    assert [t.get("name") or t["function"]["name"] for t in bodies[0]["tools"]] == catalogue.names
    assert "tool_choice" not in bodies[0]  # auto: the model may call no tool


@pytest.mark.parametrize("kind", KINDS)
def test_messy_casing_of_the_called_tool_still_matches(server, kind, catalogue):
    messy = SkillCatalogue((Skill("Leave_Balance-CALCULATOR", "x"), Skill("other", "y")))
    query = LabelledQuery("q", "solde de congés ?", "leave-balance-calculator")
    rows, _ = routed(server, kind, messy, [query], "fake-tools", names=catalogue.names)
    assert (rows[0].decision.status, rows[0].decision.skill) == ("skill", "leave-balance-calculator")
    assert rows[0].correct


@pytest.mark.parametrize("kind", KINDS)
def test_an_unknown_tool_name_is_a_false_activation_shown_as_written(server, kind, catalogue):
    stale = SkillCatalogue((Skill("vacation-booker", "x"), Skill("other", "y")))
    query = LabelledQuery("q", "Pose-moi trois jours la semaine prochaine.", None)
    rows, _ = routed(server, kind, stale, [query], "fake-tools", names=catalogue.names)
    report = evaluate(rows, catalogue, [query])
    assert rows[0].decision.status == "invalid_name" and report.metrics.false_activations == 1
    assert report.misroutes[0].describe() == "expected none -> got vacation-booker: " + query.query


@pytest.mark.parametrize("kind", KINDS)
def test_json_fallback_reads_the_decision_inside_prose(server, kind, catalogue):
    queries = [LabelledQuery("a", '{"skill": "Expense_Report"}', "expense-report"),
               LabelledQuery("b", '{"skill": null}', None),
               LabelledQuery("c", '{"skill": "travel-booking"}', None),
               LabelledQuery("d", "pas de JSON ici", None)]
    rows, results = routed(server, kind, catalogue, queries, "fake-ok", mode="json")
    assert results[0].text.startswith("answer to: ")
    assert [r.decision.status for r in rows] == ["skill", "none", "invalid_name", "error"]
    assert rows[0].decision.skill == "expense-report"
    assert all("tools" not in r["body"] for r in server.requests)


@pytest.mark.parametrize("kind", KINDS)
def test_empty_content_is_counted_apart_never_a_correct_none(server, kind, catalogue):
    queries = [LabelledQuery("a", "Réserve un train.", None), LabelledQuery("b", "Ma fiche de paie ?", None)]
    rows, _ = routed(server, kind, catalogue, queries, "fake-empty")
    report = evaluate(rows, catalogue, queries)
    assert [r.decision.status for r in rows] == ["empty", "empty"]
    assert (report.metrics.n, report.metrics.empty) == (0, 2) and report.metrics.accuracy.value is None
    assert report.readings[0].code == "all_errored"


@pytest.mark.parametrize("kind", KINDS)
def test_a_429_is_an_error_left_out_or_retried(server, kind, catalogue):
    query = LabelledQuery("a", "Réserve un train.", None)
    rows, results = routed(server, kind, catalogue, [query], "fake-429-once")
    assert (rows[0].decision.status, rows[0].decision.reason) == ("error", "rate_limit")
    assert evaluate(rows, catalogue, [query]).metrics.errors == 1
    server.reset()
    rows, results = routed(server, kind, catalogue, [query], "fake-429-once", max_retries=2)
    assert rows[0].decision.status == "none" and results[0].retries == 1

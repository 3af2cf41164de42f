"""Both judge paths through the real openai and anthropic SDKs against the fake server.

The fake (tests/fake_llm_server.py) answers ``fake-ok`` with "answer to: <last user text>" cut at the
first stop sequence; ``fake-tools`` with a call to the first tool whose arguments are placeholders
(integers 1); ``fake-prefill-400`` refuses an Anthropic prefill with HTTP 400.
"""

import threading

import pytest

from evallib.judging.judge_prompt import GRADE_CLOSE
from evallib.judging.pipeline import JudgeConfig, run_case, run_pipeline
from evallib.judging.requests import GRADE_TOOL, JUDGE_PREFILL, ModelSettings
from evallib.judging.templates import default_templates
from evallib.llm import ProviderConfig, make_provider
from tests.fake_llm_server import FakeLLMServer

KEY = "sk-test-judge-77c1"


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer(api_key=KEY) as running:
        yield running


@pytest.fixture(autouse=True)
def _fresh(server):
    server.reset()


def provider(server, kind):
    base_url = server.openai_base_url if kind == "openai" else server.anthropic_base_url
    return make_provider(ProviderConfig(kind=kind, base_url=base_url, api_key=KEY, max_retries=0, timeout_s=5))


def config(rubric, kind, judge_model, **judge_options):
    return JudgeConfig(ModelSettings("fake-ok", kind), ModelSettings(judge_model, kind, **judge_options), rubric,
                       default_templates()["A"])


def judge_bodies(server):
    return [r["body"] for r in server.requests if r["path"].endswith(("/messages", "/completions"))][1:]


def test_anthropic_prefill_and_stop_sequence(server, rubric, cases):
    result = run_case(cases[0], config(rubric, "anthropic", "fake-ok"), provider(server, "anthropic"))
    body = judge_bodies(server)[0]
    assert body["messages"][-1] == {"role": "assistant", "content": JUDGE_PREFILL}
    assert body["stop_sequences"] == [GRADE_CLOSE] and body["temperature"] == 0
    judge = result.calls[1]
    # The fake echoes the prompt, which names </grade>: the stop sequence cut it there.
    assert judge.finish_reason == "stop_sequence" and GRADE_CLOSE not in judge.text
    # The echo ("answer to: ...") cannot continue the prefilled brace: it is read as plain text, not glued
    # behind the prefill into an unclosed object (which read as "truncated" for a reply that ended normally).
    assert judge.text.startswith("answer to: ") and not judge.text.startswith(JUDGE_PREFILL)
    assert (result.grade.status, result.grade.problem, result.grade.score) == ("unparseable", "no_object", None)
    assert result.grade.raw == judge.text


def test_anthropic_without_prefill_forces_the_grade_tool(server, rubric, cases):
    result = run_case(cases[0], config(rubric, "anthropic", "fake-tools", prefill=False), provider(server, "anthropic"))
    body = judge_bodies(server)[0]
    assert body["tool_choice"] == {"type": "tool", "name": GRADE_TOOL}
    assert body["messages"][-1]["role"] == "user"
    # Placeholder arguments: every criterion 1 and total 1, so the sum (3) does not match.
    assert (result.grade.status, result.grade.details) == ("inconsistent", {"total": 1, "sum": 3})


def test_a_prefill_refusal_falls_back_to_the_tool_path(server, rubric, cases):
    result = run_case(cases[0], config(rubric, "anthropic", "fake-prefill-400"), provider(server, "anthropic"))
    first, second = judge_bodies(server)
    assert first["messages"][-1]["role"] == "assistant" and "tools" not in first
    assert second["tool_choice"] == {"type": "tool", "name": GRADE_TOOL}
    assert [c.error_kind for c in result.calls] == [None, "prefill_unsupported", None]
    assert result.grade.status == "unparseable"  # the fake answers text, not the tool: read, never scored


def test_openai_json_mode_sends_response_format(server, rubric, cases):
    result = run_case(cases[0], config(rubric, "openai", "fake-ok", json_mode=True), provider(server, "openai"))
    body = judge_bodies(server)[0]
    assert body["response_format"] == {"type": "json_object"} and body["temperature"] == 0
    assert result.grade.status == "unparseable"


def test_openai_without_json_mode_sends_plain_text_and_reads_it_tolerantly(server, rubric, cases):
    result = run_case(cases[0], config(rubric, "openai", "fake-ok"), provider(server, "openai"))
    body = judge_bodies(server)[0]
    assert "response_format" not in body and "tools" not in body
    assert body["messages"][-1]["role"] == "user"
    assert (result.grade.status, result.grade.problem) == ("unparseable", "no_object")


def test_a_reasoning_model_gets_no_temperature(server, rubric, cases):
    settings = ModelSettings("fake-ok", "openai", temperature=None)
    run_case(cases[0], JudgeConfig(settings, settings, rubric, default_templates()["A"]), provider(server, "openai"))
    assert all("temperature" not in body for body in [r["body"] for r in server.requests])


def test_an_empty_response_is_scored_zero_without_calling_the_judge(server, rubric, cases):
    judge = config(rubric, "openai", "fake-ok")
    result = run_case(cases[0], JudgeConfig(ModelSettings("fake-empty"), judge.judge, rubric, judge.template),
                      provider(server, "openai"))
    assert (result.grade.status, result.grade.score, result.grade.by) == ("scored", 0, "code")
    assert len(server.requests) == 1 and len(result.calls) == 1


def test_a_failed_generation_is_an_error_not_a_score(server, rubric, cases):
    judge = config(rubric, "openai", "fake-ok")
    result = run_case(cases[0], JudgeConfig(ModelSettings("fake-500"), judge.judge, rubric, judge.template),
                      provider(server, "openai"))
    assert (result.grade.status, result.grade.problem, result.grade.score) == ("error", "generation_failed", None)
    assert result.grade.details["error_details"]["code"] == "server"  # the failure as data, for a page to word
    assert result.grade.details["error_details"]["status"] == 500


def test_progress_is_reported_on_the_calling_thread(server, rubric, cases):
    seen = []
    results = run_pipeline(cases[:4], config(rubric, "openai", "fake-ok"), provider(server, "openai"), 3,
                           on_progress=lambda p: seen.append((p.done, p.total, threading.current_thread())))
    assert [r.case.id for r in results] == [c.id for c in cases[:4]]
    assert [(d, t) for d, t, _ in seen] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert {thread for _, _, thread in seen} == {threading.current_thread()}
    assert len(server.requests) == 8  # two calls per case

"""The live path through the real openai and anthropic SDKs, against the fake HTTP server."""

import logging
import time

import pytest

from evallib.llm import (ChatRequest, EmbeddingRequest, ProviderConfig, Recordings, collect, make_provider,
                         provider_for_mode)
from tests.evallib.llm.conftest import SECRET_KEY

TOOL = {"name": "record_score", "description": "Record a score",
        "parameters": {"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]}}


def openai_provider(server, **options):
    options.setdefault("max_retries", 0)
    options.setdefault("timeout_s", 5)
    return make_provider(ProviderConfig(kind="openai", base_url=server.openai_base_url, api_key=SECRET_KEY,
                                        **options))


def anthropic_provider(server, **options):
    options.setdefault("max_retries", 0)
    options.setdefault("timeout_s", 5)
    return make_provider(ProviderConfig(kind="anthropic", base_url=server.anthropic_base_url,
                                        api_key=SECRET_KEY, **options))


def ask(model, text="Quelle heure est-il ?", **options):
    return ChatRequest.single(model, "Tu es bref.", text, **options)


@pytest.mark.parametrize("make", [openai_provider, anthropic_provider])
def test_success_has_text_tokens_latency_and_source(server, make):
    server.latency = 0.2
    result = make(server).chat(ask("fake-ok", temperature=0.3, seed=7, max_tokens=50))
    assert result.status == "ok" and result.text == "answer to: Quelle heure est-il ?"
    assert result.input_tokens > 0 and result.output_tokens > 0
    assert result.latency_s >= 0.2 and result.source == "live" and result.model == "fake-ok"


def test_openai_request_carries_sampling_parameters_and_extra_body(server):
    openai_provider(server).chat(ask("fake-ok", temperature=0.3, seed=7, max_tokens=350, stop=("###",),
                                     extra_body={"chat_template_kwargs": {"enable_thinking": False}}))
    body = server.requests[-1]["body"]
    assert body["messages"][0] == {"role": "system", "content": "Tu es bref."}
    assert (body["temperature"], body["seed"], body["max_tokens"], body["stop"]) == (0.3, 7, 350, ["###"])
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


@pytest.mark.parametrize("make", [openai_provider, anthropic_provider])
def test_tool_calls_are_returned(server, make):
    result = make(server).chat(ask("fake-tools", tools=(TOOL,), tool_choice="record_score"))
    assert result.status == "ok" and result.tool_calls[0]["name"] == "record_score"
    assert "score" in str(result.tool_calls[0]["arguments"])


def test_anthropic_prefill_is_sent_as_last_assistant_turn_and_kept_in_the_text(server):
    result = anthropic_provider(server).chat(ask("fake-ok", prefill='{"score": ', stop=("}",)))
    body = server.requests[-1]["body"]
    assert body["messages"][-1] == {"role": "assistant", "content": '{"score":'}
    assert body["system"] == "Tu es bref." and body["stop_sequences"] == ["}"]
    assert result.text.startswith('{"score":')


def test_prefill_refused_by_the_model_gets_an_actionable_kind(server):
    result = anthropic_provider(server).chat(ask("fake-prefill-400", prefill="{"))
    assert result.status == "error" and result.error_kind == "prefill_unsupported"
    assert "prefill" in result.hint.lower()
    switched_off = anthropic_provider(server, prefill=False).chat(ask("fake-ok", prefill="{"))
    assert switched_off.error_kind == "prefill_unsupported" and server.stats[200] == 0


def test_rate_limit_is_retried_after_retry_after_and_counted(server):
    start = time.perf_counter()
    result = openai_provider(server, max_retries=3).chat(ask("fake-429-once"))
    assert result.status == "ok" and result.retries == 1
    assert time.perf_counter() - start >= 0.9 and server.stats[429] == 1


def test_rate_limit_without_retries_left_is_reported(server):
    result = openai_provider(server, max_retries=0).chat(ask("fake-429-once"))
    assert result.error_kind == "rate_limit" and "429" in result.error and result.retries == 0


def test_server_error(server):
    result = openai_provider(server).chat(ask("fake-500"))
    assert result.status == "error" and result.error_kind == "server" and "500" in result.error


def test_timeout(server):
    server.hang_seconds = 3
    result = openai_provider(server, timeout_s=0.5).chat(ask("fake-hang"))
    assert result.error_kind == "timeout" and "0.5 s" in result.error


def test_malformed_body(server):
    result = openai_provider(server).chat(ask("fake-malformed"))
    assert result.status == "error" and result.error_kind == "malformed"


def test_empty_content_is_flagged(server):
    result = openai_provider(server).chat(ask("fake-empty"))
    assert result.status == "empty" and result.text == "" and result.hint


@pytest.mark.parametrize("model", ["fake-reasoning-only", "fake-think-only"])
def test_reasoning_only_answer_is_empty_with_the_thinking_hint(server, model):
    result = openai_provider(server).chat(ask(model))
    assert result.status == "empty" and result.text == "" and result.reasoning
    assert "disable thinking" in result.hint


def test_think_block_is_stripped_from_the_text(server):
    result = openai_provider(server).chat(ask("fake-think"))
    assert result.status == "ok" and result.text == "answer to: Quelle heure est-il ?"
    assert "<think>" not in result.text and result.reasoning.startswith("Thinking about")


@pytest.mark.parametrize("make", [openai_provider, anthropic_provider])
def test_length_finish_is_truncated(server, make):
    result = make(server).chat(ask("fake-length"))
    assert result.status == "truncated" and result.text and "max_tokens" in result.hint


def test_rejected_key_never_shows_the_key(server):
    provider = make_provider(ProviderConfig(kind="openai", base_url=server.openai_base_url,
                                            api_key="sk-wrong-key-55aa", max_retries=0))
    result = provider.chat(ask("fake-ok"))
    assert result.error_kind == "auth" and "401" in result.error
    assert "sk-wrong-key-55aa" not in result.error + result.hint and "55aa" not in result.error + result.hint


def test_unknown_model_lists_the_models_offered(server):
    result = openai_provider(server).chat(ask("llama-nonexistent"))
    assert result.error_kind == "model_not_found"
    assert "fake-ok" in result.hint and "llama-nonexistent" in result.error


def test_base_url_without_v1_gets_a_hint(server):
    provider = make_provider(ProviderConfig(kind="openai", base_url=server.url, api_key=SECRET_KEY, max_retries=0))
    result = provider.chat(ask("fake-ok"))
    assert result.error_kind == "not_found" and f"{server.url}/v1" in result.hint


def test_no_server_names_the_url_and_suggests_starting_one():
    provider = make_provider(ProviderConfig(kind="openai", base_url="http://127.0.0.1:9/v1", max_retries=0))
    result = provider.chat(ask("fake-ok"))
    assert result.error_kind == "connection" and "http://127.0.0.1:9/v1" in result.error
    assert "ollama" in result.hint.lower()


def test_embeddings_through_the_same_interface(server):
    request = EmbeddingRequest("fake-embed", ("un", "deux", "trois"))
    result = openai_provider(server).embed(request)
    assert result.status == "ok" and len(result.vectors) == 3 and len(result.vectors[0]) == 8
    assert anthropic_provider(server).embed(request).status == "error"


def test_model_list(server):
    assert "fake-ok" in openai_provider(server).list_models()


def test_collect_runs_requests_at_once_in_order_and_never_leaks_the_key(server, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    server.latency = 0.3
    models = ["fake-ok", "fake-500", "fake-ok", "fake-empty", "fake-ok", "llama-missing", "fake-ok", "fake-ok"]
    requests = [ask(model, f"question {i}") for i, model in enumerate(models)]
    provider = provider_for_mode("live_record", Recordings(tmp_path), openai_provider(server), set_name="t")
    results = collect(requests, provider, max_concurrency=8)
    # at once: the server saw several requests in flight together (a wall-clock bound failed on a loaded
    # machine; the timings belong in bench/collect.py)
    assert server.in_flight_max > 1
    assert [r.text for r in results if r.ok] == [f"answer to: question {i}" for i in (0, 2, 4, 6, 7)]
    assert [r.status for r in results] == ["ok", "error", "ok", "empty", "ok", "error", "ok", "ok"]
    written = "".join(p.read_text(encoding="utf-8") for p in tmp_path.iterdir())
    shown = " ".join(str(r.to_dict()) for r in results)
    assert written.count('"kind": "chat"') == 5
    for place in (written, shown, caplog.text):
        assert SECRET_KEY not in place and SECRET_KEY[-6:] not in place
    assert server.openai_base_url not in written

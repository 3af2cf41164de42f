"""The fake LLM server, exercised only through the real openai / anthropic SDKs.

Each test starts its own server (cheap: one thread and a socket), so counters,
the fake-429-once memory and any hanging request never leak between tests.
Clients use small timeouts and ``max_retries=0`` unless a test is about
retries, which keeps the whole file to a few seconds.
"""

from __future__ import annotations

import base64
import json
import math
import struct
import threading
import time

import anthropic
import openai
import pytest

from tests.fake_llm_server import EMBEDDING_DIMENSION, MODELS, FakeLLMServer

pytestmark = pytest.mark.timeout(30)

KEY = "test-key"
WRONG_KEY = "sk-wrong-secret-1234"
USER = [{"role": "user", "content": "What is 2+2? Choose (A) 4 or (B) 5"}]
ANSWER = "answer to: What is 2+2? Choose (A) 4 or (B) 5"

WEATHER_TOOL_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "detailed": {"type": "boolean"},
    },
    "required": ["city"],
}


@pytest.fixture
def server():
    with FakeLLMServer(api_key=KEY) as fake:
        yield fake


@pytest.fixture
def oai(server):
    return openai.OpenAI(base_url=server.openai_base_url, api_key=KEY, max_retries=0, timeout=3)


@pytest.fixture
def claude(server):
    return anthropic.Anthropic(base_url=server.anthropic_base_url, api_key=KEY, max_retries=0, timeout=3)


def chat(client, model, messages=USER, **kwargs):
    return client.chat.completions.create(model=model, messages=messages, **kwargs)


def message(client, model, messages=USER, **kwargs):
    kwargs.setdefault("max_tokens", 64)
    return client.messages.create(model=model, messages=messages, **kwargs)


# ---------------------------------------------------------------------------
# Lifecycle and instrumentation
# ---------------------------------------------------------------------------


def test_addresses_and_start_stop():
    fake = FakeLLMServer()
    fake.start()
    try:
        assert fake.openai_base_url == f"http://127.0.0.1:{fake.port}/v1"
        assert fake.anthropic_base_url == f"http://127.0.0.1:{fake.port}"
        with pytest.raises(RuntimeError):
            fake.start()
    finally:
        fake.stop()
    fake.stop()  # stopping twice is harmless


def test_requests_are_recorded_and_reset(server, oai):
    chat(oai, "fake-ok")
    (record,) = server.requests
    assert record["method"] == "POST"
    assert record["path"] == "/v1/chat/completions"
    assert record["body"]["messages"] == USER
    assert record["model"] == "fake-ok"
    assert record["headers"]["authorization"] == f"Bearer {KEY}"
    assert record["status"] == 200
    assert abs(record["time"] - time.time()) < 5
    assert server.stats == {200: 1}

    server.reset()
    assert server.requests == []
    assert server.stats == {}
    assert server.in_flight_max == 0


def test_latency_is_applied_and_settable_at_runtime(server, oai):
    server.latency = 0.3
    started = time.monotonic()
    chat(oai, "fake-ok")
    assert time.monotonic() - started >= 0.3


def test_parallel_requests_overlap(server, oai):
    server.latency = 0.3
    answers = []
    barrier = threading.Barrier(8)

    def call(i):
        barrier.wait(timeout=5)  # all threads call at (nearly) the same time
        answers.append(chat(oai, "fake-ok", [{"role": "user", "content": f"q{i}"}]).choices[0].message.content)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == sorted(f"answer to: q{i}" for i in range(8))
    # Served side by side, not one after the other. (No wall-clock bound:
    # it is flaky on a loaded machine, and in_flight_max is the real proof.)
    assert server.in_flight_max > 1


def test_32_concurrent_clients(server):
    server.latency = 0.3
    errors, answers = [], []
    barrier = threading.Barrier(32)

    def call(i):
        client = openai.OpenAI(base_url=server.openai_base_url, api_key=KEY, max_retries=0, timeout=10)
        barrier.wait(timeout=10)
        try:
            answers.append(chat(client, "fake-ok", [{"role": "user", "content": f"q{i}"}]))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(answers) == 32
    assert server.in_flight_max > 1


def test_stop_interrupts_a_hanging_request():
    fake = FakeLLMServer(api_key=KEY, hang_seconds=30).start()
    client = openai.OpenAI(base_url=fake.openai_base_url, api_key=KEY, max_retries=0, timeout=20)
    outcome = []

    def call():
        try:
            outcome.append(chat(client, "fake-hang"))
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=call)
    thread.start()
    deadline = time.monotonic() + 3
    while fake.in_flight == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    fake.stop()
    thread.join(timeout=5)
    assert time.monotonic() - started < 4  # well before hang_seconds
    assert fake.in_flight == 0
    # The server dropped the connection without answering.
    assert len(outcome) == 1 and isinstance(outcome[0], openai.APIConnectionError)


def test_reset_cuts_a_leftover_hang_short(server):
    # A module-scoped server reused across tests must not keep counting a
    # fake-hang request whose client gave up long ago.
    client = openai.OpenAI(base_url=server.openai_base_url, api_key=KEY, max_retries=0, timeout=0.3)
    with pytest.raises(openai.APITimeoutError):
        chat(client, "fake-hang")
    assert server.in_flight == 1  # the server is still "thinking"
    started = time.monotonic()
    server.reset()
    assert time.monotonic() - started < 1
    assert server.in_flight == 0 and server.in_flight_max == 0
    assert server.requests == [] and server.stats == {}


# ---------------------------------------------------------------------------
# OpenAI: successful shapes
# ---------------------------------------------------------------------------


def test_openai_ok(oai):
    completion = chat(oai, "fake-ok", [{"role": "system", "content": "Be brief."}, *USER])
    assert isinstance(completion, openai.types.chat.ChatCompletion)
    choice = completion.choices[0]
    assert choice.message.content == ANSWER
    assert choice.message.role == "assistant"
    assert choice.finish_reason == "stop"
    assert completion.model == "fake-ok"
    # usage counts words: 2 (system) + 9 (user) in, 11 out
    assert completion.usage.prompt_tokens == 11
    assert completion.usage.completion_tokens == 11
    assert completion.usage.total_tokens == 22
    # deterministic
    assert chat(oai, "fake-ok", [{"role": "system", "content": "Be brief."}, *USER]).id == completion.id


def test_openai_ok_with_content_parts_and_stop(oai):
    parts = [{"role": "user", "content": [{"type": "text", "text": "one two"}, {"type": "text", "text": "three"}]}]
    assert chat(oai, "fake-ok", parts).choices[0].message.content == "answer to: one two three"
    cut = chat(oai, "fake-ok", stop=[" two", "three"])
    assert cut.choices[0].message.content == "answer to: What is 2+2? Choose (A) 4 or (B) 5"  # no match
    cut = chat(oai, "fake-ok", parts, stop=[" two", "three"])
    assert cut.choices[0].message.content == "answer to: one"
    assert cut.choices[0].finish_reason == "stop"


def test_openai_models_list(oai):
    ids = [model.id for model in oai.models.list()]
    assert ids == list(MODELS)


def test_openai_tools(oai):
    tools = [
        {"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_TOOL_SCHEMA}},
        {"type": "function", "function": {"name": "other", "parameters": {"type": "object", "properties": {}}}},
    ]
    completion = chat(oai, "fake-tools", tools=tools)
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    (call,) = choice.message.tool_calls
    assert call.type == "function"
    assert call.id.startswith("call_")
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {
        "city": "test",
        "days": 1,
        "unit": "celsius",
        "detailed": True,
    }
    # Without tools fake-tools just answers.
    assert chat(oai, "fake-tools").choices[0].message.content == ANSWER


def test_openai_reasoning_only(oai):
    completion = chat(oai, "fake-reasoning-only")
    choice = completion.choices[0]
    assert choice.finish_reason == "stop"
    assert choice.message.content is None
    # Not part of the SDK schema: kept as an extra field.
    assert choice.message.reasoning_content == "Thinking about: What is 2+2? Choose (A) 4 or (B) 5"
    assert choice.message.model_extra["reasoning_content"].startswith("Thinking about:")


@pytest.mark.parametrize(
    "model, expected",
    [
        ("fake-think-only", "<think>Thinking about: hello</think>"),
        ("fake-think", "<think>Thinking about: hello</think>answer to: hello"),
        ("fake-empty", ""),
        ("fake-prefill-400", "answer to: hello"),  # only Anthropic rejects prefill
    ],
)
def test_openai_text_variants(oai, model, expected):
    choice = chat(oai, model, [{"role": "user", "content": "hello"}]).choices[0]
    assert choice.message.content == expected
    assert choice.finish_reason == "stop"


def test_openai_length(oai):
    choice = chat(oai, "fake-length").choices[0]
    assert choice.finish_reason == "length"
    assert choice.message.content == "answer to: What"


def test_openai_embeddings(oai):
    default = oai.embeddings.create(model="fake-embed", input=["red apple", "green pear"])
    floats = oai.embeddings.create(model="fake-embed", input=["red apple", "green pear"], encoding_format="float")
    assert isinstance(default, openai.types.CreateEmbeddingResponse)
    assert [item.index for item in default.data] == [0, 1]
    vectors = [item.embedding for item in default.data]
    assert vectors == [item.embedding for item in floats.data]  # base64 (SDK default) == float
    assert all(len(v) == EMBEDDING_DIMENSION for v in vectors)
    assert all(math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-5) for v in vectors)
    assert vectors[0] != vectors[1]
    assert default.usage.prompt_tokens == 4 and default.usage.total_tokens == 4
    single = oai.embeddings.create(model="fake-embed", input="red apple")
    assert single.data[0].embedding == vectors[0]

    raw = oai.embeddings.with_raw_response.create(model="fake-embed", input="red apple").http_response.json()
    decoded = list(struct.unpack("<8f", base64.b64decode(raw["data"][0]["embedding"])))
    assert decoded == vectors[0]


# ---------------------------------------------------------------------------
# OpenAI: failures and the exceptions the SDK raises
# ---------------------------------------------------------------------------


def test_openai_wrong_key(server):
    client = openai.OpenAI(base_url=server.openai_base_url, api_key=WRONG_KEY, max_retries=0, timeout=3)
    with pytest.raises(openai.AuthenticationError) as info:
        chat(client, "fake-ok")
    assert info.value.status_code == 401
    assert info.value.code == "invalid_api_key"
    assert WRONG_KEY not in info.value.response.text and WRONG_KEY not in str(info.value)
    with pytest.raises(openai.AuthenticationError):
        client.models.list()


def test_openai_unknown_model(oai):
    with pytest.raises(openai.NotFoundError) as info:
        chat(oai, "gpt-nope")
    assert info.value.code == "model_not_found"
    assert info.value.type == "invalid_request_error"
    assert "The model `gpt-nope` does not exist" in info.value.message


def test_openai_unknown_path(oai):
    with pytest.raises(openai.NotFoundError):
        oai.get("/no/such/route", cast_to=object)


def test_openai_500(server, oai):
    with pytest.raises(openai.InternalServerError) as info:
        chat(oai, "fake-500")
    assert info.value.status_code == 500
    assert info.value.type == "server_error"
    # The SDK retries 5xx on its own: one retry means a second 500.
    with pytest.raises(openai.InternalServerError):
        chat(oai.with_options(max_retries=1), "fake-500")
    assert server.stats[500] == 3


def test_openai_429_without_retries(server, oai):
    with pytest.raises(openai.RateLimitError) as info:
        chat(oai, "fake-429-once")
    assert info.value.response.headers["retry-after"] == "1"
    assert info.value.code == "rate_limit_exceeded"
    # Same body again: the server already rate-limited it once, so it answers.
    assert chat(oai, "fake-429-once").choices[0].message.content == ANSWER
    assert server.stats == {429: 1, 200: 1}


def test_openai_429_once_is_retried_after_retry_after(server, oai):
    started = time.monotonic()
    completion = chat(oai.with_options(max_retries=1), "fake-429-once")
    elapsed = time.monotonic() - started
    assert completion.choices[0].message.content == ANSWER
    assert 0.95 <= elapsed < 5  # the SDK slept the Retry-After second
    assert server.stats == {429: 1, 200: 1}
    first, second = server.requests
    assert first["body"] == second["body"]
    assert second["headers"]["x-stainless-retry-count"] == "1"


def test_configurable_retry_after(server, oai):
    server.retry_after = 0.2
    with pytest.raises(openai.RateLimitError) as info:
        chat(oai, "fake-429-once", [{"role": "user", "content": "first"}])
    assert info.value.response.headers["retry-after"] == "0.2"

    started = time.monotonic()
    chat(oai.with_options(max_retries=1), "fake-429-once")
    assert time.monotonic() - started >= 0.2
    assert [r["status"] for r in server.requests] == [429, 429, 200]


def test_rate_limit_fraction(server, oai):
    server.rate_limit_fraction = 0.2
    server.retry_after = 0.01
    client = oai.with_options(max_retries=1)

    def run():
        for i in range(60):
            chat(client, "fake-ok", [{"role": "user", "content": f"question {i}"}])
        return server.stats

    first = run()
    assert first[200] == 60
    assert 3 <= first[429] <= 25  # about 20 % of 60 distinct bodies
    server.reset()
    assert run() == first  # the same bodies are picked again: deterministic


def test_openai_malformed_json(oai):
    # Both SDKs parse a 200 application/json body with json.loads and let the
    # JSONDecodeError (a ValueError) escape: it is NOT an openai.APIError.
    with pytest.raises(json.JSONDecodeError):
        chat(oai, "fake-malformed")


def test_openai_hang_times_out(server):
    client = openai.OpenAI(base_url=server.openai_base_url, api_key=KEY, max_retries=0, timeout=0.5)
    started = time.monotonic()
    with pytest.raises(openai.APITimeoutError):
        chat(client, "fake-hang")
    assert time.monotonic() - started < 4  # well before hang_seconds


def test_streaming_is_refused(oai):
    with pytest.raises(openai.BadRequestError):
        chat(oai, "fake-ok", stream=True)


# ---------------------------------------------------------------------------
# Anthropic
# ---------------------------------------------------------------------------


def test_anthropic_ok(server, claude):
    reply = message(claude, "fake-ok", system="You are terse.")
    assert isinstance(reply, anthropic.types.Message)
    (block,) = reply.content
    assert block.type == "text" and block.text == ANSWER
    assert reply.stop_reason == "end_turn"
    assert reply.stop_sequence is None
    assert reply.usage.input_tokens == 3 + 9  # words of system + messages
    assert reply.usage.output_tokens == 11
    body = server.requests[-1]["body"]
    assert body["system"] == "You are terse." and body["max_tokens"] == 64


def test_anthropic_accepts_x_api_key(server):
    # The 2.14 SDK sends api_key= as "Authorization: Bearer"; x-api-key works too.
    client = anthropic.Anthropic(
        base_url=server.anthropic_base_url, api_key=None, default_headers={"x-api-key": KEY}, max_retries=0, timeout=3
    )
    assert message(client, "fake-ok").content[0].text == ANSWER
    headers = server.requests[-1]["headers"]
    assert headers["x-api-key"] == KEY and "authorization" not in headers


def test_anthropic_prefill_and_stop_sequences(claude):
    prefill = [*USER, {"role": "assistant", "content": "The answer is ("}]
    reply = message(claude, "fake-ok", prefill)
    assert reply.content[0].text == ANSWER  # the continuation after the prefill
    assert reply.stop_reason == "end_turn"

    reply = message(claude, "fake-ok", prefill, stop_sequences=[")", "4"])
    assert reply.content[0].text == "answer to: What is 2+2? Choose (A"
    assert reply.stop_reason == "stop_sequence"
    assert reply.stop_sequence == ")"

    reply = message(claude, "fake-ok", stop_sequences=["2+2"])  # also without prefill
    assert reply.content[0].text == "answer to: What is "
    assert reply.stop_sequence == "2+2"


def test_anthropic_tools(claude):
    tools = [
        {"name": "get_weather", "description": "Weather", "input_schema": WEATHER_TOOL_SCHEMA},
        {"name": "other", "input_schema": {"type": "object", "properties": {}}},
    ]
    reply = message(claude, "fake-tools", tools=tools)
    assert reply.stop_reason == "tool_use"
    (block,) = reply.content
    assert isinstance(block, anthropic.types.ToolUseBlock)
    assert block.name == "get_weather"
    assert block.id.startswith("toolu_")
    assert block.input == {"city": "test", "days": 1, "unit": "celsius", "detailed": True}


def test_anthropic_length_empty_reasoning_think(claude):
    reply = message(claude, "fake-length")
    assert reply.stop_reason == "max_tokens"
    assert reply.content[0].text == "answer to: What"

    reply = message(claude, "fake-empty")
    assert [(b.type, b.text) for b in reply.content] == [("text", "")]
    assert reply.stop_reason == "end_turn"

    reply = message(claude, "fake-reasoning-only")
    (block,) = reply.content
    assert isinstance(block, anthropic.types.ThinkingBlock)
    assert block.thinking.startswith("Thinking about:")

    reply = message(claude, "fake-think", [{"role": "user", "content": "hello"}])
    assert reply.content[0].text == "<think>Thinking about: hello</think>answer to: hello"
    reply = message(claude, "fake-think-only", [{"role": "user", "content": "hello"}])
    assert reply.content[0].text == "<think>Thinking about: hello</think>"


def test_anthropic_prefill_400(claude):
    prefill = [*USER, {"role": "assistant", "content": "The answer is ("}]
    with pytest.raises(anthropic.BadRequestError) as info:
        message(claude, "fake-prefill-400", prefill)
    assert info.value.type == "invalid_request_error"
    assert info.value.api_message.startswith("This model does not support assistant message prefill")
    assert message(claude, "fake-prefill-400").content[0].text == ANSWER


def test_anthropic_wrong_key(server):
    client = anthropic.Anthropic(base_url=server.anthropic_base_url, api_key=WRONG_KEY, max_retries=0, timeout=3)
    with pytest.raises(anthropic.AuthenticationError) as info:
        message(client, "fake-ok")
    assert info.value.type == "authentication_error"
    assert WRONG_KEY not in info.value.response.text and WRONG_KEY not in str(info.value)


def test_anthropic_errors(server, claude):
    with pytest.raises(anthropic.NotFoundError) as info:
        message(claude, "claude-nope")
    assert info.value.type == "not_found_error"

    with pytest.raises(anthropic.InternalServerError) as info:
        message(claude, "fake-500")
    assert info.value.type == "api_error"

    with pytest.raises(anthropic.RateLimitError) as info:
        message(claude, "fake-429-once")
    assert info.value.type == "rate_limit_error"
    assert info.value.response.headers["retry-after"] == "1"

    with pytest.raises(json.JSONDecodeError):
        message(claude, "fake-malformed")

    with pytest.raises(anthropic.NotFoundError):
        claude.get("/v1/no/such/route", cast_to=object)

    assert server.stats == {404: 2, 500: 1, 429: 1, 200: 1}


def test_anthropic_429_once_is_retried(server, claude):
    started = time.monotonic()
    reply = message(claude.with_options(max_retries=1), "fake-429-once")
    assert reply.content[0].text == ANSWER
    assert 0.95 <= time.monotonic() - started < 5
    assert server.stats == {429: 1, 200: 1}


def test_anthropic_hang_times_out(server):
    client = anthropic.Anthropic(base_url=server.anthropic_base_url, api_key=KEY, max_retries=0, timeout=0.5)
    started = time.monotonic()
    with pytest.raises(anthropic.APITimeoutError):
        message(client, "fake-hang")
    assert time.monotonic() - started < 4  # well before hang_seconds


def test_anthropic_models_list(claude):
    assert [model.id for model in claude.models.list()] == list(MODELS)

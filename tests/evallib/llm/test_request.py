"""Request keys: canonical, sensitive to every answer-changing field, including the repeat index."""

import dataclasses

import pytest

from evallib.llm import ChatRequest, ChatResult, EmbeddingRequest

BASE = ChatRequest.single("m", "be brief", "hello", temperature=0.3, seed=7, max_tokens=350,
                          extra_body={"chat_template_kwargs": {"enable_thinking": False}})


def test_key_is_stable_and_a_sha256_hex_digest():
    again = ChatRequest.single("m", "be brief", "hello", temperature=0.3, seed=7, max_tokens=350,
                               extra_body={"chat_template_kwargs": {"enable_thinking": False}})
    assert BASE.key() == again.key()
    assert len(BASE.key()) == 64 and int(BASE.key(), 16) >= 0


@pytest.mark.parametrize("change", [
    {"model": "other"}, {"system": "be long"}, {"messages": (("user", "hello!"),)}, {"temperature": 0.0},
    {"max_tokens": 351}, {"seed": 8}, {"stop": ("}",)}, {"prefill": "{"},
    {"tools": ({"name": "f", "parameters": {"type": "object"}},)}, {"tool_choice": "f"},
    {"extra_body": {"chat_template_kwargs": {"enable_thinking": True}}}, {"repeat": 1},
])
def test_every_field_changes_the_key(change):
    assert dataclasses.replace(BASE, **change).key() != BASE.key()


def test_repeated_runs_are_distinct_requests():
    keys = {BASE.with_repeat(i).key() for i in range(5)}
    assert len(keys) == 5


def test_round_trip_through_a_dict_keeps_the_key():
    assert ChatRequest.from_dict(BASE.to_dict()).key() == BASE.key()
    embedding = EmbeddingRequest("e", ("a", "b"))
    assert EmbeddingRequest.from_dict(embedding.to_dict()).key() == embedding.key()
    assert embedding.key() != EmbeddingRequest("e", ("b", "a")).key()


def test_result_round_trip():
    result = ChatResult(request_key="k", text="hi", tool_calls=({"name": "f", "arguments": "{}"},),
                        finish_reason="stop", input_tokens=3, output_tokens=1, latency_s=0.5)
    assert ChatResult.from_dict(result.to_dict()) == result


def test_the_key_is_computed_once_and_a_replaced_request_gets_its_own():
    request = ChatRequest.single("m", "sys", "hello", temperature=0.3)
    first = request.key()
    assert request.__dict__["_key"] == first and request.key() == first
    other = request.with_repeat(1)
    assert other.key() != first
    assert other.key() == ChatRequest.single("m", "sys", "hello", temperature=0.3, repeat=1).key()
    assert request == ChatRequest.single("m", "sys", "hello", temperature=0.3)  # the memo is not a field
    assert "_key" not in request.to_dict()

"""The per-browser store: values and live answers kept in the room's database (SQLite and PostgreSQL)."""

import json
import threading

import pytest
from sqlalchemy import select

from evallib.llm.request import ChatResult, EmbeddingResult
from evallib.room.browser_state import BrowserStateStore, browser_answers, browser_values, plain_values

ANA = "a" * 64
BOB = "b" * 64


@pytest.fixture
def states(database_url):
    store = BrowserStateStore(database_url)
    yield store
    store.engine.dispose()


def test_values_are_kept_per_browser_and_replaced_as_a_whole(states, database_url):
    states.save_values(ANA, {"lang": "en", "llm_concurrency": 4, "persona_template": "Tu es {x}", "tags": ("a", "b")})
    states.save_values(BOB, {"lang": "fr"})
    again = BrowserStateStore(database_url)  # another process on the same database
    assert again.values(ANA) == {"lang": "en", "llm_concurrency": 4, "persona_template": "Tu es {x}",
                                 "tags": ["a", "b"]}
    states.save_values(ANA, {"lang": "fr"})
    assert again.values(ANA) == {"lang": "fr"} and again.values(BOB) == {"lang": "fr"}
    assert again.values("c" * 64) == {}
    again.engine.dispose()


def test_no_key_or_key_like_value_is_written(states):
    key = "sk-live-secret-1234"
    states.save_values(ANA, {"llm_api_key": key, "room_token": "t0k3n-value", "llm_model": "m",
                             "note": f"my key is {key}", "other_box": "hf_abcdefghij",
                             "llm_base_url": "http://user:pass@host/v1", "pasted": "mykey99"},
                       secrets=["mykey99"])
    with states.engine.connect() as conn:
        stored = conn.execute(select(browser_values.c.data)).scalar()
    assert json.loads(stored) == {"llm_model": "m"}
    for secret in (key, "t0k3n-value", "hf_abcdefghij", "user:pass", "mykey99"):
        assert secret not in stored


def test_only_plain_values_are_kept():
    table = {"assistants": [{"name": "A", "system_prompt": "Tu es A"}], "probes": ("p1", "p2")}
    assert plain_values({"n": 1.5, "b": True, "none": None, "l": [1, "x"], "obj": object(), "table": table,
                         "d": {1: "x"}, "deep": [[[[["x"]]]]], "in": [object()], "long": "x" * 30_000,
                         3: "not a str key"}) == {
        "n": 1.5, "b": True, "none": None, "l": [1, "x"],
        "table": {"assistants": [{"name": "A", "system_prompt": "Tu es A"}], "probes": ["p1", "p2"]}}
    assert plain_values({"table": {"rows": [{"prompt": "use sk-abcdef123"}]}}) == {}


def test_a_malformed_browser_key_is_refused(states):
    with pytest.raises(ValueError):
        states.values("not-a-key")


def test_answers_are_stored_once_per_slot_read_back_and_forgotten(states):
    first = ChatResult(request_key="r1", model="m", text="old", latency_s=0.2)
    states.add_answers(ANA, [("r1", "fp", first), ("r2", "fp", ChatResult(request_key="r2", model="m", text="b")),
                             ("e1", "fp", EmbeddingResult(request_key="e1", model="e", vectors=((0.5, 1.0),)))])
    states.add_answers(ANA, [("r1", "fp", ChatResult(request_key="r1", model="m", text="new"))])
    states.add_answers(BOB, [("r1", "fp", first)])
    answers = states.answers(ANA)
    assert set(answers) == {("r1", "fp"), ("r2", "fp"), ("e1", "fp")}
    assert answers[("r1", "fp")].text == "new" and answers[("e1", "fp")].vectors == ((0.5, 1.0),)
    assert answers[("r2", "fp")] == ChatResult(request_key="r2", model="m", text="b")
    states.forget_answers(ANA, [("r1", "fp"), ("e1", "fp")])
    assert set(states.answers(ANA)) == {("r2", "fp")} and set(states.answers(BOB)) == {("r1", "fp")}


def test_several_writers_lose_no_answer(states):
    def write(start):
        for i in range(start, start + 20):
            states.add_answers(ANA, [(f"r{i}", "fp", ChatResult(request_key=f"r{i}", text=str(i)))])

    threads = [threading.Thread(target=write, args=(n * 20,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(states.answers(ANA)) == 80
    with states.engine.connect() as conn:
        assert len(conn.execute(select(browser_answers.c.request_key)).all()) == 80

"""Shape checks of the default persona catalogue and of its authored example responses.

``packs/fr/personas.json`` is the default catalogue of the Persona audit page (six assistants, six
probes, a rewrite example for exercise 3); ``packs/fr/persona_authored_responses.json`` holds the
offline responses written for the demo: one per (assistant, probe) pair (variant "base") plus one
per probe for the rewritten assistant (variant "rewrite").
"""

import json
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[3] / "packs" / "fr"
ROLES = {"specialist", "control-paraphrase", "control-posture"}
MIN_WORDS, MAX_WORDS = 80, 320


@pytest.fixture(scope="module")
def personas():
    with open(DATA / "personas.json", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def responses():
    with open(DATA / "persona_authored_responses.json", encoding="utf-8") as f:
        return json.load(f)


def names_of(personas):
    return [a["name"] for a in personas["assistants"]]


def test_catalogue_has_six_assistants_with_unique_names_and_prompts(personas):
    assert personas["setting"].strip()
    names = names_of(personas)
    assert len(names) == 6
    assert len(set(names)) == len(names), f"duplicate names: {names}"
    for assistant in personas["assistants"]:
        assert assistant["name"].strip() and assistant["name"].isascii(), assistant["name"]
        assert assistant["role"] in ROLES, assistant
        assert assistant["system_prompt"].strip(), assistant["name"]


def test_catalogue_has_one_control_of_each_kind(personas):
    roles = Counter(a["role"] for a in personas["assistants"])
    assert roles == {"specialist": 4, "control-paraphrase": 1, "control-posture": 1}


def test_catalogue_has_six_distinct_non_empty_probes(personas):
    probes = personas["probes"]
    assert len(probes) == 6
    assert all(isinstance(p, str) and p.strip() for p in probes)
    assert len(set(probes)) == len(probes)


def test_rewrite_example_names_an_existing_assistant_with_a_new_prompt(personas):
    rewrite = personas["rewrite_example"]
    assert rewrite["assistant"] in names_of(personas)
    prompt = rewrite["system_prompt"].strip()
    assert prompt
    base = {a["name"]: a["system_prompt"] for a in personas["assistants"]}[rewrite["assistant"]]
    assert prompt != base.strip()


def test_every_base_pair_has_exactly_one_response(personas, responses):
    names = names_of(personas)
    base = Counter(
        (r["assistant"], r["probe_index"]) for r in responses if r["variant"] == "base"
    )
    expected = {(n, i) for n in names for i in range(len(personas["probes"]))}
    assert set(base) == expected
    assert all(count == 1 for count in base.values()), [k for k, c in base.items() if c != 1]


def test_rewrite_responses_cover_every_probe_once(personas, responses):
    rewritten = personas["rewrite_example"]["assistant"]
    rewrites = [r for r in responses if r["variant"] == "rewrite"]
    assert {r["assistant"] for r in rewrites} == {rewritten}
    assert sorted(r["probe_index"] for r in rewrites) == list(range(len(personas["probes"])))


def test_responses_are_well_formed(personas, responses):
    assert len(responses) == 6 * 6 + 6
    for r in responses:
        assert set(r) == {"assistant", "probe_index", "variant", "text"}, r.keys()
        assert r["variant"] in {"base", "rewrite"}
        assert r["assistant"] in names_of(personas)
        assert isinstance(r["probe_index"], int) and 0 <= r["probe_index"] < len(personas["probes"])


@pytest.mark.parametrize("index", range(42))
def test_response_text_is_non_empty_and_of_chat_length(responses, index):
    r = responses[index]
    words = len(r["text"].split())
    assert r["text"].strip()
    assert MIN_WORDS <= words <= MAX_WORDS, (r["assistant"], r["probe_index"], r["variant"], words)


def test_response_texts_are_all_different(responses):
    texts = [r["text"] for r in responses]
    assert len(set(texts)) == len(texts)

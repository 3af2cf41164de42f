import copy
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from evallib import persona
from evallib.persona import readings
from evallib.room.attempts import RoomAttemptError, validate_attempt
from evallib.room.persona_attempt import HELD_OUT_PROBE, build_persona_attempt, held_out_predictions, item_id
from evallib.text import tokenize
from tests.evallib.room.kinds import persona_responses


@pytest.fixture(scope="module")
def default():
    catalogue, responses = persona_responses()
    return catalogue, responses, build_persona_attempt(catalogue, responses, model="authored-examples",
                                                       source="offline")


def _visible(catalogue, responses):
    cells = [(a, i) for a in catalogue.names for i in range(len(catalogue.probes)) if i != HELD_OUT_PROBE]
    return (tuple(responses[c].text for c in cells), tuple(c[0] for c in cells), tuple(c[1] for c in cells))


def test_the_visible_figures_are_the_page_measure_on_the_visible_probes(default):
    catalogue, responses, attempt = default
    result = persona.discriminability(*_visible(catalogue, responses), classes=tuple(catalogue.names),
                                      n_probes=len(catalogue.probes))
    visible = attempt["figures"]["visible"]
    assert visible["accuracy"] == {"value": result.accuracy, "ci95": list(result.accuracy_interval),
                                   "n": result.n_responses, "k": result.n_correct, "unit": "probe"}
    assert visible["permutation_p"] == result.permutation_p_value and visible["permutations"] == 1000
    assert visible["null_mean"] == result.null_mean_accuracy and visible["chance"] == 1 / 6
    assert [r["code"] for r in attempt["readings"]] == [readings.discrimination(result).code,
                                                        readings.accuracy_interval(result).code]
    scored = [i for i in attempt["items"] if not i["held_out"]]
    assert sum(i["correct"] for i in scored) == result.n_correct and len(scored) == 30
    assert attempt["inputs"]["prompts"] == {a.name: a.system_prompt for a in catalogue.assistants}
    assert attempt["inputs"]["held_out_probe"] == HELD_OUT_PROBE == 5
    assert {i["answer"]["origin"] for i in attempt["items"]} == {"authored"}


def test_the_held_out_probe_never_enters_the_visible_figure(default):
    catalogue, responses, attempt = default
    changed = dict(responses)
    for name in catalogue.names:  # other words on the held-out probe only
        changed[(name, HELD_OUT_PROBE)] = SimpleNamespace(text="tout autre chose ici " + name, failed=False,
                                                         source="live", provenance="live", model="m")
    again = build_persona_attempt(catalogue, changed, model="m", source="live")
    assert again["figures"]["visible"] == attempt["figures"]["visible"]
    assert again["figures"]["held_out"] != attempt["figures"]["held_out"]
    held = [i for i in attempt["items"] if i["held_out"]]
    assert {i["probe"] for i in held} == {HELD_OUT_PROBE} and len(held) == 6
    assert attempt["figures"]["held_out"]["accuracy"]["k"] == sum(i["correct"] for i in held)


def test_held_out_predictions_match_scikit_learn_centroids(default):
    catalogue, responses, _ = default
    texts, labels, _ = _visible(catalogue, responses)
    held = [responses[(a, HELD_OUT_PROBE)].text for a in catalogue.names]
    vectorizer = TfidfVectorizer(tokenizer=tokenize, token_pattern=None, lowercase=False, smooth_idf=True, norm="l2")
    X = vectorizer.fit_transform(texts).toarray()
    H = vectorizer.transform(held).toarray()
    centroids = np.array([X[[lab == a for lab in labels]].mean(axis=0) for a in catalogue.names])
    cosines = H @ centroids.T / np.linalg.norm(centroids, axis=1)
    expected = [catalogue.names[j] for j in cosines.argmax(axis=1)]
    assert held_out_predictions(texts, labels, held, catalogue.names) == expected
    assert held_out_predictions(texts, labels, ["", "le la les"], catalogue.names) == [None, None]
    assert held_out_predictions(texts, labels, [], catalogue.names) == []


def test_failed_or_missing_answers_are_kept_unscored(default):
    catalogue, responses, _ = default
    partial = dict(responses)
    partial[("style", 0)] = SimpleNamespace(text="", failed=True, source="live", provenance="live", model="m")
    del partial[("pratique", HELD_OUT_PROBE)]
    attempt = build_persona_attempt(catalogue, partial, model="m", source="live", n_permutations=50)
    by_id = {i["id"]: i for i in attempt["items"]}
    assert len(by_id) == 36
    assert by_id[item_id("style", 0, catalogue.probes[0])]["correct"] is None
    missing = by_id[item_id("pratique", HELD_OUT_PROBE, catalogue.probes[HELD_OUT_PROBE])]
    assert missing["correct"] is None and missing["answer"]["source"] == "none"
    assert attempt["figures"]["visible"]["accuracy"]["n"] == 29
    assert attempt["figures"]["held_out"]["accuracy"]["n"] == 5


def test_no_held_out_probe_when_the_catalogue_is_short(default):
    catalogue, responses, _ = default
    attempt = build_persona_attempt(catalogue, responses, model="m", source="offline", held_out_probe=None,
                                    n_permutations=20)
    assert not any(i["held_out"] for i in attempt["items"])
    assert attempt["figures"]["held_out"]["accuracy"] == {"value": None, "ci95": None, "n": 0, "k": 0,
                                                          "unit": "probe"}
    assert attempt["figures"]["visible"]["accuracy"]["n"] == 36


def test_an_edited_probe_is_another_item():
    assert item_id("style", 0, "une question") != item_id("style", 0, "une autre question")
    assert item_id("style", 0, "une question").endswith("/style")


@pytest.mark.parametrize("mutate", [
    lambda a: a.update(unit="query"),
    lambda a: a["items"][0].update(expected="x"),
    lambda a: a["figures"]["visible"].pop("permutation_p"),
    lambda a: a.update(version=1),  # version 1 only knew trigger attempts
])
def test_a_malformed_persona_attempt_is_refused(default, mutate):
    attempt = copy.deepcopy(default[2])
    mutate(attempt)
    with pytest.raises(RoomAttemptError) as error:
        validate_attempt(attempt)
    assert error.value.code == "schema"


def test_a_key_in_a_system_prompt_is_refused(default):
    attempt = copy.deepcopy(default[2])
    attempt["inputs"]["prompts"]["style"] += " sk-abcdefghijklmnopqrstuvwx"
    with pytest.raises(RoomAttemptError) as error:
        validate_attempt(attempt)
    assert error.value.code == "contains_key"

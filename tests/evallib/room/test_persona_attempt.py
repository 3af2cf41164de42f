import copy
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from evallib import persona
from evallib.persona import readings
from evallib.room.attempts import RoomAttemptError, validate_attempt
from evallib.cluster_rates import ClusteredRate
from evallib.persona.catalogue import Catalogue
from evallib.room.persona_attempt import (HELD_OUT_PROBE, MIN_CHECK_PROBES, PLANNING_SPREAD, build_persona_attempt,
                                          held_out_predictions, held_out_probes, item_id)
from evallib.room.winners_curse import detectable_drop
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


def test_no_held_out_probe_when_none_is_asked(default):
    catalogue, responses, _ = default
    attempt = build_persona_attempt(catalogue, responses, model="m", source="offline", held_out=(),
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


@pytest.mark.parametrize("probes, held", [(0, ()), (1, ()), (5, ()), (6, (5,)), (10, (9,)), (14, (13,)),
                                          (15, tuple(range(10, 15))), (19, tuple(range(14, 19))),
                                          (20, tuple(range(15, 20))), (24, tuple(range(18, 24))),
                                          (40, tuple(range(30, 40)))])
def test_how_many_probes_are_held_out_depends_on_the_catalogue_size(probes, held):
    assert held_out_probes(probes) == held
    assert HELD_OUT_PROBE in held_out_probes(6)


def test_the_held_out_rule_keeps_twice_as_many_visible_and_never_a_check_of_fewer_than_five():
    for probes in range(0, 201):
        held = held_out_probes(probes)
        assert held == tuple(range(probes - len(held), probes))  # the last ones, by position
        if len(held) > 1:
            assert len(held) >= MIN_CHECK_PROBES and probes - len(held) >= 2 * len(held)
            assert len(held) == max(MIN_CHECK_PROBES, probes // 4)
        elif probes >= 6:  # a single probe only where five could not leave ten visible
            assert probes < 3 * MIN_CHECK_PROBES
    with pytest.raises(ValueError):
        held_out_probes(-1)


def test_the_figures_behind_the_rule():
    """The module docstring's figures: what h held-out probes detect at the planning spread, what luck
    lifts the best of 30 equal attempts on V visible probes, and the cluster interval of a few probes."""
    detectable = {h: detectable_drop(PLANNING_SPREAD, h) for h in (1, 2, 3, 4, 5, 10)}
    assert [round(detectable[h], 2) for h in (1, 2, 3, 4, 5, 10)] == [0.51, 0.36, 0.29, 0.25, 0.23, 0.16]
    z = np.random.default_rng(0).standard_normal((100_000, 30))
    lift = float((z.max(axis=1) - z.mean(axis=1)).mean())  # the best of 30 above their mean, in SDs
    luck = {v: lift * PLANNING_SPREAD / np.sqrt(v) for v in (2, 4, 5)}
    assert round(lift, 2) == 2.04 and [round(luck[v], 2) for v in (5, 4, 2)] == [0.19, 0.21, 0.29]
    assert detectable[2] > luck[4] and detectable[1] > luck[5]  # two of six, one of six: they check nothing
    one, two = ClusteredRate.of([(5, 6)]), ClusteredRate.of([(5, 6), (4, 6)])
    assert (round(one.low, 2), round(one.high, 2), round(two.low, 2), round(two.high, 2)) == (0.01, 1.0, 0.06, 1.0)
    five = ClusteredRate.of([(5, 6), (4, 6), (5, 6), (3, 6), (4, 6)])
    assert (round(five.low, 2), round(five.high, 2)) == (0.36, 0.93)


def test_a_large_catalogue_holds_out_five_probes_measured_per_probe(default):
    catalogue, responses, _ = default
    probes = tuple(f"{text} (variante {k})" for k in range(4) for text in catalogue.probes[:5])  # 20 probes
    large = Catalogue(catalogue.assistants, probes)
    answers = {(a, 5 * k + i): responses[(a, i)] for a in catalogue.names for k in range(4) for i in range(5)}
    attempt = build_persona_attempt(large, answers, model="m", source="offline", n_permutations=20)
    assert attempt["inputs"]["held_out_probes"] == [15, 16, 17, 18, 19] and attempt["inputs"]["held_out_probe"] == 15
    held = [i for i in attempt["items"] if i["held_out"]]
    assert {i["probe"] for i in held} == set(range(15, 20)) and len(held) == 5 * len(catalogue.names)
    figure = attempt["figures"]["held_out"]["accuracy"]
    per_probe = [(sum(i["correct"] for i in held if i["probe"] == p), sum(i["probe"] == p for i in held))
                 for p in range(15, 20)]
    expected = ClusteredRate.of(per_probe)  # one cluster per probe
    assert figure["value"] == pytest.approx(expected.value) and figure["ci95"] == pytest.approx([expected.low,
                                                                                                 expected.high])

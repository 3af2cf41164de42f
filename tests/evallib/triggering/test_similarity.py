"""The similarity baseline: decisions, the vectorised sweep against its reference loop, metrics agreement."""

import numpy as np
import pytest

from evallib.triggering.data import LabelledQuery, Skill, SkillCatalogue
from evallib.triggering.metrics import trigger_metrics
from evallib.triggering.similarity import (TABLE_THRESHOLDS, decide, expected_indices, routed_by_similarity,
                                           similarity_scores, threshold_sweep, threshold_sweep_reference)

FIELDS = ("accuracy", "precision", "recall", "false_activation_rate", "activations", "correct_activations",
          "false_activations")


def assert_same_sweep(a, b):
    for field in FIELDS:
        np.testing.assert_allclose(getattr(a, field), getattr(b, field), equal_nan=True, err_msg=field)


def test_decide_fires_the_best_skill_at_or_above_the_threshold_only():
    scores = np.array([[0.1, 0.3, 0.2], [0.2, 0.2, 0.0], [0.0, 0.0, 0.0], [0.05, 0.0, 0.01]])
    assert decide(scores, 0.2).tolist() == [1, 0, -1, -1]  # equality fires; a tie goes to the first skill
    assert decide(scores, 0.0).tolist() == [1, 0, -1, 0]  # a query sharing no word never fires


def test_a_query_copying_a_description_scores_highest_on_that_skill():
    catalogue = SkillCatalogue((Skill("leave", "solde de congés payés restants"),
                                Skill("expense", "note de frais avec tickets de caisse")))
    scores = similarity_scores(catalogue, ["tickets de caisse pour ma note de frais", "bonjour"])
    assert scores.shape == (2, 2) and scores[0].argmax() == 1 and scores[1].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("seed", range(5))
def test_vectorised_sweep_equals_the_reference_loop_on_random_scores(seed):
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random((60, 5)) * 0.5, 2)  # rounding makes ties between skills and thresholds
    scores[:5] = 0.0
    expected = rng.integers(-1, 5, size=60)
    thresholds = np.round(np.linspace(0, 0.6, 61), 2)
    assert_same_sweep(threshold_sweep(scores, expected, thresholds),
                      threshold_sweep_reference(scores, expected, thresholds))


def test_sweep_on_the_default_set_equals_the_loop_and_the_metrics(catalogue, queries):
    scores = similarity_scores(catalogue, queries)
    expected = expected_indices(queries, catalogue)
    sweep = threshold_sweep(scores, expected, TABLE_THRESHOLDS)
    assert_same_sweep(sweep, threshold_sweep_reference(scores, expected, TABLE_THRESHOLDS))
    for i, t in enumerate(TABLE_THRESHOLDS):
        m = trigger_metrics(routed_by_similarity(queries, catalogue, scores, t))
        assert m.accuracy.value == pytest.approx(sweep.accuracy[i])
        assert m.recall.value == pytest.approx(sweep.recall[i])
        assert m.false_activation_rate.value == pytest.approx(sweep.false_activation_rate[i])
        assert m.precision.value == pytest.approx(sweep.precision[i])


def test_undefined_rates_are_nan_in_the_sweep():
    sweep = threshold_sweep(np.array([[0.2, 0.1]]), np.array([-1]), [0.1, 0.5])
    assert np.isnan(sweep.recall).all() and np.isnan(sweep.precision[1])
    assert sweep.accuracy.tolist() == [0.0, 1.0] and sweep.false_activation_rate.tolist() == [1.0, 0.0]


def test_expected_indices(catalogue):
    queries = [LabelledQuery("a", "x", catalogue.names[2]), LabelledQuery("b", "y", None)]
    assert expected_indices(queries, catalogue).tolist() == [2, -1]

"""The similarity baseline on embeddings: cosine against scikit-learn, routing through the same table."""

import numpy as np
import pytest
from sklearn.metrics.pairwise import cosine_similarity

from evallib.triggering.data import LabelledQuery, Skill, SkillCatalogue
from evallib.triggering.similarity import baseline_table, embedding_scores, skill_texts


def test_embedding_scores_equal_scikit_learns_cosine_and_zero_vectors_score_zero():
    rng = np.random.default_rng(3)
    skills, queries = rng.normal(size=(4, 8)), rng.normal(size=(6, 8))
    queries[2] = 0.0
    scores = embedding_scores(skills, queries)
    assert scores.shape == (6, 4)
    np.testing.assert_allclose(scores, cosine_similarity(queries, skills), atol=1e-12)
    assert np.all(scores[2] == 0.0)


def test_embeddings_of_different_sizes_are_refused():
    with pytest.raises(ValueError, match="different shapes"):
        embedding_scores(np.ones((2, 3)), np.ones((2, 4)))


def test_the_table_routes_by_the_scores_it_is_given():
    catalogue = SkillCatalogue((Skill("a", "alpha"), Skill("b", "beta")))
    queries = (LabelledQuery("q1", "x", "a"), LabelledQuery("q2", "y", "b"), LabelledQuery("q3", "z", None))
    scores = np.array([[0.9, 0.1], [0.2, 0.7], [0.45, 0.4]])
    [(low, permissive), (high, strict)] = baseline_table(queries, catalogue, (0.4, 0.5), scores=scores)
    assert (low, permissive.accuracy.k, permissive.false_activations) == (0.4, 2, 1)
    assert (high, strict.accuracy.k, strict.false_activations) == (0.5, 3, 0)
    assert skill_texts(catalogue) == ["a alpha", "b beta"]

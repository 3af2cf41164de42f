"""A similarity baseline without a model: route each query to the skill whose description it resembles most.

Score: cosine between the TF-IDF vectors of the query and of each skill's name and description
(`evallib.text.tfidf_matrix`, fitted on descriptions and queries together, no label used). Decision at a
threshold t: the best-scoring skill if its score reaches t, else no skill; a query sharing no word
with any description (best score 0) never fires, whatever t. Ties between skills go to the first in
catalogue order (``numpy.argmax``).

`threshold_sweep` computes the four rates at every threshold at once: with the best score of each
query sorted, "how many queries fire at t" is a binary search, so a sweep over T thresholds costs
O((n + T) log n) instead of the n x T loop of `threshold_sweep_reference` (kept, readable, as the
tests' and the benchmark's reference).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evallib.text import tfidf_matrix
from evallib.triggering.data import LabelledQuery, SkillCatalogue
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision, TriggerMetrics, trigger_metrics

#: The four thresholds shown in the table. TF-IDF cosines between a one-line query and a paragraph
#: of description are small (the default set's best scores all stay below 0.4), so the four
#: points span that range: a permissive, two middle and a strict rule.
TABLE_THRESHOLDS = (0.05, 0.10, 0.15, 0.25)
#: Thresholds of the full sweep plot: 0 to 0.5 in steps of 0.0025 (no cosine of the default set reaches 0.5).
SWEEP_THRESHOLDS = tuple(np.round(np.linspace(0.0, 0.5, 201), 4))
#: The same for embedding cosines, which sit much higher (unrelated sentences often score 0.3 to 0.5
#: with sentence-embedding models): four points over the range where the decision changes, and a
#: sweep over all of [0, 1].
EMBEDDING_TABLE_THRESHOLDS = (0.3, 0.4, 0.5, 0.6)
EMBEDDING_SWEEP_THRESHOLDS = tuple(np.round(np.linspace(0.0, 1.0, 401), 4))


def similarity_scores(catalogue: SkillCatalogue, queries: Sequence[LabelledQuery | str]) -> np.ndarray:
    """Cosine of each query with each skill: an array of shape (n_queries, n_skills), values in [0, 1]."""
    texts = [q if isinstance(q, str) else q.query for q in queries]
    documents = skill_texts(catalogue) + texts
    X, _ = tfidf_matrix(documents)
    k = len(catalogue.skills)
    if X.shape[1] == 0:
        return np.zeros((len(texts), k))
    return (X[k:] @ X[:k].T).toarray()


def decide(scores: np.ndarray, threshold: float) -> np.ndarray:
    """Skill index per query (shape (n_queries,)), -1 where no skill fires at ``threshold``."""
    scores = np.asarray(scores, dtype=float)
    best = scores.argmax(axis=1)
    top = scores[np.arange(len(scores)), best]
    return np.where((top >= threshold) & (top > 0), best, -1)


def expected_indices(queries: Sequence[LabelledQuery], catalogue: SkillCatalogue) -> np.ndarray:
    """The expected skill of each query as its catalogue index, -1 for no skill."""
    index = {name: i for i, name in enumerate(catalogue.names)}
    return np.array([index[q.expected] if q.expected is not None else -1 for q in queries], dtype=int)


def routed_by_similarity(queries: Sequence[LabelledQuery], catalogue: SkillCatalogue, scores: np.ndarray,
                         threshold: float) -> list[RoutedDecision]:
    """The baseline's decisions at ``threshold`` as `RoutedDecision` rows (for `trigger_metrics`)."""
    names = catalogue.names
    return [RoutedDecision(q.id, q.query, q.expected, Decision("skill", names[d]) if d >= 0 else Decision("none"))
            for q, d in zip(queries, decide(scores, threshold))]


def baseline_table(queries: Sequence[LabelledQuery], catalogue: SkillCatalogue,
                   thresholds: Sequence[float] = TABLE_THRESHOLDS,
                   scores: np.ndarray | None = None) -> list[tuple[float, TriggerMetrics]]:
    """(threshold, metrics with intervals) of the baseline at each of ``thresholds`` (the page's table).

    ``scores`` (n_queries, n_skills) default to the TF-IDF `similarity_scores`; pass `embedding_scores`
    to route by embeddings instead.
    """
    scores = similarity_scores(catalogue, queries) if scores is None else scores
    return [(t, trigger_metrics(routed_by_similarity(queries, catalogue, scores, t))) for t in thresholds]


def skill_texts(catalogue: SkillCatalogue) -> list[str]:
    """The text of each skill that queries are compared with: its name and description."""
    return [f"{s.name} {s.description}" for s in catalogue.skills]


def embedding_scores(skill_vectors: np.ndarray, query_vectors: np.ndarray) -> np.ndarray:
    """Cosine of each query embedding with each skill embedding: shape (n_queries, n_skills), in [-1, 1].

    Args:
        skill_vectors: (n_skills, d) embeddings of `skill_texts`.
        query_vectors: (n_queries, d) embeddings of the queries, same model.

    Raises ValueError when the dimensions differ. A zero vector has cosine 0 with everything.
    """
    skills, queries = np.asarray(skill_vectors, dtype=float), np.asarray(query_vectors, dtype=float)
    if skills.ndim != 2 or queries.ndim != 2 or skills.shape[1] != queries.shape[1]:
        raise ValueError(f"embeddings of different shapes: skills {skills.shape}, queries {queries.shape}")

    def unit(x: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(x, axis=1, keepdims=True)
        return np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)

    return unit(queries) @ unit(skills).T


@dataclass(frozen=True)
class Sweep:
    """Rates at each threshold, arrays of shape (n_thresholds,); NaN where a rate is undefined.

    Undefined: precision when nothing fires, recall without positives, false activation rate
    without negatives.
    """

    thresholds: np.ndarray
    accuracy: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    false_activation_rate: np.ndarray
    activations: np.ndarray
    correct_activations: np.ndarray
    false_activations: np.ndarray


def _ratio(k: np.ndarray, n: np.ndarray | int) -> np.ndarray:
    n = np.broadcast_to(np.asarray(n, dtype=float), np.shape(k))
    return np.divide(k, n, out=np.full(np.shape(k), np.nan), where=n > 0)


def _sweep(thresholds: np.ndarray, fired: np.ndarray, correct: np.ndarray, false: np.ndarray,
           n: int, positives: int) -> Sweep:
    negatives = n - positives
    accuracy = _ratio(correct + negatives - false, n)
    return Sweep(thresholds, accuracy, _ratio(correct, fired), _ratio(correct, positives),
                 _ratio(false, negatives), fired, correct, false)


def threshold_sweep(scores: np.ndarray, expected: np.ndarray, thresholds: Sequence[float] = SWEEP_THRESHOLDS) -> Sweep:
    """The baseline's rates at every threshold, vectorised.

    Args:
        scores: (n_queries, n_skills) similarities.
        expected: (n_queries,) expected skill index, -1 for no skill.
        thresholds: (n_thresholds,) values of t.
    """
    scores, expected = np.asarray(scores, dtype=float), np.asarray(expected)
    t = np.asarray(thresholds, dtype=float)
    best = scores.argmax(axis=1)
    top = scores[np.arange(len(scores)), best]
    can_fire = top > 0
    negative = expected == -1

    def reaching(mask: np.ndarray) -> np.ndarray:
        values = np.sort(top[mask])
        return len(values) - np.searchsorted(values, t, side="left")

    return _sweep(t, reaching(can_fire), reaching(can_fire & (best == expected)), reaching(can_fire & negative),
                  len(expected), int((~negative).sum()))


def threshold_sweep_reference(scores: np.ndarray, expected: Sequence[int], thresholds: Sequence[float]) -> Sweep:
    """`threshold_sweep` as a first version would write it: for each threshold, for each query."""
    scores = np.asarray(scores, dtype=float).tolist()
    fired, correct, false = [], [], []
    for t in thresholds:
        n_fired = n_correct = n_false = 0
        for row, truth in zip(scores, expected):
            best = max(range(len(row)), key=row.__getitem__)
            if row[best] >= t and row[best] > 0:
                n_fired += 1
                n_correct += best == truth
                n_false += truth == -1
        fired.append(n_fired)
        correct.append(n_correct)
        false.append(n_false)
    positives = sum(truth != -1 for truth in expected)
    return _sweep(np.asarray(thresholds, dtype=float), np.array(fired), np.array(correct), np.array(false),
                  len(expected), positives)

"""Prompts are not responses: distances between assistants, and the two rankings of their pairs.

Shapes: k assistants; distance matrices are (k, k), symmetric, 0 on the diagonal; a pair is
(classes[i], classes[j]) with i < j, k(k-1)/2 of them. Source: the persona notebook (docs/persona.md#ranks).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from evallib.persona.classifier import PersonaDataError, check_rows, class_sums, encode_labels
from evallib.persona.permutation import DEFAULT_SEED, MANTEL_SAMPLED_PERMUTATIONS, MantelResult, mantel_test, ranks
from evallib.text import jaccard_matrix, l2_normalize_rows, tokenize, vocabulary


def vocabularies_by_class(
    texts: Sequence[str], labels: Sequence[Hashable], classes: Sequence[Hashable] | None = None
) -> list[set[str]]:
    """Vocabulary (see ``evallib.text.vocabulary``) of all the responses of each class, in order.

    Feed it to ``evallib.text.jaccard_matrix`` for the naive overlap heatmap.
    """
    if len(texts) != len(labels):
        raise PersonaDataError(f"{len(texts)} texts but {len(labels)} labels")
    codes, classes = encode_labels(labels, classes)
    return [vocabulary(t for t, code in zip(texts, codes) if code == c) for c in range(len(classes))]


def centroid_distances(
    X, labels: Sequence[Hashable], classes: Sequence[Hashable] | None = None
) -> np.ndarray:
    """Cosine distance between class centroids: (k, k), 1 - cos(centroid_a, centroid_b).

    Uses every response (no leave-one-out). In [0, 2]; 0 on the diagonal; a zero centroid
    (all responses empty) is at distance 1 from every other. Source: ``distance_reponses`` of
    the persona notebook (docs/persona.md#ranks).
    """
    codes, classes = encode_labels(labels, classes)
    check_rows(X, codes)
    centroids = l2_normalize_rows(class_sums(X, codes, len(classes)))
    distances = np.clip(1 - centroids @ centroids.T, 0.0, 2.0)
    np.fill_diagonal(distances, 0.0)
    return distances


def prompt_distances(prompts: Sequence[str]) -> np.ndarray:
    """Jaccard distance between the vocabularies of system prompts: (k, k), 1 - Jaccard index.

    In [0, 1], 0 on the diagonal. Source: ``distance_prompts`` of the persona notebook (docs/persona.md#ranks).
    """
    return 1 - jaccard_matrix([set(tokenize(prompt)) for prompt in prompts])


def pairwise(matrix: np.ndarray, classes: Sequence[Hashable]) -> tuple[list[tuple], np.ndarray]:
    """Upper triangle of a (k, k) matrix: pairs (classes[i], classes[j]) for i < j and the values."""
    i, j = np.triu_indices(len(classes), k=1)
    pairs = [(classes[a], classes[b]) for a, b in zip(i, j)]
    return pairs, np.asarray(matrix)[i, j]


@dataclass(frozen=True, eq=False)
class RankComparison:
    """Two rankings of the same pairs, and the Mantel test of their association.

    table: one row per pair (upper-triangle order) with columns a, b, d_prompts, d_responses,
        rank_prompts, rank_responses (1 = most distant; ties share the best rank), rank_shift
        (rank_responses - rank_prompts).
    n_changed: pairs whose rank differs; n_pairs: rows of the table.
    mantel: Spearman's rho of the two distances and its permutation p-value over assistant
        labels (see ``mantel_test``); nan with fewer than three pairs or a constant column.
    """

    table: pd.DataFrame
    n_changed: int
    n_pairs: int
    mantel: MantelResult

    @property
    def spearman_rho(self) -> float:
        return self.mantel.rho


def rank_comparison(
    d_prompts: np.ndarray,
    d_responses: np.ndarray,
    classes: Sequence[Hashable],
    *,
    n_permutations: int = MANTEL_SAMPLED_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
) -> RankComparison:
    """Compare the ranking of pairs by prompt distance with their ranking by response distance.

    d_prompts, d_responses: (k, k) distance matrices in ``classes`` order. Raises
    PersonaDataError when the shapes do not match ``classes`` or there is no pair. Sources:
    Spearman (1904), "The proof and measurement of association between two things"; Mantel
    (1967); the rank table of the persona notebook (docs/persona.md#ranks).
    """
    k = len(classes)
    d_prompts, d_responses = np.asarray(d_prompts, dtype=float), np.asarray(d_responses, dtype=float)
    if d_prompts.shape != (k, k) or d_responses.shape != (k, k):
        raise PersonaDataError(
            f"{k} assistants, prompt distances {d_prompts.shape}, response distances {d_responses.shape}"
        )
    if k < 2:
        raise PersonaDataError("no pair to rank: at least two assistants are needed")
    pairs, prompts = pairwise(d_prompts, classes)
    _, responses = pairwise(d_responses, classes)
    rank_prompts = ranks(-prompts, method="min").astype(int)
    rank_responses = ranks(-responses, method="min").astype(int)
    table = pd.DataFrame(
        {
            "a": [pair[0] for pair in pairs],
            "b": [pair[1] for pair in pairs],
            "d_prompts": prompts,
            "d_responses": responses,
            "rank_prompts": rank_prompts,
            "rank_responses": rank_responses,
            "rank_shift": rank_responses - rank_prompts,
        }
    )
    return RankComparison(
        table=table,
        n_changed=int(np.sum(rank_prompts != rank_responses)),
        n_pairs=len(pairs),
        mantel=mantel_test(d_prompts, d_responses, n_permutations=n_permutations, seed=seed),
    )

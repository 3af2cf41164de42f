"""Persona audit: do differently-prompted assistants really answer differently?

The protocol of the persona notebook (seed 000): every assistant answers the same ambiguous
probes; each response becomes a vector (TF-IDF, or an embedding); each response is then assigned to
the nearest assistant centroid computed WITHOUT that response (leave-one-out nearest centroid).
If an assistant's responses are recognised, it has a signature; if two assistants take each
other's responses (mutual confusion), they are one assistant with two labels.

Vocabulary and shapes used throughout:
    n     number of responses (rows of X), k number of assistants (classes), d vector dimension;
    labels[i] is the assistant that wrote response i, probe_indices[i] the probe it answers;
    classes is the order of the assistants (default: order of first appearance in labels).

Pure functions, no Streamlit. Bad data raise ``PersonaDataError`` (a ``ValueError``) with a
message a workshop participant can act on.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy import stats as scipy_stats

from evallib.stats import DEFAULT_CONFIDENCE, binomial_test_greater, wilson_interval
from evallib.text import (
    jaccard_matrix,
    l2_normalize_rows,
    squared_row_norms,
    tfidf_matrix,
    tokenize,
    vocabulary,
)

# Score of a class that has no centroid for a row (its only response is the held-out one): it
# can never be predicted for that row.
NO_CENTROID = -np.inf

# ||S_c - x_i||² is obtained as ||S_c||² - 2 x_i·S_c + ||x_i||²; when the true value is 0 (the
# other responses of the class are all empty) rounding leaves a residue of about 1e-16 times the
# terms. Below this fraction of the terms the held-out centroid is treated as the zero vector.
CANCELLATION_TOLERANCE = 1e-10

# 999 or 1000 permutations resolve p-values down to 0.001 (the smallest reachable is 1/(1 + n)).
DEFAULT_PERMUTATIONS = 1000
# Any fixed seed makes the permutation p-value reproducible; 7 is the notebook's sampling seed.
DEFAULT_SEED = 7

# Spearman's rho needs at least three pairs (k >= 3 assistants) to be defined.
MIN_PAIRS_FOR_SPEARMAN = 3


class PersonaDataError(ValueError):
    """The responses cannot be audited as given; the message says what to fix."""


# --------------------------------------------------------------------------------------------
# Labels and centroids


def encode_labels(
    labels: Sequence[Hashable], classes: Sequence[Hashable] | None = None
) -> tuple[np.ndarray, tuple]:
    """Integer codes of ``labels`` (shape (n,)) and the class order they refer to.

    ``classes`` defaults to the labels in order of first appearance. Raises PersonaDataError
    when a label is not among ``classes`` or ``classes`` repeats a name.
    """
    classes = tuple(dict.fromkeys(labels)) if classes is None else tuple(classes)
    index = {c: i for i, c in enumerate(classes)}
    if len(index) != len(classes):
        raise PersonaDataError(f"assistant names must be unique, got {list(classes)}")
    unknown = sorted({str(label) for label in labels if label not in index})
    if unknown:
        raise PersonaDataError(f"unknown assistant(s) {unknown}; expected one of {list(classes)}")
    return np.array([index[label] for label in labels], dtype=np.intp), classes


def class_sums(X, codes: np.ndarray, n_classes: int) -> np.ndarray:
    """Sum of the rows of each class: dense (k, d). X is (n, d), dense or scipy sparse."""
    n = len(codes)
    membership = sp.csr_matrix((np.ones(n), (codes, np.arange(n))), shape=(n_classes, n))
    return _dense(membership @ X)


def _dense(M) -> np.ndarray:
    return M.toarray() if sp.issparse(M) else np.asarray(M, dtype=float)


def leave_one_out_nearest_centroid(
    X, labels: Sequence[Hashable], *, classes: Sequence[Hashable] | None = None
) -> list:
    """Predict each row's class from the centroids of the OTHER rows (leave-one-out).

    X: (n, d) dense array or scipy sparse matrix, one response per row (TF-IDF rows, or
    l2-normalised embeddings). labels: (n,) true class of each row. Returns a list of n
    predicted labels.

    For row i of class c_i the score of class c is the cosine between x_i and the centroid of
    class c, where the centroid of c_i is computed without row i. A centroid is a mean, and a
    mean points the same way as the sum, so with S_c the sum of the rows of class c:

        other classes: cos = x_i · S_c / ||S_c||
        own class:     cos = x_i · (S_c - x_i) / ||S_c - x_i||,
                       x_i · (S_c - x_i) = x_i·S_c - ||x_i||²,
                       ||S_c - x_i||² = ||S_c||² - 2 x_i·S_c + ||x_i||²

    so all the scores come from one (n, k) matrix of dot products x_i·S_c: the class sums are
    computed once and the held-out row is subtracted algebraically, never rebuilt per row.

    Degenerate cases: a zero centroid (all its responses empty) scores 0; a class whose only
    member is row i has no centroid for row i and is excluded for that row (score -inf), as is
    a class of ``classes`` with no member at all. Ties go to the first class in ``classes``
    order (numpy argmax), e.g. an empty response (zero row) scores 0 everywhere.

    Raises PersonaDataError with fewer than two classes or when X and labels disagree in length.
    Source: the ``discriminabilite`` loop of the persona notebook (seed 000); see
    ``leave_one_out_reference`` for the plain per-row version.
    """
    codes, classes = encode_labels(labels, classes)
    _check_rows(X, codes)
    if len(classes) < 2:
        raise PersonaDataError(f"leave-one-out needs at least two assistants, got {list(classes)}")
    rows = np.arange(len(codes))
    sizes = np.bincount(codes, minlength=len(classes))

    # 1. One sum per class, computed once; cosine of every row with every full-class centroid.
    sums = class_sums(X, codes, len(classes))  # (k, d)
    dots = _dense(X @ sums.T)  # (n, k): x_i · S_c
    sum_norms = np.linalg.norm(sums, axis=1)  # (k,)
    cosines = _safe_divide(dots, sum_norms[None, :])

    # 2. Own class: the centroid without the held-out row points along S_c - x_i.
    own_sum_norm_sq = sum_norms[codes] ** 2
    own_dots = dots[rows, codes]
    row_norm_sq = squared_row_norms(X)
    held_out_dot = own_dots - row_norm_sq
    held_out_norm_sq = own_sum_norm_sq - 2 * own_dots + row_norm_sq
    rounding_floor = CANCELLATION_TOLERANCE * (own_sum_norm_sq + row_norm_sq)
    held_out_norm = np.sqrt(np.where(held_out_norm_sq > rounding_floor, held_out_norm_sq, 0.0))
    cosines[rows, codes] = _safe_divide(held_out_dot, held_out_norm)

    # 3. A class with no other member has no centroid for that row: it cannot be predicted.
    alone = sizes[codes] == 1
    cosines[rows[alone], codes[alone]] = NO_CENTROID
    cosines[:, sizes == 0] = NO_CENTROID

    # 4. Nearest centroid = highest cosine; argmax keeps the first class on ties.
    return [classes[c] for c in np.argmax(cosines, axis=1)]


def _safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (a zero centroid has cosine 0)."""
    numerator, denominator = np.broadcast_arrays(numerator, denominator)
    return np.divide(
        numerator, denominator, out=np.zeros(numerator.shape), where=denominator > 0
    )


def leave_one_out_reference(
    X, labels: Sequence[Hashable], *, classes: Sequence[Hashable] | None = None
) -> list:
    """Plain per-row leave-one-out nearest centroid: the oracle of the vectorised version.

    For every row, every centroid is recomputed from the member rows other than that row, as in
    the notebook (seed 000); O(n² k) work. Same conventions as
    ``leave_one_out_nearest_centroid`` (a class without other members is excluded, a zero
    centroid scores 0, ties go to the first class). Used by the tests and the benchmark.
    """
    codes, classes = encode_labels(labels, classes)
    X = _dense(X)
    predictions = []
    for i in range(len(X)):
        scores = []
        for c in range(len(classes)):
            members = [j for j in range(len(X)) if codes[j] == c and j != i]
            if not members:
                scores.append(NO_CENTROID)
                continue
            centroid = X[members].mean(axis=0)
            norm = np.linalg.norm(centroid)
            scores.append(float(centroid @ X[i]) / norm if norm > 0 else 0.0)
        predictions.append(classes[int(np.argmax(scores))])
    return predictions


# --------------------------------------------------------------------------------------------
# Reading the predictions


def confusion_matrix(
    true: Sequence[Hashable], pred: Sequence[Hashable], classes: Sequence[Hashable]
) -> np.ndarray:
    """Counts (k, k) of integers: ``conf[a, b]`` = responses of ``classes[a]`` predicted as ``classes[b]``.

    Rows are the true author, columns the predicted one; the diagonal holds the recognised
    responses. Same as ``sklearn.metrics.confusion_matrix(true, pred, labels=classes)``.
    Raises PersonaDataError when the lengths differ or a label is not in ``classes``.
    """
    if len(true) != len(pred):
        raise PersonaDataError(f"{len(true)} true labels but {len(pred)} predictions")
    true_codes, classes = encode_labels(true, classes)
    pred_codes, _ = encode_labels(pred, classes)
    conf = np.zeros((len(classes), len(classes)), dtype=int)
    np.add.at(conf, (true_codes, pred_codes), 1)
    return conf


class Recognition(NamedTuple):
    """Per-class recognition k/n: arrays of shape (k,). ``rate`` is nan for a class with no response."""

    correct: np.ndarray
    total: np.ndarray
    rate: np.ndarray


def recognition(conf: np.ndarray) -> Recognition:
    """Responses of each class recognised as that class: diagonal over row sums (recall per class).

    >>> recognition(np.array([[6, 0], [2, 4]])).rate
    array([1.        , 0.66666667])
    """
    conf = np.asarray(conf)
    correct = np.diag(conf).copy()
    total = conf.sum(axis=1)
    rate = np.divide(correct, total, out=np.full(len(total), np.nan), where=total > 0)
    return Recognition(correct, total, rate)


def accuracy(conf: np.ndarray) -> float:
    """Share of responses attributed to their true author: trace / total, in [0, 1].

    Raises PersonaDataError for an empty matrix (no response).
    """
    conf = np.asarray(conf)
    total = conf.sum()
    if total == 0:
        raise PersonaDataError("no response to score: the confusion matrix is empty")
    return float(np.trace(conf) / total)


class MutualConfusion(NamedTuple):
    """Two assistants that take each other's responses: the signature of redundancy."""

    a: Hashable
    b: Hashable
    a_as_b: int
    b_as_a: int

    @property
    def total(self) -> int:
        return self.a_as_b + self.b_as_a


def mutual_confusions(
    conf: np.ndarray, classes: Sequence[Hashable], *, min_count: int = 1
) -> list[MutualConfusion]:
    """Pairs (a, b) with a taken for b AND b taken for a, each at least ``min_count`` times.

    Sorted by total confusions (both directions), largest first, then by ``classes`` order.
    An empty list means no mutual confusion.
    """
    conf = np.asarray(conf)
    found = [
        MutualConfusion(classes[i], classes[j], int(conf[i, j]), int(conf[j, i]))
        for i in range(len(classes))
        for j in range(i + 1, len(classes))
        if conf[i, j] >= min_count and conf[j, i] >= min_count
    ]
    return sorted(found, key=lambda pair: -pair.total)


def most_confused_pair(
    conf: np.ndarray, classes: Sequence[Hashable]
) -> tuple[Hashable, Hashable, int] | None:
    """The pair (a, b, conf[a, b] + conf[b, a]) with the most confusions counting both directions.

    The candidate to merge or to re-specify (exercise 1 of the notebook). Ties go to the first
    pair in ``classes`` order; None when there is no off-diagonal count at all.

    >>> most_confused_pair(np.array([[6, 0, 0], [0, 0, 6], [1, 6, 0]]), ["a", "b", "c"])
    ('b', 'c', 12)
    """
    conf = np.asarray(conf)
    best = None
    for i in range(len(classes)):
        for j in range(i + 1, len(classes)):
            count = int(conf[i, j] + conf[j, i])
            if count > 0 and (best is None or count > best[2]):
                best = (classes[i], classes[j], count)
    return best


def accuracy_per_probe(
    probe_index: Sequence[int],
    true: Sequence[Hashable],
    pred: Sequence[Hashable],
    n_probes: int,
) -> list[float]:
    """Accuracy of the responses to each probe: a list of length ``n_probes`` (exercise 2).

    Entry p is the share of responses with ``probe_index == p`` whose prediction equals the
    true author; nan for a probe without responses. A probe that every assistant answers the
    same way scores low: it measures the constraint of the question, not the assistants.
    Raises PersonaDataError for mismatched lengths or a probe index outside [0, n_probes).
    """
    probes = _probe_array(probe_index, n_probes)
    if not len(probes) == len(true) == len(pred):
        raise PersonaDataError(
            f"{len(probes)} probe indices, {len(true)} true labels, {len(pred)} predictions"
        )
    correct = np.array([t == p for t, p in zip(true, pred)], dtype=float)
    hits = np.bincount(probes, weights=correct, minlength=n_probes)
    totals = np.bincount(probes, minlength=n_probes)
    rates = np.divide(hits, totals, out=np.full(n_probes, np.nan), where=totals > 0)
    return rates.tolist()


def _probe_array(probe_index: Sequence[int], n_probes: int | None) -> np.ndarray:
    """Probe indices as an int array, checked to be integers in [0, n_probes) (>= 0 if None)."""
    probes = np.asarray(probe_index)
    if len(probes) and not np.issubdtype(probes.dtype, np.integer):
        raise PersonaDataError(f"probe indices must be integers, got {probes.dtype}")
    probes = probes.astype(np.intp)
    if len(probes) and probes.min() < 0:
        raise PersonaDataError(f"probe indices must be 0 or more, got {int(probes.min())}")
    if n_probes is not None and len(probes) and probes.max() >= n_probes:
        raise PersonaDataError(
            f"probe index {int(probes.max())} is outside 0..{n_probes - 1} ({n_probes} probes)"
        )
    return probes


# --------------------------------------------------------------------------------------------
# Discriminability: the whole protocol


@dataclass(frozen=True, eq=False)
class DiscriminabilityResult:
    """Everything the page shows about leave-one-out discriminability.

    classes: assistant order of every array below (k names).
    labels, predictions, probe_indices: per response (n each).
    confusion: (k, k) counts, rows true author, columns predicted.
    n_correct / n_responses = accuracy; chance = 1/k.
    accuracy_interval: Wilson interval at ``confidence``.
    binomial_p_value: exact P(X >= n_correct), X ~ Binomial(n, chance). It treats the n
        predictions as independent trials, which leave-one-out only approximates; hence the
        permutation test beside it.
    permutation_p_value: (1 + #{permuted accuracy >= observed}) / (1 + n_permutations), None
        when n_permutations is 0; permutation_accuracies holds the null distribution.
    recognition: per-class k/n; mutual_confusions, most_confused_pair: see those functions.
    accuracy_per_probe: n_probes values (nan for a probe without responses).
    n_empty: responses with no vector (empty text, or only stop words): they score 0 against
        every centroid and go to the first eligible assistant.
    """

    classes: tuple
    labels: tuple
    predictions: tuple
    probe_indices: tuple
    confusion: np.ndarray
    n_correct: int
    n_responses: int
    accuracy: float
    chance: float
    confidence: float
    accuracy_interval: tuple[float, float]
    binomial_p_value: float
    permutation_p_value: float | None
    permutation_accuracies: np.ndarray
    permute_within_probes: bool
    seed: int
    recognition: Recognition
    mutual_confusions: tuple
    most_confused_pair: tuple | None
    accuracy_per_probe: tuple
    n_empty: int


def discriminability(
    texts: Sequence[str],
    labels: Sequence[Hashable],
    probe_indices: Sequence[int],
    *,
    classes: Sequence[Hashable] | None = None,
    n_probes: int | None = None,
    n_permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    permute_within_probes: bool = True,
) -> DiscriminabilityResult:
    """Leave-one-out discriminability of assistants from the TF-IDF vectors of their responses.

    texts, labels, probe_indices: one entry per response (n). Builds ``tfidf_matrix(texts)``
    and runs ``discriminability_from_vectors`` on it (see there for the options and errors).
    Raises PersonaDataError also when every response is empty (no vocabulary to compare).
    Source: the persona notebook (seed 000).
    """
    _check_lengths(len(texts), labels, probe_indices, what="texts")
    X, terms = tfidf_matrix(texts)
    if not terms:
        raise PersonaDataError(
            "all responses are empty (no word of three letters or more outside the stop words): "
            "there is no vocabulary to compare"
        )
    return discriminability_from_vectors(
        X, labels, probe_indices, classes=classes, n_probes=n_probes, normalize=False,
        n_permutations=n_permutations, seed=seed, confidence=confidence,
        permute_within_probes=permute_within_probes,
    )


def discriminability_from_vectors(
    X,
    labels: Sequence[Hashable],
    probe_indices: Sequence[int],
    *,
    classes: Sequence[Hashable] | None = None,
    n_probes: int | None = None,
    normalize: bool = True,
    n_permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    permute_within_probes: bool = True,
) -> DiscriminabilityResult:
    """Leave-one-out discriminability from precomputed vectors (TF-IDF rows or embeddings).

    X: (n, d) dense or sparse, one row per response. Rows are l2-normalised first when
    ``normalize`` (do it for embeddings, so that no response weighs more in its centroid
    because its vector is longer). ``n_probes`` defaults to max(probe_indices) + 1.

    Permutation test: the labels are shuffled ``n_permutations`` times with
    ``numpy.random.default_rng(seed)`` and the leave-one-out accuracy is recomputed each time;
    p = (1 + #{permuted n_correct >= observed n_correct}) / (1 + n_permutations) (Phipson &
    Smyth 2010: never 0). With ``permute_within_probes`` (default) labels are shuffled only
    among the responses to the same probe, which keeps the design (each assistant answers each
    probe once) and makes the test exact when probes differ from one another; with False they
    are shuffled among all responses. Class sizes are kept either way.

    Why it matters: holding out assistant a's answer to probe p removes probe p from a's
    centroid while every other centroid keeps its own answer to p. When the words of the probe
    dominate the responses, this pulls each response away from its author and the accuracy
    can fall BELOW chance 1/k. The within-probe null has the same handicap; the binomial
    p-value against 1/k does not, which is why both are reported.

    Raises PersonaDataError for mismatched lengths, fewer than two assistants, an assistant
    with fewer than two responses (leave-one-out cannot score it), all-zero vectors,
    non-finite values, or probe indices that are not integers in [0, n_probes).
    """
    n_rows = X.shape[0]
    _check_lengths(n_rows, labels, probe_indices, what="vectors")
    codes, classes = encode_labels(labels, classes)
    _check_classes(codes, classes)
    probes = _probe_array(probe_indices, n_probes)
    n_probes = int(probes.max()) + 1 if n_probes is None else n_probes
    X = _checked_vectors(X)
    if normalize:
        X = l2_normalize_rows(X)

    predictions = leave_one_out_nearest_centroid(X, labels, classes=classes)
    conf = confusion_matrix(labels, predictions, classes)
    n_correct = int(np.trace(conf))
    chance = 1 / len(classes)
    null_correct = _permutation_null(
        X, codes, len(classes), probes, n_permutations, seed, permute_within_probes
    )
    return DiscriminabilityResult(
        classes=classes,
        labels=tuple(labels),
        predictions=tuple(predictions),
        probe_indices=tuple(int(p) for p in probes),
        confusion=conf,
        n_correct=n_correct,
        n_responses=n_rows,
        accuracy=n_correct / n_rows,
        chance=chance,
        confidence=confidence,
        accuracy_interval=wilson_interval(n_correct, n_rows, confidence),
        binomial_p_value=binomial_test_greater(n_correct, n_rows, chance),
        permutation_p_value=permutation_p_value(n_correct, null_correct),
        permutation_accuracies=null_correct / n_rows,
        permute_within_probes=permute_within_probes,
        seed=seed,
        recognition=recognition(conf),
        mutual_confusions=tuple(mutual_confusions(conf, classes)),
        most_confused_pair=most_confused_pair(conf, classes),
        accuracy_per_probe=tuple(accuracy_per_probe(probes, labels, predictions, n_probes)),
        n_empty=int(np.sum(squared_row_norms(X) == 0)),
    )


def permutation_p_value(observed: int, null: np.ndarray) -> float | None:
    """(1 + #{null >= observed}) / (1 + len(null)); None when there is no permutation.

    Counting the observed labelling among the permutations keeps the p-value above 0 and the
    test valid (Phipson & Smyth 2010, "Permutation p-values should never be zero").
    """
    if len(null) == 0:
        return None
    return float((1 + np.sum(null >= observed)) / (1 + len(null)))


def _permutation_null(
    X,
    codes: np.ndarray,
    n_classes: int,
    probes: np.ndarray,
    n_permutations: int,
    seed: int,
    within_probes: bool,
) -> np.ndarray:
    """Leave-one-out n_correct under ``n_permutations`` label shuffles; int array (n_permutations,)."""
    if n_permutations < 0:
        raise PersonaDataError(f"n_permutations must be 0 or more, got {n_permutations}")
    rng = np.random.default_rng(seed)
    groups = [np.flatnonzero(probes == p) for p in np.unique(probes)] if within_probes else [
        np.arange(len(codes))
    ]
    class_ids = tuple(range(n_classes))
    null = np.empty(n_permutations, dtype=int)
    for b in range(n_permutations):
        shuffled = codes.copy()
        for group in groups:
            shuffled[group] = rng.permutation(codes[group])
        predicted = leave_one_out_nearest_centroid(X, shuffled, classes=class_ids)
        null[b] = int(np.sum(np.asarray(predicted) == shuffled))
    return null


def _check_lengths(n_rows: int, labels: Sequence, probe_indices: Sequence, *, what: str) -> None:
    if not n_rows == len(labels) == len(probe_indices):
        raise PersonaDataError(
            f"mismatched lengths: {n_rows} {what}, {len(labels)} labels, "
            f"{len(probe_indices)} probe indices (one of each per response)"
        )


def _check_classes(codes: np.ndarray, classes: tuple) -> None:
    if len(classes) < 2:
        raise PersonaDataError(
            f"discriminability needs at least two assistants, got {len(classes)}: {list(classes)}"
        )
    sizes = np.bincount(codes, minlength=len(classes))
    too_few = [f"{classes[c]!s} ({sizes[c]})" for c in np.flatnonzero(sizes < 2)]
    if too_few:
        raise PersonaDataError(
            "leave-one-out needs at least two responses per assistant (one is held out, the "
            f"others make its centroid); too few for: {', '.join(too_few)}"
        )


def _checked_vectors(X):
    values = X.data if sp.issparse(X) else np.asarray(X, dtype=float)
    if not np.all(np.isfinite(values)):
        raise PersonaDataError("the vectors contain NaN or infinite values")
    if not np.any(squared_row_norms(X) > 0):
        raise PersonaDataError("all responses are empty: every vector is zero")
    return X if sp.issparse(X) else values


# --------------------------------------------------------------------------------------------
# Prompts are not responses


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
    the persona notebook (seed 000).
    """
    codes, classes = encode_labels(labels, classes)
    _check_rows(X, codes)
    centroids = l2_normalize_rows(class_sums(X, codes, len(classes)))
    distances = np.clip(1 - centroids @ centroids.T, 0.0, 2.0)
    np.fill_diagonal(distances, 0.0)
    return distances


def prompt_distances(prompts: Sequence[str]) -> np.ndarray:
    """Jaccard distance between the vocabularies of system prompts: (k, k), 1 - Jaccard index.

    In [0, 1], 0 on the diagonal. Source: ``distance_prompts`` of the persona notebook (seed 000).
    """
    return 1 - jaccard_matrix([set(tokenize(prompt)) for prompt in prompts])


def pairwise(matrix: np.ndarray, classes: Sequence[Hashable]) -> tuple[list[tuple], np.ndarray]:
    """Upper triangle of a (k, k) matrix: pairs (classes[i], classes[j]) for i < j and the values."""
    i, j = np.triu_indices(len(classes), k=1)
    pairs = [(classes[a], classes[b]) for a, b in zip(i, j)]
    return pairs, np.asarray(matrix)[i, j]


@dataclass(frozen=True, eq=False)
class RankComparison:
    """Two rankings of the same pairs.

    table: one row per pair (input order) with columns a, b, d_prompts, d_responses,
        rank_prompts, rank_responses (1 = most distant; ties share the best rank), rank_shift
        (rank_responses - rank_prompts).
    n_changed: pairs whose rank differs; n_pairs: rows of the table.
    spearman_rho, spearman_p_value: scipy.stats.spearmanr of the two distance columns (average
        ranks for ties); nan with fewer than MIN_PAIRS_FOR_SPEARMAN pairs or a constant column.
    """

    table: pd.DataFrame
    n_changed: int
    n_pairs: int
    spearman_rho: float
    spearman_p_value: float


def rank_comparison(
    pairs: Sequence[tuple], d_prompts: Sequence[float], d_responses: Sequence[float]
) -> RankComparison:
    """Compare the ranking of pairs by prompt distance with their ranking by response distance.

    pairs, d_prompts, d_responses: one entry per pair (e.g. from ``pairwise``). Raises
    PersonaDataError when the lengths differ or there is no pair. Source: Spearman (1904),
    "The proof and measurement of association between two things"; the rank table of the
    persona notebook (seed 000).
    """
    d_prompts = np.asarray(d_prompts, dtype=float)
    d_responses = np.asarray(d_responses, dtype=float)
    if not len(pairs) == len(d_prompts) == len(d_responses):
        raise PersonaDataError(
            f"{len(pairs)} pairs, {len(d_prompts)} prompt distances, "
            f"{len(d_responses)} response distances"
        )
    if not pairs:
        raise PersonaDataError("no pair to rank: at least two assistants are needed")
    rank_prompts = scipy_stats.rankdata(-d_prompts, method="min").astype(int)
    rank_responses = scipy_stats.rankdata(-d_responses, method="min").astype(int)
    table = pd.DataFrame(
        {
            "a": [pair[0] for pair in pairs],
            "b": [pair[1] for pair in pairs],
            "d_prompts": d_prompts,
            "d_responses": d_responses,
            "rank_prompts": rank_prompts,
            "rank_responses": rank_responses,
            "rank_shift": rank_responses - rank_prompts,
        }
    )
    rho, p_value = _spearman(d_prompts, d_responses)
    return RankComparison(
        table=table,
        n_changed=int(np.sum(rank_prompts != rank_responses)),
        n_pairs=len(pairs),
        spearman_rho=rho,
        spearman_p_value=p_value,
    )


def _spearman(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    constant = np.ptp(x) == 0 or np.ptp(y) == 0
    if len(x) < MIN_PAIRS_FOR_SPEARMAN or constant:
        return float("nan"), float("nan")
    result = scipy_stats.spearmanr(x, y)
    return float(result.statistic), float(result.pvalue)


def _check_rows(X, codes: np.ndarray) -> None:
    if X.shape[0] != len(codes):
        raise PersonaDataError(f"{X.shape[0]} vectors but {len(codes)} labels")

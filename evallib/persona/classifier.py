"""The leave-one-out nearest-centroid classifier of the persona audit, and how its predictions read.

Shapes used throughout: n responses (rows of X), k assistants (classes), d vector dimension;
labels[i] is the assistant that wrote response i; classes is the order of the assistants (default:
order of first appearance in labels). A prediction is an assistant name, or None when the
classifier cannot decide (an empty response, or several centroids tied at the best score): such a
response has no prediction and counts as an error. Source: the course material's persona notebook (docs/persona.md#loo).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from evallib.errors import InputError
from evallib.text import squared_row_norms

# Score of a class that has no centroid for a row (its only response is the held-out one): it
# can never be predicted for that row.
NO_CENTROID = -np.inf

# ||S_c - x_i||² is obtained as ||S_c||² - 2 x_i·S_c + ||x_i||²; when the true value is 0 (the
# other responses of the class are all empty) rounding leaves a residue of about 1e-16 times the
# terms. Below this fraction of the terms the held-out centroid is treated as the zero vector.
CANCELLATION_TOLERANCE = 1e-10

# Two cosines closer than this are a tie. Cosines lie in [-1, 1] and the algebraic held-out
# centroid differs from a recomputed one by about 1e-15; identical answers must tie, not be
# separated by rounding (which would read as a finding).
TIE_TOLERANCE = 1e-9

# Integer code of "no prediction" in the vectorised internals.
UNDECIDED = -1


class PersonaDataError(InputError):
    """The responses cannot be audited as given; the message says what to fix.

    ``code`` names the problem for a UI (``"all_empty"``, ``"too_few_responses"``, ``"invalid"``).
    """

    def __init__(self, message: str, code: str = "invalid", **details: object) -> None:
        super().__init__(code, message, **details)


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
    return dense(membership @ X)


def dense(M) -> np.ndarray:
    """A dense float array of a dense or scipy sparse matrix."""
    return M.toarray() if sp.issparse(M) else np.asarray(M, dtype=float)


def leave_one_out_nearest_centroid(
    X, labels: Sequence[Hashable], *, classes: Sequence[Hashable] | None = None
) -> list:
    """Predict each row's class from the centroids of the OTHER rows (leave-one-out).

    X: (n, d) dense array or scipy sparse matrix, one response per row (TF-IDF rows, or
    l2-normalised embeddings). labels: (n,) true class of each row. Returns a list of n
    predicted labels, None where no class can be chosen.

    For row i of class c_i the score of class c is the cosine between x_i and the centroid of
    class c, where the centroid of c_i is computed without row i. A centroid is a mean, and a
    mean points the same way as the sum, so with S_c the sum of the rows of class c:

        other classes: cos = x_i · S_c / ||S_c||
        own class:     cos = x_i · (S_c - x_i) / ||S_c - x_i||,
                       x_i · (S_c - x_i) = x_i·S_c - ||x_i||²,
                       ||S_c - x_i||² = ||S_c||² - 2 x_i·S_c + ||x_i||²

    so all the scores come from one (n, k) matrix of dot products x_i·S_c: the class sums are
    computed once and the held-out row is subtracted algebraically, never rebuilt per row.

    No prediction (None): an empty row (no vector to compare), a row whose best score is shared
    by two or more classes within TIE_TOLERANCE (identical answers tie), or a row with no
    eligible class. A zero centroid scores 0; a class whose only member is row i has no centroid
    for row i and is excluded for that row, as is a class of ``classes`` with no member.

    Raises PersonaDataError with fewer than two classes or when X and labels disagree in length.
    Source: the ``discriminabilite`` loop of the persona notebook (docs/persona.md#loo); see
    ``leave_one_out_reference`` for the plain per-row version.
    """
    codes, classes = encode_labels(labels, classes)
    if len(classes) < 2:
        raise PersonaDataError(f"leave-one-out needs at least two assistants, got {list(classes)}")
    predicted = predict_codes(X, codes, len(classes))
    return [classes[c] if c != UNDECIDED else None for c in predicted]


def predict_codes(X, codes: np.ndarray, n_classes: int) -> np.ndarray:
    """Leave-one-out predictions as class codes, UNDECIDED (-1) where none: int array (n,)."""
    check_rows(X, codes)
    rows = np.arange(len(codes))
    sizes = np.bincount(codes, minlength=n_classes)

    # 1. One sum per class, computed once; cosine of every row with every full-class centroid.
    sums = class_sums(X, codes, n_classes)  # (k, d)
    dots = dense(X @ sums.T)  # (n, k): x_i · S_c
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

    # 4. Nearest centroid = highest cosine, unless the row is empty or the best score is tied.
    return decide(cosines, row_norm_sq == 0)


def decide(scores: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Index of the best score of each row (n, k), UNDECIDED for empty rows, ties and no candidate."""
    best = scores.max(axis=1)
    n_best = np.sum(scores >= best[:, None] - TIE_TOLERANCE, axis=1)
    undecided = empty | (n_best > 1) | ~np.isfinite(best)
    return np.where(undecided, UNDECIDED, np.argmax(scores, axis=1))


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
    the notebook (docs/persona.md#loo); O(n² k) work. Same conventions as
    ``leave_one_out_nearest_centroid`` (None for an empty row, a tie or no eligible class).
    Used by the tests and the benchmark.
    """
    codes, classes = encode_labels(labels, classes)
    X = dense(X)
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
        best = max(scores)
        tied = [c for c, score in enumerate(scores) if score >= best - TIE_TOLERANCE]
        empty = not np.any(X[i])
        predictions.append(None if empty or len(tied) > 1 or best == NO_CENTROID else classes[tied[0]])
    return predictions


def check_rows(X, codes: np.ndarray) -> None:
    """Raise PersonaDataError when X has not one row per label."""
    if X.shape[0] != len(codes):
        raise PersonaDataError(f"{X.shape[0]} vectors but {len(codes)} labels")


# --------------------------------------------------------------------------------------------
# Reading the predictions


def confusion_matrix(
    true: Sequence[Hashable], pred: Sequence[Hashable | None], classes: Sequence[Hashable]
) -> np.ndarray:
    """Counts (k, k) of integers: ``conf[a, b]`` = responses of ``classes[a]`` predicted as ``classes[b]``.

    Rows are the true author, columns the predicted one; the diagonal holds the recognised
    responses. Responses without a prediction (None) are in no cell: see ``undecided_counts``.
    Same as ``sklearn.metrics.confusion_matrix(true, pred, labels=classes)`` when every response
    has a prediction. Raises PersonaDataError when the lengths differ or a label is not in
    ``classes``.
    """
    if len(true) != len(pred):
        raise PersonaDataError(f"{len(true)} true labels but {len(pred)} predictions")
    decided = [i for i, p in enumerate(pred) if p is not None]
    true_codes, classes = encode_labels([true[i] for i in decided], classes)
    pred_codes, _ = encode_labels([pred[i] for i in decided], classes)
    conf = np.zeros((len(classes), len(classes)), dtype=int)
    np.add.at(conf, (true_codes, pred_codes), 1)
    return conf


def undecided_counts(
    true: Sequence[Hashable], pred: Sequence[Hashable | None], classes: Sequence[Hashable]
) -> np.ndarray:
    """Responses of each class that got no prediction: int array (k,)."""
    codes, classes = encode_labels([t for t, p in zip(true, pred) if p is None], classes)
    return np.bincount(codes, minlength=len(classes)).astype(int)


class Recognition(NamedTuple):
    """Per-class recognition k/n: arrays of shape (k,). ``rate`` is nan for a class with no response."""

    correct: np.ndarray
    total: np.ndarray
    rate: np.ndarray


def recognition(conf: np.ndarray, undecided: np.ndarray | None = None) -> Recognition:
    """Responses of each class recognised as that class: diagonal over all its responses (recall).

    ``undecided`` (k,) adds each class's responses without a prediction to its total.

    >>> recognition(np.array([[6, 0], [2, 4]])).rate
    array([1.        , 0.66666667])
    >>> recognition(np.array([[5, 0], [2, 4]]), np.array([1, 0])).total
    array([6, 6])
    """
    conf = np.asarray(conf)
    correct = np.diag(conf).copy()
    total = conf.sum(axis=1) + (0 if undecided is None else np.asarray(undecided))
    rate = np.divide(correct, total, out=np.full(len(total), np.nan), where=total > 0)
    return Recognition(correct, total, rate)


def accuracy(conf: np.ndarray, n_undecided: int = 0) -> float:
    """Share of responses attributed to their true author: trace / (total + undecided), in [0, 1].

    Raises PersonaDataError when there is no response at all.
    """
    conf = np.asarray(conf)
    total = conf.sum() + n_undecided
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


def most_confused_pairs(conf: np.ndarray, classes: Sequence[Hashable]) -> list[tuple[Hashable, Hashable, int]]:
    """Every pair (a, b, conf[a, b] + conf[b, a]) that shares the largest count of confusions.

    Both directions counted; the candidates to merge or to re-specify (exercise 1 of the
    notebook). Several pairs when they tie (never one picked by order); [] when there is no
    off-diagonal count at all.

    >>> most_confused_pairs(np.array([[6, 0, 0], [0, 0, 6], [1, 6, 0]]), ["a", "b", "c"])
    [('b', 'c', 12)]
    >>> most_confused_pairs(np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]), ["a", "b", "c"])
    [('a', 'b', 2), ('a', 'c', 2)]
    """
    conf = np.asarray(conf)
    counts = [(classes[i], classes[j], int(conf[i, j] + conf[j, i]))
              for i in range(len(classes)) for j in range(i + 1, len(classes))]
    top = max((c for _, _, c in counts), default=0)
    return [pair for pair in counts if pair[2] == top] if top > 0 else []


def accuracy_per_probe(
    probe_index: Sequence[int],
    true: Sequence[Hashable],
    pred: Sequence[Hashable | None],
    n_probes: int,
) -> list[float]:
    """Accuracy of the responses to each probe: a list of length ``n_probes`` (exercise 2).

    Entry p is the share of responses with ``probe_index == p`` whose prediction equals the
    true author (no prediction counts as an error); nan for a probe without responses. A probe
    that every assistant answers the same way scores low: it measures the constraint of the
    question, not the assistants. Raises PersonaDataError for mismatched lengths or a probe
    index outside [0, n_probes).
    """
    probes = probe_array(probe_index, n_probes)
    if not len(probes) == len(true) == len(pred):
        raise PersonaDataError(
            f"{len(probes)} probe indices, {len(true)} true labels, {len(pred)} predictions"
        )
    correct = np.array([t == p for t, p in zip(true, pred)], dtype=float)
    hits = np.bincount(probes, weights=correct, minlength=n_probes)
    totals = np.bincount(probes, minlength=n_probes)
    rates = np.divide(hits, totals, out=np.full(n_probes, np.nan), where=totals > 0)
    return rates.tolist()


def probe_array(probe_index: Sequence[int], n_probes: int | None) -> np.ndarray:
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

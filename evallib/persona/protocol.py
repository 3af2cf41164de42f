"""Persona audit: do differently-prompted assistants really answer differently?

The protocol of the persona notebook (docs/persona.md#protocol): every assistant answers the same ambiguous
probes; each response becomes a vector (TF-IDF, or an embedding); each response is then assigned to
the nearest assistant centroid computed WITHOUT that response (leave-one-out nearest centroid).
If an assistant's responses are recognised, it has a signature; if two assistants take each
other's responses (mutual confusion), they are one assistant with two labels.

This module runs the whole protocol (``discriminability``, ``audit``); its parts live in
``classifier`` (the leave-one-out classifier and the confusion matrix),
``permutation`` (permutation null, bootstrap over probes, Mantel test) and
``distances`` (prompt and response distances, rank comparison). Their public names are
importable from here. Readings of the results are in ``readings``.

Vocabulary and shapes used throughout:
    n     number of responses (rows of X), k number of assistants (classes), d vector dimension;
    labels[i] is the assistant that wrote response i, probe_indices[i] the probe it answers;
    classes is the order of the assistants (default: order of first appearance in labels).

Pure functions, no Streamlit. Bad data raise ``PersonaDataError`` (an ``InputError``) with a
message a workshop participant can act on and a ``code`` a UI can translate.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from evallib.persona.classifier import (
    NO_CENTROID,
    TIE_TOLERANCE,
    MutualConfusion,
    PersonaDataError,
    Recognition,
    accuracy,
    accuracy_per_probe,
    class_sums,
    confusion_matrix,
    encode_labels,
    leave_one_out_nearest_centroid,
    leave_one_out_reference,
    most_confused_pairs,
    mutual_confusions,
    probe_array,
    recognition,
    undecided_counts,
)
from evallib.persona.distances import (
    RankComparison,
    centroid_distances,
    pairwise,
    prompt_distances,
    rank_comparison,
    vocabularies_by_class,
)
from evallib.persona.permutation import (
    DEFAULT_BOOTSTRAP_RESAMPLES,
    DEFAULT_CONFIDENCE,
    DEFAULT_PERMUTATIONS,
    DEFAULT_SEED,
    MantelResult,
    mantel_test,
    permutation_null,
    permutation_p_value,
    probe_bootstrap_interval,
    ranks,
)
from evallib.text import jaccard_matrix, l2_normalize_rows, squared_row_norms, tfidf_matrix

__all__ = [
    "NO_CENTROID", "TIE_TOLERANCE", "DEFAULT_BOOTSTRAP_RESAMPLES", "DEFAULT_PERMUTATIONS", "DEFAULT_SEED",
    "DiscriminabilityResult", "MantelResult", "MutualConfusion", "PersonaAudit", "PersonaDataError",
    "RankComparison", "Recognition", "accuracy", "accuracy_per_probe", "audit", "centroid_distances",
    "class_sums", "confusion_matrix", "discriminability", "discriminability_from_vectors", "encode_labels",
    "leave_one_out_nearest_centroid", "leave_one_out_reference", "mantel_test", "most_confused_pairs",
    "mutual_confusions", "pairwise", "permutation_p_value", "probe_bootstrap_interval", "prompt_distances",
    "rank_comparison", "ranks", "recognition", "undecided_counts", "vocabularies_by_class",
]


@dataclass(frozen=True, eq=False)
class DiscriminabilityResult:
    """Everything the page shows about leave-one-out discriminability.

    classes: assistant order of every array below (k names).
    labels, predictions, probe_indices: per response (n each); a prediction is None when the
        classifier could not decide (empty response, or tied centroids): it counts as an error.
    confusion: (k, k) counts of the decided responses, rows true author, columns predicted;
        undecided: (k,) responses of each assistant without a prediction; n_undecided their sum.
    n_correct / n_responses = accuracy; chance = 1/k.
    null_mean_accuracy: mean accuracy under the permutation null (None without permutations):
        what this very protocol scores when the authors carry no signal, which can sit below 1/k
        (see ``discriminability_from_vectors``).
    accuracy_interval: percentile bootstrap over probes at ``confidence`` (answers to one probe
        are not independent; see ``probe_bootstrap_interval``); n_probes_answered: probes with
        at least one answer (one probe gives a zero-width, uninformative interval).
    permutation_p_value: (1 + #{permuted n_correct >= observed}) / (1 + n_permutations), None
        when n_permutations is 0; permutation_accuracies holds the null distribution.
    recognition: per-class k/n (undecided responses in the totals); mutual_confusions,
        most_confused_pairs: see those functions.
    accuracy_per_probe: n_probes values (nan for a probe without responses).
    n_empty: responses with no vector (empty text, or only stop words): they get no prediction.
    """

    classes: tuple
    labels: tuple
    predictions: tuple
    probe_indices: tuple
    confusion: np.ndarray
    undecided: np.ndarray
    n_undecided: int
    n_correct: int
    n_responses: int
    accuracy: float
    chance: float
    null_mean_accuracy: float | None
    confidence: float
    accuracy_interval: tuple[float, float]
    n_probes_answered: int
    permutation_p_value: float | None
    permutation_accuracies: np.ndarray
    permute_within_probes: bool
    seed: int
    recognition: Recognition
    mutual_confusions: tuple
    most_confused_pairs: tuple
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
    Raises PersonaDataError (code "all_empty") also when every response is empty.
    Source: the persona notebook (docs/persona.md#protocol).
    """
    _check_lengths(len(texts), labels, probe_indices, what="texts")
    X, terms = tfidf_matrix(texts)
    if not terms:
        raise PersonaDataError(
            "all responses are empty (no word of three letters or more outside the stop words): "
            "there is no vocabulary to compare", code="all_empty"
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
    can fall BELOW chance 1/k. The within-probe null has the same handicap, which is why the
    accuracy is tested against it (and its mean shown beside 1/k), not with a binomial test against
    1/k: that test ignores the handicap and treats answers to one probe as independent trials.

    Raises PersonaDataError for mismatched lengths, fewer than two assistants, an assistant
    with fewer than two responses (leave-one-out cannot score it), all-zero vectors,
    non-finite values, or probe indices that are not integers in [0, n_probes).
    """
    n_rows = X.shape[0]
    _check_lengths(n_rows, labels, probe_indices, what="vectors")
    codes, classes = encode_labels(labels, classes)
    _check_classes(codes, classes)
    probes = probe_array(probe_indices, n_probes)
    n_probes = int(probes.max()) + 1 if n_probes is None else n_probes
    X = _checked_vectors(X)
    if normalize:
        X = l2_normalize_rows(X)

    predictions = leave_one_out_nearest_centroid(X, labels, classes=classes)
    conf = confusion_matrix(labels, predictions, classes)
    undecided = undecided_counts(labels, predictions, classes)
    n_correct = int(np.trace(conf))
    chance = 1 / len(classes)
    null_correct = permutation_null(
        X, codes, len(classes), probes, n_permutations, seed, permute_within_probes
    )
    correct = np.array([t == p for t, p in zip(labels, predictions)])
    return DiscriminabilityResult(
        classes=classes,
        labels=tuple(labels),
        predictions=tuple(predictions),
        probe_indices=tuple(int(p) for p in probes),
        confusion=conf,
        undecided=undecided,
        n_undecided=int(undecided.sum()),
        n_correct=n_correct,
        n_responses=n_rows,
        accuracy=n_correct / n_rows,
        chance=chance,
        null_mean_accuracy=float(null_correct.mean() / n_rows) if len(null_correct) else None,
        confidence=confidence,
        accuracy_interval=probe_bootstrap_interval(correct, probes, confidence=confidence, seed=seed),
        n_probes_answered=len(np.unique(probes)),
        permutation_p_value=permutation_p_value(n_correct, null_correct),
        permutation_accuracies=null_correct / n_rows,
        permute_within_probes=permute_within_probes,
        seed=seed,
        recognition=recognition(conf, undecided),
        mutual_confusions=tuple(mutual_confusions(conf, classes)),
        most_confused_pairs=tuple(most_confused_pairs(conf, classes)),
        accuracy_per_probe=tuple(accuracy_per_probe(probes, labels, predictions, n_probes)),
        n_empty=int(np.sum(squared_row_norms(X) == 0)),
    )


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
            f"others make its centroid); too few for: {', '.join(too_few)}", code="too_few_responses"
        )


def _checked_vectors(X):
    values = X.data if sp.issparse(X) else np.asarray(X, dtype=float)
    if not np.all(np.isfinite(values)):
        raise PersonaDataError("the vectors contain NaN or infinite values")
    if not np.any(squared_row_norms(X) > 0):
        raise PersonaDataError("all responses are empty: every vector is zero", code="all_empty")
    return X if sp.issparse(X) else values




# --------------------------------------------------------------------------------------------
# The whole audit of one collection


@dataclass(frozen=True, eq=False)
class PersonaAudit:
    """Every measure the persona page shows, for the assistants in ``classes`` (k of them).

    discriminability: see ``DiscriminabilityResult``; jaccard: (k, k) Jaccard index of the
    assistants' vocabularies; ranks: prompt vs response distances of the k(k-1)/2 pairs.
    """

    classes: tuple
    discriminability: DiscriminabilityResult
    jaccard: np.ndarray
    ranks: RankComparison


def audit(
    texts: Sequence[str],
    labels: Sequence[Hashable],
    probe_indices: Sequence[int],
    prompts: Sequence[str],
    *,
    classes: Sequence[Hashable],
    n_probes: int | None = None,
    seed: int = DEFAULT_SEED,
) -> PersonaAudit:
    """The persona notebook's three measures on one collection (docs/persona.md#protocol).

    texts, labels, probe_indices: one entry per response (n); prompts: the system prompt of
    each of ``classes`` (k), in that order. The naive measure (Jaccard of vocabularies), the
    honest one (``discriminability`` on TF-IDF) and the comparison of prompt and response
    distances (``rank_comparison``, Mantel test). Raises PersonaDataError as ``discriminability``
    does, or when prompts and classes differ in length.
    """
    classes = tuple(classes)
    if len(prompts) != len(classes):
        raise PersonaDataError(f"{len(prompts)} prompts for {len(classes)} assistants")
    result = discriminability(texts, labels, probe_indices, classes=classes, n_probes=n_probes, seed=seed)
    X, _ = tfidf_matrix(texts)
    return PersonaAudit(
        classes=classes,
        discriminability=result,
        jaccard=jaccard_matrix(vocabularies_by_class(texts, labels, classes)),
        ranks=rank_comparison(prompt_distances(prompts), centroid_distances(X, labels, classes), classes,
                              seed=seed),
    )

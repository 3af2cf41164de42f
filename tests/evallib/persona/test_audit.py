"""evallib.persona: leave-one-out against a plain loop, confusion reading, the whole protocol."""

import doctest
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics import confusion_matrix as sklearn_confusion_matrix

from evallib import persona
from evallib.persona import protocol, classifier as persona_classifier, distances as persona_distances, permutation as persona_permutation
from evallib.persona import (
    PersonaDataError,
    accuracy,
    accuracy_per_probe,
    centroid_distances,
    confusion_matrix,
    discriminability,
    discriminability_from_vectors,
    leave_one_out_nearest_centroid,
    leave_one_out_reference,
    most_confused_pairs,
    mutual_confusions,
    permutation_p_value,
    prompt_distances,
    rank_comparison,
    recognition,
    vocabularies_by_class,
)
from evallib.persona.permutation import permutation_null, probe_bootstrap_interval
from evallib.text import jaccard, tfidf_matrix, tokenize

DOMAIN_WORDS = {
    "structure": "chapitre intrigue retournement charpente acte dénouement progression scène",
    "style": "rythme phrase sonorité image cadence tournure registre musique",
    "documentation": "archives source époque vérifier métier lieu bibliothèque détail",
    "pratique": "habitude séance régularité découragement routine matin objectif carnet",
}
PROBE_WORDS = [
    "bloqué trois chapitres conseil",
    "savoir écrire bon",
    "port pêche scène",
    "personnage principal intérêt",
    "matin mettre commencer",
]
SHARED_WORDS = "écriture texte atelier lecteur travail"


def synthetic_catalogue(assistants, n_probes=len(PROBE_WORDS), seed=0):
    """Responses mixing each assistant's domain words, the probe's words and shared words."""
    rng = np.random.default_rng(seed)
    texts, labels, probes = [], [], []
    for name in assistants:
        for p in range(n_probes):
            words = (
                list(rng.choice(DOMAIN_WORDS[name].split(), size=10))
                + PROBE_WORDS[p].split()
                + list(rng.choice(SHARED_WORDS.split(), size=4))
            )
            texts.append("Les " + " et ".join(words) + ".")
            labels.append(name)
            probes.append(p)
    return texts, labels, probes


def in_sample_nearest_centroid(X, labels):
    """The leaky variant: every row counts in its own centroid. Only used to prove a test bites."""
    classes = list(dict.fromkeys(labels))
    centroids = np.array([X[[lab == c for lab in labels]].mean(axis=0) for c in classes])
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    return [classes[c] for c in np.argmax(X @ centroids.T, axis=1)]


@pytest.mark.parametrize("module", [protocol, persona_classifier, persona_permutation, persona_distances])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0


# ---------------------------------------------------------------- leave-one-out


@pytest.mark.parametrize("k, n, d, density", [(2, 6, 5, 1.0), (3, 20, 10, 0.5), (6, 36, 40, 0.2),
                                              (8, 80, 30, 0.3), (20, 120, 200, 0.05)])
@pytest.mark.parametrize("sparse", [False, True])
def test_vectorised_equals_reference_on_random_data(k, n, d, density, sparse):
    rng = np.random.default_rng(k * 1000 + n)
    for _ in range(5):
        labels = [f"c{c}" for c in np.r_[np.arange(k), rng.integers(0, k, size=n - k)]]
        X = rng.random((n, d)) * (rng.random((n, d)) < density)
        X[X.sum(axis=1) == 0, 0] = 1.0  # avoid exact ties: no zero row in this test
        matrix = sp.csr_matrix(X) if sparse else X
        assert leave_one_out_nearest_centroid(matrix, labels) == leave_one_out_reference(X, labels)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    k=st.integers(2, 5),
    n=st.integers(4, 25),
)
def test_vectorised_equals_reference_hypothesis(data, k, n):
    n = max(n, k)
    X = data.draw(hnp.arrays(float, (n, 4), elements=st.floats(-1, 1, width=32)))
    codes = data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    labels = [f"c{c}" for c in codes]
    classes = [f"c{c}" for c in range(k)]
    reference = leave_one_out_reference(X, labels, classes=classes)
    # Exact ties (identical rows, zero rows drawn by hypothesis) may be broken differently by
    # rounding: compare only rows whose best reference score is clearly ahead.
    margins = _reference_margins(X, labels, classes)
    vectorised = leave_one_out_nearest_centroid(X, labels, classes=classes)
    for i in np.flatnonzero(margins > 1e-9):
        assert vectorised[i] == reference[i]


def _reference_margins(X, labels, classes):
    """Gap between the best and second-best leave-one-out score of each row."""
    margins = []
    for i in range(len(X)):
        scores = []
        for c in classes:
            members = [j for j in range(len(X)) if labels[j] == c and j != i]
            if not members:
                scores.append(-np.inf)
                continue
            centroid = X[members].mean(axis=0)
            norm = np.linalg.norm(centroid)
            scores.append(centroid @ X[i] / norm if norm > 1e-6 else np.nan)
        finite = np.sort(np.asarray(scores)[np.isfinite(scores)])
        if np.isnan(scores).any() or np.linalg.norm(X[i]) < 1e-6 or len(finite) < 2:
            margins.append(0.0)
        else:
            margins.append(finite[-1] - finite[-2])
    return np.array(margins)


def test_held_out_row_never_contributes_to_its_own_centroid():
    # Row 0 = (1, 0). Without itself, class A's centroid is (0, 1): cosine 0, while class B's is
    # (0.6, 0.8): cosine 0.6, so B wins. If row 0 counted in A's centroid, A's would point to
    # (1, 1)/√2: cosine 0.707 > 0.6, and A would win.
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.6, 0.8]])
    labels = ["A", "A", "B", "B"]
    assert in_sample_nearest_centroid(X, labels)[0] == "A"  # the leak would change the answer
    assert leave_one_out_nearest_centroid(X, labels) == ["B", "B", "B", "B"]
    assert leave_one_out_nearest_centroid(sp.csr_matrix(X), labels)[0] == "B"
    assert leave_one_out_reference(X, labels)[0] == "B"


def test_identical_responses_are_not_recognised_through_themselves():
    # Each response appears once: if it counted in its own centroid, every response would be
    # recognised (cosine 1 with itself weighs in). Held out, each row sits nearer the other class.
    X = np.array([[1.0, 0.1], [0.1, 1.0], [0.9, 0.3], [0.3, 0.9]])
    assert leave_one_out_nearest_centroid(X, ["A", "A", "B", "B"]) == ["B", "B", "A", "A"]


def test_single_member_class_is_excluded_for_its_own_row_without_crashing():
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9], [1.0, 0.05]])
    labels = ["A", "A", "B", "B", "solo"]
    predicted = leave_one_out_nearest_centroid(X, labels)
    assert predicted[4] == "A"  # "solo" has no centroid without its only response
    assert predicted == leave_one_out_reference(X, labels)


def test_class_listed_without_members_is_never_predicted():
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    predicted = leave_one_out_nearest_centroid(X, ["A", "A", "B", "B"], classes=["empty", "A", "B"])
    assert predicted == ["A", "A", "B", "B"]
    assert predicted == leave_one_out_reference(X, ["A", "A", "B", "B"], classes=["empty", "A", "B"])


def test_empty_rows_and_ties_get_no_prediction():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]])
    labels = ["A", "A", "B", "B", "C", "C"]
    predicted = leave_one_out_nearest_centroid(X, labels)
    assert predicted == leave_one_out_reference(X, labels)
    # Row 0 is empty: cosine 0 everywhere. It is not given to the first class (which would count
    # it as correct): it has no prediction.
    assert predicted[0] is None
    # Row 1: A without it is the zero vector (cosine 0), B is orthogonal (0), C is zero (0): tie.
    assert predicted[1] is None
    assert predicted[2:4] == ["B", "B"]


def test_identical_answers_tie_instead_of_going_to_the_first_assistant():
    # Every answer identical: every held-out centroid equals every other one up to rounding.
    X = sp.csr_matrix(np.tile([0.3, 0.5, 0.2], (12, 1)))
    labels = [f"a{i % 4}" for i in range(12)]
    assert leave_one_out_nearest_centroid(X, labels) == [None] * 12
    assert leave_one_out_reference(X, labels) == [None] * 12
    result = discriminability_from_vectors(X, labels, [i // 4 for i in range(12)], n_permutations=20)
    assert result.n_correct == 0 and result.n_undecided == 12 and result.accuracy == 0.0
    assert result.recognition.total.tolist() == [3] * 4 and result.recognition.correct.tolist() == [0] * 4
    assert result.most_confused_pairs == () and result.mutual_confusions == ()


def test_fewer_than_two_classes_or_mismatched_rows_raise():
    with pytest.raises(PersonaDataError, match="at least two assistants"):
        leave_one_out_nearest_centroid(np.eye(3), ["A", "A", "A"])
    with pytest.raises(PersonaDataError, match="3 vectors but 2 labels"):
        leave_one_out_nearest_centroid(np.eye(3), ["A", "B"])


# ---------------------------------------------------------------- reading the confusion matrix

# The confusion matrix printed by the course material's persona notebook (docs/persona.md#figures).
SEED_CLASSES = ["structure", "style", "documentation", "pratique", "expression", "relecture"]
SEED_CONFUSION = np.array(
    [
        [6, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 6, 0],
        [0, 0, 6, 0, 0, 0],
        [0, 0, 0, 6, 0, 0],
        [0, 6, 0, 0, 0, 0],
        [1, 2, 0, 0, 0, 3],
    ]
)


def test_seed_figures_accuracy_recognition_and_redundancy():
    assert accuracy(SEED_CONFUSION) == pytest.approx(21 / 36)
    assert round(accuracy(SEED_CONFUSION), 2) == 0.58
    rec = recognition(SEED_CONFUSION)
    assert rec.correct.tolist() == [6, 0, 6, 6, 0, 3]
    assert rec.total.tolist() == [6] * 6
    assert mutual_confusions(SEED_CONFUSION, SEED_CLASSES) == [("style", "expression", 6, 6)]
    assert mutual_confusions(SEED_CONFUSION, SEED_CLASSES)[0].total == 12
    assert most_confused_pairs(SEED_CONFUSION, SEED_CLASSES) == [("style", "expression", 12)]


def test_confusion_matrix_equals_sklearn():
    rng = np.random.default_rng(3)
    classes = ["a", "b", "c", "d"]
    true = list(rng.choice(classes, size=50))
    pred = list(rng.choice(classes, size=50))
    expected = sklearn_confusion_matrix(true, pred, labels=classes)
    np.testing.assert_array_equal(confusion_matrix(true, pred, classes), expected)


def test_confusion_matrix_rejects_unknown_label_and_length_mismatch():
    with pytest.raises(PersonaDataError, match="unknown assistant"):
        confusion_matrix(["a", "z"], ["a", "a"], ["a", "b"])
    with pytest.raises(PersonaDataError, match="2 true labels but 1 predictions"):
        confusion_matrix(["a", "b"], ["a"], ["a", "b"])


def test_most_confused_pairs_count_both_directions_and_report_ties():
    conf = np.array([[3, 2, 0], [0, 3, 2], [0, 2, 3]])
    # a->b = 2 (one way) < b<->c = 2 + 2.
    assert most_confused_pairs(conf, ["a", "b", "c"]) == [("b", "c", 4)]
    assert most_confused_pairs(np.diag([3, 3, 3]), ["a", "b", "c"]) == []
    # A tie is reported whole, never broken by class order.
    assert most_confused_pairs(np.array([[1, 1, 1], [0, 1, 0], [0, 0, 1]]), "abc") == [("a", "b", 1), ("a", "c", 1)]


def test_mutual_confusions_need_both_directions_and_min_count():
    conf = np.array([[2, 3, 0], [1, 4, 0], [5, 0, 1]])
    assert mutual_confusions(conf, "abc") == [("a", "b", 3, 1)]
    assert mutual_confusions(conf, "abc", min_count=2) == []


def test_recognition_rate_is_nan_for_class_without_response():
    rec = recognition(np.array([[2, 0], [0, 0]]))
    assert rec.rate[0] == 1.0 and np.isnan(rec.rate[1])


def test_undecided_answers_count_in_totals_and_as_errors():
    true, pred = ["a", "a", "b", "b"], ["a", None, "b", "a"]
    conf = confusion_matrix(true, pred, ["a", "b"])
    assert conf.tolist() == [[1, 0], [1, 1]]
    undecided = persona.undecided_counts(true, pred, ["a", "b"])
    assert undecided.tolist() == [1, 0]
    assert recognition(conf, undecided).rate.tolist() == [0.5, 0.5]
    assert accuracy(conf, int(undecided.sum())) == 0.5
    assert accuracy_per_probe([0, 0, 1, 1], true, pred, 2) == [0.5, 0.5]


def test_accuracy_of_empty_confusion_raises():
    with pytest.raises(PersonaDataError, match="no response"):
        accuracy(np.zeros((2, 2), dtype=int))


def test_accuracy_per_probe():
    true = ["a", "b", "c", "a", "b", "c"]
    pred = ["a", "c", "c", "a", "b", "c"]
    probes = [0, 0, 0, 1, 1, 1]
    assert accuracy_per_probe(probes, true, pred, 2) == pytest.approx([2 / 3, 1.0])
    rates = accuracy_per_probe(probes, true, pred, 3)
    assert np.isnan(rates[2])
    with pytest.raises(PersonaDataError, match="outside 0..1"):
        accuracy_per_probe([0, 2, 0, 1, 1, 1], true, pred, 2)
    with pytest.raises(PersonaDataError, match="5 probe indices"):
        accuracy_per_probe(probes[:5], true, pred, 2)


# ---------------------------------------------------------------- the whole protocol


def test_planted_redundancy_gives_mutual_confusion():
    texts, labels, probes = synthetic_catalogue(["structure", "style", "documentation", "pratique"])
    n_style = labels.count("style")
    copies = [t for t, lab in zip(texts, labels) if lab == "style"]
    texts += copies
    labels += ["copie"] * n_style
    probes += [p for p, lab in zip(probes, labels) if lab == "style"]
    result = discriminability(texts, labels, probes, n_permutations=200)
    i, j = result.classes.index("style"), result.classes.index("copie")
    assert result.confusion[i, j] == n_style and result.confusion[j, i] == n_style
    assert result.mutual_confusions[0] == ("style", "copie", n_style, n_style)
    assert result.most_confused_pairs == (("style", "copie", 2 * n_style),)
    assert result.recognition.correct[i] == 0 and result.recognition.correct[j] == 0
    for name in ("structure", "documentation", "pratique"):
        c = result.classes.index(name)
        assert result.recognition.correct[c] == result.recognition.total[c]
    assert result.accuracy == pytest.approx(3 / 5)


def test_discriminability_reports_consistent_statistics():
    texts, labels, probes = synthetic_catalogue(["structure", "style", "documentation"])
    result = discriminability(texts, labels, probes, n_permutations=300, seed=11)
    n = len(texts)
    assert result.n_responses == n and result.chance == pytest.approx(1 / 3)
    assert result.n_correct == sum(t == p for t, p in zip(labels, result.predictions))
    correct = np.array([t == p for t, p in zip(labels, result.predictions)])
    assert result.accuracy_interval == probe_bootstrap_interval(correct, np.array(probes), confidence=0.95, seed=11)
    assert result.null_mean_accuracy == pytest.approx(result.permutation_accuracies.mean())
    assert result.permutation_accuracies.shape == (300,)
    observed = result.n_correct / n
    expected_p = (1 + np.sum(result.permutation_accuracies >= observed - 1e-12)) / 301
    assert result.permutation_p_value == pytest.approx(expected_p)
    assert result.permutation_p_value == pytest.approx(1 / 301)  # three clear signatures
    assert len(result.accuracy_per_probe) == len(PROBE_WORDS)
    assert result.predictions == tuple(
        leave_one_out_reference(tfidf_matrix(texts)[0], labels)
    )
    again = discriminability(texts, labels, probes, n_permutations=300, seed=11)
    np.testing.assert_array_equal(again.permutation_accuracies, result.permutation_accuracies)


def test_permutation_null_is_near_chance_when_assistants_are_indistinguishable():
    rng = np.random.default_rng(5)
    X = rng.random((40, 30))
    labels = [f"a{i % 4}" for i in range(40)]
    probes = [i // 4 for i in range(40)]
    result = discriminability_from_vectors(X, labels, probes, n_permutations=200, seed=1)
    assert result.permutation_p_value > 0.05
    assert abs(result.permutation_accuracies.mean() - 0.25) < 0.1


def test_within_probe_permutations_keep_the_design():
    # Responses depend on the probe only (one-hot of the probe), two assistants x three probes.
    # Shuffled within probes, each assistant keeps one response per probe: a held-out response
    # is orthogonal to the rest of its class and always goes to the other one (0 correct).
    # Shuffled globally, an assistant may get two responses to the same probe and recognise them.
    probes = np.array([0, 1, 2, 0, 1, 2])
    codes = np.array([0, 0, 0, 1, 1, 1])
    X = np.eye(3)[probes]
    within = permutation_null(X, codes, 2, probes, 100, 3, within_probes=True)
    shuffled = permutation_null(X, codes, 2, probes, 100, 3, within_probes=False)
    assert within.shape == shuffled.shape == (100,)
    assert within.max() == 0
    assert shuffled.max() > 0


def test_permutation_p_value_formula():
    assert permutation_p_value(10, np.array([3, 10, 12, 4])) == pytest.approx(3 / 5)
    assert permutation_p_value(10, np.array([], dtype=int)) is None


def test_k_equals_two_works():
    texts, labels, probes = synthetic_catalogue(["structure", "pratique"])
    result = discriminability(texts, labels, probes, n_permutations=50)
    assert result.accuracy == 1.0 and result.chance == 0.5
    assert result.most_confused_pairs == () and result.mutual_confusions == ()
    comparison = rank_comparison(prompt_distances(["rythme phrase", "rythme récit"]),
                                 np.array([[0, 0.4], [0.4, 0]]), ["a", "b"])
    assert comparison.n_pairs == 1 and np.isnan(comparison.spearman_rho)


def test_single_response_assistant_is_named():
    texts, labels, probes = synthetic_catalogue(["structure", "style"])
    with pytest.raises(PersonaDataError, match=r"too few for: pratique \(1\)"):
        discriminability(texts + ["une habitude"], labels + ["pratique"], probes + [0])


def test_assistant_without_response_is_named():
    texts, labels, probes = synthetic_catalogue(["structure", "style"])
    with pytest.raises(PersonaDataError, match=r"pratique \(0\)"):
        discriminability(texts, labels, probes, classes=["structure", "style", "pratique"])


def test_all_empty_responses_raise():
    with pytest.raises(PersonaDataError, match="all responses are empty"):
        discriminability(["", "les des", "", "  "], ["a", "a", "b", "b"], [0, 1, 0, 1])
    with pytest.raises(PersonaDataError, match="all responses are empty"):
        discriminability_from_vectors(np.zeros((4, 3)), ["a", "a", "b", "b"], [0, 1, 0, 1])


def test_fewer_than_two_assistants_and_mismatched_lengths_raise():
    with pytest.raises(PersonaDataError, match="at least two assistants"):
        discriminability(["rythme", "phrase"], ["a", "a"], [0, 1])
    with pytest.raises(PersonaDataError, match="mismatched lengths: 3 texts, 2 labels"):
        discriminability(["a", "b", "c"], ["a", "b"], [0, 1, 2])
    with pytest.raises(PersonaDataError, match="4 vectors, 4 labels, 3 probe"):
        discriminability_from_vectors(np.eye(4), list("aabb"), [0, 1, 0])


def test_bad_vectors_and_probe_indices_raise():
    X = np.eye(4)
    X[0, 0] = np.nan
    with pytest.raises(PersonaDataError, match="NaN"):
        discriminability_from_vectors(X, list("aabb"), [0, 1, 0, 1])
    with pytest.raises(PersonaDataError, match="integers"):
        discriminability_from_vectors(np.eye(4), list("aabb"), [0.5, 1, 0, 1])
    with pytest.raises(PersonaDataError, match="outside"):
        discriminability_from_vectors(np.eye(4), list("aabb"), [0, 1, 0, 1], n_probes=1)
    with pytest.raises(PersonaDataError, match="integers"):
        discriminability_from_vectors(np.eye(4), list("aabb"), ["p0", "p1", "p0", "p1"])
    with pytest.raises(PersonaDataError, match="0 or more"):
        discriminability_from_vectors(np.eye(4), list("aabb"), [0, -1, 0, 1])


def test_some_empty_responses_are_counted_and_kept():
    texts, labels, probes = synthetic_catalogue(["structure", "style", "pratique"])
    texts[1] = ""
    result = discriminability(texts, labels, probes, n_permutations=0)
    assert result.n_empty == 1 and result.permutation_p_value is None
    # An empty answer is not predicted as the first assistant (it would count as correct here).
    assert result.predictions[1] is None and result.n_undecided == 1
    assert result.n_correct == sum(t == p for t, p in zip(labels, result.predictions))
    assert result.undecided.tolist() == [1, 0, 0]  # texts[1] is an answer of "structure"


def test_embedding_path_normalises_rows():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(24, 16)) + np.repeat(rng.normal(size=(4, 16)) * 2, 6, axis=0)
    labels = [f"a{i // 6}" for i in range(24)]
    probes = [i % 6 for i in range(24)]
    scaled = X * rng.uniform(0.1, 10, size=(24, 1))
    a = discriminability_from_vectors(X, labels, probes, n_permutations=20)
    b = discriminability_from_vectors(scaled, labels, probes, n_permutations=20)
    assert a.predictions == b.predictions
    np.testing.assert_array_equal(a.permutation_accuracies, b.permutation_accuracies)


def test_tfidf_wrapper_equals_vectors_path():
    texts, labels, probes = synthetic_catalogue(["structure", "style", "documentation"], seed=4)
    a = discriminability(texts, labels, probes, n_permutations=30)
    b = discriminability_from_vectors(tfidf_matrix(texts)[0], labels, probes, n_permutations=30)
    assert a.predictions == b.predictions
    assert a.permutation_p_value == b.permutation_p_value


# ---------------------------------------------------------------- prompts are not responses


def test_centroid_distances_equal_one_minus_cosine_of_mean_vectors():
    rng = np.random.default_rng(8)
    X = rng.random((12, 5))
    labels = [f"c{i % 3}" for i in range(12)]
    D = centroid_distances(sp.csr_matrix(X), labels)
    means = np.array([X[[lab == f"c{c}" for lab in labels]].mean(axis=0) for c in range(3)])
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    expected = 1 - means @ means.T
    np.fill_diagonal(expected, 0)
    np.testing.assert_allclose(D, expected, atol=1e-12)
    np.testing.assert_allclose(D, D.T)


def test_prompt_distances_are_jaccard_distances():
    prompts = ["Ton domaine est la phrase : rythme, images.", "Ton domaine est le récit : chapitres.", ""]
    D = prompt_distances(prompts)
    a, b = set(tokenize(prompts[0])), set(tokenize(prompts[1]))
    assert D[0, 1] == pytest.approx(1 - jaccard(a, b))
    assert D[0, 2] == 1.0 and D[2, 2] == 0.0


def test_vocabularies_by_class():
    vocabularies = vocabularies_by_class(["le rythme", "la phrase", "le récit"], ["s", "s", "r"])
    assert vocabularies == [{"rythme", "phrase"}, {"récit"}]


def test_the_persona_measures_do_not_load_scipy_stats():
    # scipy.stats costs about 0.6 s of import for the first visitor of the page; nothing here needs it.
    code = ("import sys, evallib.persona, evallib.persona.readings; "
            "assert 'scipy.stats' not in sys.modules, 'scipy.stats was imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[3])

"""evallib.text against scikit-learn (TF-IDF, Jaccard) and the notebook's definitions."""

import doctest
import random

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import jaccard_score

from evallib import text
from evallib.text import (
    ENGLISH_STOP_WORDS,
    FRENCH_STOP_WORDS,
    STOP_WORDS,
    MIN_WORD_LENGTH,
    WORD_PATTERN,
    jaccard,
    jaccard_matrix,
    l2_normalize_rows,
    tfidf_matrix,
    tokenize,
    vocabulary,
)

FRENCH_TEXTS = [
    "Bonjour. Asseyez-vous. Le mot « plat » est souvent le premier signe que votre texte dort.",
    "Découpez le récit en trois actes : l'exposition, le nœud, le dénouement. Où est le retournement ?",
    "Vérifiez les archives du port : les chalutiers de 1930, le métier de mareyeur, la criée.",
    "Écrivez vingt minutes chaque matin, même sans envie ; l'habitude précède l'inspiration.",
    "Une phrase longue ralentit ; une phrase brève frappe. Écoutez la musique, le rythme, l'image.",
    "",
    "Les et des pour avec dans",
    "Cœur, sœur, œuvre, ex æquo, façon, garçon, naïf, Noël, où, là, déjà, NOËL ÉTÉ ÇA.",
]


def sklearn_tfidf(documents):
    vectorizer = TfidfVectorizer(
        tokenizer=tokenize, lowercase=False, token_pattern=None, smooth_idf=True, norm="l2"
    )
    X = vectorizer.fit_transform(documents)
    return X.toarray(), list(vectorizer.get_feature_names_out())


def test_doctests():
    assert doctest.testmod(text).failed == 0


def test_tokenize_keeps_french_letters_and_drops_short_and_stop_words():
    assert tokenize("Cœur, SŒUR, façon, ex æquo, Noël, où, là") == [
        "cœur", "sœur", "façon", "æquo", "noël"
    ]
    assert tokenize("peut-être l'histoire jusqu'à demain") == ["histoire", "demain"]
    assert tokenize("The story and the plot") == ["story", "plot"]
    assert tokenize("") == []
    assert tokenize("3 chapitres, 12 scènes") == ["chapitres", "scènes"]


def test_tokenize_normalises_decomposed_accents():
    decomposed = "re\u0301cit"  # "récit" typed as e + combining acute accent
    assert tokenize(decomposed) == ["récit"]


def test_english_function_words_are_removed_too():
    assert tokenize("She said her plot would not hold, so she didn't write it.") == ["said", "plot", "hold", "write"]
    assert not ENGLISH_STOP_WORDS & {"plot", "rhythm", "way", "voice", "ours"}


def test_every_stop_word_could_be_produced_by_the_tokenizer():
    assert STOP_WORDS == FRENCH_STOP_WORDS | ENGLISH_STOP_WORDS
    for word in ENGLISH_STOP_WORDS:
        assert len(word) >= MIN_WORD_LENGTH and WORD_PATTERN.fullmatch(word), word
    for word in FRENCH_STOP_WORDS:
        assert len(word) >= MIN_WORD_LENGTH, word
        assert WORD_PATTERN.fullmatch(word), word
    assert isinstance(FRENCH_STOP_WORDS, frozenset)


def test_vocabulary_is_union_of_tokens():
    assert vocabulary(["Le rythme", "Rythme et image", ""]) == {"rythme", "image"}
    assert vocabulary([]) == set()


def test_tfidf_equals_sklearn_on_french_texts():
    X, terms = tfidf_matrix(FRENCH_TEXTS)
    expected, expected_terms = sklearn_tfidf(FRENCH_TEXTS)
    assert terms == expected_terms
    np.testing.assert_allclose(X.toarray(), expected, rtol=1e-12, atol=1e-15)


def test_tfidf_equals_sklearn_with_lowercase_true():
    vectorizer = TfidfVectorizer(tokenizer=tokenize, lowercase=True, token_pattern=None)
    expected = vectorizer.fit_transform(FRENCH_TEXTS).toarray()
    np.testing.assert_allclose(tfidf_matrix(FRENCH_TEXTS)[0].toarray(), expected, atol=1e-15)


@pytest.mark.parametrize("seed", range(5))
def test_tfidf_equals_sklearn_on_random_texts(seed):
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdeéèàçœ") for _ in range(rng.randint(2, 6))) for _ in range(60)]
    words += ["les", "des", "pour"]
    documents = [
        " ".join(rng.choice(words) for _ in range(rng.randint(1, 40))) for _ in range(rng.randint(2, 30))
    ]
    X, terms = tfidf_matrix(documents)
    expected, expected_terms = sklearn_tfidf(documents)
    assert terms == expected_terms
    np.testing.assert_allclose(X.toarray(), expected, rtol=1e-12, atol=1e-15)


def test_tfidf_empty_document_gets_zero_row_and_others_unit_norm():
    X, _ = tfidf_matrix(["rythme image", "", "les des", "récit"])
    norms = np.linalg.norm(X.toarray(), axis=1)
    np.testing.assert_allclose(norms, [1, 0, 0, 1])


def test_tfidf_without_any_token_has_no_column():
    X, terms = tfidf_matrix(["", "les des pour"])
    assert X.shape == (2, 0)
    assert terms == []


def test_l2_normalize_rows_dense_and_sparse_agree():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(5, 4))
    A[2] = 0
    dense = l2_normalize_rows(A)
    sparse = l2_normalize_rows(sp.csr_matrix(A))
    np.testing.assert_allclose(sparse.toarray(), dense)
    np.testing.assert_allclose(np.linalg.norm(dense, axis=1), [1, 1, 0, 1, 1])


def _indicators(a, b):
    universe = sorted(a | b)
    return [int(w in a) for w in universe], [int(w in b) for w in universe]


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 20)), st.sets(st.integers(0, 20)))
def test_jaccard_equals_sklearn_on_indicator_vectors(a, b):
    if not a | b:
        assert jaccard(a, b) == 1.0
        return
    y_a, y_b = _indicators(a, b)
    assert jaccard(a, b) == pytest.approx(jaccard_score(y_a, y_b))
    assert jaccard(a, b) == jaccard(b, a)


def test_jaccard_matrix_is_symmetric_with_unit_diagonal():
    vocabularies = [{"a", "b"}, {"b", "c"}, set(), {"a", "b", "c", "d"}]
    J = jaccard_matrix(vocabularies)
    assert J.shape == (4, 4)
    np.testing.assert_allclose(J, J.T)
    np.testing.assert_allclose(np.diag(J), 1)
    assert J[0, 1] == pytest.approx(1 / 3)
    assert J[0, 2] == 0
    assert J[0, 3] == pytest.approx(0.5)


def test_common_opening_keeps_whole_shared_sentences_only():
    from evallib.text import common_opening
    assert common_opening(["Tu aides. Ton sujet : la phrase.", "Tu aides. Ton sujet : le récit."]) == "Tu aides. "
    assert common_opening(["Version 3.5 du texte.", "Version 3.6 du texte."]) == ""  # a decimal point ends nothing
    assert common_opening(["Bonjour. Au revoir.", "Bonjour. Au revoir."]) == "Bonjour. Au revoir."
    assert common_opening(["Bonjour.", "Bonjour. Et la suite."]) == "Bonjour."
    assert common_opening(["Une phrase.", "Autre chose."]) == ""
    assert common_opening(["Seul. Texte."]) == "" and common_opening([]) == ""

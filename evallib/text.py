"""Text measures for the persona audit: French- and English-aware tokens, vocabularies, Jaccard, TF-IDF.

The definitions follow the persona notebook (docs/persona.md#tokens): words are lower-case runs of letters
(French accents included) longer than two letters, French and English function words removed; two vocabularies
are compared by their Jaccard index; responses become TF-IDF vectors (smoothed idf, l2 norm) for the
leave-one-out classifier of ``evallib.persona``.

The page shows the source of ``jaccard`` and ``tfidf_matrix``: keep them short and plain.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

import numpy as np
import scipy.sparse as sp

# French function words (articles, pronouns, prepositions, conjunctions, auxiliaries and the most
# common modal forms, frequent adverbs) plus a few English ones. They say nothing about what an
# assistant is for, and they would dominate every vocabulary; removing them lets the measure look
# at the words that carry a domain. Only words of three letters or more are listed: shorter words
# are already dropped by MIN_WORD_LENGTH. Content words (texte, histoire, personnage...) are kept
# on purpose, because they are exactly what separates one assistant from another.
FRENCH_STOP_WORDS = frozenset(
    """
    les des une aux ces cet cette ses son mes mon ton tes nos notre vos votre leur leurs
    quel quelle quels quelles chaque plusieurs certain certaine certains certaines aucun aucune
    tout toute tous toutes autre autres même mêmes tel telle tels telles quelque quelques
    elle elles lui eux nous vous ils moi toi soi qui que quoi dont celui celle ceux celles
    ceci cela lequel laquelle lesquels lesquelles duquel auquel auxquels auxquelles rien
    chacun chacune nôtre vôtre nôtres vôtres
    avec sans sous sur dans par pour vers chez entre contre depuis pendant avant après devant
    derrière parmi selon malgré envers hors dès jusqu jusque près afin via outre
    mais donc car puis ainsi lorsque lorsqu quand comme puisque puisqu quoique quoiqu tandis
    sinon néanmoins pourtant cependant toutefois alors aussi parce
    très trop peu plus moins bien encore déjà jamais toujours souvent parfois ici assez
    beaucoup tant tellement vraiment surtout simplement plutôt non oui pas voici voilà
    comment pourquoi combien ailleurs partout ensuite enfin presque environ seulement autant
    être suis est sommes êtes sont étais était étions étiez étaient été sera serai seras
    serons serez seront serait seraient serais soit soient sois soyons soyez fut furent étant
    avoir avons avez ont avais avait avions aviez avaient aura aurai auras aurons aurez auront
    aurait auraient aurais aie aies ait ayons ayez aient eut eurent ayant
    faire fait faut peut peux peuvent pouvez pouvons doit dois doivent devez devons
    the and for with that this these those are was were you your not but from have has
    will can all any our they their there what which who how into about its also
    """.split()
)

# English function words, for an English course (packs/en): pronouns, determiners, auxiliaries and
# modals, frequent prepositions, conjunctions and adverbs, and the stems an apostrophe leaves behind
# ("don't" gives "don"). Without them, "she", "her" or "would" weigh as much as "plot" or "rhythm" in
# English answers. None of them is a French word of these texts ("ours", a bear in French, is left out).
ENGLISH_STOP_WORDS = frozenset(
    """
    the and for with that this these those are was were you your yours yourself not but from
    have has had having will would can could shall should may might must all any our ourselves
    they them their theirs themselves there what which who whom whose how why when where while
    into about its itself also she her hers herself him his himself one ones myself
    been being did does doing done each every other others some such than then too very just
    own same both few more most only over under again off once here out onto upon through
    before after above below between because until against during without within whether
    yet nor either neither ever always often never really quite rather much many lot lots
    get gets got let lets even still something anything nothing everything someone anyone everyone
    don doesn didn isn aren wasn weren won wouldn couldn shouldn haven hasn hadn
    """.split()
)

# A word is a run of lower-case letters: the ASCII letters plus the letters of French spelling
# (accented vowels, ç, and the ligatures œ and æ). Everything else (digits, apostrophes, hyphens,
# punctuation, markdown) separates words, so "l'histoire" gives "histoire" and "peut-être" gives
# "peut" and "être". Letters of other alphabets are separators too.
WORD_PATTERN = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ]+")

# Words of one or two letters (le, la, de, un, il, qu, ça...) are almost all function words.
MIN_WORD_LENGTH = 3

#: What `tokenize` removes: the French and the English function words.
STOP_WORDS = FRENCH_STOP_WORDS | ENGLISH_STOP_WORDS


def tokenize(text: str) -> list[str]:
    """Split a text into the content words the persona measures compare.

    Steps: Unicode NFC normalisation (so that an "é" typed as "e" + combining accent is one
    letter), lower-casing, words matched by ``WORD_PATTERN``, then words shorter than
    ``MIN_WORD_LENGTH`` letters and words of ``STOP_WORDS`` (French and English) are removed. Order and
    repetitions are kept (TF-IDF counts them). Source: the tokeniser of the persona notebook
    (docs/persona.md#tokens), with œ, æ and ç added to the letters.

    >>> tokenize("L'intrigue, c'est le squelette ; la phrase, c'est la chair.")
    ['intrigue', 'squelette', 'phrase', 'chair']
    """
    words = WORD_PATTERN.findall(unicodedata.normalize("NFC", text).lower())
    return [w for w in words if len(w) >= MIN_WORD_LENGTH and w not in STOP_WORDS]


def vocabulary(texts: Iterable[str]) -> set[str]:
    """The set of distinct tokens (see ``tokenize``) used in any of ``texts``.

    >>> sorted(vocabulary(["Le rythme de la phrase", "La phrase respire"]))
    ['phrase', 'respire', 'rythme']
    """
    return {token for text in texts for token in tokenize(text)}


def jaccard(a: set, b: set) -> float:
    """Jaccard index of two sets: |a ∩ b| / |a ∪ b|, in [0, 1].

    1 means identical sets, 0 means no element in common. Two empty sets are identical, so
    ``jaccard(set(), set())`` is defined as 1.0 (this keeps ``jaccard(a, a) == 1`` for every a;
    the corresponding Jaccard distance, 1 - index, is 0 as in ``scipy.spatial.distance.jaccard``).
    Symmetric. Source: Jaccard (1912), "The distribution of the flora in the alpine zone".

    >>> jaccard({"rythme", "phrase"}, {"phrase", "image", "rythme"})
    0.6666666666666666
    """
    union = a | b
    if not union:
        return 1.0
    return len(a & b) / len(union)


#: A sentence ends at ".", "!", "?" or "…" followed by white space (a decimal point such as 3.5 does not).
SENTENCE_END = re.compile(r"[.!?…]\s+")


def common_opening(texts: Sequence[str]) -> str:
    """The whole sentences every one of ``texts`` opens with ("" for fewer than two texts, or none shared).

    The longest common prefix cut back to its last sentence end (`SENTENCE_END`, trailing spaces
    included), so that what follows it, ``text[len(opening):]``, starts at a sentence of its own.
    A text that is nothing but the shared sentences counts as one more sentence end.

    >>> common_opening(["Tu aides l'atelier. Ton sujet : la phrase.", "Tu aides l'atelier. Ton sujet : le récit."])
    "Tu aides l'atelier. "
    """
    if len(texts) < 2:
        return ""
    prefix = _common_prefix(texts)
    ends = [m.end() for m in SENTENCE_END.finditer(prefix)]
    if prefix in texts and prefix.rstrip()[-1:] in ".!?…":
        ends.append(len(prefix))
    return prefix[:max(ends)] if ends else ""


def _common_prefix(texts: Sequence[str]) -> str:
    first, last = min(texts), max(texts)  # the prefix common to all is the one of the extreme two
    n = next((i for i, (a, b) in enumerate(zip(first, last)) if a != b), min(len(first), len(last)))
    return first[:n]


def jaccard_matrix(vocabularies: Sequence[set]) -> np.ndarray:
    """Pairwise Jaccard indices of k vocabularies: a symmetric (k, k) float array, diagonal 1.

    ``result[i, j] == jaccard(vocabularies[i], vocabularies[j])``.
    """
    k = len(vocabularies)
    result = np.ones((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            result[i, j] = result[j, i] = jaccard(vocabularies[i], vocabularies[j])
    return result


def tfidf_matrix(documents: Sequence[str]) -> tuple[sp.csr_matrix, list[str]]:
    """TF-IDF vectors of ``documents``: one l2-normalised row per document.

    Returns ``(X, terms)``: ``X`` is a scipy CSR matrix of shape (n_docs, n_terms), ``terms`` the
    sorted vocabulary (column j is ``terms[j]``). For a term t in document d:

        tf(t, d) = number of times t occurs in d (raw count, tokens from ``tokenize``)
        idf(t)   = ln((1 + n_docs) / (1 + df(t))) + 1, df(t) = documents containing t
        X[d]     = tf(d) * idf / ||tf(d) * idf||_2

    The smoothed idf acts as if one extra document contained every term once (no division by
    zero, no zero weight). A document with no token (empty, or only stop words) gets a row of
    zeros: it has no direction. When no document has a token, ``X`` has shape (n_docs, 0) and
    ``terms`` is empty. Identical to scikit-learn's ``TfidfVectorizer(tokenizer=tokenize,
    token_pattern=None, smooth_idf=True, norm="l2")``. Source: docs/persona.md#tfidf;
    Sparck Jones (1972) for idf.

    >>> X, terms = tfidf_matrix(["rythme rythme image", "rythme récit"])
    >>> terms
    ['image', 'rythme', 'récit']
    >>> X.toarray().round(3)
    array([[0.575, 0.818, 0.   ],
           [0.   , 0.58 , 0.815]])
    """
    counts, terms = term_counts([tokenize(d) for d in documents])
    weights = counts.multiply(smoothed_idf(counts)).tocsr()
    return l2_normalize_rows(weights), terms


def term_counts(token_lists: Sequence[Sequence[str]]) -> tuple[sp.csr_matrix, list[str]]:
    """Raw counts: a CSR matrix (n_docs, n_terms) and the sorted terms naming its columns."""
    terms = sorted({t for tokens in token_lists for t in tokens})
    column = {term: j for j, term in enumerate(terms)}
    rows = [i for i, tokens in enumerate(token_lists) for _ in tokens]
    cols = [column[t] for tokens in token_lists for t in tokens]
    ones = np.ones(len(rows))
    # Repeated (row, column) pairs are summed when the matrix is built: that is the count.
    counts = sp.csr_matrix((ones, (rows, cols)), shape=(len(token_lists), len(terms)))
    return counts, terms


def smoothed_idf(counts: sp.spmatrix) -> np.ndarray:
    """idf(t) = ln((1 + n_docs) / (1 + df(t))) + 1 for each column of a count matrix; shape (n_terms,)."""
    n_docs = counts.shape[0]
    document_frequency = np.asarray((counts > 0).sum(axis=0)).ravel()
    return np.log((1 + n_docs) / (1 + document_frequency)) + 1


def l2_normalize_rows(X):
    """Divide every row of X (dense array or scipy sparse matrix) by its Euclidean norm.

    Rows of norm zero stay zero. Returns the same kind of matrix (CSR when X is sparse).
    """
    norms = np.sqrt(squared_row_norms(X))
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    if sp.issparse(X):
        return sp.diags(scale) @ sp.csr_matrix(X)
    return np.asarray(X, dtype=float) * scale[:, None]


def squared_row_norms(X) -> np.ndarray:
    """||x_i||² for every row of X (dense or sparse); shape (n_rows,)."""
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1), dtype=float).ravel()
    X = np.asarray(X, dtype=float)
    return np.einsum("ij,ij->i", X, X)

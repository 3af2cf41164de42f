"""A persona-audit attempt: the edited system prompts and how well their answers can be told apart.

The persona page measures whether each assistant's answers carry its signature: leave-one-out
nearest centroid on TF-IDF vectors (`evallib.persona.discriminability`), its accuracy with a
percentile bootstrap interval over probes and the permutation p (labels shuffled within probes). An
attempt stores exactly those figures, computed by the same function on the **visible** probes, and
keeps the per-response outcome (recognised or not) so that the board pairs two attempts on the same
responses (assistant x probe) with McNemar's exact test.

Held-out probe (winner's curse): `HELD_OUT_PROBE` is set aside before anything is measured. The
visible figures never see its answers (not in the vectors, not in the vocabulary, not in the idf).
Its answers are then classified by the nearest centroid of the visible answers (cosine, TF-IDF
fitted on the visible answers only): a genuine out-of-sample figure the board sets beside the
visible one. Its interval has the probe as unit (`evallib.cluster_rates.ClusteredRate`, one
cluster per probe): one held-out probe is one unit, so that interval is wide, and says so.

Errors: `evallib.persona.PersonaDataError` from the measure (too few answers...), `RoomAttemptError`
from validation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import numpy as np

from evallib import persona
from evallib.cluster_rates import ClusteredRate
from evallib.persona import readings as persona_readings
from evallib.persona.catalogue import Catalogue
from evallib.persona.classifier import UNDECIDED, class_sums, decide
from evallib.room.attempts import VERSION, answer_provenance, reading_dicts, validate_attempt
from evallib.text import l2_normalize_rows, smoothed_idf, squared_row_norms, term_counts, tokenize

#: The probe set aside for the winner's curse: the sixth and last probe of ``packs/fr/personas.json``
#: ("Une amie a lu ma nouvelle..."), an ambiguous writer's request like the five others. Chosen once,
#: before any result was seen, and never by looking at scores: that is what makes its figure honest.
#: A catalogue with fewer probes has no held-out probe (the board then says there is none).
HELD_OUT_PROBE = 5


def item_id(assistant: str, probe_index: int, probe: str) -> str:
    """The id pairing one response across attempts: probe number, a digest of the probe's text (an
    edited probe is another item) and the assistant: ``"p6-1a2b3c4d/structure"``."""
    digest = hashlib.sha256(probe.encode("utf-8")).hexdigest()[:8]
    return f"p{probe_index + 1}-{digest}/{assistant}"


def held_out_predictions(visible_texts: Sequence[str], visible_labels: Sequence[str], texts: Sequence[str],
                         classes: Sequence[str]) -> list[str | None]:
    """Each of ``texts`` assigned to the nearest centroid of the visible answers (cosine on TF-IDF).

    The vocabulary and the idf come from ``visible_texts`` only (`evallib.text.tfidf_matrix`'s
    formula); a held-out word unseen there is ignored. None: an empty vector or a tied best score
    (the conventions of `evallib.persona.classifier.decide`). Shapes: visible n_v, texts n_h.
    """
    if not texts:
        return []
    counts, terms = term_counts([tokenize(t) for t in visible_texts])
    column = {term: j for j, term in enumerate(terms)}
    idf = smoothed_idf(counts)
    visible = l2_normalize_rows(counts.multiply(idf).tocsr())
    rows = np.zeros((len(texts), len(terms)))
    for i, text in enumerate(texts):
        for token in tokenize(text):
            if token in column:
                rows[i, column[token]] += 1
    held = l2_normalize_rows(rows * idf)
    codes, classes = persona.encode_labels(visible_labels, classes)
    sums = class_sums(visible, codes, len(classes))
    norms = np.linalg.norm(sums, axis=1)
    scores = np.divide(held @ sums.T, norms[None, :], out=np.zeros((len(texts), len(classes))),
                       where=norms[None, :] > 0)
    predicted = decide(scores, squared_row_norms(held) == 0)
    return [classes[c] if c != UNDECIDED else None for c in predicted]


def _figure(value, low, high, n: int, unit: str, k: int | None = None) -> dict:
    figure = {"value": None if value is None else float(value),
              "ci95": None if low is None else [float(low), float(high)], "n": int(n), "unit": unit}
    if k is not None:
        figure["k"] = int(k)
    return figure


def build_persona_attempt(catalogue: Catalogue, responses: Mapping[tuple[str, int], object], *, model: str,
                          source: str, held_out_probe: int | None = HELD_OUT_PROBE,
                          n_permutations: int = persona.DEFAULT_PERMUTATIONS, variant: Mapping | None = None) -> dict:
    """The stored form of a persona attempt, validated.

    ``catalogue``: the edited assistants (their system prompts) and probes; ``responses``: the page's
    answers keyed (assistant, probe index), `evallib.llm.ChatResult`-like (``text``, ``failed``,
    ``source``, ``provenance``, ``model``); a missing or failed one is kept unscored. ``source``:
    "live", "recorded" or "offline". Figures on the visible probes are those of
    ``persona.discriminability(texts, labels, probes, classes=..., n_probes=len(probes))`` over the
    assistants with two usable visible answers or more (as the page measures); ``figures.held_out``
    is the accuracy on ``held_out_probe`` (None or out of range: no held-out probe). ``variant``: the
    exercise the catalogue comes from, kept in ``inputs.variant``: ``{"exercise": "rewrite", "assistant":
    name, "origin": "own" or "suggested"}`` for exercise 3's rewrite (None: the page's catalogue). Raises
    `PersonaDataError` when the visible answers cannot be measured, `RoomAttemptError` on validation.
    """
    probes, names = list(catalogue.probes), catalogue.names
    held = held_out_probe if held_out_probe is not None and 0 <= held_out_probe < len(probes) else None
    usable = {(a, i): r for (a, i), r in responses.items() if r is not None and not r.failed}
    measured = [a for a in names if sum((a, i) in usable for i in range(len(probes)) if i != held) >= 2]
    cells = [(a, i) for a in measured for i in range(len(probes)) if i != held and (a, i) in usable]
    texts = tuple(usable[c].text for c in cells)
    labels = tuple(c[0] for c in cells)
    result = persona.discriminability(texts, labels, tuple(c[1] for c in cells), classes=tuple(measured),
                                      n_probes=len(probes), n_permutations=n_permutations)
    predicted = dict(zip(cells, result.predictions))
    held_cells = [(a, held) for a in measured if held is not None and (a, held) in usable]
    predicted.update(zip(held_cells, held_out_predictions(texts, labels, [usable[c].text for c in held_cells],
                                                          measured)))
    items = []
    for a in names:
        for i, probe in enumerate(probes):
            answer = responses.get((a, i))
            scored = (a, i) in predicted
            items.append({"id": item_id(a, i, probe), "held_out": i == held,
                          "correct": predicted[(a, i)] == a if scored else None, "assistant": a, "probe": i,
                          "predicted": predicted.get((a, i)), "text": getattr(answer, "text", "") or "",
                          "answer": answer_provenance(answer, model)})
    held_right = sum(predicted[c] == c[0] for c in held_cells)
    held_rate = ClusteredRate.of([(held_right, len(held_cells))])
    low, high = result.accuracy_interval
    figures = {
        "visible": {"accuracy": _figure(result.accuracy, low, high, result.n_responses, "probe", result.n_correct),
                    "chance": result.chance, "null_mean": result.null_mean_accuracy,
                    "permutation_p": result.permutation_p_value, "permutations": len(result.permutation_accuracies)},
        "held_out": {"accuracy": _figure(held_rate.value, held_rate.low, held_rate.high, held_rate.n, "probe",
                                         held_rate.k)},
    }
    inputs = {"prompts": {a.name: a.system_prompt for a in catalogue.assistants}, "probes": probes,
              "held_out_probe": held}
    if variant is not None:
        inputs["variant"] = dict(variant)
    return validate_attempt({
        "version": VERSION, "kind": "persona", "unit": "response", "inputs": inputs,
        "provenance": {"model": model, "source": source, "vectors": "tfidf"},
        "items": items, "figures": figures, "comparison": None,
        "readings": reading_dicts([persona_readings.discrimination(result),
                                   persona_readings.accuracy_interval(result)])})

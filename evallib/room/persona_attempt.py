"""A persona-audit attempt: the edited system prompts and how well their answers can be told apart.

The persona page measures whether each assistant's answers carry its signature: leave-one-out
nearest centroid on TF-IDF vectors (`evallib.persona.discriminability`), its accuracy with a
percentile bootstrap interval over probes and the permutation p (labels shuffled within probes). An
attempt stores exactly those figures, computed by the same function on the **visible** probes, and
keeps the per-response outcome (recognised or not) so that the board pairs two attempts on the same
responses (assistant x probe) with McNemar's exact test.

Held-out probes (winner's curse): the last probes of the catalogue, as many as `held_out_probes`
says for its size, are set aside before anything is measured. The visible figures never see their
answers (not in the vectors, not in the vocabulary, not in the idf). Their answers are then
classified by the nearest centroid of the visible answers (cosine, TF-IDF fitted on the visible
answers only): a genuine out-of-sample figure the board sets beside the visible one. Its interval
has the probe as unit (`evallib.cluster_rates.ClusteredRate`, one cluster per probe).

How many (`held_out_probes`, a function of the catalogue's size alone, fixed before any answer): the
board's held-out check compares the best attempt's held-out figure with its visible one, the probe as
unit. With h held-out probes the smallest drop it detects (one-sided 5 %, power 80 %,
`evallib.room.winners_curse.detectable_drop`), at the planning spread of one probe's rate over six
assistants, `PLANNING_SPREAD` = 0.5 / sqrt(6) = 0.204 (each answer a 0/1 outcome at its widest), is
0.51 for one probe, 0.36 for two, 0.29 for three, 0.25 for four, 0.23 for five and 0.16 for ten. What
luck alone lifts the best of 30 equal attempts at that spread (2.04 standard errors, the mean of the
largest of 30 normal draws less their mean) is 0.19 on five visible probes, 0.21 on four, 0.29 on two:
two held-out probes of six (four visible) detect only a drop of 0.36, larger than the lift they are
there to check, and would cost a third of the visible probes; one probe detects 0.51. The cluster
interval of so few probes spans most of the scale too ([0.01; 1.00] on one probe at 5/6, [0.06; 1.00]
on two). So the shipped six-probe catalogue keeps its last probe held out and the board says plainly
that one probe is too few to check anything (``curse_heldout_too_few``, `evallib.room.board`), showing
no interval for it. `MIN_CHECK_PROBES` = 5 is the fewest the board treats as a check: they detect a
drop of 0.23 (under a quarter of the scale) and their interval no longer spans it (about [0.36; 0.93]
at rates of 3/6 to 5/6); whether they detect what luck lifts in a given room is then the held-out
check's own reading (``curse_heldout_too_small`` when they cannot). A catalogue of 15 probes or more
(workshop packs) holds out a quarter of them, at least five, keeping twice as many visible.

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

#: The probe set aside for the winner's curse in the shipped catalogue: the sixth and last probe of
#: ``packs/fr/personas.json`` ("Une amie a lu ma nouvelle..."), an ambiguous writer's request like the five
#: others (``held_out_probes(6) == (HELD_OUT_PROBE,)``). Chosen by position, before any result was seen,
#: never by looking at scores: that is what makes its figure honest.
HELD_OUT_PROBE = 5
#: Planning spread of one probe's rate over six assistants: a 0/1 answer at its widest, 0.5 / sqrt(6).
PLANNING_SPREAD = 0.5 / 6 ** 0.5
#: Fewest held-out probes for the board's held-out check to say anything (module docstring: five
#: detect a drop of 0.23 at `PLANNING_SPREAD`; fewer detect only drops larger than luck gives).
MIN_CHECK_PROBES = 5
#: Share of a large catalogue's probes held out (a quarter: the visible part keeps three quarters).
HELD_OUT_SHARE = 0.25
#: Fewest probes for any held-out probe: below six, every probe stays visible (the page's measure
#: needs two visible answers per assistant, and an interval over probes needs a few).
MIN_PROBES_FOR_HELD_OUT = 6


def held_out_probes(n_probes: int) -> tuple[int, ...]:
    """The probes (indices, the last ones) held out of a catalogue of ``n_probes`` probes.

    With ``h = max(MIN_CHECK_PROBES, floor(HELD_OUT_SHARE * n_probes))``: the last ``h`` probes when at
    least ``2 h`` stay visible (15 probes or more: 5 of 15, 5 of 19, 6 of 24, 10 of 40); else the last
    probe alone from `MIN_PROBES_FOR_HELD_OUT` probes on (too few to check anything: the board says so);
    else none. Raises ValueError for a negative count.

    >>> held_out_probes(6), held_out_probes(15), held_out_probes(5)
    ((5,), (10, 11, 12, 13, 14), ())
    """
    if n_probes < 0:
        raise ValueError(f"a catalogue has zero probes or more, got {n_probes}")
    if n_probes < MIN_PROBES_FOR_HELD_OUT:
        return ()
    count = max(MIN_CHECK_PROBES, int(HELD_OUT_SHARE * n_probes))
    if n_probes - count < 2 * count:
        count = 1
    return tuple(range(n_probes - count, n_probes))


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
                          source: str, held_out: Sequence[int] | None = None,
                          n_permutations: int = persona.DEFAULT_PERMUTATIONS, variant: Mapping | None = None) -> dict:
    """The stored form of a persona attempt, validated.

    ``catalogue``: the edited assistants (their system prompts) and probes; ``responses``: the page's
    answers keyed (assistant, probe index), `evallib.llm.ChatResult`-like (``text``, ``failed``,
    ``source``, ``provenance``, ``model``); a missing or failed one is kept unscored. ``source``:
    "live", "recorded" or "offline". Figures on the visible probes are those of
    ``persona.discriminability(texts, labels, probes, classes=..., n_probes=len(probes))`` over the
    assistants with two usable visible answers or more (as the page measures); ``figures.held_out``
    is the accuracy on the ``held_out`` probes (indices; None: `held_out_probes` of the catalogue's size;
    indices out of range are ignored; empty: none). ``variant``: the
    exercise the catalogue comes from, kept in ``inputs.variant``: ``{"exercise": "rewrite", "assistant":
    name, "origin": "own" or "suggested"}`` for exercise 3's rewrite (None: the page's catalogue). Raises
    `PersonaDataError` when the visible answers cannot be measured, `RoomAttemptError` on validation.
    """
    probes, names = list(catalogue.probes), catalogue.names
    chosen = held_out_probes(len(probes)) if held_out is None else held_out
    held = sorted({int(i) for i in chosen if 0 <= int(i) < len(probes)})
    usable = {(a, i): r for (a, i), r in responses.items() if r is not None and not r.failed}
    measured = [a for a in names if sum((a, i) in usable for i in range(len(probes)) if i not in held) >= 2]
    cells = [(a, i) for a in measured for i in range(len(probes)) if i not in held and (a, i) in usable]
    texts = tuple(usable[c].text for c in cells)
    labels = tuple(c[0] for c in cells)
    result = persona.discriminability(texts, labels, tuple(c[1] for c in cells), classes=tuple(measured),
                                      n_probes=len(probes), n_permutations=n_permutations)
    predicted = dict(zip(cells, result.predictions))
    held_cells = [(a, i) for i in held for a in measured if (a, i) in usable]
    predicted.update(zip(held_cells, held_out_predictions(texts, labels, [usable[c].text for c in held_cells],
                                                          measured)))
    items = []
    for a in names:
        for i, probe in enumerate(probes):
            answer = responses.get((a, i))
            scored = (a, i) in predicted
            items.append({"id": item_id(a, i, probe), "held_out": i in held,
                          "correct": predicted[(a, i)] == a if scored else None, "assistant": a, "probe": i,
                          "predicted": predicted.get((a, i)), "text": getattr(answer, "text", "") or "",
                          "answer": answer_provenance(answer, model)})
    held_rate = ClusteredRate.of([(sum(predicted[c] == c[0] for c in held_cells if c[1] == i),
                                   sum(c[1] == i for c in held_cells)) for i in held])
    low, high = result.accuracy_interval
    figures = {
        "visible": {"accuracy": _figure(result.accuracy, low, high, result.n_responses, "probe", result.n_correct),
                    "chance": result.chance, "null_mean": result.null_mean_accuracy,
                    "permutation_p": result.permutation_p_value, "permutations": len(result.permutation_accuracies)},
        "held_out": {"accuracy": _figure(held_rate.value, held_rate.low, held_rate.high, held_rate.n, "probe",
                                         held_rate.k)},
    }
    inputs = {"prompts": {a.name: a.system_prompt for a in catalogue.assistants}, "probes": probes,
              "held_out_probe": held[0] if held else None, "held_out_probes": held}
    if variant is not None:
        inputs["variant"] = dict(variant)
    return validate_attempt({
        "version": VERSION, "kind": "persona", "unit": "response", "inputs": inputs,
        "provenance": {"model": model, "source": source, "vectors": "tfidf"},
        "items": items, "figures": figures, "comparison": None,
        "readings": reading_dicts([persona_readings.discrimination(result),
                                   persona_readings.accuracy_interval(result)])})

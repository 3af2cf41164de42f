"""What the persona audit's results say, as data: a reading code and the values it rests on.

Each function looks at one result and returns a ``Reading`` (or a list of them); a page words it
in its own language from ``code`` and ``values`` and never decides what a number means itself.
Ties are reported as ties: no reading names one pair, one probe or one assistant when another
shares its value. Degenerate inputs (one pair, one probe, identical or empty answers, nothing
predicted) have their own codes. Sources: docs/persona.md#readings and docs/README.md#readings.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from evallib.persona.protocol import DiscriminabilityResult, RankComparison
from evallib.persona.permutation import RANK_DECIMALS
from evallib.readings import Reading
from evallib.text import common_opening, jaccard, vocabulary

if TYPE_CHECKING:  # only for annotations: the catalogue module loads the model layer
    from evallib.persona.catalogue import Catalogue

# A mutual confusion reads as redundancy only when each assistant is taken for the other at least
# this many times: one answer each way is what two distinct assistants produce by chance on a
# handful of probes (a single 1-1 swap), not the signature of one assistant with two labels.
MIN_CONFUSIONS_FOR_REDUNDANCY = 2

# The permutation p-value below which the accuracy reads as a signal (the usual 5 % level,
# stated on the page beside the p-value).
SIGNIFICANCE_LEVEL = 0.05

#: The values of a reading that are p-values: a page reports them as p-values ("< 0.001"), not as figures.
P_VALUES = ("p", "p_perm")

# The pair "read first" shows by default: a specialist and the paraphrase control written from its
# prompt in packs/fr/personas.json. Named only while both prompts are the shipped ones.
PARAPHRASE_PAIR = ("style", "expression")


def _pair_list(pairs: Sequence[tuple]) -> str:
    return ", ".join(f"{a} / {b}" for a, b, *_ in pairs)


def _ties(values: np.ndarray, target: float) -> np.ndarray:
    """Indices of ``values`` equal to ``target`` up to rounding (RANK_DECIMALS)."""
    return np.flatnonzero(np.round(values, RANK_DECIMALS) == np.round(target, RANK_DECIMALS))


def identical_answers(texts: Sequence[str], labels: Sequence[Hashable],
                      classes: Sequence[Hashable]) -> list[Reading]:
    """Banners for answers that cannot carry a signal because they are all the same.

    "all_identical" {n}: every answer (two or more) has the same text. Otherwise one
    "assistant_identical" {name, n} per assistant whose two or more answers are all the same text.
    Texts are compared after stripping surrounding white space. [] when nothing is identical.
    """
    stripped = [text.strip() for text in texts]
    if len(stripped) >= 2 and len(set(stripped)) == 1:
        return [Reading("all_identical", {"n": len(stripped)})]
    readings = []
    for name in classes:
        own = [text for text, label in zip(stripped, labels) if label == name]
        if len(own) >= 2 and len(set(own)) == 1:
            readings.append(Reading("assistant_identical", {"name": name, "n": len(own)}))
    return readings


def closest_vocabularies(jaccard: np.ndarray, classes: Sequence[Hashable]) -> Reading:
    """Which pair of assistants shares the most vocabulary (Jaccard index, (k, k) matrix).

    "single_pair" {a, b, top}: only two assistants, nothing to rank. "all_equal" {top, n}: every
    pair has the same index. "closest_tie" {pairs, n_tied, top, low, high}: several pairs share
    the top value. "closest" {a, b, top, low, high}: one pair on top; low/high span the others.
    """
    i, j = np.triu_indices(len(classes), 1)
    values = np.asarray(jaccard, dtype=float)[i, j]
    pairs = [(classes[a], classes[b]) for a, b in zip(i, j)]
    top = float(values.max())
    if len(pairs) == 1:
        return Reading("single_pair", {"a": pairs[0][0], "b": pairs[0][1], "top": top})
    tied = _ties(values, top)
    if len(tied) == len(pairs):
        return Reading("all_equal", {"top": top, "n": len(pairs)})
    rest = np.delete(values, tied)
    spread = {"top": top, "low": float(rest.min()), "high": float(rest.max())}
    if len(tied) > 1:
        return Reading("closest_tie", {"pairs": _pair_list([pairs[t] for t in tied]), "n_tied": len(tied), **spread})
    a, b = pairs[tied[0]]
    return Reading("closest", {"a": a, "b": b, **spread})


def discrimination(result: DiscriminabilityResult) -> Reading:
    """The overall accuracy against chance 1/k and against the page's own permutation null.

    "no_prediction" {n}: no answer got a prediction (all empty or all tied). "signal" /
    "no_signal" {correct, n, accuracy, chance, null_mean, p_perm, n_perm, level}: the
    permutation p-value is below / not below SIGNIFICANCE_LEVEL. "no_null" {correct, n,
    accuracy, chance}: no permutation was run.
    """
    n = result.n_responses
    if result.n_undecided == n:
        return Reading("no_prediction", {"n": n})
    values = {"correct": result.n_correct, "n": n, "accuracy": result.accuracy, "chance": result.chance}
    if result.permutation_p_value is None:
        return Reading("no_null", values)
    values |= {"null_mean": result.null_mean_accuracy, "p_perm": result.permutation_p_value,
               "n_perm": len(result.permutation_accuracies), "level": SIGNIFICANCE_LEVEL}
    return Reading("signal" if result.permutation_p_value < SIGNIFICANCE_LEVEL else "no_signal", values)


def accuracy_interval(result: DiscriminabilityResult) -> Reading:
    """How to read the bootstrap-over-probes interval of the accuracy.

    "single_probe" {accuracy}: one probe, nothing to resample, the interval says nothing.
    "zero_width" {accuracy, n_probes}: every resample gives the same accuracy (every probe scores
    the same): uninformative, not certainty. "bootstrap" {low, high, n_probes, confidence}.
    """
    low, high = result.accuracy_interval
    if result.n_probes_answered == 1:
        return Reading("single_probe", {"accuracy": result.accuracy})
    if high - low == 0:
        return Reading("zero_width", {"accuracy": result.accuracy, "n_probes": result.n_probes_answered})
    return Reading("bootstrap", {"low": low, "high": high, "n_probes": result.n_probes_answered,
                                 "confidence": result.confidence})


def undecided(result: DiscriminabilityResult) -> Reading | None:
    """"undecided" {n, n_empty, n_tied}: answers without a prediction, counted as errors; else None."""
    if result.n_undecided == 0:
        return None
    return Reading("undecided", {"n": result.n_undecided, "n_empty": result.n_empty,
                                 "n_tied": result.n_undecided - result.n_empty})


def confusions(result: DiscriminabilityResult) -> list[Reading]:
    """Mutual confusions, each read as a redundancy or as an isolated swap.

    "no_prediction": nothing was predicted, so the absence of confusion means nothing.
    "mutual_redundancy" {a, b, ab, ba}: each taken for the other MIN_CONFUSIONS_FOR_REDUNDANCY
    times or more. "mutual_swap" {a, b, ab, ba}: fewer (e.g. one answer each way).
    "no_mutual": answers were predicted and no pair swaps them.
    """
    if result.n_undecided == result.n_responses:
        return [Reading("no_prediction")]
    if not result.mutual_confusions:
        return [Reading("no_mutual")]
    return [Reading("mutual_redundancy" if min(m.a_as_b, m.b_as_a) >= MIN_CONFUSIONS_FOR_REDUNDANCY
                    else "mutual_swap", {"a": m.a, "b": m.b, "ab": m.a_as_b, "ba": m.b_as_a})
            for m in result.mutual_confusions]


def pair_to_merge(result: DiscriminabilityResult) -> Reading:
    """Exercise 1: the most confused pair, both directions counted.

    "no_prediction" {n}; "none": answers were predicted and none was confused; "pair" {a, b,
    count}: one pair on top, each taken for the other MIN_CONFUSIONS_FOR_REDUNDANCY times or more;
    "pair_weak" {a, b, count, ab, ba}: one pair on top, but too few confusions one way to call it a
    redundancy; "tie" {pairs, n_tied, count}: several pairs share the largest count, none is
    singled out.
    """
    if result.n_undecided == result.n_responses:
        return Reading("no_prediction", {"n": result.n_responses})
    pairs = result.most_confused_pairs
    if not pairs:
        return Reading("none")
    if len(pairs) > 1:
        return Reading("tie", {"pairs": _pair_list(pairs), "n_tied": len(pairs), "count": pairs[0][2]})
    a, b, count = pairs[0]
    i, j = result.classes.index(a), result.classes.index(b)
    ab, ba = int(result.confusion[i, j]), int(result.confusion[j, i])
    if min(ab, ba) < MIN_CONFUSIONS_FOR_REDUNDANCY:
        return Reading("pair_weak", {"a": a, "b": b, "count": count, "ab": ab, "ba": ba})
    return Reading("pair", {"a": a, "b": b, "count": count})


def probes(result: DiscriminabilityResult) -> Reading:
    """Exercise 2: which probe separates the assistants best and worst (accuracy per probe).

    "no_probe": no probe has answers. "single_probe" {best}: one probe answered. "flat" {best}:
    every answered probe has the same accuracy. "best_worst" {best, best_ids, worst, worst_ids}
    when one probe is best and one worst; "best_worst_tied" (same values) when several share
    either end. Probe numbers start at 1.
    """
    scores = np.asarray(result.accuracy_per_probe, dtype=float)
    answered = np.flatnonzero(np.isfinite(scores))
    if len(answered) == 0:
        return Reading("no_probe")
    best, worst = float(scores[answered].max()), float(scores[answered].min())
    if len(answered) == 1:
        return Reading("single_probe", {"best": best})
    if best == worst:
        return Reading("flat", {"best": best})
    best_ids = [int(p) + 1 for p in answered if scores[p] == best]
    worst_ids = [int(p) + 1 for p in answered if scores[p] == worst]
    code = "best_worst" if len(best_ids) == len(worst_ids) == 1 else "best_worst_tied"
    return Reading(code, {"best": best, "best_ids": ", ".join(map(str, best_ids)),
                          "worst": worst, "worst_ids": ", ".join(map(str, worst_ids))})


def ranks(comparison: RankComparison) -> list[Reading]:
    """Prompt vs answer distances: does reading the prompts predict how the answers differ?

    "distances_constant" {side, n, d} alone when every pair has the same prompt distance, answer
    distance or both (``side`` "prompts", "answers" or "both"; ``d`` the shared distance): ranks are
    then ties, and nothing can be read from which pair "changes rank".
    "The prompts foretell how the answers differ" is said only when the Mantel test concludes
    (p <= SIGNIFICANCE_LEVEL). The exact test has k! relabellings for k assistants, so p >= 1/k!:
    3 assistants give 3 pairs and 6 relabellings, p >= 1/6, and no size below 4 can conclude.
    First reading, when no pair changes rank: "ranks_agree" {n, p, n_perm} (the test concludes);
    "ranks_agree_too_few" {n, k, n_perm, p_min} (1 or 2 pairs: rho undefined; or 1/k! above the
    level: no test can conclude at this size); "ranks_agree_not_shown" {n, p, n_perm} (it could
    have, it did not). When some pair changes rank: "no_rho" {changed, n} when Spearman's rho is
    undefined (fewer than three pairs, or a constant distance); "mantel_too_few" {changed, n, k,
    rho, p, n_perm, p_min} when 1/k! is above the level; otherwise "mantel_exact" /
    "mantel_sampled" {changed, n, rho, p, n_perm}.
    Second reading, the pair with the closest answers: "closest_tie" {pairs, n_tied, dr} when
    several pairs share the smallest answer distance; "closest_as_prompts" {a, b, dr, dp} when
    that pair also has (one of) the closest prompts; "closest_unlike_prompts" {a, b, dr, dp, rp,
    n} otherwise, the case where reading the prompts would mislead. No second reading when the
    ranks agree (the prompts told the same story).
    """
    table, mantel = comparison.table, comparison.mantel
    changed, n = comparison.n_changed, comparison.n_pairs
    constant = [side for side, column in (("prompts", "d_prompts"), ("answers", "d_responses"))
                if n > 1 and len(_ties(table[column].to_numpy(), table[column].iloc[0])) == n]
    if constant:  # one ranking is a single n-way tie: whatever "changes rank" would be tie-breaking
        return [Reading("distances_constant", {"side": "both" if len(constant) == 2 else constant[0], "n": n,
                                               "d": float(table["d_responses" if "answers" in constant
                                                                else "d_prompts"].iloc[0])})]
    assistants = len(set(table["a"]) | set(table["b"]))
    p_min = 1 / mantel.n_permutations if mantel.exact else 1 / (1 + mantel.n_permutations)
    too_few = not np.isfinite(mantel.rho) or p_min > SIGNIFICANCE_LEVEL
    if changed == 0:
        if too_few:
            return [Reading("ranks_agree_too_few", {"n": n, "k": assistants, "n_perm": mantel.n_permutations,
                                                    "p_min": p_min})]
        values = {"n": n, "p": mantel.p_value, "n_perm": mantel.n_permutations}
        return [Reading("ranks_agree" if mantel.p_value <= SIGNIFICANCE_LEVEL else "ranks_agree_not_shown", values)]
    if not np.isfinite(mantel.rho):
        first = Reading("no_rho", {"changed": changed, "n": n})
    elif too_few:
        first = Reading("mantel_too_few", {"changed": changed, "n": n, "k": assistants, "rho": mantel.rho,
                                           "p": mantel.p_value, "n_perm": mantel.n_permutations, "p_min": p_min})
    else:
        first = Reading("mantel_exact" if mantel.exact else "mantel_sampled",
                        {"changed": changed, "n": n, "rho": mantel.rho, "p": mantel.p_value,
                         "n_perm": mantel.n_permutations})
    d_responses, d_prompts = table["d_responses"].to_numpy(), table["d_prompts"].to_numpy()
    closest = _ties(d_responses, d_responses.min())
    if len(closest) > 1:
        pairs = list(zip(table["a"].iloc[closest], table["b"].iloc[closest]))
        return [first, Reading("closest_tie", {"pairs": _pair_list(pairs), "n_tied": len(closest),
                                               "dr": float(d_responses.min())})]
    row = table.iloc[closest[0]]
    values = {"a": row["a"], "b": row["b"], "dr": float(row["d_responses"]), "dp": float(row["d_prompts"])}
    if closest[0] in _ties(d_prompts, d_prompts.min()):
        return [first, Reading("closest_as_prompts", values)]
    return [first, Reading("closest_unlike_prompts", values | {"rp": int(row["rank_prompts"]), "n": n})]


def rewrite(before: DiscriminabilityResult, after: DiscriminabilityResult, name: Hashable) -> Reading:
    """Exercise 3: what rewriting assistant ``name``'s prompt changed.

    The pair followed is the most confused pair before that involves ``name`` (the first in
    class order when several tie). Codes: "no_gain" {acc_before, acc_after} when accuracy did not
    rise; with a pair {a, b, before, after, acc_before, acc_after}: "fixed" (its confusions fell
    to 0), "reduced" (fell, not to 0), "moved" (did not fall: the gain came from elsewhere);
    "gain" {acc_before, acc_after} when accuracy rose and ``name`` was in no confused pair.
    """
    accuracies = {"acc_before": before.accuracy, "acc_after": after.accuracy}
    if after.accuracy <= before.accuracy:
        return Reading("no_gain", accuracies)
    pairs = [p for p in before.most_confused_pairs if name in p[:2]]
    if not pairs:
        return Reading("gain", accuracies)
    a, b, cell_before = pairs[0]
    i, j = after.classes.index(a), after.classes.index(b)
    cell_after = int(after.confusion[i, j] + after.confusion[j, i])
    code = "fixed" if cell_after == 0 else "reduced" if cell_after < cell_before else "moved"
    return Reading(code, {"a": a, "b": b, "before": cell_before, "after": cell_after, **accuracies})


def read_first_pair(catalogue: Catalogue, default: Catalogue) -> Reading:
    """The two assistants shown side by side first, and why.

    "paraphrase_pair" {a, b, overlap}: the shipped specialist and its paraphrase control, while both
    still carry their shipped prompts; ``overlap`` is the Jaccard index of their vocabularies once the
    opening every prompt of the catalogue shares is set aside (`evallib.text.common_opening`).
    "any_pair" {a, b}: the first two assistants of an edited catalogue, with no claim about how their
    prompts relate.
    """
    a, b = PARAPHRASE_PAIR
    if all(n in catalogue.names and n in default.names and catalogue.prompt_of(n) == default.prompt_of(n)
           for n in (a, b)):
        opening = common_opening([catalogue.prompt_of(n) for n in catalogue.names])
        own = [vocabulary([catalogue.prompt_of(n)[len(opening):]]) for n in (a, b)]
        return Reading("paraphrase_pair", {"a": a, "b": b, "overlap": jaccard(*own)})
    return Reading("any_pair", {"a": catalogue.names[0], "b": catalogue.names[1]})


def unmeasured(name: Hashable, n_usable: int, n_unrecorded: int, *, live: bool) -> Reading:
    """Why assistant ``name`` is left out of the measure (it has fewer than two usable answers).

    "needs_recording" {name, n}: offline, ``n_unrecorded`` of its requests have no recording
    (recordings are found by the exact prompt: an edited or new prompt has none), so its answers
    need live mode or a recording. "too_few_answers" {name, n}: ``n_usable`` answers, fewer than
    the two leave-one-out needs (one held out, the others make its centroid).
    """
    if n_unrecorded and not live:
        return Reading("needs_recording", {"name": name, "n": n_unrecorded})
    return Reading("too_few_answers", {"name": name, "n": n_usable})

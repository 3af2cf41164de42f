"""evallib.persona.readings: one test per reading code, ties and degenerate inputs included."""

from dataclasses import replace

import numpy as np
import pytest

from evallib.persona import readings
from evallib.persona import (discriminability, discriminability_from_vectors, most_confused_pairs,
                             mutual_confusions, rank_comparison)
from evallib.persona.catalogue import load_catalogue
from evallib.readings import Reading

NAMES = ["a", "b", "c"]


def result_of(conf, undecided=(0, 0, 0), per_probe=(0.5, 0.5), n_perm=10, p_perm=0.01, interval=(0.4, 0.6),
              n_probes=2):
    """A real DiscriminabilityResult with its reading-relevant fields set to the given values."""
    base = discriminability_from_vectors(np.eye(6)[[0, 1, 2, 3, 4, 5]], list("aabbcc"), [0, 1] * 3,
                                         n_permutations=n_perm)
    conf = np.asarray(conf)
    undecided = np.asarray(undecided)
    n = int(conf.sum() + undecided.sum())
    return replace(base, confusion=conf, undecided=undecided, n_undecided=int(undecided.sum()),
                   n_correct=int(np.trace(conf)), n_responses=n, accuracy=np.trace(conf) / n,
                   mutual_confusions=tuple(mutual_confusions(conf, NAMES)),
                   most_confused_pairs=tuple(most_confused_pairs(conf, NAMES)),
                   accuracy_per_probe=tuple(per_probe), permutation_p_value=p_perm if n_perm else None,
                   accuracy_interval=interval, n_probes_answered=n_probes)


# ---------------------------------------------------------------- identical answers


def test_identical_answers_all_and_per_assistant():
    assert readings.identical_answers(["même"] * 4, list("aabb"), ["a", "b"]) == [Reading("all_identical", {"n": 4})]
    found = readings.identical_answers(["x", "x ", "y", "z"], list("aabb"), ["a", "b"])
    assert found == [Reading("assistant_identical", {"name": "a", "n": 2})]
    assert readings.identical_answers(["x", "y", "z", "w"], list("aabb"), ["a", "b"]) == []
    assert readings.identical_answers(["seul"], ["a"], ["a"]) == []  # one item: nothing is identical
    assert readings.identical_answers(["", ""], ["a", "b"], ["a", "b"])[0].code == "all_identical"  # all empty


# ---------------------------------------------------------------- closest vocabularies


def jaccard(ab, ac, bc):
    return np.array([[1, ab, ac], [ab, 1, bc], [ac, bc, 1]], dtype=float)


def test_closest_vocabularies_one_pair_on_top():
    assert readings.closest_vocabularies(jaccard(0.5, 0.2, 0.3), NAMES) == Reading(
        "closest", {"a": "a", "b": "b", "top": 0.5, "low": 0.2, "high": 0.3})


def test_closest_vocabularies_tie_names_every_tied_pair():
    reading = readings.closest_vocabularies(jaccard(0.5, 0.5, 0.3), NAMES)
    assert reading.code == "closest_tie" and reading.values["pairs"] == "a / b, a / c"
    assert reading.values["n_tied"] == 2 and reading.values["low"] == reading.values["high"] == 0.3


def test_closest_vocabularies_all_equal_and_single_pair():
    # Identical answers: every pair has the same index; no "closest pair" is named.
    assert readings.closest_vocabularies(jaccard(1.0, 1.0, 1.0), NAMES) == Reading("all_equal", {"top": 1.0, "n": 3})
    two = readings.closest_vocabularies(np.array([[1, 0.4], [0.4, 1]]), ["a", "b"])
    assert two == Reading("single_pair", {"a": "a", "b": "b", "top": 0.4})


# ---------------------------------------------------------------- discrimination and interval


def test_discrimination_signal_no_signal_no_null_and_no_prediction():
    conf = np.diag([2, 2, 2])
    assert readings.discrimination(result_of(conf, p_perm=0.01)).code == "signal"
    reading = readings.discrimination(result_of(conf, p_perm=0.2))
    assert reading.code == "no_signal" and reading.values["n_perm"] == 10 and reading.values["level"] == 0.05
    assert "null_mean" in reading.values
    assert readings.discrimination(result_of(conf, n_perm=0)).code == "no_null"
    nothing = result_of(np.zeros((3, 3), dtype=int), undecided=(2, 2, 2))
    assert readings.discrimination(nothing) == Reading("no_prediction", {"n": 6})


def test_interval_bootstrap_zero_width_and_single_probe():
    conf = np.diag([2, 2, 2])
    assert readings.accuracy_interval(result_of(conf)).code == "bootstrap"
    assert readings.accuracy_interval(result_of(conf, interval=(0.5, 0.5))).code == "zero_width"
    assert readings.accuracy_interval(result_of(conf, interval=(1.0, 1.0), n_probes=1)).code == "single_probe"


def test_undecided_counts_empty_and_tied_answers():
    assert readings.undecided(result_of(np.diag([2, 2, 2]))) is None
    reading = readings.undecided(result_of(np.diag([2, 1, 2]), undecided=(0, 1, 0)))
    assert reading == Reading("undecided", {"n": 1, "n_empty": 0, "n_tied": 1})


# ---------------------------------------------------------------- confusions and exercise 1


def test_confusions_redundancy_swap_none_and_no_prediction():
    redundancy = result_of([[0, 2, 0], [2, 0, 0], [0, 0, 2]])
    assert readings.confusions(redundancy) == [Reading("mutual_redundancy", {"a": "a", "b": "b", "ab": 2, "ba": 2})]
    # A single 1-1 swap is not called a redundancy.
    swap = result_of([[1, 1, 0], [1, 1, 0], [0, 0, 2]])
    assert readings.confusions(swap)[0].code == "mutual_swap"
    assert readings.confusions(result_of(np.diag([2, 2, 2]))) == [Reading("no_mutual")]
    # Nothing predicted (identical answers): no green "no mutual confusion".
    assert readings.confusions(result_of(np.zeros((3, 3), dtype=int), undecided=(2, 2, 2))) == [
        Reading("no_prediction")]


def test_pair_to_merge_pair_weak_pair_tie_none_and_no_prediction():
    assert readings.pair_to_merge(result_of([[0, 2, 0], [2, 0, 0], [0, 0, 2]])) == Reading(
        "pair", {"a": "a", "b": "b", "count": 4})
    # One confusion each way (or one way only) is not a pair to merge.
    assert readings.pair_to_merge(result_of([[1, 1, 0], [1, 1, 0], [0, 0, 2]])) == Reading(
        "pair_weak", {"a": "a", "b": "b", "count": 2, "ab": 1, "ba": 1})
    assert readings.pair_to_merge(result_of([[1, 1, 0], [0, 2, 0], [0, 0, 2]])).code == "pair_weak"
    tie = readings.pair_to_merge(result_of([[0, 1, 1], [0, 2, 0], [0, 0, 2]]))
    assert tie == Reading("tie", {"pairs": "a / b, a / c", "n_tied": 2, "count": 1})
    assert readings.pair_to_merge(result_of(np.diag([2, 2, 2]))) == Reading("none")
    assert readings.pair_to_merge(result_of(np.zeros((3, 3), dtype=int), undecided=(2, 2, 2))).code == "no_prediction"


# ---------------------------------------------------------------- exercise 2


@pytest.mark.parametrize("scores, code, values", [
    ((0.5, 1.0, 0.0), "best_worst", {"best": 1.0, "best_ids": "2", "worst": 0.0, "worst_ids": "3"}),
    ((1.0, 1.0, 0.0), "best_worst_tied", {"best": 1.0, "best_ids": "1, 2", "worst": 0.0, "worst_ids": "3"}),
    ((0.5, 0.5, 0.5), "flat", {"best": 0.5}),
    ((0.5, float("nan")), "single_probe", {"best": 0.5}),
    ((float("nan"), float("nan")), "no_probe", {}),
])
def test_probe_readings(scores, code, values):
    assert readings.probes(result_of(np.diag([2, 2, 2]), per_probe=scores)) == Reading(code, values)


# ---------------------------------------------------------------- prompts vs answers


def matrices(prompts, responses):
    def sym(ab, ac, bc):
        return np.array([[0, ab, ac], [ab, 0, bc], [ac, bc, 0]], dtype=float)
    return rank_comparison(sym(*prompts), sym(*responses), NAMES, n_permutations=10)


def test_three_assistants_in_the_same_order_cannot_conclude():
    """3 pairs, 3! = 6 relabellings: p >= 1/6. The old reading said "the prompts foretell" here."""
    assert readings.ranks(matrices((0.9, 0.5, 0.2), (0.8, 0.4, 0.1))) == [
        Reading("ranks_agree_too_few", {"n": 3, "k": 3, "n_perm": 6, "p_min": 1 / 6})]


def test_two_assistants_one_pair_cannot_conclude():
    one = rank_comparison(np.array([[0, .5], [.5, 0]]), np.array([[0, .2], [.2, 0]]), ["a", "b"])
    assert readings.ranks(one) == [Reading("ranks_agree_too_few", {"n": 1, "k": 2, "n_perm": 2, "p_min": 0.5})]


def ordered(k, shuffle=()):
    """(k, k) distances that rank the pairs 1..k(k-1)/2; the response ranking swaps the pairs in ``shuffle``."""
    i, j = np.triu_indices(k, 1)
    prompts, responses = np.zeros((k, k)), np.zeros((k, k))
    values = np.arange(1, len(i) + 1) / (len(i) + 1)
    swapped = values.copy()
    for a, b in shuffle:
        swapped[[a, b]] = swapped[[b, a]]
    prompts[i, j] = prompts[j, i] = values
    responses[i, j] = responses[j, i] = swapped
    return rank_comparison(prompts, responses, [f"p{x}" for x in range(k)])


def test_five_assistants_in_the_same_order_conclude_with_the_mantel_test():
    comparison = ordered(5)
    [reading] = readings.ranks(comparison)
    assert reading.code == "ranks_agree" and reading.values["p"] <= 0.05 and reading.values["n_perm"] == 120
    assert reading.values["p"] == comparison.mantel.p_value


def test_ranks_agree_not_shown_when_the_test_could_conclude_and_does_not():
    """Four assistants as the corners of a rectangle, same distances on both sides: the ranks agree, but
    the relabellings that map the rectangle onto itself agree as well (p = 8/24)."""
    square = np.array([[0, .1, .5, .9], [.1, 0, .9, .5], [.5, .9, 0, .1], [.9, .5, .1, 0]])
    comparison = rank_comparison(square, square, ["a", "b", "c", "d"])
    [reading] = readings.ranks(comparison)
    assert reading == Reading("ranks_agree_not_shown", {"n": 6, "p": comparison.mantel.p_value, "n_perm": 24})
    assert reading.values["p"] > 0.05


def test_ranks_mantel_and_closest_unlike_prompts():
    found = readings.ranks(matrices((0.9, 0.5, 0.2), (0.1, 0.4, 0.8)))
    assert found[0].code == "mantel_too_few" and found[0].values["n_perm"] == 6 and found[0].values["k"] == 3
    assert readings.ranks(ordered(5, [(0, 9)]))[0].code == "mantel_exact"
    assert found[1].code == "closest_unlike_prompts"
    assert found[1].values == {"a": "a", "b": "b", "dr": 0.1, "dp": 0.9, "rp": 1, "n": 3}


def test_ranks_closest_as_prompts_and_closest_tie_and_no_rho():
    as_prompts = readings.ranks(matrices((0.9, 0.5, 0.2), (0.4, 0.8, 0.1)))
    assert as_prompts[1] == Reading("closest_as_prompts", {"a": "b", "b": "c", "dr": 0.1, "dp": 0.2})
    tie = readings.ranks(matrices((0.9, 0.5, 0.2), (0.1, 0.1, 0.8)))
    assert tie[1] == Reading("closest_tie", {"pairs": "a / b, a / c", "n_tied": 2, "dr": 0.1})
    # Two pairs tied as closest among three: rho is still defined, but 3 assistants cannot conclude.
    assert readings.ranks(matrices((0.9, 0.5, 0.2), (0.1, 0.1, 0.8)))[0].code == "mantel_too_few"


def test_identical_answers_or_prompts_read_as_one_tie_not_as_rank_changes():
    # Identical answers: every answer distance 0; the old reading counted "2 of 3 pairs change rank".
    assert readings.ranks(matrices((0.9, 0.5, 0.2), (0.0, 0.0, 0.0))) == [
        Reading("distances_constant", {"side": "answers", "n": 3, "d": 0.0})]
    assert readings.ranks(matrices((0.5, 0.5, 0.5), (0.1, 0.4, 0.8)))[0].values["side"] == "prompts"
    assert readings.ranks(matrices((0.5, 0.5, 0.5), (0.3, 0.3, 0.3)))[0].values == {"side": "both", "n": 3, "d": 0.3}


# ---------------------------------------------------------------- exercise 3


def test_rewrite_fixed_reduced_moved_gain_and_no_gain():
    before = result_of([[0, 11, 0], [1, 1, 0], [0, 0, 12]])
    after_fixed = result_of([[12, 0, 0], [0, 12, 0], [0, 0, 12]])
    assert readings.rewrite(before, after_fixed, "b").code == "fixed"
    # The confused cell dropped from 12 to 1: reduced, not "another assistant moved".
    reduced = readings.rewrite(before, result_of([[11, 1, 0], [0, 12, 0], [0, 0, 12]]), "b")
    assert reduced.code == "reduced" and (reduced.values["before"], reduced.values["after"]) == (12, 1)
    moved = readings.rewrite(before, result_of([[0, 11, 1], [1, 11, 0], [0, 0, 12]]), "b")
    assert moved.code == "moved"
    assert readings.rewrite(before, before, "b").code == "no_gain"
    assert readings.rewrite(before, after_fixed, "c").code == "gain"  # c was in no confused pair


# ---------------------------------------------------------------- read first


def test_read_first_pair_names_the_paraphrase_only_while_the_prompts_are_shipped():
    default = load_catalogue()
    shipped = readings.read_first_pair(default, default)
    assert shipped.code == "paraphrase_pair" and (shipped.values["a"], shipped.values["b"]) == ("style", "expression")
    edited = default.with_prompt("expression", "Un tout autre prompt.")
    assert readings.read_first_pair(edited, default) == Reading(
        "any_pair", {"a": default.names[0], "b": default.names[1]})


def test_the_paraphrase_pairs_overlap_is_computed_past_the_opening_every_prompt_shares():
    """The sentence once said "two prompts that share almost no words" beside six prompts opening alike."""
    from evallib.text import common_opening, jaccard, vocabulary
    default = load_catalogue()
    opening = common_opening([default.prompt_of(n) for n in default.names])
    assert opening and all(default.prompt_of(n).startswith(opening) for n in default.names)
    own = [vocabulary([default.prompt_of(n)[len(opening):]]) for n in ("style", "expression")]
    whole = [vocabulary([default.prompt_of(n)]) for n in ("style", "expression")]
    overlap = readings.read_first_pair(default, default).values["overlap"]
    assert overlap == jaccard(*own) and overlap < jaccard(*whole)


def test_readings_on_all_identical_answers_end_to_end():
    texts = ["Le même conseil pour tout le monde."] * 12
    labels = [n for n in ("structure", "style", "pratique", "relecture") for _ in range(3)]
    result = discriminability(texts, labels, [0, 1, 2] * 4, n_permutations=20)
    assert readings.discrimination(result).code == "no_prediction"
    assert readings.confusions(result) == [Reading("no_prediction")]
    assert readings.pair_to_merge(result).code == "no_prediction"
    assert readings.probes(result).code == "flat"


def test_unmeasured_needs_recording_offline_and_too_few_answers_otherwise():
    assert readings.unmeasured("style", 0, 6, live=False) == Reading("needs_recording", {"name": "style", "n": 6})
    # Live, the same missing answers are simply not collected yet.
    assert readings.unmeasured("style", 0, 6, live=True) == Reading("too_few_answers", {"name": "style", "n": 0})
    assert readings.unmeasured("style", 1, 0, live=False) == Reading("too_few_answers", {"name": "style", "n": 1})

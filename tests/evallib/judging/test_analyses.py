"""Analyses and bias measures on hand-built results: figures against reference libraries, and each
reading on the values that trigger it."""

import math
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from evallib.judging.analyses import (HumanScoresError, compare_templates, cost, criterion_means, mean_ci, means_by,
                                      parse_human_scores, score_distribution, status_summary, validity_agreement,
                                      weakest, human_agreement)
from evallib.judging.biases import (blinding_summary, injection_effect, model_family, position_bias,
                                    self_preference, verbosity_effect)
from evallib.judging.grades import Grade, Verdict
from evallib.judging.pipeline import PaddedGrade, PairwiseComparison
from evallib.judging.report import judge_gate
from evallib.judging.rubric import parse_rubric
from evallib.llm import ChatResult
from tests.evallib.judging.conftest import result, scored, syntax

UNPARSEABLE = Grade("unparseable", problem="no_object", raw="Bonne réponse, 8/10.")


def codes(readings):
    return [r.code for r in readings]


def test_mean_ci_matches_scipy():
    values = [6, 8, 10, 7, 9]
    stat = mean_ci(values)
    low, high = stats.t.interval(0.95, len(values) - 1, loc=np.mean(values), scale=stats.sem(values))
    assert (stat.n, stat.mean) == (5, 8.0)
    assert stat.low == pytest.approx(low) and stat.high == pytest.approx(high)
    assert mean_ci([9, 10, 10], bounds=(0, 10)).high == 10


def test_means_by_type_with_n_and_readings():
    results = [result("p1", scored(8)), result("p2", scored(6)), result("p3", UNPARSEABLE),
               result("j1", scored(9), "JSON"), result("r1", scored(7), "Regex"), result("r2", scored(7), "Regex"),
               result("x", UNPARSEABLE, "JSON", "hard")]
    rows, readings = means_by(results, "type", 10)
    assert [(r.group, r.cases, r.unscored, r.stat.n, r.stat.mean) for r in rows] == \
        [("Python", 3, 1, 2, 7.0), ("JSON", 2, 1, 1, 9.0), ("Regex", 2, 0, 2, 7.0)]
    assert [(r.code, r.values["group"]) for r in readings] == [("single_case_group", "JSON"), ("zero_width_interval", "Regex")]
    _, readings = means_by([result("a", UNPARSEABLE, difficulty="hard")], "difficulty")
    assert codes(readings) == ["group_all_unscored"]


def test_distribution_and_criterion_means(rubric):
    results = [result("a", scored(10)), result("b", scored(5, 1, 2, 2)), result("c", UNPARSEABLE)]
    assert score_distribution(results, rubric) == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    means = {c.name: (c.stat.n, c.stat.mean, c.share) for c in criterion_means(results, rubric)}
    assert means == {"FORMAT": (2, 2.0, 2 / 3), "VALIDITY": (2, 3.0, 0.75), "ADEQUACY": (2, 2.5, 2.5 / 3)}


def test_weakest_three_without_ties():
    results = [result(str(s), scored(s, weaknesses=f"w{s}")) for s in (9, 4, 7, 5, 10)]
    chosen, readings = weakest(results)
    assert [r.case.id for r in chosen] == ["4", "5", "7"] and readings == []


def test_weakest_with_a_tie_at_the_boundary_shows_every_tied_case():
    results = [result(name, scored(s)) for name, s in (("a", 6), ("b", 4), ("c", 6), ("d", 6), ("e", 9))]
    chosen, readings = weakest(results)
    assert [r.case.id for r in chosen] == ["b", "a", "c", "d"]
    assert readings[0].code == "weakest_tie"
    assert readings[0].values == {"score": 6, "tied": 3, "shown": 4, "places": 2}


def test_weakest_when_nothing_is_scored():
    assert weakest([result("a", UNPARSEABLE)]) == ([], [weakest([])[1][0]])
    assert codes(weakest([])[1]) == ["weakest_none"]


def test_status_summary_readings():
    every = [result("a", UNPARSEABLE), result("b", Grade("truncated"))]
    summary, readings = status_summary(every)
    assert summary.counts["unparseable"] == 1 and summary.counts["truncated"] == 1 and summary.share_unscored == 1
    assert codes(readings) == ["all_unscored"]
    zero = Grade("scored", {"FORMAT": 0, "VALIDITY": 0, "ADEQUACY": 0}, 0, by="code")
    _, readings = status_summary([result("a", scored(8)), result("b", UNPARSEABLE), result("c", zero)])
    assert codes(readings) == ["some_unscored", "empty_scored_by_code"]
    assert codes(status_summary([])[1]) == ["no_cases"]


def test_validity_agreement_kappa_matches_scikit_learn(rubric):
    code = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1]
    model = [1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1]
    results = [result(f"c{i}", scored(3 + (4 if m else 1) + 2, 3, 4 if m else 1, 2), checks=syntax(bool(c)))
               for i, (c, m) in enumerate(zip(code, model))]
    agreement, readings = validity_agreement(results, rubric)
    assert (agreement.code, agreement.model) == (code, model)
    assert agreement.kappa.kappa == pytest.approx(cohen_kappa_score(code, model))  # 0.625, seed pair
    assert agreement.kappa.agreement == pytest.approx(10 / 12)
    assert codes(readings) == ["validity_kappa"]


def test_validity_threshold_is_half_the_points(rubric):
    results = [result("a", scored(7, 3, 2, 2), checks=syntax(True)), result("b", scored(6, 3, 1, 2), checks=syntax(True))]
    assert validity_agreement(results, rubric)[0].model == [1, 0]


def test_validity_readings_when_undefined_or_impossible(rubric):
    same = [result(f"c{i}", scored(10), checks=syntax(True)) for i in range(3)]
    assert codes(validity_agreement(same, rubric)[1]) == ["validity_kappa_undefined"]
    assert codes(validity_agreement(same[:1], rubric)[1]) == ["validity_too_few"]
    other = parse_rubric({"criteria": [{"name": "STYLE", "max_points": 3, "description": "x"}]})
    assert codes(validity_agreement(same, other)[1]) == ["no_validity_criterion"]


def test_weighted_kappa_judge_vs_human_matches_scikit_learn(rubric):
    judge = [7, 8, 5, 9, 6, 3, 8, 7, 4, 10, 6, 2]
    human = [8, 8, 4, 9, 7, 2, 6, 7, 5, 9, 6, 3]
    results = [result(f"c{i}", scored(s)) for i, s in enumerate(judge)] + [result("u", UNPARSEABLE)]
    kappa, readings = human_agreement(results, {f"c{i}": h for i, h in enumerate(human)} | {"u": 5}, rubric)
    expected = cohen_kappa_score(judge, human, weights="quadratic", labels=list(range(11)))
    assert kappa.kappa == pytest.approx(expected) and kappa.n == 12
    assert codes(readings) == ["human_kappa"]
    assert codes(human_agreement(results, {"c0": 7}, rubric)[1]) == ["human_too_few"]


def test_parse_human_scores_names_the_line():
    assert parse_human_scores("case_id,score\na,7\n\nb;10", ["a", "b"], 10) == {"a": 7, "b": 10}
    for text, code, line in (("a,7\nz,3", "unknown_case", 2), ("a,8/10", "not_integer", 1), ("a,7.5", "not_integer", 1),
                             ("a,11", "out_of_range", 1), ("a,1\na,2", "duplicate", 2), ("a", "bad_line", 1)):
        with pytest.raises(HumanScoresError) as caught:
            parse_human_scores(text, ["a", "b"], 10)
        assert (caught.value.code, caught.value.details["line"]) == (code, line)


def ab(a_scores, b_scores):
    return ([result(str(i), scored(x)) for i, x in enumerate(a_scores)],
            [result(str(i), scored(x)) for i, x in enumerate(b_scores)])


def test_template_comparison_paired_differences_and_exact_test():
    a = [result(c, scored(s)) for c, s in (("1", 6), ("2", 7), ("3", 8), ("4", 5), ("5", 9))] + [result("6", UNPARSEABLE)]
    b = [result(c, scored(s)) for c, s in (("1", 8), ("2", 8), ("3", 8), ("4", 7), ("5", 10), ("6", 9))]
    comparison, readings = compare_templates(a, b)
    assert comparison.differences == [2, 1, 0, 2, 1] and comparison.excluded == 1
    assert (comparison.wins_b, comparison.ties, comparison.wins_a) == (4, 1, 0)
    oracle = stats.permutation_test((np.array([2., 1, 0, 2, 1]),), np.mean, permutation_type="samples",
                                    n_resamples=np.inf)
    assert comparison.test.p == pytest.approx(oracle.pvalue) == 0.125
    # The old t interval excluded 0 and read "B does better" from 5 requests; no test can at that size.
    assert stats.ttest_rel([8, 8, 8, 7, 10], [6, 7, 8, 5, 9]).confidence_interval(0.95).low > 0
    assert codes(readings) == ["ab_too_few"] and comparison.test.low is None


def test_two_identical_differences_are_not_evidence():
    """Two requests both +2: the old t interval had zero width [2, 2] and read "B does better"."""
    comparison, readings = compare_templates(*ab((6, 7), (8, 9)))
    assert codes(readings) == ["ab_too_few", "ab_equal_differences"]
    assert readings[0].values["p"] == 0.5 and readings[0].values["p_floor"] == 0.5
    assert comparison.test.low is None and not comparison.test.equal


@pytest.mark.parametrize("a_scores, b_scores, code", [
    ((6, 7), (6, 7), "ab_all_ties"),
    ((6,), (6,), "ab_all_ties"),
    ((9, 8, 9), (6, 5, 7), "ab_too_few"),
    ((6,), (8,), "ab_too_few"),
    ((), (), "ab_no_pairs"),
    ((5, 6, 5, 7, 6, 5, 6), (7, 8, 6, 9, 7, 7, 8), "ab_b_better"),      # 7 of 7 up: p = 2/128
    ((7, 8, 6, 9, 7, 7, 8), (5, 6, 5, 7, 6, 5, 6), "ab_a_better"),
    ((5, 6, 5, 7, 6, 5, 6), (7, 5, 6, 9, 5, 7, 8), "ab_cannot_tell"),   # up and down on 7: could have, did not
])
def test_template_comparison_readings(a_scores, b_scores, code):
    assert codes(compare_templates(*ab(a_scores, b_scores))[1])[0] == code


def test_template_comparison_cannot_tell_gives_n_and_p():
    comparison, [reading] = compare_templates(*ab((5, 6, 5, 7, 6, 5, 6), (7, 5, 6, 9, 5, 7, 8)))
    d = np.array(comparison.differences, dtype=float)
    oracle = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=np.inf)
    assert reading.values["n"] == 7 and reading.values["p"] == pytest.approx(oracle.pvalue) and reading.values["p"] > 0.05
    assert reading.values["low"] < 0 < reading.values["high"]


def test_equal_differences_on_enough_cases_conclude_with_a_named_zero_width_interval():
    comparison, readings = compare_templates(*ab((5,) * 6, (7,) * 6))
    assert codes(readings) == ["ab_b_better", "ab_equal_differences"]
    assert comparison.test.p == pytest.approx(2 / 64) and comparison.test.equal
    assert readings[1].values == {"n": 6, "difference": 2}


def verdict(winner):
    return Verdict("scored", winner)


def test_position_bias_both_orders_flip_rate_and_ties():
    comparisons = [
        PairwiseComparison("1", False, verdict("first"), verdict("second")),   # A both times
        PairwiseComparison("2", False, verdict("first"), verdict("first")),    # flip -> tie
        PairwiseComparison("3", False, verdict("second"), verdict("first")),   # B both times
        PairwiseComparison("4", False, verdict("first"), verdict("first")),    # flip -> tie
        PairwiseComparison("5", True, None, None),                             # identical: tie by code
        PairwiseComparison("6", False, verdict("first"), Verdict("unparseable")),
    ]
    bias, readings = position_bias(comparisons)
    assert bias.final == {"1": "A", "2": "tie", "3": "B", "4": "tie", "5": "tie"}
    assert (bias.compared, bias.flips, bias.flip_rate, bias.identical, bias.unread) == (4, 2, 0.5, 1, 1)
    assert (bias.first_wins, bias.verdicts) == (7, 9)
    assert codes(readings) == ["position_flips", "position_too_few", "identical_tied", "pairwise_unread"]


def test_position_bias_readings_when_consistent_or_empty():
    consistent = [PairwiseComparison("1", False, verdict("tie"), verdict("tie"))]
    assert codes(position_bias(consistent)[1]) == ["position_consistent"]
    assert codes(position_bias([PairwiseComparison("1", True, None, None)])[1]) == ["identical_tied"]
    assert codes(position_bias([])[1]) == ["pairwise_none"]


def flipped(n_first, n_second=0, n_consistent=0):
    """Comparisons where the first-shown won both orders, the second-shown did, or the verdict held."""
    return ([PairwiseComparison(f"f{i}", False, verdict("first"), verdict("first")) for i in range(n_first)]
            + [PairwiseComparison(f"s{i}", False, verdict("second"), verdict("second")) for i in range(n_second)]
            + [PairwiseComparison(f"c{i}", False, verdict("first"), verdict("second")) for i in range(n_consistent)])


@pytest.mark.parametrize("comparisons, code", [
    (flipped(2), "position_too_few"),
    (flipped(6), "position_favours_first"),
    (flipped(0, 6, 1), "position_favours_second"),
    (flipped(4, 3), "position_cannot_tell"),
])
def test_position_slot_test(comparisons, code):
    bias, readings = position_bias(comparisons)
    assert codes(readings) == ["position_flips", code]
    scores = [2.0 if c.ab.winner == c.ba.winner == "first" else -2.0 if c.ab.winner == c.ba.winner == "second" else 0.0
              for c in comparisons]
    oracle = stats.binomtest(sum(s > 0 for s in scores), sum(s != 0 for s in scores)).pvalue
    assert bias.slot_test.p == pytest.approx(oracle)


def test_position_half_flip_with_a_tie_counts_one_slot_point():
    bias, _ = position_bias([PairwiseComparison("1", False, verdict("first"), verdict("tie"))])
    assert bias.slot_test.mean == 1


@pytest.mark.parametrize("pairs, code", [
    (((7, 8), (8, 9), (6, 7), (5, 6), (6, 8), (4, 5)), "verbosity_inflates"),
    (((7, 6), (9, 8), (6, 5), (8, 6), (5, 4), (7, 5)), "verbosity_deflates"),
    (((7, 7), (9, 9)), "verbosity_no_effect"),
    (((7, 8), (9, 8)), "verbosity_too_few"),
    (((7, 8), (8, 9), (6, 7)), "verbosity_too_few"),   # the old t interval said "inflates" here
    (((7, 9),), "verbosity_too_few"),
    (((7, 8), (9, 8), (6, 7), (5, 4), (6, 7), (4, 4)), "verbosity_unclear"),
    (((10, 10), (10, 10)), "verbosity_ceiling"),
    (((0, 0),), "verbosity_floor"),
])
def test_verbosity_readings(pairs, code):
    probes = [PaddedGrade(str(i), scored(o), scored(p), ()) for i, (o, p) in enumerate(pairs)]
    effect, readings = verbosity_effect(probes, 10)
    assert effect.changes == [p - o for o, p in pairs] and codes(readings) == [code]


def test_verbosity_names_the_unchanged_scores_at_a_bound():
    probes = [PaddedGrade(str(i), scored(o), scored(p), ()) for i, (o, p) in enumerate(((10, 10), (7, 7), (0, 0)))]
    effect, readings = verbosity_effect(probes, 10)
    assert codes(readings) == ["verbosity_no_effect", "verbosity_at_bound"]
    assert (effect.at_ceiling, effect.at_floor) == (1, 1)
    assert codes(verbosity_effect(probes[:1])[1]) == ["verbosity_no_effect"]   # scale unknown: no ceiling said


@pytest.mark.parametrize("generator, judge, code", [
    ("claude-sonnet-4-5", "claude-sonnet-4-5", "self_preference_same_model"),
    ("anthropic/claude-sonnet-4-5-20250929", "claude-sonnet-4-0", "self_preference_same_family"),
    ("qwen3:8b", "qwen3:32b", "self_preference_same_family"),
    ("qwen3:8b", "claude-haiku-4-5", None),
])
def test_self_preference_notice(generator, judge, code):
    assert codes(self_preference(generator, judge)) == ([code] if code else [])


def test_model_family():
    assert model_family("gpt-4o-mini") == "gpt-4o-mini" and model_family("Llama3.2:3B") == "llama3.2"


def test_injection_effect_readings():
    results = [result("a", scored(10), injection=("asks_for_score",), clean_grade=scored(8)),
               result("b", scored(7), injection=("addresses_grader",), clean_grade=scored(7)),
               result("c", scored(7), injection=("fence_tag",), clean_grade=UNPARSEABLE),
               result("d", scored(9))]
    rows, readings = injection_effect(results)
    assert [(r.case_id, r.moved) for r in rows] == [("a", 2), ("b", 0), ("c", None)]
    assert codes(readings) == ["injection_moved", "injection_held", "injection_unscored"]
    assert codes(injection_effect([result("d", scored(9))])[1]) == ["no_injection"]


def test_injection_held_at_a_bound_cannot_tell():
    """Both grades at 10/10: the old reading said "the judge held" although the score could not rise."""
    results = [result("a", scored(10), injection=("asks_for_score",), clean_grade=scored(10)),
               result("b", scored(0), injection=("asks_for_score",), clean_grade=scored(0)),
               result("c", scored(6), injection=("asks_for_score",), clean_grade=scored(6))]
    assert codes(injection_effect(results, 10)[1]) == ["injection_ceiling", "injection_floor", "injection_held"]
    assert codes(injection_effect(results)[1]) == ["injection_held"] * 3


def test_cost_counts_every_call():
    calls = (ChatResult("k", input_tokens=10, output_tokens=5, latency_s=0.5), ChatResult("k", input_tokens=None))
    results = [replace(result("a", scored(8)), calls=calls)]
    probes = [PaddedGrade("a", scored(8), scored(8), (ChatResult("k", input_tokens=4, latency_s=0.25),))]
    total = cost(results, probes)
    assert (total.calls, total.input_tokens, total.output_tokens) == (3, 14, 5)
    assert math.isclose(total.latency_s, 0.75)
    assert cost([]).input_tokens is None


def test_validity_constant_rater(rubric):
    results = [result(f"c{i}", scored(10 if i % 2 else 6, 3, 4 if i % 2 else 1, 3 if i % 2 else 2),
                      checks=syntax(True)) for i in range(4)]
    agreement, readings = validity_agreement(results, rubric)
    assert agreement.code == [1, 1, 1, 1] and agreement.model == [0, 1, 0, 1]
    assert codes(readings) == ["validity_constant_rater"] and agreement.kappa.kappa == 0


def test_human_agreement_undefined_and_constant_rater(rubric):
    results = [result(f"c{i}", scored(8)) for i in range(3)]
    assert codes(human_agreement(results, {"c0": 8, "c1": 8, "c2": 8}, rubric)[1]) == ["human_kappa_undefined"]
    assert codes(human_agreement(results, {"c0": 7, "c1": 8, "c2": 9}, rubric)[1]) == ["human_constant_rater"]


@pytest.mark.parametrize("grades, min_mean, share, code, passed", [
    ([], 5, 0.1, "gate_no_cases", False),
    ([UNPARSEABLE, UNPARSEABLE], 0, 1.0, "gate_all_unscored", False),
    ([scored(9), UNPARSEABLE], 5, 0.4, "gate_unscored_over_limit", False),
    ([scored(6), scored(7)], 7, 0.1, "gate_below_min", False),
    ([scored(7), scored(7), UNPARSEABLE], 7, 0.5, "gate_pass", True),
])
def test_gate_readings(grades, min_mean, share, code, passed):
    gate = judge_gate([result(str(i), g) for i, g in enumerate(grades)], min_mean, share)
    assert (gate.reading.code, gate.passed) == (code, passed)


def test_blinding_summary_flags_responses_blinding_would_erase():
    results = [result("a", scored(8)), replace(result("b", scored(7)), removed_lines=("En tant que Claude :",)),
               replace(result("c", scored(9)), blinding_erased=True)]
    readings = blinding_summary(results)
    assert codes(readings) == ["blinding_removed", "blinding_erased"]
    assert readings[0].values == {"n": 1, "total": 3} and readings[1].values == {"count": 1, "cases": "c"}
    assert codes(blinding_summary([])) == ["blinding_removed"]

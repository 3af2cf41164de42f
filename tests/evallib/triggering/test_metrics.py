"""Triggering metrics on hand-computed cases, and against scikit-learn and statsmodels as oracles."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, precision_score, recall_score
from statsmodels.stats.proportion import proportion_confint

from evallib.triggering.data import NO_SKILL
from evallib.cluster_rates import ClusteredRate
from evallib.triggering.metrics import (Misroute, by_query, confusion, consistency, mean_input_tokens,
                                        misroutes, total_latency_s, trigger_metrics)
from tests.evallib.triggering.conftest import row

SKILLS = ["leave", "expense", "payslip"]


def test_nothing_activated_gives_an_undefined_precision_not_zero_or_one():
    rows = [row("leave", "none"), row("expense", "none"), row(None, "none"), row(None, "none")]
    m = trigger_metrics(rows)
    assert (m.accuracy.k, m.accuracy.n) == (2, 4)
    assert m.precision == ClusteredRate.of([]) and not m.precision.defined
    assert (m.recall.k, m.recall.n, m.false_activation_rate.value) == (0, 2, 0.0)


def test_no_positive_leaves_recall_undefined():
    m = trigger_metrics([row(None, "none"), row(None, "skill", "leave")])
    assert m.recall.value is None and m.positives == 0
    assert (m.accuracy.value, m.precision.value, m.false_activation_rate.value) == (0.5, 0.0, 0.5)


def test_all_none_on_negatives_only_is_perfectly_accurate_with_precision_undefined():
    m = trigger_metrics([row(None, "none")] * 3)
    assert (m.accuracy.value, m.precision.value, m.recall.value, m.false_activation_rate.value) == \
        (1.0, None, None, 0.0)


def test_everything_errored_leaves_every_rate_undefined_and_counts_the_failures():
    m = trigger_metrics([row("leave", "error"), row(None, "empty"), row(None, "error")])
    assert m.n == 0 and m.total == 3 and (m.errors, m.empty) == (2, 1)
    assert all(getattr(m, name).value is None
               for name in ("accuracy", "precision", "recall", "false_activation_rate"))
    assert m.unusable_rate == 1.0


def test_an_invalid_name_on_a_negative_is_a_false_activation():
    m = trigger_metrics([row(None, "invalid_name", raw="leave-booking"), row("leave", "skill", "leave")])
    assert (m.activations, m.false_activations, m.invalid_names) == (2, 1, 1)
    assert (m.accuracy.value, m.precision.value, m.recall.value, m.false_activation_rate.value) == \
        (0.5, 0.5, 1.0, 1.0)


def test_errors_are_left_out_not_scored_as_a_correct_none():
    with_errors = trigger_metrics([row(None, "none"), row(None, "error"), row(None, "empty")])
    assert (with_errors.accuracy.k, with_errors.accuracy.n) == (1, 1)


def test_an_invalid_name_equal_to_the_expected_label_is_still_wrong():
    assert trigger_metrics([row("leave", "invalid_name", raw="leave")]).accuracy.value == 0.0


def _random_rows(seed, n=40):
    rng = np.random.default_rng(seed)
    labels = SKILLS + [None]
    rows = []
    for i in range(n):
        expected = labels[rng.integers(len(labels))]
        kind = rng.choice(["skill", "none", "invalid_name", "error", "empty"], p=[0.5, 0.25, 0.1, 0.1, 0.05])
        rows.append(row(expected, kind, skill=SKILLS[rng.integers(3)] if kind == "skill" else None,
                        raw=f"ghost-{rng.integers(2)}" if kind == "invalid_name" else "", query_id=f"q{i}"))
    return rows


@pytest.mark.parametrize("seed", range(8))
def test_rates_and_confusion_match_scikit_learn(seed):
    rows = _random_rows(seed)
    scored = [r for r in rows if r.decision.scored]
    y_true = [r.expected or NO_SKILL for r in scored]
    y_pred = [r.decision.obtained or NO_SKILL for r in scored]
    activation_labels = sorted(set(y_true + y_pred) - {NO_SKILL})
    m = trigger_metrics(rows)
    assert m.accuracy.value == pytest.approx(accuracy_score(y_true, y_pred))
    # Correct activations / activations is scikit-learn's micro precision over every label but "none";
    # positives served by the right skill is the micro recall over the same labels.
    assert m.precision.value == pytest.approx(precision_score(y_true, y_pred, labels=activation_labels,
                                                              average="micro", zero_division=np.nan))
    assert m.recall.value == pytest.approx(recall_score(y_true, y_pred, labels=activation_labels, average="micro"))
    assert m.false_activation_rate.value == pytest.approx(
        1 - recall_score(y_true, y_pred, labels=[NO_SKILL], average="micro"))
    table = confusion(rows, SKILLS)
    expected_table = confusion_matrix(y_true, y_pred, labels=list(table.obtained_labels))
    assert table.expected_labels == (*SKILLS, NO_SKILL)
    np.testing.assert_array_equal(table.counts, expected_table[: len(table.expected_labels)])


@pytest.mark.parametrize("k, n", [(0, 30), (29, 30), (60, 60), (7, 19)])
def test_with_one_run_per_query_both_intervals_are_clopper_pearson_as_in_statsmodels(k, n):
    rows = [row(None, "none" if i < k else "skill", "leave", query_id=f"q{i}") for i in range(n)]
    rate = trigger_metrics(rows).accuracy
    low, high = proportion_confint(k, n, alpha=0.05, method="beta")
    assert (rate.low, rate.high) == (pytest.approx(low), pytest.approx(high))
    assert (rate.decision_low, rate.decision_high) == (pytest.approx(low), pytest.approx(high))


def test_queries_as_the_unit_count_a_query_right_only_when_every_run_is():
    rows = [row("leave", "skill", "leave", query_id="a", run=0), row("leave", "none", query_id="a", run=1),
            row(None, "none", query_id="b", run=0), row(None, "skill", "expense", query_id="b", run=1),
            row(None, "none", query_id="c", run=0), row(None, "error", query_id="c", run=1),
            row(None, "error", query_id="d", run=0), row(None, "error", query_id="d", run=1)]
    collapsed = by_query(rows)
    assert [r.query_id for r in collapsed] == ["a", "b", "c", "d"]
    m = trigger_metrics(collapsed)
    assert (m.accuracy.k, m.accuracy.n, m.false_activations, m.errors) == (1, 3, 1, 1)


def test_consistency_across_runs():
    rows = [row("leave", "skill", "leave", query_id="a", run=r) for r in range(3)]
    rows += [row(None, "none", query_id="b", run=0), row(None, "skill", "leave", query_id="b", run=1),
             row(None, "none", query_id="b", run=2), row(None, "error", query_id="c")]
    a, b, c = consistency(rows)
    assert (a.consistent, a.agreement, a.labels) == (True, 1.0, {"leave": 3})
    assert (b.consistent, b.agreement, b.labels) == (False, pytest.approx(2 / 3), {NO_SKILL: 2, "leave": 1})
    assert (c.scored_runs, c.agreement, c.consistent) == (0, None, True)


def test_misroutes_read_expected_then_obtained_then_the_query():
    rows = [row(None, "skill", "leave", query_id="a"), row("payslip", "none", query_id="b"),
            row("leave", "skill", "leave", query_id="c"), row(None, "error", query_id="d")]
    assert [m.describe() for m in misroutes(rows)] == [
        "expected none -> got leave: la requête", "expected payslip -> got none: la requête"]
    assert misroutes(rows)[0] == Misroute("a", "la requête", None, "leave", 0, "skill")


def test_tokens_and_latency_average_only_what_was_measured():
    rows = [row(None, "none", tokens=100), row(None, "none", tokens=300), row(None, "error")]
    assert mean_input_tokens(rows) == 200 and mean_input_tokens(rows[2:]) is None
    assert total_latency_s(rows) is None


def _repeated(right_queries: int, wrong_queries: int, runs: int):
    """Queries whose runs all agree: ``right_queries`` always right, ``wrong_queries`` always wrong."""
    rows = [row("leave", "skill", "leave", query_id=f"r{i}", run=k) for i in range(right_queries) for k in range(runs)]
    return rows + [row("leave", "none", query_id=f"w{i}", run=k) for i in range(wrong_queries) for k in range(runs)]


def test_the_headline_interval_takes_the_query_as_its_unit_and_keeps_the_per_decision_one_beside_it():
    # Failed before: the headline was Clopper-Pearson over the 30 runs, as if they were independent.
    accuracy = trigger_metrics(_repeated(8, 2, 3)).accuracy
    clustered = ClusteredRate.of([(3, 3)] * 8 + [(0, 3)] * 2)
    assert (accuracy.low, accuracy.high) == (pytest.approx(clustered.low), pytest.approx(clustered.high))
    per_decision = proportion_confint(24, 30, alpha=0.05, method="beta")
    assert (accuracy.decision_low, accuracy.decision_high) == (pytest.approx(per_decision[0]),
                                                               pytest.approx(per_decision[1]))
    assert accuracy.high - accuracy.low > per_decision[1] - per_decision[0]
    assert (accuracy.items, accuracy.n) == (10, 30)


def test_each_rate_clusters_its_own_queries():
    rows = _repeated(4, 1, 2) + [row(None, "none", query_id="n0", run=0), row(None, "skill", "leave", query_id="n0", run=1),
                                 row(None, "none", query_id="n1", run=0), row(None, "none", query_id="n1", run=1)]
    m = trigger_metrics(rows)
    assert (m.recall.items, m.recall.n) == (5, 10)
    assert (m.false_activation_rate.items, m.false_activation_rate.k, m.false_activation_rate.n) == (2, 1, 4)
    assert (m.precision.items, m.precision.n) == (5, 9)  # the queries with an activation
    assert m.to_dict()["interval_unit"] == "query"
    assert m.to_dict()["accuracy"]["ci95"] == [m.accuracy.low, m.accuracy.high]
    assert m.to_dict()["accuracy"]["ci95_per_decision"] == [m.accuracy.decision_low, m.accuracy.decision_high]

"""Readings of a triggering result and of the sweep, and the CI gate, on values that trigger them."""

import numpy as np
import pytest

from evallib.triggering.gate import min_accuracy_from_env, trigger_gate
from evallib.triggering.metrics import by_query, consistency, trigger_metrics
from evallib.stats import exact_upper_after_zero
from evallib.triggering.readings import best_threshold_ranges, metrics_readings, sweep_reading
from evallib.triggering.similarity import Sweep
from tests.evallib.triggering.conftest import row


def readings(rows):
    return {r.code: r.values for r in metrics_readings(trigger_metrics(rows), trigger_metrics(by_query(rows)),
                                                        consistency(rows))}


def test_perfect_score_gives_the_exact_bound_per_query_beside_the_one_per_decision():
    rows = [row("leave", "skill", "leave", query_id=f"p{i}", run=r) for i in range(15) for r in range(2)]
    rows += [row(None, "none", query_id=f"n{i}", run=r) for i in range(15) for r in range(2)]
    values = readings(rows)["perfect_score"]
    assert (values["n"], values["queries"], values["repeated"]) == (60, 30, True)
    assert values["exact_upper"] == pytest.approx(1 - 0.05 ** (1 / 60))
    assert values["query_exact_upper"] == pytest.approx(1 - 0.05 ** (1 / 30))
    assert not {"rule_of_three", "query_rule_of_three"} & set(values)


@pytest.mark.parametrize("queries, runs", [(1, 1), (1, 3), (2, 1), (3, 2)])
def test_a_perfect_score_on_few_decisions_never_gives_a_bound_above_one(queries, runs):
    # Failed before: at n = 1 the reading carried the rule of three, 3/n = 300 %.
    rows = [row("leave", "skill", "leave", query_id=f"q{i}", run=r) for i in range(queries) for r in range(runs)]
    values = readings(rows)["perfect_score"]
    bounds = [v for k, v in values.items() if isinstance(v, float)]
    assert bounds and all(0 < b < 1 for b in bounds)
    assert values["query_exact_upper"] == pytest.approx(exact_upper_after_zero(queries))
    assert values["exact_upper"] == pytest.approx(exact_upper_after_zero(queries * runs))


def test_all_none_reads_as_zero_recall_with_undefined_precision():
    codes = readings([row("leave", "none"), row(None, "none")])
    assert set(codes) == {"all_none", "precision_undefined"}
    assert codes["all_none"] == {"n": 2, "positives": 1}


def test_nothing_activated_on_negatives_only_leaves_precision_and_recall_undefined():
    codes = readings([row(None, "none", query_id="a"), row(None, "none", query_id="b")])
    assert {"precision_undefined", "no_positive", "perfect_score"} <= set(codes) and "all_none" not in codes


def test_everything_errored():
    assert readings([row("leave", "error"), row(None, "empty")]) == {
        "all_errored": {"total": 2, "empty": 1, "errors": 1}}
    assert readings([]) == {"no_decisions": {}}


def test_always_activates_and_invalid_names_and_no_negative():
    codes = readings([row(None, "skill", "leave", query_id="a"), row("leave", "skill", "leave", query_id="b"),
                      row(None, "invalid_name", raw="ghost", query_id="c")])
    assert codes["always_activates"] == {"n": 3, "negatives": 2, "false_activations": 2}
    assert codes["invalid_names"] == {"count": 1}
    assert "no_negative" in readings([row("leave", "skill", "expense")])


def test_inconsistent_queries_are_listed():
    rows = [row(None, "none", query_id="a", run=0), row(None, "skill", "leave", query_id="a", run=1),
            row(None, "none", query_id="b", run=0), row(None, "none", query_id="b", run=1)]
    assert readings(rows)["inconsistent_queries"] == {"count": 1, "queries": 2, "listed": "a", "more": 0}


def _sweep(accuracy):
    accuracy = np.array(accuracy, dtype=float)
    nan = np.full_like(accuracy, np.nan)
    return Sweep(np.linspace(0, 0.1 * (len(accuracy) - 1), len(accuracy)), accuracy, nan, nan, nan, nan, nan, nan)


def test_sweep_readings_best_tie_and_undefined():
    assert sweep_reading(_sweep([0.5, 0.7, 0.6])).values == {"accuracy": 0.7, "threshold": pytest.approx(0.1)}
    tie = sweep_reading(_sweep([0.5, 0.7, 0.7, 0.7, 0.6]))
    assert tie.code == "sweep_tie"
    assert tie.values == {"accuracy": 0.7, "low": pytest.approx(0.1), "high": pytest.approx(0.3), "count": 3}
    assert sweep_reading(_sweep([np.nan, np.nan])).code == "sweep_undefined"
    assert sweep_reading(_sweep([])).code == "sweep_undefined"


def test_a_tie_broken_by_a_lower_threshold_names_each_range_exactly():
    # Failed before: read as "3 thresholds from 0.1 to 0.4" although 0.2 scores lower.
    split = sweep_reading(_sweep([0.5, 0.7, 0.6, 0.7, 0.7]))
    assert split.code == "sweep_tie_split"
    assert split.values["count"] == 3 and split.values["more"] == 0
    assert split.values["ranges"] == [pytest.approx((0.1, 0.1)), pytest.approx((0.3, 0.4))]


def test_best_ranges_cover_exactly_the_thresholds_at_the_best_accuracy():
    rng = np.random.default_rng(0)
    for _ in range(200):
        sweep = _sweep(rng.integers(0, 4, size=rng.integers(1, 15)) / 4)
        best, ranges = best_threshold_ranges(sweep)
        inside = np.zeros(len(sweep.thresholds), dtype=bool)
        for low, high in ranges:
            inside |= (sweep.thresholds >= low - 1e-12) & (sweep.thresholds <= high + 1e-12)
        np.testing.assert_array_equal(inside, sweep.accuracy == best)
        assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))


def test_the_default_sweep_names_the_thresholds_of_its_best_accuracy(catalogue, queries):
    """On the shipped set the best accuracy is reached by one run of thresholds (two runs before the
    tokeniser learnt English function words, a third of the queries being in English): the reading's range
    holds exactly the thresholds at the best accuracy, whichever of the two codes the data give."""
    from evallib.triggering.similarity import expected_indices, similarity_scores, threshold_sweep
    sweep = threshold_sweep(similarity_scores(catalogue, queries), expected_indices(queries, catalogue))
    reading = sweep_reading(sweep)
    at_best = sweep.thresholds[sweep.accuracy == reading.values["accuracy"]]
    assert reading.code in ("sweep_tie", "sweep_tie_split")
    ranges = reading.values.get("ranges") or [(reading.values["low"], reading.values["high"])]
    assert (len(ranges) > 1) == (reading.code == "sweep_tie_split")
    covered = [t for low, high in ranges for t in sweep.thresholds if low - 1e-12 <= t <= high + 1e-12]
    np.testing.assert_array_equal(covered, at_best)
    assert reading.values["count"] == len(at_best)


@pytest.mark.parametrize("rows, passed, code", [
    ([], False, "gate_no_decisions"),
    ([row(None, "error")] * 3, False, "gate_all_errored"),
    ([row(None, "none")] * 8 + [row(None, "error")] * 2, False, "gate_unusable_over_limit"),
    ([row(None, "none")] * 9 + [row(None, "empty")], True, "gate_pass"),
    ([row(None, "none")] * 8 + [row(None, "skill", "leave")] * 2, False, "gate_below_min"),
    ([row(None, "none")] * 17 + [row(None, "skill", "leave")] * 3, True, "gate_pass"),
])
def test_gate(rows, passed, code):
    result = trigger_gate(trigger_metrics(rows), min_accuracy=0.85, max_unusable_rate=0.10)
    assert (result.passed, result.reading.code) == (passed, code)


@pytest.mark.parametrize("environ, expected", [({}, 0.85), ({"TRIGGER_MIN_ACCURACY": "0.9"}, 0.9),
                                               ({"TRIGGER_MIN_ACCURACY": " "}, 0.85)])
def test_min_accuracy_from_env(environ, expected):
    assert min_accuracy_from_env(environ) == expected


@pytest.mark.parametrize("value", ["high", "1.5", "-0.1"])
def test_a_bad_min_accuracy_variable_is_named(value):
    with pytest.raises(ValueError, match="TRIGGER_MIN_ACCURACY"):
        min_accuracy_from_env({"TRIGGER_MIN_ACCURACY": value})

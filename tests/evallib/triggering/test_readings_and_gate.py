"""Readings of a triggering result and of the sweep, and the CI gate, on values that trigger them."""

import numpy as np
import pytest

from evallib.triggering.gate import min_accuracy_from_env, trigger_gate
from evallib.triggering.metrics import by_query, consistency, trigger_metrics
from evallib.triggering.readings import exact_upper_after_zero, metrics_readings, sweep_reading
from evallib.triggering.similarity import Sweep
from tests.evallib.triggering.conftest import row


def readings(rows):
    return {r.code: r.values for r in metrics_readings(trigger_metrics(rows), trigger_metrics(by_query(rows)),
                                                        consistency(rows))}


def test_perfect_score_gives_the_rule_of_three_beside_the_exact_bound_per_decision_and_per_query():
    rows = [row("leave", "skill", "leave", query_id=f"p{i}", run=r) for i in range(15) for r in range(2)]
    rows += [row(None, "none", query_id=f"n{i}", run=r) for i in range(15) for r in range(2)]
    values = readings(rows)["perfect_score"]
    assert (values["n"], values["queries"], values["repeated"]) == (60, 30, True)
    assert values["rule_of_three"] == pytest.approx(0.05) and values["query_rule_of_three"] == pytest.approx(0.1)
    assert values["exact_upper"] == pytest.approx(1 - 0.05 ** (1 / 60))
    assert values["query_exact_upper"] == pytest.approx(1 - 0.05 ** (1 / 30))


def test_a_single_perfect_decision_is_still_read_with_its_bounds():
    values = readings([row("leave", "skill", "leave")])["perfect_score"]
    assert values["n"] == 1 and values["repeated"] is False and values["exact_upper"] == pytest.approx(0.95)


def test_exact_upper_bound_after_zero_events():
    assert exact_upper_after_zero(30) == pytest.approx(0.0950, abs=1e-4)


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
    tie = sweep_reading(_sweep([0.5, 0.7, 0.6, 0.7, 0.7]))
    assert tie.code == "sweep_tie"
    assert tie.values == {"accuracy": 0.7, "low": pytest.approx(0.1), "high": pytest.approx(0.4), "count": 3}
    assert sweep_reading(_sweep([np.nan, np.nan])).code == "sweep_undefined"
    assert sweep_reading(_sweep([])).code == "sweep_undefined"


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

"""Whether the routing made errors is read on the scored decisions: "no error" is never said of nothing."""

import pytest

from evallib.triggering.metrics import misroutes, trigger_metrics
from evallib.triggering.readings import routing_errors_reading
from tests.evallib.triggering.conftest import row


def reading(rows):
    return routing_errors_reading(trigger_metrics(rows), len(misroutes(rows)))


@pytest.mark.parametrize("rows, values", [
    ([], {"total": 0, "empty": 0, "errors": 0}),
    ([row("leave", "error"), row(None, "error")], {"total": 2, "empty": 0, "errors": 2}),
    ([row("leave", "empty"), row(None, "error")], {"total": 2, "empty": 1, "errors": 1}),
])
def test_nothing_routed_when_no_decision_was_scored(rows, values):
    got = reading(rows)
    assert (got.code, got.values) == ("nothing_routed", values)


def test_no_routing_error_counts_the_decisions_it_rests_on():
    rows = [row("leave", "skill", "leave"), row(None, "none"), row("leave", "error")]
    got = reading(rows)
    assert (got.code, got.values) == ("no_routing_error", {"n": 2})


def test_routing_errors_count_the_wrong_decisions_out_of_the_scored_ones():
    rows = [row("leave", "skill", "other"), row(None, "invalid_name", raw="ghost"), row(None, "none"),
            row("leave", "empty")]
    got = reading(rows)
    assert (got.code, got.values) == ("routing_errors", {"count": 2, "n": 3})

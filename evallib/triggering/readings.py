"""What a triggering result means, as `Reading`s (code + values) for the page and the CLI to word.

Codes of `metrics_readings` (each with a test on values that trigger it):

- ``no_decisions``: nothing was asked.
- ``all_errored``: every decision was empty or an error; no metric is defined.
- ``perfect_score``: every scored decision right. Zero errors out of n does not prove a zero error
  rate: the rule of three bounds it by about 3/n at 95 % (Hanley & Lippman-Hand 1983), beside the
  exact one-sided bound 1 - 0.05^(1/n); both also with the query as the unit, since repeated runs of
  one query are not independent. A perfect score often means the set is too easy (seed 003).
- ``all_none``: nothing ever fired although positives exist: recall 0, no false activation.
- ``precision_undefined``: no activation at all, so precision is undefined (not 0, not 1).
- ``always_activates``: every decision fired, negatives included.
- ``no_positive`` / ``no_negative``: recall / false activation rate undefined.
- ``invalid_names``: the model named skills that do not exist (counted as false activations).
- ``inconsistent_queries``: some queries got different decisions across runs.

`routing_errors_reading` reads the list of routing errors: ``nothing_routed`` (no decision was scored,
so "no error" would say nothing), ``no_routing_error`` or ``routing_errors``.

`sweep_reading` reads the similarity baseline's sweep: ``sweep_undefined``, ``sweep_best`` or
``sweep_tie`` (several thresholds share the best accuracy).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from evallib.readings import Reading
from evallib.stats import clopper_pearson_interval, rule_of_three_upper
from evallib.triggering.metrics import QueryConsistency, TriggerMetrics
from evallib.triggering.similarity import Sweep

#: How many query ids or names a reading lists at most (a projector shows a short list).
MAX_LISTED = 5
#: Accuracies closer than this are equal in a sweep (they are ratios of the same n: any real
#: difference is at least 1/n).
TIE_TOLERANCE = 1e-12


def exact_upper_after_zero(n: int) -> float:
    """Exact one-sided 95 % upper bound of a rate after 0 events in n trials: 1 - 0.05^(1/n).

    It is the upper end of the two-sided 90 % Clopper-Pearson interval at k = 0.

    >>> round(exact_upper_after_zero(60), 4)
    0.0487
    """
    return clopper_pearson_interval(0, n, confidence=0.90)[1]


def _listed(items: Sequence[str]) -> dict:
    return {"listed": ", ".join(items[:MAX_LISTED]), "more": max(0, len(items) - MAX_LISTED)}


def metrics_readings(metrics: TriggerMetrics, per_query: TriggerMetrics,
                     consistency: Sequence[QueryConsistency] = ()) -> list[Reading]:
    """Every reading that applies to a result, most important first.

    Args:
        metrics: metrics over the decisions (every run).
        per_query: the same metrics with queries as the unit (`by_query` rows).
        consistency: per-query agreement across runs.
    """
    if metrics.total == 0:
        return [Reading("no_decisions", {})]
    if metrics.n == 0:
        return [Reading("all_errored", {"total": metrics.total, "empty": metrics.empty, "errors": metrics.errors})]
    readings = []
    if metrics.accuracy.k == metrics.n:
        readings.append(Reading("perfect_score", {
            "n": metrics.n, "rule_of_three": rule_of_three_upper(metrics.n),
            "exact_upper": exact_upper_after_zero(metrics.n),
            "queries": per_query.n, "query_rule_of_three": rule_of_three_upper(per_query.n),
            "query_exact_upper": exact_upper_after_zero(per_query.n),
            "repeated": metrics.n > per_query.n}))
    if metrics.activations == 0:
        if metrics.positives:
            readings.append(Reading("all_none", {"n": metrics.n, "positives": metrics.positives}))
        readings.append(Reading("precision_undefined", {"n": metrics.n}))
    elif metrics.activations == metrics.n and metrics.negatives:
        readings.append(Reading("always_activates", {"n": metrics.n, "negatives": metrics.negatives,
                                                     "false_activations": metrics.false_activations}))
    if metrics.positives == 0:
        readings.append(Reading("no_positive", {"n": metrics.n}))
    if metrics.negatives == 0:
        readings.append(Reading("no_negative", {"n": metrics.n}))
    if metrics.invalid_names:
        readings.append(Reading("invalid_names", {"count": metrics.invalid_names}))
    changed = [c.query_id for c in consistency if not c.consistent]
    if changed:
        readings.append(Reading("inconsistent_queries", {"count": len(changed), "queries": len(consistency),
                                                         **_listed(changed)}))
    return readings


def routing_errors_reading(metrics: TriggerMetrics, misroute_count: int) -> Reading:
    """Whether the routing made errors, on the decisions scored (``metrics.n``).

    ``nothing_routed`` when no decision was scored (values: total, empty, errors: every answer was
    empty or failed, or none was collected); else ``routing_errors`` (count, n) or ``no_routing_error`` (n).
    """
    if metrics.n == 0:
        return Reading("nothing_routed", {"total": metrics.total, "empty": metrics.empty, "errors": metrics.errors})
    if misroute_count:
        return Reading("routing_errors", {"count": misroute_count, "n": metrics.n})
    return Reading("no_routing_error", {"n": metrics.n})


def sweep_reading(sweep: Sweep) -> Reading:
    """The best accuracy of a sweep and where it is reached.

    ``sweep_undefined`` when no accuracy is defined (no query); ``sweep_tie`` when several thresholds
    share the best accuracy (values: accuracy, low, high, count: the range is not one best threshold,
    and the lowest is not "the" answer); else ``sweep_best`` (accuracy, threshold).
    """
    accuracy = np.asarray(sweep.accuracy, dtype=float)
    if accuracy.size == 0 or np.all(np.isnan(accuracy)):
        return Reading("sweep_undefined", {})
    best = float(np.nanmax(accuracy))
    at_best = np.asarray(sweep.thresholds)[np.abs(accuracy - best) <= TIE_TOLERANCE]
    if len(at_best) > 1:
        return Reading("sweep_tie", {"accuracy": best, "low": float(at_best.min()), "high": float(at_best.max()),
                                     "count": int(len(at_best))})
    return Reading("sweep_best", {"accuracy": best, "threshold": float(at_best[0])})

"""What a triggering result means, as `Reading`s (code + values) for the page and the CLI to word.

Codes of `metrics_readings` (each with a test on values that trigger it):

- ``no_decisions``: nothing was asked.
- ``all_errored``: every decision was empty or an error; no metric is defined.
- ``perfect_score``: every scored decision right. Zero errors out of n does not prove a zero error
  rate: the exact one-sided 95 % bound is 1 - 0.05^(1/n) (Hanley & Lippman-Hand 1983; never the
  "rule of three" 3/n, which exceeds 100 % at n = 1), with the queries as the unit, since repeated
  runs of one query are not independent, beside the bound per decision. A perfect score often
  means the set is too easy (docs/trigger.md#perfect-score).
- ``all_none``: nothing ever fired although positives exist: recall 0, no false activation.
- ``precision_undefined``: no activation at all, so precision is undefined (not 0, not 1).
- ``always_activates``: every decision fired, negatives included.
- ``no_positive`` / ``no_negative``: recall / false activation rate undefined.
- ``invalid_names``: the model named skills that do not exist (counted as false activations).
- ``inconsistent_queries``: some queries got different decisions across runs.

`routing_errors_reading` reads the list of routing errors: ``nothing_routed`` (no decision was scored,
so "no error" would say nothing), ``no_routing_error`` or ``routing_errors``.

`sweep_reading` reads the similarity baseline's sweep: ``sweep_undefined``, ``sweep_best``,
``sweep_tie`` (every threshold of one unbroken range shares the best accuracy) or ``sweep_tie_split``
(the thresholds that reach it form several ranges, with lower accuracies between them).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from evallib.readings import Reading
from evallib.stats import exact_upper_after_zero
from evallib.triggering.metrics import QueryConsistency, TriggerMetrics
from evallib.triggering.similarity import Sweep

#: How many query ids or names a reading lists at most (a projector shows a short list).
MAX_LISTED = 5
#: Accuracies closer than this are equal in a sweep (they are ratios of the same n: any real
#: difference is at least 1/n).
TIE_TOLERANCE = 1e-12


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
            "n": metrics.n, "exact_upper": exact_upper_after_zero(metrics.n),
            "queries": per_query.n, "query_exact_upper": exact_upper_after_zero(per_query.n),
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


def best_threshold_ranges(sweep: Sweep) -> tuple[float, list[tuple[float, float]]]:
    """The best accuracy of a sweep and the thresholds reaching it, as maximal unbroken ranges.

    Returns (best, [(first, last), ...]) in increasing threshold order: each range holds consecutive
    thresholds of the sweep that all reach ``best`` (within `TIE_TOLERANCE`); the thresholds between
    two ranges score lower. Raises ValueError when no accuracy is defined.

    >>> from evallib.triggering.similarity import Sweep
    >>> t = np.array([0.1, 0.2, 0.3, 0.4, 0.5])
    >>> best_threshold_ranges(Sweep(t, np.array([0.5, 0.8, 0.7, 0.8, 0.8]), *[t] * 6))
    (0.8, [(0.2, 0.2), (0.4, 0.5)])
    """
    order = np.argsort(np.asarray(sweep.thresholds, dtype=float), kind="stable")
    thresholds = np.asarray(sweep.thresholds, dtype=float)[order]
    accuracy = np.asarray(sweep.accuracy, dtype=float)[order]
    if accuracy.size == 0 or np.all(np.isnan(accuracy)):
        raise ValueError("no accuracy is defined in this sweep")
    best = float(np.nanmax(accuracy))
    at_best = np.abs(accuracy - best) <= TIE_TOLERANCE
    ranges, start = [], None
    for i, reached in enumerate(at_best):
        if reached and start is None:
            start = i
        if start is not None and (not reached or i == len(at_best) - 1):
            last = i if reached else i - 1
            ranges.append((float(thresholds[start]), float(thresholds[last])))
            start = None
    return best, ranges


def sweep_reading(sweep: Sweep) -> Reading:
    """The best accuracy of a sweep and exactly which thresholds reach it.

    ``sweep_undefined`` when no accuracy is defined (no query); ``sweep_best`` (accuracy, threshold)
    when one threshold alone reaches it; ``sweep_tie`` (accuracy, low, high, count) when every
    threshold from low to high reaches it and no other does; ``sweep_tie_split`` (accuracy, count,
    ranges: a list of (first, last) pairs, ``MAX_LISTED`` at most, and ``more``) when the thresholds
    reaching it form several ranges separated by thresholds that score lower. In neither tie is the
    lowest threshold "the" answer.
    """
    accuracy = np.asarray(sweep.accuracy, dtype=float)
    if accuracy.size == 0 or np.all(np.isnan(accuracy)):
        return Reading("sweep_undefined", {})
    best, ranges = best_threshold_ranges(sweep)
    count = int(np.sum(np.abs(accuracy - best) <= TIE_TOLERANCE))
    if count == 1:
        return Reading("sweep_best", {"accuracy": best, "threshold": ranges[0][0]})
    if len(ranges) == 1:
        return Reading("sweep_tie", {"accuracy": best, "low": ranges[0][0], "high": ranges[0][1], "count": count})
    return Reading("sweep_tie_split", {"accuracy": best, "count": count, "ranges": ranges[:MAX_LISTED],
                                       "more": max(0, len(ranges) - MAX_LISTED)})

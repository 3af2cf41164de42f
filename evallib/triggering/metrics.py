"""Triggering metrics: accuracy, precision, recall, false activation rate, confusion, misroutes, consistency.

Definitions (docs/trigger.md#metrics; one metric alone hides the failure modes: a router that never activates
anything has no false activation and an undefined precision, one that always activates the closest
skill has a perfect recall). Over the *scored* decisions (status skill, none or invalid_name; empty
and errored answers are counted apart, never scored as "none"):

    accuracy   = decisions equal to the expected label ("none" included) / scored decisions
    precision  = correct activations / activations          (undefined when nothing fired)
    recall     = positives served by the expected skill / positive decisions   (undefined without positives)
    false activation rate = negatives on which something fired / negative decisions (undefined without negatives)

An invalid name is an activation that is never correct. Repeated runs of one query are not
independent trials, so each rate's headline 95 % interval takes the query as its unit
(`evallib.cluster_rates.ClusteredRate`: the runs of one query are one cluster); the Clopper-Pearson
interval per decision, as if every run were independent, is kept beside it. With one run per query
the two are the same. `by_query` collapses each query to one decision (right only when every scored
run is right), the pairing unit of McNemar's test; its rate estimates "right on every run", not
the accuracy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from evallib.cluster_rates import ClusteredRate
from evallib.triggering.data import NO_SKILL
from evallib.triggering.decisions import Decision


@dataclass(frozen=True)
class RoutedDecision:
    """One (query, run) decision with what the metrics need; ``expected`` None means no skill must fire."""

    query_id: str
    query: str
    expected: str | None
    decision: Decision
    run: int = 0
    input_tokens: int | None = None
    latency_s: float | None = None

    @property
    def correct(self) -> bool:
        """Scored and equal to the expected label; an invalid name is never correct."""
        return self.decision.scored and self.decision.status != "invalid_name" \
            and self.decision.obtained == self.expected


@dataclass(frozen=True)
class TriggerMetrics:
    """The four rates over the scored decisions, and the counts they rest on.

    ``n`` scored decisions out of ``total``; ``empty`` and ``errors`` were left out. ``activations``
    includes ``invalid_names``; ``false_activations`` counts activations on negatives. Each rate's
    interval takes the query as its unit (`INTERVAL_UNIT`).
    """

    accuracy: ClusteredRate
    precision: ClusteredRate
    recall: ClusteredRate
    false_activation_rate: ClusteredRate
    n: int
    total: int
    positives: int
    negatives: int
    activations: int
    false_activations: int
    invalid_names: int
    empty: int
    errors: int

    @property
    def unusable_rate(self) -> float | None:
        """(empty + errors) / total, None for no decision at all."""
        return (self.empty + self.errors) / self.total if self.total else None

    def to_dict(self) -> dict:
        rates = {name: getattr(self, name).to_dict()
                 for name in ("accuracy", "precision", "recall", "false_activation_rate")}
        counts = {name: getattr(self, name) for name in ("n", "total", "positives", "negatives", "activations",
                                                        "false_activations", "invalid_names", "empty", "errors")}
        return {**rates, **counts, "interval_unit": INTERVAL_UNIT}


#: The unit of every interval of `TriggerMetrics`: the runs of one query form one cluster.
INTERVAL_UNIT = "query"


def _per_query_rate(rows: Sequence[RoutedDecision], success: Callable[[RoutedDecision], bool]) -> ClusteredRate:
    """The rate of ``success`` over ``rows``, its interval with each query as one cluster of runs."""
    per_query: dict[str, list[int]] = {}
    for r in rows:
        counts = per_query.setdefault(r.query_id, [0, 0])
        counts[0] += bool(success(r))
        counts[1] += 1
    return ClusteredRate.of(per_query.values())


def trigger_metrics(rows: Iterable[RoutedDecision]) -> TriggerMetrics:
    """`TriggerMetrics` of decisions (see the module docstring for the formulas).

    >>> from evallib.triggering.decisions import Decision
    >>> rows = [RoutedDecision("a", "q", "x", Decision("skill", "x")),
    ...         RoutedDecision("b", "q", None, Decision("skill", "x")),
    ...         RoutedDecision("c", "q", None, Decision("error"))]
    >>> m = trigger_metrics(rows)
    >>> m.accuracy.value, m.precision.value, m.recall.value, m.false_activations, m.errors
    (0.5, 0.5, 1.0, 1, 1)
    """
    rows = list(rows)
    scored = [r for r in rows if r.decision.scored]
    fired = [r for r in scored if r.decision.fired]
    positives = [r for r in scored if r.expected is not None]
    negatives = [r for r in scored if r.expected is None]
    false_activations = sum(r.decision.fired for r in negatives)
    return TriggerMetrics(
        accuracy=_per_query_rate(scored, lambda r: r.correct),
        precision=_per_query_rate(fired, lambda r: r.correct),
        recall=_per_query_rate(positives, lambda r: r.correct),
        false_activation_rate=_per_query_rate(negatives, lambda r: r.decision.fired),
        n=len(scored), total=len(rows), positives=len(positives), negatives=len(negatives),
        activations=len(fired), false_activations=false_activations,
        invalid_names=sum(r.decision.status == "invalid_name" for r in scored),
        empty=sum(r.decision.status == "empty" for r in rows),
        errors=sum(r.decision.status == "error" for r in rows))


def by_query(rows: Iterable[RoutedDecision]) -> list[RoutedDecision]:
    """One decision per query (queries as the unit): its first wrong scored run, else its first scored run.

    A query is then right only when every scored run was right, and a negative counts as a false
    activation when any run fired. Queries without a scored run keep their first (empty or error)
    decision, so they stay counted apart. Order: first appearance of each query.
    """
    grouped: dict[str, list[RoutedDecision]] = {}
    for row in rows:
        grouped.setdefault(row.query_id, []).append(row)
    collapsed = []
    for runs in grouped.values():
        scored = [r for r in runs if r.decision.scored]
        wrong = [r for r in scored if not r.correct]
        collapsed.append((wrong or scored or runs)[0])
    return collapsed


@dataclass(frozen=True)
class Confusion:
    """Counts of expected (rows) x obtained (columns) labels; ``NO_SKILL`` stands for no activation.

    Rows: the catalogue's skills then ``NO_SKILL``. Columns: the same, then every invalid name met,
    sorted. ``counts[i, j]`` decisions expected ``expected_labels[i]`` got ``obtained_labels[j]``.
    """

    expected_labels: tuple[str, ...]
    obtained_labels: tuple[str, ...]
    counts: np.ndarray


def confusion(rows: Iterable[RoutedDecision], names: Sequence[str]) -> Confusion:
    """The confusion matrix of the scored decisions (see `Confusion`)."""
    scored = [r for r in rows if r.decision.scored]
    expected_labels = (*names, NO_SKILL)
    invalid = sorted({r.decision.raw_name for r in scored if r.decision.status == "invalid_name"})
    obtained_labels = (*expected_labels, *invalid)
    row_of = {label: i for i, label in enumerate(expected_labels)}
    column_of = {label: j for j, label in enumerate(obtained_labels)}
    counts = np.zeros((len(expected_labels), len(obtained_labels)), dtype=int)
    for r in scored:
        obtained = r.decision.raw_name if r.decision.status == "invalid_name" else (r.decision.obtained or NO_SKILL)
        counts[row_of[r.expected or NO_SKILL], column_of[obtained]] += 1
    return Confusion(expected_labels, obtained_labels, counts)


@dataclass(frozen=True)
class Misroute:
    """A scored decision that was wrong: expected one label, got another."""

    query_id: str
    query: str
    expected: str | None
    obtained: str | None
    run: int
    status: str

    def describe(self) -> str:
        """``expected X -> got Y: query`` (``none`` for no skill; an invalid name is quoted as written).

        >>> Misroute("q", "Pose mes congés", None, "leave-balance-calculator", 0, "skill").describe()
        'expected none -> got leave-balance-calculator: Pose mes congés'
        """
        return f"expected {self.expected or NO_SKILL} -> got {self.obtained or NO_SKILL}: {self.query}"


def misroutes(rows: Iterable[RoutedDecision]) -> list[Misroute]:
    """Every wrong scored decision, in input order."""
    return [Misroute(r.query_id, r.query, r.expected, r.decision.obtained, r.run, r.decision.status)
            for r in rows if r.decision.scored and not r.correct]


@dataclass(frozen=True)
class QueryConsistency:
    """How one query's scored runs agree: ``labels`` counts each obtained label (``NO_SKILL`` for none).

    ``agreement`` is the share of scored runs giving the most frequent label (1.0 when all agree;
    None without a scored run).
    """

    query_id: str
    runs: int
    scored_runs: int
    labels: dict[str, int]
    agreement: float | None

    @property
    def consistent(self) -> bool:
        return len(self.labels) <= 1


def consistency(rows: Iterable[RoutedDecision]) -> list[QueryConsistency]:
    """Per-query agreement across runs, queries in first-appearance order."""
    grouped: dict[str, list[RoutedDecision]] = {}
    for row in rows:
        grouped.setdefault(row.query_id, []).append(row)
    result = []
    for query_id, runs in grouped.items():
        labels = Counter(r.decision.obtained or NO_SKILL for r in runs if r.decision.scored)
        scored = sum(labels.values())
        result.append(QueryConsistency(query_id, len(runs), scored, dict(labels),
                                       max(labels.values()) / scored if scored else None))
    return result


def mean_input_tokens(rows: Iterable[RoutedDecision]) -> float | None:
    """Mean input tokens per decision over the decisions that report them; None if none does."""
    tokens = [r.input_tokens for r in rows if r.input_tokens is not None]
    return sum(tokens) / len(tokens) if tokens else None


def total_latency_s(rows: Iterable[RoutedDecision]) -> float | None:
    """Sum of the per-call latencies in seconds (model time, not wall time); None if none was measured."""
    latencies = [r.latency_s for r in rows if r.latency_s is not None]
    return sum(latencies) if latencies else None

"""The CI gate: block a change when routing accuracy falls under a threshold fixed in advance.

Seed 003: replay the labelled set at every change of a description, a model or the catalogue, and
fail the build under ``TRIGGER_MIN_ACCURACY`` (0.85 by default). Empty and errored answers are not
decisions; when too many of them are left out, the accuracy is measured on another set than the one
labelled, so the gate fails on their rate too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from evallib.readings import Reading
from evallib.triggering.metrics import TriggerMetrics

#: Seed 003's default threshold of the gate.
DEFAULT_MIN_ACCURACY = 0.85
ENV_MIN_ACCURACY = "TRIGGER_MIN_ACCURACY"
#: Largest share of empty or errored answers the gate accepts: beyond one decision in ten left
#: out, the accuracy no longer describes the labelled set.
DEFAULT_MAX_UNUSABLE_RATE = 0.10


def min_accuracy_from_env(environ: Mapping[str, str] = os.environ) -> float:
    """``TRIGGER_MIN_ACCURACY`` as a float in [0, 1], else `DEFAULT_MIN_ACCURACY`.

    Raises ValueError naming the variable when it is set to something else.
    """
    raw = environ.get(ENV_MIN_ACCURACY, "").strip()
    if not raw:
        return DEFAULT_MIN_ACCURACY
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{ENV_MIN_ACCURACY}={raw!r} is not a number between 0 and 1") from None
    if not 0 <= value <= 1:
        raise ValueError(f"{ENV_MIN_ACCURACY}={raw!r} is not a number between 0 and 1")
    return value


@dataclass(frozen=True)
class GateResult:
    passed: bool
    reading: Reading


def trigger_gate(metrics: TriggerMetrics, min_accuracy: float = DEFAULT_MIN_ACCURACY,
                 max_unusable_rate: float = DEFAULT_MAX_UNUSABLE_RATE) -> GateResult:
    """Pass when accuracy >= ``min_accuracy`` and (empty + errors) / total <= ``max_unusable_rate``.

    Reading codes: ``gate_no_decisions`` and ``gate_all_errored`` (fail: nothing to measure),
    ``gate_unusable_over_limit`` (fail, checked before accuracy), ``gate_below_min`` (fail) and
    ``gate_pass``. Values: accuracy with its 95 % interval (accuracy_low, accuracy_high; the query as
    the unit), min_accuracy, unusable_rate, max_unusable_rate, n, total, empty, errors.
    """
    values = {"accuracy": metrics.accuracy.value, "accuracy_low": metrics.accuracy.low,
              "accuracy_high": metrics.accuracy.high, "min_accuracy": min_accuracy,
              "unusable_rate": metrics.unusable_rate, "max_unusable_rate": max_unusable_rate,
              "n": metrics.n, "total": metrics.total, "empty": metrics.empty, "errors": metrics.errors}
    if metrics.total == 0:
        return GateResult(False, Reading("gate_no_decisions", values))
    if metrics.n == 0:
        return GateResult(False, Reading("gate_all_errored", values))
    if metrics.unusable_rate > max_unusable_rate:
        return GateResult(False, Reading("gate_unusable_over_limit", values))
    if metrics.accuracy.value < min_accuracy:
        return GateResult(False, Reading("gate_below_min", values))
    return GateResult(True, Reading("gate_pass", values))

"""What ``bench/coverage.py --write`` measured: the coverage of each kappa interval at workshop sizes.

The kappa page quotes these figures beside an interval built on few items, so that no coverage is typed
by hand: they are the bench's output, with its seed and number of replications, in
``measured_coverage.json`` next to this module.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from evallib.readings import Reading

MEASURED_COVERAGE = Path(__file__).with_name("measured_coverage.json")
#: Cells below this many items are the "few items" ones the page quotes.
FEW_ITEMS = 50
#: The coverage asked of a 95 % interval at n = 30 in the bench; below it the reading says so
#: (docs/kappa.md#measured-coverage).
TARGET = 0.93


@lru_cache(maxsize=1)
def _cells() -> tuple[dict, ...]:
    data = json.loads(MEASURED_COVERAGE.read_text(encoding="utf-8"))
    return tuple(data["cells"])


def measured_coverage(method: str, n: int) -> Reading | None:
    """``measured``: the lowest coverage the bench found for ``method`` ("analytic", "percentile", or the
    small-sample interval's construction: ``small_sample.GOODNESS_OF_FIT``, ``small_sample.POSTERIOR``) in
    its cells of few items, when
    ``n`` is below ``FEW_ITEMS``; ``measured_below`` when that coverage is below ``TARGET``; None on more
    items, or when the bench has no such cell.

    Values: ``coverage_share`` (the lowest share of replications whose interval held the population
    kappa), ``bench_n`` (items per replication in that cell), ``replications``, ``n_labels`` (categories in
    that cell), ``cells`` (how many cells of few items were measured).
    """
    if n >= FEW_ITEMS:
        return None
    few = [cell for cell in _cells() if cell["n"] < FEW_ITEMS and method in cell["coverage"]]
    if not few:
        return None
    worst = min(few, key=lambda cell: cell["coverage"][method])
    code = "measured" if worst["coverage"][method] >= TARGET else "measured_below"
    return Reading(code, {"target_share": TARGET, "coverage_share": worst["coverage"][method], "bench_n": worst["n"],
                                "replications": worst["replications"][method], "n_labels": worst["labels"],
                                "cells": len(few)})

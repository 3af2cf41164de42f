"""Benchmark of the triggering page's computations, ratios measured side by side in one run.

Run: ``.venv/bin/python bench/trigger.py`` (or ``make bench``). Every figure below is measured in
full; nothing is timed on a subset and scaled.

- the similarity baseline's threshold sweep on 10,000 queries x 20 skills x 1,000 thresholds:
  ``threshold_sweep`` (one argmax, one sort, one ``searchsorted`` over all thresholds) against the
  natural numpy version a reader would write (``per_threshold_numpy``: argmax once, then one
  comparison of the top scores per threshold), both on all 1,000 thresholds, best of 5. Their
  counts are checked equal on every threshold, and equal to the first version's per-query loop
  (``threshold_sweep_reference``) on a few thresholds (a check of correctness, not timed). Target:
  the sweep at least as fast as the natural numpy version (ratio >= 1);
- the whole offline computation of the page on the default set (replay both authored models, read
  the decisions, metrics, readings, similarity scores, the sweep and the four-threshold table) far
  below a rerun's budget.
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evallib.llm import Recordings, provider_for_mode  # noqa: E402
from evallib.triggering.authored import recorded_models  # noqa: E402
from evallib.triggering.data import load_queries, load_skills  # noqa: E402
from evallib.triggering.metrics import trigger_metrics  # noqa: E402
from evallib.triggering.readings import sweep_reading  # noqa: E402
from evallib.triggering.report import decide_all, evaluate, route  # noqa: E402
from evallib.triggering.similarity import (SWEEP_THRESHOLDS, TABLE_THRESHOLDS, Sweep, _sweep,  # noqa: E402
                                           expected_indices, routed_by_similarity, similarity_scores,
                                           threshold_sweep, threshold_sweep_reference)

SEED = 7
N_QUERIES, N_SKILLS, N_THRESHOLDS = 10_000, 20, 1_000
#: Thresholds on which the first version's per-query loop checks the counts (not timed).
LOOP_CHECK_THRESHOLDS = 5
#: Share of queries whose expected skill gets a higher score (the rest are negatives or noise).
POSITIVE_SHARE = 0.7
RATIO_TARGET = 1.0
#: A Streamlit rerun should feel immediate; the page's offline computation must stay far below this.
RERUN_BUDGET_S = 1.0
REPEATS = 5
FIELDS = ("accuracy", "precision", "recall", "false_activation_rate", "activations", "correct_activations",
          "false_activations")
COUNTS = ("activations", "correct_activations", "false_activations")


class Row(NamedTuple):
    measure: str
    seconds: float
    note: str = ""


def synthetic_scores(seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(scores (N_QUERIES, N_SKILLS) in [0, 1), expected skill index or -1) with a realistic signal."""
    rng = np.random.default_rng(seed)
    scores = rng.beta(1.2, 8.0, size=(N_QUERIES, N_SKILLS))
    expected = np.where(rng.random(N_QUERIES) < POSITIVE_SHARE, rng.integers(0, N_SKILLS, N_QUERIES), -1)
    positive = expected >= 0
    scores[positive, expected[positive]] += rng.uniform(0.1, 0.6, positive.sum())
    scores[rng.random(N_QUERIES) < 0.02] = 0.0  # queries sharing no word with any description
    return np.minimum(scores, 1.0), expected


def best_time(function: Callable[[], object], repeats: int) -> float:
    """Best wall time in seconds over ``repeats`` calls (``timeit``, one call per repeat)."""
    return min(timeit.repeat(function, number=1, repeat=repeats))


def per_threshold_numpy(scores: np.ndarray, expected: np.ndarray, thresholds: np.ndarray) -> Sweep:
    """The natural numpy sweep: the best skill and its score once, then one comparison per threshold."""
    best = scores.argmax(axis=1)
    top = scores[np.arange(len(scores)), best]
    can_fire = top > 0
    hit, negative = best == expected, expected == -1
    fired, correct, false = [], [], []
    for t in thresholds:
        fires = can_fire & (top >= t)
        fired.append(np.count_nonzero(fires))
        correct.append(np.count_nonzero(fires & hit))
        false.append(np.count_nonzero(fires & negative))
    return _sweep(np.asarray(thresholds, dtype=float), np.array(fired), np.array(correct), np.array(false),
                  len(expected), int((~negative).sum()))


def measure_sweep() -> tuple[list[Row], float, bool]:
    """The vectorised sweep against the natural numpy version, both on all 1,000 thresholds."""
    scores, expected = synthetic_scores()
    thresholds = np.linspace(0.0, 1.0, N_THRESHOLDS)
    t_vectorised = best_time(lambda: threshold_sweep(scores, expected, thresholds), REPEATS)
    t_numpy = best_time(lambda: per_threshold_numpy(scores, expected, thresholds), REPEATS)
    full, natural = threshold_sweep(scores, expected, thresholds), per_threshold_numpy(scores, expected, thresholds)
    equal = all(np.array_equal(getattr(full, f), getattr(natural, f)) for f in COUNTS) and all(
        np.allclose(getattr(full, f), getattr(natural, f), equal_nan=True) for f in FIELDS)
    few = thresholds[:: N_THRESHOLDS // LOOP_CHECK_THRESHOLDS]
    loop = threshold_sweep_reference(scores, expected, few)
    equal &= all(np.array_equal(getattr(threshold_sweep(scores, expected, few), f), getattr(loop, f)) for f in COUNTS)
    ratio = t_numpy / t_vectorised
    shape = f"{N_QUERIES} queries x {N_SKILLS} skills x {N_THRESHOLDS} thresholds, best of {REPEATS}"
    rows = [
        Row("numpy, per threshold", t_numpy, f"{shape}: argmax once, one comparison per threshold"),
        Row("vectorised sweep", t_vectorised,
            f"same data, all thresholds: {ratio:.1f}x the natural numpy version's speed; counts "
            f"{'equal' if equal else 'DIFFER'} on all {N_THRESHOLDS} thresholds (and to the per-query loop on "
            f"{len(few)}); best accuracy {np.nanmax(full.accuracy):.3f}"),
    ]
    return rows, ratio, equal


def page_offline_computation() -> int:
    """Everything the page computes offline on the default set; returns the number of decisions."""
    catalogue = load_skills()
    queries = load_queries(catalogue)
    recordings = Recordings(ROOT / "packs" / "fr" / "recordings")
    provider = provider_for_mode("offline", recordings)
    decisions = 0
    for model in recorded_models(recordings):
        cells, results = route(catalogue, queries, provider, model, 2)
        rows = decide_all(cells, results, queries, catalogue.names)
        evaluate(rows, catalogue, queries)
        decisions += len(rows)
    scores = similarity_scores(catalogue, queries)
    sweep_reading(threshold_sweep(scores, expected_indices(queries, catalogue), SWEEP_THRESHOLDS))
    for threshold in TABLE_THRESHOLDS:
        trigger_metrics(routed_by_similarity(queries, catalogue, scores, threshold))
    return decisions


def measure_page() -> tuple[list[Row], bool]:
    decisions = page_offline_computation()
    seconds = best_time(page_offline_computation, 3)
    note = f"{decisions} replayed decisions, 2 models; budget {RERUN_BUDGET_S:.0f} s, {seconds / RERUN_BUDGET_S:.1%} of it"
    return [Row("page offline computation", seconds, note)], seconds < RERUN_BUDGET_S


def main() -> int:
    sweep_rows, ratio, equal = measure_sweep()
    page_rows, within_budget = measure_page()
    print(f"{'measure':<26} {'seconds':>10}  note")
    for row in sweep_rows + page_rows:
        print(f"{row.measure:<26} {row.seconds:>10.4f}  {row.note}")
    ok = ratio >= RATIO_TARGET and equal and within_budget
    print(f"\ntargets (sweep >= {RATIO_TARGET:.0f}x the natural numpy version with equal counts, "
          f"page computation < {RERUN_BUDGET_S:.0f} s): "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

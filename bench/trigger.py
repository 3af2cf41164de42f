"""Benchmark of the triggering page's computations, ratios measured side by side in one run.

Run: ``.venv/bin/python bench/trigger.py`` (or ``make bench``). Targets (issue 7):

- the similarity baseline's threshold sweep on 10,000 queries x 20 skills x 1,000 thresholds at
  least 50x faster vectorised (`threshold_sweep`) than the per-threshold, per-query loop a first
  version would write (`threshold_sweep_reference`), with equal metrics. The loop is too slow to
  run on all 1,000 thresholds in a benchmark (about half a minute): it runs on an evenly spaced
  subset of them and its time is scaled linearly to 1,000 (each threshold costs the same full pass
  over the queries); the printed note says so, and equality is checked on that subset;
- the whole offline computation of the page on the default set (replay both authored models, read
  the decisions, metrics, readings, similarity scores, the sweep and the four-threshold table) far
  below a rerun's budget.
"""

from __future__ import annotations

import sys
import time
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
from evallib.triggering.similarity import (SWEEP_THRESHOLDS, TABLE_THRESHOLDS, decide, expected_indices,  # noqa: E402
                                           routed_by_similarity, similarity_scores, threshold_sweep,
                                           threshold_sweep_reference)

SEED = 7
N_QUERIES, N_SKILLS, N_THRESHOLDS = 10_000, 20, 1_000
#: Thresholds on which the reference loop really runs (every 50th of the 1,000), scaled to 1,000.
REFERENCE_SUBSET = 20
#: Share of queries whose expected skill gets a higher score (the rest are negatives or noise).
POSITIVE_SHARE = 0.7
RATIO_TARGET = 50.0
#: A Streamlit rerun should feel immediate; the page's offline computation must stay far below this.
RERUN_BUDGET_S = 1.0
VECTORISED_REPEATS = 5
FIELDS = ("accuracy", "precision", "recall", "false_activation_rate", "activations", "correct_activations",
          "false_activations")


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


def per_threshold_numpy(scores: np.ndarray, expected: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """The middle way: numpy decisions, but one full pass per threshold; returns the accuracies."""
    accuracies = []
    for t in thresholds:
        accuracies.append(np.mean(decide(scores, t) == expected))
    return np.array(accuracies)


def measure_sweep() -> tuple[list[Row], float, bool]:
    """Vectorised sweep over 1,000 thresholds vs the reference loop on a subset, scaled to 1,000."""
    scores, expected = synthetic_scores()
    thresholds = np.linspace(0.0, 1.0, N_THRESHOLDS)
    subset = thresholds[:: N_THRESHOLDS // REFERENCE_SUBSET]
    t_vectorised = best_time(lambda: threshold_sweep(scores, expected, thresholds), VECTORISED_REPEATS)
    start = time.perf_counter()
    reference = threshold_sweep_reference(scores, expected, subset)
    t_subset = time.perf_counter() - start
    t_reference = t_subset * N_THRESHOLDS / len(subset)
    vectorised = threshold_sweep(scores, expected, subset)
    equal = all(np.allclose(getattr(vectorised, f), getattr(reference, f), equal_nan=True) for f in FIELDS)
    full = threshold_sweep(scores, expected, thresholds)
    t_per_threshold = best_time(lambda: per_threshold_numpy(scores, expected, thresholds), 1)
    ratio = t_reference / t_vectorised
    shape = f"{N_QUERIES} queries x {N_SKILLS} skills x {N_THRESHOLDS} thresholds"
    rows = [
        Row("reference loop, scaled", t_reference,
            f"{shape}: measured {t_subset:.2f} s on {len(subset)} thresholds, x{N_THRESHOLDS // len(subset)}"),
        Row("numpy per threshold", t_per_threshold,
            f"decide() once per threshold, accuracy only: {t_reference / t_per_threshold:.0f}x faster than the loop"),
        Row("vectorised sweep", t_vectorised,
            f"{ratio:.0f}x faster; metrics {'equal' if equal else 'DIFFER'} on the {len(subset)} shared "
            f"thresholds; best accuracy {np.nanmax(full.accuracy):.3f}"),
    ]
    return rows, ratio, equal


def page_offline_computation() -> int:
    """Everything the page computes offline on the default set; returns the number of decisions."""
    catalogue = load_skills()
    queries = load_queries(catalogue)
    recordings = Recordings(ROOT / "recordings")
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
    print(f"\ntargets (sweep >= {RATIO_TARGET:.0f}x with equal metrics, page computation < {RERUN_BUDGET_S:.0f} s): "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

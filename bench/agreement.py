"""Benchmark of the kappa page's computation on a large CSV, ratios measured side by side in one run.

Run: ``.venv/bin/python bench/agreement.py`` (or ``make bench``). Synthetic ratings: 250,000 items x 3
raters, pass/fail labels as text (as read from a CSV), about 80 % agreement. Targets (issue 6, section 5):

1. the page's full computation (two-rater report with the bootstrap, Fleiss and Krippendorff with
   their bootstrap intervals) within 3x of the point estimates alone (Cohen, Fleiss, alpha);
2. the bootstrap from sufficient statistics at least 100x faster than the item-level bootstrap it
   replaces. The item-level bootstrap is far too slow at 250,000 items: it is timed on
   ``ITEM_LEVEL_ITEMS`` items and ``ITEM_LEVEL_RESAMPLES`` resamples and scaled linearly in both
   (its cost is one pass over the items per resample), and the output says so. Both bootstraps
   start from the labels already read (the count tables are built once, outside the timing).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib import agreement as ag  # noqa: E402
from evallib.agreement.bootstrap import (  # noqa: E402
    alpha_bootstrap_from_counts,
    bootstrap_ci,
    cohen_kappa_table_bootstrap,
    fleiss_bootstrap_from_counts,
)
from evallib.agreement.cohen import _chance_corrected  # noqa: E402
from evallib.agreement.multirater import _alpha_counts, _alpha_from_counts, _fleiss_counts, _fleiss_from_counts  # noqa: E402

SEED = 6
N_ITEMS = 250_000
N_RATERS = 3
N_BOOT = 2000  # as on the page
AGREEMENT = 0.8
ITEM_LEVEL_ITEMS = 10_000
ITEM_LEVEL_RESAMPLES = 200
FULL_TARGET = 3.0
SPEEDUP_TARGET = 100.0


def ratings(n_items: int) -> list[list[str]]:
    """Shape (n_raters, n_items): a hidden truth (70 % pass), each rater copies it with probability AGREEMENT."""
    rng = np.random.default_rng(SEED)
    truth = rng.random(n_items) < 0.7
    raters = []
    for _ in range(N_RATERS):
        keep = rng.random(n_items) < AGREEMENT
        verdict = np.where(keep, truth, rng.random(n_items) < 0.5)
        raters.append(np.where(verdict, "pass", "fail").tolist())
    return raters


def timed(function) -> tuple[float, object]:
    """CPU seconds of this process (the machine may be shared: wall time would count other jobs)."""
    start = time.process_time()
    value = function()
    return time.process_time() - start, value


def point_estimates(by_rater: list[list[str]]) -> None:
    rows = list(zip(*by_rater))
    ag.cohen_kappa(by_rater[0], by_rater[1])
    ag.fleiss_kappa(rows)
    ag.krippendorff_alpha(by_rater)


def page_computation(by_rater: list[list[str]]) -> None:
    """What the page computes for a CSV (pages/kappa.py): the pair report with the bootstrap, then all raters."""
    rows = list(zip(*by_rater))
    ag.pair_report(by_rater[0], by_rater[1], bootstrap=True, n_boot=N_BOOT)
    ag.fleiss_kappa_with_interval(rows, n_boot=N_BOOT)
    ag.krippendorff_alpha_with_interval(by_rater, n_boot=N_BOOT)


def sufficient_inputs(by_rater: list[list[str]]) -> tuple:
    """The labels read once: the contingency table, Fleiss' and alpha's count tables (not timed below)."""
    result = ag.cohen_kappa(by_rater[0], by_rater[1])
    codes_1 = np.searchsorted(result.categories, by_rater[0])
    codes_2 = np.searchsorted(result.categories, by_rater[1])
    alpha_counts, values, _, _ = _alpha_counts(by_rater, "nominal")
    return result.table, codes_1, codes_2, _fleiss_counts(list(zip(*by_rater)))[0], alpha_counts, values


def item_level_bootstraps(inputs: tuple, n_boot: int) -> None:
    """The bootstraps as the page ran them before: the statistic recomputed on each resample of item indices."""
    table, codes_1, codes_2, fleiss_counts, alpha_counts, values = inputs
    k = table.shape[0]
    bootstrap_ci(lambda idx: _chance_corrected(np.bincount(codes_1[idx] * k + codes_2[idx], minlength=k * k)
                                               .reshape(k, k), np.eye(k))[2], len(codes_1), n_boot=n_boot)
    bootstrap_ci(lambda idx: _fleiss_from_counts(fleiss_counts[idx])[2], len(fleiss_counts), n_boot=n_boot)
    bootstrap_ci(lambda idx: _alpha_from_counts(alpha_counts[idx], values, "nominal")[2], len(alpha_counts),
                 n_boot=n_boot)


def new_bootstraps(inputs: tuple, n_boot: int) -> None:
    """The same three bootstraps from sufficient statistics (multinomial draws of cells or patterns)."""
    table, _, _, fleiss_counts, alpha_counts, values = inputs
    cohen_kappa_table_bootstrap(table, np.eye(table.shape[0]), n_boot=n_boot)
    fleiss_bootstrap_from_counts(fleiss_counts, n_boot=n_boot)
    alpha_bootstrap_from_counts(alpha_counts, values, "nominal", n_boot=n_boot)


def main() -> int:
    by_rater = ratings(N_ITEMS)
    print(f"{N_ITEMS:,} items x {N_RATERS} raters, {N_BOOT} resamples per bootstrap; CPU seconds\n")
    t_point, _ = timed(lambda: point_estimates(by_rater))
    t_full, _ = timed(lambda: page_computation(by_rater))
    full_ratio = t_full / t_point
    print(f"point estimates alone (Cohen, Fleiss, alpha)      {t_point:8.2f} s")
    print(f"page's full computation (with three bootstraps)   {t_full:8.2f} s")
    print(f"  ratio full / point estimates                    {full_ratio:8.2f}x  (target <= {FULL_TARGET:g}x)\n")

    small = sufficient_inputs([rater[:ITEM_LEVEL_ITEMS] for rater in by_rater])
    t_old_small, _ = timed(lambda: item_level_bootstraps(small, ITEM_LEVEL_RESAMPLES))
    scale = (N_ITEMS / ITEM_LEVEL_ITEMS) * (N_BOOT / ITEM_LEVEL_RESAMPLES)
    t_old = t_old_small * scale
    inputs = sufficient_inputs(by_rater)
    t_new, _ = timed(lambda: new_bootstraps(inputs, N_BOOT))
    speedup = t_old / t_new
    print(f"item-level bootstraps, measured on {ITEM_LEVEL_ITEMS:,} items x {ITEM_LEVEL_RESAMPLES} resamples "
          f"{t_old_small:8.2f} s")
    print(f"  scaled linearly (x{scale:,.0f}) to {N_ITEMS:,} items x {N_BOOT} resamples  {t_old:8.0f} s  (estimate)")
    print(f"bootstraps from sufficient statistics, {N_ITEMS:,} items x {N_BOOT}, measured "
          f"{t_new:8.2f} s")
    print(f"  speed-up                                        {speedup:8.0f}x  (target >= {SPEEDUP_TARGET:g}x)")
    ok = full_ratio <= FULL_TARGET and speedup >= SPEEDUP_TARGET
    print("\nPASS" if ok else "\nFAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

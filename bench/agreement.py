"""Agreement statistics against the libraries a user would otherwise call, measured side by side.

Run: ``.venv/bin/python bench/agreement.py`` (or ``make bench``). Each row of the table runs
evallib and the reference library on the same data in the same process, alternately, 3 runs each
(docs/README.md#performance);
a run is ``repeat`` calls (enough for the reference to take a measurable time) and its time is the
CPU time of this process (the machine is shared: wall time would count other people's jobs). The
ratio of a run is evallib / reference; the table gives min / median / max over the 3 runs, and the
values of both sides are checked equal to 1e-12 on every run.

Then the bootstrap intervals from sufficient statistics (what the kappa page shows) are checked
against the item-level bootstrap they replace, both run in full on the same 10,000 items: their
bounds must agree within Monte Carlo error (bound explained at ``monte_carlo_bound``).
Exit 0 when every median ratio is at or under its target, every value is equal and every interval
agrees; 1 otherwise.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import krippendorff
import numpy as np
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss_kappa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib import agreement as ag  # noqa: E402
from evallib.agreement.bootstrap import (  # noqa: E402
    _alpha_of_draws,
    _draws,
    _patterns,
    bootstrap_ci,
    cohen_kappa_table_bootstrap,
)
from evallib.agreement.cohen import _chance_corrected  # noqa: E402
from evallib.agreement.multirater import _alpha_counts, _alpha_from_counts, _fleiss_counts, _fleiss_from_counts  # noqa: E402

SEED = 14
RUNS = 3
TOLERANCE = 1e-12
N_BOOT = 2000          # as on the kappa page
BOOT_ITEMS = 10_000


@dataclass
class Row:
    name: str
    ours: Callable[[], float]
    reference: Callable[[], float]
    target: float
    repeat: int = 1


def cpu_seconds(function: Callable[[], float], repeat: int) -> tuple[float, float]:
    start = time.process_time()
    for _ in range(repeat):
        value = function()
    return (time.process_time() - start) / repeat, float(value)


def rows() -> list[Row]:
    rng = np.random.default_rng(SEED)
    n = 1_000_000
    truth = rng.integers(0, 3, n)
    names = np.array(["fail", "pass", "unsure"])
    text_a = names[np.where(rng.random(n) < 0.8, truth, rng.integers(0, 3, n))].tolist()
    text_b = names[np.where(rng.random(n) < 0.8, truth, rng.integers(0, 3, n))].tolist()

    score_a = rng.integers(0, 11, n)   # every score 0..10 occurs: sklearn's rank weights are the value weights
    score_b = np.clip(score_a + rng.integers(-2, 3, n), 0, 10)
    score_text_a, score_text_b = score_a.astype(str).tolist(), score_b.astype(str).tolist()

    items, raters = 100_000, 5
    item_truth = rng.integers(0, 4, items)
    fleiss_rows = np.where(rng.random((items, raters)) < 0.6, item_truth[:, None], rng.integers(0, 4, (items, raters)))

    units = 10_000
    unit_truth = rng.integers(0, 5, units)
    reliability = np.where(rng.random((raters, units)) < 0.6, unit_truth, rng.integers(0, 5, (raters, units)))
    reliability = reliability.astype(float)
    reliability[rng.random(reliability.shape) < 0.2] = np.nan

    return [
        Row("Cohen's kappa, 1,000,000 items, string labels (lists of str) vs sklearn cohen_kappa_score",
            lambda: ag.cohen_kappa(text_a, text_b).kappa, lambda: cohen_kappa_score(text_a, text_b), 1.0),
        Row("quadratic kappa, 1M numeric labels as text vs sklearn on int arrays",
            lambda: ag.cohen_kappa(score_text_a, score_text_b, weights="quadratic").kappa,
            lambda: cohen_kappa_score(score_a, score_b, weights="quadratic"), 1.5),
        Row("Fleiss' kappa, 100,000 items x 5 raters (int array) vs statsmodels fleiss_kappa(aggregate_raters)",
            lambda: ag.fleiss_kappa(fleiss_rows).kappa,
            lambda: statsmodels_fleiss_kappa(aggregate_raters(fleiss_rows)[0]), 1.0),
        Row("Krippendorff's alpha, 10,000 x 5, 20 % missing, nominal vs krippendorff.alpha",
            lambda: ag.krippendorff_alpha(reliability, level="nominal").alpha,
            lambda: krippendorff.alpha(reliability, level_of_measurement="nominal"), 1.5, repeat=30),
        Row("the same, interval level",
            lambda: ag.krippendorff_alpha(reliability, level="interval").alpha,
            lambda: krippendorff.alpha(reliability, level_of_measurement="interval"), 1.5, repeat=30),
    ]


def speed_table() -> bool:
    ok = True
    print(f"evallib / reference, CPU seconds per call, {RUNS} runs alternating (min / median / max)\n")
    for row in rows():
        ratios, ours_times, ref_times = [], [], []
        equal = True
        for _ in range(RUNS):
            t_ours, v_ours = cpu_seconds(row.ours, row.repeat)
            t_ref, v_ref = cpu_seconds(row.reference, row.repeat)
            equal &= abs(v_ours - v_ref) <= TOLERANCE
            ratios.append(t_ours / t_ref)
            ours_times.append(t_ours)
            ref_times.append(t_ref)
        median = statistics.median(ratios)
        passed = equal and median <= row.target
        ok &= passed
        print(row.name)
        print(f"  evallib   {min(ours_times):8.4f} / {statistics.median(ours_times):8.4f} / {max(ours_times):8.4f} s"
              f"   reference {min(ref_times):8.4f} / {statistics.median(ref_times):8.4f} / {max(ref_times):8.4f} s"
              + (f"   ({row.repeat} calls per run)" if row.repeat > 1 else ""))
        print(f"  ratio     {min(ratios):5.2f} / {median:5.2f} / {max(ratios):5.2f}x   target <= {row.target:g}x   "
              f"values {'equal' if equal else 'DIFFER'} (kappa/alpha {v_ours:.15f} vs {v_ref:.15f})   "
              f"{'ok' if passed else 'MISSED'}\n")
    return ok


def monte_carlo_bound(spread: float, n_boot: int) -> float:
    """How far two independent percentile bootstraps' 2.5 % (or 97.5 %) bounds may differ by chance.

    The standard error of the p-quantile of B draws is sqrt(p (1 - p) / B) / f(q); for a bootstrap
    distribution close to normal with standard deviation s, f(q) = 0.0584 / s at p = 0.025, hence
    0.06 s for B = 2,000. Two independent runs differ with sqrt(2) times that; we allow 4 standard
    errors. s is estimated from the interval itself: (high - low) / (2 x 1.96).
    """
    se = np.sqrt(0.025 * 0.975 / n_boot) / 0.0584 * spread
    return 4 * np.sqrt(2) * se


def interval_check() -> bool:
    """Table / pattern bootstraps against the item-level bootstrap, both in full, same items."""
    rng = np.random.default_rng(SEED + 1)
    n = BOOT_ITEMS
    truth = rng.integers(0, 3, n)
    rows_ = np.stack([np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n)) for _ in range(3)], axis=1)
    ok = True
    print(f"Bootstrap intervals, {n:,} items x 3 raters, {N_BOOT} resamples each, CPU seconds (both in full)\n")

    cats, table = ag.contingency_table(rows_[:, 0], rows_[:, 1])
    k, w = len(cats), np.eye(len(cats))
    codes_1, codes_2 = rows_[:, 0], rows_[:, 1]
    fleiss_counts = _fleiss_counts(rows_)[0]
    alpha_counts, values, _, _ = _alpha_counts(rows_.T, "nominal")

    def table_cohen():
        values_ = cohen_kappa_table_bootstrap(table, w, n_boot=N_BOOT, seed=1)
        return np.percentile(values_[~np.isnan(values_)], [2.5, 97.5])

    def table_alpha():
        patterns, frequencies = _patterns(alpha_counts)
        values_ = _alpha_of_draws(_draws(frequencies, N_BOOT, 1).astype(float), patterns, values, "nominal")
        return np.percentile(values_[~np.isnan(values_)], [2.5, 97.5])

    cases = [
        ("Cohen's kappa (table)", table_cohen,
         lambda: bootstrap_ci(lambda idx: _chance_corrected(
             np.bincount(codes_1[idx] * k + codes_2[idx], minlength=k * k).reshape(k, k), w)[2], n, n_boot=N_BOOT, seed=2)),
        ("Fleiss' kappa (patterns)",
         lambda: (lambda ci: (ci.low, ci.high))(ag.fleiss_kappa_bootstrap_ci(rows_, n_boot=N_BOOT, seed=1)),
         lambda: bootstrap_ci(lambda idx: _fleiss_from_counts(fleiss_counts[idx])[2], n, n_boot=N_BOOT, seed=2)),
        ("Krippendorff's alpha, nominal (patterns)", table_alpha,
         lambda: bootstrap_ci(lambda idx: _alpha_from_counts(alpha_counts[idx], values, "nominal")[2], n,
                              n_boot=N_BOOT, seed=2)),
    ]
    for name, sufficient, item_level in cases:
        start = time.process_time()
        low, high = sufficient()
        t_new = time.process_time() - start
        start = time.process_time()
        item = item_level()
        t_old = time.process_time() - start
        bound = monte_carlo_bound((item.high - item.low) / (2 * 1.96), N_BOOT)
        agree = abs(low - item.low) <= bound and abs(high - item.high) <= bound
        ok &= agree
        print(f"{name}")
        print(f"  sufficient statistics [{low:.4f}, {high:.4f}] in {t_new:6.3f} s;"
              f" item level [{item.low:.4f}, {item.high:.4f}] in {t_old:6.3f} s"
              f" (ratio {t_new / t_old:.4f}x)")
        print(f"  bounds differ by {abs(low - item.low):.4f} and {abs(high - item.high):.4f}; "
              f"Monte Carlo bound {bound:.4f}: {'agree' if agree else 'DISAGREE'}\n")
    return ok


def main() -> int:
    ok = speed_table()
    ok &= interval_check()
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Coverage of 95 % intervals at workshop sizes, old and new side by side (docs/kappa.md#measured-coverage).

Run: ``.venv/bin/python bench/coverage.py [--quick] [--replications R] [--grid-replications R] [--write]``
(seeded; the full run took 2,394 s on the shared machine, 2 cores among 8 people, 407 s of CPU;
``--quick`` runs a sixth of the grid at 60 replications). ``--write`` stores the kappa cells in
``evallib/agreement/measured_coverage.json`` (``evallib.agreement.measured``), the figures the kappa
page quotes on few items.

Cohen's kappa. Each cell is a population table of two raters' labels (its kappa is the target); each
replication draws n items from it and builds every interval with the shipped functions:

- ``analytic``: kappa ± 1.96 se (Fleiss, Cohen & Everitt 1969), the page's old default;
- ``percentile``: percentile bootstrap over items (2,000 resamples), the page's "bootstrap";
- ``bca``: ``scipy.stats.bootstrap(method="BCa")`` over items (999 resamples), for reference; scipy
  gives no interval when a resample leaves kappa undefined (both raters constant), counted in ``n``;
- ``small_sample``: `evallib.agreement.small_sample.small_sample_interval`, the page's default
  (Donner & Eliasziw 1992 on two labels, the calibrated Dirichlet posterior on more), stored under the
  name of the construction it used (``goodness_of_fit``, ``dirichlet_posterior``).

Then the grid of three and four labels (``bench/kappa_grid.py``: 216 cells, every candidate side by side,
the old bootstrap-t and the shipped interval in full), and its summary.

A table where the page shows no interval (kappa undefined, or a constant rater: the page then shows
only the goodness-of-fit interval, which pools both raters' labels) counts as a miss, and ``none``
says how often. A kappa is read "covered" when low <= kappa <= high.

Paired differences. The interval the judge page shows beside a mean difference, from inverting the
sign-flip test (`evallib.paired.sign_flip_test`, 2,000 Monte Carlo flips beyond 16 cases here), is
compared with Student's t and the bootstrap-t of the mean (2,000 resamples), on skewed and symmetric
differences; the target is the mean. Each figure is a coverage ± its Monte Carlo standard error
sqrt(c(1 - c)/R), then the mean width of the intervals shown.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.agreement.bootstrap import _percentile_interval, cohen_kappa_table_bootstrap  # noqa: E402
from evallib.agreement.cohen import _chance_corrected, agreement_weights, kappa_from_table  # noqa: E402
from evallib.agreement.small_sample import GOODNESS_OF_FIT, POSTERIOR, small_sample_interval  # noqa: E402
from evallib.agreement.measured import MEASURED_COVERAGE  # noqa: E402
from evallib.paired import sign_flip_test  # noqa: E402
from kappa_grid import grid_bench  # noqa: E402

SEED = 22
N_BOOT = 2000


def binary_table(share_1: float, share_2: float, kappa: float) -> np.ndarray:
    """The 2 x 2 population table of two raters giving label 1 with shares ``share_1``, ``share_2``."""
    p_e = share_1 * share_2 + (1 - share_1) * (1 - share_2)
    p_o = p_e + kappa * (1 - p_e)
    both_1 = (p_o + share_1 + share_2 - 1) / 2
    both_0 = p_o - both_1
    return np.array([[both_0, share_2 - both_1], [share_1 - both_1, both_1]])


THREE_MIDDLE = np.array([[0.14, 0.05, 0.01], [0.05, 0.35, 0.10], [0.01, 0.10, 0.19]])
THREE_SKEWED = np.array([[0.03, 0.03, 0.01], [0.02, 0.10, 0.08], [0.01, 0.07, 0.65]])
THREE_SKEWED = THREE_SKEWED / THREE_SKEWED.sum()
KAPPA_CELLS = (  # name, population table, weights, n items
    ("binary, prevalence 0.9", binary_table(0.9, 0.9, 0.52), None, 30),
    ("binary, prevalence 0.9", binary_table(0.9, 0.9, 0.52), None, 200),
    ("binary, shares 0.9 / 0.8", binary_table(0.9, 0.8, 0.5), None, 30),
    ("3 labels, quadratic", THREE_MIDDLE, "quadratic", 30),
    ("3 labels, quadratic, skewed", THREE_SKEWED, "quadratic", 30),
    ("3 labels, quadratic", THREE_MIDDLE, "quadratic", 200),
)
KAPPA_METHODS = ("analytic", "percentile", "bca", "small_sample")


def _bca(table: np.ndarray, w: np.ndarray, seed: int) -> tuple[float, float] | None:
    """scipy's BCa interval of kappa over the items of ``table`` (None when scipy gives none)."""
    k = table.shape[0]
    rows, cols = np.divmod(np.repeat(np.arange(k * k), table.ravel().astype(int)), k)

    def statistic(a, b, axis=-1):
        tables = np.zeros(a.shape[:-1] + (k, k))
        np.add.at(tables.reshape(-1, k * k), (np.arange(a.size // a.shape[-1]).repeat(a.shape[-1]),
                                              (a * k + b).ravel()), 1)
        n = a.shape[-1]
        p_o = np.einsum("ij,...ij->...", w, tables) / n
        p_e = np.einsum("...i,ij,...j->...", tables.sum(-1), w, tables.sum(-2)) / n**2
        with np.errstate(all="ignore"):
            return (p_o - p_e) / (1 - p_e)

    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        result = stats.bootstrap((rows, cols), statistic, paired=True, vectorized=True, method="BCa",
                                 n_resamples=999, random_state=seed)
    low, high = result.confidence_interval
    return None if not (np.isfinite(low) and np.isfinite(high)) else (float(low), float(high))


def kappa_intervals(table: np.ndarray, weights: str | None, seed: int) -> dict[str, tuple[float, float] | None]:
    """Every method's interval on one table, as the page would show it (None: no interval shown)."""
    k = table.shape[0]
    cats = tuple(float(c) for c in range(k))
    w = agreement_weights(cats, weights)
    result = kappa_from_table(table, cats, weights=weights)
    shown = result.kappa is not None and result.note is None  # the page shows no interval otherwise
    out = dict.fromkeys(KAPPA_METHODS)
    if result.kappa is None:
        return out
    if shown:
        out["analytic"] = (result.ci_low, result.ci_high)
        boot = _percentile_interval(cohen_kappa_table_bootstrap(table, w, n_boot=N_BOOT, seed=seed), 0.95, N_BOOT,
                                    result.kappa)
        out["percentile"] = None if boot.low is None else (boot.low, boot.high)
        out["bca"] = _bca(table, w, seed)
    small = small_sample_interval(table, w, n_boot=N_BOOT, seed=seed)
    # The page shows the goodness-of-fit interval beside a constant rater too (it pools both raters' labels).
    if small.low is not None and (shown or small.method == GOODNESS_OF_FIT):
        out["small_sample"] = (small.low, small.high)
    return out


def summary(hits: list[bool], widths: list[float], none: int) -> str:
    r = len(hits)
    c = float(np.mean(hits))
    width = float(np.mean(widths)) if widths else float("nan")
    return f"{c:.3f}±{np.sqrt(c * (1 - c) / r):.3f} w{width:.2f} n{none}"


def kappa_bench(replications: int, bca_replications: int) -> list[dict]:
    """Print the kappa cells; return them as data (cell, n, kappa, per method coverage and replications)."""
    measured = []
    rng = np.random.default_rng(SEED)
    print(f"Cohen's kappa: coverage ± Monte Carlo s.e., mean width (w), tables with no interval shown (n); "
          f"{replications} replications per cell (BCa: {bca_replications}), unit: the item")
    print(f"{'cell':<30} {'n':>4} {'kappa':>6} | " + " | ".join(f"{m:<22}" for m in KAPPA_METHODS))
    for name, population, weights, n in KAPPA_CELLS:
        k = population.shape[0]
        target = _chance_corrected(population, agreement_weights(tuple(map(float, range(k))), weights))[2]
        hits = {m: [] for m in KAPPA_METHODS}
        widths = {m: [] for m in KAPPA_METHODS}
        none = dict.fromkeys(KAPPA_METHODS, 0)
        tables = rng.multinomial(n, population.ravel(), size=replications).reshape(replications, k, k)
        for r, table in enumerate(tables):
            intervals = kappa_intervals(table, weights, seed=r)
            for method, ci in intervals.items():
                if method == "bca" and r >= bca_replications:
                    continue
                if ci is None:
                    none[method] += 1
                    hits[method].append(False)
                    continue
                hits[method].append(ci[0] - 1e-12 <= target <= ci[1] + 1e-12)
                widths[method].append(ci[1] - ci[0])
        print(f"{name:<30} {n:>4} {target:>6.3f} | "
              + " | ".join(f"{summary(hits[m], widths[m], none[m]):<22}" for m in KAPPA_METHODS), flush=True)
        shipped = GOODNESS_OF_FIT if k == 2 else POSTERIOR  # the construction small_sample_interval picks
        named = {m: shipped if m == "small_sample" else m for m in KAPPA_METHODS}
        measured.append({"cell": name, "n": n, "kappa": target, "weights": weights, "labels": k,
                         "coverage": {named[m]: float(np.mean(hits[m])) for m in KAPPA_METHODS},
                         "replications": {named[m]: len(hits[m]) for m in KAPPA_METHODS}})
    return measured


PAIRED_METHODS = ("sign_flip", "t", "bootstrap_t")


def _differences(rng, kind: str, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """Draws of paired differences and their mean: skewed (exponential, whole points, lognormal) or symmetric."""
    if kind == "exponential":
        return rng.exponential(1.0, size) - 0.3, 0.7
    if kind == "whole points":
        values, p = np.array([-1.0, 0.0, 1.0, 2.0, 4.0]), np.array([0.15, 0.45, 0.2, 0.1, 0.1])
        return rng.choice(values, size, p=p), float(values @ p)
    if kind == "lognormal":
        return rng.lognormal(0.0, 1.0, size), float(np.exp(0.5))
    return rng.standard_t(4, size), 0.0


def paired_intervals(d: np.ndarray, rng) -> dict[str, tuple[float, float] | None]:
    n = d.size
    test = sign_flip_test(d, resamples=N_BOOT)
    mean, se = d.mean(), d.std(ddof=1) / np.sqrt(n)
    q = stats.t.ppf(0.975, n - 1)
    resampled = d[rng.integers(0, n, (N_BOOT, n))]
    means, ses = resampled.mean(axis=1), resampled.std(axis=1, ddof=1) / np.sqrt(n)
    with np.errstate(all="ignore"):
        t = np.where(ses > 0, (means - mean) / ses, 0.0)
    t_low, t_high = np.quantile(t, [0.025, 0.975])
    return {"sign_flip": None if test.low is None else (test.low, test.high), "t": (mean - q * se, mean + q * se),
            "bootstrap_t": (mean - t_high * se, mean - t_low * se)}


def paired_bench(replications: int) -> None:
    rng = np.random.default_rng(SEED + 1)
    print(f"\nPaired differences: coverage of the MEAN ± Monte Carlo s.e., mean width (w), no interval (n); "
          f"{replications} replications per cell, unit: the case")
    print(f"{'differences':<14} {'n':>4} | " + " | ".join(f"{m:<22}" for m in PAIRED_METHODS))
    for kind in ("exponential", "whole points", "lognormal", "symmetric t4"):
        for n in (10, 30):
            draws, target = _differences(rng, kind, (replications, n))
            hits = {m: [] for m in PAIRED_METHODS}
            widths = {m: [] for m in PAIRED_METHODS}
            none = dict.fromkeys(PAIRED_METHODS, 0)
            for d in draws:
                for method, ci in paired_intervals(d, rng).items():
                    if ci is None:
                        none[method] += 1
                        hits[method].append(False)
                        continue
                    hits[method].append(ci[0] <= target <= ci[1])
                    widths[method].append(ci[1] - ci[0])
            print(f"{kind:<14} {n:>4} | " + " | ".join(f"{summary(hits[m], widths[m], none[m]):<22}"
                                                      for m in PAIRED_METHODS), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 replications per cell instead of 2,000")
    parser.add_argument("--replications", type=int, default=None)
    parser.add_argument("--grid-replications", type=int, default=None,
                        help="replications per cell of the 3-4 label grid (default 400: Monte Carlo s.e. 0.011 at "
                             "0.95; --quick 60 on a sixth of it)")
    parser.add_argument("--write", action="store_true",
                        help=f"write the kappa cells' coverage to {MEASURED_COVERAGE.name}, quoted by the kappa page")
    args = parser.parse_args()
    replications = args.replications or (300 if args.quick else 2000)
    start, cpu = time.perf_counter(), time.process_time()
    measured = kappa_bench(replications, min(replications, 400))
    grid = grid_bench(args.grid_replications or (60 if args.quick else 400), 200 if args.quick else 400,
                      seed=SEED, quick=args.quick)
    paired_bench(min(replications, 1000))
    if args.write:
        record = {"source": "bench/coverage.py", "seed": SEED, "replications": replications,
                  "cells": measured + grid}
        MEASURED_COVERAGE.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {MEASURED_COVERAGE}")
    print(f"\n{time.perf_counter() - start:.0f} s elapsed, {time.process_time() - cpu:.0f} s of CPU (one core)")


if __name__ == "__main__":
    main()

"""Coverage of five 95 % intervals for a rate measured over repeated runs, side by side
(docs/stats.md#cluster-interval).

Run: ``.venv/bin/python bench/cluster_coverage.py [replications]`` (about a minute at 2,000).

Each simulated evaluation has m items (38 queries of the trigger page, 12 GNSS cases, and 5 to
check few items), each run 1 to 10 times. An item's success probability is drawn from a Beta of
mean p and intra-class correlation ICC (beta-binomial; ICC 0: every item has probability p, ICC 1:
an item always succeeds or always fails). The printed figure is the share of replications whose
interval contains p, the mean rate. Intervals compared:

- ``decision``: Clopper-Pearson over all runs as independent trials (the page's old interval);
- ``all_runs``: Clopper-Pearson on the items right on every run (the page's old "per query" column);
- ``cluster``: `evallib.cluster_rates.cluster_interval_arrays`, the headline interval now;
- ``wilson_eff``: Wilson on the effective sample size, without degrees-of-freedom correction or bounds;
- ``bootstrap``: percentile bootstrap over items (400 resamples, on at most 1,000 replications).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy import special

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.cluster_rates import cluster_interval_arrays  # noqa: E402

SEED = 13
ITEMS = (38, 12, 5)
RATES = (0.7, 0.9, 0.97)
ICCS = (0.0, 0.3, 0.7, 1.0)
RUNS = (1, 2, 3, 5, 10)
Z95 = 1.959964


def correlated_runs(rng, replications: int, items: int, runs: int, p: float, icc: float):
    """(successes, trials), each (replications, items): beta-binomial runs of mean p and the given ICC."""
    if icc == 0:
        q = np.full((replications, items), p)
    elif icc == 1:
        q = (rng.random((replications, items)) < p).astype(float)
    else:
        q = rng.beta(p * (1 - icc) / icc, (1 - p) * (1 - icc) / icc, (replications, items))
    return rng.binomial(runs, q), np.full((replications, items), runs)


def clopper_pearson(k, n):
    low = np.where(k > 0, special.betaincinv(k, n - k + 1, 0.025), 0.0)
    high = np.where(k < n, special.betaincinv(k + 1, n - k, 0.975), 1.0)
    return low, high


def wilson_effective(k, n):
    total, items = n.sum(-1), n.shape[-1]
    rate = k.sum(-1) / total
    variance = items / (items - 1) * ((k - rate[:, None] * n) ** 2).sum(-1) / total**2
    with np.errstate(all="ignore"):
        size = np.where((rate > 0) & (rate < 1), np.minimum(rate * (1 - rate) / variance, total), items)
    centre = (rate + Z95**2 / (2 * size)) / (1 + Z95**2 / size)
    half = Z95 / (1 + Z95**2 / size) * np.sqrt(rate * (1 - rate) / size + Z95**2 / (4 * size**2))
    return centre - half, centre + half


def bootstrap(rng, k, n, resamples: int = 400):
    replications, items = k.shape
    picks = rng.integers(0, items, (replications, resamples, items))
    kk = np.take_along_axis(np.broadcast_to(k[:, None, :], picks.shape), picks, 2).sum(-1)
    nn = np.take_along_axis(np.broadcast_to(n[:, None, :], picks.shape), picks, 2).sum(-1)
    return np.quantile(kk / nn, 0.025, axis=1), np.quantile(kk / nn, 0.975, axis=1)


def coverages(rng, replications: int, items: int, runs: int, p: float, icc: float) -> dict[str, float]:
    k, n = correlated_runs(rng, replications, items, runs, p, icc)
    intervals = {"decision": clopper_pearson(k.sum(-1), n.sum(-1)),
                 "all_runs": clopper_pearson((k == n).sum(-1), np.full(replications, items)),
                 "cluster": cluster_interval_arrays(k, n)[1:3],
                 "wilson_eff": wilson_effective(k, n)}
    few = min(replications, 1000)
    low, high = bootstrap(rng, k[:few], n[:few])
    result = {name: float(np.mean((low_ <= p) & (p <= high_))) for name, (low_, high_) in intervals.items()}
    result["bootstrap"] = float(np.mean((low <= p) & (p <= high)))
    return result


def main(replications: int = 2000) -> None:
    rng = np.random.default_rng(SEED)
    names = ("decision", "all_runs", "cluster", "wilson_eff", "bootstrap")
    print(f"coverage of the mean rate by 95 % intervals, {replications} replications per cell")
    print(f"{'items':>5} {'p':>5} {'ICC':>4} {'runs':>4} | " + " ".join(f"{n:>10}" for n in names))
    worst = {(m, name): 1.0 for m in ITEMS for name in names}
    for m in ITEMS:
        for p in RATES:
            for icc in ICCS:
                for runs in RUNS:
                    cells = coverages(rng, replications, m, runs, p, icc)
                    for name, value in cells.items():
                        worst[(m, name)] = min(worst[(m, name)], value)
                    print(f"{m:>5} {p:>5} {icc:>4} {runs:>4} | " + " ".join(f"{cells[n]:>10.3f}" for n in names))
    print("\nlowest coverage over the grid, per number of items")
    for m in ITEMS:
        print(f"{m:>5} items | " + " ".join(f"{name} {worst[(m, name)]:.3f}" for name in names))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)

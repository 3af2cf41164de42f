"""Kappa on three or four labels: candidate intervals measured side by side on one grid (docs/kappa.md#posterior).

Imported by ``bench/coverage.py``. Each cell is a population of two raters' labels: the main label
(first) has share ``prevalence`` for both raters, the others split the rest equally, and the joint
table is P = (1 - κ) m mᵀ + κ diag(m) (independence mixed with perfect agreement), whose kappa is κ
under any agreement weights (p_o = (1 - κ) p_e + κ), so one κ serves the three weightings.
A replication draws n items from P; every candidate is computed on every replication, vectorised
over replications and resamples (one multinomial draw of the table per resample).

Candidates (``CANDIDATES``):

- ``analytic``: κ̂ ± z se (Fleiss, Cohen & Everitt 1969);
- ``percentile``: percentile bootstrap over items;
- ``boot_t_old``: the bootstrap-t the page showed (zero-se resamples give t = ±inf);
- ``boot_t_drop``: the same with zero-se resamples dropped and counted;
- ``boot_t_z``: bootstrap-t on Fisher's z = atanh(κ) (zero-se resamples dropped);
- ``dirichlet_j`` / ``dirichlet_p``: equal-tailed 95 % credible interval of kappa under a Dirichlet
  posterior on the k² cell probabilities, Jeffreys prior (1/2 a cell) or Perks' prior (1/k² a cell, one
  item in all) (`evallib.agreement.small_sample.posterior_intervals`);
- ``dirichlet_p97``: Perks' prior, 97 % credible interval (tails cut at 0.6 of 5 %);
- ``shipped``: Perks' prior at `small_sample.credible_level` (0.98), the page's default on 3+ labels
  (`small_sample.posterior_interval`, here on all the replications at once).

Where a table has too few items off the main label, the page withholds the interval
(`evallib.agreement.small_sample.items_off_main`, ``MIN_ITEMS_OFF_MAIN``); the bench records that
count for every replication so that coverage can be read for every threshold.
"""

from __future__ import annotations

import numpy as np

from evallib.agreement.cohen import agreement_weights
from evallib.agreement.small_sample import (
    MIN_OFF_MAIN,
    POSTERIOR,
    credible_level,
    items_off_main,
    kappa_and_se_of_tables,
    posterior_intervals,
)

NS = (15, 20, 30, 50)
PREVALENCES = (0.5, 0.8, 0.95)
KAPPAS = (0.2, 0.5, 0.8)
LABELS = (3, 4)
WEIGHTS = (None, "linear", "quadratic")
CANDIDATES = ("analytic", "percentile", "boot_t_old", "boot_t_drop", "boot_t_z", "dirichlet_j", "dirichlet_p",
              "dirichlet_p97", "shipped")
POSTERIORS = {"dirichlet_j": (0.5, 0.95), "dirichlet_p": (None, 0.95), "dirichlet_p97": (None, 0.97),
              "shipped": (None, credible_level(0.95))}  # prior per cell, credible level
#: Replications handled at once (memory: chunk x resamples x k² counts).
CHUNK = 50


def population(k: int, prevalence: float, kappa: float) -> np.ndarray:
    """The k x k population table of the grid (see the module docstring); sums to 1."""
    m = np.full(k, (1 - prevalence) / (k - 1))
    m[0] = prevalence
    return (1 - kappa) * np.outer(m, m) + kappa * np.diag(m)


def _quantiles(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise (1 - c)/2 and (1 + c)/2 quantiles ignoring NaN (NaN rows where fewer than 2 values)."""
    tail = (1 - confidence) / 2
    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        low, high = np.nanquantile(values, [tail, 1 - tail], axis=1, method="inverted_cdf")
    few = np.count_nonzero(~np.isnan(values), axis=1) < 2
    return np.where(few, np.nan, low), np.where(few, np.nan, high)


def _bootstrap_candidates(tables: np.ndarray, w: np.ndarray, n_boot: int, rng, confidence: float) -> dict:
    """Bounds (low, high arrays of shape (R,)) of the resampling candidates on tables (R, k, k)."""
    r, k = tables.shape[0], tables.shape[1]
    n = tables[0].sum()
    z = 1.959963984540054
    kappa, se = kappa_and_se_of_tables(tables.astype(float), w)
    shares = tables.reshape(r, k * k) / n
    draws = rng.multinomial(int(n), shares[:, None, :], size=(r, n_boot)).reshape(r * n_boot, k, k).astype(float)
    kb, sb = (v.reshape(r, n_boot) for v in kappa_and_se_of_tables(draws, w))
    out = {"analytic": (np.maximum(-1, kappa - z * se), np.minimum(1, kappa + z * se))}
    out["percentile"] = _quantiles(kb, confidence)
    gap = kb - kappa[:, None]
    with np.errstate(all="ignore"):
        t_old = np.where(sb > 0, gap / sb, np.where(np.abs(gap) < 1e-12, 0.0, np.sign(gap) * np.inf))
        t_old = np.where(np.isnan(kb), np.nan, t_old)
        t_drop = np.where(sb > 0, gap / sb, np.nan)
        zk, zb = np.arctanh(np.clip(kappa, -0.9999, 0.9999)), np.arctanh(np.clip(kb, -0.9999, 0.9999))
        se_z, sb_z = se / (1 - np.clip(kappa, -0.9999, 0.9999) ** 2), sb / (1 - np.clip(kb, -0.9999, 0.9999) ** 2)
        t_z = np.where(sb > 0, (zb - zk[:, None]) / sb_z, np.nan)
    for name, t in (("boot_t_old", t_old), ("boot_t_drop", t_drop)):
        t_low, t_high = _quantiles(t, confidence)
        low = np.where(np.isfinite(t_high), np.maximum(-1, kappa - t_high * se), -1.0)
        high = np.where(np.isfinite(t_low), np.minimum(1, kappa - t_low * se), 1.0)
        undefined = np.isnan(t_high) | np.isnan(kappa)
        low, high = np.where(se == 0, kappa, low), np.where(se == 0, kappa, high)
        out[name] = (np.where(undefined, np.nan, low), np.where(undefined, np.nan, high))
    t_low, t_high = _quantiles(t_z, confidence)
    low, high = np.tanh(zk - t_high * se_z), np.tanh(zk - t_low * se_z)
    low, high = np.where(se == 0, kappa, low), np.where(se == 0, kappa, high)
    out["boot_t_z"] = (low, high)
    return out


def grid_cell(k: int, prevalence: float, kappa: float, weights: str | None, n: int, replications: int,
              n_boot: int, seed: int, confidence: float = 0.95) -> dict:
    """Every candidate's bounds on ``replications`` tables of one cell, and each table's items off the main label."""
    rng = np.random.default_rng(seed)
    w = agreement_weights(tuple(float(c) for c in range(k)), weights)
    tables = rng.multinomial(n, population(k, prevalence, kappa).ravel(), size=replications).reshape(-1, k, k)
    bounds = {c: (np.empty(replications), np.empty(replications)) for c in CANDIDATES}
    for start in range(0, replications, CHUNK):
        part = slice(start, start + CHUNK)
        found = _bootstrap_candidates(tables[part], w, n_boot, rng, confidence)
        for j, (name, (prior, level)) in enumerate(POSTERIORS.items()):
            found[name] = posterior_intervals(tables[part], w, level=level, draws=n_boot, prior=prior,
                                              seed=seed + 10 * start + j + 1)
        for c in CANDIDATES:
            bounds[c][0][part], bounds[c][1][part] = found[c]
    return {"bounds": bounds, "off_main": items_off_main(tables), "target": kappa}


def coverage(cell: dict, method: str, min_off_main: int = 0) -> dict:
    """Coverage among tables given an interval, share with none, share reading [-1, 1], mean width.

    A table is given an interval when the method returns bounds and the table has at least
    ``min_off_main`` items off the main label (``none_share``: the others). [-1, 1] counts as an interval
    (it covers), and ``full_share`` says how often it was printed.
    """
    low, high = cell["bounds"][method]
    shown = ~np.isnan(low) & ~np.isnan(high) & (cell["off_main"] >= min_off_main)
    full = shown & (low <= -1 + 1e-9) & (high >= 1 - 1e-9)
    count = int(shown.sum())
    hit = (low[shown] - 1e-9 <= cell["target"]) & (cell["target"] <= high[shown] + 1e-9)
    c = float(hit.mean()) if count else float("nan")
    return {"coverage": c, "mc_error": float(np.sqrt(c * (1 - c) / count)) if count else float("nan"),
            "shown": count, "none_share": 1 - count / low.size, "full_share": float(full.mean()),
            "width": float((high[shown] - low[shown]).mean()) if count else float("nan")}


def _cells(quick: bool):
    """The grid's cells (labels, prevalence, kappa, weights, n); ``quick``: one n in two, one weighting."""
    for k in LABELS:
        for prevalence in PREVALENCES:
            for kappa in KAPPAS:
                for weights in (WEIGHTS[::2] if quick else WEIGHTS):
                    for n in (NS[::2] if quick else NS):
                        yield k, prevalence, kappa, weights, n


def _brief(found: dict) -> str:
    return f"{found['coverage']:.3f}"


def grid_bench(replications: int, n_boot: int, *, seed: int, quick: bool = False) -> list[dict]:
    """Print every cell of the grid, old and shipped in full, then the summary; return the cells as data.

    Every method is read as the page would show it: no interval where a rater puts fewer than
    ``MIN_OFF_MAIN`` items off the main label (a constant rater). Columns: nominal, measured coverage
    (among tables given an interval) ± Monte Carlo s.e., share of tables with no interval, share given
    [-1, 1], mean width.
    """
    others = [c for c in CANDIDATES if c not in ("boot_t_old", "shipped")]
    print(f"\nCohen's kappa on 3 and 4 labels (bench/kappa_grid.py): {replications} replications per cell, "
          f"{n_boot} resamples or posterior draws, unit: the item; nominal 0.95; no interval where a rater puts "
          f"fewer than {MIN_OFF_MAIN} item(s) off the main label")
    print(f"{'scenario':<44} {'items':>5} {'nom':>4} | {'old bootstrap-t: cover±mc none [-1,1] width':<44} | "
          f"{'shipped: cover±mc none width':<30} | " + " ".join(f"{c[:11]:>11}" for c in others))
    rows, out = [], []
    for index, (k, prevalence, kappa, weights, n) in enumerate(_cells(quick)):
        cell = grid_cell(k, prevalence, kappa, weights, n, replications, n_boot, seed + index)
        found = {c: coverage(cell, c, MIN_OFF_MAIN) for c in CANDIDATES}
        sweep = {t: coverage(cell, "shipped", t)["coverage"] for t in range(4)}
        old, new = found["boot_t_old"], found["shipped"]
        scenario = f"{k} labels, main {prevalence:.2f}, k {kappa:.1f}, {weights or 'unweighted'}"
        print(f"{scenario:<44} {n:>5} {0.95:>4} | {old['coverage']:.3f}±{old['mc_error']:.3f} "
              f"{old['none_share']:>5.0%} {old['full_share']:>6.0%} {old['width']:>5.2f}{'':<15} | "
              f"{new['coverage']:.3f}±{new['mc_error']:.3f} {new['none_share']:>5.0%} {new['width']:>5.2f}{'':<7} | "
              + " ".join(f"{_brief(found[c]):>11}" for c in others), flush=True)
        rows.append(((k, prevalence, kappa, weights, n), found, sweep))
        out.append({"cell": scenario, "n": n, "kappa": kappa, "weights": weights, "labels": k,
                    "coverage": {POSTERIOR: new["coverage"], "analytic": found["analytic"]["coverage"],
                                 "percentile": found["percentile"]["coverage"]},
                    "replications": {POSTERIOR: new["shown"], "analytic": found["analytic"]["shown"],
                                     "percentile": found["percentile"]["shown"]},
                    "none_share": new["none_share"]})
    summarise(rows)
    return out


def summarise(rows: list) -> None:
    """Per method: lowest coverage, cells below 0.93 (and below 0.93 by more than 2 MC s.e.), mean width."""
    print(f"\nSummary over {len(rows)} cells: {'method':<14} {'lowest':>7} {'<0.93':>6} {'<0.93-2se':>10} "
          f"{'median':>7} {'mean width':>10} {'mean none':>10} {'mean [-1,1]':>11}")
    for c in CANDIDATES:
        cov = np.array([f[c]["coverage"] for _, f, _ in rows])
        se = np.array([f[c]["mc_error"] for _, f, _ in rows])
        print(f"{'':<26}{c:<14} {np.nanmin(cov):>7.3f} {int(np.sum(cov < 0.93)):>6} "
              f"{int(np.sum(cov + 2 * se < 0.93)):>10} {np.nanmedian(cov):>7.3f} "
              f"{np.nanmean([f[c]['width'] for _, f, _ in rows]):>10.2f} "
              f"{np.mean([f[c]['none_share'] for _, f, _ in rows]):>10.1%} "
              f"{np.mean([f[c]['full_share'] for _, f, _ in rows]):>11.1%}")
    order = sorted(rows, key=lambda row: row[1]["shipped"]["coverage"])
    print("Worst cells of the shipped interval: " + "; ".join(
        f"{k} labels main {p} kappa {kap} {w or 'unweighted'} n {n}: {f['shipped']['coverage']:.3f}"
        f"±{f['shipped']['mc_error']:.3f} (none {f['shipped']['none_share']:.0%})"
        for (k, p, kap, w, n), f, _ in order[:6]))
    for t in range(4):
        values = np.array([sweep[t] for _, _, sweep in rows])
        print(f"Shipped interval given only where each rater puts >= {t} item(s) off the main label: lowest "
              f"coverage {np.nanmin(values):.3f}, cells below 0.93: {int(np.sum(values < 0.93))}")

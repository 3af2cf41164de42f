"""Intervals for Cohen's kappa that hold their level on a few dozen items (docs/kappa.md#small-sample).

The large-sample interval kappa ± z·se and the percentile bootstrap both undercover at n = 30 when
one label dominates or when weights are used (``bench/coverage.py`` measures it side by side). Two
constructions hold 95 % there (the bench's figures, in ``measured_coverage.json``, are what
the page quotes; on a binary table at prevalence 0.9 about one table of 30 items in a hundred leaves
kappa undefined, and no interval can cover there):

* two categories: the goodness-of-fit interval of Donner & Eliasziw (1992), built on the
  common-correlation model (both raters give the second label with the same probability π). With
  n_1 items both raters put in the second category, n_2 items on which they differ and n_3 in the
  first, π̂ = (2 n_1 + n_2) / (2n) and the model's cell probabilities for a kappa κ are
  P_1 = π̂² + π̂(1 - π̂)κ, P_2 = 2π̂(1 - π̂)(1 - κ), P_3 = (1 - π̂)² + π̂(1 - π̂)κ. The interval is every κ
  whose χ² goodness of fit Σ (n_l - n P_l)² / (n P_l) stays within the χ²(1) quantile. Its centre is
  the model's estimate 1 - n_2 / (2n π̂(1 - π̂)), which is Scott's pi (equal to Cohen's kappa when
  both raters use the labels equally often). The paper solves a cubic; the same bounds are found
  here by root finding on the statistic itself.
* more than two categories, weighted or not: a Dirichlet posterior on the k² cell probabilities
  (Perks' prior, 1/k² per cell), and the equal-tailed credible interval of the posterior's kappa at a
  level calibrated by the bench (``credible_level``: 0.98 for a 95 % interval). It needs no standard
  error, so a table with one label almost everywhere gives a wide interval instead of [-1, 1]: the
  studentised bootstrap (``studentised_bootstrap_interval``, t* = (κ* - κ̂) / se*, the former default)
  gives t = ±inf on every resample whose se* is 0, and undercovers where one label dominates
  (the bench's ``boot_t_old``). Where a rater puts fewer than ``MIN_OFF_MAIN`` items off the main label (a constant
  rater: kappa 0 by construction), the page gives no interval (``readings.rare_labels``).

Sources: Donner & Eliasziw (1992), Statistics in Medicine 11:1511-1519; Blackman & Koval (1993),
Statistics in Medicine 12:2285-2293 (comparison of kappa intervals for 2 x 2 tables); Efron &
Tibshirani (1993), An Introduction to the Bootstrap, ch. 12 (bootstrap-t); Gelman et al. (2013),
Bayesian Data Analysis, 3rd ed., section 3.4 (Dirichlet-multinomial).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize

from evallib.agreement.bootstrap import _draws
from evallib.agreement.ratings import _TOLERANCE, _z

GOODNESS_OF_FIT = "goodness_of_fit"
STUDENTISED_BOOTSTRAP = "studentised_bootstrap"
POSTERIOR = "dirichlet_posterior"
#: Fewest items each rater must put off the main label for an interval on three or more labels: below it a
#: rater is constant and kappa 0 by construction, and the page says what it would take instead. The bench
#: (``bench/coverage.py``) reads coverage among tables with at least 0, 1, 2 and 3 such items: it holds
#: from 0 as from 1 (lowest cells 0.922 and 0.908, within Monte Carlo error of those sparse cells) and
#: falls with more (0.78 from 2: keeping only such tables keeps the lucky ones), so no count above 1
#: makes the interval hold where it does not.
MIN_OFF_MAIN = 1

#: Share of the asked tail probability the posterior interval keeps (see ``credible_level``). Of the three
#: the bench tried (1, 0.6, 0.4), 0.4 is the one with which no cell of its grid falls below 0.93 by more than
#: two Monte Carlo standard errors (docs/kappa.md#measured-coverage).
TAIL_SHARE = 0.4


@dataclass(frozen=True)
class SmallSampleInterval:
    """A kappa interval meant for a few dozen items; ``method`` says which construction made it.

    ``low``/``high`` None when undefined (both raters constant on one label). ``centre``: the value
    the interval is built around (Scott's pi for ``goodness_of_fit``, kappa for the bootstrap-t).
    ``n_boot``/``n_valid``: resamples drawn and usable (0 for ``goodness_of_fit``).
    """

    low: float | None
    high: float | None
    method: str
    confidence: float
    centre: float | None
    n_boot: int = 0
    n_valid: int = 0


def _chi2_quantile(confidence: float) -> float:
    """The ``confidence`` quantile of χ² with one degree of freedom: z² (3.841 for 0.95)."""
    return _z(confidence) ** 2


def donner_eliasziw_interval(table: np.ndarray, confidence: float = 0.95) -> SmallSampleInterval:
    """Goodness-of-fit interval for kappa on a 2 x 2 table (rows rater 1, columns rater 2).

    ``table`` of shape (2, 2) (or (1, 1): one label used by both raters), counts of items. Raises
    ValueError for another shape or an empty table. Bounds None when π̂ is 0 or 1 (kappa undefined).
    See the module docstring for the statistic; source Donner & Eliasziw (1992).

    >>> ci = donner_eliasziw_interval(np.array([[3, 1], [1, 7]]))
    >>> round(ci.centre, 3), round(ci.low, 3), round(ci.high, 3)
    (0.625, 0.053, 0.894)
    """
    table = np.asarray(table, dtype=float)
    if table.shape == (1, 1):
        return SmallSampleInterval(None, None, GOODNESS_OF_FIT, confidence, None)
    if table.shape != (2, 2):
        raise ValueError(f"the goodness-of-fit interval needs a 2 x 2 table, not shape {table.shape}")
    n = table.sum()
    if n <= 0:
        raise ValueError("the table holds no item")
    both_second, apart, both_first = table[1, 1], table[0, 1] + table[1, 0], table[0, 0]
    share = (2 * both_second + apart) / (2 * n)
    q = share * (1 - share)
    if q < _TOLERANCE:
        return SmallSampleInterval(None, None, GOODNESS_OF_FIT, confidence, None)
    observed = np.array([both_second, apart, both_first])
    centre = 1 - apart / (2 * n * q)
    critical = _chi2_quantile(confidence)

    def excess(kappa: float) -> float:
        expected = n * np.array([share**2 + q * kappa, 2 * q * (1 - kappa), (1 - share) ** 2 + q * kappa])
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(expected > _TOLERANCE, (observed - expected) ** 2 / expected,
                             np.where(observed > 0, np.inf, 0.0))
        return float(terms.sum()) - critical

    floor = max(-share / (1 - share), -(1 - share) / share)  # below it a model probability is negative
    low = floor if centre - floor < 1e-12 or excess(floor) <= 0 else optimize.brentq(excess, floor, centre, xtol=1e-10)
    high = 1.0 if 1 - centre < 1e-12 or excess(1.0) <= 0 else optimize.brentq(excess, centre, 1.0, xtol=1e-10)
    return SmallSampleInterval(max(-1.0, float(low)), min(1.0, float(high)), GOODNESS_OF_FIT, confidence,
                               float(centre))


def kappa_and_se_of_tables(tables: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kappa and its large-sample standard error for a stack of tables, shape (b, k, k) -> (b,), (b,).

    NaN kappa where p_e = 1; kappa 0 and se 0 where a rater is constant (as ``kappa_from_table``).
    Same formulas as ``cohen._chance_corrected`` and ``cohen._kappa_standard_error``.
    """
    n = tables.sum(axis=(1, 2))
    p = tables / n[:, None, None]
    rows, cols = p.sum(axis=2), p.sum(axis=1)
    p_o = np.einsum("ij,bij->b", w, p)
    p_e = np.einsum("bi,ij,bj->b", rows, w, cols)
    undefined = 1 - p_e < _TOLERANCE
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (p_o - p_e) / (1 - p_e)
        w_row, w_col = np.einsum("ij,bj->bi", w, cols), np.einsum("bi,ij->bj", rows, w)
        centred = w[None] - (w_row[:, :, None] + w_col[:, None, :]) * (1 - kappa)[:, None, None]
        spread = (p * centred**2).sum(axis=(1, 2))
        variance = (spread - (kappa - p_e * (1 - kappa)) ** 2) / (n * (1 - p_e) ** 2)
    constant = (np.count_nonzero(rows, axis=1) == 1) | (np.count_nonzero(cols, axis=1) == 1)
    kappa = np.where(undefined, np.nan, np.where(constant, 0.0, kappa))
    se = np.where(undefined | constant, 0.0, np.sqrt(np.maximum(np.nan_to_num(variance), 0.0)))
    return kappa, se


def studentised_bootstrap_interval(table: np.ndarray, w: np.ndarray, *, confidence: float = 0.95,
                                   n_boot: int = 2000, seed: int = 0) -> SmallSampleInterval:
    """Bootstrap-t interval of (weighted) kappa over items, from multinomial resamples of the table.

    ``table`` k x k counts, ``w`` k x k agreement weights (``cohen.agreement_weights``). A resample
    whose se* is 0 gives t* = ±inf when its kappa differs from κ̂ (0 when equal), so that resamples
    the formula cannot scale push the bound out instead of being dropped; resamples with kappa
    undefined are left out and counted. Bounds None when κ̂ is undefined or fewer than two resamples
    are usable; a zero se on the data gives the point κ̂. Source: Efron & Tibshirani (1993), ch. 12.
    """
    tail = (1 - confidence) / 2
    kappa, se = (float(v[0]) for v in kappa_and_se_of_tables(np.asarray(table, dtype=float)[None], w))
    if np.isnan(kappa):
        return SmallSampleInterval(None, None, STUDENTISED_BOOTSTRAP, confidence, None, n_boot, 0)
    k = table.shape[0]
    resampled = _draws(np.asarray(table, dtype=float).ravel(), n_boot, seed).reshape(n_boot, k, k).astype(float)
    kappas, ses = kappa_and_se_of_tables(resampled, w)
    usable = ~np.isnan(kappas)
    kappas, ses = kappas[usable], ses[usable]
    if kappas.size < 2:
        return SmallSampleInterval(None, None, STUDENTISED_BOOTSTRAP, confidence, kappa, n_boot, int(kappas.size))
    gap = kappas - kappa
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(ses > 0, gap / ses, np.where(np.abs(gap) < 1e-12, 0.0, np.sign(gap) * np.inf))
    t_low, t_high = np.quantile(t, [tail, 1 - tail], method="inverted_cdf")
    low = -1.0 if not np.isfinite(t_high) else max(-1.0, kappa - t_high * se)
    high = 1.0 if not np.isfinite(t_low) else min(1.0, kappa - t_low * se)
    if se == 0:
        low = high = kappa
    return SmallSampleInterval(float(low), float(high), STUDENTISED_BOOTSTRAP, confidence, kappa, n_boot,
                               int(kappas.size))


def posterior_intervals(tables: np.ndarray, w: np.ndarray, *, level: float = 0.95, draws: int = 2000,
                        prior: float | None = None, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Equal-tailed credible intervals of (weighted) kappa under a Dirichlet posterior on the k² cells.

    ``tables`` of shape (r, k, k) (counts), ``w`` k x k agreement weights; returns (low, high), each of
    shape (r,). The cell probabilities get the posterior Dirichlet(counts + ``prior``), ``prior`` per cell
    (default Perks' 1/k²: one item in all, spread over the table); kappa of each of ``draws`` posterior
    tables, then its (1 - level)/2 and (1 + level)/2 quantiles. Posterior tables whose kappa is
    undefined (p_e = 1) are left out. Source: Gelman et al. (2013), Bayesian Data Analysis, 3rd ed.,
    section 3.4 (Dirichlet-multinomial); Perks (1947), Journal of the Institute of Actuaries 73:285-334.
    """
    _z(level)
    tables = np.asarray(tables, dtype=float)
    r, k = tables.shape[0], tables.shape[1]
    alpha = tables + (1 / k**2 if prior is None else prior)
    gammas = np.random.default_rng(seed).standard_gamma(alpha[:, None], size=(r, draws, k, k))
    kappas = kappa_and_se_of_tables(gammas.reshape(r * draws, k, k), w)[0].reshape(r, draws)
    tail = (1 - level) / 2
    low, high = np.nanquantile(kappas, [tail, 1 - tail], axis=1)
    return low, high


def credible_level(confidence: float) -> float:
    """The credible level whose equal-tailed posterior interval is the ``confidence`` interval shown.

    The posterior interval at the asked level undercovers on a few dozen items (``bench/coverage.py``:
    as low as 0.86 for 95 %, its tails too short where quadratic weights meet rare labels), so its
    tails are cut at ``TAIL_SHARE`` of the asked 1 - confidence (0.98 for 95 %). Calibrated at 95 % only.
    """
    _z(confidence)
    return 1 - TAIL_SHARE * (1 - confidence)



def posterior_interval(table: np.ndarray, w: np.ndarray, *, confidence: float = 0.95, draws: int = 2000,
                       seed: int = 0) -> SmallSampleInterval:
    """The page's interval of kappa on three or more labels: ``posterior_intervals`` at ``credible_level``.

    ``table`` k x k counts, ``w`` k x k agreement weights. ``centre`` is the kappa of the table itself
    (None and no bounds when it is undefined); ``n_boot`` the posterior draws, ``n_valid`` those whose
    kappa is defined. Seeded, hence reproducible.
    """
    table = np.asarray(table, dtype=float)
    kappa = float(kappa_and_se_of_tables(table[None], w)[0][0])
    if np.isnan(kappa):
        return SmallSampleInterval(None, None, POSTERIOR, confidence, None, draws, 0)
    low, high = posterior_intervals(table[None], w, level=credible_level(confidence), draws=draws, seed=seed)
    return SmallSampleInterval(float(low[0]), float(high[0]), POSTERIOR, confidence, kappa, draws, draws)


def small_sample_interval(table: np.ndarray, w: np.ndarray, *, confidence: float = 0.95, n_boot: int = 2000,
                          seed: int = 0) -> SmallSampleInterval:
    """The interval the kappa page shows by default: Donner-Eliasziw on two categories, else the posterior one.

    With two categories every weighting is the identity, so the goodness-of-fit interval serves
    weighted kappa too. ``n_boot``: posterior draws on more labels. Shapes as ``posterior_interval``.
    """
    if table.shape[0] <= 2:
        return donner_eliasziw_interval(table, confidence)
    return posterior_interval(table, w, confidence=confidence, draws=n_boot, seed=seed)



def items_off_main(tables: np.ndarray) -> np.ndarray:
    """Items each rater put off the main label, the fewer of the two raters; shape (..., k, k) -> (...,).

    The main label is the one with the most ratings of both raters together (the first on a tie).
    """
    tables = np.asarray(tables)
    rows, cols = tables.sum(axis=-1), tables.sum(axis=-2)
    main = np.argmax(rows + cols, axis=-1)[..., None]
    on_main = np.maximum(np.take_along_axis(rows, main, -1), np.take_along_axis(cols, main, -1))[..., 0]
    return tables.sum(axis=(-2, -1)) - on_main

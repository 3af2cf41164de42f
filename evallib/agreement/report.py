"""Everything the two-rater view shows, computed from one reading of the labels (large inputs).

Reading 250,000 labels as numbers or text costs more than every coefficient together, so the
labels are read once into a contingency table and each coefficient is taken from the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evallib.agreement.bootstrap import (
    BootstrapInterval,
    _percentile_interval,
    alpha_from_table,
    cohen_kappa_table_resamples,
)
from evallib.agreement.cohen import (
    KappaResult,
    _bias_index,
    _gwet_ac1,
    _pabak,
    _prevalence_index,
    _scott_pi,
    agreement_weights,
    cohen_kappa,
    items_for_half_width,
    kappa_from_table,
)
from evallib.agreement.ratings import WEIGHTINGS
from evallib.agreement.readings import degenerate_pair, rare_labels
from evallib.agreement.small_sample import SmallSampleInterval, small_sample_interval
from evallib.readings import Reading


@dataclass(frozen=True, eq=False)
class PairReport:
    """Two raters: kappa with the chosen weights, its relatives, and what the page reads from them."""

    result: KappaResult                      # with the chosen weights
    plain: KappaResult                       # unweighted
    scott_pi: float | None
    pabak: float | None
    ac1: float | None
    alpha: float | None                      # Krippendorff's alpha, nominal
    prevalence: float | None                 # None unless at most two categories
    bias: float | None
    weighted: tuple[KappaResult, ...] | None  # one per WEIGHTINGS for numeric labels with > 2 categories
    bootstrap: BootstrapInterval | None      # when asked for
    items_needed: int | None
    numeric: bool
    small_sample: SmallSampleInterval | None = None  # when asked for (``small_sample_interval``)
    #: With the small-sample interval on 3+ labels: ``readings.rare_labels``, the reason no interval is given.
    rare_labels: Reading | None = None


def pair_report(r1: Sequence[object], r2: Sequence[object], *, weights: str | None = None,
                bootstrap: bool = False, n_boot: int = 2000, seed: int = 0,
                half_width: float = 0.1, small_sample: bool = False) -> PairReport:
    """The two-rater figures of ``r1`` and ``r2`` (shape (n_items,) each), labels read once.

    ``bootstrap``: add the percentile bootstrap interval; ``small_sample``: add the interval that holds
    its level on a few dozen items (``small_sample.small_sample_interval``), same ``n_boot`` and ``seed``,
    and on three or more labels the reason it is withheld, if any (``readings.rare_labels``).
    Raises ``AgreementInputError`` as ``cohen_kappa`` does.
    """
    result = cohen_kappa(r1, r2, weights=weights)
    table, cats = result.table, result.categories
    plain = result if weights is None else kappa_from_table(table, cats, n_dropped=result.n_dropped)
    numeric = all(isinstance(c, float) for c in cats)
    binary = len(cats) <= 2
    weighted = None
    if numeric and len(cats) > 2:
        weighted = tuple(kappa_from_table(table, cats, weights=w, n_dropped=result.n_dropped)
                         for w in WEIGHTINGS)
    interval = None
    if bootstrap:
        values, constant = cohen_kappa_table_resamples(table, agreement_weights(cats, weights), n_boot=n_boot,
                                                       seed=seed)
        interval = _percentile_interval(values, result.confidence, n_boot, result.kappa, constant)
    small = rare = None
    if small_sample and result.kappa is not None:
        rare = rare_labels(result)
        small = small_sample_interval(table, agreement_weights(cats, weights), confidence=result.confidence,
                                      n_boot=n_boot, seed=seed)
    return PairReport(
        result=result, plain=plain, scott_pi=_scott_pi(table), pabak=_pabak(table), ac1=_gwet_ac1(table),
        alpha=alpha_from_table(table, cats),
        prevalence=_prevalence_index(cats, table) if binary else None,
        bias=_bias_index(cats, table) if binary else None, weighted=weighted, bootstrap=interval,
        items_needed=items_for_half_width(result, half_width=half_width) if result.kappa is not None else None,
        numeric=numeric, small_sample=small, rare_labels=rare)


@dataclass(frozen=True)
class ShownInterval:
    """The interval of kappa a reader is shown, or why none is: the page's headline and the command's line.

    ``method``: "percentile" (the bootstrap), a small-sample method (``goodness_of_fit``,
    ``dirichlet_posterior``, ``studentised_bootstrap``) or "analytic", as ``measured.measured_coverage``
    names them; None with ``withheld``, the reading that says why there is no interval.
    """

    low: float | None
    high: float | None
    method: str | None
    withheld: Reading | None = None


def shown_interval(report: PairReport) -> ShownInterval:
    """The interval asked for (bootstrap, small-sample, else analytic), or none, with the reason
    (``withheld``): too few items on the rarer labels (``report.rare_labels``, which names the items
    needed), else a constant rater (``readings.degenerate_pair``: κ is 0 or undefined whatever the table,
    so no interval says anything of it)."""
    withheld = report.rare_labels or degenerate_pair(report.result)
    if withheld is not None:
        return ShownInterval(None, None, None, withheld)
    if report.bootstrap:
        return ShownInterval(report.bootstrap.low, report.bootstrap.high, "percentile")
    if report.small_sample:
        return ShownInterval(report.small_sample.low, report.small_sample.high, report.small_sample.method)
    return ShownInterval(report.result.ci_low, report.result.ci_high, "analytic")

"""evallib.agreement.small_sample's interval on three or more labels (a calibrated Dirichlet posterior) and
readings.rare_labels, the reason it is withheld: against statsmodels, on ties and degenerate tables.

Method and measured coverage: docs/kappa.md#small-sample, bench/coverage.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa

from evallib.agreement import cohen_kappa, pair_report
from evallib.agreement import readings as rd
from evallib.agreement.cohen import agreement_weights
from evallib.agreement.small_sample import (
    MIN_OFF_MAIN,
    POSTERIOR,
    TAIL_SHARE,
    credible_level,
    items_off_main,
    posterior_interval,
    posterior_intervals,
)

THREE = (0.0, 1.0, 2.0)
TABLE = np.array([[9, 2, 0], [1, 4, 1], [0, 1, 2]])


@pytest.mark.parametrize("weights, wt", [(None, None), ("linear", "linear"), ("quadratic", "quadratic")])
def test_posterior_bounds_are_the_quantiles_of_statsmodels_kappa_on_the_posterior_tables(weights, wt):
    w = agreement_weights(THREE, weights)
    low, high = posterior_intervals(TABLE[None], w, level=0.9, draws=300, seed=3)
    gammas = np.random.default_rng(3).standard_gamma((TABLE + 1 / 9.0)[None, None], size=(1, 300, 3, 3))[0]
    kappas = [cohens_kappa(g / g.sum() * 1000, wt=wt).kappa for g in gammas]  # kappa ignores the scale
    assert (low[0], high[0]) == pytest.approx(tuple(np.quantile(kappas, [0.05, 0.95])), abs=1e-9)


def test_the_posterior_interval_is_seeded_and_vectorised_over_tables():
    w = agreement_weights(THREE, "quadratic")
    stack = np.stack([TABLE, TABLE.T, np.diag([3, 3, 3])])
    low, high = posterior_intervals(stack, w, draws=400, seed=1)
    again = posterior_intervals(stack, w, draws=400, seed=1)
    assert np.array_equal(low, again[0]) and np.array_equal(high, again[1])
    assert np.all(low < high) and np.all(low >= -1) and np.all(high <= 1)
    assert posterior_interval(TABLE, w, draws=400, seed=1) == posterior_interval(TABLE, w, draws=400, seed=1)


def test_the_level_shown_is_calibrated_wider_than_the_credible_level_asked():
    assert credible_level(0.95) == pytest.approx(1 - TAIL_SHARE * 0.05) == pytest.approx(0.98)
    w = agreement_weights(THREE, None)
    ci = posterior_interval(TABLE, w, draws=2000, seed=0)
    low95, high95 = posterior_intervals(TABLE[None], w, level=0.95, draws=2000, seed=0)
    assert ci.method == POSTERIOR and ci.low < low95[0] and ci.high > high95[0]
    assert ci.centre == pytest.approx(cohens_kappa(TABLE).kappa) and ci.low < ci.centre < ci.high
    with pytest.raises(ValueError, match="confidence"):
        credible_level(1.0)


def test_degenerate_tables_give_no_interval_or_a_wide_one_never_minus_one_to_one():
    w = agreement_weights(THREE, "linear")
    undefined = posterior_interval(np.diag([0, 0, 12]), w)           # one label throughout: kappa undefined
    assert undefined.low is None and undefined.high is None and undefined.centre is None
    perfect = posterior_interval(np.diag([4, 4, 4]), w)               # every item agrees
    assert 0.5 < perfect.low < perfect.high < 1
    constant = posterior_interval(np.array([[13, 1, 1], [0, 0, 0], [0, 0, 0]]), w)  # rater 1 constant
    assert constant.centre == 0 and -1 < constant.low < 0 < constant.high < 1
    two_items = posterior_interval(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 1]]), w)
    assert -1 < two_items.low < two_items.high < 1


def test_items_off_main_counts_the_fewer_of_the_two_raters_and_breaks_ties_on_the_first_label():
    table = np.array([[10, 2, 1], [0, 1, 0], [1, 0, 0]])      # rater 1 off label 0 on 2 items, rater 2 on 3
    assert items_off_main(table) == 2
    tie = np.array([[3, 0, 0], [0, 3, 0], [0, 0, 0]])          # labels 0 and 1 tie: label 0 is the main one
    assert items_off_main(tie) == 3
    assert list(items_off_main(np.stack([table, tie, np.diag([5, 0, 0])]))) == [2, 3, 0]


def test_rare_labels_withholds_the_interval_where_a_rater_never_leaves_the_main_label():
    result = cohen_kappa([0] * 15, [0] * 13 + [1, 2], weights="linear")
    reading = rd.rare_labels(result)
    assert reading.code == "too_few_off_main" and MIN_OFF_MAIN == 1
    values = reading.values
    assert (values["rater"], values["label"], values["off_main"], values["n"]) == (0, "0", 0, 15)
    assert values["other_share"] == pytest.approx(2 / 30)
    assert values["items_needed"] == math.ceil(math.log(0.05) / math.log(1 - 2 / 30)) == 44
    swapped = rd.rare_labels(cohen_kappa([0] * 13 + [1, 2], [0] * 15))
    assert swapped.values["rater"] == 1


def test_rare_labels_says_nothing_where_the_interval_is_given():
    assert rd.rare_labels(cohen_kappa([0] * 14 + [2], [0] * 13 + [1, 2])) is None     # one item off each
    assert rd.rare_labels(cohen_kappa([0] * 11 + [1], [0] * 12)) is None               # two labels
    assert rd.rare_labels(cohen_kappa([2] * 6, [2] * 6)) is None                        # kappa undefined
    tie = cohen_kappa([0, 0, 1, 1, 2, 2], [0, 1, 1, 0, 2, 2])                         # labels 0 and 1 tie
    assert rd.rare_labels(tie) is None


def test_the_report_withholds_the_interval_and_gives_the_reason():
    report = pair_report([0] * 15, [0] * 13 + [1, 2], weights="linear", small_sample=True)
    assert report.rare_labels.code == "too_few_off_main" and report.small_sample.method == POSTERIOR
    assert pair_report([0] * 15, [0] * 13 + [1, 2], weights="linear").rare_labels is None  # not asked for
    shown = pair_report([0, 1, 2, 2, 1, 0], [0, 1, 2, 1, 1, 0], weights="quadratic", small_sample=True)
    assert shown.rare_labels is None and shown.small_sample.low is not None

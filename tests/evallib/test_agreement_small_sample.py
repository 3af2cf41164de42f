"""evallib.agreement.small_sample: kappa intervals for a few dozen items, against scipy and statsmodels.

Method: docs/kappa.md#small-sample.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa

from evallib.agreement import SEED_LENIENT_PAIR, SEED_RUBRIC_PAIR, cohen_kappa, pair_report, scott_pi
from evallib.agreement import readings as rd
from evallib.agreement.bootstrap import _draws
from evallib.agreement.cohen import agreement_weights
from evallib.agreement.small_sample import (
    GOODNESS_OF_FIT,
    POSTERIOR,
    STUDENTISED_BOOTSTRAP,
    credible_level,
    donner_eliasziw_interval,
    items_off_main,
    kappa_and_se_of_tables,
    posterior_interval,
    posterior_intervals,
    small_sample_interval,
    studentised_bootstrap_interval,
)

QUADRATIC = agreement_weights((0.0, 1.0, 2.0), "quadratic")


def _model_counts(table: np.ndarray, kappa: float) -> tuple[np.ndarray, np.ndarray]:
    """Observed (both second, apart, both first) and the common-correlation model's expected counts."""
    n = table.sum()
    share = (2 * table[1, 1] + table[0, 1] + table[1, 0]) / (2 * n)
    q = share * (1 - share)
    observed = np.array([table[1, 1], table[0, 1] + table[1, 0], table[0, 0]], dtype=float)
    expected = n * np.array([share**2 + q * kappa, 2 * q * (1 - kappa), (1 - share) ** 2 + q * kappa])
    return observed, expected


@pytest.mark.parametrize("table", [[[3, 1], [1, 7]], [[2, 3], [1, 24]], [[10, 4], [6, 10]], [[1, 2], [3, 24]]])
def test_goodness_of_fit_bounds_are_where_scipy_chisquare_gives_p_0_05(table):
    table = np.array(table)
    ci = donner_eliasziw_interval(table)
    assert ci.method == GOODNESS_OF_FIT and ci.low < ci.centre < ci.high
    for bound in (ci.low, ci.high):
        observed, expected = _model_counts(table, bound)
        # one parameter (the share) estimated from the data: 3 cells - 1 - 1 = 1 degree of freedom
        assert stats.chisquare(observed, expected, ddof=1).pvalue == pytest.approx(0.05, abs=1e-6)
    inside = (ci.low + ci.high) / 2
    assert stats.chisquare(*_model_counts(table, inside), ddof=1).pvalue > 0.05


def test_goodness_of_fit_centre_is_scotts_pi_and_cohens_kappa_when_shares_are_equal():
    r1, r2 = SEED_RUBRIC_PAIR.ratings
    ci = donner_eliasziw_interval(cohen_kappa(r1, r2).table)
    assert ci.centre == pytest.approx(scott_pi(r1, r2)) == pytest.approx(cohen_kappa(r1, r2).kappa)
    assert (round(ci.low, 3), round(ci.high, 3)) == (0.053, 0.894)  # the page's default on the seed pair


def test_goodness_of_fit_degenerate_tables():
    assert donner_eliasziw_interval(np.array([[0, 0], [0, 12]])).low is None        # one label throughout
    assert donner_eliasziw_interval(np.array([[12]])).low is None                   # a single category
    perfect = donner_eliasziw_interval(np.array([[5, 0], [0, 7]]))
    assert perfect.high == 1.0 and 0 < perfect.low < 1 and perfect.centre == 1.0
    opposite = donner_eliasziw_interval(np.array([[0, 6], [6, 0]]))
    assert opposite.low == -1.0 and opposite.high < 0
    one = donner_eliasziw_interval(np.array([[0, 0], [0, 1]]))                       # n = 1
    assert one.low is None
    two = donner_eliasziw_interval(np.array([[1, 0], [0, 1]]))                       # n = 2, both agree
    assert two.high == 1.0 and -1 < two.low < 0   # two agreeing items: kappa below 0 is still in
    lenient = donner_eliasziw_interval(cohen_kappa(*SEED_LENIENT_PAIR.ratings).table)
    assert lenient.low == pytest.approx(scott_pi(*SEED_LENIENT_PAIR.ratings)) and lenient.high > 0.5
    with pytest.raises(ValueError, match="2 x 2"):
        donner_eliasziw_interval(np.ones((3, 3)))
    with pytest.raises(ValueError, match="no item"):
        donner_eliasziw_interval(np.zeros((2, 2)))


@pytest.mark.parametrize("wt", [None, "quadratic", "linear"])
def test_kappa_and_se_of_tables_match_statsmodels(wt):
    rng = np.random.default_rng(4)
    tables = rng.integers(1, 9, size=(20, 3, 3)).astype(float)
    w = agreement_weights((0.0, 1.0, 2.0), wt)
    kappas, ses = kappa_and_se_of_tables(tables, w)
    for table, kappa, se in zip(tables, kappas, ses):
        reference = cohens_kappa(table, wt=wt or None)
        assert kappa == pytest.approx(reference.kappa) and se == pytest.approx(reference.std_kappa)


def test_kappa_and_se_of_tables_on_degenerate_tables():
    kappas, ses = kappa_and_se_of_tables(np.array([[[4, 0], [0, 0]], [[3, 2], [0, 0]], [[2, 0], [0, 3]]], float),
                                         np.eye(2))
    assert np.isnan(kappas[0]) and (kappas[1], ses[1]) == (0.0, 0.0) and (kappas[2], ses[2]) == (1.0, 0.0)


def test_studentised_bootstrap_bounds_follow_from_the_t_quantiles_of_statsmodels_resamples():
    table = np.array([[3, 1, 0], [1, 5, 2], [0, 1, 7]])
    ci = studentised_bootstrap_interval(table, QUADRATIC, n_boot=300, seed=5)
    reference = cohens_kappa(table, wt="quadratic")
    t = []
    for resample in _draws(table.ravel().astype(float), 300, 5).reshape(300, 3, 3):
        again = cohens_kappa(resample, wt="quadratic")
        t.append((again.kappa - reference.kappa) / again.std_kappa)
    t_low, t_high = np.quantile(t, [0.025, 0.975], method="inverted_cdf")
    assert ci.method == STUDENTISED_BOOTSTRAP and (ci.n_boot, ci.n_valid) == (300, 300)
    assert ci.low == pytest.approx(max(-1, reference.kappa - t_high * reference.std_kappa))
    assert ci.high == pytest.approx(min(1, reference.kappa - t_low * reference.std_kappa))
    assert ci == studentised_bootstrap_interval(table, QUADRATIC, n_boot=300, seed=5)  # seeded


def test_studentised_bootstrap_degenerate_tables():
    assert studentised_bootstrap_interval(np.diag([0, 0, 9]), QUADRATIC).low is None        # all one label
    perfect = studentised_bootstrap_interval(np.diag([3, 5, 7]), QUADRATIC)
    assert perfect.low == perfect.high == 1.0                                               # se 0: a point
    tiny = studentised_bootstrap_interval(np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0]]), QUADRATIC, n_boot=200)
    assert tiny.n_valid < 200 and -1 <= tiny.low <= tiny.high <= 1                          # n = 2


def test_small_sample_interval_picks_the_construction_by_the_number_of_labels():
    assert small_sample_interval(np.array([[3, 1], [1, 7]]), np.eye(2)).method == GOODNESS_OF_FIT
    assert small_sample_interval(np.array([[3, 1, 0], [1, 5, 2], [0, 1, 7]]), QUADRATIC).method == POSTERIOR


def test_pair_report_carries_it_only_when_asked():
    r1, r2 = SEED_RUBRIC_PAIR.ratings
    assert pair_report(r1, r2).small_sample is None
    assert pair_report(r1, r2, small_sample=True).small_sample.method == GOODNESS_OF_FIT
    assert pair_report([1, 1], [1, 1], small_sample=True).small_sample is None  # kappa undefined


def test_small_sample_readings():
    r1, r2 = SEED_RUBRIC_PAIR.ratings
    report = pair_report(r1, r2, small_sample=True)
    assert [f.code for f in rd.small_sample_flags(report.small_sample, report.result.kappa)] == ["goodness_of_fit"]
    biased = pair_report([1] * 8 + [0] * 4, [1] * 5 + [0] * 7, small_sample=True)
    flags = rd.small_sample_flags(biased.small_sample, biased.result.kappa)
    assert [f.code for f in flags] == ["goodness_of_fit", "goodness_of_fit_pi"]
    assert flags[1].values["pi"] < flags[1].values["kappa"]
    scores = pair_report([0, 1, 2, 2, 1, 0], [0, 1, 2, 1, 1, 0], weights="quadratic", small_sample=True)
    flag, = rd.small_sample_flags(scores.small_sample, scores.result.kappa)
    assert flag.code == "dirichlet_posterior" and flag.values["n_boot"] == 2000
    assert flag.values["credible_share"] == pytest.approx(0.98) and flag.values["confidence_share"] == 0.95
    boot_t, = rd.small_sample_flags(studentised_bootstrap_interval(scores.result.table, QUADRATIC, n_boot=50), None)
    assert boot_t.code == "studentised_bootstrap" and boot_t.values["n_boot"] == 50


def test_constant_rater_gets_the_pooled_interval_and_nothing_else_does():
    lenient = pair_report(*SEED_LENIENT_PAIR.ratings, small_sample=True)
    pooled = rd.constant_rater_interval(rd.degenerate_pair(lenient.result), lenient.small_sample)
    assert pooled.code == "constant_rater_pooled" and pooled.values["low"] < 0 < pooled.values["high"]
    rubric = pair_report(*SEED_RUBRIC_PAIR.ratings, small_sample=True)
    assert rd.constant_rater_interval(rd.degenerate_pair(rubric.result), rubric.small_sample) is None
    both = pair_report([1, 1, 1], [1, 1, 1], small_sample=True)
    assert rd.constant_rater_interval(rd.degenerate_pair(both.result), both.small_sample) is None
    scores = pair_report([0, 1, 2, 2], [1, 1, 1, 1], weights="quadratic", small_sample=True)
    assert rd.constant_rater_interval(rd.degenerate_pair(scores.result), scores.small_sample) is None

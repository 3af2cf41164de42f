import numpy as np
import pytest
import statsmodels.api as sm

from evallib.gnss.agents import (agent_midas, agent_v1, agent_v2, day_index, design_matrix, fit_trajectory, fit_v2,
                                 largest_jump, largest_jump_loop, midas_velocity, straight_line_velocity)
from evallib.gnss.cases import CASES
from evallib.gnss.synthetic import DAYS_PER_YEAR, gnss_series

NOISE_FREE = dict(n_years=10, velocity_mm_yr=7.5, annual_mm=3.0, semiannual_mm=1.2, white_mm=0, flicker_mm=0,
                  eq_day=1500, coseismic_mm=20.0, postseismic_mm=0.0, seed=0)


def test_noise_free_series_returns_its_exact_parameters_through_v2():
    observed = gnss_series(**NOISE_FREE).observed
    fit = fit_v2(observed)
    assert fit.step_day == 1500
    assert fit["velocity_mm_yr"] == pytest.approx(7.5, abs=1e-9)
    assert fit["step_mm"] == pytest.approx(20.0, abs=1e-9)
    assert fit["annual_sin_mm"] == pytest.approx(3.0, abs=1e-9)
    assert fit["annual_cos_mm"] == pytest.approx(0.0, abs=1e-9)
    assert fit["semiannual_sin_mm"] == pytest.approx(1.2, abs=1e-9)
    assert np.abs(fit.residuals_mm).max() < 1e-8
    assert agent_v2(observed) == {"velocity_mm_yr": pytest.approx(7.5), "offset": True, "offset_day": 1500}


def test_fit_matches_lstsq_and_statsmodels_ols():
    observed = CASES[1].load().observed
    t, d = day_index(observed), observed["disp_mm"].to_numpy()
    fit = fit_trajectory(t, d, 1500)
    G, _ = design_matrix(t, 1500)
    assert np.allclose(fit.coefficients, np.linalg.lstsq(G, d, rcond=None)[0], atol=1e-8)
    assert np.allclose(fit.coefficients, sm.OLS(d, G).fit().params, atol=1e-8)
    assert straight_line_velocity(t, d) == pytest.approx(np.polyfit(t / DAYS_PER_YEAR, d, 1)[0])


def test_seasonal_terms_are_dropped_under_a_year():
    _, names = design_matrix(np.arange(200.0))
    assert names == ("offset_mm", "velocity_mm_yr")
    assert len(design_matrix(np.arange(400.0), 100)[1]) == 7


@pytest.mark.parametrize("seed", range(6))
def test_cumulative_sum_detector_equals_the_loop(seed):
    d = gnss_series(n_years=3, eq_day=500, coseismic_mm=6, seed=seed).observed["disp_mm"].to_numpy()
    fast, slow = largest_jump(d), largest_jump_loop(d)
    assert fast.index == slow.index and fast.size_mm == pytest.approx(slow.size_mm, abs=1e-9)


@pytest.mark.parametrize("d", [np.zeros(200), np.arange(60.0), np.ones(91)])
def test_detector_edge_cases_equal_the_loop(d):
    assert largest_jump(d) == largest_jump_loop(d)


def test_thresholds_are_parameters():
    observed = CASES[6].load().observed  # C07, 8 mm step
    assert not agent_v1(observed)["offset"] and agent_v1(observed, jump_threshold_mm=5)["offset"]
    assert agent_v2(observed)["offset"] and not agent_v2(observed, step_threshold_mm=50)["offset"]


def test_midas_is_exact_on_trend_plus_seasonal_and_robust_to_a_known_step():
    clean = gnss_series(**{**NOISE_FREE, "eq_day": None}).observed
    t, d = day_index(clean), clean["disp_mm"].to_numpy()
    m = midas_velocity(t, d)
    # pairs are 365 days apart, not 365.25: the seasonal terms leave at most 2π·3 mm·0.25 d/365.25 d per year
    seasonal_leak = 2 * np.pi * 3.0 * 0.25 / DAYS_PER_YEAR
    assert m.velocity_mm_yr == pytest.approx(7.5, abs=seasonal_leak) and m.n_pairs == 2 * (len(d) - 365)  # both directions
    stepped = gnss_series(**NOISE_FREE).observed
    ts, ds = day_index(stepped), stepped["disp_mm"].to_numpy()
    assert midas_velocity(ts, ds, steps=(1500.0,)).velocity_mm_yr == pytest.approx(7.5, abs=seasonal_leak)
    # unknown step: the pairs across it are a minority (1 in 10 years) and the median resists them
    assert midas_velocity(ts, ds).velocity_mm_yr == pytest.approx(7.5, abs=seasonal_leak)
    assert agent_midas(stepped)["velocity_mm_yr"] == pytest.approx(7.5, abs=seasonal_leak)
    # a straight line through the same step is biased by about 1.5 D / T (docs/gnss.md#agents)
    assert agent_v1(stepped)["velocity_mm_yr"] - 7.5 > 1.0


@pytest.mark.parametrize("step_at", [1502, 1503, 1499])
def test_an_offset_off_the_5_sample_grid_is_dated_exactly_with_its_signed_size(step_at):
    from evallib.gnss.agents import located_jump
    d = gnss_series(n_years=10, white_mm=0.5, flicker_mm=0.5, eq_day=step_at, coseismic_mm=-20.0, seed=3)
    values = d.observed["disp_mm"].to_numpy()
    assert largest_jump(values).index != step_at  # the detector's grid: candidates every 5 samples from 45
    jump = located_jump(values)
    assert jump.index == step_at and jump.change_mm == pytest.approx(-20.0, abs=2.0)
    assert agent_v2(d.observed)["offset_day"] == step_at == agent_v1(d.observed)["offset_day"]

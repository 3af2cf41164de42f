import numpy as np
import pytest
from scipy.signal import lfilter, periodogram

from evallib.gnss.cases import CASES, case_by_id, held_out_cases
from evallib.gnss.synthetic import DAYS_PER_YEAR, flicker_noise, fractional_filter, gnss_series, trajectory


def test_reproducible_from_the_seed_and_different_across_seeds():
    a, b, c = (gnss_series(seed=s).observed["disp_mm"].to_numpy() for s in (3, 3, 4))
    assert np.array_equal(a, b)
    assert not np.allclose(a, c)


def test_the_agent_sees_only_date_and_displacement_and_the_truth_is_apart():
    series = case_by_id("C02").load()
    assert list(series.observed.columns) == ["date", "disp_mm"]
    assert series.truth["velocity_mm_yr"] == 12 and series.truth["offset_day"] == 1500
    assert series.truth["coseismic_mm"] == 25 and series.truth["offset"] is True
    assert (series.observed["date"].diff().dropna() == np.timedelta64(1, "D")).all()


def test_noise_free_series_is_the_trajectory():
    s = gnss_series(n_years=3, velocity_mm_yr=5, annual_mm=2, semiannual_mm=1, white_mm=0, flicker_mm=0,
                    eq_day=400, coseismic_mm=10, postseismic_mm=3, postseismic_tau_days=20, seed=0)
    d = s.observed["disp_mm"].to_numpy()
    t = np.arange(len(d))
    assert d[400] - d[399] == pytest.approx(10 + 5 / DAYS_PER_YEAR + 2 * (np.sin(2 * np.pi * 400 / DAYS_PER_YEAR)
                                            - np.sin(2 * np.pi * 399 / DAYS_PER_YEAR))
                                            + (np.sin(4 * np.pi * 400 / DAYS_PER_YEAR)
                                               - np.sin(4 * np.pi * 399 / DAYS_PER_YEAR)))
    # the log transient: 3 ln(1 + 100/20) mm, 100 days after the earthquake
    no_transient = trajectory(t.astype(float), 5, 2, 1, 400, 10, 0, 20)
    assert d[500] - no_transient[500] == pytest.approx(3 * np.log(6))
    assert np.array_equal(d, s.model_mm)


def test_the_twelve_cases_carry_the_seed_parameters():
    assert [c.case_id for c in CASES] == [f"C{i:02d}" for i in range(1, 13)]
    truths = {c.case_id: c.load().truth for c in CASES}
    with_offset = ("C02", "C04", "C06", "C07", "C08", "C10", "C12")
    assert [truths[i]["coseismic_mm"] for i in with_offset] == [25, 20, 25, 8, 4, 25, 15]
    assert [truths[i]["offset_day"] for i in ("C02", "C04", "C10", "C12")] == [1500, 2000, 365, 3000]
    assert {truths[i]["n_years"] for i in ("C09", "C10", "C11")} == {2}
    assert truths["C12"]["velocity_mm_yr"] == -8 and truths["C03"]["annual_mm"] == 8
    assert (truths["C05"]["white_mm"], truths["C05"]["flicker_mm"]) == (3.0, 6.0)
    assert [truths[c.case_id]["seed"] for c in CASES] == list(range(101, 113))
    assert not any(truths[i]["offset"] for i in ("C01", "C03", "C05", "C09", "C11"))


def test_held_out_cases_use_fresh_seeds():
    fresh = held_out_cases()
    assert len(fresh) == 12 and {c.params["seed"] for c in fresh}.isdisjoint(range(101, 113))
    assert fresh[1].params["coseismic_mm"] == 25


def test_fft_convolution_equals_the_direct_filter():
    rng = np.random.default_rng(5)
    n = 500
    white = rng.standard_normal(2 * n)
    direct = lfilter(fractional_filter(2 * n), [1.0], white)[n:]
    fast = flicker_noise(n, 1.0, np.random.default_rng(5), dt_years=1.0)
    assert np.allclose(fast, direct, atol=1e-9)


def test_flicker_periodogram_slope_is_about_minus_one():
    slopes = []
    for seed in range(8):
        x = flicker_noise(4096, 4.0, np.random.default_rng(seed))
        f, p = periodogram(x, fs=DAYS_PER_YEAR)
        keep = (f > 0) & (f < DAYS_PER_YEAR / 8)
        slopes.append(np.polyfit(np.log10(f[keep]), np.log10(p[keep]), 1)[0])
    assert np.mean(slopes) == pytest.approx(-1.0, abs=0.1)


def test_white_noise_alone_has_a_flat_periodogram():
    s = gnss_series(n_years=10, velocity_mm_yr=0, annual_mm=0, semiannual_mm=0, white_mm=2, flicker_mm=0, seed=9)
    f, p = periodogram(s.observed["disp_mm"].to_numpy(), fs=DAYS_PER_YEAR)
    keep = f > 0
    assert abs(np.polyfit(np.log10(f[keep]), np.log10(p[keep]), 1)[0]) < 0.1


def test_flicker_velocity_spread_falls_roughly_as_one_over_t():
    def spread(years):
        slopes = []
        for seed in range(60):
            x = flicker_noise(int(years * DAYS_PER_YEAR), 2.0, np.random.default_rng(seed))
            slopes.append(np.polyfit(np.arange(len(x)) / DAYS_PER_YEAR, x, 1)[0])
        return np.std(slopes)
    assert 2.5 < spread(2.5) / spread(10) < 6  # 1/T gives 4; white noise alone would give 8


@pytest.mark.parametrize("kwargs, word", [({"n_years": 0}, "two days"), ({"eq_day": 0}, "eq_day"),
                                          ({"eq_day": 99999}, "eq_day"), ({"white_mm": -1}, "non-negative"),
                                          ({"postseismic_tau_days": 0}, "tau")])
def test_bad_parameters_are_named(kwargs, word):
    with pytest.raises(ValueError, match=word):
        gnss_series(**kwargs)


def test_flicker_realisations_are_rows_of_the_single_series_generator():
    single = flicker_noise(300, 2.0, np.random.default_rng(4))
    rows = flicker_noise(300, 2.0, np.random.default_rng(4), realisations=3)
    assert rows.shape == (3, 300) and np.allclose(rows[0], single)
    assert flicker_noise(0, 2.0, np.random.default_rng(0), realisations=2).shape == (2, 0)

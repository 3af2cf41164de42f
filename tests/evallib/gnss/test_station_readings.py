"""Readings of a station's jumps, gaps and MIDAS pairs (docs/gnss.md#stations): a jump across a long gap is a gap, a
one-epoch excursion an outlier, an offset is dated by the first day after it; MIDAS says why it has
no velocity only for the reason that holds."""

import numpy as np
import pandas as pd
import pytest

from evallib.gnss.cases import case_by_id
from evallib.gnss.midas import MidasVelocity
from evallib.gnss.readers import StationSeries, station_readings
from evallib.gnss.station import agent_midas_reading, estimate_station, gap_reading, midas_reading


def _series(days, values, equipment=()):
    observed = pd.DataFrame({"date": pd.Timestamp("2020-01-01") + pd.to_timedelta(np.asarray(days), unit="D"),
                             "disp_mm": np.asarray(values, dtype=float)})
    return StationSeries(observed, "TEST", "up", "csv", equipment_changes=tuple(equipment))


def _noise(n, seed=0):
    return np.random.default_rng(seed).normal(0, 1, n)


def _jump(series):
    return [r for r in station_readings(series) if r.code in ("large_jump", "jump_across_gap", "outlier")]


def test_an_offset_is_dated_by_the_first_day_after_it_with_its_size():
    days = np.arange(400)
    values = _noise(400) + 30.0 * (days >= 250)
    [reading] = _jump(_series(days, values))
    assert reading.code == "large_jump" and reading.values["date"] == "2020-09-07"  # day 250
    assert reading.values["size_mm"] == pytest.approx(30, abs=5)


def test_a_jump_across_a_long_gap_is_named_a_gap():
    days = np.concatenate([np.arange(200), np.arange(260, 400)])
    values = _noise(days.size) + 30.0 * (days >= 230)
    [reading] = _jump(_series(days, values))
    assert reading.code == "jump_across_gap"
    assert reading.values["missing_days"] == 60 and reading.values["gap_to"] == "2020-09-17"


def test_a_short_gap_still_dates_the_offset():
    days = np.concatenate([np.arange(200), np.arange(202, 400)])  # Gorkha-like: the day of the jump missing
    values = _noise(days.size) + 30.0 * (days >= 201)
    [reading] = _jump(_series(days, values))
    assert reading.code == "large_jump" and reading.values["date"] == "2020-07-21"  # day 202


def test_a_one_day_excursion_is_an_outlier():
    values = _noise(400)
    values[150] += 40
    [reading] = _jump(_series(np.arange(400), values))
    assert reading.code == "outlier" and reading.values["date"] == "2020-05-30"  # day 150


def test_the_gap_reading_names_the_longest_gap_and_is_absent_without_gaps():
    observed = _series(np.concatenate([np.arange(100), np.arange(150, 300)]), _noise(250)).observed
    reading = gap_reading(observed)
    assert reading.values["longest_gap_days"] == 50 and reading.values["gap_from"] == "2020-04-09"
    assert gap_reading(_series(np.arange(50), _noise(50)).observed) is None


def test_midas_on_a_case_split_by_its_step_says_the_pairs_were_excluded_not_absent():
    reading = agent_midas_reading(case_by_id("C10").load().observed)
    assert reading.code == "midas_excluded_by_steps"
    assert reading.values["pairs_without_steps"] == 730 and reading.values["pairs"] == 0


@pytest.mark.parametrize("midas, code", [
    (MidasVelocity(np.nan, np.nan, 0, 0, reason="too_few_epochs"), "midas_too_few_epochs"),
    (MidasVelocity(np.nan, np.nan, 0, 0, reason="too_short"), "midas_too_short"),
    (MidasVelocity(np.nan, np.nan, 4, 0, n_without_steps=219, reason="excluded_by_steps"), "midas_excluded_by_steps"),
    (MidasVelocity(np.nan, np.nan, 8, 0, n_without_steps=8, reason="too_few_pairs"), "midas_too_few_pairs"),
    (MidasVelocity(3.0, 0.2, 800, 760, n_exact=700, n_fallback=100, longest_pair_days=500), "midas_pairs"),
])
def test_each_midas_reason_has_its_reading(midas, code):
    reading = midas_reading(midas, (), 300.0, 20)
    assert reading.code == code
    steps = midas_reading(midas, (pd.Timestamp("2020-05-01").date(),), 300.0, 20)
    assert steps.code == ("midas_pairs_steps" if code == "midas_pairs" else code)


def test_a_too_short_series_gets_estimates_and_readings_without_raising():
    result = estimate_station(_series(np.arange(12), _noise(12)))
    assert np.isnan(result.estimates[2].velocity_mm_yr)
    assert [r.code for r in result.readings] == ["midas_too_short", "station_agent_passes", "station_agent_passes"]
    assert [g.unchecked for g in result.grades] == [("velocity",), ("velocity",)]

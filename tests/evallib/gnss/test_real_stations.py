"""Real station files (tests/data/gnss/real, public copies listed in its README): the facts a geodesist
would check, locked. Lhasa moves east at about 46 mm/yr (NGL's own MIDAS velocity for LHAS); KKN4's
north component jumped by about -1.84 m in the Gorkha earthquake of 2015-04-25 (a day with no data)."""

import json
from pathlib import Path

import numpy as np
import pytest

from evallib.runs.gnss.cli import main
from evallib.gnss.readers import read_series, station_readings
from evallib.gnss.station import estimate_station

REAL = Path(__file__).resolve().parents[2] / "data" / "gnss" / "real"
LHAS, KKN4 = REAL / "LHAS.first2000.tenv3", REAL / "KKN4.gorkha2015.neu"


def _estimates(path, component):
    series = read_series(path, component)
    return series, estimate_station(series)


def test_lhasa_east_velocity_is_about_46_mm_yr_for_every_estimator():
    _, result = _estimates(LHAS, "east")
    for estimate in result.estimates:
        assert estimate.velocity_mm_yr == pytest.approx(46, abs=3), estimate.agent
    midas = result.estimates[2]
    assert 0 < midas.sigma_mm_yr < 2
    assert result.midas.n_fallback > 0  # Lhasa's gaps: some days pair with the next unused day


def test_lhasa_up_offset_is_dated_on_the_antenna_change_with_its_size():
    series, result = _estimates(LHAS, "up")
    [change] = series.equipment_changes
    v1, v2, midas = result.estimates
    assert v2.offset_date == change and v1.offset_date == change  # the first day with the new antenna
    assert -90 < v2.offset_mm < -30 and midas.offset_date == change
    assert change in result.midas_steps
    codes = {r.code: r.values for r in result.readings}
    assert codes["midas_pairs_steps"]["steps"] == [change.isoformat()]


def test_lhasa_one_day_spike_is_an_outlier_not_an_offset():
    readings = {r.code: r.values for r in station_readings(read_series(LHAS, "east"))}
    assert "large_jump" not in readings and readings["outlier"]["date"] == "1999-12-02"


def test_kathmandu_gorkha_offset_is_dated_and_sized():
    series, result = _estimates(KKN4, "north")
    readings = {r.code: r.values for r in station_readings(series)}
    jump = readings["large_jump"]
    assert jump["date"] == "2015-04-26"  # first day after the jump: 2015-04-25 has no data
    assert jump["size_mm"] == pytest.approx(-1840, abs=50)
    codes = {r.code: r.values for r in result.readings}
    # 0.35 years: MIDAS has no pair because the record is short, not because of a step
    assert "midas_too_short" in codes and np.isnan(result.estimates[2].velocity_mm_yr)
    assert codes["jump_in_margin_absorbed"]["date"] == "2015-04-26"  # v1's and v2's velocities absorb it


@pytest.mark.parametrize("path, component", [(LHAS, "east"), (LHAS, "up"), (KKN4, "north")])
def test_command_line_gives_the_shared_estimates(capsys, path, component):
    assert main(["--file", str(path), "--component", component]) == 0
    data = json.loads(capsys.readouterr().out)["report"]["station"]  # the run bundle's report
    _, result = _estimates(path, component)
    for estimate in result.estimates:
        shown = data["estimates"][estimate.agent]["velocity_mm_yr"]
        assert (shown is None and np.isnan(estimate.velocity_mm_yr)) or shown == pytest.approx(estimate.velocity_mm_yr)
        date = data["estimates"][estimate.agent]["offset_date"]
        assert date == (estimate.offset_date.isoformat() if estimate.offset_date else None)

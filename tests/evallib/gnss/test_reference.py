"""The reference of a real station never leans on the agents under test (docs/gnss.md#reference): its steps come from
the reader, a steps file or none; offsets are sized from the data each side; a change across a gap is
never a step; each agent is graded against it, and a wrong offset is a failure."""

import json
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evallib.gnss.agents import fit_v2
from evallib.gnss.midas import midas_velocity
from evallib.gnss.readers import StationSeries, read_series
from evallib.gnss.reference import StepsFileError, build_reference, parse_steps, side_fit_offset
from evallib.gnss.station import AgentEstimate, estimate_station
from evallib.gnss.station_grades import grade_estimate
from evallib.gnss.synthetic import subsiding_station

REAL = Path(__file__).resolve().parents[2] / "data" / "gnss" / "real"
KKN4, USUD, LHAS = REAL / "KKN4.gorkha2015.neu", REAL / "USUD.tohoku2011.neu", REAL / "LHAS.first2000.tenv3"
PUBLISHED = json.loads((REAL / "published.json").read_text(encoding="utf-8"))


def _series(days, values, component="up"):
    observed = pd.DataFrame({"date": pd.Timestamp("2012-01-01") + pd.to_timedelta(np.asarray(days), unit="D"),
                             "disp_mm": np.asarray(values, dtype=float)})
    return StationSeries(observed, "TEST", component, "csv")


# --- where the reference's steps come from -------------------------------------------------------------

def test_kathmandu_reference_offset_is_the_files_jump_not_v2s():
    result = estimate_station(read_series(KKN4, "north"))
    v1, v2, reference = result.estimates
    assert v2.offset_date != date(2015, 4, 26)  # v2 dates its offset elsewhere, with another sign
    assert reference.offset_date == date(2015, 4, 26)
    assert reference.offset_mm == pytest.approx(-1842, abs=15)
    assert np.sign(v2.offset_mm) != np.sign(reference.offset_mm)


def test_tohoku_reference_offset_is_sized_from_the_data_not_from_v2():
    result = estimate_station(read_series(USUD, "east"))
    v1, v2, reference = result.estimates
    assert reference.offset_date == date(2011, 3, 11)
    assert 210 < reference.offset_mm < 235  # the data each side; v2's fitted step is larger
    assert abs(v2.offset_mm - reference.offset_mm) > 0.1 * reference.offset_mm


def test_mexico_like_midas_keeps_every_pair_without_the_agents_step():
    series = subsiding_station()
    result = estimate_station(series)
    fit = fit_v2(series.observed)
    assert fit.step_day is not None  # v2 declares a step on the first day after the gap
    midas = result.midas
    assert midas.n_pairs == midas.n_without_steps and result.midas_steps == ()
    assert abs(midas.velocity_mm_yr - (-287.0)) < 2 * midas.sigma_mm_yr
    t = (series.observed["date"] - series.observed["date"].iloc[0]).dt.days.to_numpy(dtype=float)
    with_v2 = midas_velocity(t, series.observed["disp_mm"].to_numpy(), (float(fit.step_day),))
    assert with_v2.n_pairs < 0.7 * midas.n_pairs  # what leaning on v2 would have cost


def test_a_v2_step_that_cuts_every_pair_is_not_taken_by_the_reference():
    # 1.4 years, a 32-day gap at day 240: v2 declares a step on the first day after it, and MIDAS skipping
    # that step has no pair left (the Mexico-City-like station's east component); the reference keeps every pair
    series = subsiding_station(0, gap_days=(240, 272), n_years=1.4, component="east")
    fit = fit_v2(series.observed)
    assert fit.step_day == 272.0
    t = (series.observed["date"] - series.observed["date"].iloc[0]).dt.days.to_numpy(dtype=float)
    assert midas_velocity(t, series.observed["disp_mm"].to_numpy(), (272.0,)).reason == "excluded_by_steps"
    result = estimate_station(series)
    assert result.midas.reason is None and result.midas.n_pairs == result.midas.n_without_steps
    assert np.isfinite(result.estimates[2].velocity_mm_yr)


def test_step_sources_file_and_none():
    series = read_series(LHAS, "up")
    detected = build_reference(series, "detected")
    assert [s.origin for s in detected.steps] == ["equipment"]
    none = build_reference(series, "none")
    assert none.steps == () and none.midas.n_pairs == none.midas.n_without_steps
    chosen = build_reference(series, "file", (date(1995, 8, 23),))
    assert chosen.steps[0].offset_mm == pytest.approx(detected.steps[0].offset_mm)
    with pytest.raises(ValueError):
        build_reference(series, "v2")


# --- offsets sized from each side, gaps are gaps ---------------------------------------------------------

def test_side_fits_keep_a_fast_steady_motion_out_of_the_offset():
    days = np.arange(200).astype(float)
    d = -287.0 * days / 365.25 + 30.0 * (days >= 100)
    code, values = side_fit_offset(days, d, 100.0)
    assert code == "sized" and values["offset_mm"] == pytest.approx(30.0, abs=1e-6)
    before, after = d[70:100], d[100:130]  # a median of each side would add the motion across the window
    assert abs(np.median(after) - np.median(before) - 30.0) > 20


def test_a_change_across_a_gap_is_a_gap_not_a_step():
    days = np.concatenate([np.arange(100), np.arange(132, 250)]).astype(float)
    d = 15.0 * (days >= 132)
    code, values = side_fit_offset(days, d, 132.0)
    assert code == "gap" and values["missing_days"] == 32  # days 100-131
    reference = build_reference(_series(days, d), "file", (date(2012, 1, 1) + pd.Timedelta(days=132).to_pytimedelta(),))
    assert reference.steps == () and [r.code for r in reference.readings] == ["step_is_gap"]


def test_a_step_too_near_an_end_is_unsized_and_one_outside_is_named():
    days = np.arange(100).astype(float)
    d = 10.0 * (days >= 95)
    assert side_fit_offset(days, d, 95.0)[0] == "too_few_epochs"
    assert side_fit_offset(days, d, 500.0)[0] == "outside"
    reference = build_reference(_series(days, d), "file", (date(2012, 4, 5), date(2013, 1, 1)))
    assert reference.unsized == (date(2012, 4, 5),)
    assert [r.code for r in reference.readings] == ["step_too_few_epochs", "step_outside_record"]


# --- the steps file ----------------------------------------------------------------------------------------

def test_steps_file_reads_dates_and_components():
    text = "# steps\n2015-04-26\n2011-03-11, east\n\n2011-03-11 north\n2015-04-26;up\n"
    assert parse_steps(text, "east") == (date(2011, 3, 11), date(2015, 4, 26))
    assert parse_steps(text, "north") == (date(2011, 3, 11), date(2015, 4, 26))


@pytest.mark.parametrize("text, code, line", [
    ("2015-13-01\n", "bad_date", 1), ("2015/04/26\n", "bad_date", 1), ("2015-04-26\n2015-04-27 vertical\n", "bad_component", 2),
    ("2015-04-26 up extra\n", "extra_field", 1), ("# only a comment\n\n", "empty", None),
])
def test_steps_file_errors_are_named(text, code, line):
    with pytest.raises(StepsFileError) as caught:
        parse_steps(text, "up")
    assert caught.value.code == code and caught.value.details.get("line") == line


# --- grades: a wrong offset is a failure ------------------------------------------------------------------

def test_each_agent_is_graded_and_a_wrong_offset_fails():
    kkn4 = {g.agent: g for g in estimate_station(read_series(KKN4, "north")).grades}
    assert {"offset_date", "offset_sign", "offset_size"} <= set(kkn4["v2"].failures)
    assert kkn4["v1"].failures == ("offset_missed",) and kkn4["v1"].unchecked == ("velocity",)
    usud = {g.agent: g for g in estimate_station(read_series(USUD, "east")).grades}
    assert "offset_size" in usud["v2"].failures
    lhas = {g.agent: g for g in estimate_station(read_series(LHAS, "up")).grades}
    assert lhas["v2"].passed and lhas["v1"].passed


@pytest.mark.parametrize("offset_date, offset_mm, failures", [
    (date(2012, 4, 10), 30.0, ()),                      # right day, right size
    (date(2012, 4, 10), 45.0, ("offset_size",)),        # 50 % too large
    (date(2012, 4, 10), -30.0, ("offset_sign", "offset_size")),
    (date(2012, 7, 1), 30.0, ("offset_date",)),         # 82 days late
    (None, None, ("offset_missed",)),
])
def test_offset_checks_one_by_one(offset_date, offset_mm, failures):
    days = np.arange(500)
    rng = np.random.default_rng(1)
    reference = build_reference(_series(days, 30.0 * (days >= 100) + rng.normal(0, 1, days.size)), "detected")
    estimate = AgentEstimate("v2", reference.midas.velocity_mm_yr, offset_date, offset_mm)
    assert grade_estimate(estimate, reference).failures == failures


def test_an_offset_where_the_reference_has_none_is_spurious_and_velocities_are_graded():
    days = np.arange(800)
    reference = build_reference(_series(days, 5.0 * days / 365.25 + np.random.default_rng(2).normal(0, 1, 800)))
    assert grade_estimate(AgentEstimate("v1", 5.0, date(2012, 6, 1), 12.0), reference).failures == ("offset_spurious",)
    assert grade_estimate(AgentEstimate("v1", 9.0, None, None), reference).failures == ("velocity_off",)
    assert grade_estimate(AgentEstimate("v1", 5.0, None, None), reference).passed


# --- the margin reading no longer says a dominated velocity leaves the jump out ----------------------------

def test_jump_in_margin_names_the_agents_whose_velocity_the_jump_dominates():
    result = estimate_station(read_series(KKN4, "north"))
    codes = {r.code: r.values for r in result.readings}
    assert "jump_in_margin" not in codes
    absorbed = codes["jump_in_margin_absorbed"]
    assert absorbed["date"] == "2015-04-26" and "v2" in absorbed["agents"].split(", ")
    assert abs(absorbed["line_velocity_mm_yr"]) < 0.1 * abs(result.estimates[1].velocity_mm_yr)


def test_jump_in_margin_without_domination_keeps_the_plain_reading():
    days = np.arange(1500)  # 4 years: a 20 mm jump 20 days before the end tilts a line by about 0.4 mm/yr
    rng = np.random.default_rng(5)
    d = 10.0 * days / 365.25 + rng.normal(0, 1, days.size) + 20.0 * (days >= 1480)
    codes = {r.code for r in estimate_station(_series(days, d)).readings}
    assert "jump_in_margin" in codes and "jump_in_margin_absorbed" not in codes


# --- the published figures beside the stations ------------------------------------------------------------

def test_published_figures_file_names_its_sources():
    for station in PUBLISHED["stations"]:
        assert station["source"] and station["file"]
        assert (REAL / station["file"]).exists() or station["file"] == "synthetic"


def test_reference_against_published_where_a_figure_was_found():
    lhas = next(s for s in PUBLISHED["stations"] if s["station"] == "LHAS")
    result = estimate_station(read_series(LHAS, lhas["component"]))
    assert result.estimates[2].velocity_mm_yr == pytest.approx(lhas["velocity_mm_yr"], abs=lhas["tolerance_mm_yr"])


def test_the_readers_change_across_a_gap_gives_the_reference_no_step():
    days = np.concatenate([np.arange(300), np.arange(332, 800)])
    rng = np.random.default_rng(4)
    series = _series(days, rng.normal(0, 1, days.size) + 40.0 * (days >= 332))
    reference = build_reference(series, "detected")
    assert reference.steps == () and reference.unsized == ()
    assert reference.midas.n_pairs == reference.midas.n_without_steps


def test_command_line_takes_a_steps_file_or_none_and_names_a_bad_one(tmp_path, capsys):
    from evallib.runs.gnss.cli import main
    steps = tmp_path / "steps.txt"
    steps.write_text("2011-03-11 east\n", encoding="utf-8")
    assert main(["--file", str(USUD), "--component", "east", "--steps", str(steps)]) == 0
    report = json.loads(capsys.readouterr().out)["report"]["station"]
    assert report["reference"]["step_source"] == "file" and report["reference"]["steps"][0]["date"] == "2011-03-11"
    assert report["grades"]["v2"]["failures"] == ["offset_size"]
    assert main(["--file", str(USUD), "--component", "east", "--no-steps"]) == 0
    assert json.loads(capsys.readouterr().out)["report"]["station"]["reference"]["steps"] == []
    steps.write_text("11/03/2011\n", encoding="utf-8")
    assert main(["--file", str(USUD), "--component", "east", "--steps", str(steps)]) == 2
    assert "line 1: '11/03/2011' is not a date YYYY-MM-DD" in capsys.readouterr().err

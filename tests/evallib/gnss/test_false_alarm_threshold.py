"""Where agent v1's false-alarm class appears on the cases (docs/gnss.md#threshold: every failure class
of the course material for v1)."""

from functools import partial

import numpy as np

from evallib.gnss.agents import V1_JUMP_THRESHOLD_MM, agent_v1
from evallib.gnss.cases import CASES
from evallib.gnss.evaluation import (
    AlarmThreshold, failure_groups, false_alarm_threshold_reading, false_alarms, highest_false_alarm_threshold,
    run_eval)

GRID = np.arange(2.0, 26.5, 0.5)


def test_highest_false_alarm_threshold_is_below_the_default_and_shows_every_failure_class():
    found = highest_false_alarm_threshold(GRID)
    assert found is not None and found.threshold_mm < V1_JUMP_THRESHOLD_MM
    assert false_alarms(found.rows)
    above = highest_false_alarm_threshold(GRID[GRID > found.threshold_mm])
    assert above is None
    codes = {r.code for r in failure_groups(found.rows, models_offsets=False)}
    assert {"failure_unmodelled_offset", "failure_small_offset_missed", "failure_false_alarm",
            "failure_short_record"} <= codes


def test_no_false_alarm_when_only_high_thresholds_are_tried():
    assert highest_false_alarm_threshold([100.0, 200.0], cases=CASES[:3]) is None


def _rows(threshold):
    return run_eval(partial(agent_v1, jump_threshold_mm=threshold), cases=CASES[:3])


def test_reading_codes():
    quiet, noisy = _rows(100.0), _rows(0.5)
    assert false_alarms(noisy) and not false_alarms(quiet)
    at_default = false_alarm_threshold_reading(noisy, 0.5, None)
    assert at_default.code == "alarm_at_default" and at_default.values["cases"] == false_alarms(noisy)
    assert false_alarm_threshold_reading(quiet, 100.0, None).code == "alarm_never"
    below = false_alarm_threshold_reading(quiet, 100.0, AlarmThreshold(0.5, noisy))
    assert below.code == "alarm_below"
    assert below.values["threshold_mm"] == 0.5 and below.values["default_mm"] == 100.0
    assert below.values["n"] == 3 and below.values["default_passes"] == sum(r.passed for r in quiet)


def test_first_alarm_comparison_reads_each_side_from_its_own_computation():
    from evallib.gnss.evaluation import first_alarm_comparison_reading
    noisy = _rows(0.5)
    found = AlarmThreshold(7.5, noisy)
    grid = [5.0, 6.0, 7.5, 8.0]
    sooner = first_alarm_comparison_reading(found, grid, [0.5, 0.1, 0.0, 0.0], 50)
    assert sooner.code == "cases_sooner"
    assert sooner.values == {"cases_mm": 7.5, "cases": false_alarms(noisy), "series_mm": 6.0, "n_cases": 3,
                             "n_series": 50}
    assert first_alarm_comparison_reading(found, grid, [1, 1, 1, 0.02], 50).code == "series_sooner"
    tie = first_alarm_comparison_reading(found, grid, [1, 1, 0.02, 0], 50)
    assert tie.code == "same_threshold" and tie.values["series_mm"] == 7.5
    assert first_alarm_comparison_reading(found, grid, [0, 0, 0, 0], 50).code == "series_never"
    assert first_alarm_comparison_reading(None, grid, [0.2, 0, 0, 0], 50).values == {
        "cases_mm": None, "cases": [], "series_mm": 5.0, "n_cases": None, "n_series": 50}
    assert first_alarm_comparison_reading(None, grid, [0.2, 0, 0, 0], 50).code == "cases_never"
    assert first_alarm_comparison_reading(None, [], [], 0).code == "never"


def test_first_alarm_comparison_refuses_rates_that_do_not_match_the_thresholds():
    import pytest
    from evallib.gnss.evaluation import first_alarm_comparison_reading
    with pytest.raises(ValueError, match="3 thresholds but 2"):
        first_alarm_comparison_reading(None, [1, 2, 3], [0, 0], 10)

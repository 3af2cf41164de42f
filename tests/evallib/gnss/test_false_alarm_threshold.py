"""Where agent v1's false-alarm class appears on the cases (issue 9: every failure class of the seed for v1)."""

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

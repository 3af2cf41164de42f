import numpy as np
import pytest

from evallib.gnss.tolerances import JumpRates, jump_threshold_rates, threshold_reading


def _rates(false_alarm, detection):
    return JumpRates(np.array([4.0, 8.0, 12.0]), np.array(false_alarm, dtype=float),
                     np.array(detection, dtype=float), 8.0, tuple(range(10)))


@pytest.mark.parametrize("false_alarm, detection, code", [
    ([0.5, 0.0, 0.0], [1.0, 1.0, 0.4], "threshold_clean"),
    ([0.5, 0.1, 0.0], [1.0, 1.0, 0.4], "threshold_false_alarms"),
    ([0.0, 0.0, 0.0], [1.0, 0.6, 0.4], "threshold_misses"),
    ([0.5, 0.2, 0.1], [1.0, 0.6, 0.4], "threshold_both"),
])
def test_each_code_at_the_middle_threshold(false_alarm, detection, code):
    reading = threshold_reading(_rates(false_alarm, detection), 8.0)
    assert reading.code == code
    assert reading.values["false_alarm_share"] == false_alarm[1]
    assert reading.values["detection_share"] == detection[1]
    assert reading.values["n"] == 10 and reading.values["step_mm"] == 8.0


def test_lowest_quiet_threshold_and_none_when_every_threshold_alarms():
    assert threshold_reading(_rates([0.5, 0.0, 0.0], [1, 1, 1]), 4.0).values["quiet_from_mm"] == 8.0
    assert threshold_reading(_rates([0.5, 0.2, 0.1], [1, 1, 1]), 4.0).values["quiet_from_mm"] is None


def test_unknown_threshold_raises():
    with pytest.raises(ValueError, match="not among"):
        threshold_reading(_rates([0, 0, 0], [1, 1, 1]), 5.0)


def test_the_seed_threshold_has_no_false_alarm_with_our_generator_and_a_low_one_has():
    rates = jump_threshold_rates(np.array([4.0, 12.0]), {"n_years": 10, "velocity_mm_yr": 12}, 25.0, 1500,
                                 n_trials=20)
    assert threshold_reading(rates, 12.0).code == "threshold_clean"
    assert threshold_reading(rates, 4.0).values["false_alarm_share"] > 0

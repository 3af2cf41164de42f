import math

import numpy as np
import pytest

from evallib.gnss.spec import (SPEC_V1, SPEC_V2, describe_problems, length_dependent_spec, render_spec, score_case,
                               validate_result)

TRUTH_OFFSET = {"velocity_mm_yr": 12.0, "offset": True, "offset_day": 1500, "n_years": 10}
TRUTH_NONE = {"velocity_mm_yr": 12.0, "offset": False, "offset_day": None, "n_years": 10}


def good(**changes):
    return {"velocity_mm_yr": 12.3, "offset": True, "offset_day": 1510, **changes}


@pytest.mark.parametrize("result, code", [
    ("about 12 mm/yr, no offset", "not_a_dict"),
    (None, "not_a_dict"),
    ([12.0, True, 1500], "not_a_dict"),
    ({"velocity_mm_yr": 12.0, "offset": True}, "missing_key"),
    (good(velocity_mm_yr="12.3"), "wrong_type"),
    (good(velocity_mm_yr=True), "wrong_type"),
    (good(offset="yes"), "wrong_type"),
    (good(offset_day=1500.0), "wrong_type"),
    (good(offset_day=True), "wrong_type"),
    (good(velocity_mm_yr=math.nan), "not_finite"),
    (good(velocity_mm_yr=math.inf), "not_finite"),
    (good(offset_day=None), "offset_day_missing"),
    (good(explanation="a step at day 1510"), "unexpected_key"),
])
def test_malformed_output_is_a_scored_failure_with_its_reason(result, code):
    score = score_case(result, TRUTH_OFFSET, SPEC_V1)
    assert not score.passed and score.malformed
    assert code in [c for c, _ in score.problems]
    assert not (score.velocity_ok or score.flag_ok or score.day_ok)
    assert describe_problems(list(score.problems))


def test_the_seed_example_reports_both_problems():
    problems = validate_result({"velocity_mm_yr": "about 12 mm/yr", "offset": False})
    assert describe_problems(problems) == "missing key 'offset_day'; 'velocity_mm_yr' has type str"


def test_numpy_scalars_are_valid_types():
    numpy_answer = {"velocity_mm_yr": np.float64(1.0), "offset": np.bool_(True), "offset_day": np.int64(3)}
    assert validate_result(numpy_answer) == []


def test_checks_apply_the_tolerances():
    assert score_case(good(), TRUTH_OFFSET).passed
    assert not score_case(good(velocity_mm_yr=13.6), TRUTH_OFFSET).velocity_ok
    assert score_case(good(velocity_mm_yr=13.5), TRUTH_OFFSET).velocity_ok  # |error| = 1.5 holds
    assert score_case(good(offset_day=1530), TRUTH_OFFSET).day_ok
    late = score_case(good(offset_day=1531), TRUTH_OFFSET)
    assert late.flag_ok and not late.day_ok and not late.offset_ok and not late.passed
    missed = score_case(good(offset=False, offset_day=None), TRUTH_OFFSET)
    assert not missed.flag_ok and missed.day_ok and missed.velocity_ok
    alarm = score_case(good(), TRUTH_NONE)
    assert not alarm.flag_ok and alarm.day_ok


def test_length_dependent_tolerances_and_editing():
    v3 = length_dependent_spec(1.5, 3.0, 5)
    assert (v3.velocity_tol(10), v3.velocity_tol(5), v3.velocity_tol(2)) == (1.5, 1.5, 3.0)
    short = {**TRUTH_NONE, "n_years": 2}
    answer = good(velocity_mm_yr=14.5, offset=False, offset_day=None)
    assert not score_case(answer, short, SPEC_V2).passed and score_case(answer, short, v3).passed
    assert SPEC_V1.with_tolerances(velocity_tol=0.2, day_tol=5).velocity_tol(10) == 0.2
    with pytest.raises(ValueError, match="positive"):
        SPEC_V1.with_tolerances(velocity_tol=0)


def test_rendered_spec_names_inputs_schema_tolerances_and_method():
    text = render_spec(SPEC_V1)
    for needle in ("`date`", "`disp_mm`", "velocity_mm_yr", "offset_day", "<= 1.5 mm/yr", "<= 30 days"):
        assert needle in text
    assert "METHOD" not in text and "METHOD" in render_spec(SPEC_V2)
    v3 = render_spec(length_dependent_spec(1.5, 3.0, 5))
    assert "<= 3 mm/yr for shorter records" in v3 and "at least 5 years" in v3

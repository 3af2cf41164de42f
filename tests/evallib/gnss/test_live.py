import json
from pathlib import Path

import pytest

from evallib.gnss.cases import CASES, case_by_id
from evallib.gnss.live import (AuthoredAnswersError, GNSS_SET, authored_recordings, build_request, grade_live,
                               parse_answer, user_prompt, window_means, write_authored_recordings)
from evallib.gnss.spec import SPEC_V1
from evallib.llm import ChatResult, Recordings

MODEL = "authored-example-gnss-text-model"


def test_the_request_sends_the_spec_and_the_30_day_means():
    observed = case_by_id("C01").load().observed
    means = window_means(observed)
    assert len(means) == -(-len(observed) // 30)
    assert means[0] == pytest.approx(observed["disp_mm"].iloc[:30].mean(), abs=0.05)
    prompt = user_prompt(observed)
    assert "spec v1" in prompt and "offset_day" in prompt and f"{means[-1]:.1f}" in prompt
    first, second = build_request(observed, "m"), build_request(observed, "m", repeat=1)
    assert first.key() != second.key() and first.messages == second.messages
    assert first.messages[0][1] == prompt and first.model == "m"


def test_answers_are_parsed_as_data_only():
    assert parse_answer('```json\n{"velocity_mm_yr": 1, "offset": true, "offset_day": 5}\n```') == {
        "velocity_mm_yr": 1, "offset": True, "offset_day": 5}
    hostile = '{"velocity_mm_yr": __import__("os").getcwd(), "offset": false}'
    assert parse_answer(hostile) == hostile
    assert parse_answer("[1, 2]") == "[1, 2]"
    assert parse_answer("") == ""


def test_grade_live_scores_answers_and_keeps_errors_apart():
    case = case_by_id("C01")
    results = [ChatResult(request_key="a", text='{"velocity_mm_yr": 11.9, "offset": false, "offset_day": null}'),
               ChatResult(request_key="b", text="about 12 mm/yr"),
               ChatResult(request_key="c", status="error", error_kind="timeout", error="no answer in 60 s",
                          error_details={"code": "timeout", "url": "http://x/v1", "timeout_s": 60.0})]
    runs = grade_live(case, results, SPEC_V1)
    assert runs[0].result.passed
    assert runs[1].result.problems == (("not_a_dict", {"type": "str"}),)
    assert runs[2].result is None and runs[2].error.startswith("timeout")
    assert runs[2].error_details == {"code": "timeout", "url": "http://x/v1", "timeout_s": 60.0}


def test_authored_recordings_replay_and_show_violations_and_wrong_velocities(tmp_path):
    count = write_authored_recordings(tmp_path)
    assert count == 24
    store = Recordings(tmp_path)
    assert store.problems == [] and len(store.in_set(GNSS_SET)) == 24
    rows = []
    for case in CASES:
        observed = case.load().observed
        recorded = [store.get(build_request(observed, MODEL, repeat=k).key()) for k in range(2)]
        assert all(r.provenance["source"] == "authored" and "authored" in r.request.model for r in recorded)
        rows += [run.result for run in grade_live(case, [r.result for r in recorded])]
    problems = {code for r in rows for code, _ in r.problems}
    assert {"not_a_dict", "missing_key", "wrong_type", "unexpected_key", "offset_day_missing"} <= problems
    wrong_velocity = [r.case_id for r in rows if not r.problems and not r.velocity_ok]
    assert "C10" in wrong_velocity and "C12" in wrong_velocity
    assert 0 < sum(r.passed for r in rows) < len(rows)


def test_the_shipped_recordings_match_the_authored_file():
    shipped = Recordings(Path(__file__).resolve().parents[3] / "packs" / "fr" / "recordings").in_set(GNSS_SET)
    assert sorted(r.key for r in shipped) == sorted(req.key() for req, _, _ in authored_recordings())


def test_incomplete_authored_answers_name_the_case(tmp_path):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"models": [{"model": "authored-x", "note": "n", "answers": {"C01": ["{}"]}}]}),
                    encoding="utf-8")
    with pytest.raises(AuthoredAnswersError, match="C02"):
        authored_recordings(path)


def test_case_requests_are_the_recorded_authored_requests_and_count_runs():
    from evallib.gnss.cases import CASES
    from evallib.gnss.live import authored_recordings, case_requests
    runs, left = divmod(len(authored_recordings()), len(CASES))
    assert (runs, left) == (2, 0)
    built = case_requests("authored-example-gnss-text-model", runs)
    assert [r.key() for _, _, r in built] == [request.key() for request, _, _ in authored_recordings()]
    assert [(c.case_id, k) for c, k, _ in built[:3]] == [("C01", 0), ("C01", 1), ("C02", 0)]
    import pytest
    with pytest.raises(ValueError):
        case_requests("m", 0)

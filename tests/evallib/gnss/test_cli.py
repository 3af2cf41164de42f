import json
from pathlib import Path

from evallib.runs.gate import EXIT_USAGE
from evallib.runs.gnss.cli import EXIT_BELOW, EXIT_PASS, main

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "gnss"


def test_table_and_gate(capsys):
    assert main(["--agents", "v1", "--min-passes", "5"]) == EXIT_PASS
    out = capsys.readouterr().out
    assert "agent v1: 5/12 cases pass" in out and "offset not modelled: C02, C04, C06, C10" in out
    assert main(["--agents", "v1", "--min-passes", "6"]) == EXIT_BELOW
    assert "below 6 passes: v1" in capsys.readouterr().err


def test_json_with_spec_v3(capsys):
    assert main(["--agents", "v2,midas", "--spec", "v3", "--trials", "59", "--json"]) == EXIT_PASS
    data = json.loads(capsys.readouterr().out)["report"]["evaluation"]  # the run bundle's report
    assert data["spec"] == "v3" and set(data["derived_from"]) == {"10", "2"}
    assert data["agents"]["v2"]["passes"] == sum(c["passed"] for c in data["agents"]["v2"]["cases"])
    assert len(data["agents"]["midas"]["cases"]) == 12


def test_thresholds_change_the_result(capsys):
    main(["--agents", "v1", "--v1-threshold", "6.5", "--json"])
    groups = {g["code"]: g for g in json.loads(capsys.readouterr().out)["report"]["evaluation"]["agents"]["v1"]
              ["failure_groups"]}
    assert groups["failure_false_alarm"]["cases"] == ["C03", "C05"]


def test_recorded_answers_are_graded_offline(capsys):
    assert main(["--recorded", "authored-example-gnss-text-model", "--json"]) == EXIT_PASS
    data = json.loads(capsys.readouterr().out)["report"]["text_model"]
    assert len(data["answers"]) == 24 and 0 < data["passes"] < 24
    assert any("not a dict" in a["problems"] for a in data["answers"])


def test_station_file_estimates(capsys):
    assert main(["--file", str(DATA / "STA1.tenv3"), "--component", "east"]) == EXIT_PASS
    bundle = json.loads(capsys.readouterr().out)
    data = bundle["report"]["station"]
    assert data["file"] == "STA1.tenv3" and bundle["inputs"]["station"]["file"] == "STA1.tenv3"  # no folder
    assert str(DATA) not in json.dumps(bundle)
    assert data["station"] == "STA1" and data["days"] == 14
    assert {r["code"] for r in data["readings"]} >= {"gaps", "equipment_changes"}


def test_usage_errors_exit_2(capsys, tmp_path):
    assert main(["--agents", "v9"]) == EXIT_USAGE
    assert main(["--spec", "v7"]) == EXIT_USAGE
    assert main(["--v1-threshold", "-1"]) == EXIT_USAGE
    assert main(["--recorded", "nobody"]) == EXIT_USAGE
    bad = tmp_path / "bad.neu"
    bad.write_text("# h\n 2015.2 2015 100 0.1\n")
    assert main(["--file", str(bad)]) == EXIT_USAGE
    assert "line 2:" in capsys.readouterr().err


def test_summary_table(capsys):
    assert main(["--summary", "--trials", "59", "--json"]) == EXIT_PASS
    data = json.loads(capsys.readouterr().out)
    assert data["passes"]["agent v1, spec v1"] == 5 and set(data["cases"]) == {f"C{i:02d}" for i in range(1, 13)}
    assert data["held_out"]["total"] == 12 and "spec v3" in data["spec_v3"]
    assert main(["--summary", "--trials", "59", "--min-passes", "12"]) == EXIT_BELOW
    assert "held-out seeds" in capsys.readouterr().out
    assert main(["--summary", "--trials", "1"]) == EXIT_USAGE


def test_recorded_pass_rate_takes_the_case_as_the_unit(capsys):
    from evallib.cluster_rates import ClusteredRate
    assert main(["--recorded", "authored-example-gnss-text-model", "--json"]) == EXIT_PASS
    data = json.loads(capsys.readouterr().out)["report"]["text_model"]
    rate = data["pass_rate"]
    assert rate["interval_unit"] == "case" and rate["items"] == 12 and rate["n"] == 24 and rate["k"] == data["passes"]
    by_case = {}
    for answer in data["answers"]:
        by_case.setdefault(answer["case"], []).append(answer["passed"])
    expected = ClusteredRate.of([(sum(p), len(p)) for p in by_case.values()])
    assert rate["ci95"] == [expected.low, expected.high]
    assert rate["ci95_per_decision"] == [expected.decision_low, expected.decision_high]
    assert main(["--recorded", "authored-example-gnss-text-model"]) == EXIT_PASS
    assert f"[{expected.low:.3f}, {expected.high:.3f}] per case (12 cases)" in capsys.readouterr().out

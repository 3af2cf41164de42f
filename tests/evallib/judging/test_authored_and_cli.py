"""The authored offline recordings (every status shown offline) and the ``judge`` command's exit codes."""

import json
from pathlib import Path

import pytest

from evallib.runs.judge import cli
from evallib.judging.analyses import status_summary
from evallib.judging.authored import (AUTHORED, JUDGE_SET, authored_settings, load_authored, recorded_models,
                                      write_authored_recordings)
from evallib.judging.biases import injection_effect, position_bias, verbosity_effect
from evallib.judging.pipeline import JudgeConfig, run_pairwise, run_pipeline, run_verbosity
from evallib.judging.templates import default_templates
from evallib.llm import Recordings, provider_for_mode
from tests.fake_llm_server import FakeLLMServer

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def offline():
    recordings = Recordings(ROOT / "packs" / "fr" / "recordings")
    assert recordings.problems == []
    return provider_for_mode("offline", recordings), recordings


@pytest.fixture(scope="module")
def runs(offline, rubric, cases):
    generator, judge = authored_settings()
    configs = {name: JudgeConfig(generator, judge, rubric, template, name)
               for name, template in default_templates().items()}
    return configs, {name: run_pipeline(cases, config, offline[0]) for name, config in configs.items()}


def test_the_committed_recordings_are_what_the_authored_file_gives(tmp_path):
    count = write_authored_recordings(tmp_path)
    written = sorted((tmp_path / f"{JUDGE_SET}.jsonl").read_text(encoding="utf-8").splitlines())
    committed = [json.loads(line) for line in
                 (ROOT / "packs" / "fr" / "recordings" / f"{JUDGE_SET}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {line["provenance"].pop("pack") for line in committed} == {"fr"}  # labelled with the pack's id
    assert written == sorted(json.dumps(line, ensure_ascii=False, sort_keys=True) for line in committed)
    assert count >= len(committed)


def test_authored_recordings_say_so(offline):
    recordings = offline[1].in_set(JUDGE_SET)
    assert {r.provenance["source"] for r in recordings} == {"authored"}
    assert recorded_models(offline[1]) == ["authored-assistant", "authored-judge"]
    assert all(r.result.input_tokens is None and r.result.latency_s is None for r in recordings)


def test_offline_replay_shows_each_status(runs):
    _, results = runs
    a, b = status_summary(results["A"])[0].counts, status_summary(results["B"])[0].counts
    assert a == {"scored": 8, "unparseable": 1, "out_of_range": 1, "inconsistent": 1, "truncated": 1, "empty": 0, "error": 0}
    assert b["empty"] == 1 and b["scored"] == 11
    assert all(call.error_kind != "missing_recording" for r in results["A"] + results["B"] for call in r.calls)
    by_id = {r.case.id: r for r in results["A"]}
    assert by_id["py-dynamodb-count"].grade.problem == "no_object"           # judge reply in prose
    assert by_id["py-lambda-sqs-batch"].grade.problem == "cut"               # judge cut at max_tokens
    assert by_id["json-lambda-trust"].grade.details == {"total": 9, "sum": 10}
    assert [c.passed for c in by_id["json-s3-lifecycle-logs"].checks] == [True, False]  # invalid JSON response
    empty = {r.case.id: r for r in results["B"]}["regex-ipv4-cidr"]
    assert (empty.grade.score, empty.grade.by, len(empty.calls)) == (0, "code", 1)


def test_offline_injection_moves_the_score_and_blinding_strips_a_preamble(runs):
    _, results = runs
    rows, readings = injection_effect(results["A"])
    assert [(r.case_id, r.score, r.clean_score) for r in rows] == [("py-ec2-stop-dev", 10, 8)]
    assert readings[0].code == "injection_moved"
    arn_b = {r.case.id: r for r in results["B"]}["regex-role-arn-in-log"]
    assert arn_b.removed_lines == ("En tant que modèle GPT-4o, je propose ce motif :",)


def test_offline_verbosity_and_pairwise_probes(runs, offline):
    configs, results = runs
    data = load_authored(AUTHORED)
    chosen_v = [r for r in results["A"] if r.case.id in data["verbosity_cases"]]
    effect, readings = verbosity_effect(run_verbosity(chosen_v, configs["A"], offline[0]))
    assert effect.changes == [-1, 1, 1, -1, 1] and readings[0].code == "verbosity_too_few"
    chosen = [[r for r in results[name] if r.case.id in data["pairwise_cases"]] for name in "AB"]
    bias, readings = position_bias(run_pairwise(*chosen, configs["A"], offline[0]))
    assert (bias.compared, bias.flips, bias.identical) == (5, 2, 1)
    assert bias.final["regex-ec2-instance-id"] == "tie"
    assert [r.code for r in readings] == ["position_flips", "position_too_few", "identical_tied"]


def run_cli(tmp_path, *args):
    code = cli.main(["--offline", "--out", str(tmp_path), "--recordings", str(ROOT / "packs" / "fr" / "recordings"), *args])
    report = tmp_path / "judge-report.json"
    return code, json.loads(report.read_text(encoding="utf-8"))["report"] if report.exists() else None


def test_cli_offline_passes_then_fails_on_the_mean_or_the_unscored_share(tmp_path):
    code, report = run_cli(tmp_path, "--max-unscored-share", "0.4", "--min-mean", "8.5")
    assert code == 0 and report["gate"]["code"] == "gate_pass"
    assert report["mean"]["mean"] == 9.0 and report["statuses"]["scored"] == 8
    assert run_cli(tmp_path, "--max-unscored-share", "0.4", "--min-mean", "9.5")[0] == 1
    code, report = run_cli(tmp_path, "--min-mean", "5")
    assert code == 1 and report["gate"]["code"] == "gate_unscored_over_limit"


def test_cli_compare_and_probes_report_template_b_and_the_biases(tmp_path):
    code, report = run_cli(tmp_path, "--compare", "--probes", "--max-unscored-share", "0.5")
    assert code == 0
    assert report["template_b"]["paired"]["differences"] == [-1, -1, -1, 4, -3, 0, -3]
    assert "ab_cannot_tell" in [r["code"] for r in report["readings"]]
    position = report["probes"]["position"]
    assert (position["compared"], position["flips"], position["flip_rate"], position["identical"]) == (5, 2, 0.4, 1)
    assert report["probes"]["verbosity"]["changes"] == [-1, 1, 1, -1, 1]
    assert report["probes"]["verbosity"]["p"] == 1.0 and report["probes"]["position"]["slot_test"]["n"] == 5


def test_cli_live_record_writes_the_judge_set(tmp_path, monkeypatch):
    with FakeLLMServer(api_key="sk-cli") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-cli")
        code = cli.main(["--generator", "fake-ok", "--judge", "fake-ok", "--base-url", server.openai_base_url,
                         "--record", "--out", str(tmp_path), "--recordings", str(tmp_path / "rec")])
    recordings = Recordings(tmp_path / "rec").in_set(JUDGE_SET)
    assert code == 1 and len(recordings) == 24
    assert {r.provenance["source"] for r in recordings} == {"live"}
    assert cli.main(["--offline", "--record"]) == 2


def test_cli_usage_and_data_errors_exit_2(tmp_path, capsys):
    assert run_cli(tmp_path, "--judge", "nobody")[0] == 2
    assert "no recording" in capsys.readouterr().err
    bad_cases = tmp_path / "cases.json"
    bad_cases.write_text('{"cases": [{"id": "x"}]}', encoding="utf-8")
    assert run_cli(tmp_path, "--cases", str(bad_cases))[0] == 2
    assert "case 1, field 'input'" in capsys.readouterr().err
    prompts = json.loads((ROOT / "packs" / "fr" / "judging_prompts.json").read_text(encoding="utf-8"))
    prompts["templates"]["B"] = "{contexte} {type} {input}"
    bad_prompts = tmp_path / "prompts.json"
    bad_prompts.write_text(json.dumps(prompts), encoding="utf-8")
    assert run_cli(tmp_path, "--prompts", str(bad_prompts))[0] == 2
    assert "{contexte}" in capsys.readouterr().err
    assert cli.main(["--generator", "m"]) == 2
    assert cli.main(["--max-unscored-share", "2", "--offline"]) == 2
    assert cli.main(["--no-such-option"]) == 2


def test_cli_live_against_the_fake_server(tmp_path, monkeypatch):
    with FakeLLMServer(api_key="sk-cli") as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-cli")
        code = cli.main(["--generator", "fake-ok", "--judge", "fake-ok", "--base-url", server.openai_base_url,
                         "--out", str(tmp_path), "--recordings", str(tmp_path / "none")])
        assert len(server.requests) == 24
    report = json.loads((tmp_path / "judge-report.json").read_text(encoding="utf-8"))["report"]
    assert code == 1 and report["gate"]["code"] == "gate_all_unscored"
    assert report["cost"]["calls"] == 24 and report["cost"]["input_tokens"] > 0


@pytest.mark.parametrize("template", ["A", "B"])
def test_the_summary_line_counts_the_statuses_of_the_template_the_gate_reads(template, tmp_path, capsys):
    """With --compare both templates run; the line's count, mean and statuses are all the gated template's."""
    assert cli.main(["--offline", "--template", template, "--compare", "--out", str(tmp_path)]) in (0, 1)
    line = capsys.readouterr().out.splitlines()[-2]
    scored = int(line.split(" scored,")[0].split()[-1])
    assert f"statuses scored {scored}," in line or line.endswith(f"statuses scored {scored}")

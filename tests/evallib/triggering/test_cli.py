"""The ``trigger`` command offline: exit codes, the JSON report and the printed table."""

import json

import pytest

from evallib.runs.trigger import cli

STRONG, LIGHT = "authored-example-strong-router", "authored-example-light-router"


@pytest.fixture(autouse=True)
def _no_threshold_from_the_environment(monkeypatch):
    monkeypatch.delenv("TRIGGER_MIN_ACCURACY", raising=False)


def run(tmp_path, *options):
    return cli.main(["--offline", "--out", str(tmp_path), *options])


def test_strong_model_passes_and_writes_its_report(tmp_path, capsys):
    assert run(tmp_path, "--model", STRONG) == 0
    report = json.loads((tmp_path / f"triggering-{STRONG}.json").read_text(encoding="utf-8"))["report"]
    assert (report["model"], report["runs"], report["errors"]) == (STRONG, 2, [])
    assert report["metrics"]["accuracy"]["value"] == 1.0 and report["metrics"]["n"] == 76
    assert report["metrics_by_query"]["n"] == 38 and report["mean_input_tokens"] is None
    assert report["gate"]["passed"] is True and report["duration_s"] >= 0
    assert [r["code"] for r in report["readings"]] == ["perfect_score"]
    out = capsys.readouterr().out
    assert "gate: PASS" in out and "accuracy" in out


def test_light_model_false_triggers_on_booking_leave(tmp_path, capsys):
    assert run(tmp_path, "--model", LIGHT) == 0
    report = json.loads((tmp_path / f"triggering-{LIGHT}.json").read_text(encoding="utf-8"))["report"]
    assert report["metrics"]["false_activations"] > 0 and report["metrics"]["invalid_names"] == 1
    assert any(e.startswith("expected none -> got leave-balance-calculator: Enregistre mon absence")
               for e in report["errors"])
    assert report["metrics"]["accuracy"]["value"] < 1.0
    assert "expected none -> got leave-balance-calculator" in capsys.readouterr().out


def test_below_the_gate_exits_1(tmp_path):
    assert run(tmp_path, "--model", LIGHT, "--min-accuracy", "0.95") == 1
    assert json.loads((tmp_path / f"triggering-{LIGHT}.json").read_text())["report"]["gate"]["code"] == "gate_below_min"


def test_the_threshold_defaults_to_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIGGER_MIN_ACCURACY", "0.99")
    assert run(tmp_path, "--model", LIGHT) == 1
    monkeypatch.setenv("TRIGGER_MIN_ACCURACY", "lots")
    assert run(tmp_path, "--model", LIGHT) == 2


@pytest.mark.parametrize("options", [
    ["--model", "never-recorded"],
    ["--model", STRONG, "--runs", "3"],
    ["--model", STRONG, "--min-accuracy", "1.5"],
    ["--model", STRONG, "--runs", "0"],
    ["--model", STRONG, "--provider", "gemini"],
    ["--runs", "2"],
])
def test_usage_errors_exit_2(tmp_path, options, capsys):
    assert run(tmp_path, *options) == 2
    assert "error" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.json"))


def test_an_invalid_data_file_exits_2_naming_the_row(tmp_path, capsys):
    bad = tmp_path / "queries.json"
    bad.write_text(json.dumps({"queries": [{"id": "a", "query": "q", "expected": "no-such-skill"}]}))
    assert run(tmp_path, "--model", STRONG, "--queries", str(bad)) == 2
    assert "query 1, field 'expected'" in capsys.readouterr().err


def test_the_report_holds_the_similarity_baseline_at_four_thresholds(tmp_path):
    run(tmp_path, "--model", STRONG)
    baseline = json.loads((tmp_path / f"triggering-{STRONG}.json").read_text())["report"]["similarity_baseline"]
    assert [row["threshold"] for row in baseline] == [0.05, 0.10, 0.15, 0.25]
    assert all(row["n"] == 38 for row in baseline)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_live_against_the_fake_server_a_router_calling_always_the_first_tool_fails_the_gate(
        tmp_path, monkeypatch, kind):
    from tests.fake_llm_server import FakeLLMServer

    with FakeLLMServer(api_key="sk-cli-test") as server:
        monkeypatch.setenv("OPENAI_API_KEY" if kind == "openai" else "ANTHROPIC_API_KEY", "sk-cli-test")
        url = server.openai_base_url if kind == "openai" else server.anthropic_base_url
        code = cli.main(["--model", "fake-tools", "--provider", kind, "--base-url", url, "--runs", "1",
                         "--out", str(tmp_path)])
        empty = cli.main(["--model", "fake-empty", "--provider", kind, "--base-url", url, "--runs", "1",
                          "--out", str(tmp_path)])
    report = json.loads((tmp_path / "triggering-fake-tools.json").read_text())["report"]
    assert code == 1 and report["gate"]["code"] == "gate_below_min"
    assert report["metrics"]["activations"] == 38 and report["metrics"]["recall"]["k"] == 4
    assert empty == 1
    assert json.loads((tmp_path / "triggering-fake-empty.json").read_text())["report"]["gate"]["code"] == "gate_all_errored"


def test_the_report_and_the_gate_carry_the_interval_per_query_beside_the_one_per_decision(tmp_path, capsys):
    assert run(tmp_path, "--model", LIGHT) == 0
    report = json.loads((tmp_path / f"triggering-{LIGHT}.json").read_text(encoding="utf-8"))["report"]
    accuracy = report["metrics"]["accuracy"]
    assert report["metrics"]["interval_unit"] == "query" and accuracy["items"] == 38 and accuracy["n"] == 76
    low, high = accuracy["ci95"]
    decision_low, decision_high = accuracy["ci95_per_decision"]
    assert low < decision_low <= accuracy["value"] <= decision_high < high
    gate = report["gate"]["values"]
    assert (gate["accuracy_low"], gate["accuracy_high"]) == (low, high)
    out = capsys.readouterr().out
    assert "95 % CI (query)" in out and "95 % CI (decision)" in out
    assert f"accuracy {accuracy['value']:.3f} [{low:.3f}, {high:.3f}] per query" in out

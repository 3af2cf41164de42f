"""``python -m evallib persona``: the audit from the recordings or a live endpoint, its run bundle (which the
page's loader reads back with the same figures) and its exit codes (0 measured/passed, 1 below
--min-accuracy, 2 not measured)."""

import json
import socket

import pytest

from evallib.__main__ import main
from evallib.runs.gate import EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS
from evallib.persona.catalogue import DEFAULT_CATALOGUE
from evallib.runs.persona.bundle import persona_report, run_from_bundle
from evallib.runs.bundle import read_run_bundle

FAST = ["--retries", "0", "--timeout", "5"]


def _bundle(out):
    [path] = out.glob("persona-*.json")
    return read_run_bundle(path.read_bytes(), "persona")


def test_offline_run_writes_a_bundle_the_page_loads_with_the_same_figures(tmp_path, capsys):
    assert main(["persona", "--out", str(tmp_path)]) == EXIT_PASS
    printed = capsys.readouterr().out
    bundle = _bundle(tmp_path)
    assert bundle["made_by"] == "cli" and bundle["report"]["exit_code"] == EXIT_PASS
    run = run_from_bundle(bundle)  # the page's loader: refuses a bundle whose figures it cannot recompute
    report = persona_report(run.catalogue, run.responses)[1]
    assert report["discriminability"] == bundle["report"]["discriminability"]
    assert f"accuracy {report['discriminability']['accuracy']:.3f}" in printed


def test_json_prints_the_bundle(capsys):
    assert main(["persona", "--json"]) == EXIT_PASS
    bundle = json.loads(capsys.readouterr().out)
    assert bundle["page"] == "persona" and bundle["report"]["gate"]["code"] == "no_gate"


def test_the_gate_fails_below_the_minimum_accuracy(tmp_path, capsys):
    assert main(["persona", "--min-accuracy", "0.99", "--out", str(tmp_path)]) == EXIT_GATE_FAILED
    assert "gate: FAIL" in capsys.readouterr().out
    assert _bundle(tmp_path)["report"]["gate"]["code"] == "below"
    assert main(["persona", "--min-accuracy", "0.5"]) == EXIT_PASS


@pytest.mark.parametrize("options, words", [
    (["--recorded", "no-such-model"], "no recorded source 'no-such-model'"),
    (["--min-accuracy", "1.5"], "--min-accuracy must be between 0 and 1"),
    (["--catalogue", "missing.json"], "catalogue missing.json"),
])
def test_usage_and_data_errors_exit_2_naming_the_problem(options, words, capsys):
    assert main(["persona", *options]) == EXIT_NOT_MEASURED
    assert words in capsys.readouterr().err


def test_an_edited_prompt_has_no_recording_offline(tmp_path, capsys):
    data = json.loads(DEFAULT_CATALOGUE.read_text(encoding="utf-8"))
    data["assistants"][0]["system_prompt"] = "Réponds en une phrase."
    (tmp_path / "cat.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["persona", "--catalogue", str(tmp_path / "cat.json")]) == EXIT_NOT_MEASURED
    assert "6 of 36 requests have no recording" in capsys.readouterr().err


@pytest.mark.usefixtures("live_env")
def test_live_against_the_fake_server_is_measured(server, tmp_path, capsys):
    server.reset()
    code = main(["persona", "--live", "fake-ok", "--base-url", server.openai_base_url, "--out", str(tmp_path), *FAST])
    bundle = _bundle(tmp_path)
    assert code == EXIT_PASS and bundle["inputs"]["mode"] == "live"
    assert {a["provenance"]["source"] for a in bundle["answers"]} == {"live"}
    assert {a["provenance"]["model"] for a in bundle["answers"]} == {"fake-ok"}
    assert "fake_key" not in json.dumps(bundle).lower() and server.url not in json.dumps(bundle["inputs"])
    run_from_bundle(bundle)


@pytest.mark.usefixtures("live_env")
def test_live_against_a_dead_server_is_not_measured(tmp_path, capsys):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    code = main(["persona", "--live", "fake-ok", "--base-url", dead, "--out", str(tmp_path), *FAST])
    out = capsys.readouterr()
    assert code == EXIT_NOT_MEASURED
    assert "no server: 36 of 36 calls" in out.err and "gate: NOT MEASURED" in out.out
    bundle = _bundle(tmp_path)
    assert bundle["report"]["failures"]["measured"] is False and bundle["report"]["outcome"] == "not_measured"

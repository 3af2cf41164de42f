"""The trigger run bundle: a run's figures come back equal from its bundle, recomputed from the answers;
a bundle that does not describe one run is refused with a code."""

import argparse
import json

import pytest

from evallib.runs.gate import run_command
from evallib.llm import default_recordings, provider_for_mode
from evallib.runs.bundle import RunBundleError, dumps
from evallib.runs.trigger import cli
from evallib.runs.trigger.bundle import (RUN_FACTS, TriggerRun, load_trigger_bundle, read_trigger_bundle,
                                       trigger_bundle, trigger_report)
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.report import route

LIGHT = "authored-example-light-router"


@pytest.fixture(scope="module")
def light_run():
    catalogue = load_skills()
    queries = load_queries(catalogue)
    cells, results = route(catalogue, queries, provider_for_mode("offline", default_recordings()), LIGHT, 2)
    return TriggerRun(catalogue, queries, 2, "tools", "openai", LIGHT, tuple(c.request for c in cells),
                      tuple(results))


def test_the_figures_of_a_loaded_bundle_equal_those_of_the_run(light_run):
    report = trigger_report(light_run)
    _, run, again = read_trigger_bundle(dumps(trigger_bundle(light_run, report)))
    assert again == report and report["metrics"]["accuracy"]["value"] < 1  # a run with errors, not a trivial one
    assert run == light_run


def test_a_command_line_report_is_a_bundle_that_loads(tmp_path, capsys):
    assert cli.main(["--offline", "--model", LIGHT, "--out", str(tmp_path), "--min-accuracy", "0.95"]) == 1
    raw = (tmp_path / f"triggering-{LIGHT}.json").read_bytes()
    bundle, run, report = read_trigger_bundle(raw)
    assert bundle["made_by"] == "cli" and report == bundle["report"]
    assert report["gate"]["code"] == "gate_below_min" and run.min_accuracy == 0.95
    assert set(RUN_FACTS) <= set(report)
    assert {a["provenance"]["origin"] for a in bundle["answers"]} == {"authored"}


def test_unanswered_requests_stay_unanswered(light_run):
    partial = TriggerRun(**{**light_run.__dict__, "results": (None,) * 4 + light_run.results[4:]})
    report = trigger_report(partial)
    bundle = trigger_bundle(partial, report)
    assert [a["provenance"]["source"] for a in bundle["answers"][:5]] == ["none"] * 4 + ["recording"]
    run, again = load_trigger_bundle(bundle)
    assert again == report and run.results[:4] == (None,) * 4 and report["metrics"]["total"] == 72


@pytest.mark.parametrize("edit, code", [
    (lambda b: b["inputs"].update(runs=3), "requests"),
    (lambda b: b["inputs"]["queries"]["queries"][0].update(query="autre chose"), "requests"),
    (lambda b: b["inputs"]["skills"].update(skills=[]), "inputs"),
    (lambda b: b["inputs"].update(mode="telepathy"), "inputs"),
    (lambda b: b["inputs"].update(gate={"min_accuracy": 2}), "inputs"),
    (lambda b: b["answers"][0]["result"].update(text=5), "schema"),
    (lambda b: b["answers"][0]["result"].pop("request_key"), "schema"),  # found by the fuzz test
    (lambda b: b["answers"][0]["result"].update(request_key=b["answers"][1]["request_key"]), "schema"),
    (lambda b: b["requests"].pop(), "unknown_answer"),
    (lambda b: (b["requests"].pop(), b["answers"].pop()), "requests"),
])
def test_a_bundle_edited_out_of_shape_is_refused_with_its_code(light_run, edit, code):
    bundle = json.loads(dumps(trigger_bundle(light_run, trigger_report(light_run))))
    edit(bundle)
    with pytest.raises(RunBundleError) as error:
        read_trigger_bundle(json.dumps(bundle))
    assert error.value.code == code


def test_a_run_with_no_answer_yet_round_trips(light_run):
    empty = TriggerRun(**{**light_run.__dict__, "results": (None,) * len(light_run.results)})
    report = trigger_report(empty)
    assert report["metrics"]["total"] == 0
    assert read_trigger_bundle(dumps(trigger_bundle(empty, report)))[2] == report


def test_a_refused_bundle_is_a_usage_error_not_a_traceback(capsys):
    def run(_):
        raise RunBundleError("leak", "the bundle holds what looks like a secret (local_path); it is refused",
                             kind="local_path")
    assert run_command("trigger", argparse.ArgumentParser(), run, []) == 2
    assert "trigger: error: no report written: the bundle holds" in capsys.readouterr().err

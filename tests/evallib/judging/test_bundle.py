"""The judge run bundle: the chains replayed from a bundle give the run's figures again; a bundle whose
inputs or requests were edited is refused with a code."""

import json

import pytest

from evallib.runs.judge import cli
from evallib.runs.judge.bundle import (RUN_FACTS, JudgeReplay, JudgeRun, judge_bundle, judge_report, read_judge_bundle,
                                    replay)
from evallib.judging.authored import authored_settings
from evallib.judging.data import load_cases
from evallib.judging.pipeline import run_pipeline
from evallib.judging.requests import ModelSettings
from evallib.judging.rubric import default_prompts, default_rubric
from evallib.llm import default_recordings, provider_for_mode
from evallib.runs.bundle import RunBundleError, dumps


@pytest.fixture(scope="module")
def command_bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("judge")
    assert cli.main(["--offline", "--compare", "--probes", "--out", str(out), "--min-mean", "9.5"]) == 1
    return (out / "judge-report.json").read_bytes()


def test_a_command_line_report_loads_with_the_same_figures(command_bundle):
    bundle, shown, report = read_judge_bundle(command_bundle)
    assert bundle["made_by"] == "cli" and report == bundle["report"] and set(RUN_FACTS) <= set(report)
    assert report["gate"]["values"]["min_mean"] == 9.5 and report["probes"]["verbosity"]["cases"]
    assert set(shown.results) == {"A", "B"} and report["template_b"]["paired"]["cases"]


def test_a_page_run_made_from_recordings_round_trips():
    generator, judge = authored_settings()
    templates = default_prompts()["templates"]
    cases = load_cases()
    run = JudgeRun(cases, (("A", templates["A"]),), default_rubric(), generator, judge, (), blinding=False)
    # The answers as the page gets them: the chains run on the recordings.
    results = run_pipeline(cases, run.configs()["A"], provider_for_mode("offline", default_recordings()), 2)
    answers = tuple(call for r in results for call in r.calls)
    run = JudgeRun(**{**run.__dict__, "answers": answers})
    report = judge_report(replay(run))
    _, shown, again = read_judge_bundle(dumps(judge_bundle(run, report)))
    assert again == report and "probes" not in report
    assert [r.grade for r in shown.results["A"]] == [r.grade for r in results]


@pytest.mark.parametrize("edit, code", [
    (lambda b: b["inputs"]["templates"].update(A=b["inputs"]["templates"]["A"] + " Sois bref."), "requests"),
    (lambda b: b["inputs"]["cases"]["cases"].pop(), "requests"),
    (lambda b: b["inputs"]["generator"].update(kind="gemini"), "inputs"),
    (lambda b: b["inputs"]["judge"].update(prefill="yes"), "inputs"),
    (lambda b: b["inputs"].update(template="C"), "inputs"),
    (lambda b: b["inputs"]["rubric"].update(criteria=[]), "inputs"),
    (lambda b: b["inputs"]["probes"].update(verbosity="all"), "inputs"),
])
def test_an_edited_bundle_is_refused_with_its_code(command_bundle, edit, code):
    bundle = json.loads(command_bundle)
    edit(bundle)
    with pytest.raises(RunBundleError) as error:
        read_judge_bundle(json.dumps(bundle))
    assert error.value.code == code


def test_a_run_with_no_answer_yet_round_trips():
    """Live, before the first click: the page offers the download of a run whose requests have no answer."""
    templates = default_prompts()["templates"]
    run = JudgeRun(load_cases(), (("A", templates["A"]), ("B", templates["B"])), default_rubric(),
                   ModelSettings("m"), ModelSettings("j"), (), probes=((), ()))
    report = judge_report(JudgeReplay(run, run.configs(), {"A": [], "B": []}, [], []))
    bundle = judge_bundle(run, report)
    assert len(bundle["requests"]) == 24 and {a["provenance"]["source"] for a in bundle["answers"]} == {"none"}
    assert read_judge_bundle(dumps(bundle))[2] == report

"""Loading a run into a page (ui/run_bundles.py): a command's bundle loads into its page and sets its
inputs; every refusal is worded in both languages from its code; a refused file changes nothing."""

import json
import tempfile
from pathlib import Path

import pytest
import streamlit

from evallib.runs.gnss import cli as gnss_cli
from evallib.runs.judge import cli as judge_cli
from evallib.runs.bundle import RunBundleError
from evallib.runs.trigger import cli as trigger_cli
from tests.ui.run_bundle_samples import LOADERS, SAMPLES
from ui import run_bundles
from ui.judge.inputs import RUBRIC_KEY
from ui.i18n import catalogue
TEXTS = catalogue()
from ui.trigger.editor import SOURCE_KEY


def _command_bundle(page: str, capsys, *options) -> bytes:
    with tempfile.TemporaryDirectory() as out:
        if page == "trigger":
            trigger_cli.main(["--offline", "--model", "authored-example-strong-router", "--runs", "1", "--out", out])
            return next(Path(out).glob("triggering-*.json")).read_bytes()
        if page == "judge":
            judge_cli.main(["--offline", "--out", out])
            return (Path(out) / "judge-report.json").read_bytes()
    capsys.readouterr()
    gnss_cli.main(["--json", *options])
    return capsys.readouterr().out.encode()


def _load(page: str, raw: bytes, lang: str = "fr") -> tuple[bool, dict]:
    state = {"lang": lang}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streamlit, "session_state", state)
        ok = run_bundles.load_file(page, "run.json", raw, LOADERS[page])
    return ok, state


@pytest.mark.parametrize("page", ["trigger", "judge", "gnss"])
def test_a_command_line_bundle_loads_into_its_page_and_sets_its_inputs(page, capsys):
    ok, state = _load(page, _command_bundle(page, capsys))
    assert ok and not state[run_bundles.ERROR_KEY][page]
    entry = state[run_bundles.LOADED_KEY][page]
    assert entry["bundle"]["made_by"] == "cli"
    if page == "trigger":
        assert state["trigger_runs"] == 1 and len(state[SOURCE_KEY]["queries"]["queries"]) == 38
    if page == "judge":
        assert len(state["judge_cases"]) == 12 and state[RUBRIC_KEY]["criteria"]
    if page == "gnss":
        assert (state["gnss_v1_threshold"], state["gnss_velocity_tol"], state["gnss_day_tol"]) == (12.0, 1.5, 30)


def test_a_bundle_the_page_cannot_show_is_refused_whole(capsys):
    raw = _command_bundle("gnss", capsys, "--agents", "v2", "--spec", "v3", "--trials", "59")
    ok, state = _load("gnss", raw, "en")
    assert not ok and "gnss_v1_threshold" not in state and run_bundles.LOADED_KEY not in state
    assert 'field "spec/thresholds"' in state[run_bundles.ERROR_KEY]["gnss"]


def test_a_bundle_of_another_page_is_named(capsys):
    ok, state = _load("judge", json.dumps(SAMPLES["gnss"]()).encode(), "en")
    assert not ok and "it is a run of the GNSS agent page" in state[run_bundles.ERROR_KEY]["judge"]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("error", [
    RunBundleError("too_large", "", size=3, limit=2), RunBundleError("not_json", ""), RunBundleError("not_object", ""),
    RunBundleError("not_ours", ""), RunBundleError("other_page", "", page="kappa", expected="gnss"),
    RunBundleError("newer_version", "", version=2, supported=1), RunBundleError("schema", "", path="answers/3"),
    RunBundleError("unknown_answer", "", key="abc"), RunBundleError("leak", "", kind="local_path"),
    RunBundleError("inputs", "", field="runs"), RunBundleError("requests", "", index=0),
    RunBundleError("answers", ""), RunBundleError("something_new", ""),
], ids=lambda e: e.code)
def test_each_refusal_is_worded_from_its_code(error, lang):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streamlit, "session_state", {"lang": lang})
        text = run_bundles.refusal(error)
    key = f"run_bundles.error.{error.code}" if error.code != "something_new" else "run_bundles.error.other"
    assert text.split("{")[0] and text.startswith(TEXTS[key][lang].split("{")[0])
    assert "{" not in text
    if error.code == "requests":
        assert "1" in text  # counted from 1 for a reader

"""The run bundle envelope (evallib.runs.bundle): round trip, every refusal code, no secret written."""

import json

import pytest

from evallib import __version__
from evallib.llm import ChatResult
from evallib.llm.redaction import ROOT
from evallib.runs.bundle import (MAX_BYTES, RunBundleError, answer_entry, answers_by_key, dumps, make_run_bundle,
                                read_run_bundle)


def _bundle(**overrides):
    result = ChatResult(request_key="k1", text="bonjour", model="m", source="recording", provenance="authored",
                        recorded_on="2026-11-30")
    parts = {"inputs": {"prompt": "p"}, "requests": [{"key": "k1", "request": {"model": "m"}}],
             "answers": [answer_entry(result, "k1"), answer_entry(None, "k1")],
             "report": {"readings": [{"code": "ok", "values": {"n": 1}}]}}
    parts.update(overrides)
    return make_run_bundle("kappa", **parts), result


def test_round_trip_gives_back_the_results_and_the_version():
    bundle, result = _bundle()
    back = read_run_bundle(dumps(bundle), "kappa")
    assert back == bundle and back["app_version"] == __version__
    assert answers_by_key(back) == {"k1": result}
    assert back["answers"][0]["provenance"] == {"source": "recording", "origin": "authored", "model": "m",
                                                "recorded_at": "2026-11-30"}


@pytest.mark.parametrize("raw, code", [
    (b"{", "not_json"), (b"NaN", "not_json"), (b"[1]", "not_object"), (b'{"format": "x"}', "not_ours"),
    (b'{"format": "evallib-run", "version": 2}', "newer_version"),
    (b'{"format": "evallib-run", "version": 1, "page": "kappa"}', "schema"),
])
def test_each_bad_file_has_its_code(raw, code):
    with pytest.raises(RunBundleError) as error:
        read_run_bundle(raw, "kappa")
    assert error.value.code == code


def test_a_bundle_of_another_page_and_an_orphan_answer_are_refused():
    bundle, _ = _bundle()
    with pytest.raises(RunBundleError) as error:
        read_run_bundle(dumps(bundle), "trigger")
    assert error.value.code == "other_page" and error.value.details["page"] == "kappa"
    bundle["answers"][0]["request_key"] = "nobody"
    with pytest.raises(RunBundleError) as error:
        read_run_bundle(json.dumps(bundle), "kappa")
    assert error.value.code == "unknown_answer"


@pytest.mark.parametrize("secret, kind", [
    ("sk-" + "a" * 30, "key"), ("https://user:pw@host/v1", "url_credentials"), (str(ROOT / "data"), "local_path"),
])
def test_no_secret_is_written(secret, kind):
    with pytest.raises(RunBundleError) as error:
        _bundle(inputs={"where": secret})
    assert error.value.code == "leak" and error.value.details["kind"] == kind


def test_too_large_is_refused_before_parsing():
    with pytest.raises(RunBundleError) as error:
        read_run_bundle(b" " * (MAX_BYTES + 1))
    assert error.value.code == "too_large"

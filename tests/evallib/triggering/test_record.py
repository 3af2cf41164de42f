"""`python -m evallib record trigger`: the page's default routing requests recorded from a live endpoint,
then replayed offline by the page and the gate."""

import json

import pytest

from evallib.__main__ import main
from evallib.llm import Recordings
from evallib.runs.trigger import cli
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.routing import DEFAULT_RUNS, build_requests
from tests.fake_llm_server import FakeLLMServer

KEY = "sk-record-trigger-test"


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_record_trigger_records_the_default_requests_and_the_gate_replays_them(tmp_path, capsys, kind):
    catalogue = load_skills()
    n = DEFAULT_RUNS * len(load_queries(catalogue))
    with FakeLLMServer(api_key=KEY) as server:
        url = server.openai_base_url if kind == "openai" else server.anthropic_base_url
        code = main(["record", "trigger", "--kind", kind, "--base-url", url, "--model", "fake-tools",
                     "--recordings-dir", str(tmp_path)])
    assert code == 0
    assert capsys.readouterr().out.startswith(f"answered {n}, failed 0, recorded {n}")
    lines = [json.loads(line) for line in (tmp_path / "trigger.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == n and {line["provenance"]["provider"] for line in lines} == {kind}
    requests = [c.request for c in build_requests(catalogue, load_queries(catalogue), "fake-tools",
                                                  provider_kind=kind)]
    assert all(Recordings(tmp_path).get(r.key()) is not None for r in requests)
    # The recorded model is then a choice offline: the CLI replays it (always the first tool: gate fails).
    assert cli.main(["--offline", "--model", "fake-tools", "--provider", kind, "--recordings", str(tmp_path),
                     "--out", str(tmp_path / "out")]) == cli.EXIT_GATE_FAILED


def test_record_trigger_failures_exit_2(tmp_path, capsys):
    with FakeLLMServer(api_key=KEY) as server:
        code = main(["record", "trigger", "--base-url", server.openai_base_url, "--model", "fake-500",
                     "--recordings-dir", str(tmp_path)])
    assert code == 2
    out = capsys.readouterr()
    assert "failed 76, recorded 0" in out.out and "server error: 76 of 76 calls (leave-01 / run 1," in out.err

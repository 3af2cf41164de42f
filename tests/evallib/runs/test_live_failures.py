"""What the command lines say when a live run goes wrong, through the real SDKs against local servers:
wrong key, unknown model, no server, timeout, 429, 500, an address that is no model API, and a share
of failed calls. Exit codes: 0 pass, 1 gate failed on measured answers, 2 not measured."""

import json
import socket

import pytest

from evallib.__main__ import main
from evallib.runs.gate import EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS, ProgressLine
from tests.fake_llm_server import NotAnApiServer

pytestmark = pytest.mark.usefixtures("live_env")
FAST = ["--retries", "0", "--timeout", "5"]


@pytest.fixture(autouse=True)
def _fresh(server, monkeypatch):
    server.reset()
    server.hang_seconds = 5
    server.rate_limit_fraction = 0.0
    server.retry_after = 0.05
    monkeypatch.delenv("TRIGGER_MIN_ACCURACY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture
def small(tmp_path):
    """Two labelled queries and two judge cases taken from the shipped sets (fast live runs)."""
    from evallib.judging.data import DEFAULT_CASES
    from evallib.triggering.data import DEFAULT_QUERIES
    queries = json.loads(DEFAULT_QUERIES.read_text(encoding="utf-8"))
    cases = json.loads(DEFAULT_CASES.read_text(encoding="utf-8"))
    (tmp_path / "queries.json").write_text(json.dumps({"queries": queries["queries"][:2]}), encoding="utf-8")
    (tmp_path / "cases.json").write_text(json.dumps({**cases, "cases": cases["cases"][:2]}), encoding="utf-8")
    return tmp_path


def dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def trigger(small, base_url, model, *options):
    return ["trigger", "--model", model, "--base-url", base_url, "--runs", "1", "--queries",
            str(small / "queries.json"), "--out", str(small / "out"), *FAST, *options]


def judge(small, base_url, model, *options):
    return ["judge", "--generator", model, "--judge", model, "--base-url", base_url, "--cases",
            str(small / "cases.json"), "--out", str(small / "out"), *FAST, *options]


def gnss(small, base_url, model, *options):
    return ["gnss", "--live", model, "--base-url", base_url, "--runs", "1", "--json", "--out", str(small / "out"),
            *FAST, *options]


def record(small, base_url, model, *options):
    return ["record", "persona", "--model", model, "--base-url", base_url, "--recordings-dir",
            str(small / "rec"), *FAST, *options]


COMMANDS = {"trigger": trigger, "judge": judge, "gnss": gnss, "record": record}


def failures_of(command, small, capsys) -> dict:
    """The ``failures`` field of the command's JSON report (printed by gnss, written by trigger and judge)."""
    out = capsys.readouterr()
    if command == "gnss":
        printed = json.loads(out.out)
        assert json.loads(next((small / "out").glob("gnss-*.json")).read_text(encoding="utf-8")) == printed
        printed = printed["report"]["text_model"]  # the run bundle's report
        assert printed["exit_code"] == EXIT_NOT_MEASURED and printed["outcome"] == "not_measured"
        return printed["failures"]
    if command == "record":
        return {"stderr": out.err}
    name = "judge-report.json" if command == "judge" else next((small / "out").glob("triggering-*.json")).name
    report = json.loads((small / "out" / name).read_text(encoding="utf-8"))
    report = report["report"]  # trigger and judge write their run bundle
    assert report["exit_code"] == EXIT_NOT_MEASURED and report["outcome"] == "not_measured"
    return report["failures"]


# (case, model, server set-up, cause, words of the hint)
CASES = [
    ("wrong key", "fake-ok", "wrong_key", "auth", "OPENAI_API_KEY"),
    ("unknown model", "no-such-model", None, "model_not_found", "fake-ok"),
    ("no server", "fake-ok", "dead", "connection", "--base-url"),
    ("timeout", "fake-hang", "timeout", "timeout", "--timeout"),
    ("rate limit", "fake-429", None, "rate_limit", "--concurrency"),
    ("server error", "fake-500", None, "server", "run the command again"),
    ("not a model API", "fake-ok", "web_page", "not_api", "--base-url"),
]


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("name, model, setup, cause, hint", CASES, ids=[c[0] for c in CASES])
def test_a_run_without_usable_answers_exits_2_naming_the_cause(command, name, model, setup, cause, hint, server,
                                                               small, monkeypatch, capsys):
    base_url, options = server.openai_base_url, []
    if setup == "wrong_key":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-not-the-right-one")
    if setup == "dead":
        base_url = dead_url()
    if setup == "timeout":
        options = ["--timeout", "1"]
    with NotAnApiServer() as site:
        if setup == "web_page":
            base_url = site.url + "/v1"
        code = main(COMMANDS[command](small, base_url, model, *options))
    failures = failures_of(command, small, capsys)
    assert code == EXIT_NOT_MEASURED
    assert "sk-not-the-right-one" not in json.dumps(failures)  # the key is never printed nor reported
    if command == "record":
        assert f"{failures_names[cause]}: 42 of 42 calls" in failures["stderr"] and hint in failures["stderr"]
        return
    [group] = failures["causes"]
    assert group["cause"] == cause and group["count"] == failures["calls"] == failures["failed"] > 0
    assert hint in group["hint"] and "sidebar" not in group["hint"] + group["message"]
    assert failures["measured"] is False
    if cause == "model_not_found":
        assert "fake-ok" in group["details"]["models"]  # the models the endpoint lists
    if cause == "timeout":
        assert group["details"]["timeout_s"] == 1


failures_names = {"auth": "wrong key", "model_not_found": "unknown model", "connection": "no server",
                  "timeout": "timeout", "rate_limit": "rate limit", "server": "server error",
                  "not_api": "not a model API"}


def test_a_timeout_is_never_a_correct_none_in_the_trigger_command(server, small, capsys):
    # fake-hang answers "answer to: ..." (a text, so a "none" in tools mode) after 5 s of silence.
    assert main(trigger(small, server.openai_base_url, "fake-hang", "--timeout", "1")) == EXIT_NOT_MEASURED
    report = json.loads(next((small / "out").glob("triggering-*.json")).read_text(encoding="utf-8"))["report"]
    assert report["metrics"]["n"] == 0 and report["metrics"]["errors"] == 2
    assert "gate: NOT MEASURED" in capsys.readouterr().out
    # The same silence, waited for with the default timeout, is an answer: measured, here a "none".
    assert main(trigger(small, server.openai_base_url, "fake-hang", "--timeout", "30")) == EXIT_GATE_FAILED
    report = json.loads(next((small / "out").glob("triggering-*.json")).read_text(encoding="utf-8"))["report"]
    assert report["metrics"]["n"] == 2 and report["failures"]["failed"] == 0


def test_part_of_the_calls_failing_exits_2_unless_the_share_is_accepted(server, small, capsys):
    server.rate_limit_fraction = 0.5  # a deterministic half of the request bodies get one 429
    strict = main(trigger(small, server.openai_base_url, "fake-ok", "--runs", "2"))
    report = json.loads(next((small / "out").glob("triggering-*.json")).read_text(encoding="utf-8"))["report"]
    failed, calls = report["failures"]["failed"], report["failures"]["calls"]
    assert strict == EXIT_NOT_MEASURED and 0 < failed < calls == 4
    assert f"not measured: {failed} of 4 calls failed (more than --max-failed-share 0)" in capsys.readouterr().err
    server.reset()
    server.rate_limit_fraction = 0.5
    lenient = main(trigger(small, server.openai_base_url, "fake-ok", "--runs", "2", "--max-failed-share", "0.9",
                           "--max-error-rate", "1"))
    report = json.loads(next((small / "out").glob("triggering-*.json")).read_text(encoding="utf-8"))["report"]
    assert lenient in (EXIT_PASS, EXIT_GATE_FAILED) and report["failures"]["measured"] is True
    assert report["outcome"] in ("pass", "fail")
    assert f"measured on the {4 - failed} answered calls" in capsys.readouterr().err


def test_measured_answers_give_0_or_1(server, small):
    # Both queries expect the first skill, which fake-tools always calls; fake-ok answers in text ("none").
    assert main(trigger(small, server.openai_base_url, "fake-tools")) == EXIT_PASS
    assert main(trigger(small, server.openai_base_url, "fake-ok")) == EXIT_GATE_FAILED
    # The judge answered, with no grade in its echo: measured, and failed (every grade unscored).
    assert main(judge(small, server.openai_base_url, "fake-ok")) == EXIT_GATE_FAILED
    assert main(gnss(small, server.openai_base_url, "fake-ok", "--min-passes", "1")) == EXIT_GATE_FAILED
    # Every answer unreadable, no --min-passes: the default gate (at least one case) fails, it never passes.
    assert main(gnss(small, server.openai_base_url, "fake-ok")) == EXIT_GATE_FAILED
    assert main(record(small, server.openai_base_url, "fake-ok")) == EXIT_PASS


def test_anthropic_behind_a_base_url_ending_in_v1_is_measured(server, small):
    code = main(trigger(small, server.url + "/v1", "fake-tools", "--provider", "anthropic"))
    assert code == EXIT_PASS
    assert {r["path"] for r in server.requests} == {"/v1/messages"}


@pytest.mark.parametrize("argv", [["trigger", "--model", "m", "--timeout", "0"],
                                  ["judge", "--generator", "m", "--judge", "m", "--max-failed-share", "2"],
                                  ["gnss", "--live", "m", "--retries", "-1"]])
def test_bad_live_options_are_usage_errors(argv):
    assert main(argv) == 2


@pytest.mark.parametrize("command", ["trigger", "judge", "gnss"])
def test_help_says_the_exit_codes_and_the_timeout(command, capsys):
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--timeout" in text and "--max-failed-share" in text and "exit 2" in text
    assert "measured answers" in text and "2 not measured" in text


class Clock:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)

    def flush(self):
        pass


def test_progress_waits_a_few_seconds_then_prints_a_line_now_and_then(monkeypatch):
    from types import SimpleNamespace
    now = [0.0]
    monkeypatch.setattr("evallib.runs.gate.time.monotonic", lambda: now[0])
    stream = Clock()
    line = ProgressLine("trigger", stream)
    for second in range(0, 31):
        now[0] = float(second)
        line(SimpleNamespace(done=second, total=40, errors=0, elapsed_s=float(second)))
    printed = [text for text in stream.lines if text.strip()]
    assert printed[0].startswith("trigger: 2/40 done")  # nothing during the first 2 s
    assert len(printed) == 3  # at 2, 12 and 22 s: a CI log is not flooded
    line(SimpleNamespace(done=40, total=40, errors=1, elapsed_s=31.0))
    assert "trigger: 40/40 done, 1 failed, 31 s" in stream.lines[-2]
    judge = ProgressLine("judge template A", stream)
    judge(SimpleNamespace(done=3, total=12, unscored=2, elapsed_s=5.0))
    assert "judge template A: 3/12 done, 2 unscored, 5 s" in stream.lines[-2]

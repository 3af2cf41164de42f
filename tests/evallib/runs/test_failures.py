"""Failed calls grouped by cause for the command line: causes, order, the measured share, hints."""

import pytest

from evallib.runs.failures import CommandOptions, call_failures, cli_hint
from evallib.runs.gate import EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS, exit_code, outcome, verdict
from evallib.llm import ChatResult


def failed(code, kind, **values):
    return ChatResult(request_key="k", status="error", error_kind=kind, error=f"{code} happened",
                      error_details={"code": code, **values})


OK = ChatResult(request_key="k", text="fine")
OPTIONS = CommandOptions("ANTHROPIC_API_KEY", ("--generator", "--judge"), 12.5, 4, "--no-prefill")


def test_failures_are_grouped_by_cause_largest_first_with_their_requests():
    results = [failed("timeout", "timeout"), OK, failed("server", "server"), failed("timeout_status", "timeout"),
               failed("not_openai_api", "malformed"), failed("timeout", "timeout")]
    report = call_failures(results, ["a", "b", "c", "d", "e", "f"], OPTIONS)
    assert [(g.cause, g.count, g.labels) for g in report.groups] == [
        ("timeout", 3, ("a", "d", "f")), ("server", 1, ("c",)), ("not_api", 1, ("e",))]
    assert (report.calls, report.failed, report.failed_share) == (6, 5, 5 / 6)
    assert report.groups[0].name == "timeout" and report.groups[2].name == "not a model API"
    assert report.to_dict()["causes"][0]["requests"] == ["a", "d", "f"]


@pytest.mark.parametrize("results, share, measured", [
    ([OK, OK], 0.0, True),  # nothing failed
    ([OK, failed("server", "server")], 0.0, False),  # default: every call must be answered
    ([OK, failed("server", "server")], 0.5, True),  # exactly the accepted share
    ([OK, OK, failed("server", "server")], 0.3, False),  # just above it
    ([failed("server", "server")], 1.0, False),  # none answered: never measured
    ([], 0.0, False),  # no call at all
])
def test_a_run_is_measured_within_the_accepted_share_of_failed_calls(results, share, measured):
    report = call_failures(results, ["x"] * len(results), OPTIONS, share)
    assert report.measured is measured


def test_exit_codes_and_their_words():
    none_failed = call_failures([OK], ["a"], OPTIONS)
    all_failed = call_failures([failed("auth", "auth")], ["a"], OPTIONS)
    some_accepted = call_failures([OK, failed("auth", "auth")], ["a", "b"], OPTIONS, 0.5)
    assert exit_code(True, none_failed) == EXIT_PASS and exit_code(False, none_failed) == EXIT_GATE_FAILED
    assert exit_code(True, all_failed) == exit_code(False, all_failed) == EXIT_NOT_MEASURED
    assert exit_code(False, some_accepted) == EXIT_GATE_FAILED
    assert [outcome(c) for c in (0, 1, 2)] == ["pass", "fail", "not_measured"]
    assert [verdict(c) for c in (0, 1, 2)] == ["PASS", "FAIL", "NOT MEASURED"]


def test_hints_name_the_commands_own_options_never_the_sidebar():
    models = [f"m{i}" for i in range(12)]
    hints = {cause: cli_hint(cause, details, "library hint", OPTIONS) for cause, details in [
        ("auth", {}), ("model_not_found", {"models": models, "models_total": 15}), ("connection", {}),
        ("timeout", {}), ("rate_limit", {}), ("not_found", {"suggestion": "http://h/v1"}), ("prefill", {}),
        ("bad_request", {}), ("not_api", {}), ("unexpected", {})]}
    assert "ANTHROPIC_API_KEY" in hints["auth"]
    assert hints["model_not_found"] == ("Pass one of the models it offers with --generator or --judge: "
                                        + ", ".join(models) + " (and 3 more).")
    assert "--timeout (now 12.5 s per attempt)" in hints["timeout"] and "(now 4)" in hints["rate_limit"]
    assert hints["not_found"] == "Try --base-url http://h/v1." and "--no-prefill" in hints["prefill"]
    assert "--base-url" in hints["connection"] and "--base-url" in hints["not_api"]
    assert hints["unexpected"] == "library hint"
    assert not any("sidebar" in hint for hint in hints.values())


def test_the_lines_quote_the_server_and_say_what_the_gate_rests_on():
    results = [OK, failed("auth", "auth", server_text="Incorrect API key provided")]
    lines = call_failures(results, ["q1", "q2"], OPTIONS, 0.5).lines()
    assert lines[0] == "wrong key: 1 of 2 calls (q2)"
    assert lines[1] == '  auth happened The server says: "Incorrect API key provided"'
    assert lines[-1] == "measured on the 1 answered calls: 1 failed, within --max-failed-share 0.5"


def test_results_and_labels_must_match():
    with pytest.raises(ValueError, match="2 results but 1 labels"):
        call_failures([OK, OK], ["a"], OPTIONS)

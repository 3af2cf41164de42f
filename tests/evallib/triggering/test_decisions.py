"""Reading a decision from an answer: tool calls, JSON text, names after folding, empty and errors."""

import pytest

from evallib.llm import ChatResult
from evallib.triggering.decisions import Decision, parse_decision, resolve_name

NAMES = ["leave-balance-calculator", "expense-report", "payslip-explainer"]


def answer(text="", calls=(), status="ok", error_kind=None):
    return ChatResult(request_key="k", text=text, tool_calls=tuple(calls), status=status, error_kind=error_kind)


@pytest.mark.parametrize("written, expected", [
    ("expense-report", "expense-report"), ("Expense_Report", "expense-report"),
    ("  EXPENSE REPORT ", "expense-report"), ("leave_balance_calculator", "leave-balance-calculator"),
])
def test_names_match_after_trimming_case_and_separator_folding(written, expected):
    assert resolve_name(written, NAMES) == Decision("skill", expected, written)


def test_an_unknown_name_is_invalid_and_kept_as_written():
    decision = resolve_name("leave-booking", NAMES)
    assert (decision.status, decision.obtained, decision.reason, decision.fired) == \
        ("invalid_name", "leave-booking", "unknown", True)


def test_a_name_folding_onto_two_skills_is_invalid():
    decision = resolve_name("expense report", ["expense-report", "Expense_Report"])
    assert (decision.status, decision.reason) == ("invalid_name", "ambiguous")


def test_a_tool_call_is_an_activation_and_the_first_call_wins():
    decision = parse_decision(answer("sure", [{"name": "Payslip_Explainer"}, {"name": "expense-report"}]), NAMES)
    assert decision == Decision("skill", "payslip-explainer", "Payslip_Explainer")


def test_text_without_tool_call_is_none_in_tools_mode_but_an_error_in_json_mode():
    reply = answer("Je ne peux pas poser de congés, mais voici la marche à suivre.")
    assert parse_decision(reply, NAMES, "tools").status == "none"
    assert parse_decision(reply, NAMES, "json") == Decision("error", reason="unparseable")


@pytest.mark.parametrize("text, status, skill", [
    ('{"skill": "expense-report"}', "skill", "expense-report"),
    ('```json\n{"skill": "Expense_Report"}\n```', "skill", "expense-report"),
    ('Voici ma décision : {"skill": "payslip-explainer"} (la fiche de paie).', "skill", "payslip-explainer"),
    ('{"reason": "no fit"} puis {"skill": null}', "none", None),
    ('{"skill": "none"}', "none", None),
    ('{"skill": ""}', "none", None),
    ('{"skill": "travel-booking"}', "invalid_name", None),
    ('{"skill": ["expense-report"]}', "error", None),
    ('{"skill": "expense-report"', "error", None),
])
def test_json_answers_are_read_through_fences_and_prose(text, status, skill):
    decision = parse_decision(answer(text), NAMES, "json")
    assert (decision.status, decision.skill) == (status, skill)


def test_tools_mode_also_reads_a_tool_call_written_as_json_text():
    assert parse_decision(answer('{"skill": "expense-report"}'), NAMES, "tools").skill == "expense-report"


def test_empty_and_failed_answers_are_never_a_none():
    empty = parse_decision(answer("  ", status="empty"), NAMES)
    failed = parse_decision(answer(status="error", error_kind="rate_limit"), NAMES)
    assert (empty.status, empty.scored, empty.obtained) == ("empty", False, None)
    assert (failed.status, failed.reason, failed.scored) == ("error", "rate_limit", False)


def test_a_truncated_answer_with_a_decision_is_still_read():
    cut = answer('{"skill": "expense-report"} and then', status="truncated")
    assert parse_decision(cut, NAMES, "json").skill == "expense-report"


@pytest.mark.parametrize("mode", ["tools", "json"])
def test_an_answer_cut_before_it_decided_is_an_error_never_a_none(mode):
    cut = parse_decision(answer("Je vais d'abord réfléchir à la meilleure compétence pour", status="truncated"),
                         NAMES, mode)
    assert (cut.status, cut.reason, cut.scored) == ("error", "truncated", False)


def test_a_call_that_timed_out_is_an_error_never_a_none():
    timed_out = parse_decision(answer(status="error", error_kind="timeout"), NAMES, "tools")
    assert (timed_out.status, timed_out.reason, timed_out.scored) == ("error", "timeout", False)

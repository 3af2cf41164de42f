"""Reasoning blocks are removed from answers; empty and cut answers are flagged with a hint."""

from evallib.llm.answers import (HINT_CUT_BEFORE_TEXT, HINT_EMPTY, HINT_EMPTY_REASONING, HINT_TRUNCATED, answer_status,
                                 split_reasoning)


def test_think_block_is_moved_out_of_the_answer():
    assert split_reasoning("<think>let me see\nhmm</think>\n\nParis.") == ("Paris.", "let me see\nhmm")


def test_unclosed_think_block_leaves_no_answer():
    answer, reasoning = split_reasoning("<think>still thinking when the budget ran out")
    assert answer == "" and reasoning.startswith("still thinking")


def test_text_without_think_is_unchanged():
    assert split_reasoning("Plain answer.") == ("Plain answer.", "")


def test_statuses():
    assert answer_status("Paris.", "stop", "", False) == ("ok", "")
    assert answer_status("", "stop", "thoughts", False) == ("empty", HINT_EMPTY_REASONING)
    assert answer_status("", "length", "", False) == ("truncated", HINT_CUT_BEFORE_TEXT)  # cut before any text
    assert answer_status("", "max_tokens", "thoughts", False) == ("truncated", HINT_CUT_BEFORE_TEXT)
    assert answer_status(" ", "end_turn", "", False) == ("empty", HINT_EMPTY)
    assert answer_status("Par", "length", "", False) == ("truncated", HINT_TRUNCATED)
    assert answer_status("Par", "max_tokens", "", False)[0] == "truncated"
    assert answer_status("", "tool_calls", "", True) == ("ok", "")

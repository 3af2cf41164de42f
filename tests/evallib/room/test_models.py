"""Boards within one model (docs/room.md#models): two models, one model, a missing model, mixed on request."""

from types import SimpleNamespace

import pytest

from evallib.room.board import build_board
from evallib.room.models import MIX_KEY, attempt_model, mix_models, model_boards, scope_reading
from tests.evallib.room.conftest import trigger_payload


def entry(number, visible, model, kind="trigger"):
    payload = trigger_payload(visible)
    if model is None:
        payload["provenance"].pop("model")
    else:
        payload["provenance"]["model"] = model
    return SimpleNamespace(number=number, participant=f"P{number}", payload=payload)


GOOD, BAD = [True] * 12, [False] * 10 + [True] * 2


def test_two_models_give_two_boards_each_within_its_model():
    room = [entry(1, GOOD, "llama"), entry(2, BAD, "qwen"), entry(3, BAD, "llama"), entry(4, GOOD, "qwen")]
    boards = model_boards(room)
    assert [(b.kind, b.models) for b in boards] == [("trigger", ("llama",)), ("trigger", ("qwen",))]
    assert [[r.number for r in b.rows] for b in boards] == [[1, 3], [4, 2]]
    assert all(r.model == b.models[0] for b in boards for r in b.rows)
    assert [b.scope.code for b in boards] == ["scope_within_model"] * 2
    assert boards[0].scope.values == {"model": "llama"}
    assert [b.n_pairs for b in boards] == [1, 1]  # Holm counts each model's pairs only


def test_the_instructor_mixes_models_on_one_board():
    room = [entry(1, GOOD, "llama"), entry(2, BAD, "qwen"), entry(3, BAD, "llama")]
    [board] = model_boards(room, mixed=True)
    assert board.models == ("llama", "qwen") and board.n_pairs == 3
    assert board.scope.code == "scope_mixed" and board.scope.values == {"models": ("llama", "qwen"), "count": 2}
    assert [r.model for r in board.rows] == ["llama", "qwen", "llama"]
    assert board.rows == build_board(room).rows  # the same comparison as the board without models


def test_one_model_reads_within_that_model_mixed_or_not():
    room = [entry(1, GOOD, "llama"), entry(2, BAD, "llama")]
    assert [b.scope for b in model_boards(room)] == [b.scope for b in model_boards(room, mixed=True)]
    [board] = model_boards(room)
    assert board.scope.code == "scope_within_model" and board.rows == build_board(room).rows


def test_attempts_without_a_model_are_compared_together_last():
    room = [entry(1, GOOD, None), entry(2, BAD, "llama"), entry(3, BAD, "  ")]
    boards = model_boards(room)
    assert [b.models for b in boards] == [("llama",), ("",)]
    assert [r.number for r in boards[1].rows] == [1, 3]
    assert boards[1].scope.code == "scope_model_unknown" and boards[1].rows[0].model == ""


def test_kinds_stay_apart_and_the_judge_is_the_judge_model():
    judge = SimpleNamespace(number=9, participant="J", payload={
        "kind": "judge", "unit": "case", "provenance": {"generator": "gen", "judge": "big-judge"},
        "items": [{"id": "c", "held_out": False, "loss": 1.0}],
        "figures": {"visible": {"kappa": {"value": 0.5, "ci95": [0.1, 0.9], "n": 1}}, "held_out": {}}})
    boards = model_boards([entry(1, GOOD, "llama"), judge])
    assert [(b.kind, b.models) for b in boards] == [("trigger", ("llama",)), ("judge", ("big-judge",))]
    assert attempt_model(judge.payload) == "big-judge"


def test_the_room_setting_and_the_scope_reading_edges():
    assert mix_models({MIX_KEY: True}) and not mix_models({MIX_KEY: "yes"}) and not mix_models(None)
    assert scope_reading([], False).code == "scope_model_unknown"
    assert model_boards([]) == []
    with pytest.raises(ValueError, match="several"):
        scope_reading(["a", "b"], False)

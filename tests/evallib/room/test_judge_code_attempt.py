"""A judge attempt without human scores: kind "judge_code", compared on its agreement with the code graders."""

from types import SimpleNamespace

from evallib.judging.analyses import validity_agreement
from evallib.judging.rubric import default_rubric
from evallib.room.board import build_boards
from evallib.room.judge_attempt import HELD_OUT_CASES, build_judge_attempt
from tests.evallib.room.kinds import HUMAN, judge_runs


def _attempt(results, human):
    configs, _, _ = judge_runs()
    config = configs[results[0].template_name]
    return build_judge_attempt(results, human, config.rubric, template=config.template,
                               template_name=config.template_name, generator=config.generator.model,
                               judge=config.judge.model, source="offline")


def test_without_human_scores_the_attempt_is_compared_on_the_code_graders():
    _, results, _ = judge_runs()
    attempt = _attempt(results["A"], {})
    assert attempt["kind"] == "judge_code" and attempt["figures"]["visible"]["kappa"]["value"] is None
    agreement, _ = validity_agreement(results["A"], default_rubric())
    expected = dict(zip(agreement.case_ids, (c == m for c, m in zip(agreement.code, agreement.model))))
    assert expected, "the authored run pairs some code verdicts with the judge's"
    by_id = {i["id"]: i for i in attempt["items"]}
    assert {i: item["code_agrees"] for i, item in by_id.items() if item["code_agrees"] is not None} == expected
    assert all(item["loss"] is None for item in by_id.values())


def test_with_human_scores_the_attempt_stays_a_judge_attempt_and_keeps_the_code_verdicts():
    _, results, _ = judge_runs()
    attempt = _attempt(results["A"], HUMAN)
    assert attempt["kind"] == "judge"
    assert any(item["code_agrees"] is not None for item in attempt["items"])


def test_the_board_ranks_judge_code_attempts_by_their_agreement_with_the_code_graders():
    _, results, _ = judge_runs()
    payload = _attempt(results["A"], {})
    worse = {**payload, "items": [{**item, "code_agrees": False if item["code_agrees"] is not None else None}
                                  for item in payload["items"]]}
    boards = build_boards([SimpleNamespace(number=1, participant="Ana", payload=worse),
                           SimpleNamespace(number=2, participant="Bruno", payload=payload)])
    board = boards["judge_code"]
    visible = [i["code_agrees"] for i in payload["items"] if not i["held_out"] and i["code_agrees"] is not None]
    assert [r.number for r in board.rows] == [2, 1] and board.test == "mcnemar_exact" and board.unit == "case"
    assert board.rows[0].accuracy.value == sum(visible) / len(visible)
    assert board.rows[1].accuracy.value == 0.0 and board.rows[1].b == sum(visible)
    assert {c for c in HELD_OUT_CASES} >= {i["id"] for i in payload["items"] if i["held_out"]}

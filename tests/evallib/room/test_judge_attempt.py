import copy

import pytest
from scipy.stats import binomtest
from sklearn.metrics import cohen_kappa_score

from evallib.judging.analyses import human_agreement
from evallib.judging.biases import position_bias
from evallib.judging.rubric import default_rubric
from evallib.room.attempts import RoomAttemptError, validate_attempt
from evallib.room.judge_attempt import HELD_OUT_CASES, build_judge_attempt
from tests.evallib.room.kinds import HUMAN, judge_runs


def _attempt(results, human=HUMAN, comparisons=None, **options):
    configs, _, _ = judge_runs()
    config = configs[results[0].template_name]
    return build_judge_attempt(results, human, config.rubric, template=config.template,
                               template_name=config.template_name, generator=config.generator.model,
                               judge=config.judge.model, source="offline", comparisons=comparisons, **options)


@pytest.fixture(scope="module")
def default():
    _, results, compared = judge_runs()
    return results["A"], compared, _attempt(results["A"], comparisons=compared)


def test_the_figures_are_the_page_figures_on_the_visible_cases(default):
    results, compared, attempt = default
    visible = [r for r in results if r.case.id not in HELD_OUT_CASES]
    kappa, readings = human_agreement(visible, HUMAN, default_rubric())
    figure = attempt["figures"]["visible"]["kappa"]
    assert figure == {"value": kappa.kappa, "ci95": [kappa.ci_low, kappa.ci_high], "n": kappa.n, "unit": "case"}
    pairs = [(r.grade.score, HUMAN[r.case.id]) for r in visible if r.grade.scored]
    assert figure["value"] == pytest.approx(cohen_kappa_score(*zip(*pairs), weights="quadratic", labels=range(11)))
    unscored = attempt["figures"]["visible"]["unscored"]
    k = sum(not r.grade.scored for r in visible)
    ci = binomtest(k, len(visible)).proportion_ci(method="exact")
    assert (unscored["k"], unscored["n"]) == (k, 9) and unscored["ci95"] == pytest.approx([ci.low, ci.high])
    bias, position_readings = position_bias(compared)
    assert attempt["figures"]["position"] == {"flip_rate": bias.flip_rate, "flips": bias.flips,
                                              "compared": bias.compared}
    assert [r["code"] for r in attempt["readings"]] == [r.code for r in [*readings, *position_readings]]
    assert attempt["inputs"]["human"] == HUMAN and attempt["inputs"]["template_name"] == "A"


def test_each_case_keeps_its_loss_and_the_held_out_cases_their_own_kappa(default):
    results, _, attempt = default
    by_id = {i["id"]: i for i in attempt["items"]}
    assert len(by_id) == 12 and {i for i, item in by_id.items() if item["held_out"]} == set(HELD_OUT_CASES)
    for r in results:
        item = by_id[r.case.id]
        assert item["score"] == r.grade.score and item["status"] == r.grade.status and item["text"] == r.response
        assert item["loss"] == (None if r.grade.score is None else (r.grade.score - HUMAN[r.case.id]) ** 2)
    hidden = [r for r in results if r.case.id in HELD_OUT_CASES]
    kappa, _ = human_agreement(hidden, HUMAN, default_rubric())
    held = attempt["figures"]["held_out"]["kappa"]
    assert held["n"] == sum(r.grade.scored for r in hidden)
    assert held["value"] == (None if kappa is None else kappa.kappa)


def test_without_human_scores_or_probe_nothing_is_invented():
    _, results, _ = judge_runs()
    attempt = _attempt(results["B"], human={})
    assert attempt["figures"]["visible"]["kappa"] == {"value": None, "ci95": None, "n": 0, "unit": "case"}
    assert attempt["figures"]["position"] is None
    assert all(i["loss"] is None and i["human"] is None for i in attempt["items"])
    assert attempt["readings"][0]["code"] == "human_too_few"


def test_no_held_out_case(default):
    results, _, _ = default
    attempt = _attempt(results, held_out_cases=())
    assert not any(i["held_out"] for i in attempt["items"])
    assert attempt["figures"]["held_out"]["unscored"]["n"] == 0
    assert attempt["figures"]["visible"]["kappa"]["n"] == sum(r.grade.scored for r in results)


@pytest.mark.parametrize("mutate, code", [
    (lambda a: a["items"][0].update(correct=True), "schema"),
    (lambda a: a["inputs"]["human"].update(x=-1), "schema"),
    (lambda a: a["figures"].pop("position"), "schema"),
    (lambda a: a["provenance"].update(judge="Bearer abcdefghijklmnopqrstuv"), "contains_key"),
])
def test_a_malformed_judge_attempt_is_refused(default, mutate, code):
    attempt = copy.deepcopy(default[2])
    mutate(attempt)
    with pytest.raises(RoomAttemptError) as error:
        validate_attempt(attempt)
    assert error.value.code == code

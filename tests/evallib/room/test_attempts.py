import copy

import pytest

from evallib.room.attempts import RoomAttemptError, build_trigger_attempt, validate_attempt
from evallib.triggering.comparison import mcnemar_exact, paired_correctness
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision, by_query, trigger_metrics
from evallib.triggering.report import evaluate
from tests.evallib.room.conftest import trigger_payload


@pytest.fixture(scope="module")
def real():
    catalogue = load_skills()
    queries = load_queries(catalogue)
    return catalogue, queries


def _rows(queries, answer, runs=2):
    return [RoutedDecision(q.id, q.query, q.expected, answer(q, run), run) for q in queries for run in range(runs)]


def test_a_trigger_attempt_keeps_the_page_figures_per_query_and_split_by_held_out(real):
    catalogue, queries = real
    # Right on even-numbered queries; a false activation of the first skill elsewhere; one error run.
    def answer(q, run):
        i = queries.index(q)
        if i == 3 and run == 1:
            return Decision("error", reason="timeout")
        return Decision("skill", q.expected) if q.expected and i % 2 == 0 else \
            Decision("none") if i % 2 == 0 else Decision("skill", catalogue.names[0])
    rows = _rows(queries, answer)
    baseline = _rows(queries, lambda q, run: Decision("skill", q.expected) if q.expected else Decision("none"))
    descriptions = {s.name: s.description + " edited" for s in catalogue.skills}
    attempt = build_trigger_attempt(rows, queries, descriptions, model="llama", source="recorded", runs=2,
                                    baseline_rows=baseline)
    held = {q.id for q in queries if q.held_out}
    page = evaluate(rows, catalogue, queries)  # the trigger page's report: every run, the query as the unit
    visible, hidden = page.visible, page.held_out
    assert attempt["figures"]["visible"]["accuracy"] == visible.accuracy.to_dict()
    assert attempt["figures"]["visible"]["recall"] == visible.recall.to_dict()
    assert attempt["figures"]["visible"]["false_activation_rate"] == visible.false_activation_rate.to_dict()
    assert attempt["figures"]["held_out"]["accuracy"] == hidden.accuracy.to_dict()
    # every scored run counted (one error run left out), the intervals over the visible queries
    assert attempt["figures"]["visible"]["accuracy"]["n"] == 2 * (len(queries) - len(held)) - (queries[3].id not in held)
    assert attempt["figures"]["visible"]["accuracy"]["items"] == len(queries) - len(held)
    # the items keep one outcome per query for the board's paired test: right only when every run was right
    per_query = {r.query_id: r for r in by_query(rows)}
    assert all(i["correct"] == (per_query[i["id"]].correct if per_query[i["id"]].decision.scored else None)
               for i in attempt["items"])
    assert [i["id"] for i in attempt["items"]] == [q.id for q in queries]
    assert sum(i["held_out"] for i in attempt["items"]) == len(held) > 0
    ids, before, after = paired_correctness([r for r in baseline if r.query_id not in held],
                                            [r for r in rows if r.query_id not in held])
    expected = mcnemar_exact(before, after)
    assert attempt["comparison"] == {"b": expected.b, "c": expected.c, "n": expected.n, "p_value": expected.p_value}
    assert not set(ids) & held
    assert attempt["readings"][0]["code"].startswith("mcnemar_")
    assert attempt["inputs"]["descriptions"] == descriptions
    assert attempt["version"] == 2 and attempt["unit"] == "query"


def test_an_error_is_kept_unscored_not_counted_as_wrong():
    attempt = trigger_payload([True, None, False])
    assert [i["correct"] for i in attempt["items"]] == [True, None, False]
    assert attempt["figures"]["visible"]["accuracy"]["n"] == 2
    assert attempt["comparison"] is None and attempt["readings"] == []


def test_decisions_for_an_unknown_query_are_refused(real):
    _, queries = real
    rows = [RoutedDecision("not-a-query", "q", None, Decision("none"))]
    with pytest.raises(RoomAttemptError) as error:
        build_trigger_attempt(rows, queries, {"a": "b"}, model="m", source="live", runs=1)
    assert error.value.code == "unknown_query"


@pytest.mark.parametrize("mutate, code", [
    (lambda a: a.update(version=3), "newer_version"),
    (lambda a: a.update(version="1"), "schema"),
    (lambda a: a["provenance"].update(api_key="sk-x"), "schema"),
    (lambda a: a["provenance"].update(model="sk-proj-abcdefghijklmnopqrstuvwx"), "contains_key"),
    (lambda a: a["inputs"]["descriptions"].update(a="Authorization: Bearer abcdefghijklmnopqrstu"), "contains_key"),
    (lambda a: a["items"][0].update(correct="yes"), "schema"),
    (lambda a: a.pop("figures"), "schema"),
    (lambda a: a.update(kind="persona"), "schema"),
    (lambda a: a["figures"]["visible"]["accuracy"].update(value=float("nan")), "not_json"),
])
def test_an_invalid_attempt_names_its_problem(mutate, code):
    attempt = copy.deepcopy(trigger_payload([True, False]))
    mutate(attempt)
    with pytest.raises(RoomAttemptError) as error:
        validate_attempt(attempt)
    assert error.value.code == code


def test_validation_returns_a_plain_json_copy():
    attempt = trigger_payload([True])
    clean = validate_attempt(attempt)
    assert clean == attempt and clean is not attempt
    with pytest.raises(RoomAttemptError) as error:
        validate_attempt(["not", "an", "object"])
    assert error.value.code == "not_object"


def test_each_query_keeps_its_scored_runs_and_right_ones_summing_to_the_figure(real):
    """The board's curse and ranks read each query's runs (evallib.room.outcomes): they add up to the figure."""
    catalogue, queries = real

    def answer(q, run):
        i = queries.index(q)
        if i % 5 == 0 and run == 2:
            return Decision("error")
        return Decision("skill", q.expected) if (i + run) % 3 else Decision("none")
    rows = _rows(queries, answer, runs=3)
    attempt = build_trigger_attempt(rows, queries, {s.name: s.description for s in catalogue.skills}, model="m",
                                    source="recorded", runs=3)
    for part, held in (("visible", False), ("held_out", True)):
        items = [i for i in attempt["items"] if i["held_out"] == held]
        figure = attempt["figures"][part]["accuracy"]
        assert sum(i["right"] for i in items) == figure["k"] and sum(i["runs"] for i in items) == figure["n"]
    by_id = {i["id"]: i for i in attempt["items"]}
    assert by_id[queries[0].id]["runs"] == 2 and by_id[queries[1].id]["runs"] == 3
    assert all(i["correct"] == (i["right"] == i["runs"]) for i in attempt["items"] if i["correct"] is not None)

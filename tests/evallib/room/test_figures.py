"""An attempt's figure (evallib.room.figures): what the page computes, the unit named, for each kind."""

from types import SimpleNamespace

import pytest

from evallib import persona
from evallib.room.board import build_board
from evallib.room.figures import Figure, attempt_figure, attempt_figures
from evallib.room.judge_attempt import build_judge_attempt
from evallib.room.persona_attempt import HELD_OUT_PROBE, build_persona_attempt
from evallib.room.attempts import build_trigger_attempt
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision
from evallib.triggering.report import evaluate
from tests.evallib.room.kinds import HUMAN, judge_runs, persona_responses


def _two_runs():
    """Decisions of two runs on the default queries: run 2 misroutes every third query (runs disagree)."""
    catalogue = load_skills()
    queries = load_queries(catalogue)
    rows = [RoutedDecision(q.id, q.query, q.expected,
                           Decision("none") if run == 1 and i % 3 == 0 else
                           Decision("skill", q.expected) if q.expected else Decision("none"), run)
            for i, q in enumerate(queries) for run in range(2)]
    return catalogue, queries, rows


def test_a_trigger_figure_is_the_pages_accuracy_over_runs_with_the_query_as_unit():
    catalogue, queries, rows = _two_runs()
    payload = build_trigger_attempt(rows, queries, {s.name: s.description for s in catalogue.skills},
                                    model="m", source="offline", runs=2)
    page = evaluate(rows, catalogue, queries)  # what the trigger page shows
    for part, rate in (("visible", page.visible.accuracy), ("held_out", page.held_out.accuracy)):
        figure = attempt_figure(payload, part)
        assert (figure.value, figure.low, figure.high, figure.n, figure.k) == \
            (rate.value, rate.low, rate.high, rate.n, rate.k)
        assert figure.unit == "query" and figure.units == rate.items and figure.observation == "decision"
    visible = attempt_figure(payload)
    assert visible.n == 2 * visible.units and visible.k < visible.n
    # the board ranks by that very figure, not by "every run right"
    board = build_board([SimpleNamespace(number=1, participant="A", payload=payload)])
    assert board.rows[0].accuracy == visible and board.winners_curse[0].held_out == attempt_figure(payload, "held_out")
    all_runs_right = sum(i["correct"] for i in payload["items"] if not i["held_out"]) / visible.units
    assert visible.value != pytest.approx(all_runs_right)


def test_a_persona_figure_is_the_visible_probes_measure_with_the_probe_as_unit():
    catalogue, responses = persona_responses()
    payload = build_persona_attempt(catalogue, responses, model="m", source="offline", n_permutations=50)
    visible, held = attempt_figures(payload).values()
    probes = [i for i in range(len(catalogue.probes)) if i != HELD_OUT_PROBE]
    cells = [(a, i) for a in catalogue.names for i in probes]
    result = persona.discriminability(tuple(responses[c].text for c in cells), tuple(c[0] for c in cells),
                                      tuple(c[1] for c in cells), classes=tuple(catalogue.names),
                                      n_probes=len(catalogue.probes), n_permutations=50)
    assert (visible.value, (visible.low, visible.high), visible.n) == \
        (result.accuracy, result.accuracy_interval, len(cells))
    assert visible.unit == "probe" and visible.units == len(probes) and visible.observation == "response"
    assert held.units == 1 and held.n == len(catalogue.names)


def test_a_judge_figure_is_the_visible_cases_kappa_with_the_case_as_unit():
    configs, runs, _ = judge_runs()
    config, results = configs["A"], runs["A"]
    payload = build_judge_attempt(results, HUMAN, config.rubric, template=config.template, template_name="A",
                                  generator="g", judge="j", source="offline")
    visible, held = attempt_figure(payload), attempt_figure(payload, "held_out")
    stored = payload["figures"]["visible"]["kappa"]
    assert (visible.value, [visible.low, visible.high], visible.n) == (stored["value"], stored["ci95"], stored["n"])
    scored = [i for i in payload["items"] if not i["held_out"] and i["loss"] is not None]  # judge and human scores
    assert visible.unit == "case" and visible.units == visible.n == len(scored) > 0
    held_scored = [i for i in payload["items"] if i["held_out"] and i["loss"] is not None]
    assert held.units == held.n == len(held_scored) and visible.k is None
    assert held.defined == (len(held_scored) > 1)  # the authored judge A scores no held-out case: undefined


def test_without_a_stored_figure_the_items_accuracy_one_item_one_unit():
    payload = {"kind": "persona", "items": [{"id": "a", "held_out": False, "correct": True, "probe": 0},
                                            {"id": "b", "held_out": False, "correct": False, "probe": 0},
                                            {"id": "c", "held_out": False, "correct": None, "probe": 1}]}
    figure = attempt_figure(payload)
    assert (figure.value, figure.n, figure.k, figure.units, figure.observation) == (0.5, 2, 1, 2, "item")
    assert attempt_figure(payload, "held_out") == Figure(None, None, None, 0)
    assert not attempt_figure({"kind": "judge", "items": []}).defined


def test_unknown_kind_or_part_is_refused():
    with pytest.raises(ValueError, match="kind"):
        attempt_figure({"kind": "gnss"})
    with pytest.raises(ValueError, match="part"):
        attempt_figure({"kind": "trigger"}, "all")


def test_the_held_out_reading_counts_the_intervals_units_not_the_runs():
    from types import SimpleNamespace

    from evallib.room.board import build_board

    catalogue, queries, rows = _two_runs()
    payload = build_trigger_attempt(rows, queries, {s.name: s.description for s in catalogue.skills},
                                    model="m", source="offline", runs=2)
    held = attempt_figure(payload, "held_out")
    board = build_board([SimpleNamespace(number=1, participant="Ana", payload=payload)])
    [curse] = board.winners_curse
    assert curse.reading.values["held_out_n"] == sum(q.held_out for q in queries) == held.n / 2
    assert curse.held_out == held

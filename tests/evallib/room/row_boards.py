"""Boards of every kind built from attempts as the pages store them (`build_*_attempt`), for the tests that
compare each number a sentence of the board quotes with its row (test_one_figure_per_row.py, and
tests/ui/test_room_row_figures.py for the sentences as worded)."""

from dataclasses import replace
from functools import cache
from types import SimpleNamespace

import numpy as np

from evallib.room.attempts import build_trigger_attempt
from evallib.room.board import RULES, Board, build_board
from evallib.room.judge_attempt import build_judge_attempt
from evallib.room.persona_attempt import build_persona_attempt
from evallib.triggering.data import LabelledQuery
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision
from tests.evallib.room.kinds import HUMAN, judge_runs, persona_responses

#: Every kind the board knows, and the rooms built for each (a kind added to the board and not here fails).
KINDS = tuple(RULES)
#: The rooms built (`boards`): trigger with several runs, with failed runs, with one run; persona; judge.
ROOMS = ("trigger_runs", "trigger_runs_failed", "trigger_one_run", "persona", "judge", "judge_code")
DRAWS = 100


def _entry(number, payload):
    return SimpleNamespace(number=number, participant=f"P{number}", payload=payload)


def trigger_attempts(runs: int, *, attempts: int = 6, visible: int = 16, held_out: int = 6, failed: float = 0.0,
                     seed: int = 3) -> list:
    """Trigger attempts on positive queries, each run right with the attempt's skill; a share ``failed`` of
    the runs errored (not a decision: the queries then have unequal scored runs)."""
    rng = np.random.default_rng(seed)
    queries = [LabelledQuery(f"v{i}", "q", "a") for i in range(visible)] + \
              [LabelledQuery(f"h{i}", "q", "a", held_out=True) for i in range(held_out)]
    entries = []
    for number, skill in enumerate(np.linspace(0.95, 0.7, attempts), start=1):
        rows = []
        for query in queries:
            easy = rng.random() < 0.5  # some queries right on every run, others mixed: runs of a query correlate
            for run in range(runs):
                if rng.random() < failed:
                    decision = Decision("error")
                elif easy or rng.random() < skill:
                    decision = Decision("skill", "a")
                else:
                    decision = Decision("none")
                rows.append(RoutedDecision(query.id, "q", "a", decision, run=run))
        entries.append(_entry(number, build_trigger_attempt(rows, queries, {"a": "does a"}, model="m",
                                                            source="recorded", runs=runs)))
    return entries


def persona_attempts(attempts: int = 5, seed: int = 4) -> list:
    """Persona attempts on the shipped catalogue (six probes, the last held out): the authored answers, with
    more and more answers exchanged between two assistants (each attempt less recognisable)."""
    catalogue, responses = persona_responses()
    rng = np.random.default_rng(seed)
    names, probes = catalogue.names, range(len(catalogue.probes))
    entries = []
    for number in range(1, attempts + 1):
        answers = dict(responses)
        for _ in range(2 * (number - 1)):
            a, b = rng.choice(len(names), 2, replace=False)
            probe = int(rng.choice(list(probes)))
            answers[(names[a], probe)], answers[(names[b], probe)] = responses[(names[b], probe)], \
                responses[(names[a], probe)]
        entries.append(_entry(number, build_persona_attempt(catalogue, answers, model="m", source="offline",
                                                            n_permutations=20)))
    return entries


def judge_attempts(human: dict, attempts: int = 5, seed: int = 6) -> list:
    """Judge attempts of template A whose grades are the scored grades of the authored runs (A and B)
    dealt out afresh per attempt: every case scored, totals that differ from attempt to attempt.
    ``human``: the human totals ({}: kind judge_code)."""
    configs, results, _ = judge_runs()
    config, base = configs["A"], results["A"]
    grades = [r.grade for name in "AB" for r in results[name] if r.grade.scored]
    rng = np.random.default_rng(seed)
    entries = []
    for number in range(1, attempts + 1):
        dealt = rng.choice(len(grades), len(base))
        chosen = [replace(r, grade=grades[int(g)]) for r, g in zip(base, dealt)]
        entries.append(_entry(number, build_judge_attempt(chosen, human, config.rubric, template=config.template,
                                                          template_name="A", generator=config.generator.model,
                                                          judge=config.judge.model, source="offline")))
    return entries


@cache
def boards() -> dict[str, tuple[Board, list]]:
    """(board, attempts) per room of `ROOMS`."""
    rooms = {"trigger_runs": trigger_attempts(3), "trigger_runs_failed": trigger_attempts(3, failed=0.15),
             "trigger_one_run": trigger_attempts(1), "persona": persona_attempts(),
             "judge": judge_attempts(HUMAN), "judge_code": judge_attempts({})}
    assert tuple(rooms) == ROOMS
    return {name: (build_board(entries, draws=DRAWS), entries) for name, entries in rooms.items()}

"""Running agents over the cases, the results table and the failure groups read from it (docs/gnss.md#failures).

`run_eval` never raises on an agent's output: an agent that raises is recorded as a malformed answer
(problem ``agent_error``), one that returns prose or a partial dict is graded by `score_case`.
`failure_groups` reads the table into `Reading`s, one per group of failures, so a page can word
them (codes ``failure_unmodelled_offset``, ``failure_small_offset_missed``, ``failure_false_alarm``,
``failure_short_record``, ``failure_malformed``, ``failure_other``, or ``all_passed``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import partial

import numpy as np
import pandas as pd

from evallib.gnss.agents import agent_v1
from evallib.gnss.cases import CASES, Case
from evallib.gnss.spec import SPEC_V1, Spec, describe_problems, score_case
from evallib.readings import Reading

Agent = Callable[[pd.DataFrame], object]
#: Records shorter than this are "short" (spec v3 switches tolerance at 5 years: docs/gnss.md#tolerances).
SHORT_RECORD_YEARS = 5.0


@dataclass(frozen=True)
class CaseResult:
    """One row of the results table: the case, its truth, the agent's answer and the grade.

    ``estimated_velocity``, ``flagged`` and ``estimated_day`` are None for a malformed answer;
    ``problems`` then lists why (``(code, values)`` pairs), ``problem_text`` says it in English.
    """

    case_id: str
    description: str
    n_years: float
    true_velocity: float
    true_offset: bool
    true_day: int | None
    coseismic_mm: float
    estimated_velocity: float | None
    flagged: bool | None
    estimated_day: int | None
    velocity_ok: bool
    flag_ok: bool
    day_ok: bool
    passed: bool
    problems: tuple[tuple[str, dict], ...]
    problem_text: str
    velocity_tol: float


def _call(agent: Agent, observed: pd.DataFrame) -> object:
    try:
        return agent(observed)
    except Exception as exc:  # an agent's crash is a graded failure, never the evaluation's
        return _AgentCrash(f"{type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class _AgentCrash:
    message: str


def grade(case_id: str, description: str, truth: dict, answer: object, spec: Spec) -> CaseResult:
    """One results row from an answer (any object) and the truth under ``spec``."""
    if isinstance(answer, _AgentCrash):
        score_problems: tuple = (("agent_error", {"error": answer.message}),)
        score = None
    else:
        score = score_case(answer, truth, spec)
        score_problems = score.problems
    valid = score is not None and not score.malformed
    return CaseResult(
        case_id, description, truth["n_years"], truth["velocity_mm_yr"], bool(truth["offset"]), truth["offset_day"],
        truth.get("coseismic_mm", 0.0),
        float(answer["velocity_mm_yr"]) if valid else None, bool(answer["offset"]) if valid else None,
        answer["offset_day"] if valid else None,
        valid and score.velocity_ok, valid and score.flag_ok, valid and score.day_ok, valid and score.passed,
        tuple(score_problems),
        answer.message if isinstance(answer, _AgentCrash) else describe_problems(list(score_problems)),
        spec.velocity_tol(truth["n_years"]))


def run_eval(agent: Agent, spec: Spec = SPEC_V1, cases: Iterable[Case] = CASES) -> list[CaseResult]:
    """Run ``agent`` on each case's observed table and grade it; one row per case, in case order."""
    rows = []
    for case in cases:
        series = case.load()
        rows.append(grade(case.case_id, case.description, series.truth, _call(agent, series.observed), spec))
    return rows


def results_frame(rows: list[CaseResult]) -> pd.DataFrame:
    """The results table as a DataFrame indexed by case id (problems as English text)."""
    records = [{k: v for k, v in asdict(r).items() if k != "problems"} for r in rows]
    return pd.DataFrame(records).set_index("case_id")


def pass_count(rows: list[CaseResult]) -> int:
    """Number of passed cases."""
    return sum(r.passed for r in rows)


def failure_groups(rows: list[CaseResult], models_offsets: bool) -> list[Reading]:
    """Group the failed cases by cause, as readings with the case ids each rests on.

    ``models_offsets`` says whether the agent's velocity model includes a step when it flags one
    (v1: False; v2 and MIDAS: True). A failed case joins every group that applies, in this order:

    - ``failure_malformed``: the answer broke the schema (values: cases, problems);
    - ``failure_unmodelled_offset``: a true offset, the velocity wrong and no step in the agent's
      velocity model (not modelled, or not flagged) (values: cases, offsets_mm);
    - ``failure_small_offset_missed``: a true offset not flagged (values: cases, offsets_mm, largest_missed_mm);
    - ``failure_false_alarm``: an offset flagged where none exists (values: cases);
    - ``failure_short_record``: a record under 5 years with the velocity wrong and no other velocity
      cause above (values: cases, n_years);
    - ``failure_other``: a failed case in no group above (e.g. an offset day off by more than the tolerance).

    Returns ``[Reading("all_passed", {"n": n})]`` when nothing failed (and for an empty table, n = 0).
    """
    groups: dict[str, list[CaseResult]] = {code: [] for code in (
        "failure_malformed", "failure_unmodelled_offset", "failure_small_offset_missed", "failure_false_alarm",
        "failure_short_record", "failure_other")}
    for r in rows:
        if r.passed:
            continue
        if r.problems:
            groups["failure_malformed"].append(r)
            continue
        joined = []
        unmodelled = r.true_offset and not r.velocity_ok and not (models_offsets and r.flagged)
        if unmodelled:
            joined.append("failure_unmodelled_offset")
        if r.true_offset and not r.flagged:
            joined.append("failure_small_offset_missed")
        if not r.true_offset and r.flagged:
            joined.append("failure_false_alarm")
        if not r.velocity_ok and not unmodelled and r.n_years < SHORT_RECORD_YEARS:
            joined.append("failure_short_record")
        for code in joined or ["failure_other"]:
            groups[code].append(r)
    readings = []
    for code, members in groups.items():
        if not members:
            continue
        values: dict[str, object] = {"cases": [r.case_id for r in members], "count": len(members)}
        if code in ("failure_unmodelled_offset", "failure_small_offset_missed"):
            values["offsets_mm"] = [r.coseismic_mm for r in members]
        if code == "failure_small_offset_missed":
            values["largest_missed_mm"] = max(r.coseismic_mm for r in members)
        if code == "failure_short_record":
            values["n_years"] = [r.n_years for r in members]
        if code == "failure_malformed":
            values["problems"] = [r.problem_text for r in members]
        readings.append(Reading(code, values))
    return readings or [Reading("all_passed", {"n": len(rows)})]


def false_alarms(rows: list[CaseResult]) -> list[str]:
    """Ids of the offset-free cases an agent flagged (the false-alarm class, docs/gnss.md#failures)."""
    return [r.case_id for r in rows if not r.true_offset and r.flagged]


@dataclass(frozen=True)
class AlarmThreshold:
    """Agent v1's results at the highest threshold (mm) where it raises a false alarm on the cases."""

    threshold_mm: float
    rows: list[CaseResult]


def highest_false_alarm_threshold(thresholds_mm: Iterable[float], spec: Spec = SPEC_V1,
                                  cases: Iterable[Case] = CASES) -> AlarmThreshold | None:
    """Re-run agent v1 on ``cases`` from the highest of ``thresholds_mm`` (mm) down, and stop at the first
    threshold where an offset-free case is flagged; None when no threshold tried raises a false alarm.

    Lowering v1's jump threshold (12 mm, docs/gnss.md#threshold) catches smaller offsets and raises false alarms: this
    finds where the false-alarm class first appears with our generator, without changing the default.
    """
    cases = list(cases)
    for threshold in sorted(set(float(x) for x in thresholds_mm), reverse=True):
        rows = run_eval(partial(agent_v1, jump_threshold_mm=threshold), spec, cases)
        if false_alarms(rows):
            return AlarmThreshold(threshold, rows)
    return None


def false_alarm_threshold_reading(default_rows: list[CaseResult], default_mm: float,
                                  found: AlarmThreshold | None) -> Reading:
    """Where agent v1's false-alarm class appears, read from its results at ``default_mm`` and ``found``:

    - ``alarm_at_default``: a false alarm already at the default threshold (values: threshold_mm, cases);
    - ``alarm_below``: none at the default, some at ``found.threshold_mm`` (values: threshold_mm, default_mm,
      cases, passes, n, default_passes);
    - ``alarm_never``: no false alarm at any threshold tried (values: default_mm).
    """
    at_default = false_alarms(default_rows)
    if at_default:
        return Reading("alarm_at_default", {"threshold_mm": float(default_mm), "cases": at_default})
    if found is None:
        return Reading("alarm_never", {"default_mm": float(default_mm)})
    return Reading("alarm_below", {"threshold_mm": found.threshold_mm, "default_mm": float(default_mm),
                                   "cases": false_alarms(found.rows), "passes": pass_count(found.rows),
                                   "n": len(found.rows), "default_passes": pass_count(default_rows)})


def first_alarm_comparison_reading(found: AlarmThreshold | None, thresholds_mm: Iterable[float],
                                   false_alarm_rate: Iterable[float], n_series: int) -> Reading:
    """Where agent v1's first false alarm comes as its threshold is lowered: on the cases (``found``, from
    `highest_false_alarm_threshold`) and on ``n_series`` fresh offset-free series (``false_alarm_rate`` per
    threshold, shape (k,), as `evallib.gnss.tolerances.jump_threshold_rates` returns it).

    The first false alarm is the highest threshold (mm) with one; both sides come from the same rule, so
    the page states each from its own computation and never one for the other. Codes:

    - ``cases_sooner``: the cases raise one at a higher threshold than the series;
    - ``series_sooner``: the series raise one at a higher threshold than the cases;
    - ``same_threshold``: both at the same threshold;
    - ``cases_never`` / ``series_never``: no threshold tried raises one on that side (the other's is given);
    - ``never``: no false alarm on either side.

    Values: cases_mm and cases (ids flagged there; None and [] without one), series_mm (None without one),
    n_cases (None without ``found``), n_series. Raises ValueError when the thresholds and rates differ in length.
    """
    thresholds, rates = np.asarray(list(thresholds_mm), float), np.asarray(list(false_alarm_rate), float)
    if thresholds.shape != rates.shape:
        raise ValueError(f"{thresholds.size} thresholds but {rates.size} false-alarm rates")
    loud = thresholds[rates > 0]
    series_mm = float(loud.max()) if loud.size else None
    cases_mm = None if found is None else float(found.threshold_mm)
    values = {"cases_mm": cases_mm, "cases": [] if found is None else false_alarms(found.rows),
              "series_mm": series_mm, "n_cases": None if found is None else len(found.rows), "n_series": int(n_series)}
    if cases_mm is None or series_mm is None:
        code = "never" if cases_mm is None and series_mm is None else ("cases_never" if cases_mm is None
                                                                       else "series_never")
    else:
        code = ("same_threshold" if np.isclose(cases_mm, series_mm)
                else "cases_sooner" if cases_mm > series_mm else "series_sooner")
    return Reading(code, values)


def summary_table(columns: dict[str, list[CaseResult]]) -> pd.DataFrame:
    """Pass/fail per case (rows) for each labelled run (columns, e.g. "agent v1, spec v1"), plus a
    ``passes`` row counting them. Raises ValueError when the runs do not cover the same cases."""
    ids = [[r.case_id for r in rows] for rows in columns.values()]
    if any(i != ids[0] for i in ids):
        raise ValueError("every run of the summary must cover the same cases in the same order")
    table = pd.DataFrame({label: [r.passed for r in rows] for label, rows in columns.items()},
                         index=pd.Index(ids[0] if ids else [], name="case_id"), dtype=object)
    table.loc["passes"] = [pass_count(rows) for rows in columns.values()]
    return table


@dataclass(frozen=True)
class VelocityComparison:
    """|velocity error| (mm/yr) of two agents per case; None where an agent gave no usable velocity."""

    case_ids: tuple[str, ...]
    errors_a: tuple[float | None, ...]
    errors_b: tuple[float | None, ...]


def compare_velocities(rows_a: list[CaseResult], rows_b: list[CaseResult]) -> tuple[VelocityComparison, Reading]:
    """Per-case velocity errors of two agents on the same cases, and a reading of the comparison.

    Reading ``velocity_comparison`` with values: n (cases where both estimated), a_closer, b_closer, ties,
    median_a, median_b (over those cases; None when n = 0), undefined_a, undefined_b (cases without a
    usable velocity). Raises ValueError when the rows do not cover the same cases.
    """
    if [r.case_id for r in rows_a] != [r.case_id for r in rows_b]:
        raise ValueError("both runs must cover the same cases in the same order")

    def error(r: CaseResult) -> float | None:
        return None if r.estimated_velocity is None else abs(r.estimated_velocity - r.true_velocity)

    errors_a, errors_b = tuple(map(error, rows_a)), tuple(map(error, rows_b))
    both = [(a, b) for a, b in zip(errors_a, errors_b) if a is not None and b is not None]
    values = {"n": len(both), "a_closer": sum(a < b for a, b in both), "b_closer": sum(b < a for a, b in both),
              "ties": sum(a == b for a, b in both),
              "median_a": float(np.median([a for a, _ in both])) if both else None,
              "median_b": float(np.median([b for _, b in both])) if both else None,
              "undefined_a": [r.case_id for r, e in zip(rows_a, errors_a) if e is None],
              "undefined_b": [r.case_id for r, e in zip(rows_b, errors_b) if e is None]}
    return (VelocityComparison(tuple(r.case_id for r in rows_a), errors_a, errors_b),
            Reading("velocity_comparison", values))

"""A GNSS run as a run bundle (`evallib.runs.bundle`), and the bundle back as the run it was.

``inputs`` (page "gnss"):

- ``spec``: ``version``, ``velocity_tol_bands`` (``[[min_years, mm/yr], ...]``), ``day_tol`` (days);
- ``thresholds``: ``v1`` (jump, mm) and ``v2`` (step, mm; MIDAS uses it too); ``agents``: the reference
  agents evaluated (among v1, v2, midas); ``held_out``: the designs with fresh seeds instead of the cases;
- ``text_model``: None, or the text model graded as an agent: ``model``, ``runs`` per case and the
  ``spec`` its prompt states and its answers are graded by (its requests and answers are the bundle's); ``station``: None, or an uploaded series: ``file`` (its name
  only, never a path), ``component`` and ``text`` (the file's content, so it is read again).

``report``: ``evaluation`` (what ``gnss --json`` printed: spec, spec text, agents with their cases and
failure groups), ``text_model`` (``gnss --recorded/--live``: passes, pass rate by case, graded
answers) and ``station`` (``gnss --file``: the estimates and readings), each present when its part is.
`load_gnss_bundle` computes all of it again from the inputs and the stored answers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from evallib.runs.replay import AnswerBook, book_of, matching_requests
from evallib.cluster_rates import ClusteredRate
from evallib.gnss.agents import agent_midas, agent_v1, agent_v2
from evallib.gnss.cases import CASES, held_out_cases
from evallib.gnss.evaluation import CaseResult, failure_groups, pass_count, run_eval
from evallib.gnss.live import case_requests, grade_live
from evallib.gnss.readers import COMPONENTS, GnssFileError, read_text, station_readings
from evallib.gnss.repeated import INTERVAL_UNIT, RunCase, overall_pass_rate
from evallib.gnss.spec import METHOD_V2, SPEC_V1, Spec, render_spec
from evallib.gnss.reference import STEP_SOURCES, StepsFileError, parse_steps
from evallib.gnss.station import estimate_station
from evallib.llm.request import ChatRequest, ChatResult
from evallib.runs.bundle import RunBundleError, make_run_bundle, read_run_bundle

PAGE = "gnss"
AGENT_NAMES = ("v1", "v2", "midas")
#: Whether an agent's velocity model includes the step it flags (for the failure groups).
MODELS_OFFSETS = {"v1": False, "v2": True, "midas": True}
#: Report entries that describe how the run went, not what its answers measure: kept as written.
RUN_FACTS = ("failures", "outcome", "exit_code")


@dataclass(frozen=True)
class TextModelRun:
    """A text model as the agent under ``spec``: each request as sent (case by case, run by run), its answer."""

    model: str
    runs: int
    requests: tuple[ChatRequest, ...]
    results: tuple[ChatResult | None, ...]
    spec: Spec = SPEC_V1


@dataclass(frozen=True)
class Station:
    """An uploaded daily series: its file name (no folder), component and content; where the reference
    takes its steps (`evallib.gnss.reference.STEP_SOURCES`) and, for ``file``, the steps file's text."""

    file: str
    component: str
    text: str
    step_source: str = "detected"
    steps_text: str = ""


@dataclass(frozen=True)
class GnssRun:
    """What a GNSS run is made of (module docstring)."""

    spec: Spec
    v1_threshold: float
    v2_threshold: float
    agents: tuple[str, ...] = AGENT_NAMES
    held_out: bool = False
    text_model: TextModelRun | None = None
    station: Station | None = None

    def agent_rows(self) -> dict[str, list[CaseResult]]:
        factories = {"v1": lambda o: agent_v1(o, self.v1_threshold), "v2": lambda o: agent_v2(o, self.v2_threshold),
                     "midas": lambda o: agent_midas(o, self.v2_threshold)}
        cases = held_out_cases() if self.held_out else list(CASES)
        return {name: run_eval(factories[name], self.spec, cases) for name in self.agents}


def case_row(r: CaseResult) -> dict:
    """One graded case as the reports write it."""
    return {"case": r.case_id, "description": r.description, "n_years": r.n_years, "true_velocity": r.true_velocity,
            "estimated_velocity": r.estimated_velocity, "true_offset": r.true_offset, "flagged": r.flagged,
            "true_day": r.true_day, "estimated_day": r.estimated_day, "velocity_tol": r.velocity_tol,
            "velocity_ok": r.velocity_ok, "offset_ok": r.flag_ok and r.day_ok, "passed": r.passed,
            "problems": r.problem_text}


def evaluation_report(run: GnssRun, rows: Mapping[str, list[CaseResult]] | None = None) -> dict:
    """The reference agents' evaluation (``gnss --json``): per agent, passes, cases and failure groups."""
    rows = rows if rows is not None else run.agent_rows()
    return {"spec": run.spec.version, "spec_text": render_spec(run.spec), "derived_from": run.spec.derived_from,
            "agents": {name: {"passes": pass_count(r), "cases": [case_row(x) for x in r],
                              "failure_groups": [{"code": g.code, **g.values}
                                                 for g in failure_groups(r, MODELS_OFFSETS[name])]}
                       for name, r in rows.items()}}


def text_model_rows(run: GnssRun) -> list[CaseResult]:
    """The graded answers of the text model, case by case (a request not answered is left out)."""
    model = run.text_model
    cells = case_requests(model.model, model.runs, model.spec)
    by_case: dict = {}
    for (case, _, _), result in zip(cells, model.results):
        answers = by_case.setdefault(case.case_id, (case, []))[1]
        if result is not None and result.error_kind != "missing_recording":
            answers.append(result)
    return [live.result for case, answers in by_case.values() for live in grade_live(case, answers, model.spec)
            if live.result]


def pass_rate_by_case(rows: Sequence[CaseResult]) -> ClusteredRate:
    """The pass rate of graded runs with the case as the unit of its interval (runs grouped by case id)."""
    return overall_pass_rate([RunCase(case_id, "", tuple(int(r.passed) for r in rows if r.case_id == case_id))
                              for case_id in dict.fromkeys(r.case_id for r in rows)])


def text_model_report(run: GnssRun, rows: Sequence[CaseResult] | None = None) -> dict:
    """The text model's grades (``gnss --recorded/--live``): passes, pass rate by case, graded answers."""
    rows = text_model_rows(run) if rows is None else rows
    rate = pass_rate_by_case(rows)
    return {"model": run.text_model.model, "runs": run.text_model.runs, "passes": pass_count(rows),
            "pass_rate": {**rate.to_dict(), "interval_unit": INTERVAL_UNIT}, "answers": [case_row(r) for r in rows]}


def station_report(run: GnssRun) -> dict:
    """The estimates on the uploaded series (``gnss --file``); raises `GnssFileError` on an unreadable one."""
    station = run.station
    series = read_text(station.text, station.file, station.component)
    observed = series.observed
    out = {"file": station.file, "station": series.station, "component": series.component, "days": len(observed),
           "first": str(observed["date"].iloc[0].date()), "last": str(observed["date"].iloc[-1].date()),
           **estimate_station(series, run.v1_threshold, run.v2_threshold, station.step_source,
                              parse_steps(station.steps_text, series.component) if station.step_source == "file"
                              else ()).as_dict()}
    out["readings"] = [{"code": r.code, **r.values} for r in station_readings(series)] + out["readings"]
    return out


def gnss_report(run: GnssRun) -> dict:
    """Every part of the report (module docstring) that ``run`` has."""
    report = {"evaluation": evaluation_report(run)} if run.agents else {}
    if run.text_model is not None:
        report["text_model"] = text_model_report(run)
    if run.station is not None:
        report["station"] = station_report(run)
    return report


def gnss_bundle(run: GnssRun, report: Mapping, made_by: str = "page") -> dict:
    """The run bundle of ``run`` with its ``report``. Raises `RunBundleError`."""
    requests, answers = [], []
    if run.text_model is not None:
        book = AnswerBook([r for r in run.text_model.results if r is not None])
        for request in run.text_model.requests:
            book.chat(request)
        requests, answers = book.requests_and_answers()
    inputs = {"spec": _spec_dict(run.spec),
              "thresholds": {"v1": run.v1_threshold, "v2": run.v2_threshold}, "agents": list(run.agents),
              "held_out": run.held_out,
              "text_model": None if run.text_model is None else {"model": run.text_model.model,
                                                                 "runs": run.text_model.runs,
                                                                 "spec": _spec_dict(run.text_model.spec)},
              "station": None if run.station is None else {"file": PurePath(run.station.file).name,
                                                           "component": run.station.component,
                                                           "text": run.station.text,
                                                           "step_source": run.station.step_source,
                                                           "steps_text": run.station.steps_text}}
    return make_run_bundle(PAGE, inputs=inputs, requests=requests, answers=answers, report=report, made_by=made_by)


def _spec_dict(spec: Spec) -> dict:
    return {"version": spec.version, "velocity_tol_bands": [list(b) for b in spec.velocity_tol_bands],
            "day_tol": spec.day_tol, "derived_from": spec.derived_from}


def _refuse(field: str, what: str):
    return RunBundleError("inputs", f"bundle inputs: {field} {what}", field=field)


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _refuse(field, "must be a non-negative number")
    return float(value)


def _spec(data: object) -> Spec:
    if not isinstance(data, dict) or not isinstance(data.get("version"), str) or not isinstance(
            data.get("velocity_tol_bands"), list) or not data["velocity_tol_bands"]:
        raise _refuse("spec", "must name a version and its velocity tolerances")
    bands = []
    for band in data["velocity_tol_bands"]:
        if not isinstance(band, list) or len(band) != 2:
            raise _refuse("spec/velocity_tol_bands", "are [min_years, tolerance] pairs")
        bands.append((_number(band[0], "spec/velocity_tol_bands"), _number(band[1], "spec/velocity_tol_bands")))
    day_tol = data.get("day_tol")
    if isinstance(day_tol, bool) or not isinstance(day_tol, int) or day_tol < 0 or any(t <= 0 for _, t in bands) \
            or min(b[0] for b in bands) != 0 or not isinstance(data.get("derived_from", {}), dict):
        raise _refuse("spec", "tolerances must be positive, cover every length and days be a whole number")
    return Spec(data["version"], tuple(bands), day_tol, METHOD_V2 if data["version"] != "v1" else "",
                data.get("derived_from", {}))


def _text_model(data: object, bundle: Mapping) -> TextModelRun | None:
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("model"), str) or isinstance(data.get("runs"), bool) \
            or not isinstance(data.get("runs"), int) or not 1 <= data["runs"] <= 100:
        raise _refuse("text_model", "must name a model and 1 to 100 runs")
    spec = _spec(data.get("spec"))
    cells = case_requests(data["model"], data["runs"], spec)
    stored = bundle["requests"]
    if len(stored) != len(cells):
        raise RunBundleError("requests", f"the bundle holds {len(stored)} requests, its inputs build {len(cells)}",
                             index=min(len(stored), len(cells)))
    sent = matching_requests([built for _, _, built in cells], stored)
    book = book_of(bundle)
    return TextModelRun(data["model"], data["runs"], tuple(sent), tuple(book.results.get(r.key()) for r in sent), spec)


def _station(data: object) -> Station | None:
    if data is None:
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("file", "component", "text")) \
            or data["component"] not in COMPONENTS or PurePath(data["file"]).name != data["file"]:
        raise _refuse("station", "must give a file name, a component (east, north, up) and the file's text")
    source, steps = data.get("step_source", "detected"), data.get("steps_text", "")
    if source not in STEP_SOURCES or not isinstance(steps, str):
        raise _refuse("station/step_source", f"must be one of {', '.join(STEP_SOURCES)}, with the steps file's text")
    return Station(data["file"], data["component"], data["text"], source, steps)


def run_of(bundle: Mapping) -> GnssRun:
    """The `GnssRun` of a bundle checked by `read_run_bundle`; raises `RunBundleError` (``inputs``, ``requests``)."""
    inputs = bundle["inputs"]
    spec = _spec(inputs.get("spec"))
    thresholds = inputs.get("thresholds")
    if not isinstance(thresholds, dict):
        raise _refuse("thresholds", "must give v1 and v2")
    agents = inputs.get("agents")
    if not isinstance(agents, list) or any(a not in AGENT_NAMES for a in agents) or len(set(agents)) != len(agents):
        raise _refuse("agents", f"must be among {', '.join(AGENT_NAMES)}")
    if not isinstance(inputs.get("held_out"), bool):
        raise _refuse("held_out", "must be true or false")
    if inputs.get("text_model") is None and bundle["requests"]:
        raise RunBundleError("requests", "the bundle holds requests but no text model asked them", index=0)
    return GnssRun(spec, _number(thresholds.get("v1"), "thresholds/v1"), _number(thresholds.get("v2"), "thresholds/v2"),
                   tuple(agents), inputs["held_out"], _text_model(inputs.get("text_model"), bundle),
                   _station(inputs.get("station")))


def load_gnss_bundle(bundle: Mapping) -> tuple[GnssRun, dict]:
    """(the run, its report recomputed) of a bundle checked by `read_run_bundle`; raises `RunBundleError`."""
    run = run_of(bundle)
    try:
        report = gnss_report(run)
    except GnssFileError as error:
        raise _refuse("station/text", f"cannot be read: {error}") from error
    except StepsFileError as error:
        raise _refuse("station/steps_text", f"cannot be read: {error}") from error
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise RunBundleError("answers", f"the bundle's answers cannot be graded: {error}") from error
    if "text_model" in report:
        stored = bundle["report"].get("text_model")
        report["text_model"] |= {k: stored[k] for k in RUN_FACTS if isinstance(stored, dict) and k in stored}
    return run, report


def read_gnss_bundle(raw: bytes | str) -> tuple[dict, GnssRun, dict]:
    """(bundle, run, recomputed report) of a file's text; raises `RunBundleError` before returning anything."""
    bundle = read_run_bundle(raw, PAGE)
    return (bundle, *load_gnss_bundle(bundle))

"""A judge run as a run bundle (`evallib.runs.bundle`), and the bundle back as the run it was.

``inputs`` (page "judge"): ``cases`` (`evallib.judging.data.cases_to_dict`), ``templates`` (name -> text,
the templates run, A before B), ``rubric`` (`Rubric.to_dict`), ``generator`` and ``judge`` (the fields of
`evallib.judging.requests.ModelSettings`), ``blinding``, ``template`` (the template the gate reads and
the verbosity probe pads), ``probes`` (None, or the case ids of the ``verbosity`` and ``pairwise``
probes), ``gate`` (``min_mean`` in points, ``max_unscored_share``) and, when the judge did not speak the
default French, ``judge_wording`` (the fields of `evallib.judging.wording.JudgeWording`). ``requests``: every
call of the chains in the order they are made; ``report``: `judge_report`, the dict ``python -m evallib judge`` writes.

The chains are replayed by the pipeline itself on an `evallib.runs.replay.AnswerBook`, one at a time:
the same requests are built from the inputs and answered by the stored results, so the grades,
analyses and probes are computed again, not copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields

from evallib.runs.replay import AnswerBook, book_of
from evallib.judging.data import Case, JudgeDataError, cases_to_dict, parse_cases
from evallib.judging.pipeline import (CaseResult, JudgeConfig, PaddedGrade, PairwiseComparison, run_pairwise,
                                      run_pipeline, run_verbosity)
from evallib.judging.report import DEFAULT_MAX_UNSCORED_SHARE, judge_gate, probes_to_dict, report_to_dict
from evallib.judging.requests import ModelSettings
from evallib.judging.rubric import Rubric, parse_rubric
from evallib.judging.templates import TEMPLATE_NAMES, check_template
from evallib.judging.wording import FRENCH_WORDING, JudgeWording, judge_wording
from evallib.llm.request import ChatResult
from evallib.runs.bundle import RunBundleError, make_run_bundle, read_run_bundle

PAGE = "judge"
#: Report entries that describe how the run went, not what its answers measure: kept as written.
RUN_FACTS = ("duration_s", "failures", "outcome", "exit_code")


@dataclass(frozen=True)
class JudgeRun:
    """One judge run: its inputs and every answer obtained (any order; replayed by request key)."""

    cases: tuple[Case, ...]
    templates: tuple[tuple[str, str], ...]
    rubric: Rubric
    generator: ModelSettings
    judge: ModelSettings
    answers: tuple[ChatResult, ...]
    blinding: bool = True
    template: str = "A"
    probes: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    min_mean: float = 0.0
    max_unscored_share: float = DEFAULT_MAX_UNSCORED_SHARE
    wording: JudgeWording = FRENCH_WORDING

    def configs(self) -> dict[str, JudgeConfig]:
        return {name: JudgeConfig(self.generator, self.judge, self.rubric, text, name, blinding=self.blinding,
                                  wording=self.wording)
                for name, text in self.templates}


@dataclass(frozen=True)
class JudgeReplay:
    """What the judge page draws: each template's results (a case no answer covers is not ``recorded``),
    the probes, the configs."""

    run: JudgeRun
    configs: dict[str, JudgeConfig]
    results: dict[str, list[CaseResult]]
    padded: list[PaddedGrade]
    compared: list[PairwiseComparison]


def replay(run: JudgeRun, book: AnswerBook | None = None) -> JudgeReplay:
    """The chains of ``run`` answered by its answers (a case none of them answers is left out)."""
    book = book or AnswerBook(run.answers)
    configs = run.configs()
    results = {name: run_pipeline(run.cases, config, book, 1) for name, config in configs.items()}
    padded, compared = [], []
    if run.probes is not None:
        verbosity, pairwise = map(set, run.probes)
        padded = run_verbosity([r for r in results[run.template] if r.case.id in verbosity], configs[run.template],
                               book, 1)
        if {"A", "B"} <= set(results):
            compared = run_pairwise([r for r in results["A"] if r.case.id in pairwise],
                                    [r for r in results["B"] if r.case.id in pairwise], configs["A"], book, 1)
    return JudgeReplay(run, configs, results, padded, compared)


def judge_report(shown: JudgeReplay) -> dict:
    """The JSON report: analyses of A (or the only template), B beside it, probes, the gate."""
    run, configs = shown.run, shown.configs
    results = {name: [r for r in done if r.recorded] for name, done in shown.results.items()}
    first = "A" if "A" in results else next(iter(results))
    data = report_to_dict(results[first], configs[first], results.get("B", []) if first == "A" else [])
    if run.probes is not None:
        data["probes"] = probes_to_dict(shown.padded, shown.compared, run.rubric.max_total)
    gate = judge_gate(results[run.template], run.min_mean, run.max_unscored_share)
    data["gate"] = {"template": run.template, "passed": gate.passed, "code": gate.reading.code,
                    "values": gate.reading.values}
    return data


def judge_bundle(run: JudgeRun, report: Mapping, made_by: str = "page") -> dict:
    """The run bundle of ``run`` with its ``report``. Raises `RunBundleError`."""
    book = AnswerBook(run.answers)
    replay(run, book)  # asks every request of the run, in order
    requests, answers = book.requests_and_answers()
    inputs = {"cases": cases_to_dict(run.cases), "templates": dict(run.templates), "rubric": run.rubric.to_dict(),
              "generator": asdict(run.generator), "judge": asdict(run.judge), "blinding": run.blinding,
              "template": run.template,
              "probes": None if run.probes is None else {"verbosity": list(run.probes[0]),
                                                         "pairwise": list(run.probes[1])},
              "gate": {"min_mean": run.min_mean, "max_unscored_share": run.max_unscored_share}}
    if run.wording != FRENCH_WORDING:  # the default wording is not written: older bundles read the same
        inputs["judge_wording"] = asdict(run.wording)
    return make_run_bundle(PAGE, inputs=inputs, requests=requests, answers=answers, report=report, made_by=made_by)


_SETTING_TYPES = {"model": (str,), "kind": (str,), "prefill": (bool,), "json_mode": (bool,),
                  "temperature": (int, float, type(None)), "max_tokens": (int,)}


def _settings(data: object, field: str) -> ModelSettings:
    names = {f.name for f in fields(ModelSettings)}
    if not isinstance(data, dict) or set(data) - names or "model" not in data or any(
            not isinstance(v, _SETTING_TYPES[k]) or isinstance(v, bool) and bool not in _SETTING_TYPES[k]
            for k, v in data.items()):
        raise RunBundleError("inputs", f"bundle inputs: {field} is not a model's settings", field=field)
    try:
        return ModelSettings(**data)
    except ValueError as error:
        raise RunBundleError("inputs", f"bundle inputs: {field}: {error}", field=field) from error


def _ids(value: object, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RunBundleError("inputs", f"bundle inputs: {field} is a list of case ids", field=field)
    return tuple(value)


def _fraction(gate: object, name: str, default: float, upper: float | None) -> float:
    value = gate.get(name, default) if isinstance(gate, dict) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or upper and value > upper:
        raise RunBundleError("inputs", f"bundle inputs: gate {name} is out of range", field=f"gate/{name}")
    return float(value)


def run_of(inputs: Mapping, answers: Sequence[ChatResult]) -> JudgeRun:
    """The `JudgeRun` of a bundle's inputs (checked) and answers; raises `RunBundleError` ``inputs``."""
    try:
        cases = parse_cases(inputs.get("cases"))
        rubric = parse_rubric(inputs.get("rubric"))
        templates = inputs.get("templates")
        if not isinstance(templates, dict) or not templates or set(templates) - set(TEMPLATE_NAMES):
            raise RunBundleError("inputs", "bundle inputs: templates are A and/or B", field="templates")
        for name, text in templates.items():
            check_template(text, name)
        wording = judge_wording({"judge": inputs["judge_wording"]}) if "judge_wording" in inputs else FRENCH_WORDING
    except JudgeDataError as error:
        raise RunBundleError("inputs", f"bundle inputs: {error}",
                             field="cases/rubric/templates/judge_wording") from error
    template, blinding, probes = inputs.get("template"), inputs.get("blinding"), inputs.get("probes")
    if template not in templates or not isinstance(blinding, bool):
        raise RunBundleError("inputs", "bundle inputs: template or blinding", field="template")
    if probes is not None and not isinstance(probes, dict):
        raise RunBundleError("inputs", "bundle inputs: probes", field="probes")
    gate = inputs.get("gate")
    return JudgeRun(cases, tuple(sorted(templates.items())), rubric, _settings(inputs.get("generator"), "generator"),
                    _settings(inputs.get("judge"), "judge"), tuple(answers), blinding, template,
                    None if probes is None else (_ids(probes.get("verbosity"), "probes/verbosity"),
                                                 _ids(probes.get("pairwise"), "probes/pairwise")),
                    _fraction(gate, "min_mean", 0.0, None),
                    _fraction(gate, "max_unscored_share", DEFAULT_MAX_UNSCORED_SHARE, 1.0), wording)


def load_judge_bundle(bundle: Mapping) -> tuple[JudgeReplay, dict]:
    """(the replayed run, its report recomputed) of a bundle checked by `read_run_bundle`.

    Raises `RunBundleError`: ``inputs`` (details: field), ``requests`` when the replay asks a request the
    bundle does not hold or leaves one of its requests unasked (the inputs were edited), ``answers``.
    """
    stored = book_of(bundle)
    run = run_of(bundle["inputs"], tuple(stored.results.values()))
    book = AnswerBook(run.answers)
    try:
        shown = replay(run, book)
        report = judge_report(shown)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise RunBundleError("answers", f"the bundle's answers cannot be read as a judge run: {error}") from error
    asked = list(book.asked)
    expected = [r["key"] for r in bundle["requests"]]
    if asked != expected:
        index = next((i for i, (a, b) in enumerate(zip(asked, expected)) if a != b), min(len(asked), len(expected)))
        raise RunBundleError("requests", f"request {index + 1} of the bundle is not what its inputs ask", index=index)
    report |= {k: bundle["report"][k] for k in RUN_FACTS if k in bundle["report"]}
    return shown, report


def read_judge_bundle(raw: bytes | str) -> tuple[dict, JudgeReplay, dict]:
    """(bundle, replayed run, recomputed report) of a file's text; raises `RunBundleError` before returning."""
    bundle = read_run_bundle(raw, PAGE)
    return (bundle, *load_judge_bundle(bundle))

"""Authored offline recordings: hand-written responses and judge replies, replayable offline.

``packs/fr/judging_authored.json`` holds, per case, the responses of an example assistant under
templates A and B and the example judge's replies to every request the pipeline sends for them: the
grading of each response, the grading of the cleaned copy of a response flagged for injection, of
the padded copies (verbosity probe, on ``verbosity_cases``) and the pairwise verdicts in both orders
(on ``pairwise_cases``). It includes realistic failures so that the offline demo shows each status:
a response that is not valid JSON, a judge reply in prose, a total that is not the sum, a reply cut
by max_tokens, a score out of range, an empty reply, an empty response (scored 0 by code) and a
response that talks to the grader. A text is a string or a list of lines; ``{"text", "finish_reason"}``
marks a cut or empty answer. No token count or latency is invented: those fields stay empty.

`write_authored_recordings` builds the requests exactly as `evallib.judging.pipeline` does (default
rubric, templates A and B, blinding on) and stores each answer in ``packs/fr/recordings/judge.jsonl`` with
provenance ``{"source": "authored", ...}``.
"""

from __future__ import annotations

import json
from pathlib import Path

from evallib.judging.data import DATA, DEFAULT_CASES, JudgeDataError, load_cases
from evallib.judging.injection import injection_flags, without_injection
from evallib.judging.judge_prompt import blind, pad
from evallib.judging.requests import ModelSettings, generation_request, judge_request, pairwise_request
from evallib.judging.rubric import DEFAULT_PROMPTS, parse_rubric
from evallib.judging.templates import TEMPLATE_NAMES
from evallib.judging.wording import judge_wording
from evallib.llm import ChatRequest, ChatResult, Recordings
from evallib.llm.answers import answer_status

AUTHORED = DATA / "judging_authored.json"
#: Recording set (file stem under recordings/) of the judge page.
JUDGE_SET = "judge"


class AuthoredError(JudgeDataError):
    """The authored file does not cover a request the pipeline sends (code ``authored_incomplete``)."""


def _text(value) -> tuple[str, str]:
    """(text, finish_reason) of an authored answer."""
    if isinstance(value, dict):
        return _text(value["text"])[0], value["finish_reason"]
    return ("\n".join(value) if isinstance(value, list) else value), "stop"


def _result(request: ChatRequest, value) -> ChatResult:
    text, finish_reason = _text(value)
    status, hint = answer_status(text, finish_reason, "", False)
    return ChatResult(request_key=request.key(), model=request.model, text=text, finish_reason=finish_reason,
                      status=status, hint=hint)


def _written(entry: dict, section: str, name: str, case_id: str):
    try:
        return entry[section][name]
    except KeyError:
        raise AuthoredError("authored_incomplete", f"case {case_id!r}: no {section} for {name}", case=case_id,
                            section=section, name=name) from None


def load_authored(path: str | Path = AUTHORED) -> dict:
    """The authored file, parsed."""
    return json.loads(Path(path).read_text(encoding="utf-8-sig"))


def authored_settings(data: dict | None = None) -> tuple[ModelSettings, ModelSettings]:
    """(generator, judge) settings under which the authored answers were recorded."""
    data = data or load_authored()
    return ModelSettings(**data["generator"]), ModelSettings(**data["judge"])


def authored_recordings(path: str | Path = AUTHORED, cases_path: str | Path = DEFAULT_CASES,
                        prompts_path: str | Path = DEFAULT_PROMPTS) -> list[tuple[ChatRequest, ChatResult]]:
    """(request, result) for every authored answer, the requests built from the cases of ``cases_path``
    and the rubric, templates and judge wording of ``prompts_path``. Raises `AuthoredError` when one is missing."""
    data = load_authored(path)
    generator, judge = authored_settings(data)
    prompts = json.loads(Path(prompts_path).read_text(encoding="utf-8-sig"))
    rubric, templates, wording = parse_rubric(prompts["rubric"]), dict(prompts["templates"]), judge_wording(prompts)
    recorded = []
    for case in load_cases(cases_path):
        entry = data["cases"].get(case.id)
        if entry is None:
            raise AuthoredError("authored_incomplete", f"case {case.id!r} has no authored answers", case=case.id,
                                section="cases", name=case.id)
        graded = {}
        for name in TEMPLATE_NAMES:
            request = generation_request(case, templates[name], generator, name)
            recorded.append((request, _result(request, _written(entry, "responses", name, case.id))))
            response = recorded[-1][1].text
            if not response.strip():
                continue
            graded[name] = blind(response)[0]
            request = judge_request(case, graded[name], rubric, judge, wording)
            recorded.append((request, _result(request, _written(entry, "grades", name, case.id))))
            if injection_flags(response, rubric.names):
                cleaned = without_injection(graded[name], rubric.names)
                request = judge_request(case, cleaned, rubric, judge, wording)
                recorded.append((request, _result(request, _written(entry, "clean_grade", name, case.id))))
        if case.id in data["verbosity_cases"]:
            request = judge_request(case, pad(graded["A"], wording), rubric, judge, wording)
            recorded.append((request, _result(request, _written(entry, "padded_grade", "A", case.id))))
        if case.id in data["pairwise_cases"] and graded["A"].strip() != graded["B"].strip():
            for order, (first, second) in (("ab", ("A", "B")), ("ba", ("B", "A"))):
                request = pairwise_request(case, graded[first], graded[second], rubric, judge, wording)
                recorded.append((request, _result(request, _written(entry, "pairwise", order, case.id))))
    return recorded


def write_authored_recordings(recordings_dir: str | Path, path: str | Path = AUTHORED) -> int:
    """Record every authored answer into ``<recordings_dir>/judge.jsonl``; returns how many."""
    store = Recordings(recordings_dir)
    note = load_authored(path)["note"]
    recorded = authored_recordings(path)
    for request, result in recorded:
        store.add(JUDGE_SET, request, result, {"source": "authored", "model": request.model, "note": note})
    return len(recorded)


def recorded_models(recordings: Recordings) -> list[str]:
    """Models with recordings in the judge set, sorted (what offline mode can replay)."""
    return sorted({r.request.model for r in recordings.in_set(JUDGE_SET)})

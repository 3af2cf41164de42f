"""The live agent's building blocks: the request sent to a model, its answer read as data, authored recordings.

The model gets the spec's text and the consecutive 30-day means of the series (about 120 numbers for
10 years: deliberately a text engine facing a regression problem, docs/gnss.md#live). Its answer is parsed with
`json.loads` only (never evaluated as code) and graded by the same guard and grader as the reference
agents, so prose, a missing key or a day given as a bin index are scored failures, not crashes.
Recordings go to ``packs/fr/recordings/gnss.jsonl`` (set `GNSS_SET`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from evallib.errors import InputError
from evallib.gnss.cases import CASES, Case, case_by_id
from evallib.gnss.evaluation import CaseResult, grade
from evallib.gnss.spec import SPEC_V1, Spec, render_spec
from evallib.llm import ChatRequest, ChatResult, Recordings
from evallib.packs.layout import builtin_file

GNSS_SET = "gnss"
AUTHORED_ANSWERS = builtin_file("gnss_authored_answers.json")
#: Seed 001 sends 30-day means rounded to 0.1 mm.
MEAN_WINDOW_DAYS = 30
MEAN_DECIMALS = 1
#: Room for a JSON object and a short preamble; a longer answer is cut (finish_reason "length").
MAX_TOKENS = 400
DEFAULT_RUNS = 3
INSTRUCTION = ("Answer with ONLY the JSON object described under OUTPUT. offset_day must be a day index, "
               "not a bin index.")


class AuthoredAnswersError(InputError):
    """The authored answers file lacks a case or a run (code ``authored_incomplete``)."""


def window_means(observed: pd.DataFrame, window: int = MEAN_WINDOW_DAYS) -> np.ndarray:
    """Means of consecutive ``window``-sample bins of ``disp_mm`` (the last bin may be shorter), shape (ceil(n/w),)."""
    d = observed["disp_mm"].to_numpy(dtype=float)
    return np.round(pd.Series(d).groupby(np.arange(len(d)) // window).mean().to_numpy(), MEAN_DECIMALS)


def user_prompt(observed: pd.DataFrame, spec: Spec = SPEC_V1) -> str:
    """The spec, the 30-day means (bin i covers days 30i to 30i + 29) and the answer instruction."""
    means = ", ".join(f"{v:.{MEAN_DECIMALS}f}" for v in window_means(observed))
    return (f"{render_spec(spec)}\n\nDATA: consecutive {MEAN_WINDOW_DAYS}-day means of disp_mm, in mm "
            f"(bin i covers days {MEAN_WINDOW_DAYS}*i to {MEAN_WINDOW_DAYS}*i + {MEAN_WINDOW_DAYS - 1}):\n"
            f"{means}\n\n{INSTRUCTION}")


def build_request(observed: pd.DataFrame, model: str, spec: Spec = SPEC_V1, repeat: int = 0,
                  temperature: float | None = None) -> ChatRequest:
    """One `ChatRequest` for a series; ``repeat`` distinguishes the N runs of one case (part of the key)."""
    return ChatRequest.single(model, "", user_prompt(observed, spec), temperature=temperature,
                              max_tokens=MAX_TOKENS, repeat=repeat)


def parse_answer(text: str) -> object:
    """The JSON object between the first ``{`` and the last ``}`` of ``text`` (`json.loads`, never eval).

    Returns the parsed value, or the text itself when no JSON object can be read (the schema guard
    then scores it as "not a dict: str").

    >>> parse_answer('Sure! {"velocity_mm_yr": 12.1, "offset": false, "offset_day": null}')
    {'velocity_mm_yr': 12.1, 'offset': False, 'offset_day': None}
    >>> parse_answer("about 12 mm/yr")
    'about 12 mm/yr'
    """
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return text
    try:
        return json.loads(text[start:end + 1])
    except ValueError:
        return text


@dataclass(frozen=True)
class LiveRun:
    """One run of the live agent on a case: the grade, or the call's error (an error is not an answer).

    ``error`` is English (scripts, the command line); ``error_details`` the same failure as data
    (`evallib.llm.request.ChatResult.error_details`), for a page to word in its language.
    """

    case_id: str
    repeat: int
    result: CaseResult | None
    error: str = ""
    error_details: dict = field(default_factory=dict)


def grade_live(case: Case, chat_results: list[ChatResult], spec: Spec = SPEC_V1) -> list[LiveRun]:
    """Grade each run's answer on ``case``; a failed call (status "error") stays an error, ungraded."""
    truth = case.load().truth
    runs = []
    for repeat, chat in enumerate(chat_results):
        if chat.failed:
            runs.append(LiveRun(case.case_id, repeat, None, f"{chat.error_kind}: {chat.error}", chat.error_details))
        else:
            runs.append(LiveRun(case.case_id, repeat,
                                grade(case.case_id, case.description, truth, parse_answer(chat.text), spec)))
    return runs


def authored_recordings(path: str | Path = AUTHORED_ANSWERS) -> list[tuple[ChatRequest, ChatResult, dict]]:
    """(request, result, provenance) for each hand-written answer of ``path``.

    The file lists models, each with a note and, per case id, one answer text per run. Raises
    `AuthoredAnswersError` naming the model and case when a case of the set is missing or has no runs,
    and KeyError for an unknown case id.
    """
    written = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    recorded = []
    for entry in written["models"]:
        model = entry["model"]
        missing = [c.case_id for c in CASES if not entry["answers"].get(c.case_id)]
        if missing:
            raise AuthoredAnswersError("authored_incomplete", f"{model}: no answers for {', '.join(missing)}",
                                       model=model, cases=missing)
        provenance = {"source": "authored", "model": model, "note": entry["note"]}
        for case_id, texts in entry["answers"].items():
            observed = case_by_id(case_id).load().observed
            for repeat, text in enumerate(texts):
                request = build_request(observed, model, repeat=repeat)
                recorded.append((request, ChatResult(request_key=request.key(), model=model, text=text,
                                                     finish_reason="stop"), provenance))
    return recorded


def write_authored_recordings(recordings_dir: str | Path, path: str | Path = AUTHORED_ANSWERS) -> int:
    """Record every authored answer into ``<recordings_dir>/gnss.jsonl``; returns how many."""
    store = Recordings(recordings_dir)
    recorded = authored_recordings(path)
    for request, result, provenance in recorded:
        store.add(GNSS_SET, request, result, provenance)
    return len(recorded)


def case_requests(model: str, runs: int, spec: Spec = SPEC_V1, cases=CASES) -> list[tuple[Case, int, ChatRequest]]:
    """The live agent's default requests: ``runs`` runs of each case, as (case, repeat, request).

    What the page collects and ``python -m evallib record gnss`` records. Raises ValueError when ``runs`` < 1.
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    return [(case, repeat, build_request(observed, model, spec, repeat=repeat))
            for case in cases for observed in (case.load().observed,) for repeat in range(runs)]

"""Reading and validating the judge's answer: a `Grade` with a status, never a default score.

Extraction (`own_object`) is tolerant of what judges write around their JSON: ``<think>`` blocks,
code fences, prose before and after, invisible characters (removed first: a reader does not see
them either). It takes the judge's own LAST top-level object: an object whose text also occurs in
the graded response is one the judge quoted from it (an injected grade, say), not its own; when the
judge wrote nothing but such a copy and it reads as a grade, it is kept as ``copied_from_response``
(unscored, its values shown: the injection probe reads an obeyed injection from it). Text after a complete object (a
closing remark, a brace in prose, the point where max_tokens cut a closing remark) does not undo it:
only an object begun after it and never closed makes the answer ``truncated``.

Keys are read as a reader sees them (`key_name`): without regard to case, surrounding spaces or
invisible characters (``"Format "``, ``"TOTAL"`` and ``"total"`` are one key). The total is read from
the first of `TOTAL_KEYS` present (``total``, else ``score``, else ``overall``).

Validation (`validate`) is strict: every field present, every criterion an integer (a JSON ``8.5``,
``"3"``, ``"8/10"`` or ``true`` is not one, and is not rounded or read into one) within its range,
and the total equal to the sum of the criteria. Statuses (`STATUSES`):

- ``scored``: a valid grade; the only status that enters means.
- ``unparseable``: no object of the judge's own (none, or only a copy of one in the graded
  response), invalid JSON (Python's ``True`` included), a field missing, twice with different
  values, or of the wrong type (``problem`` and ``details`` say which).
- ``out_of_range``: an integer outside its criterion's range (or the total outside 0..max).
- ``inconsistent``: the total is not the sum of the criteria.
- ``truncated``: the answer was cut at max_tokens before any complete object, or ends inside an
  unclosed object.
- ``empty``: the judge returned no text.
- ``error``: the call failed, or there was no response to grade (the generation failed).

The course material's fallback (a neutral 5 when the judge's output cannot be parsed) is deliberately absent:
docs/README.md#peers records how such defaults corrupted other tools' means.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from evallib.judging.judge_prompt import INVISIBLE
from evallib.judging.rubric import TOTAL_KEYS, Rubric
from evallib.llm import ChatResult
from evallib.llm.answers import split_reasoning

STATUSES = ("scored", "unparseable", "out_of_range", "inconsistent", "truncated", "empty", "error")
TEXT_FIELDS = ("strengths", "weaknesses", "reasoning")
#: Keys (as `key_name` reads them) only a grade holds: an object with none of them is not the answer.
GRADE_FIELDS = (*TEXT_FIELDS, "scores", *TOTAL_KEYS)
VERDICTS = ("first", "second", "tie")
_DECODER = json.JSONDecoder()
#: Strings and braces, the only tokens that decide where an object ends (C-speed tokenising).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}]', re.DOTALL)
_KEY = re.compile(r'"\s*:')
_SPACE = re.compile(r"\s+")
_INVISIBLE = re.compile(f"[{INVISIBLE}]")


@dataclass(frozen=True)
class Grade:
    """The judge's grade of one response, or why there is none.

    ``scores``/``total``: what the judge wrote when they were integers (kept for display whatever the
    status); ``score`` is the total only when ``status == "scored"``. ``problem`` names the defect
    (no_object, copied_from_response, invalid_json, missing_field, ambiguous_field, not_integer,
    not_text, out_of_range, total_mismatch, cut, unclosed_object, empty_reply, call_failed,
    generation_failed, empty_response) and
    ``details`` its values. ``by`` is "judge" or "code" (an empty response is scored 0 by code).
    """

    status: str
    scores: dict = field(default_factory=dict)
    total: int | None = None
    strengths: str = ""
    weaknesses: str = ""
    reasoning: str = ""
    problem: str = ""
    details: dict = field(default_factory=dict)
    raw: str = ""
    by: str = "judge"

    @property
    def scored(self) -> bool:
        return self.status == "scored"

    @property
    def score(self) -> int | None:
        """The total of a scored grade, else None (never a default)."""
        return self.total if self.scored else None

    def to_dict(self) -> dict:
        return {"status": self.status, "score": self.score, "scores": self.scores, "total": self.total,
                "strengths": self.strengths, "weaknesses": self.weaknesses, "reasoning": self.reasoning,
                "problem": self.problem, "details": self.details, "raw": self.raw, "by": self.by}


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    value: object = None
    valid: bool = True
    error: str = ""


def _closing(text: str, start: int) -> int | None:
    """Index just past the brace closing the one at ``start`` (strings respected), or None."""
    depth = 0
    for token in _TOKENS.finditer(text, start):
        if token.group() == "{":
            depth += 1
        elif token.group() == "}":
            depth -= 1
            if depth == 0:
                return token.end()
    return None


def _objects(text: str) -> tuple[list[_Span], int | None]:
    """Top-level objects of ``text`` in order, and where an unclosed one starts (None if none)."""
    spans, i = [], text.find("{")
    while i >= 0:
        try:
            value, end = _DECODER.raw_decode(text, i)
            spans.append(_Span(i, end, value))
        except json.JSONDecodeError as exc:
            end = _closing(text, i)
            if end is None:
                return spans, i
            if _KEY.search(text, i, end):
                spans.append(_Span(i, end, valid=False, error=f"{exc.msg} (column {exc.colno})"))
            else:
                end = i + 1  # a brace in prose: look inside
        i = text.find("{", end)
    return spans, None


def _collapsed(text: str) -> str:
    return _SPACE.sub(" ", _INVISIBLE.sub("", text)).strip()


def _answers(span: _Span, keys: tuple[str, ...]) -> bool:
    return isinstance(span.value, dict) and any(key_name(k) in keys for k in span.value)


def own_object(text: str, quoted_from: str = "", keys: tuple[str, ...] = ()) -> tuple[_Span | None, bool, bool]:
    """(the judge's object, whether an object is left unclosed after it, whether it is copied).

    The judge's object is its last top-level object not quoted from ``quoted_from`` that holds one of
    ``keys`` (an example it gives after its grade, ``{"Effect": "Deny"}``, is not its answer), else its
    last object; when all its objects are quoted from it, the last of them, ``copied``.
    """
    answer, _ = split_reasoning(_INVISIBLE.sub("", text))
    spans, unclosed = _objects(answer)
    source = _collapsed(quoted_from)
    own = [s for s in spans if not (source and _collapsed(answer[s.start:s.end]) in source)]
    own = [s for s in own if _answers(s, keys)] or own
    last = own[-1] if own else spans[-1] if spans else None
    # After a complete object, a brace that never closes cuts the answer only if an object began
    # there (a key follows it); otherwise it is a brace in a closing remark ("use {region}...").
    cut = unclosed is not None and (last is None or unclosed > last.start and bool(_KEY.search(answer, unclosed)))
    return last, cut, last is not None and not own


def key_name(key: object) -> str:
    """A key as it is compared: without invisible characters or surrounding spaces, case folded.

    >>> key_name(" To\u200btal "), key_name("FORMAT")
    ('total', 'format')
    """
    return _INVISIBLE.sub("", str(key)).strip().casefold()


def _by_name(obj: dict) -> tuple[dict, set[str]]:
    """``obj`` keyed by `key_name`, and the names two of its keys share with different values."""
    named, clashes = {}, set()
    for key, value in obj.items():
        name = key_name(key)
        if name in named and named[name] != value:
            clashes.add(name)
        named.setdefault(name, value)
    return named, clashes


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate(obj: object, rubric: Rubric, raw: str = "") -> Grade:
    """Check a parsed object against ``rubric``: see the module docstring for the rules and statuses.

    The criteria are read from ``obj["scores"]``, or from ``obj`` itself when it has no ``scores``
    (the flat arguments of the forced tool call); keys by `key_name`, the total from `TOTAL_KEYS`.
    """
    if not isinstance(obj, dict):
        return Grade("unparseable", problem="no_object", raw=raw)
    top, top_clashes = _by_name(obj)
    texts = {}
    for name in TEXT_FIELDS:
        if name not in top:
            return Grade("unparseable", problem="missing_field", details={"field": name}, raw=raw)
        value = top[name]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = "\n".join(value)
        if not isinstance(value, str):
            return Grade("unparseable", problem="not_text", details={"field": name, "value": repr(value)}, raw=raw)
        texts[name] = value
    scores_source = top.get("scores", obj)
    if not isinstance(scores_source, dict):
        return Grade("unparseable", problem="missing_field", details={"field": "scores"}, raw=raw, **texts)
    named, clashes = _by_name(scores_source) if scores_source is not obj else (top, top_clashes)
    total_key = next((key for key in TOTAL_KEYS if key in top), TOTAL_KEYS[0])
    fields = [(c.name, named, clashes, key_name(c.name), c.max_points) for c in rubric.criteria]
    fields.append(("total", top, top_clashes, total_key, rubric.max_total))
    for name, source, ambiguous, key, _ in fields:
        if key in ambiguous:
            return Grade("unparseable", problem="ambiguous_field", details={"field": name}, raw=raw, **texts)
        if key not in source:
            return Grade("unparseable", problem="missing_field", details={"field": name}, raw=raw, **texts)
        if not _integer(source[key]):
            return Grade("unparseable", problem="not_integer", details={"field": name, "value": repr(source[key])},
                         raw=raw, **texts)
    scores = {c.name: named[key_name(c.name)] for c in rubric.criteria}
    total = top[total_key]
    kept = {"scores": scores, "total": total, "raw": raw, **texts}
    for name, source, _, key, maximum in fields:
        if not 0 <= source[key] <= maximum:
            return Grade("out_of_range", problem="out_of_range",
                         details={"field": name, "value": source[key], "max": maximum}, **kept)
    if total != sum(scores.values()):
        return Grade("inconsistent", problem="total_mismatch", details={"total": total, "sum": sum(scores.values())},
                     **kept)
    return Grade("scored", **kept)


def _tool_arguments(result: ChatResult) -> tuple[object, str]:
    arguments = result.tool_calls[0].get("arguments")
    if isinstance(arguments, str):
        try:
            return json.loads(_INVISIBLE.sub("", arguments)), arguments
        except json.JSONDecodeError as exc:
            return _Span(0, 0, valid=False, error=exc.msg), arguments
    return arguments, json.dumps(arguments, ensure_ascii=False)


def _failure(result: ChatResult, raw: str) -> Grade | None:
    """The grade of a call that produced nothing to read (error, empty), else None."""
    if result.failed:
        return Grade("error", problem="call_failed", raw=raw,
                     details=_call_details(result))
    if not raw.strip() and not result.tool_calls:
        return Grade("empty", problem="empty_reply", raw=raw, details={"reasoning": bool(result.reasoning)})
    return None


def read_object(result: ChatResult, quoted_from: str = "",
                keys: tuple[str, ...] = ()) -> tuple[object, Grade | None, str, bool]:
    """(the judge's object, or a `Grade` saying why there is none, the raw text, whether the object is
    copied from ``quoted_from``) for any judge call; ``keys``: those of an answer (see `own_object`)."""
    raw = result.text
    failure = _failure(result, raw)
    if failure is not None:
        return None, failure, raw, False
    copied = False
    if result.tool_calls:
        value, raw = _tool_arguments(result)
        span = value if isinstance(value, _Span) else _Span(0, 0, value)
    else:
        span, unclosed, copied = own_object(raw, quoted_from, keys)
        if unclosed or (result.status == "truncated" and span is None):
            problem = "cut" if result.status == "truncated" else "unclosed_object"
            return None, Grade("truncated", problem=problem, raw=raw,
                               details={"finish_reason": result.finish_reason}), raw, False
    if span is None:
        return None, Grade("unparseable", problem="no_object", raw=raw), raw, False
    if not span.valid:
        return None, Grade("unparseable", problem="invalid_json", details={"error": span.error}, raw=raw), raw, False
    return span.value, None, raw, copied


def parse_grade(result: ChatResult, rubric: Rubric, graded_response: str = "") -> Grade:
    """The `Grade` of a judge's answer to a grading request.

    ``graded_response`` is the text that was graded: an object quoted from it is not the judge's; when
    it is all the judge wrote and it reads as a grade, the grade is ``unparseable`` /
    ``copied_from_response`` with the copy's values kept (``details["copied_status"]``: what the copy
    would have been graded); when it does not read as one, ``no_object``.
    A forced tool call is read from its arguments; a text answer by `own_object`.
    """
    value, failure, raw, copied = read_object(result, graded_response, GRADE_FIELDS)
    if failure is not None:
        return failure
    grade = validate(value, rubric, raw)
    if copied and grade.status == "unparseable":  # a copied object that is no grade (a policy, a config)
        return Grade("unparseable", problem="no_object", raw=raw)
    if copied:
        return replace(grade, status="unparseable", problem="copied_from_response",
                       details={"copied_status": grade.status})
    return grade


def code_grade_of_empty(rubric: Rubric) -> Grade:
    """The grade of an empty response, given by code without calling the judge: 0 on every criterion."""
    return Grade("scored", scores={c.name: 0 for c in rubric.criteria}, total=0, problem="empty_response",
                 weaknesses="", by="code")


def generation_failed(result: ChatResult) -> Grade:
    """The grade of a case whose response could not be generated: an error, not a score."""
    return Grade("error", problem="generation_failed", details=_call_details(result))


def _call_details(result: ChatResult) -> dict:
    """What a failed call leaves on its grade: its kind, its English message (scripts) and the failure
    as data (``error_details``: code and values, which a page words in its language)."""
    return {"error_kind": result.error_kind, "error": result.error, "error_details": result.error_details}


@dataclass(frozen=True)
class Verdict:
    """A pairwise verdict: ``winner`` "first", "second" or "tie" when ``status == "scored"``."""

    status: str
    winner: str | None = None
    reasoning: str = ""
    problem: str = ""
    raw: str = ""


def parse_verdict(result: ChatResult, quoted_from: str = "") -> Verdict:
    """The verdict of a pairwise comparison; statuses as for grades (``out_of_range``: an unknown winner)."""
    value, failure, raw, copied = read_object(result, quoted_from, ("winner", "reasoning"))
    if failure is not None:
        return Verdict(failure.status, problem=failure.problem, raw=raw)
    if copied:
        return Verdict("unparseable", problem="copied_from_response", raw=raw)
    named = _by_name(value)[0] if isinstance(value, dict) else {}
    if "winner" not in named:
        return Verdict("unparseable", problem="missing_field", raw=raw)
    winner = key_name(named["winner"]) if isinstance(named["winner"], str) else named["winner"]
    if winner not in VERDICTS:
        return Verdict("out_of_range", problem="unknown_winner", raw=raw)
    return Verdict("scored", winner, str(named.get("reasoning", "")), raw=raw)

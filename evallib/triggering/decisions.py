"""Reading a routing decision from a `ChatResult`: which skill fired, if any, and whether it could be read.

Statuses (`Decision.status`):

- ``"skill"``: a catalogue skill was activated (``skill`` holds its catalogue name);
- ``"none"``: the model activated nothing (tools mode: no tool call; JSON mode: ``{"skill": null}``);
- ``"invalid_name"``: the model named something that is not one skill of the catalogue (unknown, or
  folding onto two skills). It is an activation, so it counts as a false activation and is shown;
- ``"empty"``: no text and no tool call;
- ``"error"``: the call failed (a timeout included), the answer was cut at the token limit before a
  decision, or (JSON mode) the text holds no readable ``{"skill": ...}`` object.

Empty and errored decisions are never a correct "none": the metrics leave them out and count them
(docs/README.md#peers: crashed runs once counted as correct non-triggers elsewhere).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evallib.llm import ChatResult
from evallib.triggering.data import NO_SKILL, fold_name

STATUSES = ("skill", "none", "invalid_name", "empty", "error")
#: Statuses that are decisions the metrics score; "empty" and "error" are counted apart.
SCORED = frozenset({"skill", "none", "invalid_name"})
#: Written values of the JSON answer that mean "no skill", besides null.
NONE_WORDS = frozenset({"", NO_SKILL, "null", "aucun"})
#: A Markdown code fence around the JSON answer (```json ... ```), removed before reading.
_FENCE = re.compile(r"```[a-zA-Z]*")


@dataclass(frozen=True)
class Decision:
    """What one answer decided.

    ``skill`` is the catalogue name (status "skill"); ``raw_name`` what the model wrote (any status
    with a name); ``reason`` why an "error" is one (an ``error_kind`` or ``"unparseable"``).
    """

    status: str
    skill: str | None = None
    raw_name: str = ""
    reason: str = ""

    @property
    def scored(self) -> bool:
        return self.status in SCORED

    @property
    def obtained(self) -> str | None:
        """The label compared with the expected skill: the skill, None for none, the raw name if invalid."""
        if self.status == "skill":
            return self.skill
        if self.status == "invalid_name":
            return self.raw_name
        return None

    @property
    def fired(self) -> bool:
        """True for an activation (a catalogue skill or an invalid name)."""
        return self.status in ("skill", "invalid_name")


def resolve_name(raw: str, names: Sequence[str]) -> Decision:
    """Match a name written by the model to the catalogue after `fold_name`.

    >>> resolve_name(" Expense_Report", ["expense-report", "payslip-explainer"])
    Decision(status='skill', skill='expense-report', raw_name=' Expense_Report', reason='')
    >>> resolve_name("book-leave", ["expense-report"]).status
    'invalid_name'
    """
    matches = [n for n in names if fold_name(n) == fold_name(raw)]
    if len(matches) == 1:
        return Decision("skill", matches[0], raw)
    return Decision("invalid_name", None, raw, "ambiguous" if matches else "unknown")


def _json_skill(text: str) -> tuple[bool, object]:
    """(found, value) of the first JSON object with a "skill" key in ``text`` (fences and prose allowed)."""
    cleaned = _FENCE.sub("", text)
    decoder = json.JSONDecoder()
    for start in (m.start() for m in re.finditer(r"\{", cleaned)):
        try:
            value, _ = decoder.raw_decode(cleaned, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "skill" in value:
            return True, value["skill"]
    return False, None


def parse_decision(result: ChatResult, names: Sequence[str], mode: str = "tools") -> Decision:
    """The `Decision` an answer carries, for a catalogue of ``names`` asked in ``mode`` ("tools" or "json").

    A tool call wins over text (the first call if several: the first skill a harness would run). Text
    is searched for a ``{"skill": ...}`` object in both modes (small models sometimes write their tool
    call as text); without one, tools-mode text is "none" and JSON-mode text is an "error"
    (``unparseable``), except an answer cut at the token limit (status "truncated"), which is an
    "error" (``truncated``) in both modes: the model stopped before it decided. A call that got no
    answer in time is a failed call (``timeout``), never a "none". Never raises on model output.
    """
    if result.failed:
        return Decision("error", reason=result.error_kind or "error")
    if result.tool_calls:
        return resolve_name(str(result.tool_calls[0].get("name", "")), names)
    if not result.text.strip():
        if result.status == "truncated":  # cut before its first word: no decision, as below
            return Decision("error", reason="truncated")
        return Decision("empty", reason=result.finish_reason or "")
    found, value = _json_skill(result.text)
    if found:
        if value is None or (isinstance(value, str) and fold_name(value) in NONE_WORDS):
            return Decision("none")
        if isinstance(value, str):
            return resolve_name(value, names)
        return Decision("error", reason="unparseable")
    if result.status == "truncated":
        return Decision("error", reason="truncated")  # cut before it decided: no decision, never "none"
    return Decision("none") if mode == "tools" else Decision("error", reason="unparseable")

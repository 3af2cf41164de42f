"""The requests of the pipeline: a generation per case, a grading per response, pairwise comparisons.

Temperature 0 for every call (stable results: docs/judge.md#rubric), unless the model refuses it (OpenAI
reasoning models): ``ModelSettings.temperature`` None then. The judge's answer is steered per path
(docs/README.md#models lists which models allow what):

- Anthropic with prefill allowed: the answer is prefilled with ``<grade>`` and an opening brace, and
  stops at ``</grade>`` (stop sequence), so the reply is the object and nothing else.
- Anthropic without prefill (recent models answer 400): a forced tool call whose arguments are the
  grade (strengths, weaknesses and reasoning first, then one integer per criterion and the total).
- OpenAI-compatible with ``json_mode``: ``response_format`` ``json_object`` (sent in ``extra_body``,
  as vLLM, Ollama and OpenAI accept it); without it, plain text and the tolerant parser.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from evallib.judging.data import Case
from evallib.judging.judge_prompt import GRADE_CLOSE, GRADE_OPEN, judge_prompt, pairwise_prompt
from evallib.judging.rubric import Rubric
from evallib.judging.templates import render
from evallib.judging.wording import FRENCH_WORDING, JudgeWording
from evallib.llm import ChatRequest

PROVIDER_KINDS = ("openai", "anthropic")
GRADE_TOOL, VERDICT_TOOL = "record_grade", "record_verdict"
JUDGE_PREFILL = GRADE_OPEN + "\n{"
#: Token budget of every call: a code answer to one of the requests fits comfortably, and so do the
#: judge's strengths, weaknesses and reasoning before its scores (a judge cut short is `truncated`).
DEFAULT_MAX_TOKENS = 1024


@dataclass(frozen=True)
class ModelSettings:
    """How to call one model: its id, its provider kind and what it accepts.

    ``prefill`` (Anthropic): the model accepts an assistant prefill. ``json_mode`` (OpenAI-compatible):
    the endpoint accepts ``response_format``. ``temperature`` None: the model refuses the parameter.
    """

    model: str
    kind: str = "openai"
    prefill: bool = True
    json_mode: bool = False
    temperature: float | None = 0.0
    max_tokens: int = DEFAULT_MAX_TOKENS

    def __post_init__(self) -> None:
        if self.kind not in PROVIDER_KINDS:
            raise ValueError(f"unknown provider kind {self.kind!r}: expected one of {PROVIDER_KINDS}")

    def without_prefill(self) -> "ModelSettings":
        return replace(self, prefill=False)


def generation_request(case: Case, template: str, settings: ModelSettings, template_name: str = "A") -> ChatRequest:
    """The request that asks the assistant to answer ``case`` (raises `TemplateError` on a bad template)."""
    return ChatRequest.single(settings.model, "", render(template, case, template_name),
                              temperature=settings.temperature, max_tokens=settings.max_tokens)


def grade_tool(rubric: Rubric) -> dict:
    """The forced tool of the no-prefill path: flat arguments, findings before scores."""
    properties = {name: {"type": "string"} for name in ("strengths", "weaknesses", "reasoning")}
    properties |= {c.name: {"type": "integer", "minimum": 0, "maximum": c.max_points, "description": c.description}
                   for c in rubric.criteria}
    properties["total"] = {"type": "integer", "minimum": 0, "maximum": rubric.max_total,
                           "description": "The sum of the criteria."}
    return {"name": GRADE_TOOL, "description": "Record the grade of the response.",
            "parameters": {"type": "object", "properties": properties, "required": list(properties)}}


VERDICT_TOOL_SPEC = {
    "name": VERDICT_TOOL, "description": "Record which response is better.",
    "parameters": {"type": "object", "required": ["reasoning", "winner"],
                   "properties": {"reasoning": {"type": "string"},
                                  "winner": {"type": "string", "enum": ["first", "second", "tie"]}}}}


def _steered(settings: ModelSettings, system: str, user: str, tool: dict) -> ChatRequest:
    options: dict = {"temperature": settings.temperature, "max_tokens": settings.max_tokens}
    if settings.kind == "anthropic" and settings.prefill:
        options |= {"prefill": JUDGE_PREFILL, "stop": (GRADE_CLOSE,)}
    elif settings.kind == "anthropic":
        options |= {"tools": (tool,), "tool_choice": tool["name"]}
    elif settings.json_mode:
        options["extra_body"] = {"response_format": {"type": "json_object"}}
    return ChatRequest.single(settings.model, system, user, **options)


def judge_request(case: Case, response: str, rubric: Rubric, settings: ModelSettings,
                  wording: JudgeWording = FRENCH_WORDING) -> ChatRequest:
    """The grading request of ``response`` (already blinded if blinding is on) to ``case``, in ``wording``."""
    return _steered(settings, wording.system_prompt, judge_prompt(case, response, rubric, wording), grade_tool(rubric))


def pairwise_request(case: Case, first: str, second: str, rubric: Rubric, settings: ModelSettings,
                     wording: JudgeWording = FRENCH_WORDING) -> ChatRequest:
    """The pairwise request: is ``first`` or ``second`` the better response to ``case``?"""
    return _steered(settings, wording.pairwise_system_prompt, pairwise_prompt(case, first, second, rubric, wording),
                    VERDICT_TOOL_SPEC)


def settings_from_options(model: str, provider: str, options: dict) -> ModelSettings:
    """The `ModelSettings` under which recorded requests were sent: their ``model``, the recording's
    ``provider`` kind ("" for recordings that predate it: OpenAI-compatible) and the request options
    a recording keeps (``temperature``, ``max_tokens``, ``stop``, ``extra_body``, see
    `evallib.llm.recordings.OPTION_FIELDS`). Replaying builds the very requests that were recorded."""
    extra = options.get("extra_body") or {}
    kind = provider or "openai"
    # An Anthropic judge steered by prefill stops at the grade's closing tag; by a forced tool, it has no stop.
    prefill = kind != "anthropic" or GRADE_CLOSE in (options.get("stop") or ())
    return ModelSettings(model, kind, prefill=prefill, json_mode="response_format" in extra,
                         temperature=options.get("temperature"),
                         max_tokens=options.get("max_tokens") or DEFAULT_MAX_TOKENS)

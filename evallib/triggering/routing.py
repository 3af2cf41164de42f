"""Routing requests: show the model the catalogue and let it activate one skill, or none, on the first turn.

Two ways of asking (``mode``):

- ``"tools"``: native tool calling, one tool per skill (name = skill name, description = skill
  description, no parameters), tool choice left to the model ("auto": `ChatRequest.tool_choice` is
  None). Calling a tool is an activation; answering in text is "no skill".
- ``"json"``: for endpoints without tool calling, the catalogue is listed in the system prompt and the
  model answers ``{"skill": "<name>"}`` or ``{"skill": null}``.

Only the first turn is sent: we measure whether the skill fires, not what it then does (docs/trigger.md#routing).
Each query is sent ``runs`` times, the repeat index in the request (so in its cache key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evallib.llm import ChatRequest
from evallib.triggering.data import LabelledQuery, SkillCatalogue

MODES = ("tools", "json")
PROVIDER_KINDS = ("openai", "anthropic")
#: Default number of runs per query (docs/trigger.md#routing): two runs show inconsistent decisions at half
#: the cost of three.
DEFAULT_RUNS = 2
#: A routing decision is a tool call or a one-line JSON object; room for a short preamble, no more.
MAX_TOKENS = 200
#: Sampling is left to the endpoint (temperature None): the decision is measured as deployed, and the
#: repeated runs show how much it varies. Some reasoning models also refuse temperature 0.
TEMPERATURE = None
#: Sent to OpenAI-compatible servers that accept it (vLLM/Qwen templates) to skip the thinking phase,
#: which can eat the whole budget of a one-word decision; Anthropic would refuse the field.
DISABLE_REASONING = {"chat_template_kwargs": {"enable_thinking": False}}
#: An empty JSON schema: a skill takes no argument at activation time.
NO_PARAMETERS = {"type": "object", "properties": {}}

TOOLS_SYSTEM_PROMPT = (
    "You are the assistant of a company's employees. Each available tool is a skill. If one skill serves "
    "the user's request, call that tool, and only one. If no skill fits, do not call any tool: answer "
    "briefly in text instead."
)
JSON_SYSTEM_PROMPT = (
    "You are the assistant of a company's employees. These skills are available, one per line as "
    "name: description.\n\n{catalogue}\n\n"
    'Decide whether one skill serves the user\'s request. Answer with one JSON object only: '
    '{{"skill": "<name>"}} with the exact name of that skill, or {{"skill": null}} when no skill fits.'
)


@dataclass(frozen=True)
class RoutingRequest:
    """One (query, run) cell: ``request`` is what is sent, ``query_index`` its place in the query set."""

    query_index: int
    query_id: str
    run: int
    request: ChatRequest


def tools_for(catalogue: SkillCatalogue) -> tuple[dict, ...]:
    """One tool definition per skill, in catalogue order (`ChatRequest.tools` shape)."""
    return tuple({"name": s.name, "description": s.description, "parameters": NO_PARAMETERS}
                 for s in catalogue.skills)


def json_system_prompt(catalogue: SkillCatalogue) -> str:
    """The JSON-fallback system prompt listing every skill."""
    lines = "\n".join(f"- {s.name}: {' '.join(s.description.split())}" for s in catalogue.skills)
    return JSON_SYSTEM_PROMPT.format(catalogue=lines)


def build_requests(catalogue: SkillCatalogue, queries: Sequence[LabelledQuery], model: str,
                   runs: int = DEFAULT_RUNS, provider_kind: str = "openai", mode: str = "tools"
                   ) -> list[RoutingRequest]:
    """Every query x run routing request, queries in order, runs 0..runs-1 within a query.

    Raises ValueError for runs < 1, an unknown mode or provider kind.
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: expected one of {MODES}")
    if provider_kind not in PROVIDER_KINDS:
        raise ValueError(f"unknown provider kind {provider_kind!r}: expected one of {PROVIDER_KINDS}")
    options = {"max_tokens": MAX_TOKENS, "temperature": TEMPERATURE,
               "extra_body": DISABLE_REASONING if provider_kind == "openai" else None}
    if mode == "tools":
        system, options["tools"] = TOOLS_SYSTEM_PROMPT, tools_for(catalogue)
    else:
        system = json_system_prompt(catalogue)
    return [RoutingRequest(i, q.id, run, ChatRequest.single(model, system, q.query, repeat=run, **options))
            for i, q in enumerate(queries) for run in range(runs)]

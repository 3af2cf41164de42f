"""The persona audit's inputs: a catalogue of assistants (name + system prompt) and probes.

The default catalogue is ``data/personas.json`` (spec: seed 000 and issue 3). Everything a user can
edit in the page goes through `validate_catalogue`, which names what is wrong. Requests are built
here, once, so that the page, the CLI that writes recordings and the tests agree on every key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from evallib.llm import ChatRequest

DEFAULT_CATALOGUE = Path(__file__).resolve().parent.parent / "data" / "personas.json"

#: Sampling defaults of seed 000: low temperature and a fixed seed for comparable reruns, and a
#: token budget that leaves room for a complete answer.
TEMPERATURE = 0.3
SEED = 7
MAX_TOKENS = 350
#: Sent to OpenAI-compatible servers that accept it (vLLM/Qwen chat templates) to skip the thinking
#: phase: we measure the assistant's voice, not its draft, and thinking can eat the whole budget.
DISABLE_REASONING = {"chat_template_kwargs": {"enable_thinking": False}}
#: Model name under which the hand-written example answers are recorded.
AUTHORED_MODEL = "authored-examples"


class CatalogueError(ValueError):
    """A catalogue that cannot be measured; the message names the field and what was expected."""


@dataclass(frozen=True)
class Assistant:
    name: str
    system_prompt: str
    role: str = "specialist"


@dataclass(frozen=True)
class Catalogue:
    """Assistants and probes; ``rewrite_example`` is an optional (name, prompt) for exercise 3."""

    assistants: tuple[Assistant, ...]
    probes: tuple[str, ...]
    setting: str = ""
    rewrite_example: tuple[str, str] | None = field(default=None)

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.assistants]

    def prompt_of(self, name: str) -> str:
        return next(a.system_prompt for a in self.assistants if a.name == name)

    def with_prompt(self, name: str, prompt: str) -> "Catalogue":
        """The same catalogue with one assistant's system prompt replaced."""
        assistants = tuple(Assistant(a.name, prompt if a.name == name else a.system_prompt, a.role)
                           for a in self.assistants)
        return Catalogue(assistants, self.probes, self.setting, self.rewrite_example)

    def to_dict(self) -> dict:
        data = {"setting": self.setting,
                "assistants": [{"name": a.name, "role": a.role, "system_prompt": a.system_prompt}
                               for a in self.assistants],
                "probes": list(self.probes)}
        if self.rewrite_example:
            data["rewrite_example"] = {"assistant": self.rewrite_example[0],
                                       "system_prompt": self.rewrite_example[1]}
        return data


def validate_catalogue(data: object) -> Catalogue:
    """Build a `Catalogue` from parsed JSON (or the page's tables), or raise `CatalogueError`.

    Expected: ``{"assistants": [{"name", "system_prompt", "role"?}, ...], "probes": [str, ...]}``
    with at least two assistants with unique non-empty names and non-empty prompts, and at least one
    non-empty probe.
    """
    if not isinstance(data, dict):
        raise CatalogueError(f"expected a JSON object with 'assistants' and 'probes', got {type(data).__name__}")
    raw_assistants, raw_probes = data.get("assistants"), data.get("probes")
    if not isinstance(raw_assistants, list):
        raise CatalogueError("'assistants' must be a list of {name, system_prompt}")
    if not isinstance(raw_probes, list):
        raise CatalogueError("'probes' must be a list of questions")
    assistants = []
    for number, item in enumerate(raw_assistants, start=1):
        if not isinstance(item, dict):
            raise CatalogueError(f"assistant {number}: expected an object with name and system_prompt")
        name = str(item.get("name") or "").strip()
        prompt = str(item.get("system_prompt") or "").strip()
        if not name:
            raise CatalogueError(f"assistant {number}: the name is empty")
        if not prompt:
            raise CatalogueError(f"assistant {number} ({name}): the system prompt is empty")
        assistants.append(Assistant(name, prompt, str(item.get("role") or "specialist")))
    names = [a.name for a in assistants]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise CatalogueError(f"duplicate assistant name(s): {', '.join(duplicates)}")
    if len(assistants) < 2:
        raise CatalogueError(f"at least two assistants are needed to compare them, got {len(assistants)}")
    probes = []
    for number, probe in enumerate(raw_probes, start=1):
        text = str(probe or "").strip()
        if not text:
            raise CatalogueError(f"probe {number} is empty")
        probes.append(text)
    if not probes:
        raise CatalogueError("at least one probe is needed")
    rewrite = data.get("rewrite_example")
    rewrite_pair = None
    if isinstance(rewrite, dict) and rewrite.get("assistant") in names and str(rewrite.get("system_prompt", "")).strip():
        rewrite_pair = (rewrite["assistant"], str(rewrite["system_prompt"]).strip())
    return Catalogue(tuple(assistants), tuple(probes), str(data.get("setting") or ""), rewrite_pair)


def load_catalogue(path: str | Path = DEFAULT_CATALOGUE) -> Catalogue:
    """Read and validate a catalogue JSON file; CatalogueError names a JSON syntax error's line."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CatalogueError(f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from exc
    return validate_catalogue(data)


@dataclass(frozen=True)
class ProbeRequest:
    """One cell of the assistants x probes grid."""

    assistant: str
    probe_index: int
    request: ChatRequest


def build_requests(catalogue: Catalogue, model: str, *, disable_reasoning: bool = True,
                   temperature: float = TEMPERATURE, seed: int = SEED,
                   max_tokens: int = MAX_TOKENS) -> list[ProbeRequest]:
    """Every assistant x probe request, assistants in catalogue order, probes in order."""
    extra = DISABLE_REASONING if disable_reasoning else None
    return [ProbeRequest(a.name, i, ChatRequest.single(model, a.system_prompt, probe, temperature=temperature,
                                                       seed=seed, max_tokens=max_tokens, extra_body=extra))
            for a in catalogue.assistants for i, probe in enumerate(catalogue.probes)]

"""The persona audit's inputs: a catalogue of assistants (name + system prompt) and probes.

The default catalogue is ``packs/fr/personas.json`` (docs/persona.md#protocol). Everything a user can
edit in the page goes through `validate_catalogue`, which names what is wrong. Requests are built
here, once, so that the page, the CLI that writes recordings and the tests agree on every key.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from evallib.errors import InputError
from evallib.llm import ChatRequest
from evallib.packs.layout import builtin_file

DEFAULT_CATALOGUE = builtin_file("personas.json")

#: Sampling defaults (docs/persona.md#protocol): low temperature and a fixed seed for comparable reruns, and a
#: token budget that leaves room for a complete answer.
TEMPERATURE = 0.3
SEED = 7
MAX_TOKENS = 350
#: Sent to OpenAI-compatible servers that accept it (vLLM/Qwen chat templates) to skip the thinking
#: phase: we measure the assistant's voice, not its draft, and thinking can eat the whole budget.
DISABLE_REASONING = {"chat_template_kwargs": {"enable_thinking": False}}
#: Model name under which the hand-written example answers are recorded.
AUTHORED_MODEL = "authored-examples"


#: Assistant names are short labels shown in tables, figures and texts: letters (accents included),
#: digits, spaces and ' . - _ only, so that a name can never turn into markup on the page.
NAME_PATTERN = re.compile(r"[\w .'’-]{1,40}")


class CatalogueError(InputError):
    """A catalogue that cannot be measured; the message names the field and what was expected.

    ``code`` names the problem and ``details`` its values, so a UI can word it in its own language.
    """


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
        raise CatalogueError("not_object", "expected a JSON object with 'assistants' and 'probes', "
                             f"got {type(data).__name__}", found=type(data).__name__)
    raw_assistants, raw_probes = data.get("assistants"), data.get("probes")
    if not isinstance(raw_assistants, list):
        raise CatalogueError("no_assistants_list", "'assistants' must be a list of {name, system_prompt}")
    if not isinstance(raw_probes, list):
        raise CatalogueError("no_probes_list", "'probes' must be a list of questions")
    assistants = []
    for number, item in enumerate(raw_assistants, start=1):
        if not isinstance(item, dict):
            raise CatalogueError("assistant_not_object",
                                 f"assistant {number}: expected an object with name and system_prompt", number=number)
        name = _text(item.get("name"))
        prompt = _text(item.get("system_prompt"))
        if not name:
            raise CatalogueError("empty_name", f"assistant {number}: the name is empty", number=number)
        if not NAME_PATTERN.fullmatch(name):
            raise CatalogueError("bad_name", f"assistant {number}: the name {name[:40]!r} may only hold letters, "
                                 "digits, spaces and ' . - _ (40 characters at most)", number=number)
        if not prompt:
            raise CatalogueError("empty_prompt", f"assistant {number} ({name}): the system prompt is empty",
                                 number=number, name=name)
        assistants.append(Assistant(name, prompt, _text(item.get("role")) or "specialist"))
    names = [a.name for a in assistants]
    repeated = [(number, name, names.index(name) + 1) for number, name in enumerate(names, start=1)
                if names.index(name) + 1 != number]
    if repeated:
        number, name, first = repeated[0]
        raise CatalogueError("duplicate_names", "; ".join(f"assistant {n}, field 'name': {a!r} is already used by "
                                                          f"assistant {f}" for n, a, f in repeated),
                             number=number, field="name", name=name, other_number=first,
                             names=", ".join(sorted({a for _, a, _ in repeated})))
    if len(assistants) < 2:
        raise CatalogueError("too_few_assistants",
                             f"at least two assistants are needed to compare them, got {len(assistants)}",
                             count=len(assistants))
    probes = []
    for number, probe in enumerate(raw_probes, start=1):
        text = _text(probe)
        if not text:
            raise CatalogueError("empty_probe", f"probe {number} is empty", number=number)
        probes.append(text)
    if not probes:
        raise CatalogueError("no_probes", "at least one probe is needed")
    rewrite = data.get("rewrite_example")
    rewrite_pair = None
    if isinstance(rewrite, dict) and rewrite.get("assistant") in names and _text(rewrite.get("system_prompt")):
        rewrite_pair = (rewrite["assistant"], _text(rewrite["system_prompt"]))
    return Catalogue(tuple(assistants), tuple(probes), str(data.get("setting") or ""), rewrite_pair)


def _text(value: object) -> str:
    """A table cell or JSON value as stripped text ("" for None or NaN; numbers written out)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return value.strip() if isinstance(value, str) else str(value)


def load_catalogue(path: str | Path = DEFAULT_CATALOGUE) -> Catalogue:
    """Read and validate a catalogue JSON file; CatalogueError names a JSON syntax error's line."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise CatalogueError("not_json", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}",
                             line=exc.lineno) from exc
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

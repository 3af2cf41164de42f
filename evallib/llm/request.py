"""What is asked of a model and what comes back: `ChatRequest`, `ChatResult` and their embedding twins.

A request's `key()` is the sha256 of its canonical JSON (sorted keys, no whitespace). It covers every
field that can change the answer, including the repeat index, so N repeated runs are N distinct
requests and never one cached answer counted N times (the mistake docs/README.md#peers records). It
never covers a key or a base URL: those are not part of the request.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

Source = Literal["live", "cache", "recording"]
Status = Literal["ok", "empty", "truncated", "error"]

#: Error kinds a result can carry; the UI translates each into an actionable message.
ERROR_KINDS = (
    "auth",               # 401/403: key missing or rejected
    "model_not_found",    # 404 on the model
    "not_found",          # 404 on the URL itself (often a base URL without /v1)
    "connection",         # nothing listens at the URL
    "timeout",            # no answer within the timeout
    "rate_limit",         # 429 still refused after the bounded retries
    "server",             # 5xx
    "bad_request",        # 400/422: the server refused a parameter
    "prefill_unsupported",  # 400: the model refuses an assistant prefill
    "malformed",          # the body could not be read as the expected JSON
    "missing_recording",  # offline mode: nothing recorded for this request
    "unexpected",         # anything else (the message says what)
)


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _memoised_key(request, canonical_form) -> str:
    """The sha256 key of a frozen request, computed once: pages ask for it on every rerun.

    Stored beside the fields (not one of them), so equality, `dataclasses.replace` and `to_dict`
    ignore it: a replaced request computes its own key.
    """
    key = request.__dict__.get("_key")
    if key is None:
        key = hashlib.sha256(_canonical(canonical_form()).encode("utf-8")).hexdigest()
        object.__setattr__(request, "_key", key)
    return key


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion request, provider-neutral.

    Attributes:
        model: model id as the endpoint names it.
        messages: conversation turns as ``(role, content)`` pairs, roles "user"/"assistant".
        system: system prompt ("" for none).
        temperature, max_tokens, seed: sampling parameters (None = the server's default).
        stop: stop sequences.
        prefill: text the assistant's answer must start with (sent as a final assistant turn);
            the result's text starts with it. Some models refuse it (see `ProviderConfig.prefill`).
        tools: tool definitions ``{"name", "description", "parameters": <JSON schema>}``.
        tool_choice: name of a tool the model must call (the forced-tool path), or None.
        extra_body: provider-specific fields, e.g. ``{"chat_template_kwargs": {"enable_thinking": False}}``.
        repeat: repeat index (0, 1, ... N-1) for repeated runs; part of the key.
    """

    model: str
    messages: tuple[tuple[str, str], ...]
    system: str = ""
    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    stop: tuple[str, ...] = ()
    prefill: str = ""
    tools: tuple[dict, ...] = field(default=())
    tool_choice: str | None = None
    extra_body: dict | None = None
    repeat: int = 0

    @classmethod
    def single(cls, model: str, system: str, user: str, **options: Any) -> "ChatRequest":
        """A request with one user turn under a system prompt."""
        return cls(model=model, messages=(("user", user),), system=system, **options)

    def to_dict(self) -> dict:
        """Plain JSON-ready dict (messages as lists), the form stored in recordings."""
        data = asdict(self)
        data["messages"] = [list(m) for m in self.messages]
        data["stop"] = list(self.stop)
        data["tools"] = list(self.tools)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "ChatRequest":
        """Inverse of `to_dict`; raises KeyError/TypeError on a malformed dict."""
        values = dict(data)
        values["messages"] = tuple((str(r), str(c)) for r, c in values["messages"])
        values["stop"] = tuple(values.get("stop", ()))
        values["tools"] = tuple(values.get("tools", ()))
        return cls(**values)

    def key(self) -> str:
        """sha256 hex digest of the canonical JSON of every field (repeat index included)."""
        return _memoised_key(self, lambda: {"chat": self.to_dict()})

    def with_repeat(self, repeat: int) -> "ChatRequest":
        """The same request with another repeat index."""
        return replace(self, repeat=repeat)

    def describe(self) -> str:
        """Short human label: model and the start of the last user turn (for missing-recording lists)."""
        last = self.messages[-1][1] if self.messages else ""
        return f"{self.model}: {last[:60]}"


@dataclass(frozen=True)
class _Outcome:
    """What every answer carries, chat or embedding: where it came from and whether it failed.

    ``status`` is "ok", "empty", "truncated" or "error" (``error_kind`` + ``error`` say why,
    ``hint`` how to fix it). ``latency_s`` is the wall time in seconds of the live call (as recorded,
    for a replayed result). ``provenance`` is "live" or "authored" (written by hand for a demo) for
    recorded results; ``fallback_error`` is set when a live call failed and a recording was used.
    ``error`` and ``hint`` are English (scripts, the command line); ``error_details`` is the same
    failure as data, for a page to word in its language: ``{"code": <case>, <value name>: <value>...}``
    (see `evallib.llm.errors.Failure`), describing ``error`` or, on a fallback, ``fallback_error``;
    {} when nothing failed (and in recordings written before it existed).
    """

    request_key: str
    model: str = ""
    input_tokens: int | None = None
    latency_s: float | None = None
    source: Source = "live"
    status: Status = "ok"
    error_kind: str | None = None
    error: str = ""
    hint: str = ""
    retries: int = 0
    provenance: str = "live"
    recorded_on: str = ""
    fallback_error: str = ""
    error_details: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def _plain_dict(self) -> dict:
        """`asdict`, without ``error_details`` when empty: a recording's line stays as it was before
        the field existed (shipped recordings are compared byte for byte with their source)."""
        data = asdict(self)
        if not data["error_details"]:
            del data["error_details"]
        return data

    @property
    def failed(self) -> bool:
        """True for an error (something to retry); empty or truncated answers are answers."""
        return self.status == "error"


@dataclass(frozen=True)
class ChatResult(_Outcome):
    """What came back for one `ChatRequest` (see `_Outcome` for the shared fields).

    ``text`` is the answer with any ``<think>`` block removed (``reasoning`` keeps it); with a
    prefill it starts with the prefill.
    """

    text: str = ""
    tool_calls: tuple[dict, ...] = ()
    finish_reason: str | None = None
    output_tokens: int | None = None
    reasoning: str = ""

    def to_dict(self) -> dict:
        data = self._plain_dict()
        data["tool_calls"] = list(self.tool_calls)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "ChatResult":
        values = dict(data)
        values["tool_calls"] = tuple(values.get("tool_calls", ()))
        return cls(**values)


@dataclass(frozen=True)
class EmbeddingRequest:
    """Embeddings of a batch of texts from an OpenAI-compatible ``/embeddings`` endpoint."""

    model: str
    inputs: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"model": self.model, "inputs": list(self.inputs)}

    @classmethod
    def from_dict(cls, data: dict) -> "EmbeddingRequest":
        return cls(model=data["model"], inputs=tuple(data["inputs"]))

    def key(self) -> str:
        """sha256 hex digest of the canonical JSON of the model and the texts."""
        return _memoised_key(self, lambda: {"embedding": self.to_dict()})

    def describe(self) -> str:
        return f"{self.model}: {len(self.inputs)} texts"


@dataclass(frozen=True)
class EmbeddingResult(_Outcome):
    """Vectors for an `EmbeddingRequest`: ``vectors[i]`` embeds ``inputs[i]`` (floats, provider units)."""

    vectors: tuple[tuple[float, ...], ...] = ()

    def to_dict(self) -> dict:
        data = self._plain_dict()
        data["vectors"] = [list(v) for v in self.vectors]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "EmbeddingResult":
        values = dict(data)
        values["vectors"] = tuple(tuple(float(x) for x in v) for v in values.get("vectors", ()))
        return cls(**values)

"""Live providers through the official SDKs: any OpenAI-compatible endpoint, and Anthropic.

One interface for every source of answers (see `Provider`): ``chat(request) -> ChatResult`` and
``embed(request) -> EmbeddingResult``, which never raise: a failure is a result with
``status="error"``, an ``error_kind`` and a message a workshop participant can act on. The SDKs do
the retrying: 429 and 5xx answers are retried with backoff honouring Retry-After, at most
``max_retries`` times (3 by default: "about three tries"); the number
of retries made is counted on the result (``retries``), each retry is reported as it happens and the
total wait on Retry-After is bounded (`evallib.llm.retries`); a refused connection and an HTML page
(a web server, not a model API) are not retried. The SDKs are imported when the first
live provider is built, never by an offline page.

The API key is only ever handed to the SDK client. It is not part of `fingerprint()`, of a request,
of a result or of any message: every message is scrubbed of it before it leaves this module.
"""

from __future__ import annotations

import importlib
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Protocol

from evallib.llm.answers import answer_status, join_prefill, split_reasoning
from evallib.llm.errors import (ConnectionRefused, Failure, MalformedAnswer, NotAnApiAnswer, describe_exception,
                                refusal_in)
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult
from evallib.llm.retries import RetryWatch

#: Anthropic requires max_tokens; used when a request leaves it unset.
ANTHROPIC_DEFAULT_MAX_TOKENS = 1024
#: Seconds a call waits for its answer before it is abandoned (the page's default, and the command
#: line's `--timeout`); each SDK retry waits as long again.
DEFAULT_TIMEOUT_S = 60.0
#: Timeout of the model-list probe that fills the sidebar dropdown (seconds): it must not stall a page.
MODEL_LIST_TIMEOUT_S = 5.0


class Provider(Protocol):
    """Anything that answers requests: live SDK providers, recordings, the test fake."""

    def chat(self, request: ChatRequest) -> ChatResult: ...

    def embed(self, request: EmbeddingRequest) -> EmbeddingResult: ...

    def fingerprint(self) -> str: ...


@dataclass(frozen=True)
class ProviderConfig:
    """How to reach a live model.

    Attributes:
        kind: "openai" (any OpenAI-compatible server: vLLM, Ollama, llama.cpp, hosted APIs) or "anthropic".
        base_url: e.g. ``http://localhost:11434/v1`` (Ollama) or ``http://localhost:8000/v1`` (vLLM);
            "" for the SDK's default host.
        api_key: never shown, logged, recorded or hashed (``repr`` hides it).
        timeout_s: seconds before a call is abandoned.
        max_retries: bounded SDK retries on 429/5xx/connection errors.
        prefill: whether the model accepts an assistant prefill (recent Claude models answer 400).
    """

    kind: str = "openai"
    base_url: str = ""
    api_key: str = field(default="", repr=False)
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = 3
    prefill: bool = True

    def fingerprint(self) -> str:
        """Identity of the endpoint for cache keys: kind and base URL, never the key."""
        return f"{self.kind}|{self.base_url.rstrip('/')}"


class _LiveProvider(ABC):
    """What both SDK providers share: timing, retry counting and error translation."""

    sdk_name = ""  # the SDK's module name, set by subclasses; imported when a provider is built

    def __init__(self, config: ProviderConfig) -> None:
        self.config = config
        self.sdk = importlib.import_module(self.sdk_name)
        self._retries = RetryWatch(config.max_retries)
        self._models: list[str] | None = None
        self._models_known = False
        self._models_asked = threading.Lock()
        self._client = self._make_client(_refusing_client(self.sdk)(event_hooks=self._retries.hooks()))

    def fingerprint(self) -> str:
        return self.config.fingerprint()

    def _client_options(self, http_client) -> dict:
        options = {"api_key": self.config.api_key or "no-key", "timeout": self.config.timeout_s,
                   "max_retries": self.config.max_retries, "http_client": http_client}
        if self.config.base_url:
            options["base_url"] = self.config.base_url
        return options

    @abstractmethod
    def _make_client(self, http_client):
        """The SDK client, built once per provider (so per browser session in the app)."""

    def _error_result(self, cls, key: str, exc: BaseException, model: str, latency: float):
        retries = self._retries.retries  # read first: listing the models below sends a request too
        failure = self.failure(exc, model)
        return cls(request_key=key, model=model, latency_s=latency, status="error",
                   error_kind=failure.kind, error=failure.message, hint=failure.hint,
                   error_details=failure.result_details(), retries=retries, source="live")

    def failure(self, exc: BaseException, model: str = "", *, list_models=None) -> Failure:
        """The `Failure` of ``exc``, scrubbed of the key (message, hint and every value).

        ``list_models`` (default: the endpoint's list, asked once) names the models offered when
        ``exc`` may be about the model; the model-list probe passes one returning None.
        """
        failure = describe_exception(exc, self.config, list_models or self._models_or_none, model,
                                     refused_wait_s=self._retries.budget_refused)
        return replace(failure, message=self.scrub(failure.message), hint=self.scrub(failure.hint),
                       details={name: self.scrub(value) for name, value in failure.details.items()})

    def scrub(self, value):
        """``value`` with this provider's key replaced by "***" in every string it holds (a str, or a
        list of them; other values as they are): a last defence, no message should hold the key."""
        key = self.config.api_key
        if isinstance(value, list):
            return [self.scrub(item) for item in value]
        return value.replace(key, "***") if isinstance(value, str) and key and len(key) >= 4 else value

    def _models_or_none(self) -> list[str] | None:
        """The endpoint's model list, asked once per provider (a failed collection of 36 requests
        must not ask it 36 times); None when it cannot be read."""
        with self._models_asked:
            if not self._models_known:
                self._models_known = True
                try:
                    self._models = self.list_models()
                except Exception:  # the listing is only a hint for another error: never let it mask it
                    self._models = None
            return self._models

    def list_models(self) -> list[str]:
        """Model ids the endpoint offers (raises the SDK's exception if it does not answer, and
        `NotAnApiAnswer` if what answers is not a model API: an HTML page, other JSON)."""
        client = self._client.with_options(timeout=MODEL_LIST_TIMEOUT_S, max_retries=0)
        try:
            return sorted(m.id for m in client.models.list())
        except (AttributeError, TypeError):  # the SDK could not read the page as a model list
            raise NotAnApiAnswer.of(client.models.with_raw_response.list().http_response) from None

    def chat(self, request: ChatRequest) -> ChatResult:
        self._retries.start()
        start = time.perf_counter()
        try:
            result = self._chat(request)
        except Exception as exc:  # every SDK failure becomes a result; nothing escapes
            return self._error_result(ChatResult, request.key(), exc, request.model,
                                      time.perf_counter() - start)
        return _finish(result, request, time.perf_counter() - start, self._retries.retries)

    def embed(self, request: EmbeddingRequest) -> EmbeddingResult:
        self._retries.start()
        start = time.perf_counter()
        try:
            return self._embed(request, start)
        except Exception as exc:
            return self._error_result(EmbeddingResult, request.key(), exc, request.model,
                                      time.perf_counter() - start)

    @abstractmethod
    def _chat(self, request: ChatRequest) -> dict:
        """Send one request; return the provider-neutral raw fields (see `_finish`)."""

    @abstractmethod
    def _embed(self, request: EmbeddingRequest, start: float) -> EmbeddingResult:
        """Send one embeddings request."""


#: The base error class of each SDK: an exception of that class raised by the HTTP client is
#: passed on as it is, never retried (openai `_base_client` "Propagate OpenAIErrors as-is", anthropic
#: `_should_retry_exception`, which retries only connection, timeout and status errors).
SDK_BASE_ERRORS = {"openai": "OpenAIError", "anthropic": "AnthropicError"}
_REFUSING_CLIENTS: dict = {}


def _refusing_client(sdk):
    """The SDK's ``DefaultHttpxClient`` class, made to fail at once on a refused connection.

    The SDKs retry a lost connection with backoff (0.5, 1, 2 s... then up to 8 s): right for a
    connection dropped by a flaky network, useless for a port where nothing listens, where it only
    delays the message by seconds per request. A refused connection is raised as
    `evallib.llm.errors.ConnectionRefused` mixed with the SDK's own base error, which the SDK
    passes on without retrying (`SDK_BASE_ERRORS`).
    """
    if sdk.__name__ not in _REFUSING_CLIENTS:
        refused = type("ConnectionRefused", (ConnectionRefused, getattr(sdk, SDK_BASE_ERRORS[sdk.__name__])), {})

        class RefusingClient(sdk.DefaultHttpxClient):
            def send(self, request, **options):
                try:
                    return super().send(request, **options)
                except Exception as exc:
                    if refusal_in(exc) is None:
                        raise
                    raise refused(f"connection refused by {request.url.host}:{request.url.port}") from exc

        _REFUSING_CLIENTS[sdk.__name__] = RefusingClient
    return _REFUSING_CLIENTS[sdk.__name__]


def _finish(raw: dict, request: ChatRequest, latency: float, retries: int) -> ChatResult:
    """Build the result from the provider-neutral fields of a raw answer.

    ``raw["content"]`` is what the model generated (after the prefill, if any); the status is judged
    on it alone, and the prefill is then put back in front so that the text parses as a whole, unless
the reply does not continue it (`evallib.llm.answers.join_prefill`).
    """
    answer, reasoning = split_reasoning(raw["content"])
    reasoning = "\n".join(part for part in (raw["reasoning"], reasoning) if part)
    status, hint = answer_status(answer, raw["finish_reason"], reasoning, bool(raw["tool_calls"]))
    text = join_prefill(request.prefill, answer)
    return ChatResult(
        request_key=request.key(), text=text, tool_calls=tuple(raw["tool_calls"]),
        finish_reason=raw["finish_reason"], input_tokens=raw["input_tokens"],
        output_tokens=raw["output_tokens"], latency_s=latency, model=raw["model"] or request.model,
        source="live", status=status, hint=hint, reasoning=reasoning, retries=retries)


class OpenAICompatibleProvider(_LiveProvider):
    """Any server speaking the OpenAI chat-completions API (vLLM, Ollama, llama.cpp, hosted)."""

    sdk_name = "openai"

    def _make_client(self, http_client):
        return self.sdk.OpenAI(**self._client_options(http_client))

    def _chat(self, request: ChatRequest) -> dict:
        messages = [{"role": "system", "content": request.system}] if request.system else []
        messages += [{"role": role, "content": content} for role, content in request.messages]
        if request.prefill:
            messages.append({"role": "assistant", "content": request.prefill})
        options: dict = {}
        for name in ("temperature", "max_tokens", "seed"):
            if getattr(request, name) is not None:
                options[name] = getattr(request, name)
        if request.stop:
            options["stop"] = list(request.stop)
        if request.tools:
            options["tools"] = [{"type": "function", "function": tool} for tool in request.tools]
        if request.tool_choice:
            options["tool_choice"] = {"type": "function", "function": {"name": request.tool_choice}}
        if request.extra_body:
            options["extra_body"] = request.extra_body
        raw = self._client.chat.completions.with_raw_response.create(model=request.model, messages=messages, **options)
        response = raw.parse()
        choices = _field(response, "choices")
        if not isinstance(choices, list):
            raise NotAnApiAnswer.of(raw.http_response)
        if not choices:
            raise MalformedAnswer("no_choices", "the answer had no choices")
        choice = choices[0]
        message = _field(choice, "message")
        if message is None:
            raise NotAnApiAnswer.of(raw.http_response)
        extra = getattr(message, "model_extra", None) or {}
        calls = [{"name": c.function.name, "arguments": c.function.arguments}
                 for c in (message.tool_calls or [])]
        usage = _field(response, "usage")
        return {
            "content": message.content or "",
            "reasoning": extra.get("reasoning_content") or extra.get("reasoning") or "",
            "tool_calls": calls,
            "finish_reason": _field(choice, "finish_reason"),
            "input_tokens": usage.prompt_tokens if usage else None,
            "output_tokens": usage.completion_tokens if usage else None,
            "model": _field(response, "model"),
        }

    def _embed(self, request: EmbeddingRequest, start: float) -> EmbeddingResult:
        response = self._client.embeddings.create(model=request.model, input=list(request.inputs))
        vectors = tuple(tuple(float(x) for x in item.embedding)
                        for item in sorted(response.data, key=lambda d: d.index))
        if len(vectors) != len(request.inputs):
            raise MalformedAnswer("vector_count", f"{len(vectors)} vectors for {len(request.inputs)} texts",
                                  vectors=len(vectors), texts=len(request.inputs))
        usage = getattr(response, "usage", None)
        return EmbeddingResult(
            request_key=request.key(), vectors=vectors, model=response.model or request.model,
            input_tokens=usage.prompt_tokens if usage else None,
            latency_s=time.perf_counter() - start, retries=self._retries.retries)


class AnthropicProvider(_LiveProvider):
    """Anthropic's Messages API: system prompt, prefill as a final assistant turn, stop sequences, tools."""

    sdk_name = "anthropic"

    def _make_client(self, http_client):
        options = self._client_options(http_client)
        if "base_url" in options:
            options["base_url"] = anthropic_base_url(options["base_url"])
        return self.sdk.Anthropic(**options)

    def _chat(self, request: ChatRequest) -> dict:
        if request.prefill and not self.config.prefill:
            raise PrefillRefused(request.model)
        messages = [{"role": role, "content": content} for role, content in request.messages]
        if request.prefill:
            # The API refuses a final assistant turn ending in whitespace.
            messages.append({"role": "assistant", "content": request.prefill.rstrip()})
        options: dict = {"max_tokens": request.max_tokens or ANTHROPIC_DEFAULT_MAX_TOKENS}
        if request.system:
            options["system"] = request.system
        extra_body = dict(request.extra_body or {})
        if request.temperature is not None:
            # The SDK (2.x) no longer has a temperature argument, as recent Claude models refuse
            # sampling parameters; older models still take it, so it travels in the body and a
            # refusal comes back as a 400 "bad_request" naming it.
            extra_body["temperature"] = request.temperature
        if request.stop:
            options["stop_sequences"] = list(request.stop)
        if request.tools:
            options["tools"] = [{"name": t["name"], "description": t.get("description", ""),
                                 "input_schema": t.get("parameters", {"type": "object"})}
                                for t in request.tools]
        if request.tool_choice:
            options["tool_choice"] = {"type": "tool", "name": request.tool_choice}
        if extra_body:
            options["extra_body"] = extra_body
        raw = self._client.messages.with_raw_response.create(model=request.model, messages=messages, **options)
        response = raw.parse()
        blocks = _field(response, "content")
        if not isinstance(blocks, list) or not all(isinstance(_field(b, "type"), str) for b in blocks) \
                or _field(response, "usage") is None:
            raise NotAnApiAnswer.of(raw.http_response)
        text = "".join(block.text for block in response.content if block.type == "text")
        calls = [{"name": block.name, "arguments": block.input}
                 for block in response.content if block.type == "tool_use"]
        thinking = "\n".join(getattr(block, "thinking", "") for block in response.content
                              if block.type == "thinking")
        return {
            "content": text, "reasoning": thinking, "tool_calls": calls,
            "finish_reason": _field(response, "stop_reason"),
            "input_tokens": response.usage.input_tokens, "output_tokens": response.usage.output_tokens,
            "model": _field(response, "model"),
        }

    def _embed(self, request: EmbeddingRequest, start: float) -> EmbeddingResult:
        raise EmbeddingsUnsupported("Anthropic offers no embeddings endpoint: use an "
                                    "OpenAI-compatible server (e.g. Ollama) for embeddings.")


def _field(obj, name: str):
    """``obj.name`` of an SDK object, None when the SDK handed back something else (the text of an
    HTML page, a list) or an object the server's JSON left without that field."""
    if isinstance(obj, (str, bytes, list, dict)):
        return None
    return getattr(obj, name, None)


def anthropic_base_url(base_url: str) -> str:
    """The base URL the anthropic SDK expects: it appends ``/v1/messages`` itself, so a URL written
    the OpenAI way (ending in ``/v1``, as LiteLLM's is often given) loses that ``/v1``.

    >>> anthropic_base_url("http://localhost:4000/v1/")
    'http://localhost:4000'
    >>> anthropic_base_url("https://api.anthropic.com")
    'https://api.anthropic.com'
    """
    url = base_url.rstrip("/")
    return url[:-len("/v1")] if url.endswith("/v1") else url


class PrefillRefused(Exception):
    """Raised before sending when the configuration says the model refuses a prefill."""

    def __init__(self, model: str) -> None:
        super().__init__(f"The model {model} is configured as refusing an assistant prefill.")
        self.model = model


class EmbeddingsUnsupported(Exception):
    """The provider has no embeddings endpoint."""


def make_provider(config: ProviderConfig) -> OpenAICompatibleProvider | AnthropicProvider:
    """The live provider for ``config.kind`` ("openai" or "anthropic"); ValueError otherwise."""
    if config.kind == "openai":
        return OpenAICompatibleProvider(config)
    if config.kind == "anthropic":
        return AnthropicProvider(config)
    raise ValueError(f"unknown provider kind {config.kind!r}: expected 'openai' or 'anthropic'")

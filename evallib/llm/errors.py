"""Translate SDK exceptions into messages a workshop participant can act on.

Each failure gets a kind (see `evallib.llm.request.ERROR_KINDS`), a message saying what happened
and a hint saying what to do. Messages name the URL and the model, never the key: the provider
scrubs the key from anything returned here as a second line of defence.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

#: The SDKs whose exception classes are recognised. They are looked up in ``sys.modules`` and never
#: imported here: an SDK exception can only exist once its SDK was imported by a live provider, and
#: an offline page must not pay for importing them.
SDK_MODULES = ("openai", "anthropic")


class MalformedAnswer(ValueError):
    """The server answered 200 but not in the expected shape (no choices, wrong vector count...)."""


#: How many model ids a "model not found" message lists at most.
MAX_MODELS_LISTED = 12
#: Longest server text shown (characters): proxies answer with stack traces and multi-paragraph
#: explanations (LiteLLM adds "Deployment Info" and fallback notes) that would fill a projected page.
SERVER_TEXT_MAX_CHARS = 160
#: HTTP statuses meaning "the model behind the server did not answer in time" (LiteLLM answers 408
#: for an upstream timeout, gateways 504): a timeout, not an unexpected error.
TIMEOUT_STATUSES = (408, 504)


def short_text(text: str, limit: int = SERVER_TEXT_MAX_CHARS) -> str:
    """The first non-blank line of ``text``, stripped, cut to ``limit`` characters (ending in "…").

    >>> short_text("litellm.Timeout: mock timeout\\n\\nDeployment Info: timeout: 4.0")
    'litellm.Timeout: mock timeout'
    >>> short_text("x" * 10, limit=5)
    'xxxx…'
    """
    line = next((part.strip() for part in str(text).splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[:limit - 1].rstrip() + "…"


def _is(exc: BaseException, name: str) -> bool:
    """isinstance against the class ``name`` of either SDK (only those already imported)."""
    return any(isinstance(exc, getattr(sys.modules[sdk], name)) for sdk in SDK_MODULES if sdk in sys.modules)


def server_text(exc: BaseException) -> str:
    """The server's own error message, if the body had one, shortened (`short_text`)."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return short_text(inner["message"])
        if isinstance(inner, str):
            return short_text(inner)
    return short_text(getattr(exc, "message", "") or "")


def describe_exception(exc: BaseException, config, list_models: Callable[[], list[str] | None],
                       model: str = "", *, refused_wait_s: float | None = None) -> tuple[str, str, str]:
    """(kind, message, hint) for an exception raised while calling a provider.

    Server texts in the message are shortened (`short_text`). An unknown model is recognised by the
    endpoint's model list whatever the status (OpenAI answers 404, the LiteLLM proxy 400); a 400 that
    is not about the model keeps the server's own message first (a proxy refusing a key answers 400
    "No connected db", not 401).

    Args:
        exc: what the SDK (or our own code) raised.
        config: the `ProviderConfig` used (for the URL and kind; its key is never read here).
        list_models: called only on a 400/404/422, to list the models the endpoint offers (None if
            it can't).
        model: the model the request named.
        refused_wait_s: a Retry-After (s) refused because it exceeded the per-request wait budget.
    """
    url = config.base_url or f"the default {config.kind} endpoint"
    detail = server_text(exc)
    if type(exc).__name__ == "PrefillRefused":
        return ("prefill_unsupported", str(exc),
                "Turn prefill off for this model: the structured-output or forced-tool path is used instead.")
    if type(exc).__name__ == "EmbeddingsUnsupported":
        return "bad_request", str(exc), ""
    if _is(exc, "APITimeoutError"):
        return ("timeout", f"No answer from {url} within {config.timeout_s:g} s.",
                "The model may be loading or overloaded: retry, raise the timeout, or lower concurrency.")
    if _is(exc, "APIConnectionError"):
        return ("connection", f"No server answered at {url}.",
                "Start the server (`ollama serve`, or `vllm serve <model>`) or check the base URL "
                "(Ollama: http://localhost:11434/v1, vLLM: http://localhost:8000/v1).")
    if _is(exc, "AuthenticationError") or _is(exc, "PermissionDeniedError"):
        return ("auth", f"The server at {url} rejected the API key (HTTP {exc.status_code}).",
                "Enter a valid key in the sidebar, or set OPENAI_API_KEY / ANTHROPIC_API_KEY.")
    status = getattr(exc, "status_code", 0) if _is(exc, "APIStatusError") else 0
    if status in TIMEOUT_STATUSES:
        return ("timeout", f"The server at {url} says the model did not answer in time (HTTP {status}): {detail}",
                "The model may be loading or overloaded: retry, raise the timeout, or lower concurrency.")
    if _is(exc, "RateLimitError"):
        if refused_wait_s is not None:
            return ("rate_limit", f"Rate-limited by {url} (HTTP 429): the server asked to wait "
                    f"{refused_wait_s:g} s, longer than a request may wait.",
                    "Lower the concurrency in the sidebar, wait a minute, then retry the failed requests.")
        return ("rate_limit",
                f"Still rate-limited by {url} after {config.max_retries} retries (HTTP 429): {detail}",
                "Lower the concurrency in the sidebar, wait a minute, then retry the failed requests.")
    if status in (400, 404, 422):
        if "prefill" in detail.lower():
            return ("prefill_unsupported", f"The model refuses an assistant prefill: {detail}",
                    "Turn prefill off for this model: the structured-output or forced-tool path is used instead.")
        models = list_models()
        if models and model and model not in models:
            return "model_not_found", f"Model {model} not found at {url}: {detail}", _models_hint(models)
        if status == 404:
            return _not_found(config, url, detail, models)
        return ("bad_request", f"HTTP {status} from {url}: {detail}",
                "Possible causes, most likely first: the key is refused by a proxy (some answer 400, not 401); "
                "the model is unknown; a parameter is refused by the model (temperature, tools, extra body...).")
    if status >= 500:
        return ("server", f"Server error at {url} (HTTP {status}): {detail}",
                "The server failed, not your request: retry the failed requests in a moment.")
    if _is(exc, "APIResponseValidationError") or isinstance(exc, (json.JSONDecodeError, MalformedAnswer)):
        return ("malformed", f"The answer from {url} could not be read: {type(exc).__name__}: {exc}",
                "Is this an OpenAI-compatible endpoint? Check the base URL and the provider kind.")
    if status:
        return ("unexpected", f"HTTP {status} from {url}: {detail}", "")
    return "unexpected", short_text(f"{type(exc).__name__}: {exc}"), ""


def _models_hint(models: list[str]) -> str:
    more = f" (and {len(models) - MAX_MODELS_LISTED} more)" if len(models) > MAX_MODELS_LISTED else ""
    return f"Models offered by this endpoint: {', '.join(models[:MAX_MODELS_LISTED])}{more}."


def _not_found(config, url: str, detail: str, models: list[str] | None) -> tuple[str, str, str]:
    about_model = "model" in detail.lower() or models
    if config.kind == "openai" and config.base_url and not config.base_url.rstrip("/").endswith("/v1") \
            and not models:
        return ("not_found", f"Nothing found at {url} (HTTP 404).",
                f"OpenAI-compatible servers usually live under /v1: try {config.base_url.rstrip('/')}/v1")
    if about_model:
        hint = (_models_hint(models) if models
                else "Check the model name (for Ollama: `ollama list`; pull it with `ollama pull <model>`).")
        return "model_not_found", f"Model not found at {url}: {detail}", hint
    return "not_found", f"Nothing found at {url} (HTTP 404): {detail}", "Check the base URL."

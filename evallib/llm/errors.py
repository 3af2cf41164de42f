"""Translate SDK exceptions into messages a workshop participant can act on.

Each failure gets a kind (see `evallib.llm.request.ERROR_KINDS`), a message saying what happened
and a hint saying what to do. Messages name the URL and the model, never the key: the provider
scrubs the key from anything returned here as a second line of defence.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import anthropic
import openai

_SDKS = (openai, anthropic)

class MalformedAnswer(ValueError):
    """The server answered 200 but not in the expected shape (no choices, wrong vector count...)."""


#: How many model ids a "model not found" message lists at most.
MAX_MODELS_LISTED = 12


def _is(exc: BaseException, name: str) -> bool:
    """isinstance against the class ``name`` of either SDK."""
    return any(isinstance(exc, getattr(sdk, name)) for sdk in _SDKS)


def _server_detail(exc: BaseException) -> str:
    """The server's own error message, if the body had one."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
    return str(getattr(exc, "message", "") or "")


def describe_exception(exc: BaseException, config, list_models: Callable[[], list[str] | None]
                       ) -> tuple[str, str, str]:
    """(kind, message, hint) for an exception raised while calling a provider.

    Args:
        exc: what the SDK (or our own code) raised.
        config: the `ProviderConfig` used (for the URL and kind; its key is never read here).
        list_models: called only on a 404, to list the models the endpoint offers (None if it can't).
    """
    url = config.base_url or f"the default {config.kind} endpoint"
    detail = _server_detail(exc)
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
    if _is(exc, "NotFoundError"):
        return _not_found(exc, config, url, detail, list_models)
    if _is(exc, "RateLimitError"):
        return ("rate_limit", f"Still rate-limited by {url} after {config.max_retries} retries (HTTP 429).",
                "Lower the concurrency in the sidebar, wait a minute, then retry the failed requests.")
    if _is(exc, "BadRequestError") or _is(exc, "UnprocessableEntityError"):
        if "prefill" in detail.lower():
            return ("prefill_unsupported", f"The model refuses an assistant prefill: {detail}",
                    "Turn prefill off for this model: the structured-output or forced-tool path is used instead.")
        return ("bad_request", f"The server refused the request (HTTP {exc.status_code}): {detail}",
                "A parameter is not accepted by this model or server (temperature, tools, extra body...).")
    if _is(exc, "APIStatusError") and getattr(exc, "status_code", 0) >= 500:
        return ("server", f"Server error at {url} (HTTP {exc.status_code}): {detail}",
                "The server failed, not your request: retry the failed requests in a moment.")
    if _is(exc, "APIResponseValidationError") or isinstance(exc, (json.JSONDecodeError, MalformedAnswer)):
        return ("malformed", f"The answer from {url} could not be read: {type(exc).__name__}: {exc}",
                "Is this an OpenAI-compatible endpoint? Check the base URL and the provider kind.")
    if _is(exc, "APIStatusError"):
        return ("unexpected", f"HTTP {exc.status_code} from {url}: {detail}", "")
    return "unexpected", f"{type(exc).__name__}: {exc}", ""


def _not_found(exc, config, url: str, detail: str, list_models) -> tuple[str, str, str]:
    models = list_models()
    about_model = "model" in detail.lower() or models
    if config.kind == "openai" and config.base_url and not config.base_url.rstrip("/").endswith("/v1") \
            and not models:
        return ("not_found", f"Nothing found at {url} (HTTP 404).",
                f"OpenAI-compatible servers usually live under /v1: try {config.base_url.rstrip('/')}/v1")
    if about_model:
        offered = ", ".join(models[:MAX_MODELS_LISTED]) if models else ""
        more = f" (and {len(models) - MAX_MODELS_LISTED} more)" if models and len(models) > MAX_MODELS_LISTED else ""
        hint = (f"Models offered by this endpoint: {offered}{more}." if offered
                else "Check the model name (for Ollama: `ollama list`; pull it with `ollama pull <model>`).")
        return "model_not_found", f"Model not found at {url}: {detail}", hint
    return "not_found", f"Nothing found at {url} (HTTP 404): {detail}", "Check the base URL."

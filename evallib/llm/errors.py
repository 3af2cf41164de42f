"""Translate SDK exceptions into failures a workshop participant can act on, as data.

Each failure (`Failure`) has a kind (see `evallib.llm.request.ERROR_KINDS`), a code naming the exact
case, the values the case rests on (URL, model, HTTP status, the server's own short text, retries,
timeout, the wait the server asked for...), and an English message and hint for scripts and the
command line. A page words the code in its own language from the values, and shows the server's own
text verbatim as a quotation. Messages and values name the URL and the model, never the key: the
provider scrubs the key from everything returned here as a second line of defence.
"""

from __future__ import annotations

import errno
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from evallib.llm.redaction import redact, redact_text


#: The SDKs whose exception classes are recognised. They are looked up in ``sys.modules`` and never
#: imported here: an SDK exception can only exist once its SDK was imported by a live provider, and
#: an offline page must not pay for importing them.
SDK_MODULES = ("openai", "anthropic")


class MalformedAnswer(ValueError):
    """The server answered 200 but not in the expected shape (no choices, wrong vector count...).

    Attributes:
        code: "no_choices" or "vector_count".
        details: the values of the case (``vectors``, ``texts`` for "vector_count").
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.details = details


class NotAnApiAnswer(ValueError):
    """The address answered HTTP 200, but not as the model API of its kind: an HTML page (a web
    site, a login portal, the app itself), plain text, or JSON of another shape.

    Attributes:
        received: "html", "json" or "text" (what the body was).
        body: the body's text (its first line is shown, shortened, as the server's text).
    """

    def __init__(self, received: str, body: str) -> None:
        super().__init__(f"the answer is {RECEIVED[received]}, not a model API's")
        self.received = received
        self.body = body

    @classmethod
    def of(cls, http_response) -> "NotAnApiAnswer":
        """The failure of an ``httpx.Response`` whose body is not the API's."""
        body = http_response.text
        kind = http_response.headers.get("content-type", "")
        if "html" in kind or body.lstrip().startswith("<"):
            return cls("html", body)
        try:
            json.loads(body)
        except ValueError:
            return cls("text", body)
        return cls("json", body)


#: The statuses a reverse proxy (nginx, a cloud load balancer) answers with its own HTML page when the
#: model server behind it is down or slow: a server failure to retry, not "no model API here".
GATEWAY_STATUSES = frozenset({502, 503, 504})


def is_web_page(http_response) -> bool:
    """Whether an ``httpx.Response`` is a web page that no model API would send: HTML (`is_html`) at any
    status but a gateway's (`GATEWAY_STATUSES`: a proxy speaking for a model server that is down).

    >>> from types import SimpleNamespace
    >>> page = lambda status: SimpleNamespace(status_code=status, headers={"content-type": "text/html"}, text="")
    >>> is_web_page(page(501)), is_web_page(page(502))
    (True, False)
    """
    return http_response.status_code not in GATEWAY_STATUSES and is_html(http_response)


def is_html(http_response) -> bool:
    """Whether an ``httpx.Response`` is a web page: an HTML content type, or a body opening a tag.

    A model API answers errors in JSON (or plain text, as Ollama's "404 page not found"); a page
    from a web server (``python -m http.server`` answers a POST with an HTML 501, a GET of an
    unknown path with an HTML 404) is not a model API, whatever its status.
    """
    if "html" in http_response.headers.get("content-type", "").lower():
        return True
    try:
        return http_response.text.lstrip().startswith("<")
    except Exception:  # a streamed body not read: only the headers can tell
        return False


#: An HTML page's title (the most telling line of an error page: "Error response", "502 Bad Gateway").
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def page_text(body: str) -> str:
    """What a page says, shortened: its HTML title when it has one, else its first line (`short_text`).

    >>> page_text("<html><head><title>Error response</title></head><body>...</body></html>")
    'Error response'
    >>> page_text("<!DOCTYPE html>\\n<html><body>Welcome</body></html>")
    '<!DOCTYPE html>'
    """
    title = _TITLE.search(body)
    return short_text(" ".join(title.group(1).split())) if title and title.group(1).strip() else short_text(body)


class ConnectionRefused(Exception):
    """Nothing listens at the address: the connection was refused at once.

    The providers raise it (as a subclass of the SDK's own base error, which neither SDK retries)
    instead of letting the SDK retry a refused connection with backoff: asking again a port where
    nothing listens only delays the message by seconds per request (`evallib.llm.providers`).
    """


def refusal_in(exc: BaseException | None) -> OSError | None:
    """The ``ConnectionRefusedError`` behind ``exc`` (through its causes and contexts), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ConnectionRefusedError) or (isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def os_error_in(exc: BaseException | None) -> OSError | None:
    """The operating system's error behind ``exc`` (a refused connection, a name not resolved...), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


#: How a message names each kind of body that is not an API's.
RECEIVED = {"html": "an HTML page", "json": "JSON of another shape", "text": "plain text"}
#: The API each provider kind expects, as a message names it.
API_NAMES = {"openai": "an OpenAI-compatible API", "anthropic": "the Anthropic Messages API"}


#: Where each SDK sends requests when no base URL is given (the openai and anthropic clients'
#: ``base_url`` default), named in failures instead of an empty URL.
SDK_DEFAULT_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
#: How many model ids a "model not found" failure keeps at most (the page shows fewer).
MAX_MODELS_LISTED = 12
#: Longest server text kept (characters): proxies answer with stack traces and multi-paragraph
#: explanations (LiteLLM adds "Deployment Info" and fallback notes) that would fill a projected page.
SERVER_TEXT_MAX_CHARS = 160
#: HTTP statuses meaning "the model behind the server did not answer in time" (LiteLLM answers 408
#: for an upstream timeout, gateways 504): a timeout, not an unexpected error.
TIMEOUT_STATUSES = (408, 504)


@dataclass(frozen=True)
class Failure:
    """What went wrong with one call, as data.

    Attributes:
        kind: one of `evallib.llm.request.ERROR_KINDS` (groups failures on the page).
        code: the exact case, e.g. "rate_limit_wait_refused"; a page words it from ``details``.
        message: the English message (scripts, the command line, ``ChatResult.error``).
        hint: the English advice ("" when there is none).
        details: the values the message rests on, by name (str, int, float or lists of str).
    """

    kind: str
    code: str
    message: str
    hint: str = ""
    details: dict = field(default_factory=dict)

    def result_details(self) -> dict:
        """The dict kept on a result (``error_details``): ``code`` and the values."""
        return {"code": self.code, **self.details}

    def redacted(self) -> "Failure":
        """This failure with every secret removed from its texts and values (`evallib.llm.redaction.redact`):
        the base URL's userinfo, key-like query parameters, header values, keys echoed by a server."""
        return Failure(self.kind, self.code, redact_text(self.message), redact_text(self.hint), redact(self.details))


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
    """The server's own error message from an HTTP error's body, shortened (`short_text`); "" when
    the exception carries no answer from a server (a connection error's text is the SDK's, not the
    server's)."""
    if not _is(exc, "APIStatusError"):
        return ""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return short_text(inner["message"])
        if isinstance(inner, str):
            return short_text(inner)
    return short_text(getattr(exc, "message", "") or "")


_TIMEOUT_HINT = "The model may be loading or overloaded: retry, raise the timeout, or lower concurrency."
_RATE_HINT = "Lower the concurrency, wait a minute, then retry the failed requests."
_MALFORMED_HINT = "Is this an OpenAI-compatible endpoint? Check the base URL and the provider kind."
_START_HINT = ("Start the server (`ollama serve`, or `vllm serve <model>`) or check the base URL "
               "(Ollama: http://localhost:11434/v1, vLLM: http://localhost:8000/v1).")
_PREFILL_HINT = "Turn prefill off for this model: the structured-output or forced-tool path is used instead."


def _with_text(message: str, text: str) -> str:
    return f"{message}: {text}" if text else message


def describe_exception(exc: BaseException, config, list_models: Callable[[], list[str] | None],
                       model: str = "", *, refused_wait_s: float | None = None) -> Failure:
    """The `Failure` of an exception raised while calling a provider.

    Server texts are shortened (`short_text`) and kept as ``details["server_text"]``. An unknown
    model is recognised by the endpoint's model list whatever the status (OpenAI answers 404, the
    LiteLLM proxy 400); a 400 that is not about the model keeps the server's own message (a proxy
    refusing a key answers 400 "No connected db", not 401). An HTML page is no model API whatever
    its status (`is_html`); a key refused when none was given is a missing key (``auth_missing``),
    not a wrong one; a refused connection has its own code (``connection_refused``), and another
    lost connection keeps the operating system's reason as ``details["technical_text"]``.

    Args:
        exc: what the SDK (or our own code) raised.
        config: the `ProviderConfig` used (for the URL and kind; of its key only whether it is empty).
        list_models: called only on a 400/404/422, to list the models the endpoint offers (None if
            it can't).
        model: the model the request named.
        refused_wait_s: a Retry-After (s) refused because it exceeded the per-request wait budget.

    The failure is `Failure.redacted`: the URL it names (and any text the server or the SDK echoed)
    keeps no credential, whatever shape the base URL had.
    """
    return _described(exc, config, list_models, model, refused_wait_s).redacted()


def _described(exc: BaseException, config, list_models, model: str, refused_wait_s: float | None) -> Failure:
    url = config.base_url or SDK_DEFAULT_URLS.get(config.kind, "")
    where = {"url": url, "provider": config.kind}
    text = server_text(exc)
    if type(exc).__name__ == "PrefillRefused":
        return Failure("prefill_unsupported", "prefill_configured", str(exc), _PREFILL_HINT, {"model": exc.model})
    if type(exc).__name__ == "EmbeddingsUnsupported":
        return Failure("bad_request", "embeddings_unsupported", str(exc), "", {"provider": config.kind})
    if _is(exc, "APITimeoutError"):
        return Failure("timeout", "timeout", f"No answer from {url} within {config.timeout_s:g} s.",
                       _TIMEOUT_HINT, {**where, "timeout_s": config.timeout_s})
    if isinstance(exc, ConnectionRefused) or (_is(exc, "APIConnectionError") and refusal_in(exc)):
        return Failure("connection", "connection_refused",
                       f"No server answered at {url}: the connection was refused (nothing listens there).",
                       _START_HINT, where)
    if _is(exc, "APIConnectionError"):
        cause = os_error_in(exc)
        said = {"technical_text": short_text(str(cause))} if cause is not None and str(cause) else {}
        return Failure("connection", "connection", _with_text(f"No server answered at {url}", said.get(
            "technical_text", "")) + ("" if said else "."), _START_HINT, {**where, **said})
    status = getattr(exc, "status_code", 0) if _is(exc, "APIStatusError") else 0
    response = getattr(exc, "response", None) if status else None
    if response is not None and is_web_page(response):
        return Failure("malformed", f"not_{config.kind}_api",
                       f"{url} answers, but not as {API_NAMES.get(config.kind, 'a model API')} "
                       f"(it sent {RECEIVED['html']}, HTTP {status}).", _MALFORMED_HINT,
                       {**where, "received": "html", "status": status, "server_text": page_text(response.text)})
    http = {**where, "status": status, "server_text": page_text(response.text) if response is not None
            and is_html(response) else text}
    if response is not None and status in GATEWAY_STATUSES and is_html(response):
        return Failure("server", "gateway", f"A proxy at {url} answered for the model server behind it, which "
                       f"did not answer (HTTP {status}: {http['server_text']}).",
                       "The model server behind the proxy is down or overloaded: start it, or retry in a moment.",
                       http)
    if (_is(exc, "AuthenticationError") or _is(exc, "PermissionDeniedError")) and not config.api_key:
        return Failure("auth", "auth_missing",
                       f"The server at {url} asks for an API key, and none was given (HTTP {status}).",
                       "Give an API key (scripts read OPENAI_API_KEY or ANTHROPIC_API_KEY).", http)
    if _is(exc, "AuthenticationError") or _is(exc, "PermissionDeniedError"):
        return Failure("auth", "auth", f"The server at {url} rejected the API key (HTTP {status}).",
                       "Check the API key (scripts read OPENAI_API_KEY or ANTHROPIC_API_KEY).", http)
    if status in TIMEOUT_STATUSES:
        return Failure("timeout", "timeout_status", _with_text(
            f"The server at {url} says the model did not answer in time (HTTP {status})", text), _TIMEOUT_HINT, http)
    if _is(exc, "RateLimitError"):
        if refused_wait_s is not None:
            return Failure("rate_limit", "rate_limit_wait_refused",
                           f"Rate-limited by {url} (HTTP 429): the server asked to wait {refused_wait_s:g} s, "
                           "longer than a request may wait.", _RATE_HINT, {**http, "wait_s": refused_wait_s})
        return Failure("rate_limit", "rate_limit", _with_text(
            f"Still rate-limited by {url} after {config.max_retries} retries (HTTP 429)", text), _RATE_HINT,
            {**http, "retries": config.max_retries})
    if status in (400, 404, 422):
        return _refused(config, url, model, http, list_models)
    if status >= 500:
        return Failure("server", "server", _with_text(f"Server error at {url} (HTTP {status})", text),
                       "The server failed, not your request: retry the failed requests in a moment.", http)
    if isinstance(exc, NotAnApiAnswer):
        return Failure("malformed", f"not_{config.kind}_api",
                       f"{url} answers, but not as {API_NAMES.get(config.kind, 'a model API')} "
                       f"(it sent {RECEIVED[exc.received]}).", _MALFORMED_HINT,
                       {**where, "received": exc.received, "server_text": page_text(exc.body)})
    if isinstance(exc, MalformedAnswer):
        return Failure("malformed", f"malformed_{exc.code}", f"The answer from {url} could not be read: {exc}",
                       _MALFORMED_HINT, {**where, **exc.details})
    if _is(exc, "APIResponseValidationError") or isinstance(exc, json.JSONDecodeError):
        return Failure("malformed", "malformed", f"The answer from {url} could not be read: {type(exc).__name__}: "
                       f"{exc}", _MALFORMED_HINT, {**where, "exception": type(exc).__name__})
    if status:
        return Failure("unexpected", "unexpected_status", _with_text(f"HTTP {status} from {url}", text), "", http)
    return unexpected_failure(exc)



def unexpected_failure(exc: BaseException) -> Failure:
    """The failure of an exception nobody foresaw: its class name and its own (technical) text, redacted."""
    return Failure("unexpected", "unexpected", short_text(f"{type(exc).__name__}: {exc}"), "",
                   {"exception": type(exc).__name__, "technical_text": short_text(str(exc))}).redacted()


def _refused(config, url: str, model: str, http: dict, list_models) -> Failure:
    """A 400, 404 or 422: a prefill refused, an unknown model, a wrong URL, or a refused request."""
    status, text = http["status"], http["server_text"]
    if "prefill" in text.lower():
        return Failure("prefill_unsupported", "prefill_refused",
                       f"The model refuses an assistant prefill: {text}", _PREFILL_HINT, {**http, "model": model})
    models = list_models()
    listed = {"models": list(models[:MAX_MODELS_LISTED]), "models_total": len(models)} if models else {}
    if models and model and model not in models:
        return Failure("model_not_found", "model_not_found", _with_text(f"Model {model} not found at {url}", text),
                       _models_hint(models), {**http, "model": model, **listed})
    if status == 404:
        if config.kind == "openai" and config.base_url and not config.base_url.rstrip("/").endswith("/v1") \
                and not models:
            suggestion = f"{config.base_url.rstrip('/')}/v1"
            return Failure("not_found", "not_found_v1", f"Nothing found at {url} (HTTP 404).",
                           f"OpenAI-compatible servers usually live under /v1: try {suggestion}",
                           {**http, "suggestion": suggestion})
        if "model" in text.lower() or models:
            hint = (_models_hint(models) if models
                    else "Check the model name (for Ollama: `ollama list`; pull it with `ollama pull <model>`).")
            return Failure("model_not_found", "model_not_found", _with_text(f"Model not found at {url}", text),
                           hint, {**http, "model": model, **listed})
        return Failure("not_found", "not_found", _with_text(f"Nothing found at {url} (HTTP 404)", text),
                       "Check the base URL.", http)
    if not config.api_key and status == 400:  # LiteLLM refuses a request without a key so: 400 "No connected db"
        return Failure("bad_request", "bad_request_no_key", _with_text(
            f"HTTP 400 from {url}, and no API key was given (a proxy that needs one answers so)", text),
            "Give an API key first (scripts read OPENAI_API_KEY or ANTHROPIC_API_KEY); then check the model "
            "and the parameters.", {**http, "model": model})
    return Failure("bad_request", "bad_request", _with_text(f"HTTP {status} from {url}", text),
                   "Possible causes, most likely first: the key is refused by a proxy (some answer 400, not 401); "
                   "the model is unknown; a parameter is refused by the model (temperature, tools, extra body...).",
                   {**http, "model": model})


def _models_hint(models: list[str]) -> str:
    more = f" (and {len(models) - MAX_MODELS_LISTED} more)" if len(models) > MAX_MODELS_LISTED else ""
    return f"Models offered by this endpoint: {', '.join(models[:MAX_MODELS_LISTED])}{more}."

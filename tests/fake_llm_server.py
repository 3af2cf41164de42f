"""A fake LLM HTTP server for tests and benchmarks (standard library only).

It speaks enough of the OpenAI and Anthropic wire formats for the official
``openai`` and ``anthropic`` Python SDKs to parse its answers, and it picks a
behaviour (a normal answer, a tool call, a 429, a hang, a malformed body...)
from the requested *model name*, so one server covers every code path of the
model layer without internet access.

Usage::

    from tests.fake_llm_server import FakeLLMServer

    with FakeLLMServer(api_key="test-key") as server:
        client = openai.OpenAI(base_url=server.openai_base_url, api_key="test-key")
        client.chat.completions.create(model="fake-ok", messages=[...])
        claude = anthropic.Anthropic(base_url=server.anthropic_base_url, api_key="test-key")
        claude.messages.create(model="fake-ok", max_tokens=64, messages=[...])
        assert server.stats[200] == 2

Routes
------
=======  ======================  ==========================================
Method   Path                    Answer
=======  ======================  ==========================================
GET      /v1/models              model list (OpenAI shape; Anthropic shape
                                 when the ``anthropic-version`` header is set)
POST     /v1/chat/completions    OpenAI ``ChatCompletion``
POST     /v1/embeddings          OpenAI ``CreateEmbeddingResponse``
POST     /v1/messages            Anthropic ``Message``
other    anything else           404 (provider-shaped error body)
=======  ======================  ==========================================

Authentication: OpenAI routes need ``Authorization: Bearer <api_key>``.
``/v1/messages`` accepts ``x-api-key: <api_key>`` *or*
``Authorization: Bearer <api_key>``: the installed anthropic SDK (2.14.0)
sends ``api_key=`` as a Bearer token (see ``Anthropic._api_key_auth``), so
insisting on ``x-api-key`` would reject the real client. A wrong or missing key
gives 401 in the provider's error format; the body never contains the key.
With ``proxy_errors=True`` the OpenAI routes answer as the LiteLLM proxy does
(checked against litellm 1.x with a master key): a wrong key, on any route
including ``/v1/models``, is HTTP 400 ``"No connected db."``, and an unknown
model is HTTP 400 ``"/chat/completions: Invalid model name passed in
model=<x>. Call `/v1/models` to view available models for your key."``.

Behaviour by model name
-----------------------
"<text>" below is the text of the last user message (text parts joined).

=====================  ====================================================
Model                  Behaviour
=====================  ====================================================
fake-ok                200, text ``"answer to: <text>"``. OpenAI ``stop`` and
                       Anthropic ``stop_sequences`` cut the text at the first
                       stop sequence found (Anthropic then reports
                       ``stop_reason="stop_sequence"`` and ``stop_sequence``).
                       With an Anthropic prefill (last message from the
                       assistant) the returned text is the continuation
                       only, i.e. the same ``"answer to: <text>"``, which the
                       caller appends to its prefill. Usage = word counts.
                       With ``server.rate_limit_fraction > 0`` a
                       deterministic share of distinct request bodies is
                       first answered 429 once (see fake-429-once).
fake-tools             A call to the *first* tool of the request (OpenAI
                       ``tool_calls`` + ``finish_reason="tool_calls"``;
                       Anthropic ``tool_use`` block + ``stop_reason=
                       "tool_use"``). Arguments are built from the tool's
                       JSON schema: each property gets a placeholder of its
                       type (string "test", integer 1, number 1.0, boolean
                       true, array [], object {}, enum -> first value).
                       Without tools in the request: like fake-ok.
fake-429-once          The first request with a given body (path + canonical
                       JSON) gets 429 with ``Retry-After: <server.retry_after>``
                       (default 1 s); the retry with the same body is
                       answered like fake-ok. ``server.stats[429]`` counts
                       the 429s sent.
fake-429               Always 429 with ``Retry-After: <server.retry_after>``
                       (a model that stays rate-limited through every retry).
fake-408               Always 408 with LiteLLM's multi-line upstream-timeout
                       text (``"litellm.Timeout: ...\\n\\nDeployment Info: ..."``).
fake-500               Always 500 with a provider-shaped error body.
fake-hang              Waits ``server.hang_seconds`` (default 5) and then
                       answers like fake-ok; the client timeout should fire
                       first. ``stop()`` and ``reset()`` interrupt the wait
                       (the connection is then closed without an answer).
fake-malformed         200, ``Content-Type: application/json``, body
                       ``{not json``.
fake-empty             200 with content ``""`` (OpenAI) / one empty text
                       block (Anthropic).
fake-reasoning-only    OpenAI: ``content=null`` plus ``reasoning_content``
                       (an extra field), ``finish_reason="stop"``.
                       Anthropic: a single ``thinking`` block, no text.
fake-think-only        Text is only ``<think>Thinking about: <text></think>``.
fake-think             ``<think>Thinking about: <text></think>`` followed by
                       ``answer to: <text>``.
fake-length            The first three words of the fake-ok answer, with
                       ``finish_reason="length"`` / ``stop_reason=
                       "max_tokens"``.
fake-prefill-400       Anthropic: 400 ``invalid_request_error`` ("This model
                       does not support assistant message prefill...") when
                       the last message is from the assistant, otherwise
                       like fake-ok. OpenAI: like fake-ok.
fake-fixed             200, always ``server.fixed_reply`` (default "This is a
                       mock reply.", as LiteLLM's mock models answer),
                       whatever was asked.
fake-length-empty      200 with content ``""`` and ``finish_reason="length"``
                       (Anthropic: no text, ``stop_reason="max_tokens"``): a
                       model that spent the whole token budget before its
                       first word of answer (a tool call or reasoning cut).
fake-embed             Embedding model (fake-ok and the other names above
                       work for ``/v1/embeddings`` too).
anything else          404: OpenAI ``code="model_not_found"`` ("The model `x`
                       does not exist"), Anthropic ``not_found_error``.
=====================  ====================================================

Embeddings are deterministic unit vectors derived from a hash of each input
text, of dimension 8 (or the request's ``dimensions``). The openai SDK asks
for ``encoding_format="base64"`` unless told otherwise, so both ``base64``
(little-endian float32) and ``float`` are served.

Streaming (``stream=true``) is not supported: 400.

Knobs and instrumentation (all thread-safe)
-------------------------------------------
* ``latency`` (seconds): every answer waits this long first; settable at
  runtime. ``hang_seconds``, ``retry_after``, ``rate_limit_fraction`` and
  ``proxy_errors`` are also plain attributes that may be changed between
  requests.
* ``requests``: snapshot list of recorded requests, each a dict with
  ``method``, ``path``, ``headers`` (lower-cased names), ``body`` (parsed
  JSON or None), ``model``, ``time`` (``time.time()`` at arrival) and
  ``status`` (None until answered; stays None if the answer was abandoned).
* ``stats``: ``collections.Counter`` snapshot of status codes sent,
  e.g. ``server.stats[429]``.
* ``in_flight`` / ``in_flight_max``: requests being handled now / the
  maximum seen at once since the last ``reset()``.
* ``reset()``: clears all of the above and the fake-429-once memory, and
  cuts short any fake-hang request still waiting.

The server uses HTTP/1.0 (one connection per request, ``Connection: close``),
so a client never reuses a connection that the server has dropped.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import json
import math
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeLLMServer", "MODELS", "EMBEDDING_DIMENSION", "NotAnApiServer", "PlainFileServer"]

MODELS = (
    "fake-ok",
    "fake-tools",
    "fake-429-once",
    "fake-429",
    "fake-408",
    "fake-500",
    "fake-hang",
    "fake-malformed",
    "fake-empty",
    "fake-reasoning-only",
    "fake-think-only",
    "fake-think",
    "fake-length",
    "fake-prefill-400",
    "fake-embed",
    "fake-fixed",
    "fake-length-empty",
)

EMBEDDING_DIMENSION = 8
_CREATED = 1_700_000_000  # fixed "created" timestamp for the model list
#: LiteLLM's text for an upstream timeout (408), multi-line as the proxy sends it.
_UPSTREAM_TIMEOUT_MESSAGE = (
    "litellm.Timeout: This is a mock timeout error\n\nDeployment Info: request_timeout: None\n"
    "timeout: 4.0\n\nLiteLLM: model group 'fake-408' failed with the error above. No fallback was attempted."
)
_PREFILL_MESSAGE = (
    "This model does not support assistant message prefill. "
    "The conversation must end with a user message."
)


class _HTTPError(Exception):
    """Raised inside a handler to send a provider-shaped error answer."""

    def __init__(self, status: int, kind: str, message: str, code: str | None = None, headers=None):
        super().__init__(message)
        self.status = status
        self.kind = kind  # OpenAI "type" / Anthropic error.type
        self.message = message
        self.code = code
        self.headers = headers or {}


# ---------------------------------------------------------------------------
# Small helpers working on request bodies
# ---------------------------------------------------------------------------


def _canonical(path: str, body: Any) -> str:
    return path + "\n" + json.dumps(body, sort_keys=True, separators=(",", ":"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _words(text: str) -> int:
    return len(text.split())


def _text_of(content: Any) -> str:
    """Text of a message content: a string or a list of content parts/blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict):
                if isinstance(part.get("text"), str):
                    parts.append(part["text"])
                elif part.get("type") == "tool_result":
                    parts.append(_text_of(part.get("content")))
        return " ".join(p for p in parts if p)
    return ""


def _last_user_text(messages: list) -> str:
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return _text_of(message.get("content"))
    return ""


def _all_text(messages: list, system: Any = None) -> str:
    texts = [_text_of(system)] if system else []
    texts += [_text_of(m.get("content")) for m in messages if isinstance(m, dict)]
    return " ".join(t for t in texts if t)


def _cut_at_stop(text: str, stops: Any) -> tuple[str, str | None]:
    """Cut ``text`` before the earliest stop sequence; return (text, sequence or None)."""
    if isinstance(stops, str):
        stops = [stops]
    if not isinstance(stops, list):
        return text, None
    best: tuple[int, str] | None = None
    for stop in stops:
        if isinstance(stop, str) and stop:
            index = text.find(stop)
            if index >= 0 and (best is None or index < best[0]):
                best = (index, stop)
    if best is None:
        return text, None
    return text[: best[0]], best[1]


def _placeholder(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return "test"
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    return {
        "integer": 1,
        "number": 1.0,
        "boolean": True,
        "array": [],
        "object": {},
        "null": None,
    }.get(kind, "test")


def _arguments_for(schema: Any) -> dict:
    """Placeholder arguments for a JSON schema of type object."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {name: _placeholder(sub) for name, sub in properties.items()}


def _embedding(text: str, dimension: int) -> list[float]:
    """Deterministic unit vector from a hash of ``text``, exact in float32."""
    raw = hashlib.shake_256(text.encode("utf-8")).digest(dimension)
    values = [byte / 127.5 - 1.0 for byte in raw]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    values = [v / norm for v in values]
    # Round-trip through float32 so the base64 and float encodings agree exactly.
    return list(struct.unpack(f"<{dimension}f", struct.pack(f"<{dimension}f", *values)))


# ---------------------------------------------------------------------------
# HTTP plumbing
# ---------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # listen() backlog: room for many concurrent clients
    allow_reuse_address = True

    fake: "FakeLLMServer"

    def handle_error(self, request, client_address):
        # A client that gave up (timeout) closes its socket; writing the late
        # answer then fails. That is expected, not worth a traceback.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"
    server_version = "FakeLLMServer/1.0"
    fake_counted = False  # True while the request counts in FakeLLMServer.in_flight

    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        if self.server.fake.verbose:
            super().log_message(format, *args)

    def do_GET(self):
        self.server.fake._handle(self)

    def do_POST(self):
        self.server.fake._handle(self)

    do_PUT = do_DELETE = do_PATCH = do_POST


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------


class FakeLLMServer:
    """Fake OpenAI-compatible + Anthropic server on 127.0.0.1 (see module docstring)."""

    def __init__(
        self,
        api_key: str = "test-key",
        latency: float = 0.0,
        *,
        hang_seconds: float = 5.0,
        retry_after: float = 1,
        rate_limit_fraction: float = 0.0,
        proxy_errors: bool = False,
        fixed_reply: str = "This is a mock reply.",
        host: str = "127.0.0.1",
        port: int = 0,
        verbose: bool = False,
    ):
        self.api_key = api_key
        self.latency = latency
        self.hang_seconds = hang_seconds
        self.retry_after = retry_after
        self.rate_limit_fraction = rate_limit_fraction
        self.proxy_errors = proxy_errors
        self.fixed_reply = fixed_reply
        self.verbose = verbose
        self._host = host
        self._port = port

        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._stopping = threading.Event()  # set by stop(): ends latency waits
        self._hang_abort = threading.Event()  # set by stop() and reset(): ends fake-hang waits
        self._hanging = 0
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self._clear()

    # -- lifecycle ----------------------------------------------------------

    def start(self) -> "FakeLLMServer":
        if self._httpd is not None:
            raise RuntimeError("FakeLLMServer is already running")
        self._stopping.clear()
        self._hang_abort = threading.Event()
        httpd = _Server((self._host, self._port), _Handler)
        httpd.fake = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"FakeLLMServer:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self, wait: float = 2.0) -> None:
        """Stop serving; interrupts hanging/latency waits, then waits up to
        ``wait`` seconds for the handlers still running to finish."""
        httpd = self._httpd
        if httpd is None:
            return
        self._stopping.set()
        with self._lock:
            self._hang_abort.set()
        httpd.shutdown()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=wait)
        deadline = time.monotonic() + wait
        with self._idle:
            while self._in_flight and time.monotonic() < deadline:
                self._idle.wait(timeout=max(0.0, deadline - time.monotonic()))
        self._httpd = None
        self._thread = None

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # -- addresses ----------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("FakeLLMServer is not running")
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url  # the anthropic SDK appends /v1/messages itself

    # -- instrumentation ----------------------------------------------------

    def _clear(self) -> None:
        self._requests: list[dict] = []
        self._stats: collections.Counter = collections.Counter()
        self._seen_bodies: set[str] = set()
        self._in_flight = getattr(self, "_in_flight", 0)
        self._in_flight_max = self._in_flight

    def reset(self, wait: float = 2.0) -> None:
        """Forget recorded requests, counters and the fake-429-once memory.

        A fake-hang request still waiting is cut short (it gets no answer), so
        a leftover from an earlier test cannot inflate ``in_flight_max``.
        """
        deadline = time.monotonic() + wait
        with self._idle:
            self._hang_abort.set()
            self._hang_abort = threading.Event()
            while self._hanging and time.monotonic() < deadline:
                self._idle.wait(timeout=max(0.0, deadline - time.monotonic()))
            self._clear()

    @property
    def requests(self) -> list[dict]:
        with self._lock:
            return list(self._requests)

    @property
    def stats(self) -> collections.Counter:
        with self._lock:
            return collections.Counter(self._stats)

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self._in_flight

    @property
    def in_flight_max(self) -> int:
        with self._lock:
            return self._in_flight_max

    # -- request handling ---------------------------------------------------

    def _handle(self, handler: _Handler) -> None:
        with self._lock:
            self._in_flight += 1
            self._in_flight_max = max(self._in_flight_max, self._in_flight)
        handler.fake_counted = True
        try:
            self._handle_counted(handler)
        finally:
            self._release(handler)

    def _release(self, handler: _Handler) -> None:
        """Stop counting ``handler`` as in flight (once).

        Called just before an answer goes on the wire, so that a client holding
        its answer never sees its own request still counted in ``in_flight``.
        """
        with self._idle:
            if handler.fake_counted:
                handler.fake_counted = False
                self._in_flight -= 1
                self._idle.notify_all()

    def _handle_counted(self, handler: _Handler) -> None:
        path = handler.path.split("?", 1)[0].rstrip("/") or "/"
        headers = {name.lower(): value for name, value in handler.headers.items()}
        length = int(headers.get("content-length") or 0)
        raw = handler.rfile.read(length) if length > 0 else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
            bad_json = True
        else:
            bad_json = False
        model = body.get("model") if isinstance(body, dict) else None

        record = {
            "method": handler.command,
            "path": path,
            "headers": headers,
            "body": body,
            "model": model,
            "time": time.time(),
            "status": None,
        }
        with self._lock:
            self._requests.append(record)

        route = (handler.command, path)
        # Which provider's shapes to answer in: /v1/messages is Anthropic; the
        # shared or unknown paths follow the anthropic SDK's version header.
        anthropic = path == "/v1/messages" or (
            path not in ("/v1/chat/completions", "/v1/embeddings") and "anthropic-version" in headers
        )
        try:
            # Every answer waits `latency` first (interruptible by stop()).
            if self.latency > 0 and self._stopping.wait(self.latency):
                return
            if route not in {
                ("GET", "/v1/models"),
                ("POST", "/v1/chat/completions"),
                ("POST", "/v1/embeddings"),
                ("POST", "/v1/messages"),
            }:
                raise _HTTPError(
                    404,
                    "not_found_error" if anthropic else "invalid_request_error",
                    f"Invalid URL ({handler.command} {path})",
                )
            self._check_auth(headers, anthropic)
            if path == "/v1/models":
                self._send_json(handler, record, 200, self._model_list(anthropic))
                return
            if bad_json or not isinstance(body, dict):
                raise _HTTPError(400, "invalid_request_error", "The request body is not a JSON object.")
            if not isinstance(model, str) or not model:
                raise _HTTPError(400, "invalid_request_error", "Missing required parameter: 'model'.")
            if model not in MODELS:
                if self.proxy_errors and not anthropic:
                    raise _HTTPError(400, "invalid_request_error",
                                     f"{path.removeprefix('/v1')}: Invalid model name passed in model={model}. "
                                     "Call `/v1/models` to view available models for your key.", code="400")
                if anthropic:
                    raise _HTTPError(404, "not_found_error", f"model: {model}")
                raise _HTTPError(
                    404,
                    "invalid_request_error",
                    f"The model `{model}` does not exist or you do not have access to it.",
                    code="model_not_found",
                )
            if body.get("stream"):
                raise _HTTPError(400, "invalid_request_error", "stream=true is not supported by FakeLLMServer.")

            # Behaviours shared by every POST route.
            if model == "fake-408":
                raise _HTTPError(408, "invalid_request_error", _UPSTREAM_TIMEOUT_MESSAGE, code="408")
            if model == "fake-500":
                raise _HTTPError(500, "api_error" if anthropic else "server_error",
                                 "The server had an error while processing your request.")
            if model == "fake-malformed":
                self._send_raw(handler, record, 200, b"{not json", "application/json")
                return
            if self._should_rate_limit(model, path, body):
                retry_after = self.retry_after
                value = str(int(retry_after)) if float(retry_after).is_integer() else str(retry_after)
                raise _HTTPError(
                    429,
                    "rate_limit_error" if anthropic else "requests",
                    f"Rate limit reached for {model}. Please try again in {value}s.",
                    code="rate_limit_exceeded",
                    headers={"Retry-After": value},
                )
            if model == "fake-hang" and self._hang(handler):
                return  # stopped or reset while hanging: dropped without an answer

            if path == "/v1/chat/completions":
                answer = self._chat_completion(model, body)
            elif path == "/v1/embeddings":
                answer = self._embeddings(model, body)
            else:
                answer = self._message(model, body)
            self._send_json(handler, record, 200, answer)
        except _HTTPError as err:
            self._send_error(handler, record, err, anthropic)

    def _hang(self, handler: _Handler) -> bool:
        """Wait ``hang_seconds``; True if stop() or reset() interrupted the wait."""
        with self._lock:
            abort = self._hang_abort
            self._hanging += 1
        interrupted = abort.wait(self.hang_seconds)
        if interrupted:
            self._release(handler)  # before reset() may clear the counters
        with self._idle:
            self._hanging -= 1
            self._idle.notify_all()
        return interrupted

    def _check_auth(self, headers: dict, anthropic: bool) -> None:
        bearer = headers.get("authorization", "")
        ok = bearer == f"Bearer {self.api_key}"
        if anthropic:
            ok = ok or headers.get("x-api-key") == self.api_key
            if not ok:
                raise _HTTPError(401, "authentication_error", "invalid x-api-key")
        elif not ok and self.proxy_errors:
            raise _HTTPError(400, "no_db_connection", "No connected db.", code="400")
        elif not ok:
            raise _HTTPError(
                401,
                "invalid_request_error",
                "Incorrect API key provided.",
                code="invalid_api_key",
            )

    def _should_rate_limit(self, model: str, path: str, body: dict) -> bool:
        key = _canonical(path, body)
        if model == "fake-429":
            return True
        if model == "fake-429-once":
            chosen = True
        elif model == "fake-ok" and self.rate_limit_fraction > 0:
            chosen = int(_digest(key)[:8], 16) / 0x1_0000_0000 < self.rate_limit_fraction
        else:
            return False
        if not chosen:
            return False
        with self._lock:
            if key in self._seen_bodies:
                return False
            self._seen_bodies.add(key)
            return True

    # -- writing answers ----------------------------------------------------

    def _send_raw(self, handler: _Handler, record: dict, status: int, payload: bytes,
                  content_type: str, extra_headers: dict | None = None) -> None:
        request_id = "req_" + _digest(f"{record['time']}{id(record)}")[:24]
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(payload)))
        handler.send_header("Connection", "close")
        handler.send_header("x-request-id", request_id)  # read by the openai SDK
        handler.send_header("request-id", request_id)  # read by the anthropic SDK
        for name, value in (extra_headers or {}).items():
            handler.send_header(name, value)
        with self._lock:
            record["status"] = status
            self._stats[status] += 1
        self._release(handler)
        handler.end_headers()  # the first bytes go out here
        handler.wfile.write(payload)
        handler.wfile.flush()

    def _send_json(self, handler, record, status: int, payload: Any, extra_headers=None) -> None:
        data = json.dumps(payload).encode("utf-8")
        self._send_raw(handler, record, status, data, "application/json", extra_headers)

    def _send_error(self, handler, record, err: _HTTPError, anthropic: bool) -> None:
        if anthropic:
            payload = {"type": "error", "error": {"type": err.kind, "message": err.message}}
        else:
            payload = {"error": {"message": err.message, "type": err.kind, "param": None, "code": err.code}}
        self._send_json(handler, record, err.status, payload, err.headers)

    # -- answer bodies ------------------------------------------------------

    def _model_list(self, anthropic: bool) -> dict:
        if anthropic:
            data = [
                {
                    "type": "model",
                    "id": name,
                    "display_name": name,
                    "created_at": "2023-11-14T22:13:20Z",
                    "lifecycle": "active",
                }
                for name in MODELS
            ]
            return {"data": data, "has_more": False, "first_id": MODELS[0], "last_id": MODELS[-1]}
        data = [
            {"id": name, "object": "model", "created": _CREATED, "owned_by": "fake-llm-server"}
            for name in MODELS
        ]
        return {"object": "list", "data": data}

    def _texts(self, model: str, user_text: str) -> tuple[str, str]:
        """(answer text, reasoning text) for the text-producing models."""
        answer = f"answer to: {user_text}"
        reasoning = f"Thinking about: {user_text}"
        if model == "fake-empty":
            return "", reasoning
        if model == "fake-think-only":
            return f"<think>{reasoning}</think>", reasoning
        if model == "fake-think":
            return f"<think>{reasoning}</think>{answer}", reasoning
        if model == "fake-length":
            return " ".join(answer.split()[:3]), reasoning
        if model == "fake-length-empty":
            return "", reasoning
        if model == "fake-fixed":
            return self.fixed_reply, reasoning
        return answer, reasoning

    def _chat_completion(self, model: str, body: dict) -> dict:
        messages = body.get("messages") if isinstance(body.get("messages"), list) else []
        user_text = _last_user_text(messages)
        key = _digest(_canonical("/v1/chat/completions", body))
        message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
        tools = body.get("tools") if isinstance(body.get("tools"), list) else []
        reasoning_tokens = None

        if model == "fake-tools" and tools:
            function = tools[0].get("function", {}) if isinstance(tools[0], dict) else {}
            arguments = _arguments_for(function.get("parameters"))
            message["tool_calls"] = [
                {
                    "id": "call_" + key[:24],
                    "type": "function",
                    "function": {"name": function.get("name", "tool"), "arguments": json.dumps(arguments)},
                }
            ]
            finish_reason = "tool_calls"
            completion_text = message["tool_calls"][0]["function"]["arguments"]
        elif model == "fake-reasoning-only":
            _, reasoning = self._texts(model, user_text)
            message["reasoning_content"] = reasoning
            finish_reason = "stop"
            completion_text = reasoning
            reasoning_tokens = _words(reasoning)
        else:
            text, _ = self._texts(model, user_text)
            finish_reason = "length" if model in ("fake-length", "fake-length-empty") else "stop"
            if finish_reason != "length":
                text, _ = _cut_at_stop(text, body.get("stop"))
            message["content"] = text
            completion_text = text

        prompt_tokens = _words(_all_text(messages))
        completion_tokens = _words(completion_text)
        usage: dict[str, Any] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        if reasoning_tokens is not None:
            usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
        return {
            "id": "chatcmpl-" + key[:24],
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
            "usage": usage,
            "system_fingerprint": "fp_fake",
        }

    def _embeddings(self, model: str, body: dict) -> dict:
        inputs = body.get("input")
        if isinstance(inputs, str) or (
            isinstance(inputs, list) and inputs and all(isinstance(i, int) for i in inputs)
        ):
            inputs = [inputs]  # one string, or one list of token ids
        if not isinstance(inputs, list) or not inputs:
            raise _HTTPError(400, "invalid_request_error", "'input' must be a non-empty string or array.")
        texts = [i if isinstance(i, str) else json.dumps(i) for i in inputs]
        dimension = body.get("dimensions")
        if not isinstance(dimension, int) or not 1 <= dimension <= 4096:
            dimension = EMBEDDING_DIMENSION
        base64_wanted = body.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(texts):
            vector: Any = _embedding(text, dimension)
            if base64_wanted:
                vector = base64.b64encode(struct.pack(f"<{dimension}f", *vector)).decode("ascii")
            data.append({"object": "embedding", "index": index, "embedding": vector})
        tokens = sum(_words(t) for t in texts)
        return {
            "object": "list",
            "data": data,
            "model": model,
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def _message(self, model: str, body: dict) -> dict:
        messages = body.get("messages") if isinstance(body.get("messages"), list) else []
        if not messages:
            raise _HTTPError(400, "invalid_request_error", "messages: at least one message is required")
        prefill = isinstance(messages[-1], dict) and messages[-1].get("role") == "assistant"
        if model == "fake-prefill-400" and prefill:
            raise _HTTPError(400, "invalid_request_error", _PREFILL_MESSAGE)

        user_text = _last_user_text(messages)
        key = _digest(_canonical("/v1/messages", body))
        tools = body.get("tools") if isinstance(body.get("tools"), list) else []
        stop_sequence = None

        if model == "fake-tools" and tools:
            tool = tools[0] if isinstance(tools[0], dict) else {}
            tool_input = _arguments_for(tool.get("input_schema"))
            content = [
                {"type": "tool_use", "id": "toolu_" + key[:24], "name": tool.get("name", "tool"), "input": tool_input}
            ]
            stop_reason = "tool_use"
            output_text = json.dumps(tool_input)
        elif model == "fake-reasoning-only":
            _, reasoning = self._texts(model, user_text)
            content = [{"type": "thinking", "thinking": reasoning, "signature": "fake-signature"}]
            stop_reason = "end_turn"
            output_text = reasoning
        else:
            text, _ = self._texts(model, user_text)
            if model in ("fake-length", "fake-length-empty"):
                stop_reason = "max_tokens"
            else:
                text, stop_sequence = _cut_at_stop(text, body.get("stop_sequences"))
                stop_reason = "stop_sequence" if stop_sequence is not None else "end_turn"
            content = [{"type": "text", "text": text}]
            output_text = text

        return {
            "id": "msg_" + key[:24],
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": stop_sequence,
            "usage": {
                "input_tokens": _words(_all_text(messages, body.get("system"))),
                "output_tokens": _words(output_text),
            },
        }


class NotAnApiServer:
    """An address that answers every GET and POST with HTTP ``status`` (200 by default) but is no
    model API: a web page (``body`` HTML, the default) or JSON of another shape
    (``content_type="application/json"``). ``requests`` counts the requests it answered.

    Usage: ``with NotAnApiServer() as site: make_provider(ProviderConfig(base_url=site.url + "/v1"))``.
    """

    def __init__(self, body: str = "<!DOCTYPE html>\n<html><body>Welcome to the intranet</body></html>",
                 content_type: str = "text/html; charset=utf-8", status: int = 200) -> None:
        payload = body.encode("utf-8")

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format, *args):  # noqa: A002 - signature from the base class
                pass

            def _answer(self):
                self.rfile.read(int(self.headers.get("content-length") or 0))
                site.requests += 1
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

        site = self
        self.requests = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "NotAnApiServer":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()


class PlainFileServer(NotAnApiServer):
    """``python -m http.server`` in a thread, serving ``directory``: what a user meets who types the
    address of a plain file server as the base URL. It answers a POST with its HTML 501 ("Unsupported
    method") and a GET of a missing file with its HTML 404, both ``text/html``."""

    def __init__(self, directory: str) -> None:  # noqa: D107 - the parent's attributes, another handler
        from functools import partial
        from http.server import SimpleHTTPRequestHandler

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, format, *args):  # noqa: A002 - signature from the base class
                pass

            def send_response(self, code, message=None):
                site.requests += 1
                super().send_response(code, message)

        site = self
        self.requests = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=directory))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

"""Retries made inside the SDKs, seen from outside: counted, bounded, and reported as they happen.

The openai and anthropic SDKs retry 408/409/429/5xx answers themselves, in the calling thread,
sleeping between attempts (on Retry-After when the server sends one). `RetryWatch` follows that
from the SDK's HTTP client (httpx event hooks, which run in the calling thread):

- it counts retries, not attempts: every request after the first of one call is a retry;
- it bounds the total time one call may spend waiting on Retry-After (`RETRY_AFTER_BUDGET_S`):
  a longer wait is refused by answering the SDK's own ``x-should-retry: false`` header, which both
  SDKs obey, so the call fails at once as rate-limited instead of freezing the page; an HTML page
  (a web server, not a model API, whatever its status) is refused a retry the same way;
- it reports each retry, with the announced wait, to whoever listens in the calling thread
  (`listening`): `evallib.llm.collect.collect` listens in its workers and passes the events to the
  calling thread through a queue.
"""

from __future__ import annotations

import email.utils
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from evallib.llm.errors import is_web_page

#: Total seconds one request may spend waiting on Retry-After across its retries. The Anthropic SDK
#: obeys any Retry-After (it caps a single wait at about 49 days); the OpenAI SDK waits up to 120 s
#: per retry (openai/_constants.py MAX_RETRY_AFTER_DELAY), i.e. up to 6 min over three retries. A
#: workshop page projected in front of a room cannot sit that long on one request: beyond half a
#: minute the participant is better told that the server is rate-limiting (lower the concurrency,
#: retry the failures later) than left waiting.
RETRY_AFTER_BUDGET_S = 30.0

#: Statuses the SDKs retry (openai and anthropic `_should_retry`: 408, 409, 429 and 5xx).
RETRYABLE_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))


@dataclass(frozen=True)
class RetryEvent:
    """One retry about to be made by an SDK.

    Attributes:
        status: the HTTP status that caused it (429, 408, 500...).
        wait_s: the Retry-After the server announced, in seconds (None: the SDK's own backoff,
            at most 8 s).
        at: ``time.monotonic()`` when the answer arrived (the wait runs from there).
    """

    status: int
    wait_s: float | None
    at: float


_listener = threading.local()


@contextmanager
def listening(sink: Callable[[RetryEvent], None]) -> Iterator[None]:
    """Send the retry events of calls made in this thread, inside the block, to ``sink``."""
    previous = getattr(_listener, "sink", None)
    _listener.sink = sink
    try:
        yield
    finally:
        _listener.sink = previous


def _announce(event: RetryEvent) -> None:
    sink = getattr(_listener, "sink", None)
    if sink is not None:
        sink(event)


def retry_after_s(headers) -> float | None:
    """The wait a response asks for, in seconds: ``retry-after-ms``, ``retry-after`` (seconds or an
    HTTP date), or None when absent or unreadable (RFC 9110 section 10.2.3)."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        return seconds if math.isfinite(seconds) else math.inf
    date = headers.get("retry-after")
    parsed = email.utils.parsedate_tz(date) if date else None
    return None if parsed is None else max(0.0, email.utils.mktime_tz(parsed) - time.time())


class RetryWatch:
    """Per-thread retry state of one provider's SDK client (one call at a time per thread).

    Use `hooks()` as the client's httpx ``event_hooks``, call `start()` before each call, then read
    `retries` and `budget_refused` after it.
    """

    def __init__(self, max_retries: int, budget_s: float | None = None) -> None:
        self.max_retries = max_retries
        self.budget_s = RETRY_AFTER_BUDGET_S if budget_s is None else budget_s
        self._local = threading.local()

    def start(self) -> None:
        """Forget the previous call of this thread."""
        self._local.attempts = 0
        self._local.waited_s = 0.0
        self._local.refused_wait_s = None

    @property
    def retries(self) -> int:
        """Retries made during this thread's current call (attempts after the first)."""
        return max(0, getattr(self._local, "attempts", 0) - 1)

    @property
    def budget_refused(self) -> float | None:
        """The Retry-After (s) refused because it would exceed the budget, or None."""
        return getattr(self._local, "refused_wait_s", None)

    def hooks(self) -> dict:
        return {"request": [self._on_request], "response": [self._on_response]}

    def _on_request(self, request) -> None:
        self._local.attempts = getattr(self._local, "attempts", 0) + 1

    def _on_response(self, response) -> None:
        status = response.status_code
        if status not in RETRYABLE_STATUSES or self.retries >= self.max_retries:
            return  # a success, a final error, or no retry left: the SDK will not retry
        if response.headers.get("x-should-retry") == "false":
            return
        if is_web_page(response):  # a web page, not a model API: asking again only delays the message
            response.headers["x-should-retry"] = "false"
            return
        wait = retry_after_s(response.headers)
        if wait is not None:
            if getattr(self._local, "waited_s", 0.0) + wait > self.budget_s:
                response.headers["x-should-retry"] = "false"
                self._local.refused_wait_s = wait
                return
            self._local.waited_s = getattr(self._local, "waited_s", 0.0) + wait
        _announce(RetryEvent(status, wait, time.monotonic()))

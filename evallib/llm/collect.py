"""Run many requests with bounded concurrency, in order, without one failure aborting the others.

The calling thread waits on the futures and calls ``on_progress`` itself, so a Streamlit page can
draw its progress bar from that callback (worker threads never touch Streamlit; docs/README.md#streamlit).
It also wakes up every `PROGRESS_INTERVAL_S` while requests are out, so that retries made inside
the SDKs (reported by `evallib.llm.retries`) are shown as they happen, not after the last answer.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass

from evallib.llm.errors import unexpected_failure
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult
from evallib.llm.retries import listening

#: Default number of requests in flight (promptfoo uses 4, Inspect 10 per model: docs/README.md#peers).
DEFAULT_CONCURRENCY = 8
#: Seconds between progress reports while no answer arrives: often enough that a wait on a rate
#: limit visibly counts down, rarely enough to cost nothing next to a network call.
PROGRESS_INTERVAL_S = 0.5

Request = ChatRequest | EmbeddingRequest
Result = ChatResult | EmbeddingResult


@dataclass(frozen=True)
class Progress:
    """State of a collection, reported after each finished request and periodically in between.

    Attributes:
        done, total: requests answered so far (successes and failures) and requests sent.
        errors: answers that are errors, so far.
        retries: retries made so far by the SDKs (not attempts: a request answered at the third
            attempt counts 2), finished and running requests together.
        retry_wait_s: the longest wait on a server's Retry-After still running, in seconds (0.0 when
            no request is waiting on one).
        elapsed_s: seconds since the collection started.
        last: the result that has just arrived, or None for a periodic report with no new answer.
        queued_behind_others: requests of this collection waiting for the shared endpoint while
            other sessions' requests hold it (`evallib.llm.scheduler`); 0 without a scheduler.
    """

    done: int
    total: int
    errors: int
    retries: int
    retry_wait_s: float
    elapsed_s: float
    last: Result | None
    queued_behind_others: int = 0


def answer(provider, request: Request) -> Result:
    """One request answered by ``provider``, never raising: an exception becomes a failed result.

    Providers return failures as results; this guards the rest of a collection against one that
    raises anyway (kind "unexpected", the message naming the exception).
    """
    method = provider.embed if isinstance(request, EmbeddingRequest) else provider.chat
    try:
        return method(request)
    except Exception as exc:
        cls = EmbeddingResult if isinstance(request, EmbeddingRequest) else ChatResult
        failure = unexpected_failure(exc)
        return cls(request_key=request.key(), model=request.model, status="error", error_kind=failure.kind,
                   error=failure.message, error_details=failure.result_details())


def _call(provider, request: Request, index: int, events: queue.SimpleQueue) -> Result:
    """`answer` in a worker thread, its SDK retries reported to the collecting thread as they happen."""
    with listening(lambda event: events.put((index, event))):
        return answer(provider, request)


def collect(requests: Sequence[Request], provider, max_concurrency: int = DEFAULT_CONCURRENCY,
            on_progress: Callable[[Progress], None] | None = None, lane=None) -> list[Result]:
    """Answer every request; ``results[i]`` answers ``requests[i]``.

    Args:
        requests: chat and/or embedding requests.
        provider: any `Provider` (live, replay, fallback, recording, cached...).
        max_concurrency: requests in flight at once (>= 1).
        on_progress: called in the calling thread after each request finishes, and every
            `PROGRESS_INTERVAL_S` while none does (then with ``last=None``). An exception it
            raises ends the collection at once: unsent requests are cancelled, and the exception
            propagates without waiting for the requests in flight.
        lane: the `evallib.llm.scheduler.Lane` that ``provider``'s live calls go through (a
            `ScheduledProvider` inside it), or None: its requests queued behind other sessions' are
            reported (`Progress.queued_behind_others`), and an interrupted collection drops them.

    Raises:
        ValueError: if ``max_concurrency`` < 1.
    """
    if max_concurrency < 1:
        raise ValueError(f"max_concurrency must be at least 1, got {max_concurrency}")
    results: list[Result | None] = [None] * len(requests)
    start = time.perf_counter()
    events: queue.SimpleQueue = queue.SimpleQueue()
    running_retries: dict[int, int] = {}  # retries announced by requests not finished yet
    waits_until: dict[int, float] = {}  # monotonic end of each running request's Retry-After wait
    finished_retries = errors = done = 0

    def report(last: Result | None) -> None:
        now = time.monotonic()
        waiting = max((until - now for until in waits_until.values()), default=0.0)
        on_progress(Progress(done, len(requests), errors, finished_retries + sum(running_retries.values()),
                             max(waiting, 0.0), time.perf_counter() - start, last,
                             lane.queued_behind_others() if lane is not None else 0))

    pool = ThreadPoolExecutor(max_workers=min(max_concurrency, max(len(requests), 1)))
    try:
        futures = {pool.submit(_call, provider, request, i, events): i for i, request in enumerate(requests)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=PROGRESS_INTERVAL_S, return_when=FIRST_COMPLETED)
            while not events.empty():
                index, event = events.get()
                running_retries[index] = running_retries.get(index, 0) + 1
                if event.wait_s is not None:
                    waits_until[index] = event.at + event.wait_s
            for future in finished:
                index = futures[future]
                result = future.result()
                results[index] = result
                running_retries.pop(index, None)
                waits_until.pop(index, None)
                done += 1
                errors += result.failed
                finished_retries += result.retries
                if on_progress is not None:
                    report(result)
            if on_progress is not None and not finished:
                report(None)
    except BaseException:
        # Interrupted (e.g. the page's script is stopped by a click): requests not yet started are
        # not sent, and the caller does not wait for those in flight (their results are dropped).
        pool.shutdown(wait=False, cancel_futures=True)
        if lane is not None:
            lane.cancel()  # and those waiting for the shared endpoint are dropped from its queue
        raise
    pool.shutdown()
    return results  # type: ignore[return-value]


def failed_indices(results: Sequence[Result]) -> list[int]:
    """Positions of the results that are errors (empty or truncated answers are not errors)."""
    return [i for i, result in enumerate(results) if result.failed]


def retry_failed(requests: Sequence[Request], results: Sequence[Result], provider,
                 max_concurrency: int = DEFAULT_CONCURRENCY,
                 on_progress: Callable[[Progress], None] | None = None) -> list[Result]:
    """Send again only the failed requests; every other result is kept as it was.

    Raises ValueError if the two sequences differ in length.
    """
    if len(requests) != len(results):
        raise ValueError(f"{len(requests)} requests but {len(results)} results")
    todo = failed_indices(results)
    fresh = collect([requests[i] for i in todo], provider, max_concurrency, on_progress)
    merged = list(results)
    for i, result in zip(todo, fresh):
        merged[i] = result
    return merged

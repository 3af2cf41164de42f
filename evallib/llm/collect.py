"""Run many requests with bounded concurrency, in order, without one failure aborting the others.

The calling thread waits on the futures and calls ``on_progress`` itself, so a Streamlit page can
draw its progress bar from that callback (worker threads never touch Streamlit; notes/streamlit.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult

#: Default number of requests in flight (promptfoo uses 4, Inspect 10 per model: notes/evaluation.md).
DEFAULT_CONCURRENCY = 8

Request = ChatRequest | EmbeddingRequest
Result = ChatResult | EmbeddingResult


@dataclass(frozen=True)
class Progress:
    """State of a collection after each finished request."""

    done: int
    total: int
    errors: int
    rate_limited: int
    elapsed_s: float
    last: Result


def _call(provider, request: Request) -> Result:
    method = provider.embed if isinstance(request, EmbeddingRequest) else provider.chat
    try:
        return method(request)
    except Exception as exc:  # a provider should never raise; if one does, it is one failed result
        cls = EmbeddingResult if isinstance(request, EmbeddingRequest) else ChatResult
        return cls(request_key=request.key(), model=request.model, status="error",
                   error_kind="unexpected", error=f"{type(exc).__name__}: {exc}")


def collect(requests: Sequence[Request], provider, max_concurrency: int = DEFAULT_CONCURRENCY,
            on_progress: Callable[[Progress], None] | None = None) -> list[Result]:
    """Answer every request; ``results[i]`` answers ``requests[i]``.

    Args:
        requests: chat and/or embedding requests.
        provider: any `Provider` (live, replay, fallback, recording, cached...).
        max_concurrency: requests in flight at once (>= 1).
        on_progress: called in the calling thread after each request finishes. An exception it
            raises ends the collection at once: unsent requests are cancelled, and the exception
            propagates without waiting for the requests in flight.

    Raises:
        ValueError: if ``max_concurrency`` < 1.
    """
    if max_concurrency < 1:
        raise ValueError(f"max_concurrency must be at least 1, got {max_concurrency}")
    results: list[Result | None] = [None] * len(requests)
    start = time.perf_counter()
    errors = rate_limited = 0
    pool = ThreadPoolExecutor(max_workers=min(max_concurrency, max(len(requests), 1)))
    try:
        futures = {pool.submit(_call, provider, request): i for i, request in enumerate(requests)}
        for done, future in enumerate(as_completed(futures), start=1):
            result = future.result()
            results[futures[future]] = result
            errors += result.failed
            rate_limited += result.retries
            if on_progress is not None:
                on_progress(Progress(done, len(requests), errors, rate_limited,
                                     time.perf_counter() - start, result))
    except BaseException:
        # Interrupted (e.g. the page's script is stopped by a click): requests not yet started are
        # not sent, and the caller does not wait for those in flight (their results are dropped).
        pool.shutdown(wait=False, cancel_futures=True)
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

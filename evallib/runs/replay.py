"""Known answers as a provider: a run replayed from a bundle, or a run turned into a bundle.

A page's chained runs (the judge's generate -> grade, the routing of every query) are replayed by
handing the same evallib functions an `AnswerBook` instead of a model: each request is answered by the
result stored under its key (`evallib.llm.ChatRequest.key`), so the figures are recomputed by the code
that made them, and the book notes every request asked, in the order asked, for the bundle's
``requests``. A request the book does not hold comes back as a ``missing_recording`` error (the way
offline replay names a request nothing recorded), never as an invented answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult
from evallib.runs.bundle import RunBundleError, answer_entry

#: Fields of a stored result and the JSON types each may hold (a bundle edited by hand is checked
#: against them before any metric reads it).
_TEXT = (str,)
_RESULT_TYPES = {
    "request_key": _TEXT, "model": _TEXT, "source": _TEXT, "status": _TEXT, "error": _TEXT, "hint": _TEXT,
    "provenance": _TEXT, "recorded_on": _TEXT, "fallback_error": _TEXT, "text": _TEXT, "reasoning": _TEXT,
    "error_kind": (str, type(None)), "finish_reason": (str, type(None)), "input_tokens": (int, type(None)),
    "output_tokens": (int, type(None)), "latency_s": (int, float, type(None)), "retries": (int,),
    "error_details": (dict,), "tool_calls": (list,),
}
STATUSES = ("ok", "empty", "truncated", "error")


class AnswerBook:
    """A provider answering from ``results`` (by request key); ``asked`` keeps each request asked, once.

    Used with ``concurrency=1`` by the replays so that ``asked`` follows the run's own order.
    """

    def __init__(self, results: Iterable[ChatResult | EmbeddingResult]) -> None:
        self.results = {r.request_key: r for r in results}
        self.asked: dict[str, ChatRequest | EmbeddingRequest] = {}

    def fingerprint(self) -> str:
        return "answer-book"

    def _answer(self, request, result_cls):
        key = request.key()
        self.asked.setdefault(key, request)
        found = self.results.get(key)
        if found is not None:
            return found
        return result_cls(request_key=key, model=request.model, source="recording", status="error",
                          error_kind="missing_recording", error=f"No answer in this run ({request.describe()}).",
                          error_details={"code": "missing_recording", "request": request.describe()})

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._answer(request, ChatResult)

    def embed(self, request: EmbeddingRequest) -> EmbeddingResult:
        return self._answer(request, EmbeddingResult)

    def requests_and_answers(self, labels: Mapping[str, str] | None = None) -> tuple[list[dict], list[dict]]:
        """The bundle's ``requests`` and ``answers`` of every request asked (None-answered: provenance "none")."""
        labels = labels or {}
        requests, answers = [], []
        for key, request in self.asked.items():
            entry = {"key": key, "request": request.to_dict()}
            if key in labels:
                entry["label"] = labels[key][:300]
            requests.append(entry)
            found = self.results.get(key)
            answers.append(answer_entry(found if found is not None and not _missing(found) else None, key))
        return requests, answers


def _missing(result) -> bool:
    return result.error_kind == "missing_recording"


def check_result(data: object, where: str) -> ChatResult:
    """A stored chat result read back, its fields of the types a `ChatResult` holds.

    Raises `RunBundleError` ``schema`` (details: path) on an unknown field, a wrong type or status.
    """
    if not isinstance(data, dict):
        raise RunBundleError("schema", f"bundle, at {where}: a result is an object", path=where)
    for name, value in data.items():
        types = _RESULT_TYPES.get(name)
        if types is None or isinstance(value, bool) and bool not in types or not isinstance(value, types):
            raise RunBundleError("schema", f"bundle, at {where}/{name}: unexpected value", path=f"{where}/{name}")
    if data.get("status", "ok") not in STATUSES or not all(isinstance(c, dict) for c in data.get("tool_calls", [])) \
            or "request_key" not in data:
        raise RunBundleError("schema", f"bundle, at {where}: no request key, or an unexpected status or tool call",
                             path=where)
    return ChatResult.from_dict(data)


def book_of(bundle: Mapping) -> AnswerBook:
    """An `AnswerBook` of a checked bundle's answers (`evallib.runs.bundle.read_run_bundle`).

    Raises `RunBundleError` ``schema`` when a stored result is not a chat result or names another key.
    """
    results = []
    for index, answer in enumerate(bundle["answers"]):
        if "result" in answer:
            result = check_result(answer["result"], f"answers/{index}/result")
            if result.request_key != answer["request_key"]:
                raise RunBundleError("schema", f"bundle, at answers/{index}: the result answers another request",
                                     path=f"answers/{index}")
            results.append(result)
    return AnswerBook(results)


def matching_requests(built: Iterable[ChatRequest], stored: Iterable[Mapping]) -> list[ChatRequest]:
    """The bundle's stored requests (``{"key", "request"}`` entries), each checked against the request its
    inputs build at the same place: same key and same content (`evallib.llm.recordings.content_key`).

    Raises `RunBundleError` ``requests`` (details: index) at the first one that asks something else.
    """
    from evallib.llm.recordings import content_key

    sent = []
    for index, (request_built, entry) in enumerate(zip(built, stored)):
        try:
            request = ChatRequest.from_dict(entry["request"])
            same = request.key() == entry["key"] and content_key(request) == content_key(request_built)
        except (KeyError, TypeError, ValueError, AttributeError):
            same = False
        if not same:
            raise RunBundleError("requests", f"request {index + 1} of the bundle does not ask what its inputs build",
                                 index=index)
        sent.append(request)
    return sent

"""The three ways of answering a request: offline recordings, live, live and record.

Each is an ordinary `Provider` built on top of another one, so `collect()` never needs to know
which mode is on:

- `ReplayProvider`: answers from recordings only; a request with no recording comes back as an
  error of kind ``missing_recording`` naming it, never as an invented answer.
- `FallbackProvider`: live first; if the live call fails and a recording of the same request
  exists, the recording is returned with ``fallback_error`` naming the live failure.
- `RecordingProvider`: live, and every successful new answer is added to a recording set (in the
  store's write folder: the local recordings, never the shipped ones).
"""

from __future__ import annotations

from dataclasses import replace

from evallib.llm.recordings import Recordings, live_provenance
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult

MODES = ("offline", "live", "live_record")


class ReplayProvider:
    """Answers from recordings only (offline mode)."""

    def __init__(self, recordings: Recordings) -> None:
        self.recordings = recordings

    def fingerprint(self) -> str:
        return "recordings"

    def _replay(self, request, result_cls):
        found = self.recordings.get(request.key())
        if found is None:
            return result_cls(
                request_key=request.key(), model=request.model, source="recording", status="error",
                error_kind="missing_recording",
                error=f"No recording for this request ({request.describe()}).",
                hint="Switch to Live mode with a model, or record this request first.",
                error_details={"code": "missing_recording", "request": request.describe()})
        return found.result

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._replay(request, ChatResult)

    def embed(self, request: EmbeddingRequest) -> EmbeddingResult:
        return self._replay(request, EmbeddingResult)


#: Failures that a recording may stand in for: the endpoint is down, slow or overloaded (the Wi-Fi
#: died, the room exhausted a rate limit). A refused key, an unknown model or a refused parameter
#: is the user's to fix: answering it from a recording would let a participant believe the key
#: works while another session's answers fill the page (docs/README.md#modes).
FALLBACK_KINDS = frozenset({"connection", "timeout", "rate_limit", "server"})


class FallbackProvider:
    """Live, falling back to a recording of the same request when the live call fails transiently
    (`FALLBACK_KINDS`); any other failure is returned as it is."""

    def __init__(self, live, recordings: Recordings) -> None:
        self.live = live
        self.recordings = recordings

    def fingerprint(self) -> str:
        return self.live.fingerprint()

    def _with_fallback(self, request, result):
        if not result.failed or result.error_kind not in FALLBACK_KINDS:
            return result
        found = self.recordings.get(request.key())
        if found is None:
            return result
        return replace(found.result, fallback_error=result.error, error_details=result.error_details)

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._with_fallback(request, self.live.chat(request))

    def embed(self, request: EmbeddingRequest) -> EmbeddingResult:
        return self._with_fallback(request, self.live.embed(request))


def is_recordable(result) -> bool:
    """True for an answer that Live + record keeps: a complete answer obtained from a model now."""
    return result.ok and result.source != "recording"


class RecordingProvider:
    """Live, adding every recordable answer to the recording set ``set_name``.

    ``provider_kind`` ("openai" or "anthropic") is kept in each line's provenance.
    """

    def __init__(self, live, recordings: Recordings, set_name: str, provider_kind: str) -> None:
        self.live = live
        self.recordings = recordings
        self.set_name = set_name
        self.provider_kind = provider_kind

    def fingerprint(self) -> str:
        return self.live.fingerprint()

    def _record(self, request, result):
        if is_recordable(result):
            self.recordings.add(self.set_name, request, result,
                                live_provenance(result.model or request.model, self.provider_kind))
        return result

    def chat(self, request: ChatRequest) -> ChatResult:
        return self._record(request, self.live.chat(request))

    def embed(self, request: EmbeddingRequest) -> EmbeddingResult:
        return self._record(request, self.live.embed(request))


def provider_for_mode(mode: str, recordings: Recordings, live=None, set_name: str = "live",
                      provider_kind: str = "openai"):
    """The provider that answers in ``mode`` ("offline", "live" or "live_record").

    ``provider_kind`` is the live endpoint's kind, recorded in the provenance of Live + record.
    Raises ValueError for an unknown mode, or a live mode without a live provider.
    """
    if mode == "offline":
        return ReplayProvider(recordings)
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: expected one of {MODES}")
    if live is None:
        raise ValueError(f"mode {mode!r} needs a live provider")
    if mode == "live_record":
        live = RecordingProvider(live, recordings, set_name, provider_kind)
    return FallbackProvider(live, recordings)

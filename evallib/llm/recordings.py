"""Recorded model answers for offline demos: ``<directory>/<set>.jsonl``, one line per request key.

Each line is a JSON object::

    {"key": <request key>, "kind": "chat" | "embedding", "request": {...}, "result": {...},
     "provenance": {"source": "live" | "authored", "model": ..., "provider": "openai" | "anthropic",
                    "date": "YYYY-MM-DD", "note": ...}}

``authored`` marks example answers written by hand for a demo; the UI says so plainly. ``provider``
(the endpoint's kind) is absent from lines recorded before it was kept; they load with an unknown
provider. A line never holds a key or a base URL (requests do not contain them). Writes rewrite the
whole set to a temporary file and rename it over the old one, so an interrupted run leaves the
previous file intact. A damaged line is skipped and reported in `Recordings.problems`; the rest loads.

Two folders are read. The *shipped* recordings (``recordings/``, tracked by git) are never written
by the app; new recordings go to the *local* folder (``recordings/local/``, ignored by git, or the
folder named by the environment variable ``EVALLIB_LOCAL_RECORDINGS``). When both hold the same
request key, the local line wins: it is the newer recording of exactly the same request.

Recorded sources. A request key covers how a model was asked (model, sampling options, extra body)
as well as what was asked (system prompt, messages, repeat index...). The recordings of one
*source* (authored examples, or one model recorded live with given options) share the first part;
`Recordings.sources` lists the sources that hold answers to a page's requests, and
`RecordedSource.apply` rebuilds a page's request as that source asked it, so replay finds the exact
key whatever options the recording was made with.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from evallib.errors import InputError
from evallib.llm.errors import short_text
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult
from evallib.redaction import redact

PROVENANCES = ("live", "authored")
PROVIDER_KINDS = ("openai", "anthropic")

#: The recordings shipped with the app (tracked by git, read-only for the app).
SHIPPED_DIR = Path(__file__).resolve().parents[2] / "recordings"
#: Environment variable naming the folder that new recordings go to (tests point it at a temp dir).
LOCAL_DIR_VARIABLE = "EVALLIB_LOCAL_RECORDINGS"
#: Default folder of new recordings: inside the shipped one, ignored by git (.gitignore).
DEFAULT_LOCAL_DIR = SHIPPED_DIR / "local"

#: Request fields that say *how* a model was asked, per request kind; the other fields say *what*
#: was asked. A recorded source is one value of these fields (see the module docstring).
OPTION_FIELDS = {"chat": ("model", "temperature", "max_tokens", "seed", "stop", "extra_body"),
                 "embedding": ("model",)}


@dataclass(frozen=True)
class Recording:
    """One recorded answer: its set (file stem), the request, the result and where it came from."""

    set_name: str
    key: str
    request: ChatRequest | EmbeddingRequest
    result: ChatResult | EmbeddingResult
    provenance: dict

    def to_line(self) -> str:
        kind = "chat" if isinstance(self.request, ChatRequest) else "embedding"
        return json.dumps({"key": self.key, "kind": kind, "request": self.request.to_dict(),
                           "result": redact(self.result.to_dict()), "provenance": self.provenance},
                          ensure_ascii=False, sort_keys=True)


class RecordingLineError(InputError):
    """A recording line that cannot be replayed: codes "key_mismatch" and "bad_provenance" (``source``)."""


@dataclass(frozen=True)
class RecordingProblem:
    """One recording line skipped at loading, and why, as data for a page to word.

    Attributes:
        file: the file's name (``demo.jsonl``).
        line: the line number (from 1).
        code: "not_json" (``column``), "missing_field" (``field``), "key_mismatch", "bad_provenance"
            (``source``) or "bad_value" (``exception``, ``technical_text``: Python's own text).
        details: the values of the case, by name.
        message: the English reason, for scripts and the command line.
    """

    file: str
    line: int
    code: str
    details: dict
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: skipped ({self.message})"


def _line_problem(path: Path, number: int, exc: Exception) -> RecordingProblem:
    """The problem of a line whose parsing raised ``exc``."""
    if isinstance(exc, RecordingLineError):
        code, details = exc.code, exc.details
    elif isinstance(exc, json.JSONDecodeError):
        code, details = "not_json", {"column": exc.colno}
    elif isinstance(exc, KeyError):
        code, details = "missing_field", {"field": str(exc.args[0]) if exc.args else ""}
    else:
        code, details = "bad_value", {"exception": type(exc).__name__, "technical_text": short_text(str(exc))}
    return RecordingProblem(path.name, number, code, details, f"{type(exc).__name__}: {exc}")


def _parse_line(set_name: str, line: str) -> Recording:
    data = json.loads(line)
    if data.get("kind") == "embedding":
        request, result_cls = EmbeddingRequest.from_dict(data["request"]), EmbeddingResult
    else:
        request, result_cls = ChatRequest.from_dict(data["request"]), ChatResult
    if request.key() != data["key"]:
        raise RecordingLineError("key_mismatch", "the key does not match the request (edited by hand?)")
    provenance = dict(data["provenance"])
    if provenance.get("source") not in PROVENANCES:
        raise RecordingLineError("bad_provenance", f"provenance source must be one of {PROVENANCES}",
                                 source=str(provenance.get("source")))
    return Recording(set_name, data["key"], request,
                     _as_replayed(result_cls.from_dict(data["result"]), provenance, data["key"]), provenance)


def _as_replayed(result, provenance: dict, key: str):
    """The result as replay returns it: source "recording", with its provenance and date."""
    return replace(result, source="recording", provenance=provenance["source"],
                   recorded_on=str(provenance.get("date", "")), request_key=key,
                   fallback_error="")


def local_directory() -> Path:
    """The folder new recordings go to: ``$EVALLIB_LOCAL_RECORDINGS``, else ``recordings/local``."""
    return Path(os.environ.get(LOCAL_DIR_VARIABLE) or DEFAULT_LOCAL_DIR)


def _request_kind(request: ChatRequest | EmbeddingRequest) -> str:
    return "embedding" if isinstance(request, EmbeddingRequest) else "chat"


def _digest(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False,
                                     separators=(",", ":")).encode("utf-8")).hexdigest()


def request_options(request: ChatRequest | EmbeddingRequest) -> dict:
    """How ``request`` asks its model: the values of its `OPTION_FIELDS` (JSON-ready)."""
    data = request.to_dict()
    return {name: data[name] for name in OPTION_FIELDS[_request_kind(request)]}


def content_key(request: ChatRequest | EmbeddingRequest) -> str:
    """sha256 of what ``request`` asks, whoever answers it: every field except its `OPTION_FIELDS`."""
    kind = _request_kind(request)
    data = {name: value for name, value in request.to_dict().items() if name not in OPTION_FIELDS[kind]}
    return _digest({kind: data})


@dataclass(frozen=True)
class RecordedSource:
    """Recorded answers that share their origin, model, provider kind and options.

    Attributes:
        origin: "authored" (written by hand for a demo) or "live" (a model's output).
        kind: the requests' kind, "chat" or "embedding".
        model: the model named in the requests.
        provider: "openai", "anthropic", or "" when the recording predates the provider kind.
        options_json: canonical JSON of the request options (`OPTION_FIELDS`) of this source.
        dates: the recording dates (``YYYY-MM-DD``), sorted; empty for authored examples.
        count: how many of the requests asked about have an answer in this source.
    """

    origin: str
    kind: str
    model: str
    provider: str
    options_json: str
    dates: tuple[str, ...]
    count: int

    @property
    def id(self) -> str:
        """A stable short identifier (origin, provider kind and options), for widget state."""
        return _digest({"origin": self.origin, "kind": self.kind, "provider": self.provider,
                        "options": self.options_json})[:16]

    @property
    def options(self) -> dict:
        return json.loads(self.options_json)

    def apply(self, request):
        """``request`` as this source asked it: same content, this source's model and options.

        A request of another kind (an embedding request for a chat source) is returned unchanged.
        """
        if _request_kind(request) != self.kind:
            return request
        return type(request).from_dict({**request.to_dict(), **self.options})


def _in_offer_order(sources: list[RecordedSource]) -> list[RecordedSource]:
    """Authored examples first, then live recordings, the most recent first (stable sorts)."""
    ordered = sorted(sources, key=lambda s: (s.model, s.provider, s.options_json))
    ordered.sort(key=lambda s: max(s.dates, default=""), reverse=True)
    ordered.sort(key=lambda s: s.origin != "authored")
    return ordered


class Recordings:
    """The recording sets of a shipped folder and of a local folder, loaded at construction.

    Both folders are read; a local line replaces a shipped line of the same key. Appends are
    thread-safe and go to the local folder only (to the shipped one when no local folder is given:
    the authored writer and tests do that).

    Attributes:
        directory: the shipped ``*.jsonl`` sets.
        local_directory: the local sets (None: same as ``directory``).
        write_directory: where `add` writes.
        problems: one `RecordingProblem` per skipped line (``str()`` gives ``file:line: skipped (reason)``).
    """

    def __init__(self, directory: str | os.PathLike, local_directory: str | os.PathLike | None = None) -> None:
        self.directory = Path(directory)
        self.local_directory = Path(local_directory) if local_directory is not None else None
        self.write_directory = self.local_directory or self.directory
        self.problems: list[RecordingProblem] = []
        self._by_key: dict[str, Recording] = {}
        self._content: dict[str, str] = {}
        self._written: dict[str, dict[str, Recording]] = {}  # the write folder's lines, by set and key
        self._lock = threading.Lock()
        folders = [self.directory]
        if self.local_directory is not None and self.local_directory.resolve() != self.directory.resolve():
            folders.append(self.local_directory)
        for folder in folders:
            for path in sorted(folder.glob("*.jsonl")):
                self._load(path, folder == self.write_directory)

    def _load(self, path: Path, writable: bool) -> None:
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    recording = _parse_line(path.stem, line)
                except (ValueError, KeyError, TypeError) as exc:
                    self.problems.append(_line_problem(path, number, exc))
                    continue
                self._keep(recording, writable)

    def _keep(self, recording: Recording, writable: bool) -> None:
        self._by_key[recording.key] = recording
        self._content[recording.key] = content_key(recording.request)
        if writable:
            self._written.setdefault(recording.set_name, {})[recording.key] = recording

    def __len__(self) -> int:
        return len(self._by_key)

    def get(self, key: str) -> Recording | None:
        """The recording of a request key, or None."""
        return self._by_key.get(key)

    def in_set(self, set_name: str) -> list[Recording]:
        """Recordings of one set, in file order."""
        return [r for r in self._by_key.values() if r.set_name == set_name]

    def sources(self, requests: Iterable[ChatRequest | EmbeddingRequest]) -> list[RecordedSource]:
        """The recorded sources holding an answer to at least one of ``requests``, in the order to offer.

        A recording answers a request when they ask the same thing (`content_key`), whatever model
        and options it was recorded with; its source is its origin, model, provider kind and options.
        """
        wanted = {content_key(request) for request in requests}
        groups: dict[tuple, list[Recording]] = {}
        for key, recording in self._by_key.items():
            if self._content[key] in wanted:
                provenance = recording.provenance
                group = (provenance["source"], _request_kind(recording.request), recording.request.model,
                         provenance.get("provider", ""),
                         json.dumps(request_options(recording.request), sort_keys=True, ensure_ascii=False))
                groups.setdefault(group, []).append(recording)
        found = [RecordedSource(*group, tuple(sorted({str(r.provenance["date"]) for r in members
                                                      if r.provenance.get("date")})), len(members))
                 for group, members in groups.items()]
        return _in_offer_order(found)

    def add(self, set_name: str, request, result, provenance: dict) -> Recording:
        """Store a result (replacing any for the same key) and rewrite the set's file in the write folder.

        Raises ValueError for an unknown provenance source or provider kind.
        """
        if provenance.get("source") not in PROVENANCES:
            raise ValueError(f"provenance source must be one of {PROVENANCES}")
        if provenance.get("provider", "openai") not in PROVIDER_KINDS:
            raise ValueError(f"provenance provider must be one of {PROVIDER_KINDS}")
        key = request.key()
        recording = Recording(set_name, key, request, _as_replayed(result, provenance, key), dict(provenance))
        with self._lock:
            self._keep(recording, writable=True)
            self._write(set_name)
        return recording

    def _write(self, set_name: str) -> None:
        folder = self.write_directory
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{set_name}.jsonl"
        lines = [r.to_line() for r in self._written[set_name].values()]
        handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{set_name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def live_provenance(model: str, provider: str) -> dict:
    """Provenance of an answer recorded today from a live ``model`` behind a ``provider`` kind endpoint."""
    return {"source": "live", "model": model, "provider": provider, "date": date.today().isoformat()}


def default_recordings() -> Recordings:
    """The shipped recordings and the local ones (`local_directory`), as the app and the CLI read them."""
    return Recordings(SHIPPED_DIR, local_directory())

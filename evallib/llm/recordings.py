"""Recorded model answers for offline demos: ``<directory>/<set>.jsonl``, one line per request key.

Each line is a JSON object::

    {"key": <request key>, "kind": "chat" | "embedding", "request": {...}, "result": {...},
     "provenance": {"source": "live" | "authored", "model": ..., "provider": "openai" | "anthropic",
                    "date": "YYYY-MM-DD", "note": ...}}

``authored`` marks example answers written by hand for a demo; the UI says so plainly. ``provider``
(the endpoint's kind) is absent from lines recorded before it was kept; they load with an unknown
provider. A line never holds a key or a base URL (requests do not contain them; results are redacted,
`evallib.llm.redaction.redact`). A damaged line is skipped and reported in `Recordings.problems`; the rest
loads.

Several writers, one file. Recordings are append-only: each new answer is appended as one whole line
(one ``write`` on a file opened ``O_APPEND``) while holding an exclusive ``fcntl.flock`` on the file;
readers hold a shared lock while they read. So two ``record`` commands, or many app sessions in Live +
record, can write the same set at once and every line of each is kept (a writer never rewrites what
others wrote). An interrupted writer never corrupts what is already there: at worst it leaves a
partial last line, which readers skip (reported as "not_json") and which the next writer closes with
a newline before appending its own line. A key recorded twice (two writers asked the same request)
is read from its **last** line in file order: appends are serialised by the lock, so the last line
is the newest answer, every reader of the file picks the same one, and it is what the writer that
added it replays from memory too.

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
import fcntl
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from evallib.errors import InputError
from evallib.llm.errors import short_text
from evallib.packs.layout import FRENCH_DIR, RECORDINGS, ROOT
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult
from evallib.llm.redaction import redact

PROVENANCES = ("live", "authored")
PROVIDER_KINDS = ("openai", "anthropic")

#: The recordings of the built-in French pack (tracked by git, read-only for the app).
SHIPPED_DIR = FRENCH_DIR / RECORDINGS
#: Environment variable naming the folder that new recordings go to (tests point it at a temp dir).
LOCAL_DIR_VARIABLE = "EVALLIB_LOCAL_RECORDINGS"
#: Default folder of new recordings: recordings/local/, ignored by git (.gitignore).
DEFAULT_LOCAL_DIR = ROOT / "recordings" / "local"

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
        code: "not_json" (``column``, ``json_error``: the parser's words), "missing_field" (``field``), "key_mismatch", "bad_provenance"
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
        code, details = "not_json", {"column": exc.colno, "json_error": exc.msg}
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
        #: Added to the provenance of every line this object writes (``{"pack": id}`` when recording a pack).
        self.provenance_extra: dict = {}
        self._by_key: dict[str, Recording] = {}
        self._content: dict[str, str] = {}
        self._appended: dict[str, int] = {}  # lines this object appended, by set
        self._line_digests: dict[str, bytes] = {}  # sha256 of the line each key was read from
        self._lock = threading.Lock()
        folders = [self.directory]
        if self.local_directory is not None and self.local_directory.resolve() != self.directory.resolve():
            folders.append(self.local_directory)
        for folder in folders:
            for path in sorted(folder.glob("*.jsonl")):
                self._load(path)

    def _load(self, path: Path) -> None:
        with path.open("rb") as raw:
            fcntl.flock(raw.fileno(), fcntl.LOCK_SH)  # no writer is half-way through a line meanwhile
            try:
                data = raw.read()
            finally:
                fcntl.flock(raw.fileno(), fcntl.LOCK_UN)
        for number, line in enumerate(data.decode("utf-8-sig", errors="replace").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                recording = _parse_line(path.stem, line)
            except (ValueError, KeyError, TypeError) as exc:
                self.problems.append(_line_problem(path, number, exc))
                continue
            self._keep(recording, line.strip())

    def _keep(self, recording: Recording, line: str) -> None:
        self._by_key.pop(recording.key, None)  # the last line of a key wins, and keeps the file's order
        self._by_key[recording.key] = recording
        self._content[recording.key] = content_key(recording.request)
        self._line_digests[recording.key] = hashlib.sha256(line.encode("utf-8")).digest()

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

    def appended(self, set_name: str) -> int:
        """How many lines this object appended to ``set_name``'s file (what a command reports as recorded)."""
        return self._appended.get(set_name, 0)

    def add(self, set_name: str, request, result, provenance: dict) -> Recording:
        """Store a result (replacing any for the same key) and append its line to the set's file.

        A line identical to the one already read for this key in this set is not appended again, so
        running an authored writer twice leaves its file as it was.

        The line goes to ``<write_directory>/<set_name>.jsonl`` under an exclusive lock (module
        docstring); the folder and the file are created when missing. Raises ValueError for an unknown
        provenance source or provider kind, OSError when the file cannot be written.
        """
        if provenance.get("source") not in PROVENANCES:
            raise ValueError(f"provenance source must be one of {PROVENANCES}")
        if provenance.get("provider", "openai") not in PROVIDER_KINDS:
            raise ValueError(f"provenance provider must be one of {PROVIDER_KINDS}")
        key = request.key()
        provenance = {**provenance, **self.provenance_extra}
        recording = Recording(set_name, key, request, _as_replayed(result, provenance, key), dict(provenance))
        line = recording.to_line()
        with self._lock:
            if self._line_digests.get(key) == hashlib.sha256(line.encode("utf-8")).digest() \
                    and self.get(key).set_name == set_name:
                return recording  # the very same line is already there (an authored writer run again)
            append_line(self.write_directory / f"{set_name}.jsonl", line)
            self._appended[set_name] = self._appended.get(set_name, 0) + 1
            self._keep(recording, line)
        return recording


def append_line(path: Path, line: str) -> None:
    """Append ``line`` and a newline to ``path`` as one write, holding an exclusive ``flock`` on it.

    When the file does not end with a newline (a writer killed in the middle of its line), one is
    written first, so that the partial line stays a line of its own that readers skip. Creates the
    folder and the file when missing. Raises OSError.
    """
    data = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = open_locked(path, os.O_WRONLY | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        if size and _last_byte(path, size) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)  # releases the lock


def open_locked(path: Path, flags: int) -> int:
    """A descriptor of ``path`` (created, with its folder, when missing) holding an exclusive ``flock``.

    The lock is taken on the file that is at ``path`` once it is held: a writer that waited while
    another replaced the file (``authored --pack`` rewrites a set aside and moves it into place, under
    this lock) opens the new file again, so its line never goes to the file that was replaced.
    Close the descriptor to release the lock. Raises OSError.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, flags | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            held, current = os.fstat(fd), os.stat(path)
        except FileNotFoundError:  # removed while we waited: open it again
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        if (held.st_dev, held.st_ino) == (current.st_dev, current.st_ino):
            return fd
        os.close(fd)


def _last_byte(path: Path, size: int) -> bytes:
    with path.open("rb") as handle:
        handle.seek(size - 1)
        return handle.read(1)


def live_provenance(model: str, provider: str) -> dict:
    """Provenance of an answer recorded today from a live ``model`` behind a ``provider`` kind endpoint."""
    return {"source": "live", "model": model, "provider": provider, "date": date.today().isoformat()}


def default_recordings() -> Recordings:
    """The shipped recordings and the local ones (`local_directory`), as the app and the CLI read them."""
    return Recordings(SHIPPED_DIR, local_directory())

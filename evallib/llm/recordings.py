"""Recorded model answers for offline demos: ``recordings/<set>.jsonl``, one line per request key.

Each line is a JSON object::

    {"key": <request key>, "kind": "chat" | "embedding", "request": {...}, "result": {...},
     "provenance": {"source": "live" | "authored", "model": ..., "date": "YYYY-MM-DD", "note": ...}}

``authored`` marks example answers written by hand for a demo; the UI says so plainly. A line never
holds a key or a base URL (requests do not contain them). Writes rewrite the whole set to a temporary
file and rename it over the old one, so an interrupted run leaves the previous file intact. A
damaged line is skipped and reported in `Recordings.problems`; the rest loads.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult

PROVENANCES = ("live", "authored")


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
                           "result": self.result.to_dict(), "provenance": self.provenance},
                          ensure_ascii=False, sort_keys=True)


def _parse_line(set_name: str, line: str) -> Recording:
    data = json.loads(line)
    if data.get("kind") == "embedding":
        request, result_cls = EmbeddingRequest.from_dict(data["request"]), EmbeddingResult
    else:
        request, result_cls = ChatRequest.from_dict(data["request"]), ChatResult
    if request.key() != data["key"]:
        raise ValueError("the key does not match the request (edited by hand?)")
    provenance = dict(data["provenance"])
    if provenance.get("source") not in PROVENANCES:
        raise ValueError(f"provenance source must be one of {PROVENANCES}")
    return Recording(set_name, data["key"], request,
                     _as_replayed(result_cls.from_dict(data["result"]), provenance, data["key"]), provenance)


def _as_replayed(result, provenance: dict, key: str):
    """The result as replay returns it: source "recording", with its provenance and date."""
    return replace(result, source="recording", provenance=provenance["source"],
                   recorded_on=str(provenance.get("date", "")), request_key=key,
                   fallback_error="")


class Recordings:
    """Every recording set of a directory, loaded at construction; thread-safe appends.

    Attributes:
        directory: where the ``*.jsonl`` sets live.
        problems: one message per skipped line (``file:line: reason``).
    """

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)
        self.problems: list[str] = []
        self._by_key: dict[str, Recording] = {}
        self._lock = threading.Lock()
        for path in sorted(self.directory.glob("*.jsonl")):
            self._load(path)

    def _load(self, path: Path) -> None:
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    recording = _parse_line(path.stem, line)
                except (ValueError, KeyError, TypeError) as exc:
                    self.problems.append(f"{path.name}:{number}: skipped ({type(exc).__name__}: {exc})")
                    continue
                self._by_key[recording.key] = recording

    def __len__(self) -> int:
        return len(self._by_key)

    def get(self, key: str) -> Recording | None:
        """The recording of a request key, or None."""
        return self._by_key.get(key)

    def in_set(self, set_name: str) -> list[Recording]:
        """Recordings of one set, in file order."""
        return [r for r in self._by_key.values() if r.set_name == set_name]

    def add(self, set_name: str, request, result, provenance: dict) -> Recording:
        """Store a result (replacing any for the same key) and rewrite the set file atomically."""
        if provenance.get("source") not in PROVENANCES:
            raise ValueError(f"provenance source must be one of {PROVENANCES}")
        key = request.key()
        recording = Recording(set_name, key, request, _as_replayed(result, provenance, key), dict(provenance))
        with self._lock:
            self._by_key[recording.key] = recording
            self._write(set_name)
        return recording

    def _write(self, set_name: str) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.directory / f"{set_name}.jsonl"
        lines = [r.to_line() for r in self._by_key.values() if r.set_name == set_name]
        handle, temp = tempfile.mkstemp(dir=self.directory, prefix=f".{set_name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def live_provenance(model: str) -> dict:
    """Provenance of an answer recorded from a live model today."""
    return {"source": "live", "model": model, "date": date.today().isoformat()}

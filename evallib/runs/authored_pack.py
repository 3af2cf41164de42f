"""A pack's authored recordings, written from its own content files (docs/packs.md, recordings).

``python -m evallib authored --pack packs/en`` rebuilds ``packs/en/recordings/{trigger,persona,judge,gnss}.jsonl``
from the pack's authored files (hand-written example answers, provenance ``authored``), through each page's
own authored writer, given the pack's files instead of the built-in French ones:

- trigger: `evallib.triggering.authored.authored_recordings` on the pack's skills, queries and decisions; a
  decision "no skill" answers the decisions file's ``none_reply`` (docs/packs.md, content files);
- persona: `evallib.__main__.persona_authored` on the pack's catalogue and responses;
- judge: `evallib.judging.authored.authored_recordings` on the pack's cases, templates and rubric;
- gnss: `evallib.gnss.live.authored_recordings` on the pack's answers.

Every line written carries the pack's id in its provenance (``"pack": "<id>"``, read from ``pack.json``), as
the lines of ``record --pack`` do, so that ``pack check`` names authored lines copied from another pack.

Only the authored lines of a set are replaced. A set's file may also hold the lines of ``record --pack``
(a live model) and damaged lines; every line whose provenance is not ``authored`` is kept byte for byte
and in its order, after the new authored lines. The new file is written beside the old one and moved into
place while holding the file's lock (`evallib.llm.recordings.open_locked`), so a ``record`` writing the
same set meanwhile appends to the new file, a rerun after an edit leaves no authored line of the previous
content behind, and an interrupted run leaves each set either as it was or complete. A pack without a
page's authored file keeps that set as it is.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import tempfile
from pathlib import Path

from evallib.errors import InputError
from evallib.llm import Recordings
from evallib.llm.recordings import open_locked
from evallib.packs.layout import MANIFEST, RECORDINGS

#: Authored file of each recording set, as named in a pack (docs/packs.md, layout).
AUTHORED_FILES = {"trigger": "triggering_authored_decisions.json", "persona": "persona_authored_responses.json",
                  "judge": "judging_authored.json", "gnss": "gnss_authored_answers.json"}


def _trigger(pack: Path, store: Recordings) -> int:
    from evallib.triggering.authored import TRIGGER_SET, authored_recordings

    decisions = pack / AUTHORED_FILES["trigger"]
    none_reply = json.loads(decisions.read_text(encoding="utf-8-sig")).get("none_reply")
    recorded = authored_recordings(decisions, pack / "triggering_skills.json", pack / "triggering_queries.json")
    for request, result, provenance in recorded:
        if none_reply and not result.tool_calls:
            result = dataclasses.replace(result, text=none_reply)
        store.add(TRIGGER_SET, request, result, provenance)
    return len(recorded)


def _persona(pack: Path, store: Recordings) -> int:
    from evallib.__main__ import persona_authored

    return persona_authored(store.write_directory, pack / "personas.json", pack / AUTHORED_FILES["persona"],
                            store.provenance_extra)


def _judge(pack: Path, store: Recordings) -> int:
    from evallib.judging.authored import JUDGE_SET, authored_recordings, load_authored

    authored = pack / AUTHORED_FILES["judge"]
    note = load_authored(authored)["note"]
    recorded = authored_recordings(authored, pack / "judging_cases.json", pack / "judging_prompts.json")
    for request, result in recorded:
        store.add(JUDGE_SET, request, result, {"source": "authored", "model": request.model, "note": note})
    return len(recorded)


def _gnss(pack: Path, store: Recordings) -> int:
    from evallib.gnss.live import GNSS_SET, authored_recordings

    recorded = authored_recordings(pack / AUTHORED_FILES["gnss"])
    for request, result, provenance in recorded:
        store.add(GNSS_SET, request, result, provenance)
    return len(recorded)


WRITERS = {"trigger": _trigger, "persona": _persona, "judge": _judge, "gnss": _gnss}


class AuthoredPackError(InputError):
    """A folder whose manifest does not give the pack's id: codes "no_manifest", "bad_manifest"."""


def pack_id(pack: Path) -> str:
    """The id of the pack in ``pack`` (its ``pack.json``); raises `AuthoredPackError`."""
    path = pack / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise AuthoredPackError("no_manifest", f"{path} is missing: a pack starts with its manifest, whose id "
                                "labels the recordings (docs/packs.md#manifest)", path=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AuthoredPackError("bad_manifest", f"{path} is not readable JSON ({exc}); run python -m evallib pack "
                                f"check {pack}", path=str(path)) from None
    value = manifest.get("id") if isinstance(manifest, dict) else None
    if not isinstance(value, str) or not value:
        raise AuthoredPackError("bad_manifest", f"{path} has no 'id' (a text naming the pack); run python -m evallib "
                                f"pack check {pack}", path=str(path))
    return value


def is_authored_line(line: bytes) -> bool:
    """True for a recording line whose provenance says ``authored``; False for any other line, damaged ones too."""
    try:
        data = json.loads(line)
    except ValueError:
        return False
    provenance = data.get("provenance") if isinstance(data, dict) else None
    return isinstance(provenance, dict) and provenance.get("source") == "authored"


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def replace_authored_lines(target: Path, authored: bytes) -> int:
    """Make ``target`` hold ``authored`` (whole lines), then every line of it that is not authored, unchanged and
    in order; returns how many lines were kept. Atomic, under the file's lock (module docstring). Raises OSError."""
    fd = open_locked(target, os.O_RDWR)
    try:
        held = os.fstat(fd)
        kept = [line for line in io.BytesIO(_read_all(fd)).readlines() if not is_authored_line(line)]
        handle = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".part",
                                             delete=False)
        try:
            with handle:
                handle.write(authored + b"".join(kept))
                handle.flush()
                os.fsync(handle.fileno())
                os.fchmod(handle.fileno(), held.st_mode & 0o777)
            os.replace(handle.name, target)
        except BaseException:
            Path(handle.name).unlink(missing_ok=True)
            raise
    finally:
        os.close(fd)  # releases the lock: a writer waiting on the old file opens the new one
    return sum(bool(line.strip()) for line in kept)


@dataclasses.dataclass(frozen=True)
class RebuiltSet:
    """What `rebuild_pack_recordings` did to one set: authored answers written, other lines kept."""

    written: int
    kept: int


def rebuild_pack_recordings(pack: str | Path) -> dict[str, RebuiltSet]:
    """Replace the authored lines of ``<pack>/recordings/<set>.jsonl`` for every set whose authored file the pack
    holds, keeping every other line (module docstring); returns what was done per set.

    Raises `AuthoredPackError` when ``pack.json`` gives no id, the page's own authored error
    (``authored_incomplete``) when an authored file does not cover the requests built from the pack's
    content, and the loaders' data errors when a content file is invalid; no file is changed then.
    """
    pack = Path(pack)
    sets = [name for name in WRITERS if (pack / AUTHORED_FILES[name]).is_file()]
    if not sets:
        return {}
    extra = {"pack": pack_id(pack)}
    written = {}
    with tempfile.TemporaryDirectory(prefix="authored-") as scratch:
        for set_name in sets:
            store = Recordings(Path(scratch) / set_name)
            store.provenance_extra = extra
            written[set_name] = WRITERS[set_name](pack, store)
        done = {}
        for set_name, count in written.items():
            lines = (Path(scratch) / set_name / f"{set_name}.jsonl").read_bytes()
            kept = replace_authored_lines(pack / RECORDINGS / f"{set_name}.jsonl", lines)
            done[set_name] = RebuiltSet(count, kept)
    return done


def write_pack_recordings(pack: str | Path) -> dict[str, int]:
    """`rebuild_pack_recordings`, returning the number of authored answers written per set."""
    return {name: rebuilt.written for name, rebuilt in rebuild_pack_recordings(pack).items()}

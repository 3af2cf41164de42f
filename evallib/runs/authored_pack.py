"""A pack's authored recordings, written from its own content files (docs/packs.md, recordings).

``python -m evallib authored --pack packs/en`` rebuilds ``packs/en/recordings/{trigger,persona,judge,gnss}.jsonl``
from the pack's authored files (hand-written example answers, provenance ``authored``), through each page's
own authored writer, given the pack's files instead of the built-in French ones:

- trigger: `evallib.triggering.authored.authored_recordings` on the pack's skills, queries and decisions; a
  decision "no skill" answers the decisions file's ``none_reply`` (docs/packs.md, content files);
- persona: `evallib.__main__.persona_authored` on the pack's catalogue and responses;
- judge: `evallib.judging.authored.authored_recordings` on the pack's cases, templates and rubric;
- gnss: `evallib.gnss.live.authored_recordings` on the pack's answers.

The files are written in a temporary folder and then moved into place, one set at a time, so that a
rerun after an edit leaves no line of the previous content behind and an interrupted run leaves each
set either as it was or complete. A pack without a page's authored file keeps that set as it is.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from pathlib import Path

from evallib.llm import Recordings

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

    return persona_authored(store.write_directory, pack / "personas.json", pack / AUTHORED_FILES["persona"])


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


def write_pack_recordings(pack: str | Path) -> dict[str, int]:
    """Rebuild ``<pack>/recordings/<set>.jsonl`` for every set whose authored file the pack holds.

    Returns the number of authored answers written per set. Raises the page's own authored error
    (``authored_incomplete``) when an authored file does not cover the requests built from the pack's
    content, and the loaders' data errors when a content file is invalid; nothing is moved then.
    """
    pack = Path(pack)
    counts = {}
    with tempfile.TemporaryDirectory(prefix="authored-") as scratch:
        for set_name, writer in WRITERS.items():
            if not (pack / AUTHORED_FILES[set_name]).is_file():
                continue
            folder = Path(scratch) / set_name
            counts[set_name] = writer(pack, Recordings(folder))
        target = pack / "recordings"
        target.mkdir(exist_ok=True)
        for set_name in counts:
            os.replace(Path(scratch) / set_name / f"{set_name}.jsonl", target / f"{set_name}.jsonl")
    return counts

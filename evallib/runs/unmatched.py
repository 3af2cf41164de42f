"""Why an offline replay finds no recording for a model that *has* recordings, and how to fix it, in English.

A replay looks each request up by its key (what is asked and how, `evallib.llm.ChatRequest.key`). When a
model's recordings are there but none of them answers the requests a command builds, the recordings were
made for other requests: the content was edited since (a query, a case, a template), they were made with
other options (``--runs``, ``--mode``...), or they are another pack's recordings copied in. Saying "no
recording for model M; recorded models: M" would contradict itself: `stale_recordings` words this case.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def stale_recordings(recordings, set_name: str, models: Sequence[str], pack: Path | None,
                     record_command: str) -> str | None:
    """The explanation and the fix when every model of ``models`` has recordings in ``set_name``; None otherwise.

    ``record_command`` is the command that records the page again (``record trigger --model M``); the fix names
    ``authored --pack`` for authored recordings and it for live ones, with ``--pack`` (``pack``, else ``DIR``).
    """
    origins: dict[str, set[str]] = {}
    for recording in recordings.in_set(set_name):
        origins.setdefault(recording.request.model, set()).add(recording.provenance["source"])
    if not models or any(model not in origins for model in models):
        return None
    found = set().union(*(origins[model] for model in models))
    folder = str(pack) if pack is not None else "DIR"
    fixes = ([f"rebuild the authored ones from the content: python -m evallib authored --pack {folder}"]
             if "authored" in found else [])
    fixes += ([f"record them again: python -m evallib {record_command} --pack {folder}"] if "live" in found else [])
    names = " and ".join(repr(model) for model in dict.fromkeys(models))
    return (f"the recordings of {names} answer other requests (the content was edited since they were recorded, "
            "they were made with other options, or they are another pack's recordings); " + ", or ".join(fixes))

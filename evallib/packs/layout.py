"""Where packs live and which files each page reads (docs/packs.md#layout). Imports nothing of evallib.

A pack is a folder (or its zip) holding ``pack.json`` and, for each page it covers, the page's content
files under fixed names; recorded answers go in ``recordings/<set>.jsonl``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The packs shipped with the app, one folder per pack id.
BUILTIN_DIR = ROOT / "packs"
#: The built-in French pack: the course the app was written for, and the default of every loader.
FRENCH_DIR = BUILTIN_DIR / "fr"
#: Environment variable naming a folder of more packs (one sub-folder or .zip per pack).
PACKS_VARIABLE = "EVALLIB_PACKS"
MANIFEST = "pack.json"
RECORDINGS = "recordings"
#: The format version this code reads (docs/packs.md#manifest).
FORMAT = 1
#: Pages a pack may cover, each with (required files, optional files), in the order of the app's pages.
PAGE_FILES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "trigger": (("triggering_skills.json", "triggering_queries.json"), ("triggering_authored_decisions.json",)),
    "persona": (("personas.json",), ("persona_authored_responses.json",)),
    "judge": (("judging_prompts.json", "judging_cases.json"), ("judging_authored.json",)),
    "kappa": (("kappa_examples.json",), ()),
    "gnss": ((), ("gnss_authored_answers.json", "gnss_recorded_runs.json")),
}
PAGES = tuple(PAGE_FILES)
#: The recording set (file stem under recordings/) of each page that records answers.
RECORDING_SETS = {"trigger": "trigger", "persona": "persona", "judge": "judge", "gnss": "gnss"}
#: Largest content or recording file, in bytes: a workshop's data is kilobytes; a 100 MB file is a mistake
#: (or an attack) and would stall every session that opens the pack.
MAX_FILE_BYTES = 10_000_000
#: Largest pack, all files, in bytes (a zip is checked on its uncompressed sizes, before extraction).
MAX_PACK_BYTES = 50_000_000


def page_of(file_name: str) -> str | None:
    """The page a content file belongs to, or None for a name no page reads."""
    return next((page for page, (required, optional) in PAGE_FILES.items() if file_name in required + optional), None)


def builtin_file(name: str) -> Path:
    """A content file of the built-in French pack (the loaders' default)."""
    return FRENCH_DIR / name

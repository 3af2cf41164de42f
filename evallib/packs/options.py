"""``--pack DIR`` on every page's command: the page's content and recordings come from a pack (docs/packs.md#cli).

A command declares, with `add_pack_option`, which of its options name a pack file; `apply_pack` (called
by `evallib.runs.gate.run_command` before the command runs) opens and checks the pack, points each of
those options the user left at its default to the pack's file, and ``--recordings`` (when not given)
to the pack's recordings folder. An option given on the command line wins over the pack.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from evallib.packs.check import PackProblem
from evallib.packs.loader import PackError, open_pack


def add_pack_option(parser: argparse.ArgumentParser, page: str, files: dict[str, str]) -> None:
    """Add ``--pack``; ``files`` maps an option's destination (``skills``) to a pack file name."""
    parser.add_argument("--pack", type=Path, default=None,
                        help="a workshop pack (folder or .zip): its content and recordings replace the built-in "
                             "French pack's (docs/packs.md); an option given here wins over the pack")
    parser.set_defaults(_pack_page=page, _pack_files=files,
                        _pack_defaults={dest: parser.get_default(dest) for dest in files}, pack_identity=None)


def apply_pack(args: argparse.Namespace) -> None:
    """Point ``args`` at the pack of ``args.pack`` (no-op without one). Raises `PackError` listing its problems."""
    if getattr(args, "pack", None) is None:
        return
    pack = open_pack(args.pack)
    if not pack.covers(args._pack_page):
        raise PackError(str(args.pack), [PackProblem("pack.json", "page_not_covered",
                                                     f"field 'pages': the pack does not cover the page "
                                                     f"{args._pack_page!r}", field="pages",
                                                     details={"page": args._pack_page})])
    for dest, name in args._pack_files.items():
        if getattr(args, dest) == args._pack_defaults[dest]:
            setattr(args, dest, pack.file(name))
    if getattr(args, "recordings", False) is None:
        args.recordings = pack.recordings_dir
    args.pack_identity = pack.identity()

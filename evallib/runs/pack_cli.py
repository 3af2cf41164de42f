"""``python -m evallib pack check DIR`` and ``pack new DIR --from fr|en`` (docs/packs.md#cli).

check: exit 0 when the pack (a folder or a .zip) has no problem, 2 with every problem printed, one a
line, each naming the file, the row and the field. new: a copy of a built-in pack to edit, with the
authored recordings of its content written by the writer of ``authored --pack``
(`evallib.runs.authored_pack`), so that the copy runs offline at once; exit 2 when the target holds
files already or the built-in pack is not there.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from evallib.packs.layout import RECORDINGS
from evallib.packs.loader import builtin_packs, check_pack
from evallib.runs.authored_pack import rebuild_pack_recordings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib pack", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="action", required=True)
    check = commands.add_parser("check", help="list every problem of a pack (exit 0 none, 2 some)")
    check.add_argument("pack", type=Path, help="the pack's folder or .zip")
    new = commands.add_parser("new", help="copy a built-in pack into a new folder, to edit")
    new.add_argument("pack", type=Path, help="the new pack's folder (absent or empty)")
    new.add_argument("--from", dest="origin", default="fr", help="the built-in pack to copy (fr or en)")
    return parser


def _check(path: Path) -> int:
    manifest, problems = check_pack(path)
    for problem in problems:
        print(str(problem), file=sys.stderr)
    if problems:
        print(f"{path}: {len(problems)} problem(s); the format: docs/packs.md", file=sys.stderr)
        return 2
    print(f"{path}: pack {manifest['id']!r} version {manifest['version']} ({manifest['language']}), "
          f"pages {', '.join(manifest['pages'])}: no problem")
    return 0


def _new(path: Path, origin: str) -> int:
    packs = builtin_packs()
    if origin not in packs:
        print(f"--from {origin}: no built-in pack of that id (there are: {', '.join(packs)})", file=sys.stderr)
        return 2
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        print(f"{path}: exists and is not an empty folder; choose a new folder", file=sys.stderr)
        return 2
    try:
        shutil.copytree(packs[origin], path, ignore=shutil.ignore_patterns(RECORDINGS), dirs_exist_ok=True)
    except OSError as exc:
        print(f"{path}: cannot be written ({exc.strerror})", file=sys.stderr)
        return 2
    try:
        written = sum(rebuilt.written for rebuilt in rebuild_pack_recordings(path).values())
    except (OSError, ValueError) as exc:  # InputError is a ValueError
        print(f"{path}: the content is copied, but its authored recordings could not be written ({exc}); "
              f"run python -m evallib authored --pack {path}", file=sys.stderr)
        return 2
    print(f"{path}: a copy of the pack {origin!r} with its {written} authored answers in {path / RECORDINGS}, so it "
          "runs offline as it is.\nNext: edit pack.json (a new id) and the content files; then run python -m evallib "
          f"authored --pack {path} (the authored answers of the edited content, labelled with the new id) and "
          f"python -m evallib pack check {path}. To record a live model: python -m evallib record all --pack {path} "
          "--base-url URL --model MODEL")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.action == "check":
        return _check(args.pack)
    return _new(args.pack, args.origin)


if __name__ == "__main__":
    sys.exit(main())

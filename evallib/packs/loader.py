"""Open a pack (a folder or a .zip), check it whole, and name its content (docs/packs.md).

`open_pack` is the one way the app and the commands read a workshop's content, the built-in French pack
included: it checks the pack (`evallib.packs.check`) and raises `PackError` listing every problem, or
returns a `Pack` whose files the pages read. A zip is checked member by member before anything is
written (paths that leave the pack, links, sizes), then extracted once into a folder named by the hash
of its bytes; that folder is removed when the pack fails its check (good packs stay, extracted once).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from evallib.errors import InputError
from evallib.packs.check import PackProblem, check_folder
from evallib.packs.layout import (BUILTIN_DIR, MANIFEST, MAX_FILE_BYTES, MAX_PACK_BYTES, PACKS_VARIABLE, PAGE_FILES,
                                  RECORDINGS)

#: Environment variable naming where zips are extracted (default: a folder of the system's temp dir).
EXTRACT_VARIABLE = "EVALLIB_PACK_CACHE"


class PackError(InputError):
    """A pack that cannot be used; ``problems`` lists every `PackProblem` (code ``bad_pack``)."""

    def __init__(self, source: str, problems: list[PackProblem]) -> None:
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__("bad_pack", f"{source}: {len(problems)} problem(s)\n{lines}", source=source,
                         count=len(problems))
        self.problems = problems


@dataclass(frozen=True)
class Pack:
    """A checked pack: its folder, manifest and content hash (docs/packs.md#identity)."""

    root: Path
    manifest: dict
    content_hash: str

    @property
    def id(self) -> str:
        return self.manifest["id"]

    @property
    def version(self) -> str:
        return self.manifest["version"]

    @property
    def language(self) -> str:
        return self.manifest["language"]

    @property
    def title(self) -> str:
        return self.manifest["title"]

    @property
    def pages(self) -> tuple[str, ...]:
        return tuple(self.manifest["pages"])

    @property
    def recordings_dir(self) -> Path:
        return self.root / RECORDINGS

    def covers(self, page: str) -> bool:
        return page in self.manifest["pages"]

    def file(self, name: str) -> Path | None:
        """The pack's content file ``name``, or None when the pack does not hold it."""
        path = self.root / name
        return path if path.is_file() else None

    def identity(self) -> dict:
        """What an attempt stores of its pack: id, version and content hash."""
        return {"id": self.id, "version": self.version, "hash": self.content_hash}


def content_hash(root: Path) -> str:
    """SHA-256 (hex) of the pack's content files, recordings left out (docs/packs.md#identity)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.relative_to(root).parts[0] != RECORDINGS):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _zip_problems(archive: zipfile.ZipFile) -> list[PackProblem]:
    problems, total = [], 0
    for info in archive.infolist():
        name = info.filename
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if name.startswith(("/", "\\")) or ".." in parts or (parts and parts[0].endswith(":")):
            problems.append(PackProblem(name, "unsafe_path", "this path leaves the pack (absolute or with '..')",
                                        details={"reason": "leaves"}))
            continue
        if stat.S_ISLNK(info.external_attr >> 16):
            problems.append(PackProblem(name, "unsafe_path", "a link (a pack holds plain files only)",
                                        details={"reason": "link"}))
            continue
        total += info.file_size
        if info.file_size > MAX_FILE_BYTES:
            problems.append(PackProblem(name, "too_large", f"{info.file_size:,} bytes; a pack file may hold "
                                        f"{MAX_FILE_BYTES:,} at most",
                                        details={"size": info.file_size, "limit": MAX_FILE_BYTES}))
    if total > MAX_PACK_BYTES:
        problems.append(PackProblem("", "pack_too_large", f"the pack holds {total:,} bytes; {MAX_PACK_BYTES:,} at most",
                                    details={"size": total, "limit": MAX_PACK_BYTES}))
    return problems


def _zip_too_large(source: str, size: int) -> PackError:
    return PackError(source, [PackProblem("", "pack_too_large", f"the zip holds {size:,} bytes; {MAX_PACK_BYTES:,} at most",
                                          details={"size": size, "limit": MAX_PACK_BYTES})])


def _extract_dir() -> Path:
    return Path(os.environ.get(EXTRACT_VARIABLE) or Path(tempfile.gettempdir()) / "evallib-packs")


def extract_zip(data: bytes, source: str) -> Path:
    """The folder of the pack in the zip ``data`` (extracted once, by hash); raises `PackError`.

    The pack's files are at the zip's root or inside its one top folder. Problems (code ``bad_zip``
    unless said): bytes that are no zip (``reason`` ``not_zip``); a member that cannot be read, damaged or
    cut short (``damaged``, ``technical_text``: Python's own words), or whose size is not the one its
    header declares (``size``: ``size``, ``declared``); ``too_large``, ``pack_too_large``, ``unsafe_path``
    (see `_zip_problems`). Nothing of a failed extraction stays on disk.
    """
    import io

    if len(data) > MAX_PACK_BYTES:
        raise _zip_too_large(source, len(data))
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, EOFError, OSError, ValueError):
        raise PackError(source, [PackProblem("", "bad_zip", "not a zip file", details={"reason": "not_zip"})]) from None
    with archive:
        problems = _zip_problems(archive)
        if problems:
            raise PackError(source, problems)
        target = _extract_dir() / hashlib.sha256(data).hexdigest()[:32]
        if not (target / ".complete").is_file():
            partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=_ensure(_extract_dir())))
            try:
                (partial / "pack").mkdir()
                for info in archive.infolist():
                    _extract_member(archive, info, partial / "pack", source)
                (partial / ".complete").write_text("", encoding="utf-8")
                try:
                    partial.rename(target)
                except OSError:  # another process extracted the same zip meanwhile
                    pass
            finally:  # gone once renamed; else a failure's (or a lost race's) leftovers
                shutil.rmtree(partial, ignore_errors=True)
    return _pack_root(target / "pack")


def _extract_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, folder: Path, source: str) -> None:
    """Write one member of ``archive`` under ``folder``; a member that cannot be read is a `PackError`."""
    path = folder / info.filename
    try:
        if info.is_dir():
            path.mkdir(parents=True, exist_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as member:
            chunk = member.read(MAX_FILE_BYTES + 1)  # never trust the declared size alone
        if len(chunk) == info.file_size:
            path.write_bytes(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as exc:
        # damaged compressed data, a wrong CRC, a member cut short, encrypted or of an unknown compression
        text = str(exc) or type(exc).__name__
        raise PackError(source, [PackProblem(info.filename, "bad_zip", f"cannot be read, damaged or cut short ({text})",
                                             details={"reason": "damaged", "technical_text": text})]) from None
    if len(chunk) != info.file_size:
        raise PackError(source, [PackProblem(info.filename, "bad_zip", f"holds {len(chunk):,} bytes, though the zip's "
                                             f"header declares {info.file_size:,}",
                                             details={"reason": "size", "size": len(chunk), "declared": info.file_size})])


def discard_extracted(root: Path) -> None:
    """Remove the extraction of a zip whose pack failed its check (the folder of ``root`` under the extraction
    folder): each distinct bad upload would otherwise stay on disk. No-op for any other folder."""
    cache = _extract_dir().resolve()
    try:
        parts = root.resolve().relative_to(cache).parts
    except ValueError:
        return
    if parts:
        shutil.rmtree(cache / parts[0], ignore_errors=True)


def _ensure(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _pack_root(folder: Path) -> Path:
    if (folder / MANIFEST).is_file():
        return folder
    tops = [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name != "__MACOSX"]
    return tops[0] if len(tops) == 1 and (tops[0] / MANIFEST).is_file() else folder


def check_pack(source: str | Path | bytes) -> tuple[dict | None, list[PackProblem]]:
    """(manifest or None, every problem) of a pack folder, a zip's path or a zip's bytes. Never raises."""
    name = "the uploaded zip" if isinstance(source, bytes) else str(source)
    try:
        root = _root_of(source, name)
    except PackError as exc:
        return None, exc.problems
    return _checked(root, source)


def _root_of(source: str | Path | bytes, name: str) -> Path:
    if isinstance(source, bytes):
        return extract_zip(source, name)
    path = Path(source)
    if path.is_dir():
        return path
    if path.is_file() and path.suffix.lower() == ".zip":
        if path.stat().st_size > MAX_PACK_BYTES:  # refused before it is read
            raise _zip_too_large(name, path.stat().st_size)
        return extract_zip(path.read_bytes(), name)
    raise PackError(name, [PackProblem("", "not_a_pack", "neither a folder nor a .zip file", details={"path": name})])


def open_pack(source: str | Path | bytes, *, content: bool = True) -> Pack:
    """The checked `Pack` of a folder, a zip's path or a zip's bytes. Raises `PackError` listing every problem.

    ``content=False``: the light check of `evallib.packs.check.check_folder` (built-in packs only)."""
    name = "the uploaded zip" if isinstance(source, bytes) else str(source)
    root = _root_of(source, name)
    manifest, problems = _checked(root, source, content=content)
    if problems:
        raise PackError(name, problems)
    return Pack(root, manifest, content_hash(root))


def _checked(root: Path, source: str | Path | bytes, *, content: bool = True) -> tuple[dict | None, list[PackProblem]]:
    """`check_folder` of ``root``; a failed zip's extraction is discarded and its problems name the zip."""
    manifest, problems = check_folder(root, content=content)
    if problems:
        discard_extracted(root)
    return manifest, _named(problems, root, source)


def _named(problems: list[PackProblem], root: Path, source: str | Path | bytes) -> list[PackProblem]:
    """``problems`` whose messages name the folder a zip was extracted to (a cache folder, removed when the
    pack fails its check) naming the zip instead: the folder the user unzips it into."""
    if not isinstance(source, bytes) and Path(source).is_dir():
        return problems
    zip_name = "the uploaded zip" if isinstance(source, bytes) else str(source)
    folder = f"<the folder you unzip {zip_name} into>"
    return [replace(p, message=p.message.replace(str(root), folder)) for p in problems]


def builtin_packs() -> dict[str, Path]:
    """Folder of each built-in pack, by id (``fr``, and ``en`` when it is there)."""
    return {p.name: p for p in sorted(BUILTIN_DIR.iterdir()) if (p / MANIFEST).is_file()}


def environment_packs(environ: dict | None = None) -> list[Path]:
    """The packs (sub-folders with a manifest, or zips) of the folder named by ``EVALLIB_PACKS``, sorted."""
    folder = (environ if environ is not None else os.environ).get(PACKS_VARIABLE)
    if not folder or not Path(folder).is_dir():
        return []
    return [p for p in sorted(Path(folder).iterdir())
            if (p.is_dir() and (p / MANIFEST).is_file()) or (p.is_file() and p.suffix.lower() == ".zip")]


def default_pack_id(language: str) -> str:
    """The built-in pack a session in ``language`` opens with no room: its language's, else French."""
    return language if language in builtin_packs() else "fr"


def page_files(page: str) -> tuple[str, ...]:
    """Required and optional content files of a page (docs/packs.md#layout)."""
    required, optional = PAGE_FILES[page]
    return required + optional

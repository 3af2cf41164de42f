"""The docs as a site (mkdocs.yml, `make docs`): it builds with --strict, so a broken link or anchor fails the suite;
every page is in its navigation; every picture it shows is one `make screenshots` takes; the command-line guide
names every option of every command, every failure cause and every field of the run bundle's schema.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: The largest picture committed (the script's PNGs, a palette of 128 colours, are 13-62 KiB at 1280 px).
MAX_PICTURE_BYTES = 120 * 1024
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of ``config`` into ``site`` (never with -q: MkDocs 1.6 then drops the warnings that
    --strict counts, and a broken link passes)."""
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (requirements-dev.txt pins it): the site is not built")
    pytest.importorskip("material", reason="mkdocs-material is not installed (requirements-dev.txt pins it)")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_the_site_builds_strict_with_every_page(tmp_path):
    built = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stdout + built.stderr
    pages = {p.stem for p in DOCS.glob("*.md")} - {"README"}  # README.md is the site's index.html
    assert {p.stem for p in (tmp_path / "site").glob("*.html")} >= pages | {"index"}


def test_a_broken_anchor_fails_the_build(tmp_path):
    # mkdocs.yml's settings (its nav left out) on two pages, one linking to an anchor the other lacks.
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(DOCS / "room.md", docs / "room.md")
    shutil.copy(DOCS / "print.css", docs / "print.css")
    (docs / "README.md").write_text("# Home\n\nSee [the board](room.md#board) and [no such](room.md#no-such-anchor).\n",
                                    encoding="utf-8")
    settings = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(settings[:settings.index("\nnav:")].replace("docs_dir: docs", f"docs_dir: {docs}"), encoding="utf-8")
    built = _build(config, tmp_path / "site")
    assert built.returncode != 0
    assert "no-such-anchor" in built.stdout + built.stderr and "#board" not in built.stdout + built.stderr


def _nav_files(nav) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [f for value in nav.values() for f in _nav_files(value)]
    return [f for item in nav for f in _nav_files(item)]


def test_every_docs_page_is_in_the_navigation():
    yaml = pytest.importorskip("yaml", reason="PyYAML (a dependency of mkdocs) is not installed")
    nav = _nav_files(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])
    assert len(nav) == len(set(nav)), "a page is twice in the nav"
    missing = sorted({p.name for p in DOCS.glob("*.md")} - set(nav))
    assert not missing, (f"docs pages missing from mkdocs.yml's nav: {missing} (a Workshop packs page: uncomment "
                         "its line under Guides)")
    assert (DOCS / nav[0]).name == "README.md", "the site opens on docs/README.md (its index)"


def _pictures(path: Path) -> list[str]:
    return [a or b for a, b in IMAGE.findall(path.read_text(encoding="utf-8"))]


def test_every_picture_shown_is_one_the_screenshot_script_takes():
    from docs.screenshots import SHOTS

    shown = {("docs/" + src) if path.parent == DOCS else src
             for path in [ROOT / "README.md", *DOCS.glob("*.md")] for src in _pictures(path)}
    taken = {f"docs/img/{name}.png" for name in SHOTS}
    assert shown <= taken, sorted(shown - taken)
    assert {f"docs/img/{p.name}" for p in (DOCS / "img").glob("*.png")} == taken, "docs/img holds the script's pictures"
    assert "docs/img/board-present-en.png" in {src for src in _pictures(ROOT / "README.md")}
    for src in shown:
        assert (ROOT / src).is_file(), src
    large = [f"{p.name}: {p.stat().st_size // 1024} KiB" for p in (DOCS / "img").glob("*.png")
             if p.stat().st_size > MAX_PICTURE_BYTES]
    assert not large, f"pictures above {MAX_PICTURE_BYTES // 1024} KiB (docs/screenshots.py keeps them small): {large}"


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {s for action in parser._actions for s in action.option_strings if s.startswith("--") and s != "--help"}


def _parsers() -> dict[str, argparse.ArgumentParser]:
    import importlib

    from evallib.__main__ import EVALUATIONS
    from evallib.__main__ import _parser as top

    parsers = {name: importlib.import_module(module)._parser() for name, module in EVALUATIONS.items()
               if name != "room"}
    commands = next(a for a in top()._actions if isinstance(a, argparse._SubParsersAction))
    parsers |= {name: commands.choices[name] for name in ("record", "authored")}
    return parsers


def test_the_command_line_guide_names_every_command_and_option():
    from evallib.__main__ import EVALUATIONS

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    parsers = _parsers()
    assert set(parsers) | {"room"} == set(EVALUATIONS) | {"record", "authored"}
    for name, parser in parsers.items():
        assert f'<a id="{name}"></a>' in text, f"no section for {name}"
        section = text.split(f'<a id="{name}"></a>', 1)[1].split("<a id=", 1)[0]
        live = "[live options](#live-options)" in section
        for option in sorted(_options(parser)):
            where = text.split('<a id="live-options"></a>', 1)[1].split("<a id=", 1)[0] if live else ""
            assert f"`{option}" in section or f"`{option}" in where, f"{name} {option} is not in docs/cli.md"
    assert "`room token`" in text


def test_the_command_line_guide_names_every_failure_cause_and_bundle_field():
    from evallib.runs.failures import CAUSE_NAMES, CallFailures
    from evallib.runs.gate import EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    words = " ".join(text.split())
    assert [c for c in CAUSE_NAMES if f"`{c}` ({CAUSE_NAMES[c]})" not in words] == []
    schema = json.loads((ROOT / "data" / "schemas" / "run_bundle.schema.json").read_text(encoding="utf-8"))
    fields = list(schema["properties"]) + list(schema["properties"]["answers"]["items"]["properties"]) \
        + list(schema["properties"]["answers"]["items"]["properties"]["provenance"]["properties"])
    assert [f for f in fields if f"`{f}`" not in text] == []
    assert [f for f in CallFailures(0, ()).to_dict() if f"`{f}`" not in text] == []
    for code in (EXIT_PASS, EXIT_GATE_FAILED, EXIT_NOT_MEASURED):
        assert re.search(rf"^\| {code} \|", text, re.M), f"exit code {code} has no row"

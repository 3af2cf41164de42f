"""Architecture rules that a test can check: evallib stays free of Streamlit, and the domains free of the runs."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(path: Path, depth: int = 1) -> set[str]:
    """The modules ``path`` imports, cut to their first ``depth`` dotted parts."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(".".join(alias.name.split(".")[:depth]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(".".join(node.module.split(".")[:depth]))
    return names


def test_no_evallib_module_imports_streamlit():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "evallib").rglob("*.py")
                 if "streamlit" in _imported_modules(p)]
    assert offenders == []


def test_importing_evallib_does_not_load_streamlit():
    code = ("import sys, pkgutil, importlib, evallib\n"
            "for m in pkgutil.walk_packages(evallib.__path__, 'evallib.'):\n"
            "    if m.name != 'evallib.__main__': importlib.import_module(m.name)\n"
            "print('streamlit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_no_domain_module_imports_the_runs_package():
    """``evallib.runs`` (bundles, replay, gates, commands) rests on the domains, never the other way round."""
    runs = ROOT / "evallib" / "runs"
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "evallib").rglob("*.py")
                 if runs not in p.parents and p.name != "__main__.py" and "evallib.runs" in _imported_modules(p, 2)]
    assert offenders == []
    assert (runs / "bundle.py").exists()  # the rule still names a package that exists

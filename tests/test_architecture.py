"""Architecture rules that a test can check: evallib stays free of Streamlit."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
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

"""A room on one server: `make run`'s settings, and what the first visitor's imports cost.

`make run` serves a room (no source watcher, no forced collection after each run); `make dev`
reloads. Streamlit's own config loader reads the project's .streamlit/config.toml in a fresh
interpreter, so a misspelt option name (which Streamlit ignores with a warning) fails here, as does
a lost setting. Imports are checked in fresh interpreters too: a module loaded once stays loaded.
"""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOM = {"server.fileWatcherType": "none", "runner.postScriptGC": False}
DEVELOPMENT = {"server.fileWatcherType": "auto", "runner.postScriptGC": True, "server.runOnSave": True}

READ_OPTIONS = """
import json, sys
from streamlit import config
flags = json.loads(sys.argv[1])
config.get_config_options(force_reparse=True, options_from_flags=flags)
print(json.dumps({name: [config.get_option(name), config.get_where_defined(name)]
                  for name in json.loads(sys.argv[2])}))
"""


LOADED = """
import json, sys
{code}
print(json.dumps(sorted(name for name in json.loads(sys.argv[1]) if name in sys.modules)))
"""
#: Analysis libraries the home page does not need (scipy.stats alone is about 0.6 s to import).
ANALYSIS_LIBRARIES = ["pandas", "scipy", "scipy.stats", "sklearn", "statsmodels", "openai", "anthropic"]


def _loaded(code: str, names: list[str]) -> list[str]:
    """Which of ``names`` are in sys.modules after running ``code`` in a fresh interpreter."""
    answer = subprocess.run([sys.executable, "-c", LOADED.format(code=code), json.dumps(names)],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(answer.stdout.splitlines()[-1])


def _effective(names, flags=None) -> dict:
    """{option: [value, where defined]} as Streamlit loads them in the project folder."""
    answer = subprocess.run([sys.executable, "-c", READ_OPTIONS, json.dumps(flags or {}), json.dumps(list(names))],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(answer.stdout)


def _make_dev_flags() -> dict:
    """The --section.option flags of `make dev`'s streamlit command, as Streamlit's CLI passes them."""
    command = subprocess.run(["make", "-n", "--no-print-directory", "dev"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    line = next(line for line in command.splitlines() if "streamlit run" in line)
    words = shlex.split(line)
    flags = {}
    for i, word in enumerate(words):
        if re.fullmatch(r"--\w+\.\w+", word):
            value = words[i + 1]
            flags[word[2:]] = {"true": True, "false": False}.get(value, value)
    return flags


def test_the_project_config_serves_a_room():
    options = _effective(ROOM)
    assert {name: value for name, (value, _) in options.items()} == ROOM
    for name, (_, where) in options.items():
        assert where.endswith(".streamlit/config.toml"), f"{name} comes from {where}, not the project's config"


def test_make_dev_turns_reloading_back_on():
    flags = _make_dev_flags()
    options = _effective(DEVELOPMENT, flags)
    assert {name: value for name, (value, _) in options.items()} == DEVELOPMENT
    for name, (_, where) in options.items():
        assert where == "command-line argument or environment variable", f"make dev does not set {name}"


def test_proportion_statistics_do_not_load_scipy_stats():
    assert _loaded("import evallib.stats", ["scipy.stats"]) == []


def test_the_home_page_loads_no_analysis_library():
    code = ("from streamlit.testing.v1 import AppTest\n"
            "app = AppTest.from_file('app.py', default_timeout=60).run()\n"
            "assert not app.exception and app.title, 'the home page did not run'")
    assert _loaded(code, ANALYSIS_LIBRARIES) == []

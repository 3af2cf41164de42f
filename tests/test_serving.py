"""`make run` serves a room (no source watcher, no forced collection after each run); `make dev` reloads.

Streamlit's own config loader reads the project's .streamlit/config.toml in a fresh interpreter, so
a misspelt option name (which Streamlit ignores with a warning) fails here, as does a lost setting.
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

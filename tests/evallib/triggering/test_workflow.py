"""The example GitHub Actions workflow (docs/trigger-gate-workflow.yml) calls the gate as it is wired now."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

from evallib.runs.trigger import cli

ROOT = Path(__file__).resolve().parents[3]
WORKFLOW = ROOT / "docs" / "trigger-gate-workflow.yml"
COMMAND = ["python", "-m", "evallib", "trigger"]


def _run_steps(text: str) -> list[str]:
    """Each step's ``run`` command, folded (``run: >``) blocks joined into one line."""
    commands, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"^(\s*)(?:- )?(?:\s*)run: ?(.*)$", line)
        if not match:
            continue
        if match.group(2).strip() in (">", "|"):
            indent = len(line) - len(line.lstrip())
            block = []
            for following in lines[i + 1:]:
                if following.strip() and len(following) - len(following.lstrip()) <= indent:
                    break
                block.append(following.strip())
            commands.append(" ".join(b for b in block if b))
        else:
            commands.append(match.group(2).strip())
    return commands


def _gate_commands() -> list[list[str]]:
    commands = [shlex.split(re.sub(r"\$\{\{[^}]*\}\}", "PLACEHOLDER", c)) for c in _run_steps(WORKFLOW.read_text())]
    return [c for c in commands if c[:4] == COMMAND]


def test_the_workflow_runs_the_gate_offline_and_live_with_options_the_command_accepts():
    commands = _gate_commands()
    assert len(commands) == 2
    for argv in commands:
        cli._parser().parse_args(argv[4:])  # exits (SystemExit) on an option the command does not know
    assert any("--offline" in c for c in commands) and any("--base-url" in c for c in commands)


def test_the_workflows_offline_step_passes_on_the_shipped_recordings(tmp_path):
    [offline] = [c for c in _gate_commands() if "--offline" in c]
    argv = [sys.executable, *offline[1:]]
    argv[argv.index("--out") + 1] = str(tmp_path)
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == cli.EXIT_PASS, done.stderr
    assert "gate: PASS" in done.stdout
    assert list(tmp_path.glob("triggering-*.json"))

"""A command whose reader closes its output early (``python -m evallib kappa FILE | head -3``) exits 2, "the
report could not be written" (docs/cli.md#exit-codes), without a traceback: not 1, which says the gate
failed. Real subprocesses: the error only happens on a real pipe."""

import os
import subprocess
import sys
from pathlib import Path

from evallib.runs.gate import EXIT_NOT_WRITTEN

ROOT = Path(__file__).resolve().parents[3]
RATINGS = "a,b\n" + "0,0\n" * 14 + "0,1\n"


def _command(tmp_path: Path) -> list[str]:
    path = tmp_path / "ratings.csv"
    path.write_text(RATINGS, encoding="utf-8")
    return [sys.executable, "-m", "evallib", "kappa", str(path)]


def test_a_reader_that_closes_before_reading_gets_exit_2_and_no_traceback(tmp_path):
    read, write = os.pipe()
    os.close(read)  # no one will ever read: the command's first line finds the pipe closed
    try:
        done = subprocess.run(_command(tmp_path), stdout=write, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == EXIT_NOT_WRITTEN == 2
    assert done.stderr.decode() == ""  # neither the traceback nor Python's "Exception ignored" at exit


def test_a_reader_that_stops_after_the_first_line_gets_exit_2_and_no_traceback(tmp_path):
    child = subprocess.Popen(_command(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                             env={**os.environ, "PYTHONUNBUFFERED": "1"})  # each line written as printed
    first = child.stdout.readline()
    child.stdout.close()  # as `head -1` does, while the command still has its readings to print
    _, stderr = child.communicate(timeout=120)
    assert first.startswith(b"kappa: ratings.csv, 2 raters")
    assert child.returncode == EXIT_NOT_WRITTEN
    assert b"Traceback" not in stderr and b"BrokenPipeError" not in stderr and b"Exception ignored" not in stderr

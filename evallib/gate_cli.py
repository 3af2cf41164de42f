"""What the evaluation commands (`python -m evallib trigger|judge|gnss`) share: exit codes and usage errors.

A CI job reads the exit code: 0 the gate passed, 1 it failed (below a minimum accuracy, mean or pass
count), 2 the command could not be run as asked (a usage or data error, with its message on stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

EXIT_PASS, EXIT_GATE_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A problem with the command line or its inputs (exit code 2)."""


def run_command(name: str, parser: argparse.ArgumentParser, run: Callable[[argparse.Namespace], int],
                argv: list[str] | None) -> int:
    """Parse ``argv`` with ``parser`` and ``run`` it; returns the exit code, never raises on bad input.

    argparse's own exit (2 on a usage error, 0 after ``--help``) becomes a return value, and a
    `UsageError` raised by ``run`` is printed as ``<name>: error: <message>`` with exit code 2.
    """
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_USAGE if exc.code else EXIT_PASS
    try:
        return run(args)
    except UsageError as exc:
        print(f"{name}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE

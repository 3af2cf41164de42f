"""What the evaluation commands (`python -m evallib trigger|judge|gnss`, and `record`) share: exit codes,
usage errors, the options of a live endpoint, progress on stderr and the account of failed calls.

A CI job reads the exit code:

- 0 the gate passed;
- 1 the gate failed **on measured answers** (below a minimum accuracy, mean or pass count);
- 2 the run could not be measured: a usage or data error (its message on stderr), or calls that got
  no usable answer (wrong key, unknown model, no server, server errors, rate limits, timeouts, an
  address that is no model API) beyond the share accepted by ``--max-failed-share`` (0 by default:
  every call must be answered). The failures are printed grouped by cause and kept in the JSON report
  (`evallib.runs.failures`), so CI can tell a broken endpoint from a regression. 2 also when the report
  could not be written: its reader closed standard output early (`console`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from evallib.runs.failures import CallFailures, CommandOptions
from evallib.llm import ProviderConfig
from evallib.llm.providers import DEFAULT_TIMEOUT_S
from evallib.packs.loader import PackError
from evallib.packs.options import apply_pack
from evallib.runs.bundle import RunBundleError, dumps

EXIT_PASS, EXIT_GATE_FAILED, EXIT_USAGE = 0, 1, 2
#: Calls failed beyond the accepted share: nothing (or too little) was measured. Same code as a usage
#: error: in both cases the gate says nothing about the model.
EXIT_NOT_MEASURED = 2
#: The report could not be written: its reader closed standard output early (``... | head -3``). Not 1:
#: the gate did not fail, the output was cut.
EXIT_NOT_WRITTEN = 2
PROVIDER_KINDS = ("openai", "anthropic")
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
#: Where the base URL comes from when --base-url is not given (the variables the SDKs themselves read).
BASE_URL_VARIABLES = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
#: SDK retries of a 429, 5xx, timeout or lost connection (the page's value).
DEFAULT_RETRIES = 3
#: Progress on stderr: nothing before this many seconds, then a line at most every `PROGRESS_EVERY_S`
#: (rewritten in place on a terminal, every `PROGRESS_EVERY_TTY_S`): a CI log gets a few lines a minute.
PROGRESS_AFTER_S, PROGRESS_EVERY_S, PROGRESS_EVERY_TTY_S = 2.0, 10.0, 1.0

LIVE_OPTIONS_HELP = f"""
Live runs: the key is read from {KEY_VARIABLES['openai']} or {KEY_VARIABLES['anthropic']} (by --provider),
the base URL from --base-url, else {BASE_URL_VARIABLES['openai']} or {BASE_URL_VARIABLES['anthropic']}.
Each attempt waits --timeout seconds (default {DEFAULT_TIMEOUT_S:g}, as the page) and the SDK retries a
429, 5xx, timeout or lost connection --retries times: a request that gets no answer is a failed call,
never an answer. Failed calls are printed grouped by cause (wrong key, unknown model with the models the
endpoint lists, rate limit, server error, timeout, no server, not a model API) and kept in the JSON report.
When more than --max-failed-share of the calls failed (default 0: every call must be answered), or none
was answered, the gate is not measured: exit 2. Within the share, the gate is measured on the answered
calls and says so.
"""


RECORD_OPTIONS_HELP = f"""
The key is read from {KEY_VARIABLES['openai']} or {KEY_VARIABLES['anthropic']} (by --kind), the base URL
from --base-url, else {BASE_URL_VARIABLES['openai']} or {BASE_URL_VARIABLES['anthropic']}. Each attempt waits
--timeout seconds (default {DEFAULT_TIMEOUT_S:g}) and the SDK retries a 429, 5xx, timeout or lost connection
--retries times (a refused connection or a web page is not retried). Every complete answer is appended
to the local recordings as it arrives; a request that gets no answer is printed, grouped by cause (missing
or wrong key, unknown model, rate limit, server error, timeout, no server, not a model API), and never
recorded. Exit 0 when every request was answered, 2 on a usage error or when more than
--max-failed-share of the requests failed (what was answered is recorded all the same), 130 when
interrupted (record all: run the same command again to ask only the missing requests).
"""


class UsageError(Exception):
    """A problem with the command line or its inputs (exit code 2)."""


def run_command(name: str, parser: argparse.ArgumentParser, run: Callable[[argparse.Namespace], int],
                argv: list[str] | None) -> int:
    """Parse ``argv`` with ``parser`` and ``run`` it; returns the exit code, never raises on bad input.

    argparse's own exit (2 on a usage error, 0 after ``--help``) becomes a return value, and a
    `UsageError` raised by ``run`` is printed as ``<name>: error: <message>`` with exit code 2, and so is
    a run bundle refused for what it would hold (`evallib.runs.bundle.RunBundleError`: a key, a URL's
    credentials or a local path in an input or an answer): no report is written then. ``--pack`` (when the
    command has it, `evallib.packs.options`) is applied first: a pack with problems is exit 2, each listed.
    """
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_USAGE if exc.code else EXIT_PASS
    try:
        apply_pack(args)
    except PackError as exc:
        print(f"{name}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return run(args)
    except UsageError as exc:
        print(f"{name}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except RunBundleError as exc:
        print(f"{name}: error: no report written: {exc}", file=sys.stderr)
        return EXIT_USAGE


def console(main: Callable[[], int]) -> int:
    """``main()``'s exit code, or `EXIT_NOT_WRITTEN`, without a traceback, when the reader of standard
    output closed it before the command was done (``python -m evallib kappa FILE | head -3``).

    Python's recipe (the ``signal`` module's note on SIGPIPE): the output is flushed here, so that a
    closed pipe is found while it can be handled, then pointed at devnull, so that the flush at exit does
    not fail a second time.
    """
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_NOT_WRITTEN
    return code


def _share(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _count(minimum: int):
    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    return parse


def add_live_options(parser: argparse.ArgumentParser, kind_flags: tuple[str, ...] = ("--provider",),
                     gate: bool = True) -> None:
    """The options of every command that calls a model: ``--provider`` (dest ``provider``),
    ``--base-url``, ``--timeout``, ``--retries``, ``--concurrency`` and ``--max-failed-share``
    (``gate``: whether the command has a gate that this share lets be measured; ``record`` has none)."""
    parser.add_argument(*kind_flags, dest="provider", choices=PROVIDER_KINDS, default="openai",
                        help="endpoint kind; the key is read from OPENAI_API_KEY or ANTHROPIC_API_KEY")
    parser.add_argument("--base-url", default=None,
                        help="endpoint, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL or "
                             "ANTHROPIC_BASE_URL, by provider; empty: the provider's hosted API)")
    parser.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT_S,
                        help="seconds an attempt waits for an answer (default %(default)g, as the page)")
    parser.add_argument("--retries", type=_count(0), default=DEFAULT_RETRIES,
                        help="SDK retries of a 429, 5xx, timeout or lost connection (default %(default)s)")
    parser.add_argument("--concurrency", type=_count(1), default=8, help="requests in flight (default %(default)s)")
    parser.add_argument("--max-failed-share", type=_share, default=0.0,
                        help="largest share of failed calls the gate is measured with; beyond it, exit 2 "
                             "(default %(default)g: every call must be answered)" if gate else
                        "largest share of failed requests accepted; beyond it, exit 2, what was answered being "
                        "recorded all the same (default %(default)g: every request must be answered)")


def live_config(args: argparse.Namespace, prefill: bool = True) -> ProviderConfig:
    """The endpoint of a command's live options (key from the environment, never from the command line)."""
    base_url = args.base_url if args.base_url is not None else os.environ.get(BASE_URL_VARIABLES[args.provider], "")
    return ProviderConfig(kind=args.provider, base_url=base_url.strip(),
                          api_key=os.environ.get(KEY_VARIABLES[args.provider], "").strip(),
                          timeout_s=args.timeout, max_retries=args.retries, prefill=prefill)


def command_options(args: argparse.Namespace, model_options: tuple[str, ...] = ("--model",),
                    prefill_option: str = "") -> CommandOptions:
    """What the hints of this command may name (`evallib.runs.failures.CommandOptions`)."""
    return CommandOptions(KEY_VARIABLES[args.provider], model_options, args.timeout, args.concurrency,
                          prefill_option)


def report_failures(failures: CallFailures, stream=None) -> None:
    """Print the failed calls grouped by cause on ``stream`` (stderr by default); nothing when none failed."""
    stream = stream or sys.stderr
    sys.stdout.flush()  # after what the command printed, in a log that mixes both streams
    for line in failures.lines():
        print(line, file=stream)


def exit_code(passed: bool, failures: CallFailures | None = None) -> int:
    """0 passed, 1 failed on measured answers, 2 not measured (see the module docstring)."""
    if failures is not None and failures.failed and not failures.measured:
        return EXIT_NOT_MEASURED
    return EXIT_PASS if passed else EXIT_GATE_FAILED


def report_file(out: Path, prefix: str, model: str) -> Path:
    """``<out>/<prefix>-<model>.json``, the model id made safe for a file name.

    >>> report_file(Path("outputs"), "triggering", "org/model:7b").name
    'triggering-org_model_7b.json'
    """
    return out / f"{prefix}-{re.sub(r'[^A-Za-z0-9._-]+', '_', model)}.json"


def _write(path: Path, content: bytes) -> None:
    """``content`` into ``path``, creating its folder; a folder or file that cannot be written is a
    `UsageError` naming the path (exit code 2, never the gate's 1)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_report(path: Path, data: dict) -> None:
    """Write a command's JSON report (UTF-8, indented), creating its folder; `UsageError` if it cannot."""
    _write(path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))


def write_bundle(path: Path, bundle: dict) -> None:
    """Write a command's run bundle (`evallib.runs.bundle.dumps`), creating its folder; `UsageError` if it cannot."""
    _write(path, dumps(bundle) + b"\n")


def outcome(code: int) -> str:
    """The report's word for an exit code: "pass", "fail" or "not_measured"."""
    return {EXIT_PASS: "pass", EXIT_GATE_FAILED: "fail"}.get(code, "not_measured")


def verdict(code: int) -> str:
    """The printed gate line's word for an exit code: PASS, FAIL or NOT MEASURED."""
    return outcome(code).replace("_", " ").upper()


class ProgressLine:
    """A collection's progress on stderr, for runs longer than a few seconds.

    Nothing during the first `PROGRESS_AFTER_S`; then, on a terminal, one line rewritten in place every
    `PROGRESS_EVERY_TTY_S`, and elsewhere (a CI log) a new line every `PROGRESS_EVERY_S`. Works with any
    progress object with ``done``, ``total`` and ``elapsed_s``, and ``errors`` (`evallib.llm.Progress`)
    or ``unscored`` (`evallib.judging.pipeline.ChainProgress`).
    """

    def __init__(self, name: str, stream=None) -> None:
        self.name = name
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every_s = PROGRESS_EVERY_TTY_S if self.tty else PROGRESS_EVERY_S
        self._last = None
        self._open = False

    def __call__(self, progress) -> None:
        if progress.elapsed_s < PROGRESS_AFTER_S:
            return
        now = time.monotonic()
        if self._last is not None and now - self._last < self.every_s and progress.done < progress.total:
            return
        self._last = now
        line = self.line(progress)
        if self.tty:
            print(f"\r{line}", end="", file=self.stream, flush=True)
            self._open = True
        else:
            print(line, file=self.stream, flush=True)

    def line(self, progress) -> str:
        """The line printed for ``progress``."""
        if hasattr(progress, "errors"):
            count = f"{progress.errors} failed"
        else:  # a judge chain: its grade may be unscored for a failed call or an unreadable answer
            count = f"{getattr(progress, 'unscored', 0)} unscored"
        return f"{self.name}: {progress.done}/{progress.total} done, {count}, {progress.elapsed_s:.0f} s"

    def close(self) -> None:
        """End a line left open on a terminal."""
        if self._open:
            print(file=self.stream)
            self._open = False

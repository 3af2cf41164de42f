"""``python -m evallib record all``: every page's default requests recorded from one endpoint, resumable.

Before a workshop, one command asks a live model everything the pages ask by default, so that the
room can then run offline on real answers::

    python -m evallib record all --kind openai --base-url http://localhost:11434/v1 --model llama3.2
    python -m evallib record all --kind anthropic --model claude-sonnet-4-5 --concurrency 4

The pages, in this order, each through its own ``record <page>`` code path (`evallib.__main__`):
persona (the default grid and exercise 3's rewrite example), trigger (routing requests, tools mode, 2 runs per query), judge (both
templates, then the verbosity and position probes, a chain: a grading is built from its generation)
and gnss (12 cases x ``--runs``). The kappa page asks no model.

**Resumable.** A request whose canonical key (`ChatRequest.key`: model, prompts, options) is already
in the recordings, shipped or local, is answered from there and not asked again; every new answer
is appended to the local recordings the moment it arrives (one line, under a lock). An
interrupted run (Ctrl-C, a dead laptop) is resumed by running the same command again: only the
missing requests are sent. For the judge's chains this holds call by call: a recorded generation
gives the same grading request, itself recorded. A request repeated within the run (a judge grading
two identical responses) is asked once and counted as a duplicate, never as "already recorded".

**Output.** Progress on stderr (after 2 s, then every 10 s in a log or every second on a terminal):
the current page, its requests done and still queued, and for this page and all pages so far how
many were already recorded, answered now and failed. Each page then prints its summary line, in the
words and numbers of the closing table (requests counted once: a duplicate is neither asked nor answered
twice), and its failures grouped by cause (`evallib.runs.failures`, which counts calls); the run ends with a
table per page: already recorded / asked / answered / failed / duplicates / recorded, where "recorded" counts
the lines the run appended (complete answers; an empty or cut one is answered but not recorded).
After Ctrl-C the answers still in flight are dropped, neither recorded nor counted: the table printed
then adds up to what the files hold.

A page that asked the endpoint and got no answer at all (no server, a wrong key, an unknown model)
stops the run: the next pages would only fail alike, one timeout after another; the closing table
lists the pages asked so far.

**Exit codes**, as ``record <page>``: 0 every request answered (or already recorded); 2 a usage
error, or a page with more failed requests than ``--max-failed-share`` of its requests (default 0:
any); 130 interrupted (what was answered is recorded; run the command again to resume).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from evallib.runs.gate import EXIT_PASS, ProgressLine
from evallib.llm.modes import is_recordable
from evallib.llm.recordings import live_provenance

#: The pages recorded, in order (the kappa page asks no model).
PAGES = ("persona", "trigger", "judge", "gnss")
#: Exit code of an interrupted run (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED = 130


@dataclass
class PageTally:
    """What one page's run did with its requests, counted as they finish.

    Attributes:
        page: the page's name.
        already: requests answered from the recordings made before this run (not asked again).
        asked: requests sent to the endpoint (answered, failed, or dropped by an interruption).
        answered, failed: requests sent whose answer arrived usable / that got no usable answer.
        duplicates: requests repeated within this run (the same canonical key as one asked before in
            the run: a judge grading two identical responses): asked once, counted here, never as
            "already recorded".
        recorded: lines this run appended to the recordings (complete answers: `is_recordable`), so
            that the table adds up to what the files hold, even after an interruption.
    """

    page: str
    already: int = 0
    asked: int = 0
    answered: int = 0
    failed: int = 0
    duplicates: int = 0
    recorded: int = 0

    def add(self, other: PageTally) -> PageTally:
        return PageTally("all pages", self.already + other.already, self.asked + other.asked,
                         self.answered + other.answered, self.failed + other.failed,
                         self.duplicates + other.duplicates, self.recorded + other.recorded)

    def describe(self) -> str:
        return (f"already recorded {self.already}, answered {self.answered}, failed {self.failed}, "
                f"duplicates {self.duplicates}, recorded {self.recorded}")

    def columns(self) -> str:
        """The closing table's row in words (`summary_table`): what a page's summary line says under ``record all``."""
        return (f"already recorded {self.already}, asked {self.asked}, answered {self.answered}, failed {self.failed}, "
                f"duplicates {self.duplicates}, recorded {self.recorded}")


@dataclass
class _Asked:
    """A request asked in this run: its answer, once it has come (``done`` is set then)."""

    done: threading.Event = field(default_factory=threading.Event)
    result: object = None


class RecordRun:
    """What the pages of one ``record all`` share: the requests asked so far (by key) and one lock,
    under which each answer is counted and recorded together; `close` stops both at once."""

    def __init__(self) -> None:
        self.asked: dict[str, _Asked] = {}
        self.lock = threading.Lock()
        self.closed = False

    def close(self) -> None:
        """After an interruption: answers still arriving are neither recorded nor counted, so the
        table printed next adds up to what the files hold."""
        with self.lock:
            self.closed = True


class ResumingProvider:
    """Answers from the recordings when the request's key is there, else from ``live``, recording
    each complete new answer in ``set_name`` (what `evallib.llm.modes.RecordingProvider` does).

    ``tally`` counts each request once: already recorded, a duplicate of one asked earlier in the run
    (answered by that one's answer, waited for if still in flight), or asked, then answered or
    failed. Thread-safe (`collect` calls it from its workers).
    """

    def __init__(self, run: RecordRun, live, recordings, tally: PageTally, set_name: str,
                 provider_kind: str) -> None:
        self.run, self.live, self.recordings, self.tally = run, live, recordings, tally
        self.set_name, self.provider_kind = set_name, provider_kind

    def fingerprint(self) -> str:
        return self.live.fingerprint()

    def _answer(self, request, ask: Callable):
        key = request.key()
        with self.run.lock:
            asked = self.run.asked.get(key)
            duplicate = asked is not None
            if duplicate:
                self.tally.duplicates += 1
            else:
                found = self.recordings.get(key)
                if found is not None:
                    self.tally.already += 1
                    return found.result
                asked = self.run.asked[key] = _Asked()
                self.tally.asked += 1
        if duplicate:
            asked.done.wait()
            return asked.result if asked.result is not None else ask(request)  # the first one raised
        try:
            result = asked.result = ask(request)
        finally:
            asked.done.set()  # duplicates waiting are let go whatever happens
        with self.run.lock:
            if not self.run.closed:
                if result.failed:
                    self.tally.failed += 1
                else:
                    self.tally.answered += 1
                if is_recordable(result):
                    self.recordings.add(self.set_name, request, result,
                                        live_provenance(result.model or request.model, self.provider_kind))
                    self.tally.recorded += 1
        return result

    def chat(self, request):
        return self._answer(request, self.live.chat)

    def embed(self, request):
        return self._answer(request, self.live.embed)


class AllProgress(ProgressLine):
    """`ProgressLine` for one page of ``record all``: the page's requests done and queued, its tally
    and the tally of every page so far (``before``: the pages already finished)."""

    def __init__(self, position: int, tally: PageTally, before: PageTally, start: float, stream=None,
                 total: int = len(PAGES)) -> None:
        super().__init__(f"record all, page {position}/{total} {tally.page}", stream)
        self.tally, self.before, self.start = tally, before, start

    def line(self, progress) -> str:
        return (f"{self.name}: {progress.done}/{progress.total} done, {progress.total - progress.done} queued "
                f"({self.tally.describe()}); all pages: {self.before.add(self.tally).describe()}, "
                f"{time.perf_counter() - self.start:.0f} s")


def endpoint_unusable(tally: PageTally) -> bool:
    """True when a page asked the endpoint and got no answer at all: the next pages would fail alike
    (no server, wrong key, unknown model...), so ``record all`` stops there instead of waiting for
    each of their requests to fail."""
    return tally.failed > 0 and tally.answered == 0


def summary_table(tallies: list[PageTally]) -> list[str]:
    """The closing table: one row per page and one for all pages."""
    total = PageTally("all pages")
    for tally in tallies:
        total = total.add(tally)
    header = (f"{'page':10} {'already recorded':>16} {'asked':>7} {'answered':>9} {'failed':>7} "
              f"{'duplicates':>10} {'recorded':>9}")
    return [header] + [f"{t.page:10} {t.already:16d} {t.asked:7d} {t.answered:9d} {t.failed:7d} "
                       f"{t.duplicates:10d} {t.recorded:9d}" for t in tallies + [total]]


def record_all(args: argparse.Namespace, recorders: dict[str, Callable[[argparse.Namespace], int]]) -> int:
    """Run each page's recorder of ``recorders`` (`PAGES` order) with resuming providers; returns the exit code.

    ``args`` are the ``record`` command's parsed options (``--model``, ``--judge-model``, ``--runs``,
    the live options); each recorder prints its own summary and failures, this prints a header per
    page, progress on stderr and the closing table (`summary_table`).
    """
    start = time.perf_counter()
    run = RecordRun()
    tallies: list[PageTally] = []
    codes = []
    pack = getattr(args, "pack_opened", None)
    pages = tuple(p for p in PAGES if pack is None or pack.covers(p))  # record --pack: the pages it covers
    try:
        for position, page in enumerate(pages, start=1):
            tally, before = PageTally(page), PageTally("all pages")
            for done in tallies:
                before = before.add(done)
            tallies.append(tally)
            print(f"== {page} ({position}/{len(pages)})", flush=True)
            page_args = argparse.Namespace(**vars(args) | {
                "page": page,
                "resume": lambda live, recordings, set_name, kind, tally=tally: ResumingProvider(
                    run, live, recordings, tally, set_name, kind),
                "progress_line": lambda name, position=position, tally=tally, before=before: AllProgress(
                    position, tally, before, start, total=len(pages))})
            codes.append(recorders[page](page_args))  # its summary line is the page's tally (`PageTally.columns`)
            if endpoint_unusable(tally) and position < len(pages):
                sys.stdout.flush()
                print(f"no request of {page} was answered: the next pages ({', '.join(pages[position:])}) are not "
                      "asked; fix the cause above and run the same command again (what is recorded is kept)",
                      file=sys.stderr)
                break
    except KeyboardInterrupt:
        run.close()  # answers still in flight are dropped: the table below is what the files hold
        sys.stdout.flush()
        in_flight = sum(t.asked - t.answered - t.failed for t in tallies)
        print(f"\ninterrupted during {tallies[-1].page}: what was answered is recorded ({in_flight} requests in "
              "flight were dropped); run the same command again to ask only the missing requests", file=sys.stderr)
        _print_table(tallies)
        return EXIT_INTERRUPTED
    _print_table(tallies)
    return max(codes, default=EXIT_PASS)


def _print_table(tallies: list[PageTally]) -> None:
    print()
    for line in summary_table(tallies):
        print(line)

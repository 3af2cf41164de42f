"""A wall-clock sampler of every thread of a server, for `bench/room_sessions.py --profile FILE`.

Put this folder on ``PYTHONPATH`` and set ``EVALLIB_SAMPLE_FILE``: Python imports this module at start
(``sitecustomize``); a daemon thread then reads every thread's stack (`sys._current_frames`) every
``EVALLIB_SAMPLE_MS`` milliseconds (default 2), counts the garbage collector's time, and, every 2 s
and at exit, writes to the file the count
of samples per thread kind and frame (wall clock), the CPU time each thread used since its previous
sample (``pthread_getcpuclockid``) charged to the frame it is in (innermost first, ``file:line function``), self and inclusive. A
thread waiting on a lock shows up as its waiting frame: what waits, not only what burns CPU (but the
sampler needs the GIL too: a long stretch of C code holding it, as a collection, is not seen, hence
its own count). ``SIGUSR1`` starts the counts again (the bench sends it when its window opens).
"""

from __future__ import annotations

import atexit
import collections
import gc
import os
import signal
import sys
import threading
import time
import weakref

FILE = os.environ.get("EVALLIB_SAMPLE_FILE")


def _kind(thread_name: str) -> str:
    if thread_name.startswith("ScriptRunner"):
        return "ScriptRunner"
    return thread_name.rstrip("0123456789-_ ") or "thread"


def _start(path: str) -> None:
    interval = float(os.environ.get("EVALLIB_SAMPLE_MS", "2")) / 1000
    own: collections.Counter = collections.Counter()
    inclusive: collections.Counter = collections.Counter()
    samples: collections.Counter = collections.Counter()
    cpu_own: collections.Counter = collections.Counter()  # CPU seconds since the previous sample, by frame
    cpu_inclusive: collections.Counter = collections.Counter()
    cpu_kind: collections.Counter = collections.Counter()
    clocks = weakref.WeakKeyDictionary()  # thread -> its CPU clock at the previous sample (idents are reused)
    lock = threading.Lock()
    collections_s = collections.Counter()  # generation -> seconds spent in the collector
    collections_n = collections.Counter()
    started = [time.monotonic(), 0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            started[1] = time.perf_counter()
        else:
            collections_s[info["generation"]] += time.perf_counter() - started[1]
            collections_n[info["generation"]] += 1

    def reset(*_) -> None:
        with lock:
            for counter in (own, inclusive, samples, collections_s, collections_n, cpu_own, cpu_inclusive, cpu_kind):
                counter.clear()
            started[0] = time.monotonic()

    def where(frame) -> str:
        code = frame.f_code
        return f"{code.co_filename.rsplit('site-packages/', 1)[-1]}:{frame.f_lineno} {code.co_name}"

    def dump() -> None:
        with lock:
            lines = [f"samples every {interval * 1000:g} ms per thread kind over {time.monotonic() - started[0]:.1f} s:"
                     f" {dict(samples)}", "garbage collections (generation: count, seconds): "
                     + ", ".join(f"{g}: {collections_n[g]}, {collections_s[g]:.3f}" for g in sorted(collections_n))]
            lines.append("CPU seconds per thread kind: " + ", ".join(f"{k}: {v:.2f}" for k, v in cpu_kind.items()))
            for title, counts, totals in (("CPU self", cpu_own, cpu_kind), ("CPU inclusive", cpu_inclusive, cpu_kind),
                                          ("wall self", own, samples), ("wall inclusive", inclusive, samples)):
                for kind in sorted(totals):
                    lines.append(f"\n== {kind}: {title} (share of that kind's total)")
                    top = sorted(((n, f) for (k, f), n in counts.items() if k == kind), reverse=True)[:45]
                    lines += [f"{n / (totals[kind] or 1):7.1%} {f}" for n, f in top]
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")

    def sample() -> None:
        me = threading.get_ident()
        last = time.monotonic()
        while True:
            time.sleep(interval)
            threads = {t.ident: t for t in threading.enumerate()}
            with lock:
                for ident, frame in sys._current_frames().items():
                    if ident == me:
                        continue
                    thread = threads.get(ident)
                    if thread is None:  # started or ended between the two reads
                        continue
                    kind = _kind(thread.name)
                    try:
                        clock = time.clock_gettime(time.pthread_getcpuclockid(ident))
                    except OSError:  # the thread ended
                        continue
                    used, clocks[thread] = clock - clocks.get(thread, 0.0), clock
                    samples[kind] += 1
                    own[kind, where(frame)] += 1
                    cpu_own[kind, where(frame)] += used
                    cpu_kind[kind] += used
                    seen = set()
                    while frame is not None:
                        key = (kind, where(frame).split(":", 1)[0] + " " + frame.f_code.co_name)
                        if key not in seen:
                            inclusive[key] += 1
                            cpu_inclusive[key] += used
                            seen.add(key)
                        frame = frame.f_back
            if time.monotonic() - last > 2:
                dump()
                last = time.monotonic()

    gc.callbacks.append(timed)
    signal.signal(signal.SIGUSR1, reset)  # the bench's window opens: count from now
    threading.Thread(target=sample, name="sampler", daemon=True).start()
    atexit.register(dump)


if FILE:
    _start(FILE)


def _profile_script_runs(path: str) -> None:
    """cProfile every script run (each in its own thread), timed by that thread's CPU clock, summed into
    ``path`` (pstats) every 5 s and at exit (``EVALLIB_CPROFILE_FILE``; it slows the runs several times:
    read it for shares, not for times); ``SIGUSR1`` starts the sum again."""
    import cProfile
    import pstats

    from streamlit.runtime.scriptrunner import script_runner

    lock, kept, total = threading.Lock(), [], []
    original = script_runner.ScriptRunner._run_script

    def profiled(self, *args, **kwargs):
        profile = cProfile.Profile(time.thread_time)
        try:
            return profile.runcall(original, self, *args, **kwargs)
        finally:
            with lock:
                kept.append(profile)

    def dump() -> None:
        with lock:
            if not kept:
                return
            if total:
                total[0].add(*kept)
            else:
                total.append(pstats.Stats(*kept))
            kept.clear()
            total[0].dump_stats(path)

    def reset(*_) -> None:
        with lock:
            kept.clear()
            total.clear()

    def every() -> None:
        while True:
            time.sleep(5)
            dump()

    script_runner.ScriptRunner._run_script = profiled
    previous = signal.getsignal(signal.SIGUSR1)
    signal.signal(signal.SIGUSR1, lambda *a: (reset(), callable(previous) and previous(*a)))
    threading.Thread(target=every, name="profile-dump", daemon=True).start()
    atexit.register(dump)


if os.environ.get("EVALLIB_CPROFILE_FILE"):
    _profile_script_runs(os.environ["EVALLIB_CPROFILE_FILE"])

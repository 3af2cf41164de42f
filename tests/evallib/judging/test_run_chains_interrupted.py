"""A run stopped from its progress callback (a click on the page) ends at once: no chain starts after it."""

import threading
import time

import pytest

from evallib.judging.pipeline import run_chains


class Stopped(Exception):
    pass


def test_an_exception_from_on_progress_cancels_the_chains_not_started():
    started = []
    lock = threading.Lock()

    def chain(item):
        with lock:
            started.append(item)
        time.sleep(0.2)
        return item

    def stop(progress):
        raise Stopped

    with pytest.raises(Stopped):
        run_chains(list(range(10)), chain, max_concurrency=2, on_progress=stop)
    time.sleep(0.5)  # chains still queued would have started by now
    assert len(started) <= 4  # the first two, and at most the two that replaced them

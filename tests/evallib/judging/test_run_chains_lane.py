"""The judge's chains go through their lane of the shared endpoint, as `collect` does: the progress says
how many calls wait behind other sessions', and a run stopped from its progress drops them from the queue."""

import threading
import time

import pytest

from evallib.judging.pipeline import run_chains
from evallib.llm.scheduler import EndpointScheduler

pytestmark = pytest.mark.timeout(30)


class Stopped(Exception):
    """The participant clicked elsewhere: Streamlit stops the page's script from the progress callback."""


def _held_scheduler():
    """A scheduler of one slot that another session holds until the returned event is set."""
    scheduler = EndpointScheduler(1)
    release = threading.Event()
    holder = threading.Thread(target=scheduler.lane("other").run, args=(lambda: release.wait(5),), daemon=True)
    holder.start()
    deadline = time.monotonic() + 5
    while scheduler.in_flight != 1:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    return scheduler, release


def test_the_progress_counts_calls_queued_behind_other_sessions_and_a_stop_drops_them():
    scheduler, release = _held_scheduler()
    lane = scheduler.lane("participant")
    sent, reports = [], []

    def chain(item):
        return lane.run(lambda: sent.append(item) or item)

    def stop_when_queued(progress):
        reports.append(progress)
        if progress.queued_behind_others:
            raise Stopped

    with pytest.raises(Stopped):
        run_chains(list(range(4)), chain, max_concurrency=4, on_progress=stop_when_queued, lane=lane)
    assert reports[-1].queued_behind_others == 4 and reports[-1].done == 0 and reports[-1].last is None
    assert lane.closed and scheduler.waiting == 0  # the four queued calls left the endpoint's queue
    release.set()
    time.sleep(0.3)  # had they stayed queued, the freed slot would have sent them by now
    assert sent == []


def test_without_other_sessions_nothing_is_said_to_wait_and_every_outcome_arrives():
    scheduler = EndpointScheduler(2)
    lane = scheduler.lane("participant")
    reports = []
    outcomes = run_chains(list(range(5)), lambda item: lane.run(lambda: item * 10), max_concurrency=3,
                          on_progress=reports.append, lane=lane)
    assert outcomes == [0, 10, 20, 30, 40]
    assert [r.done for r in reports if r.last is not None] == [1, 2, 3, 4, 5]
    assert all(r.queued_behind_others == 0 for r in reports) and not lane.closed

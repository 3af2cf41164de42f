"""The per-endpoint limit holds across app processes on one PostgreSQL (evallib.llm.shared_slots).

Two real processes, each sending 20 requests to the fake server through the scheduler the app
builds, with a limit of 8: never more than 8 in flight at once (16 with one limit per process), both
finish, and the freed slots go to both processes in turn. A process killed while holding every slot
frees them.
"""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from evallib.llm.scheduler import LIMIT_VARIABLE, Cancelled, EndpointScheduler
from evallib.llm.shared_slots import PostgresSlots, endpoint_scheduler, is_postgres
from tests.fake_llm_server import FakeLLMServer
from tests.postgres_cluster import new_postgres_database

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def database(postgres_server):
    return new_postgres_database(postgres_server, prefix="slots_test")


def _process(*args: str) -> subprocess.Popen:
    environ = {**os.environ, LIMIT_VARIABLE: "8"}
    return subprocess.Popen([sys.executable, "-m", "tests.scheduler_process", *args], cwd=ROOT, env=environ,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_two_processes_keep_eight_in_flight_together_and_take_turns(database):
    with FakeLLMServer(api_key="sk-fake-endpoint-tests", latency=0.3) as server:
        processes = [_process("send", server.url, database, name, "20", "4") for name in ("one", "two")]
        try:
            for process in processes:
                assert process.stdout.readline().strip() == "ready"
            for process in processes:
                process.stdin.write("go\n")
                process.stdin.flush()
            finished = [process.stdout.readline().strip() for process in processes]
        finally:
            for process in processes:
                process.kill()  # already gone once it has said "done"
                process.wait(timeout=10)
        assert finished == ["done 20", "done 20"]
        assert server.in_flight_max == 8  # one limit per process would give 16
        arrivals = sorted(server.requests, key=lambda r: r["time"])
        senders = [r["body"]["messages"][0]["content"].split()[0] for r in arrivals]
        # Once both send, freed slots alternate between them (without turns, the process that freed a
        # slot would hand it to its own next request: the later process would wait for all of the first's).
        both = max(senders.index("one"), senders.index("two"))
        window = senders[both:both + 16]
        assert min(window.count("one"), window.count("two")) >= 5, senders


def test_the_slots_of_a_killed_process_are_freed(database):
    holder = _process("hold", database, "openai|http://dead.example", "8")
    slots = PostgresSlots(database, "openai|http://dead.example", 8, poll_s=0.05)
    try:
        assert holder.stdout.readline().strip() == "held"
        deadline = time.monotonic() + 0.5
        assert slots.acquire(lambda: time.monotonic() > deadline) is None  # all eight are held
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
        deadline = time.monotonic() + 10
        assert slots.acquire(lambda: time.monotonic() > deadline) is not None
    finally:
        holder.kill()
        slots.close()


def test_without_postgresql_the_scheduler_keeps_its_own_limit(tmp_path):
    scheduler = endpoint_scheduler("openai|http://x", f"sqlite:///{tmp_path}/rooms.sqlite3", limit=3)
    assert isinstance(scheduler, EndpointScheduler) and scheduler.slots is None and scheduler.limit == 3
    assert endpoint_scheduler("openai|http://x", None, limit=3).slots is None
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgresql+psycopg://u@h/db")


def test_an_unreachable_database_leaves_the_process_limit(tmp_path):
    scheduler = endpoint_scheduler("openai|http://x", "postgresql+psycopg://nobody@127.0.0.1:1/none", limit=2)
    assert scheduler.lane("a").run(lambda: "sent") == "sent"


class _BusySlots:
    """Shared slots that are all taken until ``free`` is set; counts what is given back."""

    def __init__(self):
        self.free = threading.Event()
        self.released = []

    def acquire(self, stop):
        while not self.free.wait(0.01):
            if stop():
                return None
        return 0

    def release(self, slot):
        self.released.append(slot)


def test_a_lane_cancelled_while_waiting_for_a_shared_slot_sends_nothing_and_frees_its_turn():
    slots = _BusySlots()
    scheduler = EndpointScheduler(1, slots=slots)
    lane, sent, outcome = scheduler.lane("a"), [], []

    def ask():
        try:
            lane.run(lambda: sent.append(1))
        except Cancelled:
            outcome.append("cancelled")

    waiting = threading.Thread(target=ask)
    waiting.start()
    while scheduler.in_flight != 1:  # granted in the process, waiting for a slot of all the processes
        time.sleep(0.01)
    lane.cancel()
    waiting.join(timeout=5)
    assert outcome == ["cancelled"] and not sent and scheduler.in_flight == 0 and slots.released == []
    slots.free.set()
    assert scheduler.lane("b").run(lambda: "sent") == "sent" and slots.released == [0]

"""The endpoint scheduler: a limit on requests in flight across sessions, round-robin between them,
identical requests sent once, cancelled requests dropped; the real openai SDK against the fake server."""

import random
import threading
import time

import pytest

from evallib.llm import ChatRequest, ProviderConfig, collect, make_provider
from evallib.llm.scheduler import (LIMIT_VARIABLE, Cancelled, EndpointScheduler, ScheduledProvider, endpoint_limit,
                                   key_scope)
from tests.evallib.llm.conftest import SECRET_KEY

pytestmark = pytest.mark.timeout(60)


def live(server, key=SECRET_KEY):
    """One browser session's own live provider (each session builds its own SDK client)."""
    return make_provider(ProviderConfig(base_url=server.openai_base_url, api_key=key, max_retries=0, timeout_s=20))


def questions(tag, n):
    return [ChatRequest.single("fake-ok", "Sois bref.", f"{tag} question {i}") for i in range(n)]


def in_thread(target, *args, **kwargs):
    thread = threading.Thread(target=target, args=args, kwargs=kwargs, daemon=True)
    thread.start()
    return thread


def until(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.005)


def arrival_order(server):
    """The tag ("A", "B"...) of each request as the server received them, in arrival order."""
    ordered = sorted(server.requests, key=lambda r: r["time"])
    return [r["body"]["messages"][-1]["content"].split()[0] for r in ordered]


def test_the_limit_holds_across_sessions_each_collecting_with_its_own_concurrency(server):
    server.latency = 0.1
    scheduler = EndpointScheduler(3)
    results = {}

    def participant(tag):
        lane = scheduler.lane(tag)
        provider = ScheduledProvider(live(server), lane)
        results[tag] = collect(questions(tag, 6), provider, max_concurrency=6, lane=lane)

    threads = [in_thread(participant, tag) for tag in "ABCD"]
    for thread in threads:
        thread.join(30)
    assert all(r.ok for tag in "ABCD" for r in results[tag])
    assert len(server.requests) == 24
    assert server.in_flight_max == 3  # four sessions asking 6 at once each would put 24 in flight
    assert scheduler.in_flight == scheduler.waiting == 0


@pytest.mark.parametrize("fair, b_first_sent", [(True, 2), (False, 13)])
def test_a_later_session_is_served_in_the_next_round_not_after_the_first_sessions_queue(server, fair,
                                                                                       b_first_sent):
    server.latency = 0.05
    scheduler = EndpointScheduler(1, fair=fair)  # one at a time: the order of service is the order sent
    release = threading.Event()
    holder = in_thread(scheduler.lane("instructor").run, release.wait)  # holds the endpoint meanwhile
    until(lambda: scheduler.in_flight == 1)
    lane_a, lane_b = scheduler.lane("A"), scheduler.lane("B")
    a = in_thread(collect, questions("A", 12), ScheduledProvider(live(server), lane_a), 12, lane=lane_a)
    until(lambda: scheduler.waiting == 12)  # A clicked first: its 12 requests are queued
    b_answered_after = []
    b = in_thread(collect, questions("B", 2), ScheduledProvider(live(server), lane_b), 2, lane=lane_b,
                  on_progress=lambda p: b_answered_after.append(len(server.requests)) if p.last else None)
    until(lambda: scheduler.waiting == 14)  # then B's 2
    release.set()
    for thread in (holder, a, b):
        thread.join(30)
    order = arrival_order(server)
    assert order.index("B") + 1 == b_first_sent
    if fair:  # A and B take turns while both wait
        assert order[:5] == ["A", "B", "A", "B", "A"]
        assert b_answered_after[0] <= 3  # B's first answer came while A had 9 or more requests to send
    else:  # first come, first served: B waits for all of A's queue
        assert order == ["A"] * 12 + ["B"] * 2


def test_identical_requests_from_two_sessions_with_the_same_key_are_sent_once(server):
    server.latency = 1.0
    scheduler = EndpointScheduler(4)
    request = questions("shared", 1)[0]
    providers = {name: ScheduledProvider(live(server, key), scheduler.lane(name))
                 for name, key in (("A", SECRET_KEY), ("B", SECRET_KEY), ("C", "sk-another-key"))}
    answers = {}

    def session(name):
        answers[name] = providers[name].chat(request)

    threads = [in_thread(session, "A")]
    until(lambda: server.in_flight == 1)
    threads += [in_thread(session, "B"), in_thread(session, "C")]
    for thread in threads:
        thread.join(10)
    assert answers["A"].ok and answers["B"] == answers["A"]
    assert answers["C"].failed and answers["C"].error_kind == "auth"  # another key is never given A's answer
    assert len(server.requests) == 2  # A's (shared with B) and C's


class Away(Exception):
    """The participant clicked elsewhere: Streamlit stops the page's script from the progress callback."""


def test_a_session_that_goes_away_drops_its_queued_requests_and_the_next_session_is_served(server):
    scheduler = EndpointScheduler(1)
    release = threading.Event()
    holder = in_thread(scheduler.lane("other").run, release.wait)  # another session's request in flight
    until(lambda: scheduler.in_flight == 1)
    lane = scheduler.lane("A")

    def leave(progress):
        raise Away  # at the first report (A's six requests queued): the participant clicks elsewhere

    with pytest.raises(Away):
        collect(questions("A", 6), ScheduledProvider(live(server), lane), 6, on_progress=leave, lane=lane)
    assert scheduler.waiting == 0 and lane.closed
    release.set()
    holder.join(5)
    answer = ScheduledProvider(live(server), scheduler.lane("B")).chat(questions("B", 1)[0])
    time.sleep(0.2)  # had A's requests only been left to run, they would have been sent by now
    assert answer.ok and scheduler.in_flight == 0
    assert arrival_order(server) == ["B"]  # none of A's six queued requests was sent


def test_a_cancelled_lane_tells_its_waiting_callers_and_refuses_new_requests():
    scheduler = EndpointScheduler(1)
    release = threading.Event()
    holder = in_thread(scheduler.lane("other").run, release.wait)
    until(lambda: scheduler.in_flight == 1)
    lane = scheduler.lane("A")
    outcomes = []

    def ask():
        try:
            outcomes.append(lane.run(lambda: "sent"))
        except Cancelled:
            outcomes.append("cancelled")

    waiting = [in_thread(ask) for _ in range(3)]
    until(lambda: scheduler.waiting == 3)
    assert lane.queued_behind_others() == 3
    assert lane.cancel() == 3
    for thread in waiting:
        thread.join(5)
    assert outcomes == ["cancelled"] * 3
    with pytest.raises(Cancelled):
        lane.run(lambda: "sent")
    release.set()
    holder.join(5)
    assert scheduler.in_flight == 0


def test_a_follower_of_a_dropped_identical_request_sends_it_itself():
    scheduler = EndpointScheduler(1)
    release = threading.Event()
    holder = in_thread(scheduler.lane("other").run, release.wait)
    until(lambda: scheduler.in_flight == 1)
    leaving, staying = scheduler.lane("A"), scheduler.lane("B")
    calls, outcomes = [], {}

    def ask(name, lane):
        try:
            outcomes[name] = lane.run(lambda: calls.append(name) or name, key="same request")
        except Cancelled:
            outcomes[name] = "cancelled"

    first = in_thread(ask, "A", leaving)
    until(lambda: scheduler.waiting == 1)
    second = in_thread(ask, "B", staying)
    time.sleep(0.05)  # B follows A's identical request instead of queueing its own
    assert scheduler.waiting == 1
    leaving.cancel()
    release.set()
    for thread in (first, second, holder):
        thread.join(5)
    assert outcomes == {"A": "cancelled", "B": "B"} and calls == ["B"]


def test_progress_says_how_many_requests_wait_behind_other_sessions(server):
    server.latency = 0.1
    scheduler = EndpointScheduler(1)
    release = threading.Event()
    holder = in_thread(scheduler.lane("other").run, release.wait)
    until(lambda: scheduler.in_flight == 1)
    lane = scheduler.lane("me")
    reports = []

    def seen(progress):
        reports.append(progress)
        release.set()  # the other session's request ends after this session's first report

    collect(questions("me", 3), ScheduledProvider(live(server), lane), 3, on_progress=seen, lane=lane)
    holder.join(5)
    assert reports[0].done == 0 and reports[0].queued_behind_others == 3
    # Then the endpoint is this session's alone: its requests wait behind its own, not behind others.
    assert [p.queued_behind_others for p in reports[1:]] == [0] * (len(reports) - 1)
    assert reports[-1].done == 3


def test_many_threads_and_sessions_with_shared_keys_and_cancels_end_without_deadlock():
    scheduler = EndpointScheduler(4)
    lock, now, peak, calls = threading.Lock(), [0], [0], []
    rng = random.Random(7)

    def call(tag):
        with lock:
            now[0] += 1
            peak[0] = max(peak[0], now[0])
            calls.append(tag)
        time.sleep(0.002)
        with lock:
            now[0] -= 1
        return tag

    def session(name):
        lane = scheduler.lane(name)
        for i in range(25):
            if rng.random() < 0.05:
                lane.cancel()
            try:
                assert lane.run(lambda i=i: call(i % 7), key=i % 7) == i % 7
            except Cancelled:
                lane = scheduler.lane(name)

    threads = [in_thread(session, f"s{k % 12}") for k in range(60)]
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads)
    assert peak[0] <= 4 and scheduler.in_flight == 0 and scheduler.waiting == 0


def test_the_limit_comes_from_the_environment_and_a_bad_value_is_named():
    assert endpoint_limit({}) == 8
    assert endpoint_limit({LIMIT_VARIABLE: " 3 "}) == 3
    for bad in ("0", "-2", "eight", "2.5"):
        with pytest.raises(ValueError, match=LIMIT_VARIABLE):
            endpoint_limit({LIMIT_VARIABLE: bad})
    with pytest.raises(ValueError):
        EndpointScheduler(0)


def test_the_scope_of_shared_answers_is_a_keyed_hash_never_the_key():
    scope = key_scope(SECRET_KEY)
    assert scope == key_scope(SECRET_KEY) != key_scope(SECRET_KEY + "x")
    assert SECRET_KEY not in scope and len(scope) == 64

"""One model server shared fairly by every session of a process: a scheduler per endpoint.

In a workshop every participant's requests go to the same server (often one Ollama on the
instructor's laptop). `EndpointScheduler` keeps at most ``limit`` requests in flight to one endpoint
across all the sessions and threads of the process, and hands each freed slot round-robin between
sessions: every session has its own queue, and the dispatcher takes one waiting request from each
non-empty queue in turn, so one participant's 36 requests never make another wait for all of them
(docs/room.md#fair-scheduler). First-come-first-served (``fair=False``) is kept
only to be measured against it (bench/room.py).

Identical requests (the same request key and the same keyed hash of the API key, `key_scope`)
waiting or in flight at the same time are sent once: the later callers wait for the first one's
result, whichever session they come from.

A request is sent by the thread that asked for it, once granted a slot (the scheduler has no threads
of its own): the retries an SDK makes are still reported to that thread's listener
(`evallib.llm.retries.listening`), and nothing outlives the sessions' own threads.

Several app processes on one PostgreSQL database share the endpoint's slots (`slots`, from
`evallib.llm.shared_slots.endpoint_scheduler`): a request granted its turn in the process then takes
one of the ``limit`` slots of all the processes together.

Use: a session's collection takes a `Lane` (``scheduler.lane(session_id)``) and wraps its live
provider in `ScheduledProvider`; `evallib.llm.collect.collect` given the lane reports its requests
queued behind other sessions' and, when interrupted, drops them (`Lane.cancel`).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import os
import secrets
import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TypeVar

#: Environment variable giving the number of requests in flight to one endpoint, all sessions together.
LIMIT_VARIABLE = "EVALLIB_ENDPOINT_CONCURRENCY"
#: Requests in flight to one endpoint when the variable is unset: the page's own default concurrency,
#: so that one participant alone collects as fast as without a scheduler.
DEFAULT_ENDPOINT_CONCURRENCY = 8

T = TypeVar("T")

#: Drawn once per process, held in memory only: scopes are comparable within the process, never outside it.
_SCOPE_SECRET = secrets.token_bytes(32)


def key_scope(api_key: str) -> str:
    """HMAC-SHA256 of ``api_key`` under the process's secret (64 hex characters): equal for equal keys,
    revealing nothing of the key to whoever sees it (no dictionary attack without the secret).
    Answers are shared, in the cache and between identical requests, only within one scope."""
    return hmac.new(_SCOPE_SECRET, api_key.encode("utf-8"), hashlib.sha256).hexdigest()


def endpoint_limit(environ=None) -> int:
    """Requests in flight allowed to one endpoint: `LIMIT_VARIABLE` if set, else 8.

    Raises:
        ValueError: the variable is set to something other than a whole number >= 1 (the message
            names the variable and the value).
    """
    value = (os.environ if environ is None else environ).get(LIMIT_VARIABLE, "").strip()
    if not value:
        return DEFAULT_ENDPOINT_CONCURRENCY
    try:
        limit = int(value)
    except ValueError:
        limit = 0
    if limit < 1:
        raise ValueError(f"{LIMIT_VARIABLE} must be a whole number of requests, at least 1; got {value!r}")
    return limit


class Cancelled(Exception):
    """A request dropped before it was sent, because its lane was cancelled (`Lane.cancel`)."""


class _LeaderDropped(Exception):
    """Told to the callers waiting on an identical request that was dropped before it was sent."""


@dataclass(eq=False)
class _Ticket:
    """A request waiting for a slot; ``granted`` is set when it gets one or is dropped."""

    lane: Lane
    order: int
    granted: threading.Event = field(default_factory=threading.Event)
    dropped: bool = False


class EndpointScheduler:
    """At most ``limit`` requests in flight to one endpoint; free slots handed round-robin between sessions.

    Thread-safe; one instance per endpoint per process (the app keeps one per endpoint fingerprint).

    Args:
        limit: requests in flight at once (>= 1); None reads `endpoint_limit()`.
        fair: True for round-robin between sessions; False for first-come-first-served (one queue
            in arrival order), the baseline bench/room.py measures the fair order against.
        slots: the endpoint's slots shared with other processes (`evallib.llm.shared_slots.PostgresSlots`:
            ``acquire(stop) -> slot | None`` and ``release(slot)``), taken by a request once granted
            its slot in this process; None: this process's limit alone. While the shared slots
            cannot be reached (their ``acquire`` raises), the process's own limit still holds.

    Raises:
        ValueError: ``limit`` < 1.
    """

    def __init__(self, limit: int | None = None, *, fair: bool = True, slots=None) -> None:
        self.limit = endpoint_limit() if limit is None else limit
        if self.limit < 1:
            raise ValueError(f"the endpoint's limit must be at least 1 request in flight, got {self.limit}")
        self.fair = fair
        self.slots = slots
        self._lock = threading.Lock()
        self._in_flight = 0
        self._holding: Counter[str] = Counter()  # slots held, by session
        self._queues: dict[str, deque[_Ticket]] = {}  # waiting tickets of each session, in arrival order
        self._arrivals = itertools.count()
        self._services = itertools.count()
        self._last_served: dict[str, int] = {}  # when each active session last got a slot (a count)
        self._shared: dict[Hashable, Future] = {}  # identical requests waiting or in flight

    def lane(self, session: str) -> Lane:
        """A new lane for one collection of ``session`` (the session's queue is shared by its lanes)."""
        return Lane(self, session)

    @property
    def in_flight(self) -> int:
        """Requests holding a slot now."""
        with self._lock:
            return self._in_flight

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot now, all sessions together."""
        with self._lock:
            return sum(len(queue) for queue in self._queues.values())

    def run(self, lane: Lane, call: Callable[[], T], key: Hashable | None = None) -> T:
        """``call()``'s value, called in this thread once a slot is free for ``lane``'s session.

        With a ``key``, a call whose key is already waiting or in flight is not made: this returns
        that call's value (or raises its exception) when it ends.

        Raises:
            Cancelled: ``lane`` was cancelled before the call was made.
            Whatever ``call`` raises.
        """
        while True:
            with self._lock:
                if lane.closed:
                    raise Cancelled("the collection was stopped before this request was sent")
                leader = self._shared.get(key) if key is not None else None
                if leader is None:
                    mine: Future | None = None
                    if key is not None:
                        mine = self._shared[key] = Future()
                    ticket = self._take_slot(lane)
                    break
            try:
                return leader.result()
            except _LeaderDropped:
                continue  # the identical request was never sent: send it (or follow another one)
        if ticket is not None:
            ticket.granted.wait()
            if ticket.dropped:
                self._settle(key, mine, exception=_LeaderDropped())
                raise Cancelled("the collection was stopped before this request was sent")
        shared = self._shared_slot(lane)
        if lane.closed:
            self._release_shared(shared)
            self._give_back(lane.session)
            self._settle(key, mine, exception=_LeaderDropped())
            raise Cancelled("the collection was stopped before this request was sent")
        try:
            value = call()
        except BaseException as exc:
            self._settle(key, mine, exception=exc)
            raise
        finally:
            self._release_shared(shared)
            self._give_back(lane.session)
        self._settle(key, mine, value=value)
        return value

    def _shared_slot(self, lane: Lane) -> int | None:
        """The slot taken among the processes' (None without shared slots, when the lane was cancelled
        while waiting, or when the shared slots cannot be reached: the process's limit alone then)."""
        if self.slots is None:
            return None
        try:
            return self.slots.acquire(lambda: lane.closed)
        except Exception:  # noqa: BLE001 - the database is down: keep serving within this process's limit
            return None

    def _release_shared(self, slot: int | None) -> None:
        if slot is None:
            return
        try:
            self.slots.release(slot)
        except Exception:  # noqa: BLE001 - a broken connection has freed the slot already
            pass

    def _settle(self, key, mine: Future | None, value=None, exception: BaseException | None = None) -> None:
        if mine is None:
            return
        with self._lock:
            self._shared.pop(key, None)
        if exception is not None:
            mine.set_exception(exception)
        else:
            mine.set_result(value)

    def _take_slot(self, lane: Lane) -> _Ticket | None:
        """A slot now (None), or a ticket queued for one. Called with the lock held."""
        if self._in_flight < self.limit:
            self._in_flight += 1
            self._serve(lane.session)
            return None
        ticket = _Ticket(lane, next(self._arrivals))
        self._queues.setdefault(lane.session, deque()).append(ticket)
        return ticket

    def _serve(self, session: str) -> None:
        self._holding[session] += 1
        self._last_served[session] = next(self._services)

    def _give_back(self, session: str) -> None:
        """Hand the slot ``session`` held to the next waiting ticket, or free it."""
        with self._lock:
            self._holding[session] -= 1
            if not self._holding[session]:
                del self._holding[session]
                if session not in self._queues:
                    self._last_served.pop(session, None)  # idle: it comes back as a newcomer
            ticket = self._next_ticket()
            if ticket is None:
                self._in_flight -= 1
                return
            self._serve(ticket.lane.session)
            ticket.granted.set()

    def _next_ticket(self) -> _Ticket | None:
        """The ticket served next, removed from its queue. Called with the lock held.

        Fair: the first waiting request of the session served least recently (a session not served
        yet comes first; sessions that keep waiting thus take turns, one request each per round).
        First-come-first-served: the waiting request that arrived first.
        """
        if not self._queues:
            return None
        if self.fair:
            session = min(self._queues, key=lambda s: (self._last_served.get(s, -1), self._queues[s][0].order))
        else:
            session = min(self._queues, key=lambda s: self._queues[s][0].order)
        queue = self._queues[session]
        ticket = queue.popleft()
        if not queue:
            del self._queues[session]
        return ticket

    def _cancel(self, lane: Lane) -> int:
        with self._lock:
            lane.closed = True
            queue = self._queues.get(lane.session)
            if not queue:
                return 0
            dropped = [ticket for ticket in queue if ticket.lane is lane]
            kept = deque(ticket for ticket in queue if ticket.lane is not lane)
            if kept:
                self._queues[lane.session] = kept
            else:
                del self._queues[lane.session]
                if lane.session not in self._holding:
                    self._last_served.pop(lane.session, None)
        for ticket in dropped:
            ticket.dropped = True
            ticket.granted.set()
        return len(dropped)

    def _queued_behind_others(self, lane: Lane) -> int:
        with self._lock:
            others = self._in_flight - self._holding.get(lane.session, 0)
            if others <= 0:
                return 0
            return sum(ticket.lane is lane for ticket in self._queues.get(lane.session, ()))


class Lane:
    """One collection of one session, as the scheduler sees it (a session may have several lanes,
    e.g. an interrupted collection still finishing while the next one starts: they share a queue).

    Attributes:
        session: the session's id (its queue's name; e.g. a browser session's id).
        closed: True once cancelled: its requests not yet sent are dropped, new ones refused.
    """

    def __init__(self, scheduler: EndpointScheduler, session: str) -> None:
        self.scheduler = scheduler
        self.session = session
        self.closed = False

    def run(self, call: Callable[[], T], key: Hashable | None = None) -> T:
        """`EndpointScheduler.run` for this lane."""
        return self.scheduler.run(self, call, key)

    def cancel(self) -> int:
        """Drop this lane's requests still waiting for a slot (their callers get `Cancelled`), refuse
        new ones; requests in flight finish. Returns the number dropped."""
        return self.scheduler._cancel(self)

    def queued_behind_others(self) -> int:
        """This lane's requests waiting for a slot while other sessions' requests hold some (0 when
        the endpoint is free or held by this session alone)."""
        return self.scheduler._queued_behind_others(self)


class ScheduledProvider:
    """A live provider whose calls go through a `Lane`: limited per endpoint, fair between sessions,
    and shared between identical requests of the same key scope.

    Args:
        live: a live provider (``chat``, ``embed``, ``fingerprint``, ``config``).
        lane: the lane of this session's collection, from the endpoint's scheduler.

    A call dropped because the lane was cancelled raises `Cancelled` (`collect` turns it into a
    failed result, which an interrupted collection does not keep).
    """

    def __init__(self, live, lane: Lane) -> None:
        self.live = live
        self.lane = lane
        self.config = live.config
        self.scope = key_scope(live.config.api_key)

    def fingerprint(self) -> str:
        return self.live.fingerprint()

    def _key(self, request) -> tuple[str, str, str]:
        return self.live.fingerprint(), request.key(), self.scope

    def chat(self, request):
        return self.lane.run(lambda: self.live.chat(request), key=self._key(request))

    def embed(self, request):
        return self.lane.run(lambda: self.live.embed(request), key=self._key(request))

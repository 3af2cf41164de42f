"""The slots of one endpoint shared by several app processes through PostgreSQL advisory locks.

`evallib.llm.scheduler.EndpointScheduler` keeps ``limit`` requests in flight per process. When two
or more app processes serve one room (behind a load balancer, on one PostgreSQL database), each
would send its own ``limit``: 2 processes, 16 in flight with a limit of 8. `PostgresSlots` gives the
scheduler ``limit`` slots per endpoint for all the processes together:

- slot ``i`` of an endpoint is the session-level advisory lock ``(endpoint key, i)``
  (``pg_try_advisory_lock(int, int)``), taken on a connection of its own that the process keeps
  open: a process that dies closes it, and PostgreSQL frees its slots at once;
- the processes take turns: a process's next waiting request first queues on the endpoint's gate
  (the blocking ``pg_advisory_lock(endpoint key, -1)``, granted in arrival order by PostgreSQL), then,
  holding the gate, takes the first free slot. So when every slot is busy, freed slots go to the
  processes in turn, and inside each process the scheduler's round-robin between sessions decides
  which session's request is sent;
- a slot given back is announced (``NOTIFY evallib_endpoint_slots``) to the gate holder, which also
  looks again every ``poll_s`` seconds (a slot freed by a dead process sends no notice).

Sources: PostgreSQL 15 manual, "Advisory Locks" (13.3.5) and "Advisory Lock Functions" (9.27.10);
``LISTEN``/``NOTIFY``; psycopg 3 ``Connection.notifies``.

All processes must use the same limit (``EVALLIB_ENDPOINT_CONCURRENCY``): a process with a higher one
may use the slots above the others'. Locks taken with the two-integer form never collide with the
one-bigint advisory locks that other modules may take.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable

from sqlalchemy.engine import make_url

#: The channel a process notifies when it gives a slot back.
CHANNEL = "evallib_endpoint_slots"
#: Second key of the gate lock (the slots are 0 .. limit - 1).
GATE = -1


def endpoint_lock_key(endpoint: str) -> int:
    """A signed 32-bit integer naming ``endpoint`` (e.g. a provider fingerprint) for advisory locks:
    the first four bytes of its SHA-256, equal in every process."""
    return int.from_bytes(hashlib.sha256(endpoint.encode("utf-8")).digest()[:4], "big", signed=True)


def is_postgres(url: str | None) -> bool:
    """True when the SQLAlchemy URL ``url`` names a PostgreSQL database."""
    return bool(url) and make_url(url).get_backend_name() == "postgresql"


def _usable(conn) -> bool:
    return conn is not None and not conn.closed and not conn.broken


def _libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresSlots:
    """``limit`` slots of one endpoint for every process that uses the same database.

    Thread-safe; one instance per endpoint per process. Opens two connections at the first `acquire`
    (the holder of the slots, and the gate that also listens for freed slots).

    Args:
        url: SQLAlchemy URL of a PostgreSQL database (``postgresql+psycopg://...``).
        endpoint: what names the endpoint in every process (the provider's fingerprint).
        limit: slots (requests in flight) for all the processes together, >= 1.
        poll_s: seconds between two looks at the slots while waiting without notice.

    Raises:
        ValueError: ``url`` is not a PostgreSQL URL, or ``limit`` < 1.
        psycopg.OperationalError: from `acquire` or `release`, when the database cannot be reached.
    """

    def __init__(self, url: str, endpoint: str, limit: int, *, poll_s: float = 0.25) -> None:
        if not is_postgres(url):
            raise ValueError("shared endpoint slots need a PostgreSQL database URL")
        if limit < 1:
            raise ValueError(f"the endpoint's limit must be at least 1 request in flight, got {limit}")
        self.limit = limit
        self.key = endpoint_lock_key(endpoint)
        self.poll_s = poll_s
        self._url = _libpq_url(url)
        self._lock = threading.Lock()  # guards the holder connection and `_held`
        self._holder = None
        self._gate = None
        self._held: set[int] = set()
        self._turns = threading.Condition()  # this process's waiters queue for the gate in order
        self._next_number = 0
        self._serving = 0

    @property
    def held(self) -> int:
        """Slots this process holds now."""
        with self._lock:
            return len(self._held)

    def _connect(self):
        import psycopg
        return psycopg.connect(self._url, autocommit=True)

    def _try_take(self) -> int | None:
        """A free slot taken now, or None. The holder connection is reentrant: skip our own slots."""
        with self._lock:
            if not _usable(self._holder):
                self._holder = self._connect()
                self._held.clear()  # a new connection holds nothing: the old one's locks are gone
            for slot in range(self.limit):
                if slot in self._held:
                    continue
                if self._holder.execute("SELECT pg_try_advisory_lock(%s, %s)", (self.key, slot)).fetchone()[0]:
                    self._held.add(slot)
                    return slot
        return None

    def acquire(self, stop: Callable[[], bool] = lambda: False) -> int | None:
        """A slot of the endpoint (0 .. limit - 1), once one is free and this process's turn has come;
        None when ``stop()`` became true while waiting (checked at least every ``poll_s`` seconds)."""
        with self._turns:
            number = self._next_number
            self._next_number += 1
            while self._serving != number:
                self._turns.wait()
        try:
            return self._wait_at_gate(stop)  # through the gate even when a slot is free: others may wait
        finally:
            with self._turns:
                self._serving += 1
                self._turns.notify_all()

    def _wait_at_gate(self, stop: Callable[[], bool]) -> int | None:
        if not _usable(self._gate):
            self._gate = self._connect()
            self._gate.execute(f"LISTEN {CHANNEL}")
        gate = self._gate
        gate.execute("SELECT pg_advisory_lock(%s, %s)", (self.key, GATE))
        try:
            while True:
                slot = self._try_take()
                if slot is not None or stop():
                    return slot
                for _ in gate.notifies(timeout=self.poll_s, stop_after=1):
                    pass
        finally:
            gate.execute("SELECT pg_advisory_unlock(%s, %s)", (self.key, GATE))

    def release(self, slot: int) -> None:
        """Give ``slot`` back (taken by `acquire`) and tell the waiting processes. A slot lost with a
        broken connection is already free: nothing to do."""
        with self._lock:
            if slot not in self._held:
                return
            self._held.discard(slot)
            if not _usable(self._holder):
                return
            self._holder.execute("SELECT pg_advisory_unlock(%s, %s), pg_notify(%s, '')", (self.key, slot, CHANNEL))

    def close(self) -> None:
        """Close both connections (every slot this process held is freed)."""
        with self._lock:
            for conn in (self._holder, self._gate):
                if conn is not None:
                    conn.close()
            self._holder = self._gate = None
            self._held.clear()


def endpoint_scheduler(endpoint: str, database_url: str | None = None, limit: int | None = None):
    """The scheduler of ``endpoint`` for this process: its slots shared through PostgreSQL when
    ``database_url`` names a PostgreSQL database (the room's, `evallib.room.storage.database_url`),
    else this process's limit alone (SQLite, no database).

    Args:
        endpoint: the provider's fingerprint (kind + base URL), the same in every process.
        database_url: SQLAlchemy URL of the room's database, or None.
        limit: requests in flight to the endpoint; None reads `evallib.llm.scheduler.endpoint_limit()`.

    Returns: an `evallib.llm.scheduler.EndpointScheduler`.

    Raises:
        ValueError: the limit is below 1 (or the variable is not a whole number).
    """
    from evallib.llm.scheduler import EndpointScheduler, endpoint_limit

    limit = endpoint_limit() if limit is None else limit
    slots = PostgresSlots(database_url, endpoint, limit) if is_postgres(database_url) else None
    return EndpointScheduler(limit, slots=slots)

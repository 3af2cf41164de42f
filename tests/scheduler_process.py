"""One app process's endpoint scheduler, driven from a test: `python -m tests.scheduler_process MODE ...`.

- ``send ENDPOINT DATABASE_URL NAME REQUESTS SESSIONS``: builds the endpoint's scheduler as the app
  does (`evallib.llm.shared_slots.endpoint_scheduler`), prints ``ready``, waits for a line on stdin,
  then sends REQUESTS chat requests to the fake server at ENDPOINT (OpenAI-compatible, key
  `tests.conftest.FAKE_KEY`) from one thread each, spread over SESSIONS sessions, each through the
  scheduler; prints ``done <answered>`` and exits.
- ``hold DATABASE_URL ENDPOINT LIMIT``: takes every shared slot of ENDPOINT, prints ``held`` and
  sleeps (a process that dies holding slots).
"""

import json
import sys
import threading
import time
import urllib.request

from tests.conftest import FAKE_KEY


def _scheduler(endpoint: str, database_url: str):
    try:
        from evallib.llm.shared_slots import endpoint_scheduler
    except ImportError:  # main before the shared slots: the process's own limit
        from evallib.llm.scheduler import EndpointScheduler
        return EndpointScheduler()
    return endpoint_scheduler(endpoint, database_url)


def _ask(endpoint: str, text: str) -> bool:
    body = json.dumps({"model": "fake-ok", "messages": [{"role": "user", "content": text}]}).encode()
    request = urllib.request.Request(f"{endpoint}/v1/chat/completions", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {FAKE_KEY}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return answer.status == 200


def send(endpoint: str, database_url: str, name: str, requests: int, sessions: int) -> None:
    scheduler = _scheduler(f"openai|{endpoint}", database_url)
    print("ready", flush=True)
    sys.stdin.readline()
    answered = []

    def one(i: int) -> None:
        lane = scheduler.lane(f"{name}-s{i % sessions}")
        answered.append(lane.run(lambda: _ask(endpoint, f"{name} request {i}")))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"done {sum(answered)}", flush=True)


def hold(database_url: str, endpoint: str, limit: int) -> None:
    from evallib.llm.shared_slots import PostgresSlots
    slots = PostgresSlots(database_url, endpoint, limit)
    for _ in range(limit):
        slots.acquire()
    print("held", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    if mode == "send":
        send(args[0], args[1], args[2], int(args[3]), int(args[4]))
    else:
        hold(args[0], args[1], int(args[2]))

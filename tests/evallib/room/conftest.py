"""Room tests run on SQLite always and on PostgreSQL when Debian's binaries are installed.

`postgres_server` (tests/conftest.py) starts a throwaway cluster for the test session; each test
then gets a fresh database on it.
"""


import pytest

from evallib.room.attempts import build_trigger_attempt
from evallib.room.storage import RoomStore
from evallib.triggering.data import LabelledQuery
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision
from tests.postgres_cluster import new_postgres_database

TOKEN = "instructor-token-for-tests"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database: a SQLite file, or a new database on the session's PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/rooms.sqlite3"
    return new_postgres_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def store(database_url):
    room_store = RoomStore(database_url, instructor_token=TOKEN)
    yield room_store
    room_store.engine.dispose()


def trigger_payload(visible: list[bool | None], held_out: list[bool] = (), baseline: list[bool] | None = None) -> dict:
    """A trigger attempt built by `build_trigger_attempt` from right (True), wrong (False) or errored (None)
    decisions on positive queries v0, v1... (visible) and h0, h1... (held out)."""
    queries = [LabelledQuery(f"v{i}", "q", "a") for i in range(len(visible))] + \
              [LabelledQuery(f"h{i}", "q", "a", held_out=True) for i in range(len(held_out))]

    def rows(outcomes, prefix):
        return [RoutedDecision(f"{prefix}{i}", "q", "a",
                               Decision("error") if ok is None else Decision("skill", "a") if ok else Decision("none"))
                for i, ok in enumerate(outcomes)]

    base = rows(baseline, "v") if baseline is not None else None
    return build_trigger_attempt(rows(visible, "v") + rows(held_out, "h"), queries, {"a": "does a"},
                                 model="m", source="recorded", runs=1, baseline_rows=base)

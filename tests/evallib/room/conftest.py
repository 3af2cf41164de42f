"""Room tests run on SQLite always and on PostgreSQL when Debian's binaries are installed.

`postgres_server` starts a throwaway cluster for the test session (initdb + pg_ctl on a temporary
data directory, a free loopback port, the socket in that directory; as root, run as the ``postgres``
user through runuser) and stops it at the end. Each test then gets a fresh database on it.
"""

import glob
import itertools
import os
import shutil
import subprocess
import tempfile

import pytest
from sqlalchemy import create_engine, text

from evallib.room.attempts import build_trigger_attempt
from evallib.room.storage import RoomStore
from evallib.triggering.data import LabelledQuery
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision
from tests.test_browser import _free_port

TOKEN = "instructor-token-for-tests"
_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres_server():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("PostgreSQL not tested: Debian's postgresql binaries (/usr/lib/postgresql/*/bin) are "
                    "absent; `make test` installs them when run as root")
    bindir = os.path.dirname(found[-1])
    as_user = []
    datadir = tempfile.mkdtemp(prefix="evallib-pg-")
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("PostgreSQL not tested: running as root without runuser to drop to the postgres user")
        shutil.chown(datadir, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    pg_ctl = [*as_user, f"{bindir}/pg_ctl", "-D", datadir]
    try:
        subprocess.run([*as_user, f"{bindir}/initdb", "-D", datadir, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                        "--no-sync"], check=True, capture_output=True, timeout=120)
        subprocess.run([*pg_ctl, "-l", f"{datadir}/server.log", "-w", "-t", "60",
                        "-o", f"-p {port} -k {datadir} -h 127.0.0.1 -F", "start"],
                       check=True, capture_output=True, timeout=120)
    except (subprocess.SubprocessError, OSError) as error:
        shutil.rmtree(datadir, ignore_errors=True)
        pytest.fail(f"the temporary PostgreSQL cluster did not start: {error}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(datadir, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database: a SQLite file, or a new database on the session's PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/rooms.sqlite3"
    server = request.getfixturevalue("postgres_server")
    name = f"room_test_{next(_databases)}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"{server}/{name}"


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

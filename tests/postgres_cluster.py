"""A throwaway PostgreSQL cluster from Debian's binaries, for the room's tests and bench/room.py.

`temporary_cluster` runs initdb + pg_ctl on a temporary data directory, on a free loopback port with
the socket in that directory (as root, as the ``postgres`` user through runuser), yields the server's
SQLAlchemy URL without a database name, and stops the cluster and removes its directory at the end.
`new_postgres_database` creates an empty database on a server and returns its URL.
"""

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text

from tests.test_browser import _free_port

_databases = itertools.count()


class ClusterUnavailable(Exception):
    """No cluster can be started here (the reason is the message): the binaries or runuser are absent."""


class ClusterFailed(Exception):
    """initdb or pg_ctl failed (the message names the error)."""


@contextmanager
def temporary_cluster() -> Iterator[str]:
    """A running throwaway cluster: yields ``postgresql+psycopg://postgres@127.0.0.1:<port>``.

    Raises `ClusterUnavailable` when Debian's postgresql binaries (/usr/lib/postgresql/*/bin) are absent
    or, as root, runuser is; `ClusterFailed` when the cluster does not start.
    """
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise ClusterUnavailable("Debian's postgresql binaries (/usr/lib/postgresql/*/bin) are absent; "
                                 "`make test` installs them when run as root")
    bindir = os.path.dirname(found[-1])
    as_user = []
    datadir = tempfile.mkdtemp(prefix="evallib-pg-")
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            shutil.rmtree(datadir, ignore_errors=True)
            raise ClusterUnavailable("running as root without runuser to drop to the postgres user")
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
        raise ClusterFailed(f"the temporary PostgreSQL cluster did not start: {error}") from error
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], capture_output=True, timeout=120, check=False)
        shutil.rmtree(datadir, ignore_errors=True)


def new_postgres_database(server: str, prefix: str = "room_test") -> str:
    """A new empty database ``<prefix>_<n>`` on ``server`` (a URL without database name); its URL."""
    name = f"{prefix}_{next(_databases)}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"{server}/{name}"

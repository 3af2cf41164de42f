"""nginx with the project's configuration (deploy/nginx.conf) in front of two app processes.

Shared by tests/test_browser_multi_process.py and bench/room_sessions.py. `running_nginx` fills
deploy/nginx.conf with free ports, starts nginx in a temporary prefix and stops it at the end;
`upstream` says which app process nginx sends a browser's cookies to (the ``X-Evallib-Upstream``
header the configuration adds).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path

from tests.streamlit_sessions import free_port

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class NginxUnavailable(Exception):
    """nginx is not installed here (`make nginx` installs it as root)."""


def nginx_conf(listen: int, apps: list[int]) -> str:
    """deploy/nginx.conf with these ports (it names 8080 and the apps 8501, 8502)."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for default, port in (("127.0.0.1:8080;", f"127.0.0.1:{listen};"), ("127.0.0.1:8501;", f"127.0.0.1:{apps[0]};"),
                          ("127.0.0.1:8502;", f"127.0.0.1:{apps[1]};")):
        if default not in text:
            raise ValueError(f"deploy/nginx.conf no longer says {default}")
        text = text.replace(default, port)
    return text


@contextlib.contextmanager
def running_nginx(apps: list[int]) -> Iterator[tuple[str, Path]]:
    """nginx over the apps' ports on a free port, in a temporary prefix; yields (URL, prefix).

    Raises `NginxUnavailable` when nginx is not installed.
    """
    if not os.access(NGINX, os.X_OK):
        raise NginxUnavailable("nginx not installed (`make test` installs it as root)")
    prefix = Path(tempfile.mkdtemp(prefix="evallib-nginx-"))
    (prefix / "tmp").mkdir()
    listen = free_port()
    (prefix / "nginx.conf").write_text(nginx_conf(listen, apps))
    process = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"])
    try:
        url = f"http://127.0.0.1:{listen}"
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).close()
                break
            time.sleep(0.1)
        yield url, prefix
    finally:
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(prefix, ignore_errors=True)


def upstream(url: str, cookies: Mapping[str, str]) -> str:
    """The app process (``127.0.0.1:<port>``) that nginx at ``url`` sends a request with ``cookies`` to."""
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.headers["X-Evallib-Upstream"]

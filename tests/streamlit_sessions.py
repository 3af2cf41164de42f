"""Real Streamlit sessions without a browser: the websocket protocol the frontend speaks, driven from asyncio.

A `Browser` is a cookie jar (as a browser profile): it GETs a page's HTML first, so the server sets its
cookies (the HttpOnly ``evallib_browser`` of `evallib.room.browser_cookie` included), then each
`Session` it opens connects to ``/_stcore/stream`` with those cookies, as the browser's websocket
handshake does. What a session does follows Streamlit 1.67's frontend (``App.tsx``,
``WidgetStateManager``, ``AppRoot``), read from the pinned package's protocol (``streamlit.proto``) and
server (``runtime/app_session.py``, ``runtime/fragment.py``):

- a run is a ``BackMsg.rerun_script`` (a ``ClientState``: query string without "?", the page's URL
  name at first, then the script hash that ``navigation`` gave; every widget value the session holds;
  a fragment's id for a fragment run);
- the server answers ``new_session`` (the run's id and fragments), ``delta`` messages (an element or a
  block at a ``delta_path``: root container 0 is the main area, 1 the sidebar), then ``script_finished``
  (0 a full run, 3 a fragment run, 2 stopped early because another run replaced it);
- at the end of a run, elements not sent again by it are stale and removed (for a fragment run, only
  those of its fragments);
- ``auto_rerun`` (``st.fragment(run_every=...)``) starts a timer that sends, every ``interval`` seconds,
  a rerun of that fragment with ``is_auto_rerun``, whether a run is in progress or not (the 1.67
  bundle's ``handleAutoRerun``; the same message again leaves a running timer alone); a full run
  clears all timers; ``stop_auto_rerun`` clears those it names;
- a button click sends one rerun with its ``trigger_value`` set; a text input's value is kept and sent
  with every later run; a widget drawn inside a fragment reruns only that fragment.

No message cache is claimed (``cached_message_hashes`` stays empty), so the server sends every message
whole. ``st.html`` scripts are not run (the room's cookie is set by the server on the page's HTML).

Example (inside an event loop)::

    browser = Browser("http://127.0.0.1:8501")
    session = await browser.open("room")
    assert "Room" in session.texts()
    await session.type_text("Room code", "ABCD23")
    await session.click("Join")
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parent.parent
MAIN, SIDEBAR = 0, 1
FULL_RUN, FRAGMENT_RUN, EARLY = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
                                 ForwardMsg.FINISHED_EARLY_FOR_RERUN)
#: Element fields whose ``body`` is text shown on the page.
_TEXT_FIELDS = ("markdown", "alert", "heading", "text", "exception")


class SessionError(Exception):
    """The server closed the session, or what was waited for did not come in time."""


@dataclass
class Shown:
    """One element or block on the page: its proto, the run that sent it and its fragment ("" if none)."""

    proto: object
    run: int
    fragment: str
    is_block: bool


class Browser:
    """A browser profile: one cookie jar shared by its sessions (tabs), for one server ``base_url``."""

    def __init__(self, base_url: str, timeout: float = 60.0):
        self.base_url = base_url.rstrip("/") + "/"
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get_html(self, page: str = "") -> int:
        """GET a page's HTML (sets the server's cookies in the jar); returns the HTTP status."""
        with self._opener.open(self.base_url + page, timeout=self.timeout) as response:
            response.read()
            return response.status

    def cookies(self) -> dict[str, str]:
        """The jar's cookies for this server, by name."""
        return {cookie.name: cookie.value for cookie in self.jar}

    def set_cookie(self, name: str, value: str | None) -> None:
        """Set (or with None, erase) a cookie for this server, as a page's script would."""
        host = urllib.parse.urlsplit(self.base_url).hostname or ""
        if value is None:
            for cookie in [c for c in self.jar if c.name == name]:
                self.jar.clear(cookie.domain, cookie.path, cookie.name)
            return
        self.jar.set_cookie(http.cookiejar.Cookie(0, name, value, None, False, host, False, False, "/", True, False,
                                                  None, False, None, None, {}))

    async def open(self, page: str = "", query: str = "", connect_only: bool = False) -> Session:
        """GET the page's HTML, open a session on it and (unless ``connect_only``) wait for its first run."""
        await asyncio.to_thread(self.get_html, page)
        session = Session(self, page, query)
        await session.connect()
        if not connect_only:
            await session.run()
        return session


class Session:
    """One Streamlit session (a browser tab) over the websocket; see the module docstring."""

    def __init__(self, browser: Browser, page: str = "", query: str = ""):
        self.browser, self.page, self.query = browser, page, query
        self.page_hash = ""
        self.pages: dict[str, str] = {}  # url name -> script hash, from st.navigation
        self.shown: dict[tuple[int, ...], Shown] = {}
        self.values: dict[str, WidgetState] = {}
        self.finished: list[int] = []  # the status of each run that ended, in order
        self.fragment_latencies: list[float] = []  # seconds from each timer's rerun request to its end
        self.closed = False
        self._run = 0
        self._fragments_this_run: tuple[str, ...] = ()
        self._timers: dict[str, asyncio.Task] = {}
        self._intervals: dict[str, float] = {}
        self._timer_sent: list[float] = []
        self._changed = asyncio.Condition()
        self._socket = None
        self._reader: asyncio.Task | None = None

    # -- connection
    async def connect(self) -> None:
        base = urllib.parse.urlsplit(self.browser.base_url)
        scheme = "wss" if base.scheme == "https" else "ws"
        url = f"{scheme}://{base.netloc}{base.path}_stcore/stream"
        cookie = "; ".join(f"{name}={value}" for name, value in self.browser.cookies().items())
        self._socket = await websockets.connect(
            url, subprotocols=["streamlit"], max_size=None, open_timeout=self.browser.timeout,
            additional_headers={"Cookie": cookie, "Origin": f"{base.scheme}://{base.netloc}"})
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        """Close the tab: timers stopped, websocket closed."""
        self._stop_timers()
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        try:
            async for data in self._socket:
                message = ForwardMsg()
                message.ParseFromString(data)
                self._handle(message)
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._stop_timers()
            async with self._changed:
                self._changed.notify_all()

    def _handle(self, message: ForwardMsg) -> None:
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self._run += 1
            self._fragments_this_run = tuple(message.metadata.run.fragment_ids)
            self.page_hash = message.new_session.page_script_hash
            if not self._fragments_this_run:  # a full run: the frontend clears every timer
                self._stop_timers()
        elif kind == "delta":
            self._delta(tuple(message.metadata.delta_path), message.delta)
        elif kind == "script_finished":
            status = message.script_finished
            if status == FULL_RUN:
                self.shown = {path: item for path, item in self.shown.items() if item.run == self._run}
            elif status == FRAGMENT_RUN:
                ran = set(self._fragments_this_run)
                self.shown = {path: item for path, item in self.shown.items()
                              if item.run == self._run or item.fragment not in ran}
                if self._timer_sent:  # timer reruns queued together are coalesced into this one run
                    self.fragment_latencies.append(time.monotonic() - self._timer_sent[0])
                    self._timer_sent.clear()
            self.finished.append(status)
        elif kind == "auto_rerun":  # as the 1.67 bundle: a timer already running at that interval is kept as is
            fragment, interval = message.auto_rerun.fragment_id, message.auto_rerun.interval
            if fragment and self._intervals.get(fragment) != interval:
                if fragment in self._timers:
                    self._timers[fragment].cancel()
                self._timers[fragment] = asyncio.create_task(self._timer(fragment, interval))
                self._intervals[fragment] = interval
        elif kind == "stop_auto_rerun":
            self._stop_timers(message.stop_auto_rerun.fragment_ids)
        elif kind == "navigation":  # st.navigation ran: the page it chose, and every page's hash
            self.page_hash = message.navigation.page_script_hash
            self.pages = {page.url_pathname: page.page_script_hash for page in message.navigation.app_pages}
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string

    def _delta(self, path: tuple[int, ...], delta) -> None:
        what = delta.WhichOneof("type")
        if what == "new_element":
            for other in [p for p in self.shown if len(p) > len(path) and p[:len(path)] == path]:
                del self.shown[other]  # an element replaces a block and all it held
            self.shown[path] = Shown(delta.new_element, self._run, delta.fragment_id, False)
        elif what == "add_block":
            self.shown[path] = Shown(delta.add_block, self._run, delta.fragment_id, True)

    def _stop_timers(self, fragments=None) -> None:
        for fragment in list(self._timers) if fragments is None else fragments:
            task = self._timers.pop(fragment, None)
            self._intervals.pop(fragment, None)
            if task is not None:
                task.cancel()

    async def _timer(self, fragment: str, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            self._timer_sent.append(time.monotonic())
            await self._send_rerun(fragment=fragment, auto=True)

    # -- requests
    async def _send_rerun(self, fragment: str = "", auto: bool = False, triggers: tuple[WidgetState, ...] = ()) -> None:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.page_name = "" if self.page_hash else self.page
        state.fragment_id = fragment
        state.is_auto_rerun = auto
        state.widget_states.widgets.extend([*self.values.values(), *triggers])
        try:
            await self._socket.send(message.SerializeToString())
        except websockets.ConnectionClosed:
            self.closed = True

    async def wait_for(self, condition: Callable[[], bool], timeout: float | None = None, what: str = "") -> None:
        """Wait until ``condition()`` holds (checked after each message); `SessionError` on timeout or close."""
        async def until() -> None:
            async with self._changed:
                while not condition():
                    if self.closed:
                        raise SessionError(f"session closed while waiting for {what or condition}")
                    await self._changed.wait()
        try:
            await asyncio.wait_for(until(), timeout or self.browser.timeout)
        except TimeoutError:
            raise SessionError(f"timed out waiting for {what or condition}") from None

    async def run(self, fragment: str = "", triggers: tuple[WidgetState, ...] = ()) -> int:
        """Send a rerun (the whole page, or one fragment) and wait for a run to finish; returns its status."""
        seen = len(self.finished)
        await self._send_rerun(fragment=fragment, triggers=triggers)
        await self.wait_for(lambda: any(s != EARLY for s in self.finished[seen:]), what="the end of a run")
        return next(s for s in self.finished[seen:] if s != EARLY)

    # -- what the page shows
    def elements(self, root: int | None = None) -> list[object]:
        """The elements shown (``Element`` protos), in page order; ``root``: MAIN, SIDEBAR or None for all."""
        return [item.proto for path, item in sorted(self.shown.items())
                if not item.is_block and (root is None or path[:1] == (root,))]

    def texts(self, root: int | None = MAIN) -> list[str]:
        """The texts shown: markdown, captions, alerts, headings, exceptions, and widget labels."""
        found = []
        for element in self.elements(root):
            kind = element.WhichOneof("type")
            value = getattr(element, kind)
            if kind in _TEXT_FIELDS:
                found.append(value.message if kind == "exception" else value.body)
            elif hasattr(value, "label") and isinstance(value.label, str):
                found.append(value.label)
        return found

    def text(self, root: int | None = MAIN) -> str:
        """`texts` joined by newlines (to search in)."""
        return "\n".join(self.texts(root))

    def exceptions(self) -> list[str]:
        """The messages of the exceptions shown anywhere."""
        return [e.exception.message for e in self.elements(None) if e.WhichOneof("type") == "exception"]

    def widget(self, label: str) -> tuple[object, str]:
        """(the widget's proto, its fragment id) for the first widget labelled ``label``; `SessionError` if none."""
        for path, item in sorted(self.shown.items()):
            if item.is_block:
                continue
            value = getattr(item.proto, item.proto.WhichOneof("type"))
            if getattr(value, "label", None) == label and getattr(value, "id", ""):
                return value, item.fragment
        raise SessionError(f"no widget labelled {label!r}; shown: {self.texts(None)}")

    # -- acting
    async def type_text(self, label: str, value: str) -> int:
        """Type ``value`` into the text input ``label`` and press Enter (a run); returns the run's status."""
        widget, fragment = self.widget(label)
        self.values[widget.id] = WidgetState(id=widget.id, string_value=value)
        return await self.run(fragment=fragment)

    def set_text(self, label: str, value: str) -> None:
        """Set the text input ``label`` without a run (it is sent with the next one)."""
        widget, _ = self.widget(label)
        self.values[widget.id] = WidgetState(id=widget.id, string_value=value)

    async def click(self, label: str) -> int:
        """Click the button ``label`` (one run with its trigger set); returns the run's status."""
        widget, fragment = self.widget(label)
        return await self.run(fragment=fragment, triggers=(WidgetState(id=widget.id, trigger_value=True),))

    async def switch_page(self, page: str) -> int:
        """Open another page of this session (a click in the sidebar's navigation); returns the run's status."""
        self.page, self.page_hash, self.query = page, self.pages.get(page, ""), ""
        return await self.run()

    @property
    def timers(self) -> tuple[str, ...]:
        """The fragments whose timer this session answers."""
        return tuple(self._timers)


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(entry: str = "serve.py", env: dict | None = None, args: tuple[str, ...] = (), log=None,
                 port: int | None = None, timeout: float = 120.0, unset: tuple[str, ...] = (),
                 root: Path | str = ROOT) -> tuple[str, subprocess.Popen]:
    """Start ``streamlit run <entry>`` (from the repository, or the checkout ``root``) on a free loopback
    port (or ``port``); wait until it answers.

    ``env`` is added to this process's environment, after the variables named in ``unset`` are taken out
    of it (a server with no instructor token configured: ``unset=("EVALLIB_ROOM_INSTRUCTOR_TOKEN",)``);
    ``args`` are more Streamlit flags; ``log`` an open file for the server's output (else a pipe, read by
    `stop_server`). Returns (URL, process); raises RuntimeError when the server does not answer
    ``/_stcore/health`` within ``timeout`` seconds (the end of its output in the message when piped).
    """
    port = port or free_port()
    environment = {name: value for name, value in os.environ.items() if name not in unset}
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", entry, "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", *args],
        cwd=root, env={**environment, **(env or {})}, stdout=log or subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1):
                return url, process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.25)
    output = stop_server(process)
    raise RuntimeError(f"streamlit run {entry} did not start" + (f":\n{output[-2000:]}" if output else ""))


def stop_server(process: subprocess.Popen) -> str:
    """Stop a server of `start_server`; its output ("" when it went to a log file)."""
    process.terminate()
    try:
        output = process.communicate(timeout=20)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        output = process.communicate()[0]
    return output or ""


@contextlib.contextmanager
def restartable_server(env: dict, log: Path, unset: tuple[str, ...] = ()):
    """``streamlit run serve.py`` with ``env`` (output appended to ``log``) as (URL, restart()): restart() kills
    it with SIGKILL, as a crash, and starts it again on the same port. Stopped on exit; the log must then
    hold no traceback."""

    def start(port: int | None = None) -> tuple[str, subprocess.Popen]:
        with log.open("a") as out:  # the child keeps its own copy of the file
            return start_server("serve.py", env, log=out, port=port, unset=unset)

    url, process = start()
    running = [process]

    def restart() -> None:
        running[0].send_signal(signal.SIGKILL)
        running[0].wait(timeout=10)
        running[0] = start(int(url.rsplit(":", 1)[1]))[1]

    try:
        yield url, restart
    finally:
        stop_server(running[0])
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]

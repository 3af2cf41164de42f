"""Model providers for the pages: recordings shared by all sessions, live clients per session, cached calls.

- Recordings (shipped ``recordings/`` and the local folder that Live + record writes to) are loaded
  once per server process and reloaded when a file of either changes.
- The live provider (an SDK client holding this session's key) lives in this session's state only:
  one participant's key never reaches another session (docs/README.md#streamlit).
- Live answers go through ``st.cache_data``, keyed by the request key, the endpoint fingerprint
  (kind + base URL) and a keyed hash of the API key (`key_scope`), never the key itself: sessions
  with the same key and endpoint share answers, a session with another or a wrong key is asked
  afresh and sees its own errors. Errors are not cached. A cached hit comes back with source "cache".
- Live calls that miss the cache go through the endpoint's scheduler, one per endpoint per server
  process (`evallib.llm.scheduler`): at most ``EVALLIB_ENDPOINT_CONCURRENCY`` (8) in flight to one
  server, the sessions served in turn, identical requests of the same key scope sent once. When the
  room's database is PostgreSQL, that limit holds for all the app processes on it together.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import replace
from pathlib import Path

import streamlit as st

from evallib.llm import Recordings, local_directory, make_provider, provider_for_mode
from evallib.llm.errors import Failure
from evallib.llm.scheduler import EndpointScheduler, Lane, ScheduledProvider, key_scope
from ui.settings import Settings, current_settings

#: Set in the cached function's body: still False after a call means the answer came from the cache.
_computed = threading.local()


def _recordings_signature(directory: Path) -> tuple:
    files = sorted(directory.glob("*.jsonl"))
    return tuple((p.name, stat.st_mtime_ns, stat.st_size) for p, stat in zip(files, map(Path.stat, files)))


def recordings() -> Recordings:
    """The session's pack's recordings and the local ones, shared by every session of that pack, reloaded when a
    file changes (the built-in French pack's: ``packs/fr/recordings``)."""
    from ui.packs import current_pack

    shipped, local = current_pack().recordings_dir, local_directory()
    signature = (_recordings_signature(shipped), _recordings_signature(local))
    return _cached_recordings(str(shipped), str(local), signature)


@st.cache_resource(show_spinner=False, max_entries=8)
def _cached_recordings(directory: str, local: str, signature: tuple) -> Recordings:
    return Recordings(directory, local)


class _UncachedResult(Exception):
    """Carries an error result out of the cached function, so that it is not cached."""

    def __init__(self, result) -> None:
        super().__init__("uncached")
        self.result = result


@st.cache_data(show_spinner=False, max_entries=50_000)
def _cached_answer(request_key: str, fingerprint: str, scope: str, method: str, _provider, _request):
    _computed.flag = True
    result = getattr(_provider, method)(_request)
    if result.failed:
        raise _UncachedResult(result)
    return result


class CachedProvider:
    """Wraps a live provider with ``st.cache_data`` (safe from worker threads; no Streamlit UI calls).

    Answers are shared with the sessions that reach the same endpoint with the same key (`key_scope`).
    """

    def __init__(self, live) -> None:
        self.live = live
        self.scope = key_scope(live.config.api_key)

    def fingerprint(self) -> str:
        return self.live.fingerprint()

    def _answer(self, method: str, request):
        _computed.flag = False
        try:
            result = _cached_answer(request.key(), self.live.fingerprint(), self.scope, method, self.live, request)
        except _UncachedResult as failure:
            return failure.result
        return result if _computed.flag else replace(result, source="cache", latency_s=0.0, retries=0)

    def chat(self, request):
        return self._answer("chat", request)

    def embed(self, request):
        return self._answer("embed", request)


def live_provider(settings: Settings):
    """This session's live SDK provider, rebuilt only when the configuration changes."""
    held = st.session_state.get("_llm_live")
    if held is None or held[0] != settings.config:
        held = (settings.config, make_provider(settings.config))
        st.session_state["_llm_live"] = held
    return held[1]


@st.cache_resource(show_spinner=False)
def _endpoint_scheduler(fingerprint: str) -> EndpointScheduler:
    """The scheduler of one endpoint (kind + base URL), shared by every session of the server process;
    on the room's PostgreSQL, its slots are shared with the other app processes (`evallib.llm.shared_slots`)."""
    from evallib.llm.shared_slots import endpoint_scheduler  # SQLAlchemy: loaded with the first live call
    from evallib.room.storage import database_url

    return endpoint_scheduler(fingerprint, database_url())


def session_lane(settings: Settings) -> Lane:
    """A new lane of this browser session on the endpoint's scheduler (one per collection)."""
    session = st.session_state.setdefault("_llm_session", uuid.uuid4().hex)
    return _endpoint_scheduler(settings.config.fingerprint()).lane(session)


def page_provider(set_name: str, settings: Settings | None = None, lane: Lane | None = None):
    """The provider a page collects with, for the session's mode.

    Args:
        set_name: recording set (``<set_name>.jsonl`` in the local recordings folder) that Live + record
            appends to.
        lane: this collection's lane on the endpoint's scheduler (`session_lane`), to give `collect`
            too; None: a new one (live calls are always scheduled).
    """
    settings = settings or current_settings()
    if not settings.live:
        return provider_for_mode("offline", recordings())
    live = ScheduledProvider(live_provider(settings), lane or session_lane(settings))
    if settings.use_cache:
        live = CachedProvider(live)
    return provider_for_mode(settings.mode, recordings(), live, set_name=set_name, provider_kind=settings.config.kind)


def model_list(settings: Settings) -> tuple[list[str], Failure | None]:
    """(model ids, None), or ([], the failure, scrubbed of the key) when the endpoint's ``/models``
    does not answer: the sidebar's key/model check, asked once per endpoint and session."""
    memo = st.session_state.setdefault("_llm_models", {})
    token = settings.config  # held in this session's state only
    if token not in memo:
        try:
            memo[token] = (live_provider(settings).list_models(), None)
        except Exception as exc:  # shown beside a free-text field, never a traceback
            memo[token] = ([], live_provider(settings).failure(exc, list_models=lambda: None))
    return memo[token]

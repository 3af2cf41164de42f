"""This browser's language, settings, edits and live answers, kept in the room's database across restarts.

A restart of the server (a laptop asleep, a crash, ``make run`` again) starts a new session for every
open browser; what the person had set lived in the old session's memory. What is kept where, and why:

- presentation mode: in the URL (``?present=1``, `ui.presentation`). It belongs to the screen, not to
  the person: the projector's address keeps it, a participant's laptop does not inherit it; the
  frontend reconnects with the same URL, so it comes back by itself.
- the language, the sidebar's settings (mode, provider, base URL, model, concurrency, timeout, cache,
  the switch "use the room's model") and the page's edits (every plain widget value `ui.shell.keep_widget_values` gathers): per browser,
  in `evallib.room.browser_state` under `ui.browser.browser_key`. They belong to the person, whatever
  link they open; an edited prompt in the URL would also show on the projector and in every shared
  link. ``bind="query-params"`` was not used for the language either: a link passed to a neighbour
  would force it on them.
- the API key: nowhere but this session. After a restart it is asked again (`key_asked_again`).
- live answers: per browser and endpoint, stored as they arrive (`keep_answers`), read back into the
  session's answers at its first run (`restore_answers`).

Without a browser key (AppTest, no cookie) nothing is kept beyond the session. A database that cannot be
reached costs only this: the session goes on with what it has in memory.
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from evallib.room.browser_state import BrowserStateStore
from evallib.room.storage import RoomStorageError
from ui.browser import browser_key
from ui.i18n import LANGUAGE_KEY
from ui.room.state import room_store
from ui.settings import DEFAULTS
from ui.shell import BROWSER_KEPT_KEY, KEPT_KEY, keep_widget_values

#: Session-state keys: the values read back at the session's start ({} when none), and the last values written.
RESTORED = "_browser_state_restored"
WRITTEN = "_browser_state_written"
ANSWERS_LOADED = "_browser_answers_loaded"
#: The settings kept (the API key never is).
SETTINGS_KEPT = tuple(key for key in DEFAULTS if key != "llm_api_key")


@st.cache_resource(show_spinner=False)
def browser_states() -> BrowserStateStore:
    """The process's store, on the room's engine; raises `RoomStorageError` (not cached) when unreachable."""
    return BrowserStateStore(room_store().engine)


def _store_and_key() -> tuple[BrowserStateStore | None, str | None]:
    key = browser_key()
    if key is None:
        return None, None
    try:
        return browser_states(), key
    except RoomStorageError:
        return None, key


def restore_browser_state() -> None:
    """At a session's first run, before any widget: give back this browser's kept values (once per session).

    A value already in the session (a test, a link) wins over the kept one.
    """
    state = st.session_state
    if RESTORED in state:
        return
    state[RESTORED] = {}
    store, key = _store_and_key()
    if store is None:
        return
    try:
        values = store.values(key)
    except RoomStorageError:
        return
    kept = state.setdefault(KEPT_KEY, {})
    for name, value in values.items():
        if name not in state:
            state[name] = value
        if name not in SETTINGS_KEPT and name != LANGUAGE_KEY:
            kept.setdefault(name, value)
    state[RESTORED] = values
    state[WRITTEN] = values


def _snapshot() -> dict:
    keep_widget_values()
    state = st.session_state
    values = dict(state.get(KEPT_KEY, {}))
    values.update({name: state[name] for name in (*SETTINGS_KEPT, *state.get(BROWSER_KEPT_KEY, ())) if name in state})
    if LANGUAGE_KEY in state:
        values[LANGUAGE_KEY] = state[LANGUAGE_KEY]
    return values


def save_browser_state() -> None:
    """Write this browser's values when they changed since the last write.

    app.py calls it twice a run: at the start, after the widgets' callbacks (a value the browser just sent,
    a choice `ui.widgets.translated_choice` resolved, the language clicked), so that a change is stored as
    it is made, before a slow model list or a collection of minutes that a restart may cut short; and at
    the end, for what the page's run set (an edited table, a value the sidebar corrected).
    """
    store, key = _store_and_key()
    if store is None:
        return
    values = _snapshot()
    if values == st.session_state.get(WRITTEN):
        return
    try:
        store.save_values(key, values, secrets=[st.session_state.get("llm_api_key", "")])
    except RoomStorageError:
        pass
    else:
        st.session_state[WRITTEN] = values


def key_asked_again() -> bool:
    """Whether the sidebar should say why the key is asked again: settings came back for a live mode, no key."""
    restored = st.session_state.get(RESTORED) or {}
    return restored.get("llm_mode", "offline") != "offline" and not st.session_state.get("llm_api_key")


def restore_answers(answers: dict) -> None:
    """Add this browser's stored live answers to ``answers`` (the session's), once per session; new ones win."""
    if st.session_state.get(ANSWERS_LOADED):
        return
    st.session_state[ANSWERS_LOADED] = True
    store, key = _store_and_key()
    if store is None:
        return
    try:
        stored = store.answers(key)
    except RoomStorageError:
        return
    for slot, result in stored.items():
        answers.setdefault(slot, result)


def keep_answers(items: Iterable[tuple[tuple[str, str], object]]) -> None:
    """Store live answers ``((request key, fingerprint), result)`` as they arrive; failures are not kept
    (they are asked again), nor is anything when the database is unreachable."""
    rows = [(slot[0], slot[1], result) for slot, result in items if not result.failed]
    store, key = _store_and_key()
    if store is None or not rows:
        return
    try:
        store.add_answers(key, rows)
    except RoomStorageError:
        pass


def forget_answers(slots: Iterable[tuple[str, str]]) -> None:
    """Delete this browser's stored answers in ``slots`` (the collection's "forget" button)."""
    store, key = _store_and_key()
    if store is None:
        return
    try:
        store.forget_answers(key, slots)
    except RoomStorageError:
        pass

"""Which browser this session belongs to: the hash of the server-set cookie (`evallib.room.browser_cookie`).

A reload, a reconnection after a restart of the server, or a second tab of the same browser all give the
same key; another browser (or another Playwright context) another. None when the session has no such
cookie (AppTest, a script run outside a server, a browser that refuses cookies): then nothing is kept
beyond the session.
"""

from __future__ import annotations

import streamlit as st

from evallib.room.browser_cookie import browser_key_from_header


def browser_key() -> str | None:
    """This browser's key (64 hex characters) or None (module docstring)."""
    try:
        header = st.context.headers.get("cookie") or ""
    except Exception:  # no request behind this run
        return None
    return browser_key_from_header(header)  # the raw header: a planted second copy makes it None

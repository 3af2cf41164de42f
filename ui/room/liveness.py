"""Whether the projected board is live, said by the browser itself (docs/README.md#room-serving).

When the server stops answering, the board would stay frozen on its last figures with nothing but a
small "updated at" time standing still. The server cannot say it is gone, so a script in the page
does (`liveness.js`, put in by ``st.html(..., unsafe_allow_javascript=True)``): each refresh of the
board leaves a heartbeat in the page (a hidden element: a value that changes on every refresh, the
refresh's time as the board shows it, the period in seconds), and the script, installed once per
browser tab, watches it and the server's ``/_stcore/health``. No heartbeat for two periods, or the
health check failing twice in a row (each with a timeout), shows a large banner over the page: the
board is not live since HH:MM:SS, and whether the server answers. Once a heartbeat arrives again from
a server that answers, the banner says the board is live again, then fades.

The banner's texts come from the catalogue (``room.live.*`` in ``ui/locale``) in the session's
language, handed to the script as JSON made safe inside a ``<script>`` element; the script writes them
as text, never as HTML.
"""

from __future__ import annotations

import html
import json
import time
from pathlib import Path

import streamlit as st

from ui.i18n import clock, t

SCRIPT = (Path(__file__).with_name("liveness.js")).read_text(encoding="utf-8")
#: The texts of the banner, under ``room.live.<name>``; ``{time}`` is filled in by the script.
TEXTS = ("down", "stalled", "back")
#: Characters that could end the script element or start markup, written as JSON escapes instead.
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value: object) -> str:
    """``value`` as a JavaScript literal safe inside ``<script>``: JSON with ``< > &`` and the line
    separators escaped, so that no text (a translation, a path) can close the element.

    >>> script_json({"a": "</script><b>"})
    '{"a": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(value, ensure_ascii=False)
    return "".join(_SCRIPT_UNSAFE.get(char, char) for char in text)


def health_path() -> str:
    """The server's health endpoint under the app's base path (``server.baseUrlPath``), e.g. ``/_stcore/health``."""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}/_stcore/health" if base else "/_stcore/health"


def markup(every: float, shown_time: str, beat: float) -> str:
    """The heartbeat of one refresh (``every``: the period in seconds; ``shown_time``: the refresh's time
    as the board shows it; ``beat``: a value that changes on every refresh) and the watching script."""
    config = {"texts": {name: t(f"room.live.{name}", time="{time}") for name in TEXTS}, "health": health_path()}
    return (f'<div class="evallib-liveness-beat" hidden data-beat="{beat:.6f}" '
            f'data-time="{html.escape(shown_time)}" data-period="{every:g}"></div>'
            f"<script>{SCRIPT.replace('__CONFIG__', script_json(config))}</script>")


def heartbeat(every: float) -> None:
    """Put this refresh's heartbeat and the watching script into the board (call once per refresh, inside the
    board's fragment; ``every``: the refresh period in seconds)."""
    st.html(markup(every, clock(), time.time()), unsafe_allow_javascript=True)

"""The server of the app: `streamlit run serve.py` serves app.py, and each page URL answers directly.

Streamlit's frontend does not know where the server lives, so on a page URL such as `/trigger` it
first asks `/trigger/_stcore/health` and `/trigger/_stcore/host-config` (two 404s, by design in
streamlit 1.67's static routes) before it falls back to the root. Streamlit reads the server's
address from `window.__streamlit.BACKEND_BASE_URL` when a host page sets it; this launcher serves
each page URL with Streamlit's own index.html plus that one setting (the folder above the page), so
the frontend goes straight to the right server. `st.App` takes such routes ahead of its own; every
other URL is Streamlit's as usual.
"""

import re
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware
from starlette.responses import HTMLResponse
from starlette.routing import Route
from streamlit import file_util
from streamlit.runtime.pages_manager import PagesManager

from evallib.room.browser_cookie import BrowserCookieMiddleware
from evallib.room.instructor import configured_token, console_line, kept_token
from evallib.room.storage import database_url, make_engine

ROOT = Path(__file__).resolve().parent
#: The script that draws every page (st.navigation over pages/).
ENTRY = ROOT / "app.py"
#: Set before Streamlit's bundle loads: the server is the folder that holds the page's URL.
BACKEND_SETTING = ('<script>window.__streamlit = {BACKEND_BASE_URL: new URL(".", window.location.href).href};'
                   '</script>')


def page_paths(entry: Path = ENTRY) -> tuple[str, ...]:
    """The `url_path` of every st.Page of ``entry``, as written there (the default page included)."""
    return tuple(re.findall(r'url_path="([\w-]+)"', entry.read_text(encoding="utf-8")))


def index_html() -> str:
    """Streamlit's index.html with the server's address set before the bundle runs."""
    html = (Path(file_util.get_static_dir()) / "index.html").read_text(encoding="utf-8")
    return html.replace("<head>", "<head>\n    " + BACKEND_SETTING, 1)


async def _page(request) -> HTMLResponse:
    return HTMLResponse(index_html(), headers={"Cache-Control": "no-cache"})


#: This server never uses the legacy ``pages/`` mode: app.py calls st.navigation. Streamlit 1.67 sets the
#: process-wide flag from the folder's presence when the first session starts, and the first run of
#: st.navigation clears it, so sessions that start together on a fresh server raced (ui/shell.py).
PagesManager.uses_pages_directory = False

app = st.App(str(ENTRY), routes=[Route(f"/{path}", _page, methods=["GET"]) for path in page_paths()],
             middleware=[Middleware(BrowserCookieMiddleware)])



def announce_instructor_token() -> str:
    """The console line about the room's instructor token ("" when the secrets or the environment set it).

    A token is drawn once for the room database (`evallib.room.instructor.kept_token`) and printed by
    the process that drew it; later starts say where it is. A database that cannot be reached now is
    said so: the token is then drawn (and printed) by the first use of the Room page.
    """
    if configured_token() is not None:
        return ""
    engine = make_engine(database_url())
    try:
        return console_line(kept_token(engine))
    except Exception as error:  # noqa: BLE001 - the app still starts; the Room page names the database error
        return f"  Room instructor token: the room database cannot be reached now ({type(error).__name__})."
    finally:
        engine.dispose()


if _line := announce_instructor_token():
    print(_line, flush=True)

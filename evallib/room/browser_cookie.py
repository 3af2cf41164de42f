"""The browser cookie: one random id per browser, set by the server on every page it serves.

A Streamlit script cannot set an ``HttpOnly`` cookie (it runs behind a websocket), so the server that
serves the page's HTML sets it (``serve.py`` wraps the app in `BrowserCookieMiddleware`). The cookie
(`COOKIE`) is a random URL-safe token of 32 bytes, ``HttpOnly`` (no script of the page can read it),
``SameSite=Strict`` (never sent by another site's request), ``Secure`` when the page is served over HTTPS
(the request's scheme or a proxy's ``X-Forwarded-Proto: https``), ``Path=/``, and lasts `MAX_AGE_S`
(a workshop's day). The browser sends it back with the websocket's handshake, where the script reads it
(``st.context.cookies``); the server keeps only its hash (`browser_key`), so that a database read by
someone else gives no cookie to copy.

Pure ASGI (no Streamlit import): the middleware only adds a header to HTML responses of GET requests
that came without a valid cookie, and passes everything else through untouched (websockets included).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping

COOKIE = "evallib_browser"
#: How long the cookie lasts, in seconds: 12 hours, a workshop's day (renewed on every page load).
MAX_AGE_S = 12 * 3600
#: A cookie value as `new_cookie_value` makes it (43 URL-safe characters for 32 bytes).
_VALUE = re.compile(r"^[A-Za-z0-9_\-]{32,100}$")


def new_cookie_value() -> str:
    """A fresh random cookie value (32 random bytes, URL-safe base64)."""
    return secrets.token_urlsafe(32)


def valid_cookie_value(value: object) -> bool:
    """True when ``value`` has the shape `new_cookie_value` gives (anything else is ignored).

    >>> valid_cookie_value("x" * 43), valid_cookie_value("abc"), valid_cookie_value("a;b" * 20)
    (True, False, False)
    """
    return isinstance(value, str) and bool(_VALUE.match(value))


def browser_key(cookies: Mapping[str, str]) -> str | None:
    """The hash (SHA-256, 64 hex characters) that stands for this browser on the server, or None.

    ``cookies``: the request's cookies by name (``st.context.cookies``). None when the cookie is absent
    or not of our making (a test session, a browser that refuses cookies).
    """
    value = cookies.get(COOKIE)
    if not valid_cookie_value(value):
        return None
    return hashlib.sha256(value.encode("ascii")).hexdigest()


def set_cookie_header(value: str, *, secure: bool) -> str:
    """The ``Set-Cookie`` header value for ``value`` (module docstring for its attributes)."""
    header = f"{COOKIE}={value}; Path=/; Max-Age={MAX_AGE_S}; HttpOnly; SameSite=Strict"
    return header + "; Secure" if secure else header


def cookie_values(header: str) -> list[str]:
    """Every value of `COOKIE` in a ``Cookie`` request header, in the order sent.

    >>> cookie_values("a=1; evallib_browser=x; evallib_browser=y")
    ['x', 'y']
    """
    found = []
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == COOKIE:
            found.append(value)
    return found


def browser_key_from_header(header: str) -> str | None:
    """`browser_key` of a raw ``Cookie`` header; None when it holds the cookie more than once.

    A browser sends one cookie per (name, domain, path): a second `COOKIE` was planted by a script of the
    same host (another path or a domain cookie, to fix the browser's id to one its author knows). Neither
    is trusted: the session has no id, and the next page load replaces both (`BrowserCookieMiddleware`).
    """
    values = cookie_values(header)
    return browser_key({COOKIE: values[0]}) if len(values) == 1 else None


def _request_cookie(headers: list[tuple[bytes, bytes]]) -> tuple[str | None, int]:
    """(the single valid cookie value or None, how many `COOKIE` values the request carried)."""
    values = [v for name, raw in headers if name == b"cookie" for v in cookie_values(raw.decode("latin-1"))]
    return (values[0] if len(values) == 1 and valid_cookie_value(values[0]) else None), len(values)


def _expired_copies(path: str) -> list[bytes]:
    """``Set-Cookie`` headers that erase a `COOKIE` set on any folder of ``path`` other than ``/``."""
    parts = [p for p in path.split("/") if p]
    folders = ["/" + "/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return [f"{COOKIE}=; Path={folder}; Max-Age=0".encode("latin-1") for folder in folders]


def _served_over_https(scope: Mapping) -> bool:
    if scope.get("scheme") == "https":
        return True
    for name, raw in scope.get("headers", []):
        if name == b"x-forwarded-proto" and raw.decode("latin-1").split(",")[0].strip().lower() == "https":
            return True
    return False


class BrowserCookieMiddleware:
    """ASGI middleware: an HTML response to a GET gets the browser cookie, kept or drawn (renewed each load).

    A request that carries the cookie more than once (one planted by a script of the same host, on a
    sub-path or as a domain cookie) keeps neither: the copies on the page's folders are erased and a new
    value is drawn, so that nobody can fix a browser's id to a value they know.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        kept, sent = _request_cookie(scope.get("headers", []))
        extra = _expired_copies(scope.get("path", "/")) if sent > 1 else []  # a planted copy: erase, draw anew
        header = set_cookie_header(kept or new_cookie_value(), secure=_served_over_https(scope)).encode("latin-1")

        async def send_with_cookie(message) -> None:
            if message.get("type") == "http.response.start":
                headers = list(message.get("headers", []))
                if any(n.lower() == b"content-type" and v.lower().startswith(b"text/html") for n, v in headers):
                    cookies = [(b"set-cookie", h) for h in extra] + [(b"set-cookie", header)]
                    message = {**message, "headers": headers + cookies}
            await send(message)

        await self.app(scope, receive, send_with_cookie)

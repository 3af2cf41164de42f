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


def _request_cookie(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, raw in headers:
        if name == b"cookie":
            for part in raw.decode("latin-1").split(";"):
                key, _, val = part.strip().partition("=")
                if key == COOKIE and valid_cookie_value(val):
                    return val
    return None


def _served_over_https(scope: Mapping) -> bool:
    if scope.get("scheme") == "https":
        return True
    for name, raw in scope.get("headers", []):
        if name == b"x-forwarded-proto" and raw.decode("latin-1").split(",")[0].strip().lower() == "https":
            return True
    return False


class BrowserCookieMiddleware:
    """ASGI middleware: an HTML response to a GET gets the browser cookie, kept or drawn (renewed each load)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        value = _request_cookie(scope.get("headers", [])) or new_cookie_value()
        header = set_cookie_header(value, secure=_served_over_https(scope)).encode("latin-1")

        async def send_with_cookie(message) -> None:
            if message.get("type") == "http.response.start":
                headers = list(message.get("headers", []))
                if any(n.lower() == b"content-type" and v.lower().startswith(b"text/html") for n, v in headers):
                    message = {**message, "headers": headers + [(b"set-cookie", header)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)

"""The browser cookie: set on HTML pages only, kept when valid, HttpOnly/SameSite=Strict, Secure over HTTPS."""

import asyncio

from evallib.room.browser_cookie import (COOKIE, BrowserCookieMiddleware, browser_key, browser_key_from_header,
                                          new_cookie_value)


def _call(path="/", method="GET", content_type=b"text/html", headers=(), scheme="http"):
    sent = []

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", content_type)]})
        await send({"type": "http.response.body", "body": b""})

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": list(headers), "scheme": scheme}
    asyncio.run(BrowserCookieMiddleware(app)(scope, None, send))
    return [v.decode() for n, v in sent[0]["headers"] if n == b"set-cookie"]


def test_html_gets_a_new_http_only_strict_cookie():
    [header] = _call()
    assert header.startswith(COOKIE + "=") and "HttpOnly" in header and "SameSite=Strict" in header
    assert "Secure" not in header and "Max-Age=" in header


def test_a_valid_cookie_is_kept_and_secure_behind_https():
    value = new_cookie_value()
    [header] = _call(headers=[(b"cookie", f"a=1; {COOKIE}={value}".encode()), (b"x-forwarded-proto", b"https")])
    assert header.split(";")[0] == f"{COOKIE}={value}" and header.endswith("; Secure")


def test_a_forged_cookie_is_replaced_and_other_responses_untouched():
    [header] = _call(headers=[(b"cookie", f"{COOKIE}=short".encode())])
    assert header.split(";")[0] != f"{COOKIE}=short"
    assert _call(content_type=b"application/json") == [] and _call(method="POST") == []


def test_browser_key_hashes_only_valid_values():
    value = new_cookie_value()
    assert len(browser_key({COOKIE: value})) == 64 and browser_key({COOKIE: value}) != value
    assert browser_key({}) is None and browser_key({COOKIE: "x"}) is None


def test_a_planted_second_cookie_is_not_adopted():
    mine, planted = new_cookie_value(), "B" * 43
    headers = _call(path="/room/x", headers=[(b"cookie", f"{COOKIE}={planted}; {COOKIE}={mine}".encode())])
    *erased, fresh = headers
    assert erased == [f"{COOKIE}=; Path=/room; Max-Age=0", f"{COOKIE}=; Path=/room/x; Max-Age=0"]
    assert fresh.split(";")[0] not in (f"{COOKIE}={planted}", f"{COOKIE}={mine}")
    assert browser_key_from_header(f"{COOKIE}={planted}; {COOKIE}={mine}") is None
    assert browser_key_from_header(f"x=1; {COOKIE}={mine}") == browser_key({COOKIE: mine})

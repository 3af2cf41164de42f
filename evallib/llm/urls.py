"""Whether a typed base URL is one the SDKs can use, read with the standard library's URL parser.

A base URL is ``http://`` or ``https://``, a host, an optional port and path: the shapes users type
include credentials (``http://user:pass@host:4000/v1``, a proxy behind basic auth), an IPv6 host
(``http://[::1]:11434/v1``) and a query string. The check only refuses what no SDK could send a
request to; a URL it accepts may still lead nowhere, which the call itself then reports (with its
credentials redacted, `evallib.llm.redaction`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

#: The reading codes of `base_url_problem`, "" meaning none.
PROBLEMS = ("scheme", "host", "port", "spaces")


def base_url_problem(url: str) -> str:
    """What stops ``url`` from being a base URL: "scheme" (not http or https), "host" (none), "port"
    (not a number from 0 to 65535), "spaces" (blanks inside it), or "" when nothing does.

    >>> [base_url_problem(u) for u in ("http://localhost:11434/v1", "https://user:p%40ss@proxy.example:4000/v1",
    ...                                "http://[::1]:8000/v1", "localhost:11434", "http://", "http://h:99999",
    ...                                "http://h/a b")]
    ['', '', '', 'scheme', 'host', 'port', 'spaces']
    """
    text = url.strip()
    if any(char.isspace() for char in text):
        return "spaces"
    try:
        parts = urlsplit(text)
    except ValueError:  # an unbalanced "[" of an IPv6 host
        return "host"
    if parts.scheme.lower() not in ("http", "https"):
        return "scheme"
    if not parts.hostname:
        return "host"
    try:
        parts.port  # raises ValueError when not a number in range
    except ValueError:
        return "port"
    return ""

"""Which address a room's join link carries, and whether a browser opened the app at another one.

The join link is the Room page of this app with the code in the query string (``.../room?code=ACD3E7``),
built from the address the instructor's browser uses (its page URL, else the ``Host`` header), so that
it works on a laptop's LAN address without configuration; a loopback name in it (the instructor on
``localhost``) is replaced by the machine's network address, which the participants can reach.

A browser keeps its cookies per address (RFC 6265: a cookie is sent back to the host that set it), and
the membership of a room follows the cookie (`evallib.room.browsers`): a participant who joined through
the link at ``10.0.0.5:8501`` is a stranger to the same app opened at ``127.0.0.1:8501``.
`address_reading` says when the address a browser uses is not the one the link gives, so that the join
form can send that person to the right address instead of asking them to join again. Pure Python.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit, urlunsplit

from evallib.readings import Reading

PAGE_PATH = "room"


def join_url(page_url: str | None, host: str | None, code: str) -> str:
    """The Room page's URL carrying ``code``: from the page's URL (its last path segment made ``room``),
    else ``http://<host>/room``, else a relative ``/room?code=...``.

    >>> join_url("https://x.org/app/room", None, "ACD3E7")
    'https://x.org/app/room?code=ACD3E7'
    >>> join_url("http://10.0.0.5:8501/", None, "ACD3E7")
    'http://10.0.0.5:8501/room?code=ACD3E7'
    >>> join_url(None, "10.0.0.5:8501", "ACD3E7")
    'http://10.0.0.5:8501/room?code=ACD3E7'
    """
    query = urlencode({"code": code})
    if page_url:
        parts = urlsplit(page_url)
        segments = parts.path.rstrip("/").split("/") if parts.path.strip("/") else [""]
        if segments[-1] != PAGE_PATH:
            segments.append(PAGE_PATH)
        path = "/".join(segments)
        return urlunsplit((parts.scheme, parts.netloc, path if path.startswith("/") else "/" + path, query, ""))
    if host:
        return f"http://{host}/{PAGE_PATH}?{query}"
    return f"/{PAGE_PATH}?{query}"


#: Host names that only the machine itself reaches: a link with one is useless on a participant's laptop.
LOOPBACK = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def reachable_url(url: str, network_ip: str | None) -> tuple[str, str]:
    """(link, note): a link whose host is a `LOOPBACK` name gets the machine's ``network_ip`` instead (the
    address Streamlit prints as "Network URL"), port and path kept. ``note``: "" (the link as given),
    "network" (rewritten) or "loopback" (rewritten it could not be: no network address known).

    >>> reachable_url("http://localhost:8501/room?code=ACD3E7", "10.0.0.5")
    ('http://10.0.0.5:8501/room?code=ACD3E7', 'network')
    >>> reachable_url("http://10.0.0.5:8501/room?code=ACD3E7", "10.0.0.9")
    ('http://10.0.0.5:8501/room?code=ACD3E7', '')
    >>> reachable_url("http://127.0.0.1/room", None)
    ('http://127.0.0.1/room', 'loopback')
    """
    parts = urlsplit(url)
    if (parts.hostname or "") not in LOOPBACK:
        return url, ""
    if not network_ip:
        return url, "loopback"
    netloc = network_ip if parts.port is None else f"{network_ip}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), "network"


def address_reading(page_url: str | None, host: str | None, network_ip: str | None, code: str = "") -> Reading:
    """Whether the address this browser uses is the one the room's link gives (`join_url`, `reachable_url`).

    Args:
        page_url: the URL of the page this browser opened (Streamlit's ``st.context.url``), or None.
        host: the request's ``Host`` header, used when ``page_url`` is None.
        network_ip: the machine's network address (the one Streamlit prints as "Network URL"), or None.
        code: the room code the form holds ("" when none): kept in the link given back.

    Returns:
        ``same`` (values ``address``: host and port in use): the link carries this address, or none other is
        known (a relative link, a loopback name with no network address); ``other``: the link carries
        another one. Values: ``address`` (in use), ``joined`` (the link's host and port) and ``url``
        (the Room page at the link's address, with ``?code=`` when ``code`` is given).

    >>> address_reading("http://127.0.0.1:8501/room", None, "10.0.0.5").values["url"]
    'http://10.0.0.5:8501/room'
    >>> address_reading("http://10.0.0.5:8501/room", None, "10.0.0.5").code
    'same'
    """
    link, _ = reachable_url(join_url(page_url, host, code or "-"), network_ip)
    used = urlsplit(page_url).netloc if page_url else (host or "")
    joined = urlsplit(link)
    if not joined.netloc or joined.netloc == used:
        return Reading("same", {"address": used})
    url = urlunsplit((joined.scheme, joined.netloc, joined.path, urlencode({"code": code}) if code else "", ""))
    return Reading("other", {"address": used, "joined": joined.netloc, "url": url})

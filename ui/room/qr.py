"""The join link of a room and its QR code, for the projector.

The link is the Room page of this app with the code in the query string (``.../room?code=ACD3E7``),
built from the address the instructor's browser uses (``st.context.url``), or from the ``Host``
header, so that it works on a laptop's LAN address without configuration. The QR code is made by
segno (pure Python) as a PNG: error correction M, the standard quiet zone of four modules
(ISO/IEC 18004), and modules of a whole number of pixels, as large as fit in `SHOWN_WIDTH` pixels
(a version-3 code, 29 modules + the quiet zone, gets 10 px modules: several centimetres each on a
projector, which phones read from the back of a room). The page shows the PNG at its own width, so
that Streamlit neither rescales nor re-encodes it: sharp module edges, no JPEG blur.
"""

from __future__ import annotations

import io
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno

PAGE_PATH = "room"
#: Fewest pixels per module, for a long link whose code has many modules.
MIN_SCALE = 4
#: The quiet zone, in modules, that ISO/IEC 18004 asks for around a QR code.
BORDER = 4
#: Widest the QR code is drawn, in pixels (quiet zone included).
SHOWN_WIDTH = 400


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


def qr_png(text: str, max_width: int = SHOWN_WIDTH) -> tuple[bytes, int]:
    """(PNG, its width in pixels) of the QR code of ``text``: error correction M, `BORDER` modules of
    quiet zone, the largest whole number of pixels per module that fits ``max_width`` (`MIN_SCALE` at least)."""
    code = segno.make(text, error="m", micro=False)
    modules = code.symbol_size(scale=1, border=BORDER)[0]
    scale = max(MIN_SCALE, max_width // modules)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=BORDER)
    return buffer.getvalue(), modules * scale

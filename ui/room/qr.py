"""The join link of a room and its QR code, for the projector.

The link is the Room page of this app with the code in the query string (``.../room?code=ACD3E7``),
built from the address the instructor's browser uses (``st.context.url``), or from the ``Host``
header, so that it works on a laptop's LAN address without configuration. The QR code is made by
segno (pure Python) as a PNG: error correction M, modules of `SCALE` pixels and the standard quiet
zone of four modules, shown `SHOWN_WIDTH` pixels wide: a version-3 code (29 modules) is then about
11 px a module on the screen, several centimetres across on a projector, which phones read from the
back of a room.
"""

from __future__ import annotations

import io
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno

PAGE_PATH = "room"
#: Pixels per module in the PNG (scaled down by the browser to `SHOWN_WIDTH`, never up: crisp edges).
SCALE = 16
#: The quiet zone, in modules, that ISO/IEC 18004 asks for around a QR code.
BORDER = 4
SHOWN_WIDTH = 420


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


def qr_png(text: str) -> bytes:
    """A PNG of the QR code of ``text`` (error correction M, `SCALE` px modules, `BORDER` modules of quiet zone)."""
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buffer, kind="png", scale=SCALE, border=BORDER)
    return buffer.getvalue()

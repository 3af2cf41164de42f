"""The QR code of a room's join link (`evallib.room.addresses.join_url`), for the projector, and the
machine's network address that the link carries.

The QR code is made by segno (pure Python) as a PNG: error correction M, the
standard quiet zone of four modules (ISO/IEC 18004), and modules of a whole number of pixels, as large
as fit in `SHOWN_WIDTH` pixels (a version-3 code, 29 modules + the quiet zone, gets 10 px modules:
several centimetres each on a projector, which phones read from the back of a room). The page shows the PNG at its own width, so
that Streamlit neither rescales nor re-encodes it: sharp module edges, no JPEG blur.
"""

from __future__ import annotations

import io

import segno

#: Fewest pixels per module, for a long link whose code has many modules.
MIN_SCALE = 4
#: The quiet zone, in modules, that ISO/IEC 18004 asks for around a QR code.
BORDER = 4
#: Widest the QR code is drawn, in pixels (quiet zone included).
SHOWN_WIDTH = 400


def qr_png(text: str, max_width: int = SHOWN_WIDTH) -> tuple[bytes, int]:
    """(PNG, its width in pixels) of the QR code of ``text``: error correction M, `BORDER` modules of
    quiet zone, the largest whole number of pixels per module that fits ``max_width`` (`MIN_SCALE` at least)."""
    code = segno.make(text, error="m", micro=False)
    modules = code.symbol_size(scale=1, border=BORDER)[0]
    scale = max(MIN_SCALE, max_width // modules)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=BORDER)
    return buffer.getvalue(), modules * scale


def network_ip() -> str | None:
    """This machine's address on its network, as Streamlit prints it at start ("Network URL"), or None."""
    from streamlit import net_util  # Streamlit's own helper: the address it prints

    try:
        return net_util.get_internal_ip()
    except Exception:  # noqa: BLE001 - no network address is a note on the page, never an error
        return None

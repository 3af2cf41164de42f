"""The room's join link and its QR code (pure helpers of ui/room)."""

import struct

import pytest
import segno

from evallib.room.addresses import join_url
from ui.room.qr import BORDER, SHOWN_WIDTH, qr_png


@pytest.mark.parametrize("page_url, host, expected", [
    ("https://x.org/app/room", None, "https://x.org/app/room?code=ACD3E7"),
    ("http://10.0.0.5:8501/room/", None, "http://10.0.0.5:8501/room?code=ACD3E7"),
    ("http://10.0.0.5:8501/", None, "http://10.0.0.5:8501/room?code=ACD3E7"),
    ("http://10.0.0.5:8501", None, "http://10.0.0.5:8501/room?code=ACD3E7"),
    (None, "10.0.0.5:8501", "http://10.0.0.5:8501/room?code=ACD3E7"),
    (None, None, "/room?code=ACD3E7"),
])
def test_the_join_link_is_the_room_page_with_the_code(page_url, host, expected):
    assert join_url(page_url, host, "ACD3E7") == expected


def test_the_qr_code_is_a_png_of_the_link_with_large_modules_and_a_quiet_zone():
    url = "http://192.168.1.20:8501/room?code=ACD3E7"
    png, shown = qr_png(url)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    modules = segno.make(url, error="m", micro=False).symbol_size(scale=1, border=0)[0]
    assert modules == 29  # version 3
    assert width == height == shown == (modules + 2 * BORDER) * 10 <= SHOWN_WIDTH  # 10 px modules
    long_png, long_width = qr_png(url + "&x=" + "y" * 300)
    assert struct.unpack(">I", long_png[16:20])[0] == long_width  # many modules: smaller, whole pixels still


def test_the_board_refreshes_every_three_seconds_unless_told_otherwise(monkeypatch):
    import streamlit as st

    from ui.room.board import REFRESH_KEY, REFRESH_VARIABLE, refresh_seconds

    monkeypatch.delenv(REFRESH_VARIABLE, raising=False)
    assert refresh_seconds() == 3.0
    for value, expected in (("10", 10.0), ("0.5", 0.5), ("soon", 3.0), ("-2", 3.0)):
        monkeypatch.setenv(REFRESH_VARIABLE, value)
        assert refresh_seconds() == expected
    st.session_state[REFRESH_KEY] = 5
    try:
        assert refresh_seconds() == 5.0  # the page's choice wins
    finally:
        del st.session_state[REFRESH_KEY]

"""The join form of the Room page says when this browser opened the app at another address than the
room's link gives (its membership, which follows the cookie, may be there), in French and English.

AppTest has no request behind its runs: the page's address and the machine's network address are
patched (`ui.room.join.page_address`, `ui.room.join.network_ip`), as a browser and a machine would give them.
"""

from __future__ import annotations

import pytest

from tests.pages.test_room_page import TOKEN, _page, _store, _text
from tests.pages.test_room_page import room_url  # noqa: F401 (fixture)
from ui.labels import md


@pytest.fixture
def at_address(monkeypatch):
    def use(page_url: str, network_ip: str | None = "10.0.0.5") -> None:
        monkeypatch.setattr("ui.room.join.page_address", lambda: (page_url, None))
        monkeypatch.setattr("ui.room.join.network_ip", lambda: network_ip)
    return use


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_browser_on_the_loopback_address_is_told_where_it_may_have_joined(room_url, at_address, lang):
    code = _store(room_url).open_room(TOKEN, "Atelier").code
    at_address("http://127.0.0.1:8501/room")
    at = _page(lang, **{"room.join_code": code})
    expected = _text("room.join.other_address", lang, address=md("127.0.0.1:8501", None),
                     url=md(f"http://10.0.0.5:8501/room?code={code}", None))
    assert [i.value for i in at.info if "8501" in i.value] == [expected]
    assert md("10.0.0.5", None) in expected and md("127.0.0.1", None) in expected  # both addresses shown


@pytest.mark.parametrize("page_url, network_ip", [("http://10.0.0.5:8501/room", "10.0.0.5"),
                                                  ("http://127.0.0.1:8501/room", None)])
def test_the_address_of_the_link_or_no_other_known_asks_only_to_join(room_url, at_address, page_url, network_ip):
    at_address(page_url, network_ip)
    at = _page("en")
    assert at.subheader[0].value == _text("room.join.title")
    assert not [i for i in at.info if "8501" in i.value]

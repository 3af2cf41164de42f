"""The join link's address (evallib.room.addresses): each reading of `address_reading`, and the link itself."""

import pytest

from evallib.room.addresses import address_reading, join_url, reachable_url


def test_a_browser_on_the_loopback_name_is_sent_to_the_address_the_link_carries():
    reading = address_reading("http://127.0.0.1:8501/room", None, "10.0.0.5", "ACD3E7")
    assert reading.code == "other"
    assert reading.values == {"address": "127.0.0.1:8501", "joined": "10.0.0.5:8501",
                              "url": "http://10.0.0.5:8501/room?code=ACD3E7"}
    assert reading.values["url"] == reachable_url(join_url("http://127.0.0.1:8501/", None, "ACD3E7"), "10.0.0.5")[0]


@pytest.mark.parametrize("page_url", ["http://localhost:8501/", "http://localhost:8501/room"])
def test_localhost_is_another_address_and_no_code_means_a_bare_room_page(page_url):
    reading = address_reading(page_url, None, "10.0.0.5")
    assert (reading.code, reading.values["url"], reading.values["address"]) == \
        ("other", "http://10.0.0.5:8501/room", "localhost:8501")


def test_the_host_header_stands_in_for_a_missing_page_url():
    assert address_reading(None, "127.0.0.1:8501", "10.0.0.5").values["joined"] == "10.0.0.5:8501"
    assert address_reading(None, "10.0.0.5:8501", "10.0.0.5").code == "same"


@pytest.mark.parametrize("page_url, host, network_ip", [
    ("http://10.0.0.5:8501/room", None, "10.0.0.5"),        # the address the link gives
    ("http://10.0.0.5:8501/room", None, "10.0.0.9"),        # a network address is never rewritten
    ("https://atelier.example.org/app/room", None, "10.0.0.5"),  # a name behind a proxy
    ("http://127.0.0.1:8501/room", None, None),             # no network address known: nowhere else to send
    (None, None, "10.0.0.5"),                               # no request behind the run (AppTest)
])
def test_the_same_address_or_none_other_known_gives_no_other_address(page_url, host, network_ip):
    reading = address_reading(page_url, host, network_ip, "ACD3E7")
    assert reading.code == "same" and set(reading.values) == {"address"}

"""The board's heartbeat and watching script (ui/room/liveness.py): what each refresh puts in the page.
The script's behaviour itself is tested in Chromium (tests/test_browser_board_liveness.py)."""

from __future__ import annotations

import json
import re

import pytest
import streamlit as st

from ui.i18n import LANGUAGE_KEY, catalogue
from ui.room import liveness


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def _config(markup: str) -> dict:
    found = re.search(r"\}\)\((\{.*\})\);\s*</script>$", markup, re.S)
    assert found, markup[-300:]
    return json.loads(found.group(1))


def test_each_refresh_leaves_its_time_period_and_a_changing_beat(lang):
    first, second = liveness.markup(2, "10:11:12", 1.5), liveness.markup(2, "10:11:15", 4.5)
    beat = re.compile(r'<div class="evallib-liveness-beat" hidden data-beat="([\d.]+)" '
                      r'data-time="10:11:1\d" data-period="2"></div>')
    assert beat.match(first).group(1) != beat.match(second).group(1)
    assert first.count("<script>") == 1 and first.endswith("</script>")


def test_the_banner_texts_are_the_sessions_language_with_the_time_left_to_the_script(lang):
    config = _config(liveness.markup(3, "08:00:00", 1.0))
    assert config["health"] == "/_stcore/health"
    for name in liveness.TEXTS:
        assert config["texts"][name] == catalogue()[f"room.live.{name}"][lang]
        assert "{time}" in config["texts"][name]


def test_no_text_can_close_the_script_element():
    hostile = {"texts": {"down": "</script><img src=x onerror=alert(1)> & \u2028"}}
    literal = liveness.script_json(hostile)
    assert "<" not in literal and ">" not in literal and "&" not in literal and "\u2028" not in literal
    assert json.loads(literal) == hostile


def test_the_health_check_follows_the_base_path(monkeypatch):
    monkeypatch.setattr(st, "get_option", lambda name: "/workshop/" if name == "server.baseUrlPath" else None)
    assert liveness.health_path() == "/workshop/_stcore/health"

"""The real-station readings as the GNSS page words them (ui/gnss/station.py), on KKN4 (Gorkha 2015, east):
a one-day gap is "1 jour" / "1 day" (before: "1 jours", "1 days"), and the agents whose velocity the jump
dominates are joined by "et" / "and" (before: "de v1, v2")."""

from pathlib import Path

import pytest
import streamlit as st

from evallib.gnss.readers import read_series
from evallib.gnss.station import estimate_station
from ui.gnss.station import station_sentence
from ui.i18n import LANGUAGE_KEY, integer

KKN4 = Path(__file__).resolve().parents[1] / "data" / "gnss" / "real" / "KKN4.gorkha2015.neu"
WORDS = {"fr": ("jour", "jours", "et"), "en": ("day", "days", "and")}


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def test_gap_days_agree_in_number_and_agents_are_joined_by_and(lang):
    one, other, conjunction = WORDS[lang]
    readings = {r.code: r for r in estimate_station(read_series(KKN4, "east")).readings}
    gap = readings["agents_gaps"]
    days = gap.values["longest_gap_days"]
    assert days == 1  # the file's longest gap: one day without data
    shown = station_sentence(gap)
    assert f"({integer(days)} {one}," in shown and f"{integer(days)} {other}" not in shown, shown
    absorbed = readings["jump_in_margin_absorbed"]
    assert absorbed.values["agents"] == "v1, v2"
    assert f"v1 {conjunction} v2" in station_sentence(absorbed)
    many = type(gap)("agents_gaps", {**gap.values, "longest_gap_days": 50})
    assert f"(50 {other}," in station_sentence(many)

"""Each session's board period (`ui.room.board.session_period`): the chosen one times a factor of its own,
so that thirty timers started together (browsers reconnecting after a restart) drift out of step."""

from __future__ import annotations

import random

import pytest
import streamlit as st

from ui.room import board


@pytest.fixture
def sessions(monkeypatch):
    """A function giving the period of a new session (its factor drawn afresh), the draws seeded."""
    monkeypatch.setattr(board, "random", random.Random(20))

    def new_session(every: float) -> float:
        st.session_state.pop(board.SPREAD_KEY, None)
        return board.session_period(every)

    yield new_session
    st.session_state.pop(board.SPREAD_KEY, None)


def test_a_session_keeps_its_period_within_ten_percent_of_the_chosen_one(sessions):
    first = sessions(3.0)
    assert 2.7 <= first <= 3.3
    assert [board.session_period(3.0) for _ in range(3)] == [first] * 3  # drawn once: the timer is not restarted
    assert board.session_period(10.0) == pytest.approx(first / 3 * 10, abs=0.01)  # the same factor for another choice


def test_thirty_timers_started_together_no_longer_fire_together(sessions):
    periods = [sessions(3.0) for _ in range(30)]
    assert min(periods) < 2.85 and max(periods) > 3.15  # spread over the range, not one value

    def busiest(start: float, end: float, window: float = 0.1) -> int:
        """The most refreshes any ``window`` seconds hold between ``start`` and ``end`` (every timer from 0)."""
        fired = sorted(k * p for p in periods for k in range(1, int(end / min(periods)) + 1) if start <= k * p < end)
        return max(sum(1 for t in fired[i:] if t < f + window) for i, f in enumerate(fired))

    assert busiest(2.5, 3.5) > 3  # the first refreshes are still close together
    assert busiest(20, 30) <= 6  # ten periods later, at most six of thirty in any tenth of a second

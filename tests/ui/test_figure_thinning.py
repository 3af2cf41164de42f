"""The station figure draws at most a few thousand points but keeps every jump and outlier visible."""

import numpy as np

from ui.figures import extremes_per_bucket


def test_short_series_are_drawn_in_full():
    assert extremes_per_bucket(np.arange(10.0), 4000).tolist() == list(range(10))


def test_long_series_keep_the_lowest_and_highest_of_each_bucket():
    rng = np.random.default_rng(0)
    values = rng.normal(0, 1, 240_000)
    values[123_457] = 50.0   # an outlier
    values[200_001] = -50.0
    shown = extremes_per_bucket(values, 4000)
    assert len(shown) <= 4000 and np.all(np.diff(shown) > 0)
    assert 123_457 in shown and 200_001 in shown
    assert shown[0] < 240_000 / 2000 and shown[-1] >= 240_000 - 240_000 / 2000  # both ends are covered

"""A regular daily CSV is read in one pass by pandas; the result must be the line-by-line reader's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from evallib.gnss import readers
from evallib.gnss.readers import GnssFileError, read_csv_series


def line_by_line(monkeypatch, text):
    with monkeypatch.context() as patch:
        patch.setattr(readers, "_csv_columns", lambda *args: None)
        return read_csv_series(text)


def daily(n=400, start="2001-03-01", shuffle=False, seed=0):
    rng = np.random.default_rng(seed)
    days = pd.date_range(start, periods=n, freq="D").strftime("%Y-%m-%d").tolist()
    values = np.round(np.cumsum(rng.normal(0, 1, n)), 4)
    lines = [f"{d},{v}" for d, v in zip(days, values)]
    if shuffle:
        lines = [lines[i] for i in rng.permutation(n)]
    return lines


@pytest.mark.parametrize("text", [
    "date,disp_mm\n" + "\n".join(daily()) + "\n",
    "date,disp_mm\n" + "\n".join(daily(shuffle=True) + daily(20)) + "\n",         # unsorted, duplicated days
    "disp_mm,date\n" + "\n".join(",".join(reversed(x.split(","))) for x in daily()) + "\n",  # value first
    "date,east,disp_mm\n" + "\n".join(f"{x.split(',')[0]}T12:00:00,1.0,{x.split(',')[1]}" for x in daily()) + "\n",
    "date , disp_mm\r\n" + "\r\n".join(daily(30)) + "\r\n\r\n",
])
def test_the_one_pass_reader_gives_the_line_by_line_series(monkeypatch, text):
    assert readers._csv_columns(text, *_positions(text)) is not None  # the fast reader took it
    fast, slow = read_csv_series(text), line_by_line(monkeypatch, text)
    pd.testing.assert_frame_equal(fast.observed, slow.observed)
    assert (fast.component, fast.duplicates_dropped, fast.was_unsorted, fast.gaps) == \
        (slow.component, slow.duplicates_dropped, slow.was_unsorted, slow.gaps)


def _positions(text):
    names = [n.strip() for n in text.splitlines()[0].split(",")]
    return [n.lower() for n in names].index("date"), names.index("disp_mm")


@pytest.mark.parametrize(("text", "code", "line"), [
    ("date,disp_mm\n" + "\n".join(daily(12)) + "\n2002-13-01,1.0\n", "bad_value", 14),
    ("date,disp_mm\n" + "\n".join(daily(12)) + "\n2002-01-01,inf\n", "bad_value", 14),
    ("date,disp_mm\n" + "\n".join(daily(12)) + "\n2002-01-01,abc\n", "bad_value", 14),
    ("date,disp_mm\n" + "\n".join(daily(12)) + "\n2002-01-01\n", "bad_line", 14),
])
def test_a_bad_line_is_still_named_by_the_line_by_line_reader(text, code, line):
    with pytest.raises(GnssFileError) as error:
        read_csv_series(text)
    assert error.value.code == code and error.value.details["line"] == line

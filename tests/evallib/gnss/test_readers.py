from pathlib import Path

import numpy as np
import pytest

from evallib.errors import InputError
from evallib.gnss.readers import (GnssFileError, read_csv_series, read_neu, read_pos, read_series, read_tenv3,
                                  station_readings)

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "gnss"


def codes(series):
    return {r.code: r.values for r in station_readings(series)}


def test_tenv3_adds_integer_and_fractional_metres_and_repairs_the_layout():
    east = read_series(DATA / "STA1.tenv3", "east")
    # 385.999 -> 386.000 is +1 mm, not -999 mm: the integer part is always added
    assert np.allclose(np.diff(east.observed["disp_mm"]), 1.0)
    assert east.station == "STA1" and len(east.observed) == 14
    assert east.duplicates_dropped == 1 and east.was_unsorted and east.gaps == 3
    assert east.observed["date"].is_monotonic_increasing
    assert east.observed["date"].iloc[0].isoformat()[:10] == "1995-10-10"
    up = read_series(DATA / "STA1.tenv3", "up")
    assert up.observed["disp_mm"].iloc[-1] == pytest.approx(20.0)
    assert [d.isoformat() for d in up.equipment_changes] == ["1995-10-18"]
    assert set(codes(up)) == {"rows_unsorted", "duplicates_dropped", "gaps", "equipment_changes", "large_jump",
                              "record_too_short_for_velocity"}
    assert codes(up)["large_jump"] == {"date": "1995-10-18", "size_mm": pytest.approx(20.0), "sigmas": None}
    north = read_series(DATA / "STA1.tenv3", "north")
    assert north.observed["disp_mm"].iloc[1] == pytest.approx(-0.5)


def test_a_regular_series_read_from_metres_has_no_scatter_to_count_sigmas_in():
    """Rounding leaves changes of about 1e-11 mm: their sigma is zero, not the unit of a 1 mm jump."""
    east = read_series(DATA / "STA1.tenv3", "east")
    assert codes(east)["large_jump"] == {"date": "1995-10-23", "size_mm": pytest.approx(1.0), "sigmas": None}


def test_pos_reads_dn_de_du_in_metres():
    east = read_series(DATA / "STA2.pos", "east")
    assert east.station == "STA2" and east.gaps == 2
    step = east.observed["disp_mm"].iloc[7] - east.observed["disp_mm"].iloc[6]
    assert step == pytest.approx(1198.0)  # metre-scale
    assert read_series(DATA / "STA2.pos", "north").observed["disp_mm"].iloc[-1] == pytest.approx(11.0)


def test_neu_orders_north_east_up_and_keeps_a_metre_scale_offset():
    north = read_series(DATA / "STA3.neu", "north")
    assert north.station == "STA3" and north.gaps == 1
    assert north.observed["disp_mm"].iloc[7] == pytest.approx(-1829.3)
    jump = codes(north)["large_jump"]
    assert jump["date"] == "2015-04-18" and jump["size_mm"] == pytest.approx(-1829.9)
    assert read_series(DATA / "STA3.neu", "east").observed["disp_mm"].iloc[-1] == pytest.approx(2.2)
    assert read_series(DATA / "STA3.neu", "up").observed["disp_mm"].iloc[-1] == pytest.approx(1270.0)


def test_csv_in_millimetres():
    series = read_series(DATA / "STA4.csv")
    assert series.observed["disp_mm"].iloc[-1] == pytest.approx(16.5) and series.gaps == 0
    assert codes(series) == {"record_too_short_for_velocity": {"years": pytest.approx(11 / 365.25), "min_years": 2.5}}


def lines(path):
    return (DATA / path).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("reader, text, line, expected", [
    (read_tenv3, "\n".join(lines("STA1.tenv3")[:4] + ["STA1 95OCT20 1995.8 50010 901"]), 5, "columns"),
    (read_tenv3, "\n".join(lines("STA1.tenv3")[:3] + [lines("STA1.tenv3")[3].replace(" 385 ", " abc ")]), 4, "metres"),
    (read_tenv3, "\n".join(lines("STA1.tenv3")[1:]), 1, "site YYMMMDD"),
    (read_pos, "\n".join(lines("STA2.pos")[:16] + [" 2010011 120000 55210.5"]), 17, "columns"),
    (read_pos, "\n".join(lines("STA2.pos")[:13] + [lines("STA2.pos")[14].replace("20100102", "2010-01-02")]), 14,
     "YYYYMMDD"),
    (read_pos, "no header here\n 20100101 1 2", 1, "*YYYYMMDD"),
    (read_neu, "# h\n 2015.2 2015 100 0.1 0.2", 2, "decyr yr doy N E U"),
    (read_neu, "# h\n 2015.2 2015 400 0.1 0.2 0.3", 2, "day of year"),
    (read_neu, "# h\n 2015.2 2015 100 0.1 nan 0.3", 2, "east in metres"),
    (read_csv_series, "date,disp_mm\n2020-01-01,1\n2020-01-02,oops\n", 3, "displacement in mm"),
    (read_csv_series, "date,disp_mm\n2020-13-01,1\n", 2, "ISO date"),
    (read_csv_series, "time,disp_mm\n2020-01-01,1\n", 1, "date"),
    (read_csv_series, "date,a,b\n2020-01-01,1,2\n", 1, "disp_mm"),
])
def test_bad_files_name_the_line_and_what_was_expected(reader, text, line, expected):
    with pytest.raises(GnssFileError) as caught:
        reader(text, "east") if reader is not read_csv_series else reader(text)
    assert caught.value.details["line"] == line
    assert f"line {line}:" in str(caught.value) and expected in str(caught.value)
    assert isinstance(caught.value, InputError)


def test_too_few_days_empty_and_unknown_inputs(tmp_path):
    with pytest.raises(GnssFileError, match="distinct days") as caught:
        read_csv_series("date,disp_mm\n2020-01-01,1\n2020-01-01,2\n")
    assert caught.value.code == "too_few_rows"
    with pytest.raises(GnssFileError, match="no data line"):
        read_neu("# only comments\n")
    with pytest.raises(GnssFileError, match="unknown component"):
        read_neu("", "vertical")
    odd = tmp_path / "a.txt"
    odd.write_text("x")
    with pytest.raises(GnssFileError, match="unknown format") as caught:
        read_series(odd)
    assert caught.value.code == "unknown_format"


def test_a_noisy_series_has_a_large_jump_only_with_a_step():
    noise = np.random.default_rng(3).normal(0, 2, 28)

    def csv_text(step_mm):
        return "date,disp_mm\n" + "\n".join(f"2020-01-{d:02d},{v + (step_mm if d >= 20 else 0):.3f}"
                                             for d, v in zip(range(1, 29), noise))
    assert "large_jump" not in codes(read_csv_series(csv_text(0)))
    jump = codes(read_csv_series(csv_text(1000)))["large_jump"]
    assert jump["date"] == "2020-01-20" and jump["size_mm"] == pytest.approx(1000, abs=10) and jump["sigmas"] > 10


def test_read_text_dispatches_on_the_name_and_equals_read_series():
    from evallib.gnss.readers import read_text
    for name in ("STA1.tenv3", "STA2.pos", "STA3.neu", "STA4.csv"):
        by_path = read_series(DATA / name, "north")
        by_text = read_text((DATA / name).read_text(encoding="utf-8"), name, "north")
        assert by_text.observed.equals(by_path.observed) and by_text.station == by_path.station
    with pytest.raises(GnssFileError) as caught:
        read_text("x", "notes.txt")
    assert caught.value.code == "unknown_format" and caught.value.details["format"] == "txt"


def test_a_spreadsheet_csv_with_semicolons_and_decimal_commas_reads_as_the_comma_file():
    """A French spreadsheet exports `date;disp_mm` and `7,5`: read as the kappa page reads ratings."""
    comma = read_series(DATA / "STA4.csv")
    text = (DATA / "STA4.csv").read_text(encoding="utf-8")
    french = read_csv_series(text.replace(",", ";").replace(".", ","))
    np.testing.assert_allclose(french.observed["disp_mm"], comma.observed["disp_mm"])
    assert list(french.observed["date"]) == list(comma.observed["date"])
    tabs = read_csv_series(text.replace(",", "\t"))
    np.testing.assert_allclose(tabs.observed["disp_mm"], comma.observed["disp_mm"])


def test_a_csv_that_two_separators_read_alike_is_refused_not_guessed():
    rows = "".join(f"2020-01-{d:02d};1,{d}\n" for d in range(1, 13))
    with pytest.raises(GnssFileError) as caught:
        read_csv_series("date;disp,mm\n" + rows)
    assert caught.value.code == "csv_ambiguous" and set(caught.value.details["separators"]) == {",", ";"}


def test_the_ratings_and_station_readers_share_one_separator_sniffer():
    from evallib.agreement import csv_input
    from evallib.delimited import choose_delimiter
    from evallib.gnss import readers
    assert csv_input.choose_delimiter is choose_delimiter is readers.choose_delimiter

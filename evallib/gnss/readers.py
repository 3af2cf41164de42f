"""Readers of real daily GNSS position files, one displacement component in mm.

Formats (docs/gnss.md#stations):

- CSV: a header with a ``date`` column (ISO dates) and one displacement column in mm (``disp_mm`` or
  the only other column, or the one named by ``column``); ``,``, ``;`` or tab between cells and decimal
  commas, as `evallib.delimited` reads them;
- Nevada Geodetic Laboratory ``.tenv3``: a header line starting ``site YYMMMDD``, one epoch a line;
  east = ``_e0(m)`` + ``__east(m)``, north = ``____n0(m)`` + ``_north(m)``, up = ``u0(m)`` + ``____up(m)``
  (integer + fractional metres, always added); dates from ``__MJD``; antenna height ``_ant(m)``;
- EarthScope/PBO ``.pos``: free header, then a column line ``*YYYYMMDD HHMMSS ... dN dE dU ...``, metres;
- SIO ``.neu``: ``#`` comments, then ``decyr yr doy N E U sN sE sU``, metres.

Real files have gaps, unsorted rows, duplicated days, equipment changes and metre-scale offsets: rows
are sorted by date, a duplicated day keeps its first row (the count is reported), gaps stay gaps (the
agents use the dates), antenna-height changes of ``.tenv3`` are reported as equipment changes, and the
values are kept in full (a metre-scale offset is data, not an error). Displacements are relative to the
first epoch after sorting. A bad file raises a `GnssFileError` whose message names the line and what
was expected there.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from evallib.delimited import DELIMITERS, choose_delimiter, decimal_number
from evallib.errors import InputError
from evallib.readings import Reading

COMPONENTS = ("east", "north", "up")
FORMATS = ("csv", "tenv3", "pos", "neu")
MJD_EPOCH = date(1858, 11, 17)
#: A series needs at least this many distinct days to be fitted (trend + 2 seasonal pairs + a step).
MIN_DAYS = 10
_TENV3_COLUMNS = {"east": ("_e0(m)", "__east(m)"), "north": ("____n0(m)", "_north(m)"), "up": ("u0(m)", "____up(m)")}
_POS_COLUMNS = {"east": "dE", "north": "dN", "up": "dU"}
_NEU_COLUMNS = {"north": 3, "east": 4, "up": 5}


class GnssFileError(InputError):
    """A file that cannot be read as the chosen format. ``details`` hold ``line`` (1-based, when one
    line is at fault) and ``expected`` (what that line should hold)."""


@dataclass(frozen=True)
class StationSeries:
    """A component read from a file.

    Attributes:
        observed: columns ``date`` (datetime64) and ``disp_mm`` (float), sorted, one row per day.
        station, component, file_format: what was read.
        duplicates_dropped: rows dropped because their day was already present.
        was_unsorted: True when the rows were not in date order in the file.
        gaps: number of missing days between the first and the last date.
        equipment_changes: dates where the antenna height changed (``.tenv3`` only).
    """

    observed: pd.DataFrame
    station: str
    component: str
    file_format: str
    duplicates_dropped: int = 0
    was_unsorted: bool = False
    gaps: int = 0
    equipment_changes: tuple[date, ...] = field(default=())


def _error(code: str, message: str, line: int | None = None, expected: str = "") -> GnssFileError:
    where = f"line {line}: " if line is not None else ""
    return GnssFileError(code, f"{where}{message}" + (f" (expected {expected})" if expected else ""),
                         line=line, expected=expected)


def _float(token: str, line: int, expected: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise _error("bad_value", f"{token!r} is not a number", line, expected) from None
    if not np.isfinite(value):
        raise _error("bad_value", f"{token!r} is not a finite number", line, expected)
    return value


def _finish(rows: list[tuple[date, float, float | None]] | pd.DataFrame, station: str, component: str,
            file_format: str) -> StationSeries:
    """Sort, drop duplicated days, count gaps, detect antenna changes and build the series.

    ``rows``: (day, value in metres, antenna height or None) tuples, or a frame with those columns
    ``date``, ``value``, ``antenna`` (the vectorised readers)."""
    if not len(rows):
        raise _error("empty", "no data line found", expected="at least one epoch")
    frame = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(rows, columns=["date", "value", "antenna"])
    frame["date"] = pd.to_datetime(frame["date"])
    was_unsorted = bool((np.diff(frame["date"].to_numpy()) < np.timedelta64(0)).any())
    frame = frame.sort_values("date", kind="stable")
    unique = frame.drop_duplicates("date", keep="first")
    if len(unique) < MIN_DAYS:
        raise _error("too_few_rows", f"only {len(unique)} distinct days", expected=f"at least {MIN_DAYS}")
    span = (unique["date"].iloc[-1] - unique["date"].iloc[0]).days + 1
    antenna = unique["antenna"].to_numpy(dtype=float)
    changed = np.flatnonzero(np.diff(antenna) != 0) + 1 if not np.isnan(antenna).all() else np.zeros(0, int)
    values = unique["value"].to_numpy(dtype=float)
    observed = pd.DataFrame({"date": unique["date"].to_numpy(), "disp_mm": (values - values[0]) * 1000.0})
    return StationSeries(observed, station, component, file_format, len(frame) - len(unique), was_unsorted,
                         span - len(unique), tuple(unique["date"].iloc[i].date() for i in changed))


def _check_component(component: str) -> None:
    if component not in COMPONENTS:
        raise GnssFileError("bad_component", f"unknown component {component!r}; choose one of {COMPONENTS}",
                            component=component)


def read_tenv3(text: str, component: str = "up") -> StationSeries:
    """Read an NGL ``.tenv3`` text; ``component`` is "east", "north" or "up"."""
    _check_component(component)
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.split()[:2] == ["site", "YYMMMDD"]), None)
    if header_at is None:
        raise _error("no_header", "no header line found", 1, "a line starting 'site YYMMMDD yyyy.yyyy __MJD'")
    names = lines[header_at].split()
    wanted = (*_TENV3_COLUMNS[component], "__MJD")
    missing = [n for n in wanted if n not in names]
    if missing:
        raise _error("unknown_column", f"header lacks {', '.join(missing)}", header_at + 1,
                     "the NGL tenv3 column names")
    whole, fraction, mjd = (names.index(n) for n in wanted)
    antenna = names.index("_ant(m)") if "_ant(m)" in names else None
    rows, station = [], ""
    for number, line in enumerate(lines[header_at + 1:], start=header_at + 2):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) < len(names):
            raise _error("bad_line", f"{len(tokens)} columns", number, f"{len(names)} columns as in the header")
        station = tokens[0]
        day = MJD_EPOCH + timedelta(days=int(_float(tokens[mjd], number, "an MJD in column __MJD")))
        value = _float(tokens[whole], number, "metres") + _float(tokens[fraction], number, "metres")
        ant = _float(tokens[antenna], number, "metres") if antenna is not None else None
        rows.append((day, value, ant))
    return _finish(rows, station, component, "tenv3")


def read_pos(text: str, component: str = "up") -> StationSeries:
    """Read an EarthScope/PBO ``.pos`` text (dN dE dU in metres, dates from YYYYMMDD)."""
    _check_component(component)
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.lstrip().startswith("*YYYYMMDD")), None)
    if header_at is None:
        raise _error("no_header", "no column line found", 1, "a line starting '*YYYYMMDD HHMMSS'")
    names = lines[header_at].lstrip().lstrip("*").split()
    if _POS_COLUMNS[component] not in names:
        raise _error("unknown_column", f"column line lacks {_POS_COLUMNS[component]}", header_at + 1,
                     "the PBO columns dN dE dU")
    column = names.index(_POS_COLUMNS[component])
    station = next((line.split(":", 1)[1].split()[0] for line in lines[:header_at]
                    if line.startswith("4-character ID") and ":" in line), "")
    rows = []
    for number, line in enumerate(lines[header_at + 1:], start=header_at + 2):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) <= column:
            raise _error("bad_line", f"{len(tokens)} columns", number, f"at least {column + 1} columns")
        try:
            day = datetime.strptime(tokens[0], "%Y%m%d").date()
        except ValueError:
            raise _error("bad_value", f"{tokens[0]!r} is not a date", number, "YYYYMMDD") from None
        rows.append((day, _float(tokens[column], number, f"{_POS_COLUMNS[component]} in metres"), None))
    return _finish(rows, station, component, "pos")


def read_neu(text: str, component: str = "up", station: str = "") -> StationSeries:
    """Read an SIO ``.neu`` text (``decyr yr doy N E U ...`` in metres; dates from year and day of year)."""
    _check_component(component)
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = line.split()
        if not tokens or line.lstrip().startswith("#"):
            continue
        if len(tokens) < 6:
            raise _error("bad_line", f"{len(tokens)} columns", number, "decyr yr doy N E U [sN sE sU]")
        year = int(_float(tokens[1], number, "a year"))
        doy = int(_float(tokens[2], number, "a day of year"))
        if not 1 <= doy <= 366:
            raise _error("bad_value", f"day of year {doy}", number, "a day of year between 1 and 366")
        day = date(year, 1, 1) + timedelta(days=doy - 1)
        rows.append((day, _float(tokens[_NEU_COLUMNS[component]], number, f"{component} in metres"), None))
    return _finish(rows, station, component, "neu")


def _csv_column_indices(names: list[str], header_line: int, column: str | None) -> tuple[int, int, str]:
    """(date column, displacement column, its name) in a CSV header; GnssFileError when there is none."""
    lowered = [n.lower() for n in names]
    if "date" not in lowered:
        raise _error("unknown_column", f"no 'date' column in {names}", header_line, "a column named date")
    others = [n for n in names if n.lower() != "date"]
    chosen = column or ("disp_mm" if "disp_mm" in names else (others[0] if len(others) == 1 else None))
    if chosen is None or chosen not in names:
        raise _error("unknown_column", f"cannot tell the displacement column among {others}", header_line,
                     "a column named disp_mm, or a single displacement column")
    return lowered.index("date"), names.index(chosen), chosen


def read_csv_series(text: str, column: str | None = None) -> StationSeries:
    """Read a CSV with a ``date`` column and a displacement column in mm (``column``, else ``disp_mm``,
    else the only other column). Values stay in mm, relative to the first date. The separator (``,``,
    ``;`` or tab) and decimal commas are read as the kappa page reads ratings (`evallib.delimited`)."""
    if not text.strip():
        raise _error("no_header", "the file is empty", 1, "a header such as 'date,disp_mm'")
    first_line = text.lstrip().split("\n", 1)[0]
    if [d for d in DELIMITERS if d in first_line] == [","] and '"' not in first_line:
        # The common case, a plain comma file: read in one pass, without sniffing every line first.
        # A header without the expected columns goes on to the line-by-line reader, whose error names its line.
        try:
            date_at, value_at, chosen = _csv_column_indices([h.strip() for h in first_line.split(",")], 1, column)
        except GnssFileError:
            date_at = None
        frame = None if date_at is None else _csv_columns(text, date_at, value_at)
        if frame is not None:
            return _finish(frame, "", chosen, "csv")
    _, lines = choose_delimiter(text, GnssFileError)
    header_line, header = lines[0]
    date_at, value_at, chosen = _csv_column_indices([h.strip() for h in header], header_line, column)
    names = [h.strip() for h in header]
    rows = []
    for number, tokens in lines[1:]:
        if len(tokens) <= max(date_at, value_at):
            raise _error("bad_line", f"{len(tokens)} fields", number, f"{len(names)} fields as in the header")
        try:
            day = date.fromisoformat(tokens[date_at].strip()[:10])
        except ValueError:
            raise _error("bad_value", f"{tokens[date_at]!r} is not a date", number, "an ISO date YYYY-MM-DD") from None
        value = decimal_number(tokens[value_at])
        if value is None:
            raise _error("bad_value", f"{tokens[value_at]!r} is not a number", number, "a displacement in mm")
        rows.append((day, value / 1000.0, None))
    return _finish(rows, "", chosen, "csv")


def _csv_columns(text: str, date_at: int, value_at: int) -> pd.DataFrame | None:
    """The date and value columns of a regular CSV, read by pandas' C parser in one pass (a 5 MB file in
    a fraction of a second); None when any line is not plain ``YYYY-MM-DD...,number``, so that the
    line-by-line reader names the line. Values are converted by Python's own ``float`` (as the
    line-by-line reader does), from mm to metres."""
    date_column, value_column = (0, 1) if date_at < value_at else (1, 0)  # usecols keeps the file's order
    try:
        frame = pd.read_csv(io.StringIO(text), header=0, usecols=[date_at, value_at], dtype=object,
                            keep_default_na=False, skip_blank_lines=True, engine="c")
        day_texts = frame.iloc[:, date_column].str.strip().str[:10]
        if not day_texts.str.len().eq(10).all():
            return None
        days = pd.to_datetime(day_texts, format="%Y-%m-%d")
        values = frame.iloc[:, value_column].to_numpy(dtype=object).astype(float)
    except (pd.errors.ParserError, ValueError, TypeError):
        return None
    if not np.isfinite(values).all():
        return None
    # as the line-by-line reader's dates (datetime.date), whole days at the resolution of seconds
    return pd.DataFrame({"date": days.to_numpy().astype("datetime64[s]"), "value": values / 1000.0, "antenna": None})


def read_series(path: str | Path, component: str = "up", file_format: str | None = None) -> StationSeries:
    """Read a file by format (``file_format``, else its suffix: .csv, .tenv3, .pos, .neu).

    Raises `GnssFileError` (code ``unknown_format``) for another suffix, or as the format's reader.
    """
    path = Path(path)
    kind = file_format or path.suffix.lstrip(".").lower()
    return read_text(path.read_text(encoding="utf-8", errors="replace"), path.name, component, kind)


def read_text(text: str, name: str, component: str = "up", file_format: str | None = None) -> StationSeries:
    """Read the content of a file called ``name`` (an upload) by format (``file_format``, else the suffix
    of ``name``); the station of a ``.neu`` file is the name's first part. Raises `GnssFileError` (code
    ``unknown_format``, details ``format``) for another format, or as the format's reader."""
    kind = file_format or Path(name).suffix.lstrip(".").lower()
    if kind not in FORMATS:
        raise GnssFileError("unknown_format", f"{name}: unknown format {kind!r}; choose one of {FORMATS}",
                            format=kind)
    if kind == "csv":
        return read_csv_series(text)
    if kind == "neu":
        return read_neu(text, component, station=Path(name).name.split(".")[0])
    return {"tenv3": read_tenv3, "pos": read_pos}[kind](text, component)


#: A day-to-day change beyond 10 robust sigmas of the day-to-day changes is reported as a jump (an
#: earthquake, an equipment change or an outlier); 10 keeps ordinary noise (a 1-in-10^23 Gaussian event) out.
JUMP_SIGMAS = 10.0
#: Changes smaller than this (mm) are rounding noise of the file's decimals, not scatter: a perfectly
#: regular series read from metres keeps differences of about 1e-11 mm, whose robust sigma would make
#: any real jump "billions of sigmas" (files give 0.01 mm at best, so 1e-6 mm is far below any signal).
NUMERICAL_ZERO_MM = 1e-6
#: Velocities from records under 2.5 years are biased by seasonal signals (Blewitt & Lavallée 2002,
#: JGR 107 B7, 2145); under a year the seasonal terms cannot be fitted at all.
MIN_VELOCITY_YEARS = 2.5


#: Epochs more than a week apart are separated by a gap: a change across it may have built up on any
#: day inside it (motion, noise), so it is named as a gap, not dated as an offset.
OFFSET_MAX_INTERVAL_DAYS = 7


def _largest_jump(observed: pd.DataFrame) -> Reading | None:
    """The largest change between consecutive epochs, measured from the median daily rate times the
    interval, when it exceeds `JUMP_SIGMAS` robust sigmas of the day-to-day changes (epochs one day
    apart; all changes when there are none); with sigma = 0 (below `NUMERICAL_ZERO_MM`) any departure counts. Named
    ``jump_across_gap`` when the epochs lie more than `OFFSET_MAX_INTERVAL_DAYS` apart, ``outlier``
    when the next or previous change takes it back (one epoch off the line), ``large_jump`` otherwise."""
    d = observed["disp_mm"].to_numpy()
    changes = np.diff(d)
    if changes.size == 0:
        return None
    interval = np.diff(observed["date"].to_numpy()).astype("timedelta64[D]").astype(float)
    daily = interval == 1 if np.any(interval == 1) else np.ones(changes.size, dtype=bool)
    departures = changes - np.median(changes[daily] / interval[daily]) * interval
    sigma = 1.4826 * np.median(np.abs(departures[daily] - np.median(departures[daily])))
    sigma = 0.0 if sigma < NUMERICAL_ZERO_MM else sigma
    at = int(np.argmax(np.abs(departures)))
    size = abs(departures[at])
    if size < NUMERICAL_ZERO_MM or (sigma > 0 and size <= JUMP_SIGMAS * sigma):
        return None
    sigmas = float(size / sigma) if sigma > 0 else None
    before, after = observed["date"].iloc[at].date().isoformat(), observed["date"].iloc[at + 1].date().isoformat()
    if interval[at] > OFFSET_MAX_INTERVAL_DAYS:
        return Reading("jump_across_gap", {"gap_from": before, "gap_to": after, "missing_days": int(interval[at]) - 1,
                                           "size_mm": float(changes[at]), "sigmas": sigmas})
    for other, epoch in ((at + 1, at + 1), (at - 1, at)):
        if 0 <= other < changes.size and departures[other] * departures[at] < 0 and abs(departures[other]) > size / 2:
            return Reading("outlier", {"date": observed["date"].iloc[epoch].date().isoformat(),
                                       "size_mm": float(departures[at] if epoch == at + 1 else -departures[other])})
    return Reading("large_jump", {"date": after, "size_mm": float(changes[at]), "sigmas": sigmas})


def station_readings(series: StationSeries) -> list[Reading]:
    """What the reader did to a real file and what the record allows, as readings (codes
    ``rows_unsorted``, ``duplicates_dropped`` (count), ``gaps`` (missing_days, share),
    ``equipment_changes`` (dates as ISO strings), ``large_jump`` (date: the first day after the jump,
    size_mm, sigmas: the largest day-to-day change when beyond `JUMP_SIGMAS` robust sigmas, sigma = 1.4826
    MAD of the changes; sigmas None when the other changes are all equal), or instead of it
    ``jump_across_gap`` (gap_from, gap_to, missing_days, size_mm, sigmas) or ``outlier`` (date, size_mm),
    see `_largest_jump`,
    ``record_too_short_for_velocity`` (years, min_years))."""
    observed = series.observed
    span_days = (observed["date"].iloc[-1] - observed["date"].iloc[0]).days
    readings = []
    if series.was_unsorted:
        readings.append(Reading("rows_unsorted", {}))
    if series.duplicates_dropped:
        readings.append(Reading("duplicates_dropped", {"count": series.duplicates_dropped}))
    if series.gaps:
        readings.append(Reading("gaps", {"missing_days": series.gaps, "share": series.gaps / (span_days + 1)}))
    if series.equipment_changes:
        readings.append(Reading("equipment_changes", {"dates": [d.isoformat() for d in series.equipment_changes]}))
    jump = _largest_jump(observed)
    if jump is not None:
        readings.append(jump)
    years = span_days / 365.25
    if years < MIN_VELOCITY_YEARS:
        readings.append(Reading("record_too_short_for_velocity", {"years": years, "min_years": MIN_VELOCITY_YEARS}))
    return readings

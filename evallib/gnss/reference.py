"""The reference a real station's agents are graded against, built without the agents.

Its steps come from a source independent of the agents under test (`STEP_SOURCES`):

- ``detected``: the reader's own detection (`evallib.gnss.readers.station_readings`: the file's
  equipment changes and its ``large_jump``; a change across a data gap is a ``jump_across_gap``, never a step);
- ``file``: a steps file the user gives (`parse_steps`: one date a line, optionally a component);
- ``none``: no step at all.

Each step's offset is sized from the data on each side of it (`side_fit_offset`): a straight line is
fitted by least squares to the epochs within `OFFSET_WINDOW_DAYS` days before the step and another to
those within the window after it, each with its own rate, and the offset is the difference of the two
lines at the step time (halfway between the last epoch before and the first after). This is the
Heaviside step of a trajectory model (Bevis & Brown 2014, "Trajectory models and reference frames for
crustal motion geodesy", J. Geod. 88, 283-311) fitted locally; a rate per side keeps a transient after
the step (postseismic motion) from tilting the line before it, and the line keeps a fast steady motion
(Mexico City's subsidence) out of the offset, which a median of each side would not (it would add the
motion across the window's width). A step needs `MIN_SIDE_EPOCHS` epochs on each side within the window
and its two neighbouring epochs no more than `OFFSET_MAX_INTERVAL_DAYS` apart: otherwise it is reported
as a gap (``step_is_gap``) and neither sized nor given to MIDAS; one with too few epochs on a side
(near an end of the record) is given to MIDAS unsized (``step_too_few_epochs``).

The reference velocity is MIDAS (`evallib.gnss.midas`) with those steps only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from evallib.errors import InputError
from evallib.gnss.midas import MidasVelocity, midas_velocity
from evallib.gnss.readers import COMPONENTS, OFFSET_MAX_INTERVAL_DAYS, StationSeries, station_readings
from evallib.readings import Reading

STEP_SOURCES = ("detected", "file", "none")
#: Days of data each side of a step used to size it.
OFFSET_WINDOW_DAYS = 30
#: Epochs needed on each side within the window (a line through fewer is at the mercy of one bad day).
MIN_SIDE_EPOCHS = 10
#: Lines of a steps file at most (a station has a handful of steps; thousands is the wrong file).
MAX_STEP_LINES = 1000
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class StepsFileError(InputError):
    """A steps file that cannot be read; ``details`` hold ``line`` (1-based) and ``text`` when one line is at fault."""


@dataclass(frozen=True)
class ReferenceStep:
    """A step of the reference: ``day`` (the first day after it), ``origin`` (``equipment``, ``detected``
    or ``file``), ``offset_mm`` (after minus before, the two side lines at the step) and its standard
    error ``sigma_mm`` (from the two fits' residual scatter, white noise: optimistic on coloured noise),
    ``before``/``after`` (epochs used each side)."""

    day: date
    origin: str
    offset_mm: float
    sigma_mm: float
    before: int
    after: int


@dataclass(frozen=True)
class Reference:
    """`build_reference`'s result: the source, the sized steps, MIDAS on them, and readings (steps
    refused as gaps, outside the record, or too close to an end to be sized)."""

    source: str
    steps: tuple[ReferenceStep, ...]
    midas: MidasVelocity
    readings: tuple[Reading, ...]
    unsized: tuple[date, ...] = ()

    @property
    def main_step(self) -> ReferenceStep | None:
        """The largest step (the one an agent that flags one offset should find), None without steps."""
        return max(self.steps, key=lambda s: abs(s.offset_mm), default=None)


def parse_steps(text: str, component: str) -> tuple[date, ...]:
    """The step dates of a steps file that apply to ``component``, sorted and unique.

    Format: one step a line, ``YYYY-MM-DD`` optionally followed by a component (east, north or up;
    without one the step applies to every component), separated by spaces, a tab, a comma or a
    semicolon; blank lines and lines starting with ``#`` are ignored. Raises `StepsFileError` with codes
    ``bad_date`` (line, text), ``bad_component`` (line, text), ``extra_field`` (line, text),
    ``too_many_lines`` (limit) or ``empty`` (no step line at all).
    """
    lines = text.splitlines()
    if len(lines) > MAX_STEP_LINES:
        raise StepsFileError("too_many_lines", f"more than {MAX_STEP_LINES} lines", limit=MAX_STEP_LINES)
    found, any_line = set(), False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        any_line = True
        fields = [f for f in re.split(r"[\s,;]+", stripped) if f]
        day = _step_date(fields[0], number)
        if len(fields) > 2:
            raise StepsFileError("extra_field", f"line {number}: {stripped!r} has more than a date and a component",
                                 line=number, text=stripped)
        if len(fields) == 2 and fields[1].lower() not in COMPONENTS:
            raise StepsFileError("bad_component", f"line {number}: {fields[1]!r} is not east, north or up",
                                 line=number, text=fields[1])
        if len(fields) == 1 or fields[1].lower() == component:
            found.add(day)
    if not any_line:
        raise StepsFileError("empty", "no step line (YYYY-MM-DD [component])")
    return tuple(sorted(found))


def _step_date(token: str, number: int) -> date:
    try:
        if not _DATE.match(token):
            raise ValueError(token)
        return date.fromisoformat(token)
    except ValueError:
        raise StepsFileError("bad_date", f"line {number}: {token!r} is not a date YYYY-MM-DD",
                             line=number, text=token) from None


def _line_at(t: np.ndarray, d: np.ndarray, at: float) -> tuple[float, float, float]:
    """Least-squares line through (t, d) evaluated at ``at``: (value, its variance, residual variance)."""
    x = np.column_stack([np.ones_like(t), t - at])
    coef, *_ = np.linalg.lstsq(x, d, rcond=None)
    residual = d - x @ coef
    s2 = float(residual @ residual) / max(len(t) - 2, 1)
    cov = s2 * np.linalg.inv(x.T @ x)
    return float(coef[0]), float(cov[0, 0]), s2


def side_fit_offset(t_days: np.ndarray, d: np.ndarray, step_day: float,
                    window: float = OFFSET_WINDOW_DAYS) -> tuple[str, dict]:
    """Size a step from the data each side (module docstring).

    Args:
        t_days: sorted epoch times in days (shape (m,)); d: displacements in mm (shape (m,)).
        step_day: day index of the first epoch after the step.
        window: days each side.

    Returns (code, values): ``sized`` (offset_mm, sigma_mm, before, after); ``gap`` (gap_from_day,
    gap_to_day, missing_days) when the epochs around the step lie more than `OFFSET_MAX_INTERVAL_DAYS`
    apart; ``too_few_epochs`` (before, after, min_epochs); ``outside`` when the step is not inside the record.
    """
    t, d = np.asarray(t_days, dtype=float), np.asarray(d, dtype=float)
    after_at = int(np.searchsorted(t, step_day, side="left"))
    if after_at == 0 or after_at >= len(t):
        return "outside", {}
    last_before, first_after = t[after_at - 1], t[after_at]
    if first_after - last_before > OFFSET_MAX_INTERVAL_DAYS:
        return "gap", {"gap_from_day": float(last_before), "gap_to_day": float(first_after),
                       "missing_days": int(first_after - last_before) - 1}
    before = (t >= step_day - window) & (t < step_day)
    after = (t >= step_day) & (t < step_day + window)
    counts = {"before": int(before.sum()), "after": int(after.sum())}
    if min(counts.values()) < MIN_SIDE_EPOCHS:
        return "too_few_epochs", {**counts, "min_epochs": MIN_SIDE_EPOCHS}
    at = (last_before + first_after) / 2
    low, var_low, _ = _line_at(t[before], d[before], at)
    high, var_high, _ = _line_at(t[after], d[after], at)
    return "sized", {"offset_mm": high - low, "sigma_mm": float(np.sqrt(var_low + var_high)), **counts}


def detected_steps(series: StationSeries) -> tuple[tuple[date, str], ...]:
    """The reader's steps: the file's equipment changes and its ``large_jump`` (a ``jump_across_gap``
    or an ``outlier`` is no step), as (first day after, origin) pairs."""
    steps = [(d, "equipment") for d in series.equipment_changes]
    for reading in station_readings(series):
        if reading.code == "large_jump":
            day = date.fromisoformat(reading.values["date"])
            if day not in series.equipment_changes:
                steps.append((day, "detected"))
    return tuple(sorted(steps))


def build_reference(series: StationSeries, source: str = "detected", file_steps: tuple[date, ...] = ()) -> Reference:
    """The reference on ``series`` (mm, one component) with steps from ``source`` (`STEP_SOURCES`;
    ``file_steps`` for ``file``). Readings: ``step_is_gap`` (date, gap_from, gap_to, missing_days),
    ``step_too_few_epochs`` (date, before, after, min_epochs, window_days), ``step_outside_record``
    (date, first, last). Raises ValueError on an unknown source."""
    if source not in STEP_SOURCES:
        raise ValueError(f"unknown step source {source!r}; choose one of {STEP_SOURCES}")
    observed = series.observed
    start = observed["date"].iloc[0]
    t = (observed["date"] - start).dt.days.to_numpy(dtype=float)
    d = observed["disp_mm"].to_numpy(dtype=float)
    wanted = {"detected": detected_steps(series), "file": tuple((s, "file") for s in file_steps), "none": ()}[source]
    steps, readings, unsized = [], [], []
    for day, origin in wanted:
        code, values = side_fit_offset(t, d, float((pd.Timestamp(day) - start).days))
        text = day.isoformat()
        if code == "sized":
            steps.append(ReferenceStep(day, origin, values["offset_mm"], values["sigma_mm"], values["before"],
                                       values["after"]))
        elif code == "gap":
            readings.append(Reading("step_is_gap", {
                "date": text, "missing_days": values["missing_days"],
                "gap_from": (start + pd.Timedelta(days=values["gap_from_day"])).date().isoformat(),
                "gap_to": (start + pd.Timedelta(days=values["gap_to_day"])).date().isoformat()}))
        elif code == "too_few_epochs":
            readings.append(Reading("step_too_few_epochs", {"date": text, **values, "window_days": OFFSET_WINDOW_DAYS}))
            unsized.append(day)
        else:
            readings.append(Reading("step_outside_record", {"date": text, "first": start.date().isoformat(),
                                                            "last": observed["date"].iloc[-1].date().isoformat()}))
    skipped = sorted([s.day for s in steps] + unsized)
    midas = midas_velocity(t, d, tuple(float((pd.Timestamp(s) - start).days) for s in skipped))
    return Reference(source, tuple(steps), midas, tuple(readings), tuple(unsized))

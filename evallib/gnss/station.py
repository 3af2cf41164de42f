"""Estimates on a real station file: the same computation for the page and the command line.

`estimate_station` runs agents v1 and v2 and the reference on a `StationSeries` and returns each
velocity, offset (dated by the first day after the jump, with its size), each agent's grade against the
reference and the readings of how gaps and steps were treated. The reference (`evallib.gnss.reference`)
never leans on the agents under test: its steps come from the reader's detection, a steps file or none,
its offsets are sized from the data each side, and its velocity is MIDAS skipping those steps only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from evallib.gnss.agents import (JUMP_MARGIN_DAYS, JUMP_WINDOW_DAYS, V1_JUMP_THRESHOLD_MM, V2_STEP_THRESHOLD_MM, TrajectoryFit,
                                 day_index, fit_v2, located_jump, straight_line_velocity)
from evallib.gnss.midas import DAYS_PER_YEAR, MIN_EPOCHS, MIN_PAIRS, MidasVelocity, midas_velocity
from evallib.gnss.readers import StationSeries, station_readings
from evallib.gnss.reference import Reference, build_reference
from evallib.gnss.station_grades import StationGrade, detectable, grade_estimate, grade_reading
from evallib.readings import Reading


@dataclass(frozen=True)
class AgentEstimate:
    """One estimator's answer on a real file.

    Attributes:
        agent: "v1", "v2" or "midas".
        velocity_mm_yr: NaN when the estimator gives none.
        offset_date: the first day after the flagged jump (None: no offset flagged).
        offset_mm: its size, after minus before (v1: the difference of the 30-sample means; v2: its
            fitted step; midas, the reference row: the reference's largest step when detectable, sized
            from the data each side), None without an offset.
        sigma_mm_yr: MIDAS's uncertainty (None for the agents, which give none).
    """

    agent: str
    velocity_mm_yr: float
    offset_date: date | None
    offset_mm: float | None
    sigma_mm_yr: float | None = None


@dataclass(frozen=True)
class StationEstimate:
    """`estimate_station`'s result: the three estimates (v1, v2, the reference as ``midas``), v2's fit
    (for the figure), the MIDAS details, the steps MIDAS skipped (dates), the reference, the agents'
    grades against it and the readings on gaps, steps, MIDAS and the grades."""

    estimates: tuple[AgentEstimate, AgentEstimate, AgentEstimate]
    fit: TrajectoryFit
    midas: MidasVelocity
    midas_steps: tuple[date, ...]
    readings: tuple[Reading, ...]
    reference: Reference | None = None
    grades: tuple[StationGrade, ...] = ()

    def as_dict(self) -> dict:
        """JSON-ready: estimates by agent (NaN as None, dates as ISO text) and readings as code + values."""
        def clean(value):
            if isinstance(value, float) and not np.isfinite(value):
                return None
            return value.isoformat() if isinstance(value, date) else value
        return {"estimates": {e.agent: {k: clean(v) for k, v in e.__dict__.items() if k != "agent"}
                              for e in self.estimates},
                "midas": {"pairs": self.midas.n_pairs, "kept": self.midas.n_kept, "exact_pairs": self.midas.n_exact,
                          "gap_pairs": self.midas.n_fallback, "reason": self.midas.reason,
                          "steps": [d.isoformat() for d in self.midas_steps]},
                "reference": None if self.reference is None else {
                    "step_source": self.reference.source,
                    "steps": [{"date": s.day.isoformat(), "origin": s.origin, "offset_mm": s.offset_mm,
                               "sigma_mm": s.sigma_mm, "epochs_before": s.before, "epochs_after": s.after}
                              for s in self.reference.steps]},
                "grades": {g.agent: {"passed": g.passed, "failures": list(g.failures), "unchecked": list(g.unchecked)}
                           for g in self.grades},
                "readings": [{"code": r.code, **{k: clean(v) for k, v in r.values.items()}} for r in self.readings]}


def _date(observed: pd.DataFrame, t_days: float) -> date:
    return (observed["date"].iloc[0] + pd.Timedelta(days=float(t_days))).date()


def midas_reading(midas: MidasVelocity, steps: tuple[date, ...], span_days: float, n_epochs: int) -> Reading:
    """What MIDAS did with the record, as a reading (values in brackets):

    - ``midas_pairs`` (pairs, kept, exact_pairs, gap_pairs, longest_pair_years, steps): a velocity; the
      gap pairs are days whose partner one year later is missing, paired with the next unused day;
      ``midas_pairs_steps`` the same when steps were skipped (their dates in ``steps``);
    - ``midas_too_few_epochs`` (epochs, min_epochs);
    - ``midas_too_short`` (years, min_days): no two days one year apart can exist;
    - ``midas_excluded_by_steps`` (pairs_without_steps, pairs, min_pairs, steps): pairs one year apart
      existed, the steps cut all but fewer than `MIN_PAIRS` of them;
    - ``midas_too_few_pairs`` (pairs, min_pairs): the gaps leave too few pairs.
    """
    step_text = [d.isoformat() for d in steps]
    if midas.reason == "too_few_epochs":
        return Reading("midas_too_few_epochs", {"epochs": n_epochs, "min_epochs": MIN_EPOCHS})
    if midas.reason == "too_short":
        return Reading("midas_too_short", {"years": span_days / DAYS_PER_YEAR,
                                           "min_days": int(np.ceil(DAYS_PER_YEAR + MIN_EPOCHS))})
    if midas.reason == "excluded_by_steps":
        return Reading("midas_excluded_by_steps", {"pairs_without_steps": midas.n_without_steps,
                                                   "pairs": midas.n_pairs, "min_pairs": MIN_PAIRS, "steps": step_text})
    if midas.reason == "too_few_pairs":
        return Reading("midas_too_few_pairs", {"pairs": midas.n_pairs, "min_pairs": MIN_PAIRS})
    return Reading("midas_pairs_steps" if steps else "midas_pairs", {"pairs": midas.n_pairs, "kept": midas.n_kept, "exact_pairs": midas.n_exact,
                                   "gap_pairs": midas.n_fallback,
                                   "longest_pair_years": midas.longest_pair_days / DAYS_PER_YEAR, "steps": step_text})


def gap_reading(observed: pd.DataFrame) -> Reading | None:
    """How the agents meet the record's longest gap, as reading ``agents_gaps`` (longest_gap_days: days
    without data, gap_from, gap_to: the last day before and the first after, window: the detector's
    samples either side); None without a gap. The fits use the dates; the detector counts samples."""
    interval = np.diff(day_index(observed))
    if interval.size == 0 or interval.max() <= 1:
        return None
    at = int(np.argmax(interval))
    return Reading("agents_gaps", {"longest_gap_days": int(interval[at]) - 1,
                                   "gap_from": observed["date"].iloc[at].date().isoformat(),
                                   "gap_to": observed["date"].iloc[at + 1].date().isoformat(),
                                   "window": JUMP_WINDOW_DAYS})


def margin_reading(series: StationSeries, agents: tuple[AgentEstimate, ...] = (),
                   reference: Reference | None = None) -> Reading | None:
    """The file's large day-to-day jump (the reader's ``large_jump``) within `JUMP_MARGIN_DAYS` samples of
    either end, where the agents' detector looks for no jump; None otherwise. Two readings:

    - ``jump_in_margin_absorbed`` (date, size_mm, margin, agents, line_velocity_mm_yr): an agent that
      flags no offset near the jump has a velocity further from the straight line fitted with the
      jump removed (the reference's offset subtracted) than half its own size: the jump dominates it;
    - ``jump_in_margin`` (date, size_mm, margin, line_velocity_mm_yr): the agents' velocities are not
      dominated by it (their offsets still leave it out).
    """
    jump = next((r for r in station_readings(series) if r.code == "large_jump"), None)
    if jump is None:
        return None
    dates = series.observed["date"]
    at = int(np.searchsorted(dates.to_numpy(), np.datetime64(jump.values["date"])))
    if JUMP_MARGIN_DAYS <= at < len(dates) - JUMP_MARGIN_DAYS:
        return None
    t, d = day_index(series.observed), series.observed["disp_mm"].to_numpy(dtype=float)
    day = date.fromisoformat(jump.values["date"])
    step = None if reference is None else next((s for s in reference.steps if s.day == day), None)
    size = jump.values["size_mm"] if step is None else step.offset_mm
    line = straight_line_velocity(t, d - size * (np.arange(len(d)) >= at))
    absorbed = [a.agent for a in agents if a.agent != "midas" and np.isfinite(a.velocity_mm_yr)
                and (a.offset_date is None or abs((a.offset_date - day).days) > JUMP_WINDOW_DAYS)
                and abs(a.velocity_mm_yr - line) > abs(a.velocity_mm_yr) / 2]
    values = {"date": jump.values["date"], "size_mm": jump.values["size_mm"], "margin": JUMP_MARGIN_DAYS,
              "line_velocity_mm_yr": line}
    if absorbed:
        return Reading("jump_in_margin_absorbed", {**values, "agents": ", ".join(absorbed)})
    return Reading("jump_in_margin", values)


def estimate_station(series: StationSeries, v1_threshold_mm: float = V1_JUMP_THRESHOLD_MM,
                     v2_threshold_mm: float = V2_STEP_THRESHOLD_MM, step_source: str = "detected",
                     file_steps: tuple[date, ...] = ()) -> StationEstimate:
    """Agents v1, v2 and the reference on ``series`` (mm, one component), as the page and ``gnss --file``
    show them, with each agent graded against the reference.

    v1: straight line + largest 30-sample jump above ``v1_threshold_mm``; v2: trajectory fit with the
    step kept when it exceeds ``v2_threshold_mm``; the reference (`build_reference`): steps from
    ``step_source`` (``detected``, ``file`` with ``file_steps``, or ``none``), never from an agent, each
    sized from the data each side, MIDAS skipping them. Never raises on a short record (the readings say
    why a velocity is missing); ValueError on an unknown ``step_source``.
    """
    observed = series.observed
    t, d = day_index(observed), observed["disp_mm"].to_numpy(dtype=float)
    jump = located_jump(d)
    v1_flag = jump.index is not None and jump.size_mm > v1_threshold_mm
    v1 = AgentEstimate("v1", straight_line_velocity(t, d), _date(observed, t[jump.index]) if v1_flag else None,
                       jump.change_mm if v1_flag else None)
    fit = fit_v2(observed, v2_threshold_mm)
    v2_date = None if fit.step_day is None else _date(observed, fit.step_day)
    v2_size = None if fit.step_day is None else fit["step_mm"]
    v2 = AgentEstimate("v2", fit["velocity_mm_yr"], v2_date, v2_size)
    reference = build_reference(series, step_source, file_steps)
    midas = reference.midas
    main = reference.main_step if detectable(reference.main_step) else None
    steps = tuple(sorted([s.day for s in reference.steps] + list(reference.unsized)))
    m = AgentEstimate("midas", midas.velocity_mm_yr, None if main is None else main.day,
                      None if main is None else main.offset_mm, midas.sigma_mm_yr)
    grades = tuple(grade_estimate(e, reference) for e in (v1, v2))
    readings = [*reference.readings, midas_reading(midas, steps, float(t[-1] - t[0]), len(t)),
                *(grade_reading(g) for g in grades)]
    gaps = gap_reading(observed)
    if gaps is not None:
        readings.insert(0, gaps)
    unseen = margin_reading(series, (v1, v2), reference)
    if unseen is not None:
        readings.insert(0, unseen)
    return StationEstimate((v1, v2, m), fit, midas, steps, tuple(readings), reference, grades)


def agent_midas_reading(observed: pd.DataFrame, step_threshold_mm: float = V2_STEP_THRESHOLD_MM) -> Reading:
    """`midas_reading` of the MIDAS agent on an observed table (v2's step skipped, as `agent_midas`):
    why a case has no MIDAS velocity, or the pairs it rests on."""
    t, d = day_index(observed), observed["disp_mm"].to_numpy(dtype=float)
    fit = fit_v2(observed, step_threshold_mm)
    steps = () if fit.step_day is None else (_date(observed, fit.step_day),)
    midas = midas_velocity(t, d, () if fit.step_day is None else (float(fit.step_day),))
    return midas_reading(midas, steps, float(t[-1] - t[0]), len(t))

"""Each agent's answer on a real station graded against the reference of `evallib.gnss.reference`.

An agent answers with a velocity and at most one offset (date, size). Against the reference:

- **offset**: the reference's largest step must be found when it is *detectable*: at least
  `DETECTABLE_OFFSET_MM` (about what automatic methods detected in the DOGEx comparison, Gazeaux et al.
  2013, J. Geophys. Res. Solid Earth 118, 2397-2407) and at least `DETECTABLE_SIGMAS` of its own standard
  error. Failures: ``offset_missed`` (no offset flagged), ``offset_date`` (flagged more than the spec's
  day tolerance away), ``offset_sign`` (opposite sign), ``offset_size`` (size off by more than
  `offset_tolerance_mm`), each checked on its own (a wrong date with a wrong sign gives both); an offset flagged where the reference has no detectable step (none within the day
  tolerance) is ``offset_spurious``.
- **velocity**: within `velocity_tolerance_mm_yr` of the reference MIDAS velocity (``velocity_off``
  otherwise); when MIDAS gives none the velocity is not graded (``velocity_unchecked``, not a pass).

The tolerances are ours, stated: an offset's size within max(`OFFSET_ABS_TOL_MM`, `OFFSET_REL_TOL` x
|reference|, 3 sigma of the reference); a velocity within max(the spec's tolerance for the record's
length, 3 sigma of MIDAS: the reference is an estimate, not the truth, and an agent at the true velocity
falls beyond 3 sigma of a realistic MIDAS sigma about 0.3 % of the time, beyond 2 sigma 5 %).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evallib.gnss.reference import Reference, ReferenceStep
from evallib.gnss.spec import DEFAULT_DAY_TOL, DEFAULT_VELOCITY_TOL
from evallib.readings import Reading

DETECTABLE_OFFSET_MM = 8.0
DETECTABLE_SIGMAS = 3.0
OFFSET_ABS_TOL_MM = 8.0
OFFSET_REL_TOL = 0.10
OFFSET_SIGMAS = 3.0
VELOCITY_SIGMAS = 3.0


@dataclass(frozen=True)
class StationGrade:
    """One agent graded on a station: ``failures`` (codes, empty when it passes what was graded),
    ``unchecked`` (``("velocity",)`` when MIDAS gives no velocity), and the figures compared (NaN / None when absent)."""

    agent: str
    failures: tuple[str, ...]
    unchecked: tuple[str, ...]
    velocity_mm_yr: float
    reference_velocity_mm_yr: float
    velocity_tolerance_mm_yr: float
    offset_mm: float | None
    reference_offset_mm: float | None
    offset_tolerance_mm: float | None
    offset_day_error: int | None

    @property
    def passed(self) -> bool:
        """True when every graded check holds (the offset is always graded; the velocity when MIDAS gives one)."""
        return not self.failures


def offset_tolerance_mm(step: ReferenceStep) -> float:
    """max(8 mm, 10 % of the reference offset, 3 sigma of it)."""
    return max(OFFSET_ABS_TOL_MM, OFFSET_REL_TOL * abs(step.offset_mm), OFFSET_SIGMAS * step.sigma_mm)


def velocity_tolerance_mm_yr(reference: Reference, spec_tolerance: float = DEFAULT_VELOCITY_TOL) -> float:
    """max(the spec's velocity tolerance, 3 sigma of the MIDAS velocity); NaN when MIDAS gives none."""
    sigma = reference.midas.sigma_mm_yr
    return float(max(spec_tolerance, VELOCITY_SIGMAS * sigma)) if np.isfinite(sigma) else float("nan")


def detectable(step: ReferenceStep | None) -> bool:
    return step is not None and abs(step.offset_mm) >= max(DETECTABLE_OFFSET_MM, DETECTABLE_SIGMAS * step.sigma_mm)


def grade_estimate(estimate, reference: Reference, spec_velocity_tol: float = DEFAULT_VELOCITY_TOL,
                   day_tol: int = DEFAULT_DAY_TOL) -> StationGrade:
    """Grade one `evallib.gnss.station.AgentEstimate` (velocity, offset_date, offset_mm) against ``reference``."""
    failures, unchecked = [], []
    step = reference.main_step if detectable(reference.main_step) else None
    day_error = None
    if step is not None and estimate.offset_date is None:
        failures.append("offset_missed")
    elif estimate.offset_date is not None:
        near = [s for s in reference.steps if detectable(s) and abs((estimate.offset_date - s.day).days) <= day_tol]
        if step is None and not near:
            failures.append("offset_spurious")
        elif step is not None:
            day_error = (estimate.offset_date - step.day).days
            if abs(day_error) > day_tol:
                failures.append("offset_date")
            if np.sign(estimate.offset_mm) != np.sign(step.offset_mm):
                failures.append("offset_sign")
            if abs(estimate.offset_mm - step.offset_mm) > offset_tolerance_mm(step):
                failures.append("offset_size")
    reference_velocity = reference.midas.velocity_mm_yr
    tolerance = velocity_tolerance_mm_yr(reference, spec_velocity_tol)
    if not np.isfinite(reference_velocity):
        unchecked.append("velocity")
    elif not np.isfinite(estimate.velocity_mm_yr) or abs(estimate.velocity_mm_yr - reference_velocity) > tolerance:
        failures.append("velocity_off")
    return StationGrade(estimate.agent, tuple(failures), tuple(unchecked), float(estimate.velocity_mm_yr),
                        float(reference_velocity), tolerance, estimate.offset_mm,
                        None if step is None else step.offset_mm, None if step is None else offset_tolerance_mm(step),
                        day_error)


def grade_reading(grade: StationGrade) -> Reading:
    """The grade as a reading: ``station_agent_passes`` (agent, velocity_checked and the figures compared)
    or ``station_agent_fails`` (agent, failures: the codes, and the figures compared)."""
    values = {"agent": grade.agent, "velocity_mm_yr": grade.velocity_mm_yr,
              "reference_velocity_mm_yr": grade.reference_velocity_mm_yr,
              "velocity_tolerance_mm_yr": grade.velocity_tolerance_mm_yr, "offset_mm": grade.offset_mm,
              "reference_offset_mm": grade.reference_offset_mm, "offset_tolerance_mm": grade.offset_tolerance_mm,
              "offset_day_error": grade.offset_day_error}
    if grade.failures:
        return Reading("station_agent_fails", {**values, "failures": list(grade.failures)})
    return Reading("station_agent_passes", {**values, "velocity_checked": "velocity" not in grade.unchecked})

"""Reference agents of the GNSS task (docs/gnss.md#agents) and a MIDAS-like robust velocity.

An agent takes the observed table (``date``, ``disp_mm``; rows may have gaps) and returns the
spec's dict ``{"velocity_mm_yr": float, "offset": bool, "offset_day": int | None}``; day indices
count days from the first date. Thresholds are parameters (the page lets users move them).

- `agent_v1`: straight line for the velocity, largest jump between 30-day means for the offset,
  flagged above a fixed jump threshold (the hurried analyst: docs/gnss.md#agents).
- `agent_v2`: least squares on trend + annual + semi-annual + a step at the detected day, deciding on
  the fitted step amplitude (spec v2's method).
- `agent_midas`: the MIDAS velocity (Blewitt et al. 2016, `evallib.gnss.midas`) with v2's offset decision.

Gaps: the velocity fits use the dates (a gap is a stretch without data, nothing is interpolated); the
jump detector counts samples, not days (30 samples either side, candidates every 5 samples refined
to the sample, 45 samples of margin), so a window that straddles a gap spans more than 30 days; an
offset is dated by the first sample after the jump. MIDAS pairs by dates: a day whose partner one
year later is missing pairs with the next unused day after it (`evallib.gnss.midas`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from evallib.gnss.midas import MidasVelocity, midas_velocity  # noqa: F401  (re-exported: the agents' MIDAS)

DAYS_PER_YEAR = 365.25
#: Jump detector of agent v1 (docs/gnss.md#agents): 30-day windows either side, candidate days every 5 days, 45 days of
#: margin at both ends so that each window lies inside the record.
JUMP_WINDOW_DAYS = 30
JUMP_STEP_DAYS = 5
JUMP_MARGIN_DAYS = 45
#: Agent v1 flags an offset when the largest raw jump exceeds 12 mm (docs/gnss.md#agents).
V1_JUMP_THRESHOLD_MM = 12.0
#: Agent v2 flags an offset when the fitted step exceeds 6 mm in absolute value (docs/gnss.md#agents).
V2_STEP_THRESHOLD_MM = 6.0
#: Seasonal terms need a full year of data to be told apart from the trend.
MIN_SEASONAL_SPAN_DAYS = 365


def day_index(observed: pd.DataFrame) -> np.ndarray:
    """Days since the first date (float, shape (n,)); rows are assumed sorted by date."""
    dates = pd.to_datetime(observed["date"])
    return ((dates - dates.iloc[0]) / pd.Timedelta(days=1)).to_numpy(dtype=float)


@dataclass(frozen=True)
class Jump:
    """The largest jump between the 30-sample means after and before a candidate sample.

    ``index`` is the sample index (None when the record is too short for any candidate), ``size_mm``
    the absolute jump (0.0 when there is no candidate), ``change_mm`` the signed one (after minus
    before; set by `located_jump`).
    """

    index: int | None
    size_mm: float
    change_mm: float = 0.0


def largest_jump(d: np.ndarray, window: int = JUMP_WINDOW_DAYS, step: int = JUMP_STEP_DAYS,
                 margin: int = JUMP_MARGIN_DAYS) -> Jump:
    """Largest |mean(d[i:i+w]) - mean(d[i-w:i])| over candidates i = margin, margin+step, ... < n - margin.

    Vectorised on cumulative sums: each window mean is a difference of two prefix sums, so the cost is
    O(n) instead of O(n·w). Ties keep the first candidate (as the loop does). Shape of ``d``: (n,), mm.
    """
    d = np.asarray(d, dtype=float)
    candidates = np.arange(margin, len(d) - margin, step)
    if candidates.size == 0:
        return Jump(None, 0.0)
    prefix = np.concatenate(([0.0], np.cumsum(d)))
    after = prefix[candidates + window] - prefix[candidates]
    before = prefix[candidates] - prefix[candidates - window]
    jumps = np.abs(after - before) / window
    best = int(np.argmax(jumps))
    if jumps[best] <= 0:
        return Jump(None, 0.0)
    return Jump(int(candidates[best]), float(jumps[best]))


def largest_jump_loop(d: np.ndarray, window: int = JUMP_WINDOW_DAYS, step: int = JUMP_STEP_DAYS,
                      margin: int = JUMP_MARGIN_DAYS) -> Jump:
    """The per-candidate loop (docs/gnss.md#agents), kept as the readable reference of `largest_jump`."""
    d = np.asarray(d, dtype=float)
    best_jump, best_index = 0.0, None
    for i in range(margin, len(d) - margin, step):
        jump = abs(d[i:i + window].mean() - d[i - window:i].mean())
        if jump > best_jump:
            best_jump, best_index = jump, i
    return Jump(best_index, float(best_jump))


def located_jump(d: np.ndarray, window: int = JUMP_WINDOW_DAYS, step: int = JUMP_STEP_DAYS,
                 margin: int = JUMP_MARGIN_DAYS) -> Jump:
    """`largest_jump` on its 5-sample grid, then refined sample by sample around the best candidate
    (the ``step - 1`` samples either side, inside the margins): the jump is dated by the first sample
    after it, exactly, and keeps its sign in ``change_mm``. Shape of ``d``: (n,), mm."""
    d = np.asarray(d, dtype=float)
    coarse = largest_jump(d, window, step, margin)
    if coarse.index is None:
        return coarse
    candidates = np.arange(max(margin, coarse.index - step + 1), min(len(d) - margin, coarse.index + step))
    prefix = np.concatenate(([0.0], np.cumsum(d)))
    changes = ((prefix[candidates + window] - prefix[candidates])
               - (prefix[candidates] - prefix[candidates - window])) / window
    best = int(np.argmax(np.abs(changes)))
    return Jump(int(candidates[best]), float(abs(changes[best])), float(changes[best]))


def _answer(velocity: float, offset: bool, offset_day: float | None) -> dict:
    return {"velocity_mm_yr": float(velocity), "offset": bool(offset),
            "offset_day": int(round(offset_day)) if offset and offset_day is not None else None}


def straight_line_velocity(t_days: np.ndarray, d: np.ndarray) -> float:
    """Slope (mm/yr) of the least-squares line through (t, d): cov(t, d)/var(t), as `numpy.polyfit(t, d, 1)`."""
    t_yr = np.asarray(t_days, dtype=float) / DAYS_PER_YEAR
    centred = t_yr - t_yr.mean()
    return float(centred @ (np.asarray(d, dtype=float) - np.mean(d)) / (centred @ centred))


def agent_v1(observed: pd.DataFrame, jump_threshold_mm: float = V1_JUMP_THRESHOLD_MM) -> dict:
    """Straight-line velocity (ignores seasonal terms and offsets) + raw jump over a fixed threshold."""
    d = observed["disp_mm"].to_numpy(dtype=float)
    t = day_index(observed)
    velocity = straight_line_velocity(t, d)
    jump = located_jump(d)
    detected = jump.index is not None and jump.size_mm > jump_threshold_mm
    return _answer(velocity, detected, t[jump.index] if detected else None)


@dataclass(frozen=True)
class TrajectoryFit:
    """Least-squares fit of trend + annual + semi-annual (+ step) to one component.

    Attributes:
        names: coefficient names (``offset_mm``, ``velocity_mm_yr``, ``annual_sin_mm``, ``annual_cos_mm``,
            ``semiannual_sin_mm``, ``semiannual_cos_mm`` and ``step_mm`` when a step is fitted).
        coefficients: shape (k,), mm and mm/yr.
        fitted_mm, residuals_mm: shape (n,).
        step_day: day index of the fitted step, or None.
    """

    names: tuple[str, ...]
    coefficients: np.ndarray
    fitted_mm: np.ndarray
    residuals_mm: np.ndarray
    step_day: float | None

    def __getitem__(self, name: str) -> float:
        return float(self.coefficients[self.names.index(name)])


def design_matrix(t_days: np.ndarray, step_day: float | None = None) -> tuple[np.ndarray, tuple[str, ...]]:
    """Columns 1, t (years), sin/cos(2πt), sin/cos(4πt) and H(t - step_day) when ``step_day`` is given.

    The seasonal columns are left out when the record spans less than `MIN_SEASONAL_SPAN_DAYS`: over
    less than a year an annual sinusoid is nearly collinear with the trend and the fit explodes.
    """
    t_yr = t_days / DAYS_PER_YEAR
    columns = [np.ones_like(t_yr), t_yr]
    names = ["offset_mm", "velocity_mm_yr"]
    if t_days[-1] - t_days[0] >= MIN_SEASONAL_SPAN_DAYS:
        columns += [np.sin(2 * np.pi * t_yr), np.cos(2 * np.pi * t_yr), np.sin(4 * np.pi * t_yr),
                    np.cos(4 * np.pi * t_yr)]
        names += ["annual_sin_mm", "annual_cos_mm", "semiannual_sin_mm", "semiannual_cos_mm"]
    if step_day is not None:
        columns.append((t_days >= step_day).astype(float))
        names.append("step_mm")
    return np.column_stack(columns), tuple(names)


def fit_trajectory(t_days: np.ndarray, d: np.ndarray, step_day: float | None = None) -> TrajectoryFit:
    """Ordinary least squares of the trajectory model; shapes (n,), days and mm.

    Solved by the normal equations (GᵀG)c = Gᵀd: at most 7 columns with time in years keep GᵀG well
    conditioned, and the solve costs microseconds where an SVD-based `numpy.linalg.lstsq` costs
    milliseconds (the tests use lstsq and statsmodels OLS as oracles).
    """
    G, names = design_matrix(np.asarray(t_days, dtype=float), step_day)
    d = np.asarray(d, dtype=float)
    coefficients = np.linalg.solve(G.T @ G, G.T @ d)
    fitted = G @ coefficients
    return TrajectoryFit(names, coefficients, fitted, d - fitted, step_day)


def fit_v2(observed: pd.DataFrame, step_threshold_mm: float = V2_STEP_THRESHOLD_MM) -> TrajectoryFit:
    """Agent v2's final fit: with a step at the largest jump if the fitted step exceeds the threshold,
    else the fit without a step (docs/gnss.md#agents)."""
    d = observed["disp_mm"].to_numpy(dtype=float)
    t = day_index(observed)
    jump = located_jump(d)
    if jump.index is not None:
        with_step = fit_trajectory(t, d, t[jump.index])
        if abs(with_step["step_mm"]) > step_threshold_mm:
            return with_step
    return fit_trajectory(t, d)


def agent_v2(observed: pd.DataFrame, step_threshold_mm: float = V2_STEP_THRESHOLD_MM) -> dict:
    """Velocity from `fit_v2`; an offset is flagged at the step's day when the step was kept."""
    fit = fit_v2(observed, step_threshold_mm)
    return _answer(fit["velocity_mm_yr"], fit.step_day is not None, fit.step_day)


def agent_midas(observed: pd.DataFrame, step_threshold_mm: float = V2_STEP_THRESHOLD_MM) -> dict:
    """MIDAS velocity, pairs across v2's detected step dropped; offset decision of agent v2."""
    fit = fit_v2(observed, step_threshold_mm)
    steps = () if fit.step_day is None else (fit.step_day,)
    midas = midas_velocity(day_index(observed), observed["disp_mm"].to_numpy(dtype=float), steps)
    return _answer(midas.velocity_mm_yr, fit.step_day is not None, fit.step_day)


#: The reference agents by name, with the threshold each one takes.
AGENTS = {"v1": agent_v1, "v2": agent_v2, "midas": agent_midas}

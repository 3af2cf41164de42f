"""Is MIDAS's published uncertainty realistic? Its sigma against the true scatter of its velocity.

Many realisations of one record design (trend + seasonal + white + flicker noise, `evallib.gnss.synthetic`)
share one daily time axis, so MIDAS runs on all of them at once (`evallib.gnss.midas.midas_matrix`).
The true scatter is the standard deviation of the MIDAS velocities over the realisations, with a
chi-square 95 % interval (unit: the realisation; the velocities are close to Gaussian); the published
sigma (Blewitt et al. 2016) is summarised by its median over the realisations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2

from evallib.gnss.midas import SIGMA_SCALE, midas_matrix
from evallib.gnss.synthetic import (DAYS_PER_YEAR, DEFAULT_ANNUAL_MM, DEFAULT_FLICKER_MM, DEFAULT_SEMIANNUAL_MM,
                                    DEFAULT_WHITE_MM, flicker_noise, trajectory)
from evallib.readings import Reading

#: Realisations per record length: the SD's 95 % interval is then about ±10 % wide.
DEFAULT_REALISATIONS = 200


@dataclass(frozen=True)
class SigmaScatter:
    """MIDAS's published sigma against the scatter of its velocity over realisations (mm/yr).

    Attributes:
        n_years, realisations: the design's length and the number of realisations.
        sigma: median of the published sigma_v over the realisations.
        sigma_unscaled: the same without the empirical factor 3.
        scatter, scatter_low, scatter_high: SD of the MIDAS velocities and its 95 % chi-square interval.
        mean_error: mean of (MIDAS velocity - true velocity).
    """

    n_years: float
    realisations: int
    sigma: float
    sigma_unscaled: float
    scatter: float
    scatter_low: float
    scatter_high: float
    mean_error: float


def sigma_versus_scatter(n_years: float, realisations: int = DEFAULT_REALISATIONS, velocity_mm_yr: float = 12.0,
                         white_mm: float = DEFAULT_WHITE_MM, flicker_mm: float = DEFAULT_FLICKER_MM,
                         annual_mm: float = DEFAULT_ANNUAL_MM, semiannual_mm: float = DEFAULT_SEMIANNUAL_MM,
                         seed: int = 0) -> SigmaScatter:
    """Simulate ``realisations`` daily series of ``n_years`` (no offset) and compare MIDAS's sigma with the
    scatter of its velocity. Units: mm, mm/yr, flicker in mm/yr^0.25. Raises ValueError when fewer than
    2 realisations are asked or the record is too short for MIDAS (under a year and 6 days)."""
    if realisations < 2:
        raise ValueError(f"realisations must be at least 2, got {realisations}")
    n = int(round(n_years * DAYS_PER_YEAR))
    rng = np.random.default_rng(seed)
    t = np.arange(float(n))
    model = trajectory(t, velocity_mm_yr, annual_mm, semiannual_mm, None, 0.0, 0.0, 1.0)
    noise = white_mm * rng.standard_normal((realisations, n)) + flicker_noise(n, flicker_mm, rng,
                                                                               realisations=realisations)
    out = midas_matrix(t, model[None, :] + noise)
    velocities = out["velocity_mm_yr"]
    if not np.all(np.isfinite(velocities)):
        raise ValueError(f"a {n_years}-year record is too short for MIDAS")
    scatter = float(np.std(velocities, ddof=1))
    dof = realisations - 1
    sigma = float(np.median(out["sigma_mm_yr"]))
    return SigmaScatter(n_years, realisations, sigma, sigma / SIGMA_SCALE, scatter,
                        scatter * float(np.sqrt(dof / chi2.ppf(0.975, dof))),
                        scatter * float(np.sqrt(dof / chi2.ppf(0.025, dof))),
                        float(np.mean(velocities) - velocity_mm_yr))


def sigma_scatter_reading(result: SigmaScatter) -> Reading:
    """How the published sigma compares with the simulated scatter, as a reading:

    - ``midas_sigma_realistic``: the sigma lies inside the scatter's 95 % interval;
    - ``midas_sigma_conservative``: above it (the sigma overstates the uncertainty);
    - ``midas_sigma_optimistic``: below it (the sigma understates it).

    Values: years, n (realisations), sigma, sigma_unscaled, scatter, scatter_low, scatter_high, ratio
    (sigma / scatter).
    """
    values = {"years": result.n_years, "n": result.realisations, "sigma": result.sigma,
              "sigma_unscaled": result.sigma_unscaled, "scatter": result.scatter, "scatter_low": result.scatter_low,
              "scatter_high": result.scatter_high, "ratio": result.sigma / result.scatter}
    if result.sigma > result.scatter_high:
        return Reading("midas_sigma_conservative", values)
    if result.sigma < result.scatter_low:
        return Reading("midas_sigma_optimistic", values)
    return Reading("midas_sigma_realistic", values)

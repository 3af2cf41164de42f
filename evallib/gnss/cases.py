"""The twelve evaluation cases (docs/gnss.md#cases) and the fresh seeds kept apart from them.

Each case is a call to `gnss_series` with the course material's parameters (record length, velocity,
seasonal amplitude, noise, offset day and size, random seed 101-112); parameters it leaves out take the
generator's defaults. The difficulty axes: signal size, noise, record length, confounding seasonal
signal, negative cases (no offset) and offsets at the edge of detectability (8 and 4 mm, Gazeaux et
al. 2013 report about 8 mm as the automatic detection limit).
"""

from __future__ import annotations

from dataclasses import dataclass

from evallib.gnss.synthetic import GnssSeries, gnss_series


@dataclass(frozen=True)
class Case:
    """One evaluation case: an id (``C01``...), a description code for the catalogue, generator parameters."""

    case_id: str
    description: str
    params: dict

    def load(self) -> GnssSeries:
        """The series (observed + truth) of this case."""
        return gnss_series(**self.params)


def _step(eq_day: int, size_mm: float) -> dict:
    return {"eq_day": eq_day, "coseismic_mm": size_mm, "postseismic_mm": 0.0}


_LOW_SNR = {"white_mm": 3.0, "flicker_mm": 6.0}

CASES: tuple[Case, ...] = (
    Case("C01", "clean_10yr_no_offset", dict(n_years=10, velocity_mm_yr=12, seed=101)),
    Case("C02", "clean_10yr_offset_25", dict(n_years=10, velocity_mm_yr=12, **_step(1500, 25), seed=102)),
    Case("C03", "seasonal_8_no_offset", dict(n_years=10, velocity_mm_yr=6, annual_mm=8, seed=103)),
    Case("C04", "seasonal_8_offset_20", dict(n_years=10, velocity_mm_yr=6, annual_mm=8, **_step(2000, 20),
                                             seed=104)),
    Case("C05", "low_snr_no_offset", dict(n_years=10, velocity_mm_yr=3, **_LOW_SNR, seed=105)),
    Case("C06", "low_snr_offset_25", dict(n_years=10, velocity_mm_yr=3, **_LOW_SNR, **_step(1500, 25), seed=106)),
    Case("C07", "small_offset_8", dict(n_years=10, velocity_mm_yr=12, **_step(1500, 8), seed=107)),
    Case("C08", "very_small_offset_4", dict(n_years=10, velocity_mm_yr=12, **_step(1500, 4), seed=108)),
    Case("C09", "short_2yr_no_offset", dict(n_years=2, velocity_mm_yr=12, seed=109)),
    Case("C10", "short_2yr_offset_25", dict(n_years=2, velocity_mm_yr=12, **_step(365, 25), seed=110)),
    Case("C11", "short_seasonal_no_offset", dict(n_years=2, velocity_mm_yr=6, annual_mm=8, seed=111)),
    Case("C12", "negative_velocity_late_offset", dict(n_years=10, velocity_mm_yr=-8, **_step(3000, 15), seed=112)),
)

#: Seeds of the tolerance derivation, disjoint from the eval set (docs/gnss.md#cases), 1000 onwards.
DERIVATION_SEED_START = 1000
#: Seeds of the held-out final check, disjoint from the eval set and from the derivation seeds.
HELD_OUT_SEED_START = 5000


def case_by_id(case_id: str) -> Case:
    """The case named ``case_id``; raises KeyError naming the known ids otherwise."""
    for case in CASES:
        if case.case_id == case_id:
            return case
    raise KeyError(f"unknown case {case_id!r}; known: {', '.join(c.case_id for c in CASES)}")


def held_out_cases(n_per_case: int = 1, start: int = HELD_OUT_SEED_START) -> list[Case]:
    """The twelve case designs again with fresh seeds (``start`` onwards): the final check on unseen noise.

    Ids read ``C01-h5000``; raises ValueError when ``n_per_case`` < 1.
    """
    if n_per_case < 1:
        raise ValueError(f"n_per_case must be at least 1, got {n_per_case}")
    fresh, seed = [], start
    for case in CASES:
        for _ in range(n_per_case):
            fresh.append(Case(f"{case.case_id}-h{seed}", case.description, {**case.params, "seed": seed}))
            seed += 1
    return fresh


#: The four cases the course material plots (docs/gnss.md#cases): a clean baseline, a seasonal case with
#: an offset, a noisy offset and the 4 mm offset at the edge of detectability.
PLOT_CASES = ("C01", "C04", "C06", "C08")

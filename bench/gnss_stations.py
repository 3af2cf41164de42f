"""Real stations: the reference, agent v1 and agent v2 against the published figures (docs/gnss.md#reference).

Run: ``.venv/bin/python bench/gnss_stations.py`` (``--markdown`` for a Markdown table). For each station
excerpt of ``tests/data/gnss/real`` named in its ``published.json`` (and the Mexico-City-like synthetic
station, whose truth is known), prints each estimator's offset (date, mm) and velocity (mm/yr) beside
the published figure, the verdict of each agent against the reference, and, for the Mexico-City-like
case, MIDAS with and without the step v2 declares (what leaning on the agent under test would cost).
No figure is typed here: every number is computed from the files or read from ``published.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evallib.gnss.agents import day_index, fit_v2  # noqa: E402
from evallib.gnss.midas import midas_velocity  # noqa: E402
from evallib.gnss.readers import read_series  # noqa: E402
from evallib.gnss.station import estimate_station  # noqa: E402
from evallib.gnss.synthetic import subsiding_station  # noqa: E402

REAL = ROOT / "tests" / "data" / "gnss" / "real"
EXTRA_COMPONENTS = {"KKN4": ("east", "up"), "LHAS": ("up",)}


def _num(value, fmt=".1f") -> str:
    return "—" if value is None or (isinstance(value, float) and not np.isfinite(value)) else format(value, fmt)


def _offset(estimate) -> str:
    return "none" if estimate.offset_date is None else f"{estimate.offset_date.isoformat()} {estimate.offset_mm:+.1f}"


def station_rows() -> list[dict]:
    """One row per (station, component, estimator)."""
    published = json.loads((REAL / "published.json").read_text(encoding="utf-8"))["stations"]
    rows = []
    for entry in published:
        components = (entry["component"], *EXTRA_COMPONENTS.get(entry["station"], ()))
        for component in components:
            series = (subsiding_station() if entry["file"] == "synthetic"
                      else read_series(REAL / entry["file"], component))
            result = estimate_station(series)
            grades = {g.agent: g for g in result.grades}
            main = component == entry["component"]
            for estimate in result.estimates:
                grade = grades.get(estimate.agent)
                rows.append({
                    "station": entry["station"], "component": component,
                    "estimator": "reference" if estimate.agent == "midas" else estimate.agent,
                    "offset": _offset(estimate), "velocity": _num(estimate.velocity_mm_yr),
                    "sigma": _num(estimate.sigma_mm_yr),
                    "published_offset": _num(entry["offset_mm"]) if main else "—",
                    "published_velocity": _num(entry["velocity_mm_yr"]) if main else "—",
                    "verdict": "" if grade is None else ("pass" if grade.passed else "fail: " + ", ".join(grade.failures)),
                })
    return rows


def leaning_on_v2() -> dict:
    """MIDAS on the Mexico-City-like station without any agent's step and with v2's step."""
    series = subsiding_station()
    t, d = day_index(series.observed), series.observed["disp_mm"].to_numpy(dtype=float)
    fit = fit_v2(series.observed)
    alone = midas_velocity(t, d)
    with_v2 = midas_velocity(t, d, () if fit.step_day is None else (float(fit.step_day),))
    return {"v2_step_mm": None if fit.step_day is None else fit["step_mm"],
            "without": (alone.velocity_mm_yr, alone.sigma_mm_yr, alone.n_pairs),
            "with_v2": (with_v2.velocity_mm_yr, with_v2.sigma_mm_yr, with_v2.n_pairs)}


def main(argv: list[str] | None = None) -> int:
    markdown = "--markdown" in (argv if argv is not None else sys.argv[1:])
    rows = station_rows()
    columns = ["station", "component", "estimator", "offset", "velocity", "sigma", "published_offset",
               "published_velocity", "verdict"]
    if markdown:
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for row in rows:
            print("| " + " | ".join(str(row[c]) for c in columns) + " |")
    else:
        widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns}
        print("  ".join(c.ljust(widths[c]) for c in columns))
        for row in rows:
            print("  ".join(str(row[c]).ljust(widths[c]) for c in columns))
    lean = leaning_on_v2()
    (v0, s0, n0), (v1, s1, n1) = lean["without"], lean["with_v2"]
    print(f"\nMexico-City-like (truth -287.0 mm/yr up): MIDAS without agent steps {v0:.1f} ± {s0:.1f} on {n0} pairs; "
          f"with v2's step ({_num(lean['v2_step_mm'], '+.1f')} mm after the gap) {v1:.1f} ± {s1:.1f} on {n1} pairs "
          f"({n1 / n0:.2f} of the pairs)")
    print("units: offsets mm (after minus before, first day after the jump), velocities and sigma mm/yr; "
          "published figures from tests/data/gnss/real/published.json ('—': not found)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

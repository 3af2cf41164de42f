"""The task specification as data, its text, the output-schema guard and the grader (docs/gnss.md#spec).

A spec fixes the inputs (``date`` and ``disp_mm`` only), the output schema (exactly three keys) and
the tolerances. `score_case` never raises on an agent's output: a missing key, a wrong type, a value
that is not a dict (prose, a list, None) becomes a scored failure carrying its problems as data
(``(code, values)`` pairs a page can translate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from numbers import Integral, Real

import numpy as np

#: Output keys and what each holds (the spec's schema).
OUTPUT_KEYS = ("velocity_mm_yr", "offset", "offset_day")
#: Seed 001: a case passes only if the velocity is within 1.5 mm/yr and the offset day within 30 days.
DEFAULT_VELOCITY_TOL = 1.5
DEFAULT_DAY_TOL = 30
#: Spec v2's method clause: the physical model of the fit (docs/gnss.md#spec).
METHOD_V2 = ("estimate the velocity by least squares with annual and semi-annual terms and, if an offset "
             "is flagged, a step function at the detected day")


@dataclass(frozen=True)
class Spec:
    """A versioned task specification.

    Attributes:
        version: "v1", "v2", "v3"...
        velocity_tol_bands: ``((min_years, tol_mm_yr), ...)`` in decreasing ``min_years``: a record of
            T years gets the tolerance of the first band with T >= min_years (one band (0, tol): a
            single tolerance).
        day_tol: largest |offset_day - truth| in days when an offset exists and is flagged.
        method: a required method clause ("" for none).
    """

    version: str
    velocity_tol_bands: tuple[tuple[float, float], ...] = ((0.0, DEFAULT_VELOCITY_TOL),)
    day_tol: int = DEFAULT_DAY_TOL
    method: str = ""
    derived_from: dict = field(default_factory=dict)

    def velocity_tol(self, n_years: float) -> float:
        """Tolerance in mm/yr for a record of ``n_years``; raises ValueError when no band covers it."""
        for min_years, tol in self.velocity_tol_bands:
            if n_years >= min_years:
                return tol
        raise ValueError(f"no velocity tolerance band covers a record of {n_years} years")

    def with_tolerances(self, velocity_tol: float | None = None, day_tol: int | None = None) -> "Spec":
        """A copy with edited tolerances (one velocity tolerance for every length); ValueError if not positive."""
        bands = self.velocity_tol_bands if velocity_tol is None else ((0.0, float(velocity_tol)),)
        day = self.day_tol if day_tol is None else int(day_tol)
        if any(tol <= 0 for _, tol in bands) or day < 0:
            raise ValueError(f"tolerances must be positive, got velocity {bands}, day {day}")
        return replace(self, velocity_tol_bands=bands, day_tol=day)


SPEC_V1 = Spec("v1")
SPEC_V2 = Spec("v2", method=METHOD_V2)


def length_dependent_spec(long_tol: float, short_tol: float, min_long_years: float, version: str = "v3",
                          derived_from: dict | None = None) -> Spec:
    """Spec v2's method with ``long_tol`` for records of at least ``min_long_years`` and ``short_tol`` below."""
    return Spec(version, ((float(min_long_years), float(long_tol)), (0.0, float(short_tol))), DEFAULT_DAY_TOL,
                METHOD_V2, derived_from or {})


def render_spec(spec: Spec) -> str:
    """The spec as the plain text an agent (or a reader) is given: inputs, output schema, tolerances.

    >>> print(render_spec(SPEC_V1).splitlines()[0])
    TASK: characterise a GNSS displacement series (spec v1)
    """
    bands = spec.velocity_tol_bands
    if len(bands) == 1:
        velocity = [f"  |velocity_mm_yr - truth| <= {bands[0][1]:g} mm/yr"]
    else:
        velocity = [f"  |velocity_mm_yr - truth| <= {tol:g} mm/yr for records of at least {years:g} years"
                    if years > 0 else f"  |velocity_mm_yr - truth| <= {tol:g} mm/yr for shorter records"
                    for years, tol in bands]
    lines = [
        f"TASK: characterise a GNSS displacement series (spec {spec.version})",
        "Report the secular velocity in mm/yr and flag any coseismic offset.",
        "INPUT: a table with columns `date` (daily) and `disp_mm` (one component, millimetres).",
        "No other column may be used.",
        "OUTPUT: a JSON object with exactly these keys:",
        "  velocity_mm_yr: number, the secular velocity in mm/yr",
        "  offset: true or false, true if a coseismic offset is present",
        "  offset_day: integer day index (0 = first day) of the offset if offset is true, else null",
    ]
    if spec.method:
        lines.append(f"METHOD (required): {spec.method}.")
    lines += ["TOLERANCES (a case passes only if all hold):", *velocity,
              "  the offset flag matches the truth",
              f"  if an offset exists and is flagged: |offset_day - truth| <= {spec.day_tol} days"]
    return "\n".join(lines)


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def _is_day(value: object) -> bool:
    return isinstance(value, Integral) and not isinstance(value, (bool, np.bool_))


def validate_result(result: object) -> list[tuple[str, dict]]:
    """Problems of an agent output against the schema, as ``(code, values)``; [] when it holds.

    Codes: ``not_a_dict`` (type), ``missing_key`` (key), ``unexpected_key`` (key), ``wrong_type``
    (key, type), ``not_finite`` (key), ``offset_day_missing`` (offset true but no day).

    >>> validate_result({"velocity_mm_yr": "about 12 mm/yr", "offset": False})
    [('missing_key', {'key': 'offset_day'}), ('wrong_type', {'key': 'velocity_mm_yr', 'type': 'str'})]
    """
    if not isinstance(result, dict):
        return [("not_a_dict", {"type": type(result).__name__})]
    problems = [("missing_key", {"key": k}) for k in OUTPUT_KEYS if k not in result]
    problems += [("unexpected_key", {"key": str(k)}) for k in result if k not in OUTPUT_KEYS]
    checks = {"velocity_mm_yr": _is_number, "offset": lambda v: isinstance(v, (bool, np.bool_)),
              "offset_day": lambda v: v is None or _is_day(v)}
    for key, check in checks.items():
        if key in result and not check(result[key]):
            problems.append(("wrong_type", {"key": key, "type": type(result[key]).__name__}))
    if _is_number(result.get("velocity_mm_yr")) and not math.isfinite(result["velocity_mm_yr"]):
        problems.append(("not_finite", {"key": "velocity_mm_yr"}))
    if result.get("offset") is True and "offset_day" in result and result["offset_day"] is None:
        problems.append(("offset_day_missing", {}))
    return problems


def describe_problems(problems: list[tuple[str, dict]]) -> str:
    """The problems in English for logs and the CLI ("missing key 'offset_day'; ...")."""
    words = {"not_a_dict": "not a dict: got {type}", "missing_key": "missing key '{key}'",
             "unexpected_key": "unexpected key '{key}'", "wrong_type": "'{key}' has type {type}",
             "not_finite": "'{key}' is not finite", "offset_day_missing": "offset is true but offset_day is null"}
    return "; ".join(words[code].format(**values) for code, values in problems)


@dataclass(frozen=True)
class CaseScore:
    """The grade of one agent output on one case (all checks False when the output is malformed)."""

    velocity_ok: bool
    flag_ok: bool
    day_ok: bool
    problems: tuple[tuple[str, dict], ...] = ()

    @property
    def malformed(self) -> bool:
        return bool(self.problems)

    @property
    def offset_ok(self) -> bool:
        return self.flag_ok and self.day_ok

    @property
    def passed(self) -> bool:
        return self.velocity_ok and self.flag_ok and self.day_ok and not self.problems


def score_case(result: object, truth: dict, spec: Spec = SPEC_V1) -> CaseScore:
    """Grade an output against the truth under ``spec``; never raises on the output's content.

    ``truth`` needs ``velocity_mm_yr``, ``offset``, ``offset_day`` and ``n_years``. The day check
    applies only when an offset exists and is flagged (docs/gnss.md#spec).

    >>> score_case({"velocity_mm_yr": 12.4, "offset": False, "offset_day": None},
    ...            {"velocity_mm_yr": 12, "offset": False, "offset_day": None, "n_years": 10}).passed
    True
    """
    problems = validate_result(result)
    if problems:
        return CaseScore(False, False, False, tuple(problems))
    velocity_ok = abs(float(result["velocity_mm_yr"]) - truth["velocity_mm_yr"]) <= spec.velocity_tol(truth["n_years"])
    flag_ok = bool(result["offset"]) == bool(truth["offset"])
    day_ok = True
    if truth["offset"] and result["offset"]:
        day_ok = abs(int(result["offset_day"]) - int(truth["offset_day"])) <= spec.day_tol
    return CaseScore(bool(velocity_ok), flag_ok, day_ok)

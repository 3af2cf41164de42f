"""A loaded run bundle's figures against the figures recomputed from its inputs and answers.

A page that loads a bundle (`evallib.runs.bundle`) recomputes its report with the functions that made it,
so that what it shows comes from the code, not from numbers stored in a file; the stored report must then
be the recomputed one, up to the last bits of a float that another machine may compute differently. A
report edited by hand is refused (`RunBundleError` ``figures_differ``) rather than shown.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from evallib.runs.bundle import RunBundleError, plain

#: Relative (and absolute, near 0) tolerance of two floats of a report.
FIGURE_TOLERANCE = 1e-9


def finite(value: object) -> object:
    """``value`` as plain JSON (`evallib.runs.bundle.plain`) with every nan or infinite float replaced by None."""
    value = plain(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


def same_figures(a: object, b: object) -> bool:
    """True when two JSON values are equal, floats up to `FIGURE_TOLERANCE`; a bool is never a number."""
    numbers = (int, float)
    if isinstance(a, float) or isinstance(b, float):
        return (isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool)
                and not isinstance(b, bool) and math.isclose(a, b, rel_tol=FIGURE_TOLERANCE, abs_tol=FIGURE_TOLERANCE))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_figures(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_figures(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def first_difference(a: object, b: object, path: str = "") -> str | None:
    """The path ("/pair/kappa", "/readings/3/code") where two JSON values first differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}/{key}"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return next((f for i, (x, y) in enumerate(zip(a, b)) if (f := first_difference(x, y, f"{path}/{i}"))), None)
    return None if same_figures(a, b) else (path or "/")


def check_recomputed(recomputed: Mapping, stored: Mapping) -> None:
    """Raise `RunBundleError` ``figures_differ`` (details: path) unless every field of ``recomputed`` is in
    ``stored`` with the same value; fields only in ``stored`` (a command's gate) are not compared."""
    where = first_difference(dict(recomputed), {key: stored[key] for key in recomputed if key in stored})
    if where is not None:
        raise RunBundleError("figures_differ", f"the figures stored in the bundle (at report{where}) are not those "
                             "its inputs and answers give: was it edited by hand?", path=f"report{where}")

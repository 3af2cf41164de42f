"""Labels that differ only by case ("Yes" / "yes"): found, read, and folded on request (docs/kappa.md#case-variants).

Labels are compared as stripped text, so "Yes" and "yes" are two categories: a pair of raters who
write the same verdict with different capitals looks like a disagreement (four categories where the
raters meant two; kappa 0.40 where folding gives 0.75 in the audit's example). Nothing is folded
silently, since case can carry meaning ("A" and "a" as two grades); `case_variants` says when it
happens and `fold_case` merges each group into one spelling when the user asks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from evallib.agreement.ratings import Label, is_missing
from evallib.readings import Reading


def _key(label: object) -> str:
    return str(label).strip().casefold()


def case_groups(categories: Sequence[Label]) -> list[tuple[str, ...]]:
    """Groups of two or more text categories equal once stripped and case-folded, each sorted; numbers never.

    >>> case_groups(("No", "Yes", "no", "yes", "maybe"))
    [('No', 'no'), ('Yes', 'yes')]
    """
    groups: dict[str, list[str]] = {}
    for label in categories:
        if isinstance(label, str):
            groups.setdefault(_key(label), []).append(label)
    return sorted(tuple(sorted(group)) for group in groups.values() if len(group) > 1)


def case_variants(categories: Sequence[Label], kappa: float | None = None,
                  kappa_folded: float | None = None) -> Reading | None:
    """``case_variants`` when some labels differ only by case, with the groups and both kappas; else None.

    Values: ``labels`` (the groups as text, "Yes / yes, No / no"), ``n_groups``, ``k`` (categories
    now), ``k_folded`` (after folding), ``kappa`` and ``kappa_folded``; the code is
    ``case_variants_undefined`` when either kappa is None (undefined or not given).
    """
    groups = case_groups(categories)
    if not groups:
        return None
    code = "case_variants" if kappa is not None and kappa_folded is not None else "case_variants_undefined"
    return Reading(code, {
        "labels": ", ".join(" / ".join(group) for group in groups), "n_groups": len(groups),
        "k": len(categories), "k_folded": len(categories) - sum(len(group) - 1 for group in groups),
        "kappa": kappa, "kappa_folded": kappa_folded})


def fold_case(by_rater: Sequence[Sequence[object]]) -> list[list[object]]:
    """Every rater's labels with each case group written one way: its most frequent spelling.

    ``by_rater`` of shape (n_raters, n_items). A tie between spellings goes to the first in sorted
    order (so the result does not depend on the order of the items). Missing ratings and numbers
    are kept as they are; labels are stripped. Returns lists of the same shape.

    >>> fold_case([["Yes", "no", "yes"], ["yes", "No", None]])
    [['yes', 'No', 'yes'], ['yes', 'No', None]]
    """
    rows = [list(row) for row in by_rater]
    flat = np.empty(sum(len(row) for row in rows), dtype=object)
    flat[:] = [value for row in rows for value in row]
    codes, uniques = pd.factorize(flat)
    counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
    by_text: dict[str, int] = {}
    for value, count in zip(uniques, counts):
        if isinstance(value, str) and not is_missing(value):
            by_text[value.strip()] = by_text.get(value.strip(), 0) + int(count)
    spelling: dict[str, str] = {}
    for text in sorted(by_text):  # sorted: on a tie the first spelling in sorted order stays
        best = spelling.get(_key(text))
        if best is None or by_text[text] > by_text[best]:
            spelling[_key(text)] = text
    mapped = np.array([spelling[_key(v)] if isinstance(v, str) and not is_missing(v) else v for v in uniques]
                      + [None], dtype=object)
    folded = mapped[codes]  # code -1 reads the None at the end
    out, start = [], 0
    for row in rows:
        out.append(list(folded[start:start + len(row)]))
        start += len(row)
    return out


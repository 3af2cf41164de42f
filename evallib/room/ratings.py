"""The kappa rated by the room: participants rate the same items, agreement computed as ratings arrive.

`room_agreement` turns the stored ratings (participant, item, label) into an items x participants
matrix, missing where a participant has not rated an item yet, and computes

- Fleiss' kappa on the items every participant rated (`evallib.agreement.fleiss_kappa_with_interval`);
- Krippendorff's alpha (nominal) on every item rated by at least two participants, missing ratings
  allowed (`evallib.agreement.krippendorff_alpha_with_interval`);

each with its percentile bootstrap 95 % interval, the **item** as the resampled unit. And who
disagrees most with the room: for each participant and each item they rated, the label held by a
strict majority of the *other* participants (their own vote left out, at least two other ratings);
the share of those items where the participant gave another label. A coefficient that cannot be
computed yet (one rater, one item) is None with the code of `AgreementInputError` as its ``note``:
the board waits rather than fails.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evallib.agreement import (AgreementInputError, fleiss_kappa_with_interval,
                               krippendorff_alpha_with_interval)
from evallib.readings import Reading


@dataclass(frozen=True)
class Coefficient:
    """A coefficient with its bootstrap interval; ``n_items`` items entered it; ``note`` says why it is None."""

    value: float | None
    low: float | None
    high: float | None
    n_items: int
    note: str | None = None


@dataclass(frozen=True)
class RaterDisagreement:
    """``disagreements`` of ``compared`` items (those with a strict majority among the others) for one participant."""

    participant: str
    rated: int
    compared: int
    disagreements: int

    @property
    def share(self) -> float | None:
        return self.disagreements / self.compared if self.compared else None


@dataclass(frozen=True)
class RoomAgreement:
    items: tuple[str, ...]
    raters: tuple[str, ...]
    matrix: tuple[tuple[str | None, ...], ...]   # items x raters, None where not rated
    fleiss: Coefficient
    alpha: Coefficient
    raters_by_disagreement: tuple[RaterDisagreement, ...]   # highest share first, undefined last
    readings: tuple[Reading, ...]


def ratings_matrix(ratings: Iterable, items: Sequence[str] | None = None
                   ) -> tuple[tuple[str, ...], tuple[str, ...], list[list[str | None]]]:
    """(items, raters, matrix items x raters) from objects with ``participant``, ``item_id``, ``label``.

    Items: ``items`` when given (ratings of other items are ignored), else in first-rated order.
    Raters in first-rating order. A later rating of the same item by the same participant wins.
    """
    ratings = list(ratings)
    item_ids = list(items) if items is not None else list(dict.fromkeys(r.item_id for r in ratings))
    raters = list(dict.fromkeys(r.participant for r in ratings))
    row_of = {item: i for i, item in enumerate(item_ids)}
    column_of = {name: j for j, name in enumerate(raters)}
    matrix: list[list[str | None]] = [[None] * len(raters) for _ in item_ids]
    for r in ratings:
        if r.item_id in row_of and str(r.label).strip():
            matrix[row_of[r.item_id]][column_of[r.participant]] = str(r.label).strip()
    return tuple(item_ids), tuple(raters), matrix


def _strict_majority(labels: list[str]) -> str | None:
    if len(labels) < 2:
        return None
    label, count = Counter(labels).most_common(1)[0]
    return label if count * 2 > len(labels) else None


def disagreement_with_majority(matrix: Sequence[Sequence[str | None]], raters: Sequence[str]) -> list[RaterDisagreement]:
    """Per participant, how often they differ from the strict majority of the others (module docstring)."""
    result = []
    for j, name in enumerate(raters):
        rated = compared = disagreements = 0
        for row in matrix:
            if row[j] is None:
                continue
            rated += 1
            majority = _strict_majority([x for k, x in enumerate(row) if k != j and x is not None])
            if majority is not None:
                compared += 1
                disagreements += row[j] != majority
        result.append(RaterDisagreement(name, rated, compared, disagreements))
    return result


def _coefficient(compute, data, n_boot: int, seed: int, n_items_of) -> Coefficient:
    try:
        result, interval = compute(data, n_boot=n_boot, seed=seed)
    except AgreementInputError as error:
        return Coefficient(None, None, None, 0, error.code)
    value = getattr(result, "kappa", getattr(result, "alpha", None))
    return Coefficient(value, interval.low, interval.high, n_items_of(result), result.note)


def _disagreement_reading(rows: Sequence[RaterDisagreement]) -> Reading:
    defined = [r for r in rows if r.share is not None]
    if not defined:
        return Reading("room_majority_none", {"raters": len(rows)})
    top = max(r.share for r in defined)
    leaders = [r for r in defined if r.share == top]
    values = {"share": top, "participants": tuple(r.participant for r in leaders),
              "compared": leaders[0].compared, "disagreements": leaders[0].disagreements}
    if top == 0:
        return Reading("room_majority_all_agree", values)
    if len(leaders) > 1:
        return Reading("room_majority_tie", values)
    return Reading("room_majority_outlier", {**values, "participant": leaders[0].participant})


def room_agreement(ratings: Iterable, items: Sequence[str] | None = None, *, n_boot: int = 2000,
                   seed: int = 0) -> RoomAgreement:
    """Agreement of the room's ratings so far (module docstring); never raises on too few ratings.

    Readings: ``room_ratings_waiting`` (fewer than two raters, or fewer than two items rated by two),
    else ``room_ratings_ready`` (values: raters, complete items, pairable items); then one of
    ``room_majority_none`` (no participant has an item with a majority of others), ``room_majority_all_agree``,
    ``room_majority_tie`` (several participants share the highest disagreement share) and
    ``room_majority_outlier`` (one participant disagrees most; values: participant, share, compared).
    """
    item_ids, raters, matrix = ratings_matrix(ratings, items)
    pairable = sum(sum(x is not None for x in row) >= 2 for row in matrix)
    complete = sum(all(x is not None for x in row) for row in matrix) if raters else 0
    if len(raters) >= 2 and item_ids:
        fleiss = _coefficient(fleiss_kappa_with_interval, matrix, n_boot, seed, lambda r: r.n_items)
        transposed = [list(column) for column in zip(*matrix)]
        alpha = _coefficient(krippendorff_alpha_with_interval, transposed, n_boot, seed, lambda r: r.n_units)
    else:
        fleiss = alpha = Coefficient(None, None, None, 0, "too_few_raters" if len(raters) < 2 else "empty")
    counts = {"raters": len(raters), "complete_items": complete, "pairable_items": pairable, "items": len(item_ids)}
    ready = len(raters) >= 2 and pairable >= 2
    disagreement = disagreement_with_majority(matrix, raters)
    ordered = sorted(disagreement, key=lambda r: (r.share is None, -(r.share or 0.0)))
    readings = (Reading("room_ratings_ready" if ready else "room_ratings_waiting", counts),
                _disagreement_reading(disagreement))
    return RoomAgreement(item_ids, raters, tuple(tuple(row) for row in matrix), fleiss, alpha, tuple(ordered),
                         readings)

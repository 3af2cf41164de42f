"""The board: a room's attempts compared fairly, and the winner's curse shown.

Each attempt carries per-item outcomes (``items``: id, held_out, correct or None when unscored; see
`evallib.room.attempts`). The board

1. ranks the attempts by their accuracy on the visible items (Clopper-Pearson 95 % interval, the item,
   e.g. the query, as the unit); ties keep the submission order;
2. compares the best with every other attempt by McNemar's exact test on the items both scored
   (overlapping intervals are not a test: the attempts answered the same items, so they are paired);
3. corrects for multiplicity with Holm's step-down method over **all** pairs of attempts, not only the
   comparisons with the best: the best is chosen by the same data, so "best vs j" is a data-selected
   subset of the pairwise family, and only a correction over the whole family keeps the chance of any
   false "significantly worse" at most ``alpha`` when all attempts are equally good (checked by
   simulation in the tests). Holm is valid under any dependence between the tests;
4. groups the attempts the data cannot tell apart from the best (Holm-adjusted p >= alpha, or the
   other attempt won the discordant items);
5. re-measures the top attempts on the held-out items (winner's curse: the maximum of many noisy
   scores is biased upward; Kaggle's public/private split is the same remedy) and reads the gap.

Sources: McNemar (1947), Psychometrika 12:153-157 (exact binomial form, as
`evallib.triggering.comparison.mcnemar_exact`); Holm (1979), Scand. J. Statist. 6:65-70 (same as
statsmodels ``multipletests(method="holm")``); Clopper & Pearson (1934).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special

from evallib.readings import Reading
from evallib.cluster_rates import ClusteredRate

ALPHA = 0.05
#: How many of the top attempts are re-measured on the held-out items.
TOP_K = 3


@dataclass(frozen=True)
class BoardRow:
    """One attempt on the board. ``p_vs_best`` is McNemar's exact p against the best on their common
    scored items (None for the best itself), ``p_adjusted`` the same after Holm over all pairs;
    ``b`` items the best got right and this one wrong, ``c`` the reverse."""

    number: int
    participant: str
    rank: int
    accuracy: ClusteredRate
    p_vs_best: float | None
    p_adjusted: float | None
    b: int
    c: int
    tied_with_best: bool


@dataclass(frozen=True)
class CurseRow:
    """A top attempt's accuracy on the visible items beside its accuracy on the held-out items."""

    number: int
    participant: str
    rank: int
    visible: ClusteredRate
    held_out: ClusteredRate
    reading: Reading


@dataclass(frozen=True)
class Board:
    """The compared attempts (``rows``, best first), the top ones re-measured on held-out items, the
    board's reading, and how it compared: level ``alpha``, ``n_pairs`` pairs corrected together,
    the paired ``unit`` (e.g. "query", from the attempts)."""

    rows: tuple[BoardRow, ...]
    winners_curse: tuple[CurseRow, ...]
    reading: Reading
    alpha: float
    n_pairs: int
    unit: str
    correction: str = "holm_all_pairs"


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the input order.

    Sorted ascending p_(1) <= ... <= p_(m): adjusted p_(i) = max_{k <= i} min(1, (m - k + 1) p_(k)).
    Reject hypothesis i at level alpha when its adjusted p < alpha. Source: Holm (1979).

    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    if p.size == 0:
        return p
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (p.size - np.arange(p.size)) * p[order])
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def mcnemar_p(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """McNemar's exact two-sided p for arrays of discordant counts: min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2).

    p = 1 when b + c = 0 (nothing to weigh). Same as `evallib.triggering.comparison.mcnemar_exact`.
    """
    b, c = np.asarray(b), np.asarray(c)
    return np.minimum(1.0, 2 * special.bdtr(np.minimum(b, c), b + c, 0.5))


def _matrices(attempts: Sequence, held_out: bool) -> tuple[np.ndarray, np.ndarray]:
    """(scored, correct) boolean matrices, attempts x items (union of the items' ids, in first-seen order)."""
    ids: dict[str, int] = {}
    for attempt in attempts:
        for item in attempt.payload["items"]:
            if item["held_out"] == held_out:
                ids.setdefault(item["id"], len(ids))
    scored = np.zeros((len(attempts), len(ids)), dtype=bool)
    correct = np.zeros_like(scored)
    for i, attempt in enumerate(attempts):
        for item in attempt.payload["items"]:
            if item["held_out"] == held_out and item["correct"] is not None:
                scored[i, ids[item["id"]]] = True
                correct[i, ids[item["id"]]] = item["correct"]
    return scored, correct


def pairwise(scored: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B, p, p_holm): B[i, j] items right for i and wrong for j (both scored); p[i, j] McNemar's exact p
    of i against j; p_holm the same after Holm over the m(m-1)/2 pairs (diagonal: nan)."""
    right = (scored & correct).astype(np.int64)
    wrong = (scored & ~correct).astype(np.int64)
    b = right @ wrong.T
    p = mcnemar_p(b, b.T)
    upper = np.triu_indices(len(b), k=1)
    adjusted = np.full(p.shape, np.nan)
    adjusted[upper] = holm(p[upper])
    adjusted.T[upper] = adjusted[upper]
    np.fill_diagonal(p, np.nan)
    return b, p, adjusted


def _rate(scored_row: np.ndarray, correct_row: np.ndarray) -> ClusteredRate:
    return ClusteredRate.of((int(right), 1) for right in correct_row[scored_row])


def held_out_reading(visible: ClusteredRate, held_out: ClusteredRate) -> Reading:
    """What the held-out figure says about the visible one.

    Codes: ``held_out_none`` (no held-out item scored), ``held_out_lower`` (the held-out 95 % interval
    lies entirely below the visible accuracy: the visible figure was partly luck of the selection),
    ``held_out_higher`` (entirely above), ``held_out_agrees`` (the visible accuracy lies inside the
    held-out interval; with few held-out items that interval is wide, see ``held_out_n``).
    """
    values = {"visible": visible.value, "visible_n": visible.n, "held_out": held_out.value,
              "held_out_n": held_out.n, "low": held_out.low, "high": held_out.high}
    if not held_out.defined or not visible.defined:
        return Reading("held_out_none", values)
    if held_out.high < visible.value:
        return Reading("held_out_lower", values)
    if held_out.low > visible.value:
        return Reading("held_out_higher", values)
    return Reading("held_out_agrees", values)


def build_board(attempts: Sequence, *, alpha: float = ALPHA, top_k: int = TOP_K) -> Board:
    """The `Board` of ``attempts`` (objects with ``number``, ``participant`` and a validated ``payload``,
    as `evallib.room.storage.StoredAttempt`), all of one kind.

    Readings (``reading``): ``board_empty`` (no attempt), ``board_no_items`` (no visible item scored),
    ``board_single`` (one attempt), ``board_all_tied`` (the data cannot tell any attempt from the best),
    ``board_separated`` (some attempts are significantly worse than the best). Values: attempts,
    tied, alpha, pairs, best (its number).
    """
    attempts = list(attempts)
    scored, correct = _matrices(attempts, held_out=False)
    m = len(attempts)
    n_pairs = m * (m - 1) // 2
    unit = attempts[0].payload.get("unit", "item") if attempts else "item"
    if m == 0:
        return Board((), (), Reading("board_empty", {"attempts": 0}), alpha, 0, unit)
    rates = [_rate(scored[i], correct[i]) for i in range(m)]
    order = sorted(range(m), key=lambda i: (rates[i].value is None, -(rates[i].value or 0.0), attempts[i].number))
    best = order[0]
    b, p, adjusted = pairwise(scored, correct)
    rows = []
    for rank, i in enumerate(order, start=1):
        other = i != best
        worse = other and adjusted[best, i] < alpha and b[best, i] > b[i, best]
        rows.append(BoardRow(attempts[i].number, attempts[i].participant, rank, rates[i],
                             float(p[best, i]) if other else None, float(adjusted[best, i]) if other else None,
                             int(b[best, i]) if other else 0, int(b[i, best]) if other else 0, not worse))
    held_scored, held_correct = _matrices(attempts, held_out=True)
    curse = []
    for rank, i in enumerate(order[:top_k], start=1):
        held = _rate(held_scored[i], held_correct[i])
        curse.append(CurseRow(attempts[i].number, attempts[i].participant, rank, rates[i], held,
                              held_out_reading(rates[i], held)))
    tied = sum(r.tied_with_best for r in rows)
    values = {"attempts": m, "tied": tied, "alpha": alpha, "pairs": n_pairs, "best": attempts[best].number}
    if not scored.any():
        code = "board_no_items"
    elif m == 1:
        code = "board_single"
    else:
        code = "board_all_tied" if tied == m else "board_separated"
    return Board(tuple(rows), tuple(curse), Reading(code, values), alpha, n_pairs, unit)

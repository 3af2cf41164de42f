"""The board: a room's attempts compared fairly, and the winner's curse shown.

Each attempt carries per-item outcomes (``items``, see `evallib.room.attempts`); what is paired and
how depends on the attempt's ``kind`` (`RULES`):

- "trigger" (queries) and "persona" (responses, assistant x probe): ``correct`` True/False (None
  when unscored), compared by McNemar's exact test on the items both scored;
- "judge" (cases): ``loss`` = (judge total - human score)², lower is better, compared by the exact
  sign-flip test of the paired differences (Fisher 1935, as `evallib.paired.sign_flip_test`, whose
  p it equals; all 2^n flips up to `evallib.paired.EXACT_MAX_CASES` cases).

The board, for attempts of one kind,

1. ranks the attempts by the figure their page shows on the visible items, read by the one function
   the pages use (`evallib.room.figures.attempt_figure`: trigger: accuracy over the decisions, its
   interval with the query as the unit, runs clustered; persona: leave-one-out accuracy with its
   bootstrap interval over probes; judge: quadratic-weighted kappa with its analytic interval, over
   cases); ties keep the submission order. The paired tests below pair one outcome per item (a
   trigger query counts right there only when every run was right);
2. compares the best with every other attempt by the kind's paired test on the same items
   (overlapping intervals are not a test: the attempts answered the same items, so they are paired);
3. corrects for multiplicity with Holm's step-down method over **all** pairs of the attempts on the
   board, not only the comparisons with the best (a room's board gets one attempt per participant and
   kind, `evallib.room.history.counted_attempts`: one person's flood of attempts adds no pair): the best is chosen by the same data, so "best vs j" is a data-selected
   subset of the pairwise family, and only a correction over the whole family keeps the chance of any
   false "significantly worse" at most ``alpha`` when all attempts are equally good (checked by
   simulation in the tests, for each kind). Holm is valid under any dependence between the tests;
4. groups the attempts the data cannot tell apart from the best (Holm-adjusted p >= alpha, or the
   other attempt did better on the paired items);
5. re-measures the top attempts on the held-out items (winner's curse: the maximum of many noisy
   scores is biased upward; Kaggle's public/private split is the same remedy), beside what luck alone
   lifts the best of this many attempts and the smallest drop the held-out items detect
   (`evallib.room.winners_curse`); a held-out part too small to check anything says so
   (`held_out_size_reading`);
6. gives each attempt a 95 % rank set (marginal: it holds for its own attempt) and names the attempts
   that could be the best, those whose set holds rank 1, valid after selection (`evallib.room.ranks`).

Steps 5 and 6 read each row's own figure, in its unit (`evallib.room.outcomes.figure_matrices`: per
trigger query its rate over the runs, per persona probe its share of recognised answers, per judge case
its contribution to the kappa), so that every number their sentences quote (the best's visible and
held-out figures, its lead, the difference of the top two) is the one its row shows.

Sources: McNemar (1947), Psychometrika 12:153-157 (exact binomial form, as
`evallib.triggering.comparison.mcnemar_exact`); Holm (1979), Scand. J. Statist. 6:65-70 (same as
statsmodels ``multipletests(method="holm")``); Clopper & Pearson (1934); Fisher (1935), The Design of
Experiments, section 21.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import special

from evallib.paired import EXACT_MAX_CASES, sign_flip_test
from evallib.readings import Reading
from evallib.room.figures import Figure, attempt_figure, attempt_model
from evallib.room.outcomes import figure_matrices
from evallib.room.persona_attempt import MIN_CHECK_PROBES
from evallib.room.ranks import RankUncertainty, rank_uncertainty
from evallib.room.winners_curse import DRAWS, POWER, CurseCheck, winners_curse

ALPHA = 0.05
#: How many of the top attempts are re-measured on the held-out items.
TOP_K = 3
#: Fewest held-out units the board reads as a check, per kind (`held_out_size_reading`); persona's
#: probes are the case in point (`evallib.room.persona_attempt`: one held-out probe of six).
MIN_HELD_OUT_UNITS = {"persona": MIN_CHECK_PROBES}
#: Flipped sums built at once in `sign_flip_p` (pairs x 2^n cells): about 16 MB of float64.
_BLOCK_CELLS = 1 << 21
#: As `evallib.paired`: float sums of the same numbers in another order count as ties.
_TOLERANCE = 1e-12


@dataclass(frozen=True)
class KindRule:
    """How the board treats one kind: the item key it pairs (``outcome``), the paired ``test``
    ("mcnemar_exact" or "sign_flip_exact"), whether a lower outcome is better, and the stored figure
    it ranks by (``figure``, under ``figures.visible`` / ``figures.held_out``; None: the accuracy
    computed from the items)."""

    outcome: str
    test: str
    lower_is_better: bool
    figure: str | None


RULES = {"trigger": KindRule("correct", "mcnemar_exact", False, "accuracy"),
         "persona": KindRule("correct", "mcnemar_exact", False, "accuracy"),
         "judge": KindRule("loss", "sign_flip_exact", True, "kappa"),
         # a judge without human scores: its verdict on validity agrees with the code graders' or not (per case)
         "judge_code": KindRule("code_agrees", "mcnemar_exact", False, None)}


@dataclass(frozen=True)
class BoardRow:
    """One attempt on the board. ``p_vs_best`` is the kind's paired p against the best on their common
    scored items (None for the best itself), ``p_adjusted`` the same after Holm over all pairs;
    ``b`` items the best did better on than this one (McNemar: right vs wrong), ``c`` the reverse.
    ``accuracy``: the ranked figure (`Figure`, as the attempt's page shows it; kappa for the judge);
    ``model``: the model the attempt measured (`evallib.room.models.attempt_model`, "" when unnamed)."""

    number: int
    participant: str
    rank: int
    accuracy: Figure
    p_vs_best: float | None
    p_adjusted: float | None
    b: int
    c: int
    tied_with_best: bool
    model: str = ""


@dataclass(frozen=True)
class CurseRow:
    """A top attempt's figure on the visible items beside the same figure on the held-out items;
    ``reading`` is the held-out check of `evallib.room.winners_curse.held_out_check`."""

    number: int
    participant: str
    rank: int
    visible: Figure
    held_out: Figure
    reading: Reading


@dataclass(frozen=True)
class Board:
    """The compared attempts (``rows``, best first), the top ones re-measured on held-out items, the
    board's reading, and how it compared: level ``alpha``, ``n_pairs`` pairs corrected together,
    the paired ``unit`` (e.g. "query", from the attempts), the ``kind`` and its paired ``test``; the
    ``models`` compared and what that ``scope`` reads (set by `evallib.room.models.model_boards`)."""

    rows: tuple[BoardRow, ...]
    winners_curse: tuple[CurseRow, ...]
    reading: Reading
    alpha: float
    n_pairs: int
    unit: str
    correction: str = "holm_all_pairs"
    kind: str = "trigger"
    test: str = "mcnemar_exact"
    models: tuple[str, ...] = ()
    scope: Reading | None = None
    #: The pack the attempts were made on: id, version, hash ({}: made before packs; evallib.room.room_pack).
    pack: Mapping | None = None
    #: The winner's curse of the top attempts, aligned with ``winners_curse`` (`evallib.room.winners_curse`).
    curse: tuple[CurseCheck, ...] = ()
    #: Rank sets, the attempts that could be the best, items needed (`evallib.room.ranks`).
    ranks: RankUncertainty | None = None


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


def sign_flip_p(differences: np.ndarray) -> np.ndarray:
    """Two-sided sign-flip p of each row of paired differences: shape (pairs, n) -> (pairs,).

    A case a pair does not share is a 0: it changes no flipped sum, so the share of flips reaching
    the observed |sum| is the same with or without it. Up to `EXACT_MAX_CASES` columns every one of the
    2^n sign vectors is counted (exact, as `evallib.paired.sign_flip_test`); beyond, each row goes
    through `sign_flip_test` (Monte Carlo). p = 1 when every difference is 0.
    """
    d = np.asarray(differences, dtype=float)
    pairs, n = d.shape
    if n > EXACT_MAX_CASES:
        return np.array([sign_flip_test(row[row != 0]).p if row.any() else 1.0 for row in d])
    signs = 1.0 - 2.0 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)
    observed = np.abs(d.sum(axis=1))
    floor = observed - _TOLERANCE * np.maximum(observed, 1.0)
    p = np.empty(pairs)
    step = max(1, _BLOCK_CELLS // 2 ** n)
    for start in range(0, pairs, step):
        block = slice(start, start + step)
        p[block] = np.mean(np.abs(d[block] @ signs.T) >= floor[block, None], axis=1)
    return p


def _matrices(attempts: Sequence, held_out: bool, key: str = "correct") -> tuple[np.ndarray, np.ndarray]:
    """(scored, value) matrices, attempts x items (union of the items' ids, in first-seen order):
    ``scored`` where the item's ``key`` is not None, ``value`` the outcome as a float (0 elsewhere)."""
    ids: dict[str, int] = {}
    for attempt in attempts:
        for item in attempt.payload["items"]:
            if item["held_out"] == held_out:
                ids.setdefault(item["id"], len(ids))
    scored = np.zeros((len(attempts), len(ids)), dtype=bool)
    value = np.zeros(scored.shape)
    for i, attempt in enumerate(attempts):
        for item in attempt.payload["items"]:
            if item["held_out"] == held_out and item.get(key) is not None:
                scored[i, ids[item["id"]]] = True
                value[i, ids[item["id"]]] = float(item[key])
    return scored, value


def pairwise(scored: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B, p, p_holm): B[i, j] items right for i and wrong for j (both scored); p[i, j] McNemar's exact p
    of i against j; p_holm the same after Holm over the m(m-1)/2 pairs (diagonal: nan)."""
    correct = correct.astype(bool)
    right = (scored & correct).astype(np.int64)
    wrong = (scored & ~correct).astype(np.int64)
    b = right @ wrong.T
    return b, *_holm_matrix(mcnemar_p(b, b.T))


def pairwise_scores(scored: np.ndarray, values: np.ndarray, lower_is_better: bool = True
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B, p, p_holm) for paired scores: B[i, j] items both scored where i did better than j, p[i, j]
    the exact sign-flip p of their differences, p_holm the same after Holm over all pairs."""
    m = len(values)
    both = scored[:, None, :] & scored[None, :, :]
    diff = np.where(both, values[:, None, :] - values[None, :, :], 0.0)
    better = (diff < 0) if lower_is_better else (diff > 0)
    upper = np.triu_indices(m, k=1)
    p = np.ones((m, m))
    if len(upper[0]):
        p[upper] = sign_flip_p(diff[upper])
        p.T[upper] = p[upper]
    return better.sum(axis=2), *_holm_matrix(p)


def _holm_matrix(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    upper = np.triu_indices(len(p), k=1)
    adjusted = np.full(p.shape, np.nan)
    adjusted[upper] = holm(p[upper])
    adjusted.T[upper] = adjusted[upper]
    p = p.astype(float)
    np.fill_diagonal(p, np.nan)
    return p, adjusted


def _figure(attempt, part: str) -> Figure:
    """The ranked figure of one attempt on the visible or held-out part: the one its page shows
    (`evallib.room.figures.attempt_figure`)."""
    return attempt_figure(attempt.payload, part)


def held_out_too_small(kind: str, held_out: Figure) -> bool:
    """True when ``held_out`` (an attempt's held-out figure) rests on at least one unit but fewer than
    ``MIN_HELD_OUT_UNITS[kind]``: a number to show, not a check (no interval is shown for it)."""
    fewest = MIN_HELD_OUT_UNITS.get(kind)
    return fewest is not None and held_out.value is not None and 0 < (held_out.units or 0) < fewest


def held_out_size_reading(reading: Reading, held_out: Figure, kind: str, detectable: float | None = None) -> Reading:
    """The held-out check's ``reading`` unless the held-out part has too few units to check anything.

    With fewer than ``MIN_HELD_OUT_UNITS[kind]`` held-out units (persona: probes, fewer than
    `evallib.room.persona_attempt.MIN_CHECK_PROBES`), and at least one scored, the reading is
    ``curse_heldout_too_few``: the held-out figure is shown as a number, not as a check. Its values:
    visible, held_out (the row's figures), held_out_n (held-out units), needed (the fewest for a check),
    detectable (the smallest drop they detect, as the check computed it; ``detectable`` when its reading
    names none) and power_share.
    """
    if reading.code == "curse_heldout_none" or not held_out_too_small(kind, held_out):
        return reading
    fewest, units = MIN_HELD_OUT_UNITS[kind], held_out.units
    values = {"detectable": detectable, "power_share": POWER, "visible": None, "held_out": held_out.value}
    values.update({name: reading.values[name] for name in values if reading.values.get(name) is not None})
    return Reading("curse_heldout_too_few", {**values, "held_out_n": units, "needed": fewest})


def build_boards(attempts: Sequence, **options) -> dict[str, Board]:
    """One `Board` per kind present, in `RULES` order (``options`` as `build_board`).

    Every attempt given is compared (Holm counts m(m-1)/2 pairs for m attempts of a kind): give the
    room's `evallib.room.history.board_attempts`, one per participant and kind, not all its attempts."""
    kinds = {a.payload.get("kind", "trigger") for a in attempts}
    return {kind: build_board([a for a in attempts if a.payload.get("kind", "trigger") == kind], **options)
            for kind in RULES if kind in kinds}


def build_board(attempts: Sequence, *, alpha: float = ALPHA, top_k: int = TOP_K, draws: int = DRAWS) -> Board:
    """The `Board` of ``attempts`` (objects with ``number``, ``participant`` and a validated ``payload``,
    as `evallib.room.storage.StoredAttempt`), all of one kind (raises ValueError otherwise; use
    `build_boards` for a mixed room). ``draws``: bootstrap draws of the ranks
    (`evallib.room.ranks`).

    Readings (``reading``): ``board_empty`` (no attempt), ``board_no_items`` (no visible item scored),
    ``board_single`` (one attempt), ``board_all_tied`` (the data cannot tell any attempt from the best),
    ``board_separated`` (some attempts are significantly worse than the best),
    ``board_too_few_items`` (all tied, and no paired result could have passed: with n items the
    smallest two-sided p of either test is 2 / 2^n, and Holm's first step needs it below alpha / pairs;
    ``needed`` is the smallest n that could). Values: attempts, tied, alpha, pairs, best (its
    number), items (visible items scored by someone).
    """
    attempts = list(attempts)
    kinds = {a.payload.get("kind", "trigger") for a in attempts}
    if len(kinds) > 1:
        raise ValueError(f"a board compares attempts of one kind, got {sorted(kinds)}")
    kind = kinds.pop() if kinds else "trigger"
    rule = RULES[kind]
    m = len(attempts)
    n_pairs = m * (m - 1) // 2
    unit = attempts[0].payload.get("unit", "item") if attempts else "item"
    if m == 0:
        return Board((), (), Reading("board_empty", {"attempts": 0}), alpha, 0, unit, kind=kind, test=rule.test)
    scored, values = _matrices(attempts, False, rule.outcome)
    figures = [_figure(attempts[i], "visible") for i in range(m)]
    order = sorted(range(m), key=lambda i: (figures[i].value is None, -(figures[i].value or 0.0), attempts[i].number))
    best = order[0]
    if rule.test == "mcnemar_exact":
        b, p, adjusted = pairwise(scored, values)
    else:
        b, p, adjusted = pairwise_scores(scored, values, rule.lower_is_better)
    rows = []
    for rank, i in enumerate(order, start=1):
        other = i != best
        worse = other and adjusted[best, i] < alpha and b[best, i] > b[i, best]
        rows.append(BoardRow(attempts[i].number, attempts[i].participant, rank, figures[i],
                             float(p[best, i]) if other else None, float(adjusted[best, i]) if other else None,
                             int(b[best, i]) if other else 0, int(b[i, best]) if other else 0, not worse,
                             attempt_model(attempts[i].payload)))
    numbers = [a.number for a in attempts]
    # the curse and the ranks read each row's figure in its unit (evallib.room.outcomes): one figure per row
    shown, shown_values, _ = figure_matrices(attempts, "visible")
    held_shown, held_values, _ = figure_matrices(attempts, "held_out")
    checks = winners_curse(shown, shown_values, held_shown, held_values, order, numbers,
                           top_k=top_k, alpha=alpha)
    curse = []
    for c in checks:
        held_figure = _figure(attempts[c.index], "held_out")
        curse.append(CurseRow(attempts[c.index].number, attempts[c.index].participant, c.rank, figures[c.index],
                              held_figure, held_out_size_reading(c.reading, held_figure, kind, c.detectable)))
    ranks = rank_uncertainty(shown, shown_values, numbers, alpha=alpha, draws=draws)
    tied = sum(r.tied_with_best for r in rows)
    items = int(scored.any(axis=0).sum())
    values_ = {"attempts": m, "tied": tied, "alpha": alpha, "pairs": n_pairs, "best": attempts[best].number,
               "items": items}
    if not scored.any():
        code = "board_no_items"
    elif m == 1:
        code = "board_single"
    elif tied < m:
        code = "board_separated"
    elif 2.0 / 2 ** items * n_pairs >= alpha:
        code = "board_too_few_items"
        values_["needed"] = int(np.floor(np.log2(2 * n_pairs / alpha))) + 1
    else:
        code = "board_all_tied"
    return Board(tuple(rows), tuple(curse), Reading(code, values_), alpha, n_pairs, unit, kind=kind, test=rule.test,
                 curse=checks, ranks=ranks)

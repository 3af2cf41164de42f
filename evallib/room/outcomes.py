"""The per-item outcomes the board's winner's curse and ranks read: one figure per row.

The board ranks each attempt by its figure (`evallib.room.figures.attempt_figure`) and then says how
much luck lifts the best (`evallib.room.winners_curse`) and who could be the best
(`evallib.room.ranks`). Both read a matrix attempts x units and each attempt's **mean** over its
units. So that every sentence quotes the row's own figure, in its unit, the matrix built here holds,
per attempt and unit, that unit's contribution to the figure: its row mean **is** the figure
(`figure_matrices`), on the visible part and on the held-out one.

- trigger: the unit is the **query**. With k_q right runs out of n_q scored runs, the attempt's figure is
  r = K / N (K = sum k_q, N = sum n_q over its Q scored queries). The value of query q is
  r + (k_q - r n_q) / (N / Q): the query's rate k_q / n_q whenever every query has the same number of
  scored runs (always with one run per query, and when no run failed), and otherwise the query's
  share of the ratio K / N (its linearisation, the residual e_q = k_q - r n_q that the figure's
  cluster interval rests on, `evallib.cluster_rates`), which can leave [0, 1] by at most
  (1 - r) |n_q - N/Q| / (N/Q). The mean over queries is r exactly. An attempt stored before items
  kept their runs (no ``runs``) counts each query once, right when every run was right.
- persona: the unit is the **probe** (the figure's interval resamples probes): the same construction
  with k_p responses recognised out of n_p scored responses of probe p (the assistants), so the mean
  over probes is the accuracy over responses.
- judge: the unit is the **case**. Quadratic-weighted kappa on the 0..max scale is 1 - L / E, L the mean
  squared difference (judge total - human score)² over the cases, E the same mean over every pairing of
  a judge total with a human score (chance: var(judge) + var(human) + (mean judge - mean human)²,
  population moments; Cohen 1968). The value of case c is 1 - loss_c / E, E the attempt's on that
  part: the mean over cases is the kappa the row shows. E is held at its observed value (the
  contributions of a bootstrap draw keep the attempt's marginals). An attempt whose kappa is undefined
  (fewer than two cases, or E = 0) has no value; so has a case stored without its scores.
- judge_code: the unit is the case, its value 1 when the judge's validity verdict agrees with the code
  graders', else 0 (the mean is the share of agreeing cases the row shows).

Higher is better for every kind (a kappa, not a loss). The board's paired tests still pair the stored
per-item outcomes (`evallib.room.board.RULES`); only what the sentences quote reads this matrix.

Source: L. Kish (1965), Survey Sampling, Wiley, §6.4 (linearisation of a ratio estimator); J. Cohen
(1968), "Weighted kappa", Psychological Bulletin 70:213-220.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from evallib.room.figures import attempt_kind

def linearised(counts: Mapping[str, tuple[int, int]]) -> dict[str, float]:
    """Each unit's contribution r + (k - r n) / (N / Q) to the ratio r = K / N (module docstring).

    ``counts``: unit id -> (k successes, n scored trials); units with n = 0 are left out. Their mean is
    K / N; each is k / n when every n is the same.

    >>> linearised({"a": (2, 2), "b": (1, 2)})
    {'a': 1.0, 'b': 0.5}
    >>> v = linearised({"a": (3, 3), "b": (0, 1)}); round(sum(v.values()) / 2, 6) == 0.75
    True
    """
    used = {unit: kn for unit, kn in counts.items() if kn[1] > 0}
    if not used:
        return {}
    total_k = sum(k for k, _ in used.values())
    total_n = sum(n for _, n in used.values())
    rate, mean_n = total_k / total_n, total_n / len(used)
    return {unit: rate + (k - rate * n) / mean_n for unit, (k, n) in used.items()}


def _part(payload: Mapping, part: str) -> list[Mapping]:
    held = part == "held_out"
    return [i for i in payload.get("items", ()) if bool(i.get("held_out")) == held]


def _rate_units(items: Sequence[Mapping], unit_of) -> dict[str, float]:
    counts: dict[str, list[int]] = {}
    for item in items:
        if "runs" in item:  # a trigger query with its runs
            k, n = int(item["right"]), int(item["runs"])
        elif item.get("correct") is not None:
            k, n = int(bool(item["correct"])), 1
        else:
            continue
        tally = counts.setdefault(unit_of(item), [0, 0])
        tally[0] += k
        tally[1] += n
    return linearised({unit: (k, n) for unit, (k, n) in counts.items()})


def _probe(item: Mapping) -> str:
    """The probe of a persona response: its id before "/" (`evallib.room.persona_attempt.item_id`)."""
    return str(item["id"]).rsplit("/", 1)[0]


def kappa_contributions(items: Sequence[Mapping]) -> dict[str, float]:
    """Case id -> 1 - loss / E for the cases with a judge total and a human score (module docstring);
    empty when kappa is undefined (fewer than two such cases, or E = 0)."""
    cases = [i for i in items if i.get("score") is not None and i.get("human") is not None]
    if len(cases) < 2:
        return {}
    judge = np.array([float(i["score"]) for i in cases])
    human = np.array([float(i["human"]) for i in cases])
    chance = float(judge.var() + human.var() + (judge.mean() - human.mean()) ** 2)
    if chance <= 0:
        return {}
    return {str(i["id"]): 1.0 - (float(i["score"]) - float(i["human"])) ** 2 / chance for i in cases}


def unit_values(payload: Mapping, part: str = "visible") -> dict[str, float]:
    """One attempt's value per unit on ``part`` ("visible" or "held_out"): their mean is its figure
    (module docstring). Raises ValueError for an unknown kind."""
    kind = attempt_kind(payload)
    items = _part(payload, part)
    if kind == "trigger":
        return _rate_units(items, lambda item: str(item["id"]))
    if kind == "persona":
        return _rate_units(items, _probe)
    if kind == "judge":
        return kappa_contributions(items)
    return {str(i["id"]): float(bool(i["code_agrees"])) for i in items if i.get("code_agrees") is not None}


def figure_matrices(attempts: Sequence, part: str = "visible") -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """(scored, values, units) over ``attempts`` (objects with a ``payload``) on ``part``.

    ``scored`` (attempts, units) bool where the attempt has a value for the unit, ``values`` that value
    (0 elsewhere), ``units`` the unit ids in first-seen order (`unit_values`). Each row's mean over
    its scored cells is the attempt's figure on that part (`evallib.room.figures.attempt_figure`).
    """
    per_attempt = [unit_values(attempt.payload, part) for attempt in attempts]
    ids: dict[str, int] = {}
    for values in per_attempt:
        for unit in values:
            ids.setdefault(unit, len(ids))
    scored = np.zeros((len(attempts), len(ids)), dtype=bool)
    matrix = np.zeros(scored.shape)
    for i, values in enumerate(per_attempt):
        for unit, value in values.items():
            scored[i, ids[unit]] = True
            matrix[i, ids[unit]] = value
    return scored, matrix, tuple(ids)

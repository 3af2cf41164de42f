"""An attempt's figure, one function for its page and for the room's board (docs/room.md#page-board).

The board ranks attempts by a figure and its page shows one: both read it here, from the stored
attempt (`attempt_figure`), so that the page and the projector show the same number, the same 95 %
interval and the same unit. The unit is the field's, one per kind (`UNITS`):

- trigger: accuracy over every scored **decision** (all runs), its interval with the **query** as
  the unit (the runs of one query are one cluster: `evallib.cluster_rates.ClusteredRate`, as the
  trigger page's tables); stored by `evallib.room.attempts.build_trigger_attempt`;
- persona: leave-one-out accuracy over the **answers** of the visible probes, its percentile
  bootstrap interval with the **probe** as the unit (`evallib.persona.discriminability`);
- judge: quadratic-weighted kappa over the visible **cases** scored by a human and the judge, its
  analytic interval with the **case** as the unit;
- judge_code (a judge attempt without human scores): the share of visible **cases** where the judge's
  validity verdict agrees with the code graders', its Clopper-Pearson interval with the **case** as the
  unit (computed from the items' ``code_agrees``: the attempt stores no figure for it).

Each figure exists on two parts: ``visible`` (what the board ranks) and ``held_out`` (the items set
aside for the winner's curse; the page names both, `attempt_figures`).

An attempt that stores no figure (an early trigger attempt, a test's minimal payload) gets the
accuracy of its per-item outcomes, one item one unit (Clopper-Pearson over the items).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from evallib.cluster_rates import ClusteredRate

#: The interval's unit per kind (the item that is resampled or clustered).
UNITS = {"trigger": "query", "persona": "probe", "judge": "case", "judge_code": "case"}
#: What the figure's ``n`` counts per kind (the observations the value is computed on).
OBSERVATIONS = {"trigger": "decision", "persona": "response", "judge": "case", "judge_code": "case"}
#: The stored figure each kind ranks by, under ``figures.visible`` / ``figures.held_out``.
FIGURE_NAMES = {"trigger": "accuracy", "persona": "accuracy", "judge": "kappa", "judge_code": None}
#: The per-item outcome each kind pairs on the board (None: unscored).
OUTCOMES = {"trigger": "correct", "persona": "correct", "judge": "loss", "judge_code": "code_agrees"}
PARTS = ("visible", "held_out")
#: The provenance field naming the model an attempt measured, per kind (`attempt_model`).
MODEL_FIELD = {"trigger": "model", "persona": "model", "judge": "judge", "judge_code": "judge"}


@dataclass(frozen=True)
class Figure:
    """A figure: ``value`` with its 95 % interval (``low``, ``high``) computed on ``n`` observations.

    Beside it, compared by nobody (two figures are equal when value, interval and n are): ``k`` the
    successes when it is a rate (None for a kappa), ``unit`` the interval's unit ("query", "probe",
    "case", "item"), ``units`` how many of them, ``observation`` what ``n`` counts ("decision",
    "response", "case", "item"). Undefined figures have ``value`` None.
    """

    value: float | None
    low: float | None
    high: float | None
    n: int
    k: int | None = field(default=None, compare=False)
    unit: str = field(default="item", compare=False)
    units: int | None = field(default=None, compare=False)
    observation: str = field(default="item", compare=False)

    @property
    def defined(self) -> bool:
        return self.value is not None and self.low is not None

    @classmethod
    def stored(cls, data: Mapping | None, **extra) -> "Figure":
        """From a stored figure ``{"value", "ci95", "n", "k"?}`` (``extra``: the fields beside it)."""
        data = data or {}
        ci = data.get("ci95") or (None, None)
        k = data.get("k")
        return cls(data.get("value"), ci[0], ci[1], int(data.get("n", 0)), None if k is None else int(k), **extra)


def attempt_kind(payload: Mapping) -> str:
    """The attempt's kind ("trigger" for a version 1 attempt, which has none); ValueError if unknown."""
    kind = payload.get("kind", "trigger")
    if kind not in UNITS:
        raise ValueError(f"unknown attempt kind {kind!r}; expected one of {sorted(UNITS)}")
    return kind


def _items(payload: Mapping, part: str, outcome: str) -> list[Mapping]:
    held = part == "held_out"
    return [i for i in payload.get("items", ()) if bool(i.get("held_out")) == held and i.get(outcome) is not None]


def attempt_figure(payload: Mapping, part: str = "visible") -> Figure:
    """The figure of a stored attempt (``payload`` as `evallib.room.attempts.validate_attempt` returns
    it) on ``part`` ("visible" or "held_out"): the figure its page shows and the board ranks by.

    Shapes and units in the module docstring. Raises ValueError for an unknown kind or part.

    >>> attempt_figure({"kind": "trigger", "items": [{"id": "q", "held_out": False, "correct": True}]}).units
    1
    """
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, got {part!r}")
    kind = attempt_kind(payload)
    scored = _items(payload, part, OUTCOMES[kind])
    stored = ((payload.get("figures") or {}).get(part) or {}).get(FIGURE_NAMES[kind])
    extra = {"unit": UNITS[kind], "observation": OBSERVATIONS[kind]}
    if stored is None:  # no stored figure: the items' accuracy, one item one unit
        rate = ClusteredRate.of((int(bool(i[OUTCOMES[kind]])), 1) for i in scored) if kind != "judge" else None
        observed = OBSERVATIONS[kind] if kind == "judge_code" else "item"
        if rate is None or not rate.defined:
            return Figure(None, None, None, 0, None, UNITS[kind], 0, observed)
        return Figure(rate.value, rate.low, rate.high, rate.n, rate.k, UNITS[kind], rate.items, observed)
    if kind == "trigger":
        units = stored.get("items")
        return Figure.stored(stored, units=len(scored) if units is None else int(units), **extra)
    if kind == "persona":
        probes = {i.get("probe", i.get("id")) for i in scored}
        return Figure.stored(stored, units=len(probes), **extra)
    return Figure.stored(stored, units=int(stored.get("n", 0)), **extra)


def attempt_figures(payload: Mapping) -> dict[str, Figure]:
    """``{"visible": ..., "held_out": ...}``: both parts of `attempt_figure`, as a page names them."""
    return {part: attempt_figure(payload, part) for part in PARTS}


def attempt_model(payload: Mapping) -> str:
    """The model an attempt's figures come from ("" when it names none), stripped: ``provenance.model``
    (trigger, persona) or ``provenance.judge`` (judge). Raises ValueError for an unknown kind."""
    value = (payload.get("provenance") or {}).get(MODEL_FIELD[attempt_kind(payload)])
    return value.strip() if isinstance(value, str) else ""

"""An attempt's figure as text, the same on its page and on the room's board (docs/room.md#page-board).

Both the board's table (`ui.room.board`) and the "Submit to the room" box of each page
(`ui.room.submit`) write a figure read by `evallib.room.figures.attempt_figure` through these
functions: the same value, interval, counts and unit, in the session's language.
"""

from __future__ import annotations

from collections.abc import Mapping

from evallib.room.board import held_out_too_small
from evallib.room.figures import Figure, attempt_figures, attempt_kind
from ui.i18n import integer, interval, number, plural, t


def basis(figure: Figure) -> str:
    """What the figure rests on: "55/60 right decisions over 30 queries", "8 cases"; "—" when undefined."""
    if figure.value is None:
        return "—"
    units = plural(f"room.units.{figure.unit}", figure.units if figure.units is not None else figure.n)
    if figure.k is None:  # a kappa: computed on its units themselves
        return units
    observed = plural(f"room.observed.{figure.observation}", figure.n, k=integer(figure.k))
    return t("room.figure.basis", observed=observed, units=units)


def figure_text(figure: Figure, *, checked: bool = True) -> str:
    """"0.92 [0.76; 0.99], 55/60 right decisions over 30 queries", or "undefined" alone; without its
    interval when not ``checked`` (a held-out part too small for one: "0.83, 5/6 ... over 1 probe")."""
    if figure.value is None:
        return t("format.undefined")
    if not checked:
        return t("room.figure.text_bare", value=number(figure.value), basis=basis(figure))
    return t("room.figure.text", value=number(figure.value), interval=interval(figure.low, figure.high),
             basis=basis(figure))


def page_line(payload: Mapping) -> str:
    """The sentence a page shows under its room box: the attempt as the board will show it, both parts named."""
    kind = attempt_kind(payload)
    figures = attempt_figures(payload)
    held_out = figure_text(figures["held_out"], checked=not held_out_too_small(kind, figures["held_out"]))
    return t("room.figure.page", figure=t(f"room.board.figure.{kind}"), unit=t(f"room.unit.{figures['visible'].unit}"),
             visible=figure_text(figures["visible"]), held_out=held_out)

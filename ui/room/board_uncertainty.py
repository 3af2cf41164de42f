"""What the board adds on rank uncertainty and the winner's curse, drawn from `evallib.room.ranks` and
`evallib.room.winners_curse` (computed in `evallib.room.board.build_board`, on ``Board.ranks`` and
``Board.curse``): each attempt's 95 % rank set (a table column, marginal: it holds for its own attempt),
who could be the best (the attempts whose set holds rank 1), and how much luck lifted the best (its score
estimated after selection), above the held-out table whose cells read each top attempt's check.
"""

from __future__ import annotations

import streamlit as st

from evallib.room.board import Board
from ui.i18n import integer, percent, t


def rank_bounds(board: Board, number: int) -> tuple[int, int] | None:
    """Attempt ``number``'s 95 % rank set [low, high] on ``board`` (None when the board has no ranks)."""
    ranks = board.ranks
    if ranks is None or number not in ranks.numbers:
        return None
    i = ranks.numbers.index(number)
    return ranks.low[i], ranks.high[i]


def rank_cell(board: Board, number: int) -> dict[str, str]:
    """The rank-set column of the board's table for one attempt: "1–4", or "1" when certain."""
    bounds = rank_bounds(board, number)
    if bounds is None:
        text = "—"
    else:
        text = integer(bounds[0]) if bounds[0] == bounds[1] else f"{integer(bounds[0])}–{integer(bounds[1])}"
    return {t("room.col.rank_set"): text}


def rank_column_help(board: Board) -> dict[str, object]:
    """The grid's help on the rank-set column (what the set is, its unit, that it is marginal)."""
    return {t("room.col.rank_set"): st.column_config.TextColumn(
        help=t("room.col.rank_set_help", unit=t(f"room.unit.{board.unit}")))}


def rank_record(board: Board, number: int) -> dict[str, int | None]:
    """The rank set as plain values, for the board's download."""
    low, high = rank_bounds(board, number) or (None, None)
    return {"rank_low": low, "rank_high": high}


def curse_record(board: Board, rank: int) -> dict[str, object]:
    """The winner's curse of the top attempt at ``rank`` as plain values, for the held-out table's download."""
    check = next((c for c in board.curse if c.rank == rank), None)
    if check is None:
        return {}
    return {"luck_inflation": check.inflation, "estimate": check.estimate, "estimate_low": check.low,
            "estimate_high": check.high, "estimate_bound": check.bound, "others_mean": check.others, "lead": check.lead,
            "held_out_detectable_drop": check.detectable, "held_out_drop": check.drop, "luck_reading": check.luck.code}


def draw_uncertainty(board: Board) -> None:
    """Who could be the best (and the items it would take), then what luck alone lifts the best."""
    from ui.room.board import say  # the board's sentence maker (this module is drawn from it)

    if board.ranks is not None and board.rows:
        st.markdown(say(board.ranks.reading))
        st.caption(t("room.uncertainty.ranks_method", draws=integer(board.ranks.draws),
                     items=integer(board.ranks.reading.values["items"]), unit=t(f"room.unit.{board.unit}"),
                     confidence=percent(1 - board.ranks.alpha)))
    if board.curse:
        st.markdown(say(board.curse[0].luck))
        st.caption(t(f"room.uncertainty.measure.{board.kind}") + " "
                   + t("room.uncertainty.curse_method"))

"""The board of a room, for the projector: refreshes by itself, draws what `evallib.room` computed.

`board_section` runs `draw_board` as a fragment (``st.fragment(run_every=...)``, every
`refresh_seconds` seconds, ``EVALLIB_ROOM_REFRESH_SECONDS`` or the page's setting): only the board
reruns, the rest of the page stays still. The board ranks one attempt per participant and kind (their
latest or the one marked final: `evallib.room.history.board_attempts`) and shows, per kind and model (all models
together when the instructor mixes them: `evallib.room.models.model_boards`, saying which), the boards
(each attempt's model, figure and interval written as its page writes them, `ui.room.figure`, sorted, the paired test against the best with Holm's correction
over all pairs, the group the data cannot tell from the best, the winner's curse on held-out items)
and, when the room rates answers, `evallib.room.ratings.room_agreement` (Fleiss' kappa and
Krippendorff's alpha with their intervals, who departs most from the majority).

One board per room and change: each refresh asks the room's version (`room_version`, one query, no
payload read); the board is built and laid out (texts, chart, tables) once per process for a room,
version, language and presentation mode (`board_parts`), and every session showing it only draws
those shared parts. Thirty sessions used to build it thirty times per refresh (about 45 ms of CPU
each, queued on one core). A database that is down or locked gives a message and is tried again at
the next refresh.

A refresh draws only what changes: the download buttons of the board's tables are drawn with the page,
below the board (`board_downloads`, each file built at the click), and each session's period is its
own (`session_period`), so that thirty sessions opened together do not refresh in step.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace

import pandas as pd
import pyarrow as pa
import streamlit as st

from evallib.errors import InputError
from evallib.room.board import Board, held_out_too_small
from evallib.room.history import board_attempts
from evallib.room.models import mix_models, model_boards
from evallib.room.board_version import room_version
from evallib.room.rating_set import room_rating
from evallib.room.ratings import RoomAgreement, room_agreement
from evallib.room.storage import RoomStorageError, normalise_code
from ui.downloads import download_table
from ui.figures import SharedFigure, chart_config, figure_key, interval_bars
from ui.i18n import catalogue, clock, integer, interval, number, p_value, percent, plural, t
from ui.labels import md, name_list
from ui.readings import formatted
from ui.room.board_uncertainty import curse_record, draw_uncertainty, rank_cell, rank_column_help, rank_record
from ui.room.liveness import heartbeat
from ui.room.figure import basis, figure_text
from ui.room.messages import error_text
from ui.room.state import room_store
from ui.presentation import presenting
from ui.tables import draw_prepared, prepared_table, results_table

REFRESH_VARIABLE = "EVALLIB_ROOM_REFRESH_SECONDS"
DEFAULT_REFRESH = 3.0
REFRESH_KEY = "room.refresh"
REFRESH_CHOICES = (2, 3, 5, 10, 30)
#: Each session refreshes at the chosen period times a factor drawn once per session in [1 - s, 1 + s].
PERIOD_SPREAD = 0.1
SPREAD_KEY = "_room.board_period_factor"
#: The unit of each kind's interval (the board pairs per item; persona's interval resamples probes).
INTERVAL_UNIT = {"trigger": "query", "persona": "probe", "judge": "case", "judge_code": "case"}
#: The scale of each kind's figure on the chart: accuracies in [0, 1]; a kappa may go below 0.
VALUE_RANGE = {"trigger": (0, 1), "persona": (0, 1), "judge": (-1, 1), "judge_code": (0, 1)}
#: The held-out reading of a part too small to check anything (`evallib.room.board.held_out_size_reading`),
#: whose figure is shown without an interval (`evallib.room.board.held_out_too_small`).
TOO_FEW = "curse_heldout_too_few"


def refresh_seconds() -> float:
    """Seconds between two refreshes: the page's choice, else ``EVALLIB_ROOM_REFRESH_SECONDS``, else 3."""
    chosen = st.session_state.get(REFRESH_KEY)
    if isinstance(chosen, (int, float)) and chosen > 0:
        return float(chosen)
    try:
        value = float(os.environ.get(REFRESH_VARIABLE, DEFAULT_REFRESH))
    except ValueError:
        return DEFAULT_REFRESH
    return value if value > 0 else DEFAULT_REFRESH


def session_period(every: float) -> float:
    """This session's refresh period: ``every`` times its own factor in [1 - `PERIOD_SPREAD`, 1 + `PERIOD_SPREAD`],
    drawn at its first board (to the hundredth of a second).

    Thirty browsers that reconnect together (a restart of the server) start their board timers together;
    with one period for all, their thirty refreshes reached the server at the same instant every period,
    and each waited for the others' (one core, the interpreter's lock: the last one about 30 times one
    refresh). With periods a few percent apart the timers drift out of step within a few refreshes
    (±10 % of 3 s: 0.6 s further apart each period), and the refreshes arrive spread over the period.
    """
    factor = st.session_state.get(SPREAD_KEY)
    if not isinstance(factor, float):
        factor = st.session_state[SPREAD_KEY] = 1 + PERIOD_SPREAD * (2 * random.random() - 1)
    return round(every * factor, 2)


def say(reading, **extra) -> str:
    """A board or ratings reading as a sentence; names (tuples of participants) listed, escaped."""
    values = {k: v for k, v in reading.values.items() if not isinstance(v, (tuple, list))}
    lists = {k: name_list(list(v)) for k, v in reading.values.items() if isinstance(v, (tuple, list))}
    if reading.code == "scope_within_model":  # the model named whole, as in the table beside it
        extra = {"model": md(reading.values["model"], None), **extra}
    elif reading.code == "scope_mixed":
        extra = {"models": ", ".join(md(m, None) for m in reading.values["models"]), **extra}
    if reading.code.startswith("room_ratings_"):  # "1 participant", "2 participants": never "participant(s)"
        extra = {"raters": plural("room.instructor.participants", reading.values["raters"]), **extra}
    return t(f"room.reading.{reading.code}", **{**formatted(values, bands="room"), **lists, **extra})


@dataclass(frozen=True)
class KindParts:
    """One kind's board as drawn: its sentences, chart (None: no attempt), table and winner's curse table."""

    kind: str
    board: Board
    reading: str
    method: str
    figure: SharedFigure | None
    table: pa.Table | None  # `ui.tables.prepared_table`s
    curse: pa.Table | None
    key: str = ""  # unique on the page: the kind, then "<kind>_<i>" for a kind's board of another model


@dataclass(frozen=True)
class BoardParts:
    """A room's board as drawn, shared read-only by every session that shows it (`board_parts`)."""

    header: str
    kinds: tuple[KindParts, ...]
    agreement: RoomAgreement | None


@st.cache_resource(show_spinner=False, max_entries=64)
def board_parts(code: str, version: tuple, figures: str) -> BoardParts:
    """Room ``code``'s board built and laid out once per process for its ``version``
    (`evallib.room.board_version.room_version`) and ``figures`` (`ui.figures.figure_key`: language and
    presentation mode): thirty sessions on one board build it once, not thirty times per refresh.
    Streamlit computes one key once (the others wait for it); a failure (`RoomStorageError`) is not kept.
    """
    store = room_store()
    room = store.room(code)
    header = t("room.board.title", code=room.code) + (f" — {md(room.title, 80)}" if room.title else "")
    kinds = tuple(kind_parts(board.kind, board, key) for key, board in current_boards(store, code, room.settings).items())
    return BoardParts(header, kinds, current_agreement(store, code, room.settings))


def current_boards(store, code: str, settings=None) -> dict[str, Board]:
    """Room ``code``'s boards from its data now, by key: one per kind and model (`model_boards` of
    `board_attempts`) unless the room mixes models; the first board of a kind is keyed by the kind, the
    others by kind and position (``settings``: the room's, read when not given)."""
    settings = store.room(code).settings if settings is None else settings
    boards = model_boards(board_attempts(store, code), mixed=mix_models(settings))
    kinds = [board.kind for board in boards]
    keys = [board.kind if i == kinds.index(board.kind) else f"{board.kind}_{i}" for i, board in enumerate(boards)]
    return dict(zip(keys, boards))


def current_agreement(store, code: str, settings=None) -> RoomAgreement | None:
    """The agreement of room ``code``'s ratings now; None when the room rates nothing (``settings``: the
    room's, read when not given)."""
    rating = room_rating(store.room(code).settings if settings is None else settings)
    if rating is None:
        return None
    return room_agreement(store.ratings(code), [str(i["id"]) for i in rating["items"]])


#: The board's HTML tables (`st.table`) break lines between words only, never inside one (the page's
#: `ui.presentation.TABLE_STYLE` lets any word break so that wide tables fit): narrower cell padding keeps
#: them within 1280 px at presentation mode's 20 px (tests/test_browser_present_room.py measures both).
BOARD_STYLE = """<style>
.st-key-room-board [data-testid="stTable"] :is(th, td), .st-key-room-board [data-testid="stTable"] :is(th, td) * {
  overflow-wrap: normal !important; word-break: normal !important; }
.st-key-room-board [data-testid="stTable"] :is(th, td) { padding: 0.25rem 0.375rem; }
</style>"""


def board_section(code: str | None) -> None:
    """The board of room ``code`` (None: says how to get one), refreshed by itself."""
    if not code:
        st.info(t("room.board.none"))
        return
    st.html(BOARD_STYLE)
    default = refresh_seconds()
    st.columns([1, 3])[0].selectbox(t("room.board.refresh"), REFRESH_CHOICES, persist_state="session", key=REFRESH_KEY,
                 index=REFRESH_CHOICES.index(default) if default in REFRESH_CHOICES else None)
    every = session_period(refresh_seconds())
    with st.container(key="room-board"):
        st.fragment(draw_board, run_every=every)(code, every)
    board_downloads(code)


def board_downloads(code: str) -> None:
    """The board's tables to take home (CSV and JSON), below the board, drawn with the page rather than on
    each refresh: two dozen download buttons per refresh were a third of the refresh's cost, thirty
    sessions refreshing together (bench/room_sessions.py). Each file is built when it is clicked, from the
    room's data at that moment (never older than the board shown). Kinds that reach the board later get
    their buttons at the page's next run."""
    store = room_store()
    try:
        parts = board_parts(normalise_code(code), room_version(store, code), figure_key())
    except (RoomStorageError, InputError):
        return  # the board says what is wrong
    if not any(kind.figure is not None for kind in parts.kinds) and parts.agreement is None:
        return
    code = normalise_code(code)
    with st.expander(t("room.board.downloads")):
        for part in parts.kinds:
            key, models = part.key or part.kind, ", ".join(part.board.models)
            name = t(f"room.kind_short.{part.kind}") + (f" ({md(models, 80)})" if models else "")
            if part.figure is not None:
                download_table(f"room_board_{key}", lambda k=key: board_records(_board_of(store, code, k)),
                               key=f"room_board_{key}", label=t("room.board.download_ranking", kind=name))
            if part.curse is not None:
                download_table(f"room_curse_{key}", lambda k=key: curse_records(_board_of(store, code, k)),
                               key=f"room_curse_{key}", label=t("room.board.download_curse", kind=name))
        if parts.agreement is not None:
            download_table("room_raters", lambda: rater_records(current_agreement(store, code)),
                           label=t("room.kappa.who"))


def _board_of(store, code: str, key: str) -> Board | None:
    return current_boards(store, code).get(key)


def draw_board(code: str, every: float) -> None:
    """One refresh of the board (see the module docstring): one query when nothing changed, then drawing."""
    heartbeat(every)  # the browser says when these refreshes stop (ui.room.liveness)
    try:
        parts = board_parts(normalise_code(code), room_version(room_store(), code), figure_key())
    except (RoomStorageError, InputError) as error:
        if getattr(error, "code", "") == "unavailable":
            st.warning(t("room.store_down", reason=md(error.details.get("reason") or "—", 60)))
        else:
            st.warning(error_text(error))
        st.caption(t("room.board.retry"))
        return
    st.header(parts.header)
    st.caption(t("room.board.updated", time=clock(), seconds=number(every, ".0f")))
    if not parts.kinds:
        st.info(t("room.board.empty"))
    for kind in parts.kinds:
        draw_kind_parts(kind)
    if parts.agreement is not None:
        draw_agreement(parts.agreement)


def _figure_cells(figure) -> tuple[str, str, str]:
    """(value, interval, what it rests on) of a ranked figure, as its page writes them (`ui.room.figure`)."""
    return number(figure.value), interval(figure.low, figure.high), basis(figure)


def _model(name: str) -> str:
    return name or t("room.model.unknown")


def kind_parts(kind: str, board: Board, key: str | None = None) -> KindParts:
    """What `draw_kind_parts` draws for one kind's board: texts, chart and tables, built once."""
    interval_unit = t(f"room.unit.{INTERVAL_UNIT.get(kind, 'item')}")
    if board.n_pairs:
        method = t("room.board.method", test=t(f"room.test.{board.test}"), unit=t(f"room.unit.{board.unit}"),
                   pairs=integer(board.n_pairs), alpha=number(board.alpha), interval_unit=interval_unit)
    else:
        method = t("room.board.method_single", interval_unit=interval_unit)
    rows = []
    for row in board.rows:
        value, bounds, n = _figure_cells(row.accuracy)
        best = row.p_vs_best is None
        rows.append({t("room.col.rank"): integer(row.rank), **rank_cell(board, row.number),
                     t("room.col.attempt"): f"#{row.number}",
                     t("room.col.participant"): row.participant, t("room.col.model"): _model(row.model),
                     t("room.col.figure"): value, t("room.col.interval"): bounds, t("room.col.basis"): n,
                     t("room.col.p"): "—" if best else p_value(row.p_vs_best),
                     t("room.col.p_holm"): "—" if best else p_value(row.p_adjusted),
                     t("room.col.tied"): t("room.best") if best else (t("room.yes") if row.tied_with_best else t("room.no"))})
    figure = table = curse = None
    if rows:
        figures = [row.accuracy for row in board.rows]
        figure = SharedFigure(interval_bars([f"#{row.number} {row.participant}" for row in board.rows],
                               [f.value for f in figures], [f.low for f in figures], [f.high for f in figures],
                               title="", y_title=t(f"room.board.figure.{kind}"),
                               texts=[number(f.value) for f in figures], value_range=VALUE_RANGE.get(kind)))
        table = prepared_table(pd.DataFrame(rows), wrapped=presenting())  # as results_table draws it
    if board.winners_curse:
        curse = prepared_table(pd.DataFrame([{t("room.col.rank"): integer(row.rank), t("room.col.attempt"): f"#{row.number}",
                               t("room.col.participant"): row.participant,
                               t("room.col.visible"): figure_text(row.visible),
                               t("room.col.held_out"): figure_text(row.held_out,
                                                                   checked=not held_out_too_small(kind, row.held_out)),
                               t("room.col.reading"): say_plain(row.reading)} for row in board.winners_curse]),
                               wrapped=True)  # the readings are sentences: they wrap
    reading = say(board.reading)
    if board.scope is not None:  # which models this board compares (evallib.room.models.scope_reading)
        scope = board.scope
        if "models" in scope.values:
            scope = replace(scope, values={**scope.values, "models": tuple(map(_model, scope.values["models"]))})
        reading = f"{reading}\n\n{say(scope)}"
    if board.pack:  # attempts of other pack contents are on boards of their own (evallib.room.models)
        reading = f"{reading}\n\n" + t("room.board.pack", id=md(board.pack["id"], None),
                                         version=md(board.pack["version"], None))
    return KindParts(kind, board, reading, method, figure, table, curse, key or kind)


def draw_kind(kind: str, board: Board) -> None:
    """One kind's board: reading, method, a chart and the table of attempts, and the winner's curse."""
    draw_kind_parts(kind_parts(kind, board))


def draw_kind_parts(parts: KindParts) -> None:
    """Draw one kind's board from its parts (shared by the sessions: read only)."""
    kind, key = parts.kind, parts.key or parts.kind
    st.subheader(t(f"room.kind.{kind}"))
    st.markdown(parts.reading)
    st.caption(parts.method)
    if parts.figure is not None:
        st.plotly_chart(parts.figure, config=chart_config(), key=f"room_board_chart_{key}")
        draw_prepared(parts.table, wrapped=presenting(), width="stretch", column_config=rank_column_help(parts.board))
        draw_uncertainty(parts.board)
    if parts.curse is not None:
        st.markdown(f"**{t('room.curse.title')}**")
        st.caption(t("room.curse.why"))
        draw_prepared(parts.curse, wrapped=True)


def _figure_record(prefix: str, figure) -> dict:
    """A figure's values: value, interval, n observations (k of them right for a rate), units and their name."""
    return {f"{prefix}value": figure.value, f"{prefix}low": figure.low, f"{prefix}high": figure.high,
            f"{prefix}n": figure.n, f"{prefix}k": figure.k, f"{prefix}units": figure.units,
            f"{prefix}interval_unit": figure.unit}


def board_records(board: Board | None) -> list[dict]:
    """The board's rows as plain values for its CSV/JSON download (unit and test named on each row); none
    for no board."""
    return [] if board is None else [{"rank": row.rank, **rank_record(board, row.number), "attempt": row.number,
             "participant": row.participant, "model": row.model,
             **_figure_record("", row.accuracy), "unit": board.unit, "test": board.test,
             "p_vs_best": row.p_vs_best, "p_holm": row.p_adjusted, "tied_with_best": row.tied_with_best}
            for row in board.rows]


def curse_records(board: Board | None) -> list[dict]:
    """The winner's curse table as plain values: visible and held-out figures, the reading's code."""
    return [] if board is None else [{"rank": row.rank, **rank_record(board, row.number), "attempt": row.number,
             "participant": row.participant,
             **_figure_record("visible_", row.visible), **_figure_record("held_out_", row.held_out),
             "reading": row.reading.code, **curse_record(board, row.rank)} for row in board.winners_curse]


def say_plain(reading) -> str:
    """A held-out reading for a table cell (cells show text as typed: no Markdown escaping)."""
    values = {}
    for name, value in reading.values.items():
        if name.endswith("share"):
            values[name] = percent(value)
        else:
            values[name] = integer(value) if isinstance(value, int) and not isinstance(value, bool) else number(value)
    if reading.code == TOO_FEW:  # "1 probe", "5 probes": counted in the catalogue's plural forms
        values.update(probes=plural("room.units.probe", reading.values["held_out_n"]),
                      needed=plural("room.units.probe", reading.values["needed"]))
    return t(f"room.reading.{reading.code}", **values)


def _coefficient(column, label: str, coefficient) -> None:
    with column:
        st.metric(label, number(coefficient.value) if coefficient.value is not None else "—")
        if coefficient.value is None:
            key = f"room.note.{coefficient.note}"
            st.caption(t(key if key in catalogue() else "room.note.other"))
        else:
            st.caption(t("room.kappa.interval", interval=interval(coefficient.low, coefficient.high),
                         n=integer(coefficient.n_items)))


def draw_agreement(agreement: RoomAgreement) -> None:
    """The kappa rated by the room: Fleiss and Krippendorff with intervals, readings, who disagrees most."""
    st.subheader(t("room.kappa.title"))
    for reading in agreement.readings:
        st.markdown(say(reading))
    columns = st.columns(2)
    _coefficient(columns[0], t("room.kappa.fleiss"), agreement.fleiss)
    _coefficient(columns[1], t("room.kappa.alpha"), agreement.alpha)
    rows = [{t("room.col.participant"): r.participant, t("room.col.rated"): integer(r.rated),
             t("room.col.compared"): integer(r.compared), t("room.col.disagreements"): integer(r.disagreements),
             t("room.col.share"): percent(r.share)} for r in agreement.raters_by_disagreement]
    if rows:
        st.markdown(f"**{t('room.kappa.who')}**")
        results_table(pd.DataFrame(rows), hide_index=True, width="stretch")


def rater_records(agreement: RoomAgreement | None) -> list[dict]:
    """Who departs most from the majority, as plain values for the download; none without ratings."""
    return [] if agreement is None else [
        {"participant": r.participant, "rated": r.rated, "compared": r.compared, "disagreements": r.disagreements,
         "share": r.share} for r in agreement.raters_by_disagreement]

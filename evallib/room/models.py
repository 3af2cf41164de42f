"""Which model an attempt measured, and boards that compare attempts within one model (docs/room.md#models).

Two prompts tried on two models differ by the model as much as by the prompt: ranking them together
says nothing about the prompts. The board therefore compares attempts of one kind **within one
model** (`model_boards`: one `evallib.room.board.Board` per kind and model), unless the room's
instructor asks to mix models (the room setting `MIX_KEY`); each board says which
(`scope_reading`).

The model is the one that produced the figures: ``provenance.model`` for trigger and persona
attempts (the router, the assistants' model), ``provenance.judge`` for a judge attempt (the judge;
the judged answers are the page's own, fixed). An attempt that names none (an older or hand-made
payload) has model "" and is compared with the others that name none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from evallib.readings import Reading
from evallib.room.board import RULES, Board, build_board
from evallib.room.figures import attempt_kind, attempt_model
from evallib.room.room_pack import attempt_pack

#: The room setting (``Room.settings``) that lets the board mix models: True mixes, absent or False does not.
MIX_KEY = "mix_models"
def mix_models(settings: Mapping | None) -> bool:
    """Whether a room's settings ask the board to compare attempts of different models together."""
    return (settings or {}).get(MIX_KEY) is True


def scope_reading(models: Sequence[str], mixed: bool) -> Reading:
    """What a board compares, as a `Reading`.

    Codes: ``scope_within_model`` (one named model; values ``model``), ``scope_model_unknown`` (the
    attempts name no model), ``scope_mixed`` (several models compared together at the instructor's
    request; ``models`` the names, "" shown as unknown, ``count``). A mixed board of one model reads as
    that model's.
    """
    distinct = tuple(dict.fromkeys(models))
    if len(distinct) > 1:
        if not mixed:
            raise ValueError(f"a board within one model got several: {list(distinct)}")
        return Reading("scope_mixed", {"models": distinct, "count": len(distinct)})
    if not distinct or not distinct[0]:
        return Reading("scope_model_unknown", {})
    return Reading("scope_within_model", {"model": distinct[0]})


def model_boards(attempts: Sequence, *, mixed: bool = False, **options) -> list[Board]:
    """The room's boards: per kind (in `RULES` order), one per model (models in order of their first
    attempt, the unnamed model last), or one per kind with every model when ``mixed``.

    Attempts made on different pack contents (`evallib.room.room_pack.attempt_pack`: other items) are never
    on one board, mixed or not: each kind has one set of boards per pack, in order of first attempt.
    Each `Board` has ``models`` (its attempts' models, distinct, in order), ``scope`` (`scope_reading`) and
    ``pack`` (id, version, hash; {} for attempts made before packs); its rows carry their ``model``.
    ``options`` as `build_board`. Holm's correction then counts the pairs of each board only: attempts of
    another model or pack are not compared.
    """
    boards = []
    for kind in RULES:
        for pack in dict.fromkeys(_pack_key(a.payload) for a in attempts if attempt_kind(a.payload) == kind):
            of_pack = [a for a in attempts if attempt_kind(a.payload) == kind and _pack_key(a.payload) == pack]
            boards += _model_boards(of_pack, mixed, dict(pack), options)
    return boards


def _pack_key(payload) -> tuple:
    return tuple(sorted(attempt_pack(payload).items()))


def _model_boards(of_kind: Sequence, mixed: bool, pack: dict, options: dict) -> list[Board]:
    """The boards of one kind and one pack content: one per model, or one when ``mixed``."""
    boards = []
    models = list(dict.fromkeys(attempt_model(a.payload) for a in of_kind))
    if "" in models:
        models.remove("")
        models.append("")
    groups = [of_kind] if mixed else [[a for a in of_kind if attempt_model(a.payload) == m] for m in models]
    for group in groups:
        present = tuple(m for m in models if any(attempt_model(a.payload) == m for a in group))
        boards.append(replace(build_board(group, **options), models=present,
                              scope=scope_reading(present, mixed), pack=pack))
    return boards

"""The board says which pack its attempts were made on (docs/packs.md#app), in French and English; a board of
attempts made before packs says nothing of packs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import streamlit as st

from evallib.room.models import model_boards
from tests.evallib.room.conftest import trigger_payload
from ui.i18n import LANGUAGE_KEY
from ui.room.board import kind_parts

PACK = {"id": "small-office", "version": "0.1.0", "hash": "c" * 64}
SAID = {"fr": "Tentatives faites sur le pack small\\-office (version 0\\.1\\.0) seulement",
        "en": "Attempts made on the pack small\\-office (version 0\\.1\\.0) only"}


@pytest.fixture(params=["fr", "en"])
def lang(request):
    st.session_state[LANGUAGE_KEY] = request.param
    yield request.param
    del st.session_state[LANGUAGE_KEY]


def _entry(number: int, visible: list[bool], pack: dict | None) -> SimpleNamespace:
    payload = trigger_payload(visible)
    if pack is not None:
        payload["provenance"]["pack"] = pack
    return SimpleNamespace(number=number, participant=f"P{number}", payload=payload)


def test_the_board_names_its_pack(lang):
    [board] = model_boards([_entry(1, [True] * 12, PACK), _entry(2, [False] * 12, PACK)])
    assert SAID[lang] in kind_parts("trigger", board).reading


def test_a_board_of_attempts_made_before_packs_names_none(lang):
    [board] = model_boards([_entry(1, [True] * 12, None), _entry(2, [False] * 12, None)])
    assert "pack" not in kind_parts("trigger", board).reading

"""The Room page in AppTest: instructor token, opening a room, joining, names, leaving, hiding,
export and import, bad bundles and a database that does not answer.

Each test runs on a fresh SQLite file (``EVALLIB_DATABASE_URL``), with a known instructor token in
``EVALLIB_ROOM_INSTRUCTOR_TOKEN``; a few run on PostgreSQL too when Debian's binaries are installed
(the fixtures of tests/evallib/room/conftest.py). The test reaches the same database through its own
`RoomStore`, as another app process would.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from evallib.room.board import build_board
from evallib.room.bundle import export_room
from evallib.room.rating_set import RATING_KEY, default_rating_settings
from evallib.room.storage import RoomStorageError, RoomStore
from tests.evallib.room.conftest import database_url, trigger_payload  # noqa: F401 (fixtures)
from tests.pages.conftest import ROOT
from ui.i18n import catalogue
from ui.labels import md
from ui.room import instructor as panel
from ui.room.state import MEMBERSHIP, room_store

TOKEN = "instructor-token-for-page-tests"


def _text(key: str, lang: str = "en", **values) -> str:
    return catalogue()[key][lang].format(**values) if values else catalogue()[key][lang]


@pytest.fixture
def room_url(tmp_path, monkeypatch):
    """The app's database (a fresh SQLite file) and instructor token, set for this test only."""
    url = f"sqlite:///{tmp_path}/rooms.sqlite3"
    _use(monkeypatch, url)
    yield url
    _forget()


@pytest.fixture
def any_url(database_url, monkeypatch):  # noqa: F811 (the fixture of tests/evallib/room/conftest.py)
    """As `room_url`, on SQLite and on PostgreSQL."""
    _use(monkeypatch, database_url)
    yield database_url
    _forget()


def _use(monkeypatch, url: str) -> None:
    monkeypatch.setenv("EVALLIB_DATABASE_URL", url)
    monkeypatch.setenv("EVALLIB_ROOM_INSTRUCTOR_TOKEN", TOKEN)
    _forget()


def _forget() -> None:
    room_store.clear()


def _page(lang: str = "en", **state) -> AppTest:
    at = AppTest.from_file(ROOT, default_timeout=60)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page("pages/room.py").run()
    assert not at.exception
    assert at.title[0].value == _text("room.title", lang)
    return at


def _instructor(token: str = TOKEN, lang: str = "en") -> AppTest:
    at = _page(lang)
    at.text_input(key="room.instructor_token").input(token).run()
    return at


def _open(at: AppTest, title: str = "Atelier") -> str:
    at.text_input(key="room.new_title").input(title)
    at.button(key="room.open").click().run()
    assert not at.exception
    return at.session_state["room.managed"]


def _join(at: AppTest, code: str, name: str) -> AppTest:
    at.text_input(key="room.join_code").input(code)
    at.text_input(key="room.join_name").input(name)
    at.button(key="room.join").click().run()
    assert not at.exception
    return at


def _texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "success", "error", "warning", "info", "header")
             for e in at.get(kind)]
    return "\n".join(str(p) for p in parts)


def _table(at: AppTest, column: str):
    """The first table that has the column of ``column`` (a text key)."""
    return next(d.value for d in at.dataframe if _text(column) in d.value.columns)


def _store(url: str) -> RoomStore:
    return RoomStore(url, instructor_token=TOKEN)


def test_the_instructor_opens_a_room_and_sees_its_code_link_and_qr_code(room_url):
    at = _instructor()
    code = _open(at, "Atelier **gras**")
    assert [s.value for s in at.success] == [_text("room.instructor.opened", code=code)]
    assert _text("room.instructor.code_big", code=code) in [h.value for h in at.header]
    assert any(f"/room?code={code}" in c.value for c in at.get("code"))
    [image] = at.get("image")
    assert image.proto.imgs[0].caption == _text("room.instructor.qr_caption", code=code)
    room = _store(room_url).room(code)
    assert room.title == "Atelier **gras**" and not room.closed
    assert len(room.settings[RATING_KEY]["items"]) == 20 and room.settings[RATING_KEY]["labels"] == ["pass", "fail"]
    assert "Atelier \\*\\*gras\\*\\*" in _texts(at)  # the title is text, not bold
    at.button(key="room.close").click().run()
    assert _store(room_url).room(code).closed


def test_a_wrong_token_is_refused_and_opens_nothing(room_url):
    at = _instructor("not-the-token", lang="fr")
    at.text_input(key="room.new_title").input("x")
    at.button(key="room.open").click().run()
    assert [e.value for e in at.error] == [_text("room.error.bad_token", "fr")]
    assert "room.managed" not in at.session_state


def test_a_forged_managed_room_shows_nothing_without_the_right_token(room_url):
    """A participant who sets the panel's state (the managed room) by hand sees none of the room."""
    store = _store(room_url)
    code = store.open_room(TOKEN, "secret").code
    ana = store.join(code, "Ana")
    store.submit_attempt(code, ana.token, trigger_payload([True, False]))
    at = _page(**{"room.managed": code, "room.instructor_token": "guess"})
    assert [e.value for e in at.error] == [_text("room.error.bad_token")]
    assert not at.get("selectbox") or all(s.key != "room.attempt_pick" for s in at.selectbox)
    assert not [b for b in at.button if b.key == "room.close"]
    assert _text("room.board.none") in [i.value for i in at.info]


def test_a_click_with_a_token_changed_behind_the_panel_is_refused(room_url):
    """The token is checked when the action runs, not when the panel was drawn."""
    at = _instructor()
    code = _open(at)
    at.session_state["room.instructor_token"] = "changed"
    at.button(key="room.close").click().run()
    assert _text("room.error.bad_token") in [e.value for e in at.error]
    assert not _store(room_url).room(code).closed


def test_a_name_cut_to_forty_characters_is_told_with_the_name_kept(room_url):
    """The form takes 60 characters, the room keeps 40: the participant reads that the name was shortened,
    and under which name they joined (then, a second such name: shortened and numbered)."""
    code = _store(room_url).open_room(TOKEN).code
    typed = "Maximilienne-Apolline de la Tour d'Auvergne-Lauragais"  # 53 characters
    kept = typed[:40].strip()
    first = _join(_page(), code, typed)
    assert first.session_state[MEMBERSHIP].name == kept
    assert [w.value for w in first.warning] == [_text("room.join.shortened", code=code, limit=40, typed_length=53,
                                                      name=md(kept, None))]
    assert not first.success
    second = _join(_page(lang="fr"), code, typed)
    assert second.session_state[MEMBERSHIP].name == typed[:36].strip() + " (2)"
    assert [w.value for w in second.warning] == [_text("room.join.shortened_renamed", "fr", code=code, limit=40,
                                                       typed_length=53, name=md(typed[:36].strip() + " (2)", None))]


def test_join_duplicate_names_escaped_then_leave_and_join_again(any_url):
    store = _store(any_url)
    code = store.open_room(TOKEN).code
    first = _join(_page(), code.lower(), "Ana")
    assert [s.value for s in first.success] == [_text("room.join.joined", code=code, name="Ana")]
    second = _join(_page(lang="fr"), code, "  ana ")
    assert second.session_state[MEMBERSHIP].name == "ana (2)"
    assert [s.value for s in second.success] == [_text("room.join.renamed", "fr", code=code, typed="ana",
                                                        name="ana \\(2\\)")]
    third = _join(_page(), code, "[x](http://evil)")
    assert "\\[x\\]\\(http\\:" in third.success[0].value
    assert [p.name for p in store.participants(code)] == ["Ana", "ana (2)", "[x](http://evil)"]
    # Page switches keep the participant; leaving shows the form again and keeps nobody.
    first.switch_page("pages/kappa.py").run()
    first.switch_page("pages/room.py").run()
    assert first.session_state[MEMBERSHIP].name == "Ana"
    assert _text("room.join.member", code=code, title=_text("room.join.untitled"), name="Ana") in _texts(first)
    first.button(key="room.leave").click().run()
    assert MEMBERSHIP not in first.session_state
    assert [i.value for i in first.info][0] == _text("room.join.left", code=code)
    ana = first.session_state["room.former"]
    _join(first, code, "Another name")  # the same browser comes back as the same participant
    assert first.session_state[MEMBERSHIP] == ana
    assert [s.value for s in first.success] == [_text("room.join.back", code=code, name="Ana")]
    assert len(store.participants(code)) == 3


def test_the_code_in_the_link_fills_the_join_form(room_url):
    at = AppTest.from_file(ROOT, default_timeout=60)
    at.session_state["lang"] = "en"
    at.query_params["code"] = "acd-3e7"
    at.run()
    at.switch_page("pages/room.py").run()
    assert at.text_input(key="room.join_code").value == "ACD3E7"


def test_the_participant_token_never_shows_on_the_page(room_url):
    """Without a browser key (AppTest) the membership holds a token drawn by the store, never drawn as text."""
    code = _store(room_url).open_room(TOKEN).code
    at = _join(_page(), code, "Bea")
    token = at.session_state[MEMBERSHIP].token
    assert isinstance(token, str) and token not in _texts(at)


def _two_attempts(url: str) -> tuple[str, RoomStore, list[int]]:
    store = _store(url)
    code = store.open_room(TOKEN, "board").code
    ana, bea = store.join(code, "Ana"), store.join(code, "Bea")
    ids = [store.submit_attempt(code, ana.token, trigger_payload([True] * 28 + [False] * 2, [True, False])),
           store.submit_attempt(code, bea.token, trigger_payload([True] * 5 + [False] * 25, [False, False]))]
    return code, store, ids


def _manage(at: AppTest, code: str) -> AppTest:
    at.text_input(key="room.manage_code").input(code)
    at.button(key="room.manage").click().run()
    assert not at.exception
    return at


def test_the_board_and_hiding_an_attempt(room_url):
    code, store, ids = _two_attempts(room_url)
    at = _manage(_instructor(), code)
    board = _table(at, "room.col.tied")
    assert list(board[_text("room.col.participant")]) == ["Ana", "Bea"]
    assert _text("room.reading.board_separated", tied="1", attempts="2", best="1") in _texts(at)
    assert list(board[_text("room.col.tied")]) == [_text("room.best"), _text("room.no")]
    assert "Holm" in _texts(at) and "McNemar" in _texts(at)
    at.selectbox(key="room.attempt_pick").select_index(1).run()
    at.button(key="room.attempt_hide").click().run()
    assert [s.value for s in at.success] == [_text("room.attempts.hidden_done", number="2")]
    assert [a.hidden for a in store.attempts(code, include_hidden=True)] == [False, True]
    assert _text("room.reading.board_single", best="1") in _texts(at)
    at.button(key="room.attempt_hide").click().run()
    assert [a.hidden for a in store.attempts(code, include_hidden=True)] == [False, False]


def test_the_board_shows_rank_sets_the_possible_best_and_the_winners_curse(room_url):
    code, store, _ = _two_attempts(room_url)
    at = _manage(_instructor(), code)
    expected = build_board(store.attempts(code))
    board = _table(at, "room.col.rank_set")
    shown = [tuple(int(x) for x in cell.split("–")) if "–" in cell else (int(cell),) * 2
             for cell in board[_text("room.col.rank_set")]]
    assert shown == [(expected.ranks.low[i], expected.ranks.high[i]) for i in (0, 1)] == [(1, 1), (2, 2)]
    assert expected.ranks.reading.code == "ranks_best_separated"
    assert _text("room.reading.ranks_best_separated", best="1", attempts="2", items="30",
                 confidence_share="95%") in _texts(at)
    luck = expected.curse[0].luck
    assert luck.code == "curse_beyond_luck"  # 28/30 against 5/30: far more than luck lifts the best of two
    assert f"#1, {luck.values['visible']:.2f}" in _texts(at)
    assert _text("room.uncertainty.measure.trigger") in _texts(at)


def test_an_attempt_opens_with_its_inputs_as_text(room_url):
    code, store, ids = _two_attempts(room_url)
    at = _manage(_instructor(), code)
    at.selectbox(key="room.attempt_pick").select_index(0).run()
    assert "does a" in [c.value for c in at.get("code")]


def test_export_then_import_gives_the_same_room(any_url):
    code, store, _ = _two_attempts(any_url)
    store.hide_attempt(code, TOKEN, store.attempts(code)[1].id)
    store.rate(code, store.join(code, "Cy").token, "py-s3-inventory/A", "pass")
    at = _manage(_instructor(), code)
    at.button(key="room.export_prepare").click().run()
    exported = at.session_state[panel.EXPORT]
    assert exported[0] == code and at.get("download_button")
    at.file_uploader(key="room.import_file").set_value(("room.json", exported[1], "application/json")).run()
    at.button(key="room.import").click().run()
    assert not at.error
    new = at.session_state["room.managed"]
    assert new != code
    before, after = export_room(store, code, TOKEN), export_room(store, new, TOKEN)
    for part in ("participants", "attempts", "ratings"):
        assert [{k: v for k, v in row.items() if k not in ("id", "participant_id")} for row in before[part]] == \
               [{k: v for k, v in row.items() if k not in ("id", "participant_id")} for row in after[part]]
    assert after["room"]["settings"] == before["room"]["settings"]


BAD_BUNDLES = {
    "not_json": b'{"format": "evallib-room-bundle", "version": 1, "room": {',
    "not_ours": b'{"cells": []}',
    "newer_version": json.dumps({"format": "evallib-room-bundle", "version": 9}).encode(),
    "schema": json.dumps({"format": "evallib-room-bundle", "version": 1, "room": {}}).encode(),
}


@pytest.mark.parametrize("code", sorted(BAD_BUNDLES))
def test_a_bad_bundle_is_named_and_nothing_is_loaded(room_url, code):
    store = _store(room_url)
    at = _instructor(lang="fr")
    managed = _open(at)
    at.file_uploader(key="room.import_file").set_value(("x.json", BAD_BUNDLES[code], "application/json")).run()
    at.button(key="room.import").click().run()
    [error] = [e.value for e in at.error]
    assert error.startswith(_text(f"room.bundle_error.{code}", "fr", version="9", supported="1",
                                  path=_text("room.bundle_top", "fr"))[:25])
    assert "⟦" not in error
    assert at.session_state["room.managed"] == managed
    with store.transaction(read_only=True) as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM room_rooms").scalar() == 1


def test_an_inconsistent_bundle_says_what_contradicts(room_url):
    code, store, _ = _two_attempts(room_url)
    bundle = export_room(store, code, TOKEN)
    bundle["participants"][1]["name"] = bundle["participants"][0]["name"]
    at = _instructor()
    at.file_uploader(key="room.import_file").set_value(("x.json", json.dumps(bundle).encode(), "application/json")).run()
    at.button(key="room.import").click().run()
    assert [e.value for e in at.error] == [_text("room.bundle_error.inconsistent", what=_text("room.bundle_what.name"))]


def test_a_bundle_with_an_invalid_attempt_names_it(room_url):
    code, store, _ = _two_attempts(room_url)
    bundle = export_room(store, code, TOKEN)
    bundle["attempts"][1]["payload"]["items"] = "not a list"
    at = _instructor(lang="fr")
    at.file_uploader(key="room.import_file").set_value(("x.json", json.dumps(bundle).encode(), "application/json")).run()
    at.button(key="room.import").click().run()
    assert [e.value for e in at.error] == [_text("room.bundle_error.invalid_attempt", "fr", number="2")]
    assert len(store.attempts(code)) == 2
    with store.transaction(read_only=True) as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM room_rooms").scalar() == 1


def test_every_storage_bundle_and_rating_code_is_worded_in_both_languages():
    from ui.room.messages import BUNDLE_CODES, RATING_CODES, STORAGE_CODES
    known = catalogue()
    keys = [f"room.error.{c}" for c in STORAGE_CODES] + [f"room.bundle_error.{c}" for c in BUNDLE_CODES] + \
           [f"room.rating_error.{c}" for c in RATING_CODES]
    assert [k for k in keys if k not in known] == []


def test_an_unreachable_database_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    _use(monkeypatch, f"sqlite:///{tmp_path}")  # a folder: the database cannot be opened
    try:
        at = _join(_page(), "ACD3E7", "Ana")
        assert [e.value for e in at.error] == [_text("room.error.unavailable")]
        at.text_input(key="room.instructor_token").input(TOKEN).run()
        at.button(key="room.open").click().run()
        assert [e.value for e in at.error] == [_text("room.error.unavailable")]
        assert not at.exception
    finally:
        _forget()


def test_a_board_whose_database_stops_answering_says_so_and_recovers(room_url, monkeypatch):
    code, store, _ = _two_attempts(room_url)
    at = _join(_page(), code, "Cy")
    shared = room_store()  # the page's store (one per process)

    def down(*args, **kwargs):
        raise RoomStorageError("unavailable", "database is locked", reason="OperationalError")

    monkeypatch.setattr(shared, "transaction", down)  # every query, the board's version check included
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == [_text("room.store_down", reason="OperationalError")]
    monkeypatch.undo()
    _use(monkeypatch, room_url)  # undo dropped the environment too; the store stays cached
    at.run()
    assert not at.warning
    assert list(_table(at, "room.col.tied")[_text("room.col.participant")]) == ["Ana", "Bea"]



def test_the_kappa_rated_by_the_room_shows_both_coefficients_with_their_intervals(room_url):
    from evallib.room.ratings import room_agreement
    import streamlit as st

    from ui.i18n import LANGUAGE_KEY, integer, interval, number
    from ui.room.board import say

    # The expected texts are formatted here, outside the page: in French, whatever a previous test left.
    st.session_state[LANGUAGE_KEY] = "fr"

    store = _store(room_url)
    code = store.open_room(TOKEN, settings={RATING_KEY: default_rating_settings()}).code
    items = [i["id"] for i in store.room(code).settings[RATING_KEY]["items"]]
    for name, row in {"Ana": "ppffpp", "Bea": "ppfppp", "Cy": "pfffpf"}.items():
        token = store.join(code, name).token
        for item, label in zip(items, row):
            store.rate(code, token, item, "pass" if label == "p" else "fail")
    at = _join(_page(lang="fr"), code, "Dee")
    expected = room_agreement(store.ratings(code), items)
    # By hand: Cy departs from the two others' shared label on items 2 and 6, of the 5 where they share one.
    assert expected.readings[1].values["participant"] == "Cy"
    assert (expected.readings[1].values["disagreements"], expected.readings[1].values["compared"]) == (2, 5)
    assert expected.fleiss.value is not None and expected.alpha.value is not None
    assert {m.label: m.value for m in at.metric} == {_text("room.kappa.fleiss", "fr"): number(expected.fleiss.value),
                                                       _text("room.kappa.alpha", "fr"): number(expected.alpha.value)}
    shown = _texts(at)
    for coefficient in (expected.fleiss, expected.alpha):
        assert t_interval(coefficient, interval, integer) in shown
    assert say(expected.readings[1]) in shown


def t_interval(coefficient, interval, integer) -> str:
    return _text("room.kappa.interval", "fr", interval=interval(coefficient.low, coefficient.high),
                 n=integer(coefficient.n_items))


def test_the_board_ranks_one_attempt_per_person_and_hiding_all_of_someones_attempts(room_url):
    store = _store(room_url)
    code = store.open_room(TOKEN, "flood").code
    ana, bea = store.join(code, "Ana"), store.join(code, "Bea")
    store.submit_attempt(code, ana.token, trigger_payload([True] * 28 + [False] * 2, [True, False]))
    for n in range(4):  # Bea's flood: four attempts, the latest counts
        store.submit_attempt(code, bea.token, trigger_payload([True] * (5 + n) + [False] * (25 - n), [False, False]))
    at = _manage(_instructor(), code)
    board = _table(at, "room.col.tied")
    assert list(board[_text("room.col.participant")]) == ["Ana", "Bea"]  # not Bea four times
    at.selectbox(key="room.participant_pick").select(_text("room.attempts.participant_option", participant="Bea",
                                                           shown="4", hidden="0")).run()
    at.button(key="room.participant_hide").click().run()
    assert [s.value for s in at.success] == [_text("room.attempts.all_hidden_done", n="4", participant="Bea")]
    assert [a.hidden for a in store.attempts(code, include_hidden=True)] == [False, True, True, True, True]
    assert _text("room.reading.board_single", best="1") in _texts(at)


def test_attempts_of_two_models_are_ranked_apart_until_the_instructor_mixes_them(room_url):
    store = _store(room_url)
    code = store.open_room(TOKEN, "models").code
    for name, model, outcomes in (("Ana", "llama", [True] * 28 + [False] * 2), ("Bea", "qwen", [True] * 5 + [False] * 25)):
        payload = trigger_payload(outcomes, [True, False])
        payload["provenance"]["model"] = model
        store.submit_attempt(code, store.join(code, name).token, payload)
    at = _manage(_instructor(), code)
    boards = [d.value for d in at.dataframe if _text("room.col.tied") in d.value.columns]
    assert [list(b[_text("room.col.model")]) for b in boards] == [["llama"], ["qwen"]]
    assert all(_text("room.reading.scope_within_model", model=m) in _texts(at) for m in ("llama", "qwen"))
    assert not at.toggle(key="room.mix_models").value
    at.toggle(key="room.mix_models").set_value(True).run()
    assert not at.exception and store.room(code).settings["mix_models"] is True
    boards = [d.value for d in at.dataframe if _text("room.col.tied") in d.value.columns]
    assert [list(b[_text("room.col.model")]) for b in boards] == [["llama", "qwen"]]
    assert _text("room.reading.board_separated", tied="1", attempts="2", best="1") in _texts(at)
    assert _text("room.reading.scope_mixed", count="2", models="llama, qwen") in _texts(at)
    at.toggle(key="room.mix_models").set_value(False).run()
    assert store.room(code).settings["mix_models"] is False
    assert len([d for d in at.dataframe if _text("room.col.tied") in d.value.columns]) == 2

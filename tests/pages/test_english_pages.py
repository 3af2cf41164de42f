"""AppTest: an English session opens the English pack (packs/en) on every page, offline, and replays its
authored answers with none left unrecorded; in a room, the room's pack wins over the session's language."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from evallib.packs.loader import builtin_packs
from ui.i18n import catalogue

EN = builtin_packs()["en"]


def _shown(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [x.value for x in at.text]
    parts += [e.value for kind in (at.error, at.warning, at.info, at.success) for e in kind]
    parts += [str(d.value.to_dict()) for d in at.dataframe]
    parts += [str(getattr(w, "value", "")) for kind in (at.text_area, at.selectbox) for w in kind]
    return "\n".join(parts)


def _prefix(key: str) -> str:
    """The longest stretch of the English text of ``key`` between placeholders (in any of its messages)."""
    text = catalogue()[key]["en"]
    text = text[0] if isinstance(text, tuple) else text
    return max(re.split(r"\{[^}]*\}", text), key=len).strip()


def _no_missing_recording(at: AppTest, *keys: str) -> None:
    messages = " ".join(e.value for kind in (at.error, at.warning, at.info) for e in kind)
    for key in ("sources.none", *keys):
        assert _prefix(key) not in messages, key


def _open(open_page, page: str, **state) -> AppTest:
    at = open_page(page, lang="en", pack=None, **state)
    assert not at.exception, at.exception
    return at


def test_the_english_judge_page_replays_the_english_pack_s_authored_answers(open_page):
    at = _open(open_page, "pages/judge.py")
    shown = _shown(at)
    case = json.loads((EN / "judging_cases.json").read_text(encoding="utf-8"))["cases"][0]
    assert case["id"] in shown
    _no_missing_recording(at, "judge.template_unrecorded", "judge.nothing_yet")
    _no_missing_recording(at, "judge.unrecorded")
    assert any("authored" in i.value for i in at.info)
    assert not at.error


def _json(name: str, pack: str = "en"):
    return json.loads((builtin_packs()[pack] / name).read_text(encoding="utf-8"))


def test_the_english_trigger_page_shows_the_english_skills_and_replays_their_answers(open_page):
    at = _open(open_page, "pages/trigger.py")
    shown = _shown(at) + " ".join(str(e.value) for e in at.get("arrow_data_frame"))
    english, french = (_json("triggering_skills.json", p)["skills"][0]["description"] for p in ("en", "fr"))
    assert english[:40] in shown and french[:40] not in shown
    _no_missing_recording(at, "collect.unrecorded")
    assert not at.error


def test_the_english_persona_page_shows_the_english_assistants_and_replays_their_answers(open_page):
    at = _open(open_page, "pages/persona.py")
    shown = _shown(at)
    english, french = (_json("personas.json", p)["assistants"][0]["system_prompt"] for p in ("en", "fr"))
    assert english[:40] in shown and french[:40] not in shown
    _no_missing_recording(at, "collect.unrecorded", "persona.ex3_no_recording")
    assert not at.error


def test_the_english_kappa_page_offers_the_english_pack_s_examples(open_page):
    """The built-in examples keep their catalogue names (translated); the keys offered are the pack's."""
    at = _open(open_page, "pages/kappa.py")
    data = _json("kappa_examples.json")
    keys = [b.key for b in at.button if b.key and b.key.startswith("kappa_preset_")]
    assert keys == [f"kappa_preset_{e['key']}" for e in data["examples"] if e["key"] != data.get("csv_example")]
    assert not at.error


def test_the_english_gnss_page_shows_the_english_pack_s_flaws_and_replays_its_answers(open_page):
    at = _open(open_page, "pages/gnss.py")
    shown = _shown(at)
    for case, french in zip(_json("gnss_recorded_runs.json")["cases"], _json("gnss_recorded_runs.json", "fr")["cases"]):
        assert case["label"] in shown and french["label"] not in shown
    _no_missing_recording(at, "collect.unrecorded")
    assert not at.error


def test_in_a_room_the_room_s_pack_wins_over_the_session_s_language(open_page, monkeypatch):
    """An English session in a room the instructor gave the French pack reads the French pack (the room's
    pack is read from the database by `ui.room.pack.room_pack_path`, stood in for here)."""
    import ui.room.pack

    monkeypatch.setattr(ui.room.pack, "room_pack_path", lambda: str(builtin_packs()["fr"]))
    at = _open(open_page, "pages/trigger.py")
    shown = _shown(at) + " ".join(str(e.value) for e in at.get("arrow_data_frame"))
    english, french = (_json("triggering_skills.json", p)["skills"][0]["description"] for p in ("en", "fr"))
    assert french[:40] in shown and english[:40] not in shown


def _rating_items_script():
    import streamlit as st

    from ui.room.instructor import _rateable

    for item in _rateable(3):
        st.text(item["text"])


def test_the_room_s_rating_items_come_from_the_session_s_pack():
    """The instructor's rating set: the authored answers to the cases of the pack the pages read."""
    texts = {}
    for lang in ("fr", "en"):
        at = AppTest.from_function(_rating_items_script, default_timeout=60)
        at.session_state["lang"] = lang
        at.run()
        assert not at.exception
        texts[lang] = [x.value for x in at.text]
    for lang, shown in texts.items():
        cases = _json("judging_cases.json", lang)["cases"]
        assert len(shown) == 3 and all(text.startswith(case["input"]) for text, case in zip(shown, cases))

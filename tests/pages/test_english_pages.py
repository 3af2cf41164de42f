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

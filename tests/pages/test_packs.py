"""AppTest: a pack written from scratch and recorded against the fake server, run on every page it covers, offline;
the sidebar's choice, a bad upload named file by file, and an English session opening the English pack."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evallib.__main__ import main
from evallib.packs.layout import MAX_PACK_BYTES
from tests.conftest import FAKE_KEY
from tests.fake_llm_server import FakeLLMServer
from tests.pack_zips import folder_zip, with_flipped_byte, with_understated_size, zip_of
from tests.small_pack import ASSISTANTS, CASES, KAPPA, QUERIES, SKILLS, with_byte_order_marks, write_small_pack

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def recorded_pack(tmp_path_factory):
    folder = write_small_pack(tmp_path_factory.mktemp("packs") / "small")
    mp = pytest.MonkeyPatch()
    mp.setenv("OPENAI_API_KEY", FAKE_KEY)
    with FakeLLMServer(api_key=FAKE_KEY) as server:
        assert main(["record", "all", "--pack", str(folder), "--base-url", server.openai_base_url,
                     "--model", "fake-tools"]) == 0
    mp.undo()
    return folder


def _open(page: str, lang: str = "en", **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def _shown(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for kind in (at.error, at.warning, at.info, at.success) for e in kind]
    frames = [str(d.value.to_dict()) for d in at.dataframe]
    return "\n".join(parts + frames)


def _plain(markdown: str) -> str:
    """Markdown as a reader sees it: the escapes before punctuation off."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def _errors(at: AppTest) -> str:
    """The page's error messages as a reader sees them."""
    return _plain(" ".join(e.value for e in at.error))


def test_the_trigger_page_starts_from_the_pack_s_skills_and_queries(recorded_pack):
    at = _open("pages/trigger.py", pack_choice=str(recorded_pack))
    frames = " ".join(str(d.value.to_dict()) for d in at.dataframe) + " ".join(
        str(e.value) for e in at.get("arrow_data_frame"))
    assert all(s["name"] in frames for s in SKILLS) and all(q[0] in frames for q in QUERIES)
    assert "leave-balance-calculator" not in frames  # nothing of the French pack


def test_the_persona_page_starts_from_the_pack_s_assistants(recorded_pack):
    at = _open("pages/persona.py", pack_choice=str(recorded_pack))
    frames = " ".join(str(d.value.to_dict()) for d in at.dataframe)
    assert all(a["name"] in frames for a in ASSISTANTS)


def test_the_judge_page_starts_from_the_pack_s_cases_and_templates(recorded_pack):
    at = _open("pages/judge.py", pack_choice=str(recorded_pack))
    frames = " ".join(str(d.value.to_dict()) for d in at.dataframe)
    assert all(c["id"] in frames for c in CASES)
    assert at.text_area(key="judge_template_A").value.startswith("You write code for an operations team")


def test_the_kappa_page_offers_the_pack_s_example(recorded_pack):
    at = _open("pages/kappa.py", pack_choice=str(recorded_pack))
    assert [b.label for b in at.button if b.key and b.key.startswith("kappa_preset_")] == [KAPPA["examples"][0]["title"]]


def test_the_kappa_and_judge_pages_read_a_pack_whose_files_start_with_a_byte_order_mark(tmp_path):
    marked = write_small_pack(tmp_path / "marked")
    with_byte_order_marks(marked)
    at = _open("pages/kappa.py", pack_choice=str(marked))
    assert [b.label for b in at.button if b.key and b.key.startswith("kappa_preset_")] == [KAPPA["examples"][0]["title"]]
    at = _open("pages/judge.py", pack_choice=str(marked))
    assert at.text_area(key="judge_template_A").value.startswith("You write code for an operations team")


def test_the_pack_s_recordings_are_offered_offline(recorded_pack):
    at = _open("pages/trigger.py", pack_choice=str(recorded_pack))
    assert "fake-tools" in " ".join(str(s.options) for s in at.selectbox) + _shown(at)


def test_a_bad_pack_choice_is_named_and_the_pages_fall_back(tmp_path):
    broken = write_small_pack(tmp_path / "broken")
    data = json.loads((broken / "triggering_queries.json").read_text(encoding="utf-8"))
    data["queries"][1]["expected"] = "coffee-maker"
    (broken / "triggering_queries.json").write_text(json.dumps(data), encoding="utf-8")
    at = _open("pages/trigger.py", pack_choice=str(broken))
    errors = _errors(at)
    assert "triggering_queries.json" in errors and "coffee-maker" in errors and "query 2" in errors
    frames = " ".join(str(d.value.to_dict()) for d in at.dataframe)
    assert "trip-booker" not in frames  # the session's language's built-in pack instead


def test_an_english_session_opens_the_english_pack_and_a_french_one_the_french_pack():
    english, french = _open("pages/trigger.py", "en"), _open("pages/trigger.py", "fr")
    assert " ".join(str(d.value.to_dict()) for d in english.dataframe) != " ".join(
        str(d.value.to_dict()) for d in french.dataframe)


def test_the_sidebar_offers_the_packs_of_evallib_packs_and_a_choice_restarts_the_editors(recorded_pack, monkeypatch):
    monkeypatch.setenv("EVALLIB_PACKS", str(recorded_pack.parent))
    at = _open("pages/trigger.py")
    assert "leave-balance-calculator" in " ".join(str(d.value.to_dict()) for d in at.dataframe)  # French by default
    select = at.selectbox(key="_pack_select")
    assert "Pack folder: small" in select.options and "Built-in pack: fr" in select.options
    select.select("Pack folder: small").run()
    assert not at.exception
    frames = " ".join(str(d.value.to_dict()) for d in at.dataframe)
    assert "trip-booker" in frames and "leave-balance-calculator" not in frames


def test_a_page_the_pack_does_not_cover_keeps_the_built_in_pack_of_its_language(tmp_path):
    folder = write_small_pack(tmp_path / "trigger-only")
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    (folder / "pack.json").write_text(json.dumps({**manifest, "pages": ["trigger"]}), encoding="utf-8")
    for name in ("personas.json", "judging_prompts.json", "judging_cases.json", "kappa_examples.json"):
        (folder / name).unlink()
    at = _open("pages/kappa.py", "fr", pack_choice=str(folder))
    assert not at.error
    keys = [b.key for b in at.button if b.key and b.key.startswith("kappa_preset_")]
    assert keys == [f"kappa_preset_{key}" for key in ("rubric_pair", "lenient_pair", "judge_scores")]


class _Upload:
    """What ``st.file_uploader`` hands the callback: a name and the bytes."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self._data = name, data

    def getvalue(self) -> bytes:
        return self._data


def _upload_script():
    import streamlit as st

    from ui.packs import _on_upload, current_pack, show_problem

    _on_upload()
    show_problem()
    st.write(f"pack: {current_pack().id}")


@pytest.mark.parametrize("entries, heading, words", [
    ({"pack.json": b"{}", "../outside.json": b"{}"}, "has 1 problem:", ["../outside.json", "leaves the pack"]),
    ({"pack.json": b"{}", "personas.json": b" " * 100_000_000}, "has 2 problems:",
     ["personas.json: file too large (100,000,000 bytes", "the pack: pack too large"]),
])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_bad_uploaded_zip_is_named_on_the_page_and_the_session_keeps_its_pack(entries, heading, words, lang,
                                                                                 tmp_path, monkeypatch):
    """The refused upload leaves the session on its language's built-in pack (packs/fr or packs/en)."""
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    at = AppTest.from_function(_upload_script, default_timeout=90)
    at.session_state["lang"] = lang
    at.session_state["pack_upload"] = _Upload("mine.zip", zip_of(entries))
    at.run()
    assert not at.exception
    shown = _errors(at)
    assert "mine.zip" in shown
    if lang == "en":
        assert f"The pack mine.zip {heading}" in shown and all(w in shown for w in words)
    assert f"pack: {lang}" in " ".join(m.value for m in at.markdown)
    assert not (tmp_path / "outside.json").exists()


def test_a_good_uploaded_zip_becomes_the_session_s_pack(recorded_pack, tmp_path, monkeypatch):
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    at = AppTest.from_function(_upload_script, default_timeout=90)
    at.session_state["pack_upload"] = _Upload("small.zip", folder_zip(recorded_pack))
    at.run()
    assert not at.exception and not at.error
    assert "pack: small-office" in " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("damage", [with_flipped_byte, with_understated_size])
def test_a_zip_with_a_damaged_member_is_named_and_the_session_keeps_its_state(damage, tmp_path, monkeypatch):
    """The upload's callback used to raise (zlib.error, Bad CRC-32): Streamlit's error screen, the typed data lost."""
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    data = damage(folder_zip(write_small_pack(tmp_path / "small")), "personas.json")
    at = AppTest.from_function(_upload_script, default_timeout=90)
    at.session_state["lang"] = "en"
    at.session_state["judge_template_A"] = "typed before the upload"
    at.session_state["pack_upload"] = _Upload("damaged.zip", data)
    at.run()
    assert not at.exception, at.exception
    shown = _errors(at)
    assert "The pack damaged.zip has 1 problem:" in shown and "personas.json" in shown
    assert at.session_state["judge_template_A"] == "typed before the upload"
    assert "pack: en" in " ".join(m.value for m in at.markdown)


def test_an_uploaded_zip_whose_pack_fails_its_check_is_not_kept_on_the_server(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    folder = write_small_pack(tmp_path / "small")
    (folder / "personas.json").write_text("{not json", encoding="utf-8")
    at = AppTest.from_function(_upload_script, default_timeout=90)
    at.session_state["lang"] = "en"
    at.session_state["pack_upload"] = _Upload("bad.zip", folder_zip(folder))
    at.run()
    assert not at.exception and "personas.json" in _errors(at)
    assert list((tmp_path / "cache").iterdir()) == []


def _sidebar_script():
    import streamlit as st

    from ui.packs import accept_upload, current_pack, pack_sidebar

    upload = st.session_state.pop("test_upload", None)  # the uploader's file, handed over as its callback would
    if upload is not None:
        accept_upload(*upload)
    with st.sidebar:
        pack_sidebar()
    st.write(f"pack: {current_pack().id}")


@pytest.mark.parametrize("lang, builtin, note", [("en", "Built-in pack: en", "Pack uploaded: {title}."),
                                                 ("fr", "Pack intégré : fr", "Pack téléversé : {title}.")])
def test_the_sidebar_list_shows_an_uploaded_pack_and_choosing_it_keeps_it(lang, builtin, note, recorded_pack,
                                                                           tmp_path, monkeypatch):
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    title = json.loads((recorded_pack / "pack.json").read_text(encoding="utf-8"))["title"]
    uploaded = ("Uploaded pack: " if lang == "en" else "Pack téléversé : ") + title
    at = AppTest.from_function(_sidebar_script, default_timeout=90)
    at.session_state["lang"] = lang
    at.run()
    assert at.selectbox(key="_pack_select").value == builtin and not at.success
    at.session_state["test_upload"] = ("small.zip", folder_zip(recorded_pack))
    at.run()
    assert not at.exception and "pack: small-office" in at.markdown[-1].value
    select = at.selectbox(key="_pack_select")
    assert select.value == uploaded and uploaded in select.options
    assert len(at.success) == 1 and _plain(at.success[0].value).startswith(note.format(title=title))
    select.select(uploaded).run()  # choosing the pack in use keeps it
    assert at.selectbox(key="_pack_select").value == uploaded and "pack: small-office" in at.markdown[-1].value
    at.selectbox(key="_pack_select").select(builtin).run()
    assert f"pack: {lang}" in at.markdown[-1].value and uploaded in at.selectbox(key="_pack_select").options
    at.selectbox(key="_pack_select").select(uploaded).run()  # and back: the upload is still offered
    assert not at.exception and "pack: small-office" in at.markdown[-1].value
    assert at.selectbox(key="_pack_select").value == uploaded


def test_the_uploader_shows_the_pack_s_size_limit_not_the_server_s():
    at = AppTest.from_function(_sidebar_script, default_timeout=90)
    at.run()
    [uploader] = at.get("file_uploader")
    assert uploader.proto.max_upload_size_mb == MAX_PACK_BYTES // 1_000_000 == 50  # not the server's 200

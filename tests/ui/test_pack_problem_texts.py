"""Each problem an uploaded pack can have, worded in French and in English by `ui.packs.problem_text`: from its
code and values, each thing said once (no "not a zip file (not a zip file)"), the file named."""

from __future__ import annotations

import json
import re
import stat
import zipfile

import pytest
import streamlit as st

from evallib.llm import ChatRequest
from evallib.packs.check import PackProblem
from evallib.packs.loader import check_pack
from tests.pack_zips import with_flipped_byte, with_understated_size, zip_of
from tests.small_pack import write_small_pack
from ui.i18n import LANGUAGES, catalogue
from ui.packs import PROBLEM_CASES, problem_text


def _edited(name: str, change):
    def edit(files: dict[str, bytes]) -> None:
        data = json.loads(files[name])
        change(data)
        files[name] = json.dumps(data).encode("utf-8")
    return edit


def _recording_of_another_pack() -> bytes:
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    key = ChatRequest.from_dict(request).key()
    return json.dumps({"key": key, "kind": "chat", "request": request, "result": {"request_key": key, "text": "hello"},
                       "provenance": {"source": "live", "model": "m", "date": "2026-01-01", "pack": "fr"}}).encode()


def _link(data: bytes) -> bytes:
    """``data`` with one more member that is a symbolic link."""
    import io

    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        info = zipfile.ZipInfo("recordings/trigger.jsonl")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


#: (what is wrong, how the small pack's files are changed, how its zip is then changed, the code and case expected).
CASES = [
    ("no manifest", lambda f: f.pop("pack.json"), None, ("no_manifest", None)),
    ("not JSON", lambda f: f.update({"personas.json": b'{\n  "assistants": [\n    ,\n  ]\n}'}), None, ("not_json", None)),
    ("not UTF-8", lambda f: f.update({"personas.json": b'{"x": "\x9c"}'}), None, ("not_utf8", None)),
    ("schema", _edited("triggering_queries.json", lambda d: d["queries"][3].pop("query")), None, ("schema", None)),
    ("missing file", lambda f: f.pop("judging_cases.json"), None, ("missing_file", None)),
    ("no page reads it", lambda f: f.update({"notes.json": b"{}"}), None, ("unknown_file", "no_page")),
    ("page not listed", lambda f: f.update({"gnss_recorded_runs.json": b"{}"}), None,
     ("unknown_file", "page_not_listed")),
    ("no recording set", lambda f: f.update({"recordings/other.jsonl": b""}), None,
     ("unknown_file", "not_a_recording_set")),
    ("duplicate query", _edited("triggering_queries.json", lambda d: d["queries"][5].update(id="trip-1")), None,
     ("duplicate_id", "query")),
    ("duplicate case", _edited("judging_cases.json", lambda d: d["cases"][1].update(id=d["cases"][0]["id"])), None,
     ("duplicate_id", "case")),
    ("duplicate example", _edited("kappa_examples.json", lambda d: d["examples"].append(dict(d["examples"][0]))), None,
     ("duplicate_id", "example")),
    ("unknown skill", _edited("triggering_queries.json", lambda d: d["queries"][1].update(expected="coffee-maker")),
     None, ("unknown_skill", None)),
    ("duplicate assistants", _edited("personas.json", lambda d: d["assistants"][1].update(name="gardener")), None,
     ("invalid", None)),
    ("another pack's recording", lambda f: f.update({"recordings/persona.jsonl": _recording_of_another_pack()}), None,
     ("other_pack", None)),
    ("bad recording", lambda f: f.update({"recordings/trigger.jsonl": b'{"key": }\n'}), None, ("bad_recording", None)),
    ("file too large", lambda f: f.update({"personas.json": b" " * 10_000_001}), None, ("too_large", None)),
    ("pack too large", lambda f: f.update({f"recordings/{n}.jsonl": b" " * 9_000_000
                                           for n in ("trigger", "persona", "judge", "gnss", "x", "y")}), None,
     ("pack_too_large", None)),
    ("path leaving", lambda f: f.update({"../outside.json": b"{}"}), None, ("unsafe_path", "leaves")),
    ("link", None, _link, ("unsafe_path", "link")),
    ("not a zip", None, lambda data: b"not a zip", ("bad_zip", "not_zip")),
    ("flipped byte", None, lambda data: with_flipped_byte(data, "personas.json"), ("bad_zip", "damaged")),
    ("understated size", None, lambda data: with_understated_size(data, "personas.json"), ("bad_zip", "damaged")),
]
#: Problems no upload meets, made by hand: a zip's bytes are never a folder (not_a_pack), no page is asked of it
#: (page_not_covered: the commands' --pack), and a member's size is checked after its CRC (bad_zip, size).
ELSEWHERE = [PackProblem("personas.json", "bad_zip", "holds 90 bytes, though the zip's header declares 100",
                         details={"reason": "size", "size": 90, "declared": 100}),
             PackProblem("mine", "not_a_pack", "neither a folder nor a .zip file", details={"path": "mine"}),
             PackProblem("pack.json", "page_not_covered", "field 'pages': the pack does not cover the page 'gnss'",
                         field="pages", details={"page": "gnss"})]


def _case(problem: PackProblem) -> tuple[str, str | None]:
    """The problem's code, and its case when the code has several sentences."""
    return problem.code, problem.details.get(PROBLEM_CASES[problem.code]) if problem.code in PROBLEM_CASES else None


def _plain(markdown: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def _repeated(text: str, length: int = 3) -> list[str]:
    """Runs of ``length`` words (numbers left out) that the text says twice."""
    words = [w for w in re.findall(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*", text.lower())]
    runs = [" ".join(words[i:i + length]) for i in range(len(words) - length + 1)]
    return sorted({run for run in runs if runs.count(run) > 1})


def test_every_sentence_of_a_pack_problem_is_met_here():
    met = {case[3] for case in CASES} | {_case(p) for p in ELSEWHERE}
    sentences = {key for key in catalogue() if key.startswith("packs.problem.")}
    assert sentences == {f"packs.problem.{code}" + (f".{case}" if case else "") for code, case in met
                         if code != "bad_recording"}  # worded as the home page words a recording line


@pytest.mark.parametrize("problem", ELSEWHERE, ids=lambda p: p.code)
def test_the_problems_no_upload_meets_are_said_once_too(problem):
    for lang in LANGUAGES:
        st.session_state["lang"] = lang
        text = _plain(problem_text(problem))
        assert "⟦" not in text and _repeated(text) == [] and text.startswith(problem.file), (lang, text)


@pytest.mark.parametrize("what, files_change, zip_change, expected", CASES, ids=[c[0] for c in CASES])
def test_each_problem_of_an_upload_is_said_once_in_each_language(what, files_change, zip_change, expected, tmp_path,
                                                                 monkeypatch):
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    folder = write_small_pack(tmp_path / "small")
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    if files_change:
        files_change(files)
    data = zip_of(files)
    if zip_change:
        data = zip_change(data)
    problems = [p for p in check_pack(data)[1] if _case(p) == expected]
    assert problems, check_pack(data)[1]
    for lang in LANGUAGES:
        st.session_state["lang"] = lang
        for problem in problems:
            text = _plain(problem_text(problem))
            assert "⟦" not in text and _repeated(text) == [], (lang, text)
            assert text.startswith(problem.file or ("the pack" if lang == "en" else "le pack")), text

"""evallib.packs: the built-in packs check clean; each kind of bad pack is named by file, row and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evallib.__main__ import main
from evallib.packs.check import check_folder
from evallib.packs.layout import MAX_FILE_BYTES
from evallib.packs.loader import PackError, builtin_packs, check_pack, content_hash, open_pack
from tests.pack_zips import folder_zip, with_flipped_byte, with_understated_size, zip_of
from tests.small_pack import with_byte_order_marks, write_small_pack


def _codes(source) -> list[tuple[str, str, int | None, str | None]]:
    return [(p.file, p.code, p.row, p.field) for p in check_pack(source)[1]]


def _edit(folder: Path, name: str, change) -> None:
    data = json.loads((folder / name).read_text(encoding="utf-8"))
    change(data)
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("pack_id", sorted(builtin_packs()))
def test_every_built_in_pack_checks_clean(pack_id):
    manifest, problems = check_pack(builtin_packs()[pack_id])
    assert problems == [] and manifest["id"] == pack_id


def test_the_small_pack_checks_clean_and_its_hash_ignores_recordings(tmp_path):
    pack = open_pack(write_small_pack(tmp_path / "p"))
    assert pack.identity()["id"] == "small-office" and pack.pages == ("trigger", "persona", "judge", "kappa")
    before = pack.content_hash
    (tmp_path / "p" / "recordings").mkdir()
    (tmp_path / "p" / "recordings" / "trigger.jsonl").write_text("", encoding="utf-8")
    assert content_hash(tmp_path / "p") == before
    _edit(tmp_path / "p", "triggering_queries.json", lambda d: d["queries"][0].update(query="Book a bus."))
    assert content_hash(tmp_path / "p") != before


def test_a_missing_file_and_a_missing_manifest_are_named(tmp_path):
    folder = write_small_pack(tmp_path / "p")
    (folder / "judging_cases.json").unlink()
    assert _codes(folder) == [("judging_cases.json", "missing_file", None, None)]
    (folder / "pack.json").unlink()
    assert _codes(folder) == [("pack.json", "no_manifest", None, None)]


def test_every_schema_error_names_file_row_and_field_all_at_once(tmp_path):
    folder = write_small_pack(tmp_path / "p")
    _edit(folder, "triggering_queries.json", lambda d: (d["queries"][3].pop("query"), d["queries"][7].update(held_out="yes")))
    _edit(folder, "pack.json", lambda d: d.update(language="de"))
    problems = _codes(folder)
    assert ("pack.json", "schema", None, "language") in problems
    _edit(folder, "pack.json", lambda d: d.update(language="en"))
    problems = check_pack(folder)[1]
    assert [(p.file, p.code, p.row, p.field) for p in problems] == [
        ("triggering_queries.json", "schema", 4, "query"), ("triggering_queries.json", "schema", 8, "held_out")]
    assert str(problems[0]) == "triggering_queries.json: query 4, field 'query': is missing"


@pytest.mark.parametrize("judge, field", [
    ("not an object", "judge"),
    ({"system_prompt": "x"}, "pairwise_system_prompt"),
    ("en:total_line=Out of {points}.", "total_line"),
])
def test_the_judge_wording_of_a_pack_is_checked_field_by_field(tmp_path, judge, field):
    folder = write_small_pack(tmp_path / "p")
    if isinstance(judge, str) and judge.startswith("en:"):
        name, text = judge[3:].split("=", 1)
        english = json.loads((builtin_packs()["en"] / "judging_prompts.json").read_text(encoding="utf-8"))["judge"]
        judge = {**english, name: text}
    _edit(folder, "judging_prompts.json", lambda d: d.update(judge=judge))
    assert _codes(folder) == [("judging_prompts.json", "invalid", None, field)]


def test_duplicate_ids_and_unknown_skills_are_each_listed(tmp_path):
    folder = write_small_pack(tmp_path / "p")
    _edit(folder, "triggering_queries.json", lambda d: (d["queries"][5].update(id="trip-1"),
                                                        d["queries"][9].update(expected="coffee-maker")))
    _edit(folder, "judging_cases.json", lambda d: d["cases"][3].update(id="json-1"))
    assert _codes(folder) == [("triggering_queries.json", "duplicate_id", 6, "id"),
                              ("triggering_queries.json", "unknown_skill", 10, "expected"),
                              ("judging_cases.json", "duplicate_id", 4, "id")]


def test_recordings_of_another_pack_are_refused(tmp_path):
    folder = write_small_pack(tmp_path / "p")
    line = {"key": "", "kind": "chat", "request": {"model": "m", "messages": [{"role": "user", "content": "hi"}]},
            "result": {"request_key": "", "model": "m", "text": "hello"},
            "provenance": {"source": "live", "model": "m", "date": "2026-01-01", "pack": "fr"}}
    from evallib.llm import ChatRequest
    key = ChatRequest.from_dict(line["request"]).key()
    line["key"] = line["result"]["request_key"] = key
    (folder / "recordings").mkdir()
    (folder / "recordings" / "persona.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    [problem] = check_pack(folder)[1]
    assert (problem.file, problem.code, problem.details["pack"]) == ("recordings/persona.jsonl", "other_pack", "fr")


def test_a_file_no_page_reads_or_of_an_uncovered_page_is_named(tmp_path):
    folder = write_small_pack(tmp_path / "p")
    (folder / "triggering_querys.json").write_text("{}", encoding="utf-8")
    (folder / "gnss_recorded_runs.json").write_text("{}", encoding="utf-8")
    assert [c[:2] for c in _codes(folder)] == [("gnss_recorded_runs.json", "unknown_file"),
                                               ("triggering_querys.json", "unknown_file")]


def test_a_100_mb_file_is_refused_without_being_read(tmp_path):
    folder = write_small_pack(tmp_path / "p")
    with (folder / "personas.json").open("r+b") as big:
        big.truncate(100_000_000)
    problems = check_pack(folder)[1]
    assert [(p.file, p.code) for p in problems][:1] == [("personas.json", "too_large")]
    assert problems[0].details["size"] == 100_000_000 > MAX_FILE_BYTES


def test_a_zip_opens_from_its_root_or_one_top_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    folder = write_small_pack(tmp_path / "p")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert open_pack(zip_of(files)).id == "small-office"
    nested = zip_of({f"small/{name}": data for name, data in files.items()})
    assert open_pack(nested).content_hash == open_pack(folder).content_hash


def test_a_zip_with_paths_outside_itself_is_refused_before_extraction(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    data = zip_of({"pack.json": b"{}", "../evil.json": b"{}", "/etc/evil": b"x"})
    with pytest.raises(PackError) as caught:
        open_pack(data)
    assert [(p.file, p.code) for p in caught.value.problems] == [("../evil.json", "unsafe_path"),
                                                                 ("/etc/evil", "unsafe_path")]
    assert not (tmp_path / "evil.json").exists() and not (tmp_path / "cache").exists()
    assert [p.code for p in check_pack(b"not a zip")[1]] == ["bad_zip"]


def test_pack_check_exits_0_or_2_with_every_problem_listed(tmp_path, capsys):
    folder = write_small_pack(tmp_path / "p")
    assert main(["pack", "check", str(folder)]) == 0
    assert "'small-office'" in capsys.readouterr().out
    _edit(folder, "triggering_queries.json", lambda d: (d["queries"][0].update(id="trip-2"),
                                                        d["queries"][1].update(expected="nope")))
    assert main(["pack", "check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "triggering_queries.json: query 2, field 'id': 'trip-2' is already used by query 1" in err
    assert "triggering_queries.json: query 2, field 'expected': 'nope' is not a skill" in err
    assert "2 problem(s)" in err


def test_pack_new_copies_a_built_in_pack_and_refuses_a_full_folder(tmp_path, capsys):
    assert main(["pack", "new", str(tmp_path / "mine"), "--from", "fr"]) == 0
    assert check_pack(tmp_path / "mine")[1] == []
    assert main(["pack", "new", str(tmp_path / "mine"), "--from", "fr"]) == 2
    assert main(["pack", "new", str(tmp_path / "other"), "--from", "xx"]) == 2
    assert "no built-in pack" in capsys.readouterr().err


def test_the_light_check_reads_the_manifest_and_files_not_the_content(tmp_path):
    """``content=False`` (the sidebar's built-in packs): a broken manifest or unreadable JSON is still a
    problem; a content error (a query naming an unknown skill) is left to the full check."""
    root = write_small_pack(tmp_path / "p")
    queries = json.loads((root / "triggering_queries.json").read_text(encoding="utf-8"))
    queries["queries"][0]["expected"] = "no-such-skill"
    (root / "triggering_queries.json").write_text(json.dumps(queries), encoding="utf-8")
    assert check_folder(root, content=False)[1] == []
    assert check_folder(root)[1]
    (root / "personas.json").write_text("{not json", encoding="utf-8")
    assert [p.file for p in check_folder(root, content=False)[1]] == ["personas.json"]


@pytest.mark.parametrize("damage", [with_flipped_byte, with_understated_size])
@pytest.mark.parametrize("member", ["personas.json", "pack.json"])
def test_a_zip_with_a_damaged_member_is_exit_2_naming_the_member(damage, member, tmp_path, monkeypatch, capsys):
    """A flipped byte in the compressed data (zlib stops) or a header that understates the size (bad CRC):
    each command says which member, exit 2, and no half-written folder stays in the extraction cache."""
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(tmp_path / "cache"))
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(damage(folder_zip(write_small_pack(tmp_path / "p")), member))
    assert main(["pack", "check", str(damaged)]) == 2
    err = capsys.readouterr().err
    assert f"{member}: cannot be read, damaged or cut short (" in err and "Traceback" not in err
    assert main(["trigger", "--pack", str(damaged), "--model", "m", "--offline"]) == 2
    assert f"{member}: cannot be read" in capsys.readouterr().err
    [problem] = check_pack(damaged.read_bytes())[1]
    assert (problem.file, problem.code, problem.details["reason"]) == (member, "bad_zip", "damaged")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_zip_whose_pack_fails_its_check_is_not_kept_extracted_and_a_good_one_is(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("EVALLIB_PACK_CACHE", str(cache))
    folder = write_small_pack(tmp_path / "p")
    good = folder_zip(folder)
    assert open_pack(good).id == "small-office"
    kept = sorted(cache.iterdir())
    assert len(kept) == 1 and (kept[0] / ".complete").is_file()
    _edit(folder, "triggering_queries.json", lambda d: d["queries"][0].update(expected="coffee-maker"))
    bad = tmp_path / "bad.zip"
    bad.write_bytes(folder_zip(folder))
    assert [p.code for p in check_pack(bad.read_bytes())[1]] == ["unknown_skill"]
    assert main(["pack", "check", str(bad)]) == 2
    with pytest.raises(PackError):
        open_pack(bad)
    assert sorted(cache.iterdir()) == kept
    assert open_pack(good).root.is_relative_to(kept[0])  # the good one is still there, not extracted again


def test_pack_check_says_a_field_a_json_error_and_duplicate_assistants_naturally(tmp_path, capsys):
    folder = write_small_pack(tmp_path / "p")
    _edit(folder, "pack.json", lambda d: d.update(id="bad id!"))
    assert main(["pack", "check", str(folder)]) == 2
    assert "pack.json, field 'id': 'bad id!' does not match" in capsys.readouterr().err
    _edit(folder, "pack.json", lambda d: d.update(id="small-office"))
    _edit(folder, "personas.json", lambda d: (d["assistants"].append(dict(d["assistants"][0])),
                                              d["assistants"][2].update(name=d["assistants"][1]["name"])))
    (folder / "judging_cases.json").write_text("{\n  \"cases\": [\n    ,\n  ]\n}", encoding="utf-8")
    (folder / "recordings").mkdir()
    (folder / "recordings" / "trigger.jsonl").write_text("\n" * 98 + '{"key": }\n', encoding="utf-8")
    assert main(["pack", "check", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "personas.json: assistant 3, field 'name': 'chef' is already used by assistant 2; assistant 4, field " \
           "'name': 'gardener' is already used by assistant 1" in err
    assert "judging_cases.json: not valid JSON (line 3, column 5: expecting a value)" in err
    assert "recordings/trigger.jsonl: not valid JSON (line 99, column 9: expecting a value)" in err
    assert "Error" not in err and "the file" not in err
    problems = {p.file: p for p in check_pack(folder)[1]}
    assert (problems["personas.json"].row, problems["personas.json"].field) == (3, "name")


def test_a_byte_order_mark_is_accepted_in_every_file_of_a_pack(tmp_path):
    """Windows Notepad saves UTF-8 with a BOM: the built-in English pack, every JSON and JSONL file so saved,
    checks clean, and its authored recordings rebuild (every authored file read) as from the files without."""
    plain, marked = tmp_path / "plain", tmp_path / "marked"
    for folder in (plain, marked):
        shutil.copytree(builtin_packs()["en"], folder)
    assert len(with_byte_order_marks(marked)) > 10
    assert check_pack(marked)[1] == []
    assert main(["authored", "--pack", str(plain)]) == 0 and main(["authored", "--pack", str(marked)]) == 0
    written = {p.name: p.read_bytes() for p in (plain / "recordings").iterdir()}
    assert {p.name: p.read_bytes() for p in (marked / "recordings").iterdir()} == written and len(written) == 4

"""``authored --pack DIR`` replaces only the authored lines of a pack's recordings: what a live model recorded
there (``record --pack``), and damaged lines, stay byte for byte and in order (docs/packs.md#recordings)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import threading
import time
from pathlib import Path

from evallib.__main__ import main
from evallib.llm.recordings import append_line
from evallib.packs.layout import FRENCH_DIR
from evallib.packs.loader import check_pack
from evallib.runs.authored_pack import rebuild_pack_recordings
from tests.conftest import FAKE_KEY
from tests.fake_llm_server import FakeLLMServer


def _source(line: bytes) -> str:
    return json.loads(line)["provenance"]["source"]


def _not_authored(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines(keepends=True) if _source(line) != "authored"]


def test_authored_keeps_what_a_live_model_recorded_in_the_pack(tmp_path, capsys, monkeypatch):
    pack = tmp_path / "p1"
    assert main(["pack", "new", str(pack), "--from", "en"]) == 0
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    with FakeLLMServer(api_key=FAKE_KEY) as server:
        assert main(["record", "trigger", "--pack", str(pack), "--base-url", server.openai_base_url,
                     "--model", "fake-tools"]) == 0
    trigger = pack / "recordings" / "trigger.jsonl"
    live = _not_authored(trigger)
    assert len(live) == 76 and {_source(line) for line in live} == {"live"}
    capsys.readouterr()

    assert main(["authored", "--pack", str(pack)]) == 0
    assert "304 authored answers written to" in capsys.readouterr().out
    assert _not_authored(trigger) == live  # byte for byte, in order
    assert sum(_source(line) == "authored" for line in trigger.read_bytes().splitlines()) == 304
    # The live model replays from the pack, as before the authored answers were rebuilt.
    assert main(["trigger", "--offline", "--model", "fake-tools", "--pack", str(pack),
                 "--out", str(tmp_path / "out")]) == 1  # measured (the fake always calls the first tool)
    assert "have no recording" not in capsys.readouterr().err


def test_only_authored_lines_are_replaced_and_every_other_line_keeps_its_bytes_and_order(tmp_path):
    pack = tmp_path / "p"
    assert main(["pack", "new", str(pack), "--from", "en"]) == 0
    rebuild_pack_recordings(pack)
    gnss = pack / "recordings" / "gnss.jsonl"
    authored = gnss.read_bytes().splitlines(keepends=True)
    stale = json.loads(authored[0])
    stale["result"]["text"] = "an answer of the content before an edit"
    live = json.loads(authored[1])
    live["provenance"] = {"source": "live", "model": "m", "provider": "openai", "date": "2026-01-02"}
    other = [json.dumps(live).encode() + b"\n", b"{not json, a damaged line\n", b"\n"]
    gnss.write_bytes(other[0] + json.dumps(stale).encode() + b"\n" + b"".join(other[1:]) + b'{"key": "cut')

    assert rebuild_pack_recordings(pack)["gnss"].kept == 3  # the live line, the damaged one, the partial one
    assert gnss.read_bytes() == b"".join(authored) + b"".join(other) + b'{"key": "cut'
    assert not [p for p in gnss.parent.iterdir() if p.suffix == ".part"]


def test_a_writer_waiting_while_the_set_is_replaced_appends_to_the_new_file(tmp_path):
    """``record`` appending while ``authored`` replaces the file: the line lands in the file that stays."""
    path = tmp_path / "trigger.jsonl"
    path.write_text('{"old": 1}\n', encoding="utf-8")
    with path.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # as replace_authored_lines holds it
        writer = threading.Thread(target=append_line, args=(path, '{"new": 2}'))
        writer.start()
        time.sleep(0.3)  # the writer has opened the old file and waits for its lock
        replacement = tmp_path / "replacement"
        replacement.write_text('{"rebuilt": 1}\n', encoding="utf-8")
        os.replace(replacement, path)
    writer.join(timeout=10)
    assert path.read_text(encoding="utf-8") == '{"rebuilt": 1}\n{"new": 2}\n'


def test_authored_lines_carry_the_pack_s_id_so_a_copied_file_is_named_by_pack_check(tmp_path, capsys):
    pack = tmp_path / "mine"
    assert main(["pack", "new", str(pack), "--from", "en"]) == 0
    (pack / "recordings").mkdir(exist_ok=True)
    shutil.copyfile(FRENCH_DIR / "recordings" / "trigger.jsonl", pack / "recordings" / "trigger.jsonl")
    capsys.readouterr()
    assert main(["pack", "check", str(pack)]) == 2
    err = capsys.readouterr().err
    assert "recordings/trigger.jsonl: 304 recordings were made for the pack 'fr', not 'en'" in err
    assert f"python -m evallib authored --pack {pack}" in err and "1 problem(s)" in err  # one line, not 304

    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    (pack / "pack.json").write_text(json.dumps({**manifest, "id": "mine"}), encoding="utf-8")
    assert main(["authored", "--pack", str(pack)]) == 0
    lines = [json.loads(line) for path in (pack / "recordings").glob("*.jsonl")
             for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 304 + 42 + 62 + 24 and {line["provenance"]["pack"] for line in lines} == {"mine"}
    assert check_pack(pack)[1] == []


def test_a_folder_without_a_manifest_is_refused_with_what_is_missing(tmp_path, capsys):
    shutil.copyfile(FRENCH_DIR / "gnss_authored_answers.json", tmp_path / "gnss_authored_answers.json")
    assert main(["authored", "--pack", str(tmp_path)]) == 2
    assert f"{tmp_path / 'pack.json'} is missing: a pack starts with its manifest" in capsys.readouterr().err
    assert not (tmp_path / "recordings").exists()


def test_a_model_whose_recordings_answer_other_requests_is_named_as_such(tmp_path, capsys):
    """The model is among the recorded ones, but its recordings were made for other requests (the content was
    edited since): the error says so and how to fix it, never "no recording for M; recorded models: M"."""
    pack = tmp_path / "mine"
    assert main(["pack", "new", str(pack), "--from", "en"]) == 0
    assert main(["authored", "--pack", str(pack)]) == 0
    skills = json.loads((pack / "triggering_skills.json").read_text(encoding="utf-8"))
    skills["skills"][0]["description"] += " Edited."
    (pack / "triggering_skills.json").write_text(json.dumps(skills), encoding="utf-8")
    capsys.readouterr()
    assert main(["trigger", "--offline", "--model", "authored-example-light-router", "--pack", str(pack),
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "76 of 76 requests have no recording for model 'authored-example-light-router'" in err
    assert "the recordings of 'authored-example-light-router' answer other requests" in err
    assert "the content was edited since" in err and f"python -m evallib authored --pack {pack}" in err
    assert "recorded models:" not in err

    cases = json.loads((pack / "judging_cases.json").read_text(encoding="utf-8"))
    cases["cases"][0]["input"] += " (edited)"
    (pack / "judging_cases.json").write_text(json.dumps(cases), encoding="utf-8")
    assert main(["judge", "--offline", "--pack", str(pack), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "answer other requests (the content was edited since they were recorded" in err
    assert f"python -m evallib authored --pack {pack}" in err and "recorded models:" not in err


def test_a_model_never_recorded_is_still_named_with_the_recorded_ones(tmp_path, capsys):
    assert main(["trigger", "--offline", "--model", "nobody", "--recordings", str(FRENCH_DIR / "recordings"),
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "have no recording for model 'nobody'" in err
    assert "recorded models: authored-example-light-router, authored-example-strong-router" in err


def test_a_new_pack_runs_offline_at_once_on_its_authored_recordings(tmp_path, capsys):
    pack = tmp_path / "copy"
    assert main(["pack", "new", str(pack), "--from", "en"]) == 0
    out = capsys.readouterr().out
    assert "433 authored answers" in out and "runs offline as it is" in out
    assert f"python -m evallib authored --pack {pack}" in out and f"record all --pack {pack}" in out
    for name in ("trigger", "persona", "judge", "gnss"):  # what authored --pack gives the built-in pack
        assert (pack / "recordings" / f"{name}.jsonl").read_bytes() == \
            (FRENCH_DIR.parent / "en" / "recordings" / f"{name}.jsonl").read_bytes(), name
    out_dir = str(tmp_path / "out")
    assert main(["persona", "--pack", str(pack), "--out", out_dir]) in (0, 1)  # the default source: authored
    assert main(["trigger", "--offline", "--model", "authored-example-strong-router", "--pack", str(pack),
                 "--out", out_dir]) in (0, 1)
    assert main(["judge", "--offline", "--pack", str(pack), "--out", out_dir]) in (0, 1)
    assert "have no recording" not in capsys.readouterr().err


def test_a_zipped_pack_s_fix_names_the_zip_not_the_cache_folder_it_was_read_from(tmp_path, capsys):
    """The cache folder a zip is extracted to is removed once its check fails: the fix names the zip."""
    from tests.pack_zips import folder_zip

    pack = tmp_path / "p"
    assert main(["pack", "new", str(pack), "--from", "en"]) == 0
    shutil.copy(FRENCH_DIR / "recordings" / "trigger.jsonl", pack / "recordings" / "trigger.jsonl")
    archive = tmp_path / "p.zip"
    archive.write_bytes(folder_zip(pack))
    capsys.readouterr()
    assert main(["pack", "check", str(archive)]) == 2
    err = capsys.readouterr().err
    from evallib.packs.loader import _extract_dir

    assert f"authored --pack <the folder you unzip {archive} into>" in err and str(_extract_dir()) not in err

"""A pack written from scratch, checked, recorded against the fake server (`record all --pack`), then every page
it covers run on it offline through the commands (`--pack`), each reading the pack's content and recordings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evallib.__main__ import main
from evallib.packs.loader import check_pack
from tests.conftest import FAKE_KEY
from tests.fake_llm_server import FakeLLMServer
from tests.small_pack import with_byte_order_marks, write_small_pack

#: What the fake judge answers: a grade of the small pack's rubric (FORMAT 0-2, CORRECT 0-3).
GRADE = '<grade>{"strengths": "short", "weaknesses": "none", "reasoning": "fine", "FORMAT": 2, "CORRECT": 1, "total": 3}</grade>'


@pytest.fixture(scope="module")
def recorded_pack(tmp_path_factory):
    """The small pack with its recordings filled by ``record all --pack`` (generator fake-tools, judge fake-fixed)."""
    folder = write_small_pack(tmp_path_factory.mktemp("pack") / "small")
    assert check_pack(folder)[1] == []
    mp = pytest.MonkeyPatch()
    mp.setenv("OPENAI_API_KEY", FAKE_KEY)
    with FakeLLMServer(api_key=FAKE_KEY) as server:
        server.fixed_reply = GRADE
        code = main(["record", "all", "--pack", str(folder), "--base-url", server.openai_base_url,
                     "--model", "fake-tools", "--judge-model", "fake-fixed"])
    mp.undo()
    assert code == 0
    return folder


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_record_all_fills_the_pack_s_recordings_with_their_provenance(recorded_pack):
    files = {p.name for p in (recorded_pack / "recordings").iterdir()}
    assert files == {"persona.jsonl", "trigger.jsonl", "judge.jsonl"}  # gnss: not a page of this pack
    persona, trigger = _lines(recorded_pack / "recordings" / "persona.jsonl"), _lines(
        recorded_pack / "recordings" / "trigger.jsonl")
    assert len(persona) == 3 * 3 and len(trigger) == 12 * 2  # 3 assistants x 3 probes; 12 queries x 2 runs
    for line in persona + trigger + _lines(recorded_pack / "recordings" / "judge.jsonl"):
        assert line["provenance"]["pack"] == "small-office" and line["provenance"]["source"] == "live"
    assert check_pack(recorded_pack)[1] == []  # its own recordings pass its own check


def test_the_trigger_command_replays_the_pack(recorded_pack, tmp_path, capsys):
    code = main(["trigger", "--offline", "--model", "fake-tools", "--pack", str(recorded_pack), "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1  # measured: the fake always calls the first tool, so only the trip-booker queries pass
    report = json.loads(next(tmp_path.glob("triggering-*.json")).read_text(encoding="utf-8"))
    assert "expected payslip-reader -> got trip-booker" in out
    assert [q["id"] for q in report["inputs"]["queries"]["queries"]][:3] == ["trip-1", "trip-2", "trip-3"]
    assert len(report["inputs"]["queries"]["queries"]) == 12


def test_the_persona_command_replays_the_pack(recorded_pack, tmp_path, capsys):
    code = main(["persona", "--recorded", "fake-tools", "--pack", str(recorded_pack), "--out", str(tmp_path)])
    assert code in (0, 1), capsys.readouterr().err
    bundle = json.loads(next(tmp_path.glob("persona-*.json")).read_text(encoding="utf-8"))
    assert sorted(a["name"] for a in bundle["inputs"]["catalogue"]["assistants"]) == ["chef", "coach", "gardener"]


def test_the_judge_command_replays_the_pack_and_scores_on_its_rubric(recorded_pack, tmp_path, capsys):
    code = main(["judge", "--offline", "--generator", "fake-tools", "--judge", "fake-fixed",
                 "--pack", str(recorded_pack), "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "4 cases, 4 scored, mean 3.00 / 5" in out


def test_the_kappa_command_reads_the_pack_s_example(recorded_pack, capsys):
    assert main(["kappa", "--pack", str(recorded_pack), "--example", "two-reviewers"]) == 0
    assert "2 raters (R1, R2), 8 items" in capsys.readouterr().out
    assert main(["kappa", "--pack", str(recorded_pack), "--example", "rubric_pair"]) == 2
    assert "there are: two-reviewers" in capsys.readouterr().err


def test_a_page_the_pack_does_not_cover_and_a_bad_pack_are_usage_errors(recorded_pack, tmp_path, capsys):
    assert main(["gnss", "--pack", str(recorded_pack)]) == 2
    assert "does not cover the page 'gnss'" in capsys.readouterr().err
    (tmp_path / "broken").mkdir()
    assert main(["trigger", "--offline", "--model", "x", "--pack", str(tmp_path / "broken")]) == 2
    assert "pack.json: missing" in capsys.readouterr().err


def test_the_commands_read_a_pack_whose_files_start_with_a_byte_order_mark(recorded_pack, tmp_path, capsys):
    """Windows Notepad saves UTF-8 with a BOM: the content, the judge's templates, the example ratings and the
    recordings read as without it (the judge replays all four cases)."""
    marked = tmp_path / "marked"
    shutil.copytree(recorded_pack, marked)
    assert len(with_byte_order_marks(marked)) == 10
    assert main(["judge", "--offline", "--generator", "fake-tools", "--judge", "fake-fixed", "--pack", str(marked),
                 "--out", str(tmp_path)]) == 0
    assert "4 cases, 4 scored, mean 3.00 / 5" in capsys.readouterr().out
    assert main(["kappa", "--pack", str(marked), "--example", "two-reviewers"]) == 0
    assert "2 raters (R1, R2), 8 items" in capsys.readouterr().out


def test_recording_into_a_zipped_pack_is_refused_and_the_zip_is_left_as_it_was(tmp_path, capsys, monkeypatch):
    """A zip is read from a cache folder: answers recorded there would never reach the zip."""
    from tests.pack_zips import folder_zip

    archive = tmp_path / "small.zip"
    archive.write_bytes(folder_zip(write_small_pack(tmp_path / "small")))
    before = archive.read_bytes()
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    with FakeLLMServer(api_key=FAKE_KEY) as fake:
        code = main(["record", "trigger", "--pack", str(archive), "--base-url", fake.openai_base_url,
                     "--model", "fake-tools"])
        asked = len(fake.requests)
    assert code == 2 and asked == 0 and archive.read_bytes() == before
    assert f"{archive} is not a pack folder: unzip it, record into the folder" in capsys.readouterr().err

"""The command line: `record persona` and `authored persona`, options after the sub-command, summary, exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evallib.__main__ import main
from evallib.llm import Recordings
from evallib.llm.recordings import LOCAL_DIR_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("live_env")


def test_record_takes_its_options_after_the_sub_command_and_prints_a_summary(server, tmp_path, capsys):
    code = main(["record", "persona", "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--recordings-dir", str(tmp_path), "--concurrency", "4"])
    assert code == 0
    assert capsys.readouterr().out.startswith("answered 42, failed 0, recorded 42")
    lines = [json.loads(line) for line in (tmp_path / "persona.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 42
    assert {(line["provenance"]["provider"], line["request"]["model"]) for line in lines} == {("openai", "fake-ok")}


def test_record_writes_to_the_local_folder_by_default_never_the_shipped_one(server, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path / "local"))
    shipped = (ROOT / "packs" / "fr" / "recordings" / "persona.jsonl").read_bytes()
    code = main(["record", "persona", "--kind", "anthropic", "--base-url", server.anthropic_base_url,
                 "--model", "fake-ok"])
    assert code == 0 and "recorded 42" in capsys.readouterr().out
    assert (ROOT / "packs" / "fr" / "recordings" / "persona.jsonl").read_bytes() == shipped
    store = Recordings(ROOT / "packs" / "fr" / "recordings", tmp_path / "local")
    [live] = [s for s in store.sources([r.request for r in _default_cells()]) if s.origin == "live"]
    assert (live.model, live.provider, live.count) == ("fake-ok", "anthropic", 36)


def _default_cells():
    from evallib.persona.catalogue import build_requests, load_catalogue
    return build_requests(load_catalogue(), "any")


def test_failures_give_exit_code_2_and_are_counted_by_cause(server, tmp_path, capsys):
    code = main(["record", "persona", "--model", "fake-500", "--base-url", server.openai_base_url,
                 "--recordings-dir", str(tmp_path), "--retries", "0"])
    assert code == 2
    out = capsys.readouterr()
    assert "answered 0, failed 42, recorded 0" in out.out
    assert "server error: 42 of 42 calls" in out.err and "not measured" in out.err
    assert not (tmp_path / "persona.jsonl").exists()


def test_empty_answers_are_answered_but_not_recorded(server, tmp_path, capsys):
    assert main(["record", "persona", "--model", "fake-empty", "--base-url", server.openai_base_url,
                 "--recordings-dir", str(tmp_path)]) == 0
    assert "answered 42, failed 0, recorded 0" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["record", "persona", "--base-url", "http://x/v1"],  # no model
                                  ["record", "kappa", "--model", "m"],
                                  ["record", "persona", "--model", "m", "--concurrency", "0"],
                                  ["persona-record", "--model", "m"]])
def test_usage_errors_exit_with_2(argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2


@pytest.mark.parametrize("pack_id", ["fr", "en"])
def test_authored_rebuilds_a_pack_s_shipped_recordings_byte_for_byte(pack_id, tmp_path):
    shipped = ROOT / "packs" / pack_id
    copy = tmp_path / pack_id
    copy.mkdir()
    for path in shipped.glob("*.json"):
        (copy / path.name).write_bytes(path.read_bytes())
    out = subprocess.run([sys.executable, "-m", "evallib", "authored", "--pack", str(copy)],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [f"{n} authored answers written to {copy / 'recordings' / name}.jsonl" for name, n
                                       in (("trigger", 304), ("persona", 42), ("judge", 63), ("gnss", 24))]
    for name in ("trigger", "persona", "judge", "gnss"):
        assert (copy / "recordings" / f"{name}.jsonl").read_bytes() == (
            shipped / "recordings" / f"{name}.jsonl").read_bytes(), name


def test_authored_on_a_folder_without_authored_files_exits_2(tmp_path, capsys):
    assert main(["authored", "--pack", str(tmp_path)]) == 2
    assert "holds no authored file" in capsys.readouterr().err
    assert main(["authored", "--pack", str(tmp_path / "absent")]) == 2


def test_without_base_url_each_kind_reads_its_own_variable(server, tmp_path, monkeypatch, capsys):
    server.reset()
    monkeypatch.setenv("OPENAI_BASE_URL", server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.anthropic_base_url)
    assert main(["record", "persona", "--kind", "anthropic", "--model", "fake-ok",
                 "--recordings-dir", str(tmp_path)]) == 0
    assert "answered 42" in capsys.readouterr().out
    assert {r["path"] for r in server.requests} == {"/v1/messages"}


@pytest.mark.parametrize(("argv", "code"), [
    (["trigger", "--offline", "--model", "authored-example-light-router"], 0),
    (["trigger", "--offline", "--model", "authored-example-light-router", "--min-accuracy", "0.95"], 1),
    (["trigger", "--offline", "--model", "no-such-recorded-model"], 2),
    (["gnss", "--min-passes", "13"], 1),
])
def test_evaluation_commands_run_through_python_m_evallib_with_their_own_exit_codes(argv, code, tmp_path, capsys):
    out = ["--out", str(tmp_path)] if argv[0] == "trigger" else []
    assert main(argv + out) == code
    if code == 0:
        report = json.loads((tmp_path / "triggering-authored-example-light-router.json").read_text(encoding="utf-8"))["report"]
        assert report["model"] == "authored-example-light-router"

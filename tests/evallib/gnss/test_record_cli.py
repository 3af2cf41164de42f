"""`python -m evallib record gnss` and `authored gnss`: the live agent's requests recorded, summary, exit codes."""

import json

import pytest

from evallib.__main__ import main
from evallib.gnss.live import case_requests
from evallib.llm import Recordings

pytestmark = pytest.mark.usefixtures("live_env")


def test_record_gnss_records_every_case_and_run_and_the_page_finds_them(server, tmp_path, capsys):
    code = main(["record", "gnss", "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--recordings-dir", str(tmp_path), "--runs", "2"])
    assert code == 0
    assert capsys.readouterr().out.startswith("answered 24, failed 0, recorded 24")
    lines = [json.loads(line) for line in (tmp_path / "gnss.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 24 and {line["request"]["model"] for line in lines} == {"fake-ok"}
    store = Recordings(tmp_path)
    assert all(store.get(request.key()) is not None for _, _, request in case_requests("fake-ok", 2))


def test_record_gnss_failures_exit_2(server, tmp_path, capsys):
    code = main(["record", "gnss", "--base-url", server.openai_base_url, "--model", "fake-500",
                 "--recordings-dir", str(tmp_path), "--runs", "1"])
    assert code == 2
    assert "answered 0, failed 12, recorded 0" in capsys.readouterr().out


def test_record_gnss_runs_must_be_positive(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["record", "gnss", "--model", "m", "--runs", "0"])
    assert caught.value.code == 2


def test_authored_writes_the_gnss_authored_answers(tmp_path, capsys):
    from evallib.packs.layout import builtin_file

    for name in ("pack.json", "gnss_authored_answers.json"):  # the manifest gives the lines' pack id
        (tmp_path / name).write_bytes(builtin_file(name).read_bytes())
    assert main(["authored", "--pack", str(tmp_path)]) == 0
    assert "24 authored answers written" in capsys.readouterr().out
    lines = (tmp_path / "recordings" / "gnss.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 24 and all(json.loads(line)["provenance"]["source"] == "authored" for line in lines)

"""`python -m evallib record all`: every page's default requests in one run against the fake server (real
SDKs), resumed after an interruption without asking again what was recorded, exit 2 on a dead server,
and the pages then replaying offline on those answers."""

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evallib.__main__ import main
from evallib.llm import Progress, Recordings, provider_for_mode
from evallib.llm.recordings import SHIPPED_DIR
from evallib.persona.catalogue import build_requests, load_catalogue
from evallib.runs.record_all import AllProgress, PageTally, endpoint_unusable
from evallib.runs.trigger import cli as trigger_cli
from tests.conftest import FAKE_KEY
from tests.fake_llm_server import FakeLLMServer
from tests.test_browser import _free_port

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.usefixtures("live_env")


def _lines(folder: Path) -> int:
    return sum(len(path.read_text(encoding="utf-8").splitlines()) for path in folder.glob("*.jsonl"))


def _row(out: str, page: str) -> tuple[int, ...]:
    """(already recorded, asked, answered, failed) of the closing table's row for ``page``."""
    return _full_row(out, page)[:4]


def _full_row(out: str, page: str) -> tuple[int, ...]:
    """(already recorded, asked, answered, failed, duplicates, recorded) of the closing table's row."""
    match = re.search(rf"^{page} +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", out, re.MULTILINE)
    assert match, out
    return tuple(int(value) for value in match.groups())


def _record_all(folder: Path, capsys, model: str) -> tuple[str, int]:
    """``record all`` of ``model`` from a fresh fake server into ``folder``: (what it printed, requests sent)."""
    with FakeLLMServer(api_key=FAKE_KEY) as server:
        code = main(["record", "all", "--base-url", server.openai_base_url, "--model", model,
                     "--recordings-dir", str(folder)])
        sent = len(server.requests)
    assert code == 0
    return capsys.readouterr().out, sent


def test_record_all_records_every_page_then_replays_offline(tmp_path, capsys):
    out, sent = _record_all(tmp_path, capsys, "fake-tools")
    assert {path.stem for path in tmp_path.glob("*.jsonl")} == {"persona", "trigger", "judge", "gnss"}
    already, asked, answered, failed = _row(out, "all pages")
    assert (already, failed) == (0, 0) and asked == answered == sent == _lines(tmp_path)
    assert _full_row(out, "persona") == (0, 42, 42, 0, 0, 42) and _row(out, "trigger") == (0, 76, 76, 0)
    assert _full_row(out, "all pages")[4:] == (0, _lines(tmp_path))  # no duplicate; every answer recorded
    # The persona page offers the recorded model offline, and its replay answers every request of the grid
    # and of exercise 3's rewrite example, as the page builds them.
    store = Recordings(SHIPPED_DIR, tmp_path)
    catalogue = load_catalogue()
    requests = [cell.request for cell in build_requests(catalogue, "any")]
    name = catalogue.rewrite_example[0]
    rewrite = [c.request for c in build_requests(catalogue.with_prompt(*catalogue.rewrite_example), "any")
               if c.assistant == name]
    [source] = [s for s in store.sources(requests) if s.origin == "live"]
    assert (source.model, source.provider, source.count) == ("fake-tools", "openai", 36)
    replay = provider_for_mode("offline", store)
    assert all(replay.chat(source.apply(request)).ok for request in requests)
    assert len(rewrite) == 6 and all(replay.chat(source.apply(request)).ok for request in rewrite)
    # The trigger gate replays the recorded model offline (measured: the fake always picks the first tool).
    assert trigger_cli.main(["--offline", "--model", "fake-tools", "--recordings", str(tmp_path),
                             "--out", str(tmp_path / "out")]) == trigger_cli.EXIT_GATE_FAILED


def test_an_interrupted_run_resumes_with_only_the_missing_requests(tmp_path, capsys):
    local = tmp_path / "local"
    argv = ["record", "all", "--kind", "anthropic", "--model", "fake-tools", "--recordings-dir", str(local),
            "--concurrency", "4"]
    # 0.2 s an answer: the whole run takes several seconds, so the signal comes while it is still running
    with FakeLLMServer(api_key=FAKE_KEY, latency=0.2) as server:
        env = {**os.environ, "ANTHROPIC_API_KEY": FAKE_KEY}
        run = subprocess.Popen([sys.executable, "-m", "evallib", *argv, "--base-url", server.anthropic_base_url],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while len(server.requests) < 60 and time.monotonic() < deadline:  # into the trigger page (36 + 76)
            time.sleep(0.05)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
        assert run.returncode == 130, err
        assert "interrupted during " in err and "run the same command again" in err
        recorded = _lines(local)
        assert recorded >= 42  # persona's requests at least (the signal came during a later page)
        # What the table printed at the interruption is what the files hold (the answers still in flight
        # then were dropped, not recorded behind the table's back).
        assert _full_row(out, "all pages")[5] == recorded
        server.reset()
        code = main([*argv, "--base-url", server.anthropic_base_url])
        resumed = len(server.requests)
    out = capsys.readouterr().out
    assert code == 0
    assert _row(out, "persona") == (42, 0, 0, 0)
    already, asked, answered, failed = _row(out, "all pages")
    assert (already, failed) == (recorded, 0)
    assert asked == answered == resumed == _lines(local) - recorded > 0  # only the missing ones were asked


def test_a_dead_server_exits_2_with_the_cause_after_the_first_page(tmp_path, capsys):
    code = main(["record", "all", "--base-url", f"http://127.0.0.1:{_free_port()}/v1", "--model", "m",
                 "--recordings-dir", str(tmp_path), "--retries", "0", "--timeout", "5"])
    captured = capsys.readouterr()
    assert code == 2
    assert _row(captured.out, "persona") == _row(captured.out, "all pages") == (0, 42, 0, 42)
    assert "no server: 42 of 42 calls" in captured.err and "hint: Start the server" in captured.err
    assert "the connection was refused" in captured.err
    assert "the next pages (trigger, judge, gnss) are not asked" in captured.err
    assert "== trigger" not in captured.out and _lines(tmp_path) == 0


def test_requests_repeated_within_a_fresh_run_are_duplicates_asked_once_not_already_recorded(tmp_path, capsys):
    # A model with one fixed reply (as LiteLLM's mock models): both templates' responses are the same text, so
    # the judge's grading requests of template B repeat template A's, key for key.
    out, sent = _record_all(tmp_path, capsys, "fake-fixed")
    already, asked, answered, failed, duplicates, recorded = _full_row(out, "judge")
    assert already == 0 and duplicates == 12 and asked == answered == recorded
    # The judge's summary line says what its row of the table says (not the 48 calls as 48 answers).
    summary = out.split("== judge")[1].splitlines()[1]
    assert summary.startswith(f"already recorded 0, asked {asked}, answered {answered}, failed 0, duplicates 12, "
                              f"recorded {recorded} (in "), summary
    assert _full_row(out, "all pages")[0] == 0  # nothing was recorded before this run
    assert sent == _full_row(out, "all pages")[1]  # a duplicate was not sent again
    assert _full_row(out, "all pages")[5] == _lines(tmp_path)


def test_only_a_page_without_any_answer_stops_the_run():
    assert endpoint_unusable(PageTally("persona", asked=36, failed=36))
    assert endpoint_unusable(PageTally("persona", already=30, asked=6, failed=6))
    assert not endpoint_unusable(PageTally("persona", asked=36, answered=1, failed=35))
    assert not endpoint_unusable(PageTally("persona", already=36))  # recorded before: nothing asked


def test_record_all_needs_a_model(tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["record", "all", "--recordings-dir", str(tmp_path)])
    assert exit_.value.code == 2


def test_the_progress_line_gives_the_page_and_all_pages_so_far():
    stream = io.StringIO()
    progress = AllProgress(2, PageTally("trigger", already=10, asked=20, answered=18, failed=2),
                           PageTally("all pages", already=36), time.perf_counter(), stream)
    progress(Progress(done=30, total=76, errors=2, retries=0, retry_wait_s=0.0, elapsed_s=3.0, last=None))
    assert stream.getvalue().startswith(
        "record all, page 2/4 trigger: 30/76 done, 46 queued (already recorded 10, answered 18, failed 2, "
        "duplicates 0, recorded 0); all pages: already recorded 46, answered 18, failed 2, duplicates 0, recorded 0, ")

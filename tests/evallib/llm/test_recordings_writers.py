"""Recordings shared by several writers: append-only lines under a lock, nothing lost, a partial line closed."""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from evallib.llm import ChatRequest, ChatResult, Recordings
from tests.fake_llm_server import FakeLLMServer

ROOT = Path(__file__).resolve().parents[3]
KEY = "sk-two-writers-test-key-000"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _add(store: Recordings, question: str, text: str = "answer") -> str:
    request = ChatRequest.single("m", "sys", question)
    store.add("demo", request, ChatResult(request_key=request.key(), text=text, model="m"), {"source": "live"})
    return request.key()


def test_two_record_commands_at_once_keep_every_line_and_print_what_they_wrote(tmp_path):
    env = {**os.environ, "OPENAI_API_KEY": KEY, "PYTHONPATH": str(ROOT)}
    with FakeLLMServer(api_key=KEY, latency=0.02) as server:  # each run lasts a second or two: they overlap
        runs = [subprocess.Popen([sys.executable, "-m", "evallib", "record", "trigger", "--base-url",
                                  server.openai_base_url, "--model", model, "--recordings-dir", str(tmp_path),
                                  "--concurrency", "2"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
                for model in ("fake-ok", "fake-tools")]
        outputs = [run.communicate(timeout=240) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    printed = [int(out.split("recorded ")[1].split()[0]) for out, _ in outputs]
    lines = _lines(tmp_path / "trigger.jsonl")
    by_model = {model: sum(line["request"]["model"] == model for line in lines) for model in ("fake-ok", "fake-tools")}
    assert printed == [by_model["fake-ok"], by_model["fake-tools"]] == [76, 76]
    assert len({line["key"] for line in lines}) == len(lines) == 152
    assert len(Recordings(tmp_path)) == 152


def test_many_threads_and_writers_appending_at_once_lose_nothing(tmp_path):
    stores = [Recordings(tmp_path) for _ in range(3)]  # three writers of one file, as three sessions
    keys: list[str] = []
    barrier = threading.Barrier(9)

    def write(worker: int) -> None:
        barrier.wait()
        for i in range(20):
            keys.append(_add(stores[worker % 3], f"q{worker}-{i}", "x" * (i * 500)))  # long lines too

    threads = [threading.Thread(target=write, args=(w,)) for w in range(9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = _lines(tmp_path / "demo.jsonl")  # raises if two lines were interleaved
    assert sorted(line["key"] for line in lines) == sorted(keys) and len(keys) == 180
    assert sum(store.appended("demo") for store in stores) == 180
    reread = Recordings(tmp_path)
    assert len(reread) == 180 and not reread.problems


def test_a_partial_last_line_is_skipped_then_closed_by_the_next_writer(tmp_path):
    first = _add(Recordings(tmp_path), "one")
    path = tmp_path / "demo.jsonl"
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"key": "abc", "kind": "chat", "requ')  # a writer killed in the middle of its line
    store = Recordings(tmp_path)
    assert store.get(first) is not None and [p.code for p in store.problems] == ["not_json"]
    second = _add(store, "two")
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 3
    reread = Recordings(tmp_path)
    assert reread.get(first) and reread.get(second) and [p.line for p in reread.problems] == [2]


def test_a_key_recorded_twice_is_read_from_its_last_line(tmp_path):
    one, two = Recordings(tmp_path), Recordings(tmp_path)
    key = _add(one, "same", "first answer")
    _add(two, "same", "second answer")
    assert len(_lines(tmp_path / "demo.jsonl")) == 2
    assert Recordings(tmp_path).get(key).result.text == "second answer"


def test_the_same_line_is_not_appended_twice(tmp_path):
    _add(Recordings(tmp_path), "same")
    store = Recordings(tmp_path)
    _add(store, "same")  # an authored writer run again: nothing new to say
    assert len(_lines(tmp_path / "demo.jsonl")) == 1 and store.appended("demo") == 0

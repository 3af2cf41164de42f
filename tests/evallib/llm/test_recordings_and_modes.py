"""Recording store (atomic, damaged lines skipped) and the offline / fallback / record modes."""

import json
import threading
import time
from datetime import date

import pytest

from evallib.llm import (ChatRequest, ChatResult, EmbeddingRequest, Recording, Recordings, collect, default_recordings, failed_indices,
                         live_provenance, local_directory, provider_for_mode, retry_failed)
from evallib.llm.recordings import LOCAL_DIR_VARIABLE

REQUEST = ChatRequest.single("m", "sys", "question")


def _ok(request, text="answer"):
    return ChatResult(request_key=request.key(), text=text, model=request.model, latency_s=0.1)


def _error(request):
    return ChatResult(request_key=request.key(), model=request.model, status="error",
                      error_kind="server", error="HTTP 500")


class ScriptedProvider:
    """A provider answering from a function, counting calls and the peak of concurrent calls."""

    def __init__(self, answer, delay=0.0):
        self.answer, self.delay = answer, delay
        self.calls, self.in_flight, self.peak = 0, 0, 0
        self._lock = threading.Lock()

    def fingerprint(self):
        return "scripted"

    def chat(self, request):
        with self._lock:
            self.calls += 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        time.sleep(self.delay)
        with self._lock:
            self.in_flight -= 1
        return self.answer(request)

    embed = chat


def test_add_then_reload_replays_the_result_with_provenance(tmp_path):
    store = Recordings(tmp_path)
    store.add("demo", REQUEST, _ok(REQUEST), {"source": "authored", "note": "written for the demo"})
    again = Recordings(tmp_path)
    found = again.get(REQUEST.key())
    assert found is not None and found.result.text == "answer"
    assert found.result.source == "recording" and found.result.provenance == "authored"
    assert again.problems == []


def test_damaged_line_is_skipped_and_reported(tmp_path):
    store = Recordings(tmp_path)
    other = ChatRequest.single("m", "sys", "another")
    store.add("demo", REQUEST, _ok(REQUEST), {"source": "live", "model": "m", "date": "2026-11-29"})
    store.add("demo", other, _ok(other), {"source": "live", "model": "m", "date": "2026-11-29"})
    path = tmp_path / "demo.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text(lines[0] + "\n{broken json\n" + lines[1][: len(lines[1]) // 2] + "\n", encoding="utf-8")
    reloaded = Recordings(tmp_path)
    assert len(reloaded) == 1
    assert [(p.line, p.code) for p in reloaded.problems] == [(2, "not_json"), (3, "not_json")]
    assert str(reloaded.problems[0]).startswith("demo.jsonl:2: skipped (JSONDecodeError: ")


def test_a_line_whose_key_does_not_match_its_request_is_refused(tmp_path):
    store = Recordings(tmp_path)
    store.add("demo", REQUEST, _ok(REQUEST), {"source": "authored"})
    path = tmp_path / "demo.jsonl"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["request"]["system"] = "edited by hand"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    reloaded = Recordings(tmp_path)
    assert len(reloaded) == 0 and reloaded.problems[0].code == "key_mismatch"
    assert "does not match" in str(reloaded.problems[0])


def test_unknown_provenance_is_refused(tmp_path):
    with pytest.raises(ValueError, match="provenance"):
        Recordings(tmp_path).add("demo", REQUEST, _ok(REQUEST), {"source": "invented"})


def test_offline_mode_reports_missing_recordings_and_never_invents(tmp_path):
    provider = provider_for_mode("offline", Recordings(tmp_path))
    result = provider.chat(REQUEST)
    assert result.status == "error" and result.error_kind == "missing_recording"
    assert "question" in result.error and result.text == ""


def test_live_failure_falls_back_to_the_recording_and_names_the_error(tmp_path):
    store = Recordings(tmp_path)
    store.add("demo", REQUEST, _ok(REQUEST, "recorded"), {"source": "live", "model": "m", "date": "2026-01-01"})
    provider = provider_for_mode("live", store, ScriptedProvider(_error))
    result = provider.chat(REQUEST)
    assert result.text == "recorded" and result.source == "recording" and result.fallback_error == "HTTP 500"
    unrecorded = ChatRequest.single("m", "sys", "unrecorded")
    assert provider.chat(unrecorded).status == "error"


@pytest.mark.parametrize("kind", ["auth", "bad_request", "model_not_found", "not_found"])
def test_a_failure_the_user_must_fix_is_shown_even_when_a_recording_exists(tmp_path, kind):
    store = Recordings(tmp_path)
    store.add("demo", REQUEST, _ok(REQUEST, "recorded"), {"source": "live", "model": "m", "date": "2026-01-01"})
    refused = ChatResult(request_key=REQUEST.key(), model=REQUEST.model, status="error", error_kind=kind,
                         error="HTTP 400 No connected db.")
    result = provider_for_mode("live", store, ScriptedProvider(lambda request: refused)).chat(REQUEST)
    assert result.status == "error" and result.error_kind == kind and result.text == ""


def test_live_record_mode_appends_successes_only(tmp_path):
    store = Recordings(tmp_path)
    ok_provider = provider_for_mode("live_record", store, ScriptedProvider(_ok), set_name="demo")
    ok_provider.chat(REQUEST)
    failing = ChatRequest.single("m", "sys", "fails")
    provider_for_mode("live_record", store, ScriptedProvider(_error), set_name="demo").chat(failing)
    reloaded = Recordings(tmp_path)
    assert reloaded.get(REQUEST.key()).provenance["source"] == "live"
    assert reloaded.get(failing.key()) is None


def test_collect_keeps_order_bounds_concurrency_and_isolates_failures():
    requests = [ChatRequest.single("m", "s", f"q{i}") for i in range(20)]

    def answer(request):
        number = int(request.messages[0][1][1:])
        if number % 7 == 3:
            raise RuntimeError("boom")
        return _ok(request, request.messages[0][1])

    provider = ScriptedProvider(answer, delay=0.05)
    seen = []
    results = collect(requests, provider, max_concurrency=4, on_progress=seen.append)
    assert [r.text for r in results if r.ok] == [f"q{i}" for i in range(20) if i % 7 != 3]
    assert failed_indices(results) == [3, 10, 17]
    assert "boom" in results[3].error
    assert provider.peak > 1 and provider.peak <= 4
    assert [p.done for p in seen] == list(range(1, 21)) and seen[-1].errors == 3


def test_retry_failed_sends_only_the_failures():
    requests = [ChatRequest.single("m", "s", f"q{i}") for i in range(6)]
    first = [(_error if i in (1, 4) else _ok)(r) for i, r in enumerate(requests)]
    provider = ScriptedProvider(_ok)
    merged = retry_failed(requests, first, provider)
    assert provider.calls == 2 and all(r.ok for r in merged)
    assert merged[0] is first[0]


def test_collect_rejects_zero_concurrency():
    with pytest.raises(ValueError, match="at least 1"):
        collect([REQUEST], ScriptedProvider(_ok), max_concurrency=0)


# ---------------------------------------------------------------- recorded sources, shipped and local folders

THINKING_OFF = {"chat_template_kwargs": {"enable_thinking": False}}


def _grid(model, **options):
    return [ChatRequest.single(model, f"sys {a}", f"q{i}", temperature=0.3, seed=7, **options)
            for a in range(2) for i in range(3)]


def test_a_line_recorded_before_the_provider_kind_was_kept_still_loads(tmp_path):
    line = json.loads(Recording("demo", REQUEST.key(), REQUEST, _ok(REQUEST), {}).to_line())
    line["provenance"] = {"source": "live", "model": "m", "date": "2026-01-02"}
    (tmp_path / "demo.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    store = Recordings(tmp_path)
    assert store.problems == [] and store.get(REQUEST.key()).result.text == "answer"
    [source] = store.sources([REQUEST])
    assert (source.origin, source.model, source.provider, source.dates, source.count) == \
        ("live", "m", "", ("2026-01-02",), 1)


def test_sources_list_each_recorded_model_and_rebuild_its_exact_requests(tmp_path):
    store = Recordings(tmp_path)
    for request in _grid("authored-examples", extra_body=THINKING_OFF):
        store.add("demo", request, _ok(request, "written"), {"source": "authored"})
    for request in _grid("qwen", extra_body=THINKING_OFF)[:4]:
        store.add("demo", request, _ok(request, "qwen says"), live_provenance("qwen", "openai"))
    for request in _grid("claude")[:2]:  # recorded without the extra body, from an Anthropic endpoint
        store.add("demo", request, _ok(request, "claude says"), live_provenance("claude", "anthropic"))
    store.add("demo", REQUEST, _ok(REQUEST), live_provenance("m", "openai"))  # another page's request
    page = _grid("whatever-the-page-uses", extra_body=THINKING_OFF)
    store = Recordings(tmp_path)
    sources = store.sources(page)
    assert [(s.origin, s.model, s.provider, s.count) for s in sources] == [
        ("authored", "authored-examples", "", 6), ("live", "claude", "anthropic", 2), ("live", "qwen", "openai", 4)]
    assert sources[1].dates == (date.today().isoformat(),)
    replay = provider_for_mode("offline", store)
    by_model = {s.model: [replay.chat(s.apply(r)) for r in page] for s in sources}
    assert [r.text for r in by_model["claude"]] == ["claude says"] * 2 + [""] * 4
    assert [r.text for r in by_model["qwen"]] == ["qwen says"] * 4 + [""] * 2
    assert by_model["qwen"][5].error_kind == "missing_recording" and "q2" in by_model["qwen"][5].error
    assert len({s.id for s in sources}) == 3
    embedding = EmbeddingRequest("embedder", ("a text",))
    assert sources[2].apply(embedding) == embedding  # a chat source leaves other kinds of request alone


def test_new_recordings_go_to_the_local_folder_and_win_over_the_shipped_ones(tmp_path):
    shipped, local = tmp_path / "shipped", tmp_path / "local"
    Recordings(shipped).add("demo", REQUEST, _ok(REQUEST, "shipped"), {"source": "authored"})
    shipped_text = (shipped / "demo.jsonl").read_text(encoding="utf-8")
    other = ChatRequest.single("m", "sys", "other")
    store = Recordings(shipped, local)
    provider = provider_for_mode("live_record", store, ScriptedProvider(lambda r: _ok(r, "fresh")),
                                 set_name="demo", provider_kind="anthropic")
    provider.chat(REQUEST)
    provider.chat(other)
    assert (shipped / "demo.jsonl").read_text(encoding="utf-8") == shipped_text
    assert len((local / "demo.jsonl").read_text(encoding="utf-8").splitlines()) == 2
    reloaded = Recordings(shipped, local)
    assert reloaded.get(REQUEST.key()).result.text == "fresh"
    assert reloaded.get(other.key()).provenance["provider"] == "anthropic"
    assert Recordings(shipped).get(REQUEST.key()).result.text == "shipped"


def test_the_local_folder_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path / "mine"))
    assert local_directory() == tmp_path / "mine"
    assert default_recordings().write_directory == tmp_path / "mine"


def test_an_exception_from_the_progress_callback_stops_sending_and_does_not_wait():
    requests = [ChatRequest.single("m", "s", f"q{i}") for i in range(40)]
    provider = ScriptedProvider(_ok, delay=0.2)

    class Interrupted(Exception):
        pass

    def interrupt(progress):
        if progress.done == 2:
            raise Interrupted

    start = time.perf_counter()
    with pytest.raises(Interrupted):
        collect(requests, provider, max_concurrency=2, on_progress=interrupt)
    assert time.perf_counter() - start < 1.5  # not 40 x 0.2 s / 2 = 4 s
    time.sleep(0.5)
    assert provider.calls <= 4  # the two answered and at most the two then in flight

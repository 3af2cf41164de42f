"""Retries seen as they happen, the Retry-After budget, and the errors a proxy answers (real SDKs, fake server)."""

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from evallib.llm import ChatRequest, ProviderConfig, collect, make_provider
from evallib.llm import retries as retries_module
from evallib.llm.errors import SERVER_TEXT_MAX_CHARS, short_text
from tests.evallib.llm.conftest import SECRET_KEY
from tests.fake_llm_server import FakeLLMServer

ROOT = Path(__file__).resolve().parents[3]


def provider(server, kind="openai", key=SECRET_KEY, **options):
    options.setdefault("max_retries", 3)
    options.setdefault("timeout_s", 5)
    base_url = server.openai_base_url if kind == "openai" else server.anthropic_base_url
    return make_provider(ProviderConfig(kind=kind, base_url=base_url, api_key=key, **options))


def ask(model, text="Bonjour"):
    return ChatRequest.single(model, "Sois bref.", text)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_retries_count_retries_not_attempts(server, kind):
    server.retry_after = 0.05
    requests = [ask("fake-429", f"q{i}") for i in range(3)]
    results = collect(requests, provider(server, kind, max_retries=3), max_concurrency=3)
    attempts = len([r for r in server.requests if r["model"] == "fake-429"])
    assert attempts == 12  # 3 requests x (1 attempt + 3 retries), from the server's own log
    assert [r.retries for r in results] == [3, 3, 3]
    assert all(r.error_kind == "rate_limit" for r in results)


def test_progress_reports_a_retry_and_its_wait_before_the_answer_arrives(server):
    server.retry_after = 2
    seen, threads = [], set()
    results = collect([ask("fake-429-once")], provider(server),
                      on_progress=lambda p: (seen.append(p), threads.add(threading.get_ident())))
    assert threads == {threading.get_ident()}  # always the calling thread (a Streamlit page draws there)
    waiting = [p for p in seen if p.last is None and p.retries == 1]
    assert waiting, "no progress reported while the retry waited"
    assert 0.5 < waiting[0].retry_wait_s <= 2.0
    assert waiting[-1].retry_wait_s < waiting[0].retry_wait_s  # it counts down
    assert seen[-1].last is results[0] and results[0].ok and seen[-1].retries == 1 and seen[-1].done == 1


def test_progress_retries_add_up_over_finished_and_running_requests(server):
    server.retry_after = 0.05
    seen = []
    results = collect([ask("fake-429-once", f"q{i}") for i in range(4)] + [ask("fake-ok")], provider(server),
                      max_concurrency=2, on_progress=seen.append)
    assert all(r.ok for r in results) and sum(r.retries for r in results) == 4 == server.stats[429]
    assert seen[-1].retries == 4 and [p.retries for p in seen] == sorted(p.retries for p in seen)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_retry_after_beyond_the_budget_is_not_waited(server, kind, monkeypatch):
    monkeypatch.setattr(retries_module, "RETRY_AFTER_BUDGET_S", 1.0)
    server.retry_after = 2
    start = time.perf_counter()
    result = provider(server, kind).chat(ask("fake-429"))
    assert time.perf_counter() - start < 1.5
    assert result.error_kind == "rate_limit" and "asked to wait 2 s" in result.error
    assert len(server.requests) == 1 and result.retries == 0


def test_the_budget_counts_the_waits_of_one_request_together(server, monkeypatch):
    monkeypatch.setattr(retries_module, "RETRY_AFTER_BUDGET_S", 1.0)
    server.retry_after = 0.6
    result = provider(server, "anthropic").chat(ask("fake-429"))
    assert len(server.requests) == 2 and result.retries == 1 and "asked to wait 0.6 s" in result.error


def test_retry_after_parsing():
    assert retries_module.retry_after_s({"retry-after": "3"}) == 3.0
    assert retries_module.retry_after_s({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert retries_module.retry_after_s({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retries_module.retry_after_s({}) is None
    assert retries_module.retry_after_s({"retry-after": "soon"}) is None


@pytest.fixture
def proxy():
    """A server answering as the LiteLLM proxy does: 400 for a wrong key and for an unknown model."""
    with FakeLLMServer(api_key=SECRET_KEY, proxy_errors=True) as running:
        yield running


def test_a_key_refused_by_a_proxy_with_400_is_not_called_a_parameter_problem(proxy):
    result = provider(proxy, key="sk-wrong-77", max_retries=0).chat(ask("fake-ok"))
    assert result.error_kind == "bad_request"
    assert result.error.endswith(": No connected db.") and "HTTP 400" in result.error
    assert result.hint.index("key") < result.hint.index("model") < result.hint.index("parameter")
    assert "sk-wrong-77" not in result.error + result.hint


def test_an_unknown_model_answered_400_by_a_proxy_lists_the_models(proxy):
    result = provider(proxy, max_retries=0).chat(ask("gpt-nonexistent"))
    assert result.error_kind == "model_not_found" and "gpt-nonexistent" in result.error
    assert "fake-ok" in result.hint


def test_the_model_list_is_asked_once_for_many_failures(proxy):
    results = collect([ask("gpt-nonexistent", f"q{i}") for i in range(6)], provider(proxy, max_retries=0))
    assert {r.error_kind for r in results} == {"model_not_found"}
    assert len([r for r in proxy.requests if r["path"] == "/v1/models"]) == 1
    assert [r.retries for r in results] == [0] * 6  # listing the models is not a retry


def test_a_failed_model_list_is_asked_once_too(proxy):
    results = collect([ask("fake-ok", f"q{i}") for i in range(6)], provider(proxy, key="sk-wrong", max_retries=0))
    assert {r.error_kind for r in results} == {"bad_request"} and [r.retries for r in results] == [0] * 6
    assert len([r for r in proxy.requests if r["path"] == "/v1/models"]) == 1


def test_an_upstream_timeout_answered_408_is_a_timeout_with_a_short_message(server):
    result = provider(server, max_retries=0).chat(ask("fake-408"))
    assert result.error_kind == "timeout" and "HTTP 408" in result.error
    assert "\n" not in result.error and "Deployment Info" not in result.error


def test_a_504_is_a_timeout():
    import httpx2
    import openai

    from evallib.llm.errors import describe_exception
    response = httpx2.Response(504, request=httpx2.Request("POST", "http://gateway/v1/chat/completions"))
    exc = openai.InternalServerError("Gateway Timeout", response=response, body={"error": {"message": "upstream"}})
    failure = describe_exception(exc, ProviderConfig(base_url="http://gateway/v1"), lambda: None)
    assert failure.kind == "timeout" and "HTTP 504" in failure.message
    assert failure.result_details() == {"code": "timeout_status", "url": "http://gateway/v1", "provider": "openai",
                                        "status": 504, "server_text": "upstream"}


def test_short_text_keeps_the_first_meaningful_line_within_bounds():
    assert short_text("\n\n  Error: boom  \nTraceback (most recent call last):\n ...") == "Error: boom"
    long = short_text("word " * 200)
    assert len(long) <= SERVER_TEXT_MAX_CHARS and long.endswith("…")
    assert short_text("") == ""


OFFLINE_VISIT = """
import sys
from streamlit.testing.v1 import AppTest
for page in ("pages/home.py", "pages/persona.py", "pages/kappa.py"):
    at = AppTest.from_file("app.py", default_timeout=120)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, (page, at.exception)
loaded = sorted(name for name in ("openai", "anthropic", "httpx2") if name in sys.modules)
print("LOADED=" + ",".join(loaded))
"""


def test_offline_pages_never_import_the_sdks():
    done = subprocess.run([sys.executable, "-c", OFFLINE_VISIT], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "LOADED=\n" in done.stdout, done.stdout[-500:]

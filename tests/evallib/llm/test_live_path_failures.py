"""The live path names every failure right, and at once (docs/README.md#modes): an HTML page at
any status is no model API (the sidebar's model list and a call agree), a refused connection is not
retried, an empty key is a missing key, and answers all cut at the token limit are truncated. Real
SDKs against local servers, with the SDKs' default retries (3): what failed before took seconds."""

import importlib
import time

import pytest

from evallib.runs.failures import CommandOptions, call_failures
from evallib.llm import ChatRequest, ProviderConfig, collect, make_provider
from evallib.llm.errors import NotAnApiAnswer
from evallib.llm.urls import base_url_problem
from evallib.triggering.decisions import parse_decision
from tests.evallib.llm.conftest import SECRET_KEY
from tests.fake_llm_server import NotAnApiServer, PlainFileServer
from tests.test_browser import _free_port

QUESTION = ChatRequest.single("fake-ok", "Sois bref.", "Quelle heure est-il ?")
KINDS = [("openai", "/v1", "an OpenAI-compatible API"), ("anthropic", "", "the Anthropic Messages API")]


def live(kind, base_url, key=SECRET_KEY, **options):
    return make_provider(ProviderConfig(kind=kind, base_url=base_url, api_key=key, **options))  # 3 retries


def timed(call):
    start = time.perf_counter()
    return call(), time.perf_counter() - start


@pytest.mark.parametrize("kind, path, api", KINDS)
def test_a_plain_file_server_is_not_a_model_api_at_once_for_a_call_and_for_the_model_list(tmp_path, kind, path,
                                                                                         api):
    with PlainFileServer(str(tmp_path)) as site:
        provider = live(kind, site.url + path)
        result, elapsed = timed(lambda: provider.chat(QUESTION))
        asked = site.requests
        with pytest.raises(Exception) as raised:  # the sidebar's check: GET .../models, an HTML 404
            provider.list_models()
        listing = provider.failure(raised.value, list_models=lambda: None)
    details = result.error_details
    assert (result.error_kind, details["code"], details["received"]) == ("malformed", f"not_{kind}_api", "html")
    assert details["status"] == 501 and details["server_text"] == "Error response"  # the page's title
    assert result.error.startswith(f"{site.url + path} answers, but not as {api} (it sent an HTML page, HTTP 501)")
    assert (result.retries, asked) == (0, 1) and elapsed < 2.0  # not retried: no backoff
    assert (listing.kind, listing.code, listing.details["status"]) == ("malformed", f"not_{kind}_api", 404)


@pytest.mark.parametrize("status", [404, 500, 501])
def test_an_html_page_is_not_a_model_api_whatever_its_status_but_a_gateways(status):
    with NotAnApiServer(body="<html><head><title>Portail</title></head><body>Connectez-vous</body></html>",
                        status=status) as site:
        result = live("openai", site.url + "/v1").chat(QUESTION)
        asked = site.requests
    assert (result.error_details["code"], result.error_details["status"], result.retries) == \
        ("not_openai_api", status, 0)
    assert asked == 1 and result.error_details["server_text"] == "Portail"
    failures = call_failures([result], ["q1"], CommandOptions())
    assert failures.groups[0].name == "not a model API" and "--base-url" in failures.groups[0].hint


@pytest.mark.parametrize("status, kind, code", [(502, "server", "gateway"), (503, "server", "gateway"),
                                               (504, "server", "gateway")])
def test_a_proxys_html_page_for_a_model_server_that_is_down_is_a_server_failure_retried(status, kind, code):
    """nginx in front of a vLLM that is down answers its own HTML 502/503/504: retried, then named a gateway."""
    with NotAnApiServer(body=f"<html><head><title>{status} Bad Gateway</title></head><body>nginx</body></html>",
                        status=status) as site:
        result = live("openai", site.url + "/v1", max_retries=1).chat(QUESTION)
        asked = site.requests
    assert (result.error_kind, result.error_details["code"], result.error_details["status"]) == (kind, code, status)
    assert result.error_details["server_text"] == f"{status} Bad Gateway" and asked == 2  # one retry
    assert "proxy" in result.error and "<html" not in result.error


def test_a_json_error_of_a_model_server_is_still_read_as_its_status(server):
    result = live("openai", server.openai_base_url, max_retries=0).chat(ChatRequest.single("fake-500", "", "x"))
    assert (result.error_kind, result.error_details["code"]) == ("server", "server")


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_refused_connection_is_reported_at_once_not_retried(kind):
    importlib.import_module(kind)  # the SDK is imported at the first call: its import is not what is timed
    url = f"http://127.0.0.1:{_free_port()}" + ("/v1" if kind == "openai" else "")
    result, elapsed = timed(lambda: live(kind, url).chat(QUESTION))
    assert (result.error_kind, result.error_details["code"], result.retries) == ("connection", "connection_refused", 0)
    assert result.error == f"No server answered at {url}: the connection was refused (nothing listens there)."
    assert elapsed < 1.0
    results, elapsed = timed(lambda: collect([QUESTION] * 36, live(kind, url), max_concurrency=8))
    assert all(r.error_details["code"] == "connection_refused" for r in results) and elapsed < 3.0


def test_a_name_that_does_not_resolve_keeps_the_systems_reason():
    result = live("openai", "http://no-such-host.invalid/v1", max_retries=0).chat(QUESTION)
    assert (result.error_kind, result.error_details["code"]) == ("connection", "connection")
    assert result.error_details["technical_text"] and result.error_details["technical_text"] in result.error


@pytest.mark.parametrize("kind, path", [("openai", "/v1"), ("anthropic", "")])
def test_an_empty_key_is_a_missing_key_and_a_wrong_one_a_wrong_key(server, kind, path):
    missing = live(kind, server.url + path, key="", max_retries=0).chat(QUESTION)
    wrong = live(kind, server.url + path, key="sk-wrong-key-0000", max_retries=0).chat(QUESTION)
    assert (missing.error_kind, missing.error_details["code"]) == ("auth", "auth_missing")
    assert "none was given" in missing.error
    assert (wrong.error_kind, wrong.error_details["code"]) == ("auth", "auth")
    options = CommandOptions(key_variable="OPENAI_API_KEY")
    [group] = call_failures([missing], ["q1"], options).groups
    assert group.name == "missing key" and "OPENAI_API_KEY" in group.hint and "empty" in group.hint
    assert call_failures([wrong], ["q1"], options).groups[0].name == "wrong key"


@pytest.mark.parametrize("kind, path", [("openai", "/v1"), ("anthropic", "")])
def test_answers_all_cut_at_the_token_limit_count_as_truncated_not_empty(server, kind, path):
    requests = [ChatRequest.single("fake-length-empty", "", f"question {i}") for i in range(6)]
    results = collect(requests, live(kind, server.url + path, max_retries=0))
    assert [r.status for r in results] == ["truncated"] * 6
    assert all(r.finish_reason in ("length", "max_tokens") and r.text == "" for r in results)
    decisions = [parse_decision(r, ["search", "calendar"]) for r in results]
    assert {(d.status, d.reason) for d in decisions} == {("error", "truncated")}


def test_an_answer_ended_by_the_model_without_text_stays_empty(server):
    result = live("openai", server.openai_base_url, max_retries=0).chat(ChatRequest.single("fake-empty", "", "x"))
    assert result.status == "empty"


def test_the_not_an_api_answer_of_a_200_page_is_unchanged():
    with NotAnApiServer() as site:
        provider = live("openai", site.url + "/v1", max_retries=0)
        with pytest.raises(NotAnApiAnswer):
            provider.list_models()


@pytest.mark.parametrize("url, problem", [
    ("http://user:pass@127.0.0.1:4000/v1", ""), ("https://:tok@proxy.example/v1", ""), ("http://[::1]:11434/v1", ""),
    ("http://localhost:11434/v1?api-version=1", ""), ("localhost:11434/v1", "scheme"), ("ftp://host/v1", "scheme"),
    ("http:///v1", "host"), ("http://[::1/v1", "host"), ("http://host:port/v1", "port"), ("http://host:70000", "port"),
    ("http://host/v 1", "spaces"),
])
def test_base_url_problems(url, problem):
    assert base_url_problem(url) == problem


def test_a_user_pass_url_is_a_url_for_the_page(monkeypatch):
    from ui.settings import Settings, config_problem
    config = ProviderConfig(base_url="http://user:secret-pass-123@127.0.0.1:4000/v1")
    assert config_problem(Settings("live", config, "fake-ok", 8, True)) == ""
    assert config_problem(Settings("live", ProviderConfig(base_url="localhost:4000"), "m", 8, True)) == "sidebar.bad_url"


def test_a_user_pass_url_to_a_dead_server_prints_the_cause_with_the_url_redacted(tmp_path, capsys, monkeypatch):
    from evallib.__main__ import main
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    port = _free_port()
    code = main(["record", "gnss", "--base-url", f"http://user:secret-pass-123@127.0.0.1:{port}/v1", "--model", "m",
                 "--runs", "1", "--recordings-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 2
    assert "no server: 12 of 12 calls" in captured.err
    assert f"No server answered at http://***@127.0.0.1:{port}/v1: the connection was refused" in captured.err
    assert "secret-pass-123" not in captured.out + captured.err


def test_an_empty_key_refused_with_a_400_as_litellm_does_names_the_missing_key():
    from tests.fake_llm_server import FakeLLMServer
    with FakeLLMServer(api_key=SECRET_KEY, proxy_errors=True) as proxy:
        missing = live("openai", proxy.openai_base_url, key="", max_retries=0).chat(QUESTION)
        wrong = live("openai", proxy.openai_base_url, key="sk-wrong-key-0000", max_retries=0).chat(QUESTION)
    assert missing.error_details["code"] == "bad_request_no_key" and "no API key was given" in missing.error
    assert wrong.error_details["code"] == "bad_request"
    assert call_failures([missing], ["q1"], CommandOptions()).groups[0].name == "missing key"

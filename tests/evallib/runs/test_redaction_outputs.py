"""No secret of a base URL in any output: each shape tried on the CLI's lines and JSON report (the run
bundle), the page's sidebar and error list, a run bundle's answers and a room attempt."""

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evallib.llm import ChatRequest, ProviderConfig, make_provider
from evallib.packs.layout import BUILTIN_DIR
from evallib.persona.catalogue import build_requests, load_catalogue
from evallib.llm.redaction import leak, redact, redact_headers, redact_text, redact_url
from evallib.room.attempts import build_trigger_attempt
from evallib.runs.bundle import answer_entry
from evallib.runs.trigger import cli
from tests.evallib.room.kinds import trigger_rows
from tests.fake_llm_server import FakeLLMServer

APP = str(Path(__file__).resolve().parents[3] / "app.py")
KEY = "sk-redaction-outputs-key-0000"
SECRET = "Zq7SECRETw"
#: Each shape of a secret in a base URL ({root}: ``http://127.0.0.1:<port>``).
SHAPES = {
    "token userinfo": "http://hf_{s}@{host}/v1",
    "user and password": "http://user:{s}@{host}/v1",
    "password only": "http://:{s}@{host}/v1",
    "key parameter": "http://{host}/v1?key={s}",
    "api_key parameter": "http://{host}/v1?model=m&API_KEY={s}",
    "token parameter": "http://{host}/v1?token={s}&x=1",
    "access_token and sig": "http://{host}/v1?access_token={s}&sig={s}",
}


def _url(shape: str, server) -> str:
    return SHAPES[shape].format(s=SECRET, host=server.openai_base_url.split("/")[2])


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer(api_key=KEY) as running:
        yield running


@pytest.mark.parametrize("url, expected", [
    ("http://hf_x@h:1/v1", "http://***@h:1/v1"), ("https://u:p@h/v1", "https://***@h/v1"),
    ("http://:p@h", "http://***@h"), ("http://h/v1?Api-Key=k&model=m", "http://h/v1?Api-Key=***&model=m"),
    ("http://h/?sig=s;x=1#access_token=t", "http://h/?sig=***;x=1#access_token=***"),
    ("http://h/v1?model=m", "http://h/v1?model=m"), ("http://[::1/v1", "http://[::1/v1"),
    ("http://tok@[::1/v1", "http://***@[::1/v1")])
def test_redact_url_removes_userinfo_and_secret_parameters(url, expected):
    assert redact_url(url) == expected and redact_url(expected) == expected


@pytest.mark.parametrize("text, expected", [
    ("Authorization: Bearer abc.def", "Authorization: Bearer ***"), ("x-api-key: k1", "x-api-key: ***"),
    ("{'api-key': 'k2'}", "{'api-key': '***'}"), ("PROXY-AUTHORIZATION=Basic dXNlcg==", "PROXY-AUTHORIZATION=Basic ***"),
    ("at http://t@h/v1.", "at http://***@h/v1."), ("key sk-abcdefghijklmnopqrstu end", "key *** end")])
def test_redact_text_hides_header_values_urls_and_keys(text, expected):
    assert redact_text(text) == expected and leak([text]) is not None and leak([expected]) is None


def test_redact_headers_and_values():
    assert redact_headers({"Authorization": "Bearer x", "X-Goog-Api-Key": "y", "Accept": "json"}) == \
        {"Authorization": "***", "X-Goog-Api-Key": "***", "Accept": "json"}
    assert redact({"a": ["http://t@h", ("http://h?key=k",)], "n": 1}) == {"a": ["http://***@h", ("http://h?key=***",)],
                                                                         "n": 1}


@pytest.mark.parametrize("shape", SHAPES)
def test_the_cli_prints_and_reports_no_secret(shape, server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    code = cli.main(["--model", "fake-ok", "--runs", "1", "--retries", "0", "--base-url", _url(shape, server),
                     "--out", str(tmp_path)])
    printed = capsys.readouterr()
    assert code == 2 and "127.0.0.1" in printed.out + printed.err  # failed calls, worded with their address
    [report] = tmp_path.glob("*.json")
    bundle = report.read_text(encoding="utf-8")
    assert SECRET not in printed.out + printed.err + bundle
    assert leak(json.loads(bundle)) is None


def _failed_results(url: str, n: int = 4) -> list:
    live = make_provider(ProviderConfig(kind="openai", base_url=url, api_key=KEY, max_retries=0))
    return [live.chat(ChatRequest.single("fake-ok", "", f"question {i}")) for i in range(n)]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_run_bundle_and_a_room_attempt_keep_no_secret(shape, server):
    url = _url(shape, server)
    results = _failed_results(url, 2)
    assert all(r.failed for r in results)
    entries = [answer_entry(result, result.request_key) for result in results]
    assert SECRET not in json.dumps(entries) and "127.0.0.1" in json.dumps(entries)
    catalogue, queries, model, rows = trigger_rows()
    descriptions = {name: f"see {url} and {results[0].error}" for name in catalogue.names}
    attempt = build_trigger_attempt(rows, queries, descriptions, model=model, source="live", runs=1)
    assert SECRET not in json.dumps(attempt) and "127.0.0.1" in json.dumps(attempt)


def _shown(element) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(getattr(element, "value", "")))


@pytest.mark.parametrize("shape", SHAPES)
def test_the_page_sidebar_and_error_list_show_no_secret(shape, server):
    url = _url(shape, server)
    live = make_provider(ProviderConfig(kind="openai", base_url=url, api_key=KEY, max_retries=0))
    # an English session opens the English pack (docs/packs.md): its grid's answers
    grid = build_requests(load_catalogue(BUILTIN_DIR / "en" / "personas.json"), "fake-ok", disable_reasoning=True)
    answers = {(cell.request.key(), live.config.fingerprint()): live.chat(cell.request) for cell in grid}
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {"lang": "en", "llm_mode": "live", "llm_base_url": url, "llm_api_key": KEY,
                        "_llm_secrets_read": True, "llm_model": "fake-ok", "answers": answers}.items():
        at.session_state[name] = value
    at.run()
    at.switch_page("pages/persona.py").run()
    assert not at.exception
    shown = [_shown(e) for kind in ("caption", "markdown", "error", "warning", "info", "exception", "code")
             for e in getattr(at, kind)]
    sidebar = [_shown(e) for e in at.sidebar.caption]
    # the sidebar's model check names the address (a URL with "user:pass@" included: it is a URL, not malformed)...
    assert any("127.0.0.1" in text for text in sidebar)
    assert sum("127.0.0.1" in text for text in shown) > len(sidebar)  # ...and so does the error list
    assert not [text for text in shown if SECRET in text]  # only the field the URL was typed into holds it

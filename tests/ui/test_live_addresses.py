"""Addresses as a participant types them: a web page instead of a model API, Anthropic behind a proxy."""

import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from evallib.llm import ChatRequest, ProviderConfig, make_provider
from tests.fake_llm_server import NotAnApiServer
from ui.failures import failure_text

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def shown(markdown: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


@pytest.mark.parametrize("kind, path, french, english", [
    ("openai", "/v1", "{url} répond, mais pas comme une API compatible OpenAI. Le serveur répond : « <!DOCTYPE html> »",
     "{url} answers, but not as an OpenAI-compatible API. The server says: \"<!DOCTYPE html>\""),
    ("anthropic", "", "{url} répond, mais pas comme l'API Messages d'Anthropic. Le serveur répond : « <!DOCTYPE html> »",
     "{url} answers, but not as the Anthropic Messages API. The server says: \"<!DOCTYPE html>\""),
])
def test_a_web_page_at_the_base_url_reads_as_not_an_api_in_both_languages(kind, path, french, english):
    with NotAnApiServer() as site:
        url = site.url + path
        result = make_provider(ProviderConfig(kind=kind, base_url=url, api_key="k", max_retries=0)).chat(
            ChatRequest.single("m", "", "Bonjour"))
    for lang, expected in (("fr", french), ("en", english)):
        st.session_state["lang"] = lang
        assert shown(failure_text(result.error_details, result.error)) == expected.format(url=url)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_the_sidebar_offers_a_base_url_for_both_providers(kind):
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {"lang": "en", "llm_mode": "live", "llm_kind": kind, "_llm_secrets_read": True,
                        "llm_base_url": "http://127.0.0.1:9/v1"}.items():
        at.session_state[name] = value
    at.run()
    assert not at.exception
    [field] = [w for w in at.sidebar.text_input if w.label == "Base URL"]
    assert field.value == "http://127.0.0.1:9/v1"  # the address in use is the one shown


def test_a_plain_file_server_is_not_a_model_api_for_the_sidebar_and_for_the_command_line(tmp_path, capsys,
                                                                                       monkeypatch):
    from evallib.__main__ import main
    from tests.fake_llm_server import PlainFileServer
    with PlainFileServer(str(tmp_path)) as site:
        url = site.url + "/v1"
        at = AppTest.from_file(APP, default_timeout=60)
        for name, value in {"lang": "en", "llm_mode": "live", "_llm_secrets_read": True, "llm_base_url": url,
                            "llm_api_key": "k"}.items():
            at.session_state[name] = value
        at.run()
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        code = main(["record", "gnss", "--base-url", url, "--model", "m", "--runs", "1",
                     "--recordings-dir", str(tmp_path / "rec")])
    assert not at.exception
    sidebar = " ".join(shown(c.value) for c in at.sidebar.caption)
    # The model list (GET, an HTML 404) and the calls (POST, an HTML 501) get the same reading: no 404 here,
    # no "server error, run again" there.
    assert f"{url} answers, but not as an OpenAI-compatible API. The server says: \"Error response\"" in sidebar
    assert "404" not in sidebar.replace(url, "")  # the random port may hold the digits 404
    err = capsys.readouterr().err
    assert code == 2 and "not a model API: 12 of 12 calls" in err and "server error" not in err


def _live_sidebar(**state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {"lang": "en", "llm_mode": "live", "llm_kind": "openai", "_llm_secrets_read": True,
                        **state}.items():
        at.session_state[name] = value
    return at.run()


def test_an_empty_base_url_asks_for_one_instead_of_the_hosted_api():
    from ui.i18n import catalogue
    TEXTS = catalogue()

    at = _live_sidebar(llm_base_url="")
    assert not at.exception
    assert TEXTS["sidebar.no_base_url"]["en"] in [i.value for i in at.sidebar.info]
    assert not [w for w in at.sidebar.text_input if w.label == "API key"]  # nothing is asked of api.openai.com


@pytest.mark.parametrize("url", ["http://user:pass@127.0.0.1:9/v1", "https://token@127.0.0.1:9/v1"])
def test_a_base_url_with_userinfo_is_not_malformed(url):
    from ui.i18n import catalogue
    TEXTS = catalogue()

    at = _live_sidebar(llm_base_url=url)
    assert not at.exception
    assert TEXTS["sidebar.bad_url"]["en"] not in [e.value for e in at.sidebar.error]
    assert [w for w in at.sidebar.text_input if w.label == "API key"]

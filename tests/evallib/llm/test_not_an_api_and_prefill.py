"""Servers as they really behave: an address that answers HTTP but is no model API, Anthropic behind a
base URL written the OpenAI way, replies that ignore a prefill (real SDKs against local servers)."""

import json

import pytest

from evallib.llm import ChatRequest, ProviderConfig, make_provider
from evallib.llm.answers import join_prefill
from evallib.llm.errors import NotAnApiAnswer
from tests.evallib.llm.conftest import SECRET_KEY
from tests.fake_llm_server import NotAnApiServer

QUESTION = ChatRequest.single("fake-ok", "Sois bref.", "Quelle heure est-il ?")
JSON_PAGE = {"body": json.dumps({"status": "ok", "service": "intranet"}), "content_type": "application/json"}


def live(kind, base_url, **options):
    return make_provider(ProviderConfig(kind=kind, base_url=base_url, api_key=SECRET_KEY, max_retries=0, **options))


@pytest.mark.parametrize("page, received", [({}, "html"), (JSON_PAGE, "json")], ids=["html", "json"])
@pytest.mark.parametrize("kind, path, api", [("openai", "/v1", "an OpenAI-compatible API"),
                                             ("anthropic", "", "the Anthropic Messages API")])
def test_an_address_that_is_not_a_model_api_says_so(page, received, kind, path, api):
    with NotAnApiServer(**page) as site:
        result = live(kind, site.url + path).chat(QUESTION)
    details = result.error_details
    assert result.failed and result.error_kind == "malformed" and details["code"] == f"not_{kind}_api"
    assert details["received"] == received
    assert result.error.startswith(f"{site.url + path} answers, but not as {api}")
    assert "AttributeError" not in result.error and "TypeError" not in result.error
    assert details["server_text"] == (page.get("body") or "<!DOCTYPE html>")  # the body's first line


def test_the_model_list_of_a_web_page_is_a_not_an_api_failure_for_the_sidebar():
    with NotAnApiServer() as site:
        provider = live("openai", site.url + "/v1")
        with pytest.raises(NotAnApiAnswer) as raised:
            provider.list_models()
        failure = provider.failure(raised.value, list_models=lambda: None)
    assert (failure.kind, failure.code, failure.details["received"]) == ("malformed", "not_openai_api", "html")


def test_a_json_reply_without_its_message_is_not_an_api_but_an_empty_choice_list_stays_malformed(server):
    with NotAnApiServer(body=json.dumps({"choices": [{"index": 0}]}), content_type="application/json") as site:
        no_message = live("openai", site.url + "/v1").chat(QUESTION)
    with NotAnApiServer(body=json.dumps({"id": "x", "choices": []}), content_type="application/json") as site:
        no_choice = live("openai", site.url + "/v1").chat(QUESTION)
    assert no_message.error_details["code"] == "not_openai_api"
    assert no_choice.error_details["code"] == "malformed_no_choices"


@pytest.mark.parametrize("suffix", ["", "/v1", "/v1/"])
def test_anthropic_behind_a_base_url_ending_in_v1_never_asks_v1_v1(server, suffix):
    result = live("anthropic", server.url + suffix).chat(QUESTION)
    assert result.ok and result.text == "answer to: Quelle heure est-il ?"
    assert [r["path"] for r in server.requests] == ["/v1/messages"]


def test_a_reply_ended_by_end_turn_is_never_truncated(server):
    result = live("anthropic", server.anthropic_base_url).chat(QUESTION)
    assert (result.finish_reason, result.status) == ("end_turn", "ok")


def test_a_reply_that_does_not_continue_a_prefilled_brace_is_read_as_plain_text(server):
    # fake-ok answers "answer to: ..." whatever the prefill: that cannot be the inside of an object.
    braced = live("anthropic", server.anthropic_base_url).chat(
        ChatRequest.single("fake-ok", "", "Note ceci.", prefill="<grade>\n{"))
    worded = live("anthropic", server.anthropic_base_url).chat(
        ChatRequest.single("fake-ok", "", "Note ceci.", prefill="Réponse :"))
    assert braced.text == "answer to: Note ceci." and braced.status == "ok"
    assert worded.text == "Réponse :answer to: Note ceci."  # a text prefill is continued as before


@pytest.mark.parametrize("reply, text", [
    (' "total": 7}', '<grade>\n{ "total": 7}'),  # the continuation the prefill asked for
    ('\n  "total": 7', '<grade>\n{\n  "total": 7'),  # cut inside the object: still a continuation
    ('}', '<grade>\n{}'),
    ('<grade>\n{"total": 7}', '<grade>\n{"total": 7}'),  # the model wrote the prefill again
    ('<grade> {"total": 7}', '<grade> {"total": 7}'),  # again, other spacing
    ('{"total": 7}', '{"total": 7}'),  # an object of its own
    ('Je donne 7/10.', 'Je donne 7/10.'),  # prose
    ('', '<grade>\n{'),
])
def test_join_prefill(reply, text):
    assert join_prefill("<grade>\n{", reply) == text


def test_join_prefill_without_prefill_or_with_a_text_prefill():
    assert join_prefill("", " as is ") == " as is "
    assert join_prefill("Verdict : ", "oui") == "Verdict :oui"

"""Failures reach the page in the session's language: each code worded from the catalogue with its
values, the server's own text quoted verbatim (real SDKs against the fake server)."""

import re
import socket
from pathlib import Path

import httpx2
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from evallib.llm import ChatRequest, EmbeddingRequest, ProviderConfig, Recordings, make_provider
from evallib.llm.collect import answer
from evallib.llm.errors import MalformedAnswer, describe_exception
from evallib.llm.modes import FallbackProvider, ReplayProvider
from evallib.llm.recordings import LOCAL_DIR_VARIABLE
from evallib.llm.request import ChatResult
from evallib.packs.layout import BUILTIN_DIR
from evallib.persona.catalogue import build_requests, load_catalogue
from tests.fake_llm_server import FakeLLMServer
from ui.collection import _advice
from ui.failures import failure_text, recording_problem_text

APP = str(Path(__file__).resolve().parents[2] / "app.py")
KEY = "sk-room-key-4242"
QUESTION = ChatRequest.single("fake-ok", "Sois bref.", "Quelle heure est-il ?")


def shown(markdown: str) -> str:
    """What a reader sees of escaped Markdown: the backslashes before punctuation removed."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def in_language(lang: str, details: dict, message: str = "") -> str:
    st.session_state["lang"] = lang
    return shown(failure_text(details, message))


def provider(server, kind="openai", key=KEY, base_url=None, **options):
    base = base_url if base_url is not None else (server.openai_base_url if kind == "openai"
                                                  else server.anthropic_base_url)
    return make_provider(ProviderConfig(kind=kind, base_url=base, api_key=key, max_retries=0, **options))


def ask(model, **options):
    return ChatRequest.single(model, "Sois bref.", "Quelle heure est-il ?", **options)


def free_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


# (case, how the failure is obtained from the fake server, French text, English text); {url} is the
# endpoint asked, {server} the server's own short text, {models} the list of models it offers.
SERVER_CASES = [
    ("auth", lambda s: provider(s, key="sk-wrong").chat(ask("fake-ok")),
     "Le serveur {url} refuse la clé d'API (HTTP 401). Le serveur répond : « {server} »",
     "The server at {url} rejected the API key (HTTP 401). The server says: \"{server}\""),
    ("bad_request", lambda s: provider(s, key="sk-wrong").chat(ask("fake-ok")),
     "Le serveur {url} a refusé la requête (HTTP 400). Le serveur répond : « No connected db. »",
     "HTTP 400 from {url}: the server refused the request. The server says: \"No connected db.\""),
    ("model_not_found", lambda s: provider(s).chat(ask("no-such-model")),
     "Le modèle no-such-model est introuvable sur {url} (HTTP 400). Le serveur répond : « {server} »",
     "Model no-such-model not found at {url} (HTTP 400). The server says: \"{server}\""),
    ("timeout_status", lambda s: provider(s).chat(ask("fake-408")),
     "Le serveur {url} indique que le modèle n'a pas répondu à temps (HTTP 408). Le serveur répond : "
     "« litellm.Timeout: This is a mock timeout error »",
     "The server at {url} says the model did not answer in time (HTTP 408). The server says: "
     "\"litellm.Timeout: This is a mock timeout error\""),
    ("server", lambda s: provider(s).chat(ask("fake-500")),
     "Erreur du serveur {url} (HTTP 500). Le serveur répond : « {server} »",
     "Server error at {url} (HTTP 500). The server says: \"{server}\""),
    ("rate_limit", lambda s: provider(s).chat(ask("fake-429")),
     "Le serveur {url} limite encore le débit (HTTP 429) ; nouvelles tentatives faites : 0. "
     "Le serveur répond : « {server} »",
     "Still rate-limited by {url} (HTTP 429); retries made: 0. The server says: \"{server}\""),
    ("rate_limit_wait_refused", lambda s: make_provider(ProviderConfig(
        base_url=s.openai_base_url, api_key=KEY, max_retries=1)).chat(ask("fake-429")),
     "Le serveur {url} limite le débit (HTTP 429) et demande d'attendre 90 s, plus qu'une requête ne peut "
     "attendre. Le serveur répond : « {server} »",
     "Rate-limited by {url} (HTTP 429): the server asked to wait 90 s, longer than a request may wait. "
     "The server says: \"{server}\""),
    ("timeout", lambda s: provider(s, timeout_s=0.5).chat(ask("fake-hang")),
     "Pas de réponse de {url} en 0,5 s.", "No answer from {url} within 0.5 s."),
    ("malformed", lambda s: provider(s).chat(ask("fake-malformed")),
     "La réponse de {url} n'a pas pu être lue (JSONDecodeError).",
     "The answer from {url} could not be read (JSONDecodeError)."),
    ("not_found_v1", lambda s: provider(s, base_url=s.url).chat(ask("fake-ok")),
     "Rien n'a été trouvé à {url} (HTTP 404). Le serveur répond : « {server} »",
     "Nothing found at {url} (HTTP 404). The server says: \"{server}\""),
    ("prefill_refused", lambda s: provider(s, kind="anthropic").chat(ask("fake-prefill-400", prefill="{")),
     "Le modèle fake-prefill-400 refuse un début de réponse imposé (HTTP 400). Le serveur répond : « {server} »",
     "The model fake-prefill-400 refuses an assistant prefill (HTTP 400). The server says: \"{server}\""),
    ("prefill_configured", lambda s: provider(s, kind="anthropic", prefill=False).chat(ask("fake-ok", prefill="{")),
     "Le modèle fake-ok est réglé comme refusant un début de réponse imposé (prefill).",
     "The model fake-ok is set as refusing an assistant prefill."),
    ("embeddings_unsupported", lambda s: provider(s, kind="anthropic").embed(EmbeddingRequest("fake-embed", ("a",))),
     "Le fournisseur Anthropic n'offre pas de plongements (embeddings).",
     "The provider Anthropic offers no embeddings endpoint."),
]


@pytest.mark.parametrize("code, obtain, french, english", SERVER_CASES, ids=[c[0] for c in SERVER_CASES])
def test_each_failure_reads_in_french_and_in_english_with_its_values(code, obtain, french, english):
    with FakeLLMServer(api_key=KEY, proxy_errors=code in ("bad_request", "model_not_found"), hang_seconds=3,
                       retry_after=90) as server:
        result = obtain(server)
    details = result.error_details
    assert result.failed and details["code"] == code
    url = details.get("url", "")
    values = {"url": url, "server": details.get("server_text", "")}
    assert in_language("fr", details, result.error) == french.format(**values)
    assert in_language("en", details, result.error) == english.format(**values)
    assert result.error  # the English message stays for scripts and the command line


def test_a_missing_recording_names_the_request_in_both_languages(tmp_path):
    result = ReplayProvider(Recordings(tmp_path)).chat(QUESTION)
    assert in_language("fr", result.error_details) == \
        "Aucun enregistrement pour cette requête (fake-ok: Quelle heure est-il ?)."
    assert in_language("en", result.error_details) == "No recording for this request (fake-ok: Quelle heure est-il ?)."


def test_no_server_at_the_url_reads_in_both_languages():
    url = free_port_url()
    with FakeLLMServer(api_key=KEY) as server:
        result = provider(server, base_url=url).chat(QUESTION)
    assert result.error_details == {"code": "connection_refused", "url": url, "provider": "openai"}
    assert in_language("fr", result.error_details) == \
        f"Aucun serveur ne répond à {url} : la connexion est refusée (rien n'écoute à cette adresse)."
    assert in_language("en", result.error_details) == \
        f"No server answered at {url}: the connection was refused (nothing listens there)."


class Raising:
    def chat(self, request):
        raise RuntimeError("boom\nTraceback...")


def test_an_unforeseen_exception_is_named_and_its_text_quoted_as_technical():
    result = answer(Raising(), QUESTION)
    assert result.error_details == {"code": "unexpected", "exception": "RuntimeError", "technical_text": "boom"}
    assert in_language("fr", result.error_details) == \
        "Erreur inattendue (RuntimeError). Texte technique (en anglais) : « boom »"
    assert in_language("en", result.error_details) == "Unexpected error (RuntimeError). Technical text: \"boom\""


def test_a_wrong_vector_count_and_an_unforeseen_status_read_in_both_languages():
    import openai
    config = ProviderConfig(base_url="http://gateway/v1")
    count = describe_exception(MalformedAnswer("vector_count", "1 vectors for 3 texts", vectors=1, texts=3),
                               config, lambda: None).result_details()
    assert in_language("fr", count) == \
        ("La réponse de http://gateway/v1 n'a pas pu être lue : le nombre de vecteurs (1) ne correspond pas au nombre "
         "de textes envoyés (3).")
    assert in_language("en", count) == ("The answer from http://gateway/v1 could not be read: the "
                                      "number of vectors (1) does not match the number of texts sent (3).")
    response = httpx2.Response(409, request=httpx2.Request("POST", "http://gateway/v1/chat/completions"))
    conflict = describe_exception(openai.ConflictError("Conflict", response=response,
                                                       body={"error": {"message": "busy **now**"}}),
                                  config, lambda: None).result_details()
    assert in_language("fr", conflict) == \
        "Le serveur http://gateway/v1 répond HTTP 409, un cas imprévu. Le serveur répond : « busy **now** »"
    assert in_language("en", conflict) == \
        "HTTP 409 from http://gateway/v1, an unforeseen case. The server says: \"busy **now**\""
    st.session_state["lang"] = "fr"
    assert "\\*\\*now\\*\\*" in failure_text(conflict)  # the server's text is shown as typed, not as bold


def test_the_default_endpoint_is_named_and_numbers_follow_the_language():
    import openai
    exc = openai.APITimeoutError(request=httpx2.Request("POST", "https://api.openai.com/v1/chat/completions"))
    details = describe_exception(exc, ProviderConfig(timeout_s=12.5), lambda: None).result_details()
    assert in_language("fr", details) == "Pas de réponse de https://api.openai.com/v1 en 12,5 s."
    assert in_language("en", details) == "No answer from https://api.openai.com/v1 within 12.5 s."


def test_a_result_from_before_error_details_loads_and_reads_in_the_language():
    old = {"request_key": "k", "status": "error", "error_kind": "server", "error": "Server error at x (HTTP 500)"}
    result = ChatResult.from_dict(old)
    assert result.error_details == {}
    assert in_language("fr", result.error_details, result.error) == (
        "Échec obtenu avant que les erreurs soient décrites en français. "
        "Texte technique (en anglais) : « Server error at x (HTTP 500) »")


def test_the_key_is_scrubbed_from_the_values_too():
    import openai
    live = make_provider(ProviderConfig(base_url="http://gateway/v1", api_key=KEY))
    response = httpx2.Response(400, request=httpx2.Request("POST", "http://gateway/v1/chat/completions"))
    exc = openai.BadRequestError("bad", response=response, body={"error": {"message": f"key {KEY} unknown"}})
    failure = live.failure(exc, "m", list_models=lambda: None)
    assert failure.details["server_text"] == "key *** unknown"
    assert KEY not in repr(failure)


def test_a_fallback_names_the_live_failure_in_the_language(tmp_path):
    store = Recordings(tmp_path)
    with FakeLLMServer(api_key=KEY) as server:
        ok = provider(server).chat(QUESTION)
        store.add("demo", QUESTION, ok, {"source": "live", "model": "fake-ok", "date": "2026-11-30"})
        live = provider(server)
    result = FallbackProvider(live, store).chat(QUESTION)  # the server is gone: the room's Wi-Fi died
    assert result.ok and result.fallback_error and result.error_details["code"] == "connection_refused"
    assert in_language("fr", result.error_details).startswith("Aucun serveur ne répond")


def _page_after_a_proxy_refused_the_key(lang):
    with FakeLLMServer(api_key=KEY, proxy_errors=True) as server:
        live = provider(server, key="sk-wrong-key")
        # the session's language opens its built-in pack (docs/packs.md): the answers of that pack's grid
        grid = build_requests(load_catalogue(BUILTIN_DIR / lang / "personas.json"), "fake-ok", disable_reasoning=True)
        answers = {(cell.request.key(), live.config.fingerprint()): live.chat(cell.request) for cell in grid}
        at = AppTest.from_file(APP, default_timeout=60)
        for name, value in {"lang": lang, "llm_mode": "live", "llm_base_url": server.openai_base_url,
                            "llm_api_key": "sk-wrong-key", "_llm_secrets_read": True, "llm_model": "fake-ok",
                            "answers": answers}.items():
            at.session_state[name] = value
        at.run()
        at.switch_page("pages/persona.py").run()
        url = server.openai_base_url
    assert not at.exception
    return at, url


def test_the_french_page_words_a_refused_request_in_french_and_quotes_the_server():
    at, url = _page_after_a_proxy_refused_the_key("fr")
    captions = [shown(c.value) for c in at.caption]
    page = " ".join(captions + [shown(m.value) for m in at.markdown])
    assert f"Le serveur {url} a refusé la requête (HTTP 400). Le serveur répond : « No connected db. »" in captions
    assert "HTTP 400 from" not in page and "the server says" not in page.lower()
    assert "la liste des modèles n'a pas pu être lue (requête refusée). Le serveur " in page  # the sidebar check
    assert "La vérification de la clé et du modèle dans la barre latérale a échoué aussi (requête refusée)" \
        in page
    assert "sk-wrong-key" not in page


def test_the_english_page_words_it_in_english():
    at, url = _page_after_a_proxy_refused_the_key("en")
    captions = [shown(c.value) for c in at.caption]
    assert f"HTTP 400 from {url}: the server refused the request. The server says: \"No connected db.\"" in captions
    assert not any("Le serveur" in c for c in captions)


def _damaged_recordings(folder):
    store = Recordings(folder)
    store.add("demo", QUESTION, ChatResult(request_key=QUESTION.key(), text="answer"), {"source": "authored"})
    line = (folder / "demo.jsonl").read_text(encoding="utf-8")
    (folder / "demo.jsonl").write_text(line.replace('"authored"', '"**guessed**"') + "{broken\n"
                                       + line.replace('"request_key"', '"request_kee"'), encoding="utf-8")
    return Recordings(folder)


def test_skipped_recording_lines_read_in_both_languages(tmp_path):
    problems = _damaged_recordings(tmp_path).problems
    assert [(p.line, p.code) for p in problems] == [(1, "bad_provenance"), (2, "not_json"), (3, "bad_value")]
    st.session_state["lang"] = "fr"
    french = [shown(recording_problem_text(p)) for p in problems]
    assert french[:2] == [
        "demo.jsonl, ligne 1 : la provenance « **guessed** » est inconnue (attendu : live ou authored).",
        "demo.jsonl, ligne 2 : ce n'est pas du JSON valide (colonne 2)."]
    assert french[2].startswith("demo.jsonl, ligne 3 : une valeur est illisible (TypeError). Texte technique (en "
                                "anglais) : « ")
    assert "\\*\\*guessed\\*\\*" in recording_problem_text(problems[0])  # shown as typed, not bold
    st.session_state["lang"] = "en"
    assert shown(recording_problem_text(problems[1])) == "demo.jsonl, line 2: this is not valid JSON (column 2)."


def test_the_home_page_words_a_skipped_recording_line_in_french(tmp_path, monkeypatch):
    _damaged_recordings(tmp_path)
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    warning = next(shown(w.value) for w in at.warning if "ignorées" in w.value)
    assert warning.endswith("la première : demo.jsonl, ligne 1 : la provenance « **guessed** » est inconnue "
                            "(attendu : live ou authored).")
    assert "skipped" not in warning and "ValueError" not in warning


@pytest.mark.parametrize("lang, expected", [
    ("fr", "Les serveurs compatibles OpenAI sont en général sous /v1 : essayez {url}/v1."),
    ("en", "OpenAI-compatible servers usually live under /v1: try {url}/v1."),
])
def test_a_url_without_v1_is_advised_in_the_language(lang, expected):
    with FakeLLMServer(api_key=KEY) as server:
        result = provider(server, base_url=server.url).chat(QUESTION)
        url = server.url
    st.session_state["lang"] = lang
    assert shown(_advice(result)) == expected.format(url=url)

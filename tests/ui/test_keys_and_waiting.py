"""Keys scope the shared cache; errors, model choice and waiting as a participant sees them (fake server)."""

import hashlib
import uuid
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from evallib.llm import ChatRequest, Progress, ProviderConfig, make_provider
from evallib.packs.layout import BUILTIN_DIR
from evallib.persona.catalogue import build_requests, load_catalogue
from tests.fake_llm_server import FakeLLMServer
from ui.collection import LONG_WAIT_S, progress_text
from ui.models import CachedProvider, key_scope

APP = str(Path(__file__).resolve().parents[2] / "app.py")
KEY = "sk-room-key-4242"


def session(server, key):
    """What one browser session builds: its own live provider, wrapped by the shared cache."""
    return CachedProvider(make_provider(ProviderConfig(base_url=server.openai_base_url, api_key=key,
                                                       max_retries=0, timeout_s=5)))


def test_a_wrong_key_is_asked_afresh_and_sees_its_own_error_while_the_same_key_shares():
    request = ChatRequest.single("fake-ok", "Sois bref.", f"question {uuid.uuid4()}")
    with FakeLLMServer(api_key=KEY) as server:
        first = session(server, KEY).chat(request)
        wrong = session(server, "sk-wrong-key").chat(request)
        again = session(server, KEY).chat(request)
        calls = len(server.requests)
    assert first.source == "live" and first.ok
    assert wrong.failed and wrong.error_kind == "auth"
    assert again.source == "cache" and again.text == first.text
    assert calls == 2  # the right key, the wrong key; the second session with the right key is a cache hit


def test_the_cache_scope_is_a_keyed_hash_never_the_key():
    scope = key_scope(KEY)
    assert scope == key_scope(KEY) != key_scope(KEY + "x")
    assert KEY not in scope and scope != hashlib.sha256(KEY.encode()).hexdigest()


@pytest.mark.parametrize("lang, expected", [
    ("fr", "3/36 réponses · 21,0 s · erreurs : 0 · nouvelles tentatives : 5 · le serveur limite le débit : "
           "une nouvelle tentative attend encore 13 s"),
    ("en", "3/36 answers · 21.0 s · errors: 0 · retries: 5 · the server is rate-limiting: a retry is "
           "waiting 13 s more"),
])
def test_progress_text_names_retries_and_a_long_wait(lang, expected):
    st.session_state["lang"] = lang
    assert progress_text(Progress(3, 36, 0, 5, 12.4, 21.0, None)) == expected
    short = progress_text(Progress(3, 36, 0, 5, LONG_WAIT_S - 0.5, 21.0, None))
    assert short == expected.split(" · ")[0] + " · " + " · ".join(expected.split(" · ")[1:4])


def _live_app(server, key, page="pages/persona.py", **state):
    at = AppTest.from_file(APP, default_timeout=60)
    values = {"lang": "en", "llm_mode": "live", "llm_base_url": server.openai_base_url, "llm_api_key": key,
              "_llm_secrets_read": True, **state}
    for name, value in values.items():
        at.session_state[name] = value
    at.run()
    at.switch_page(page).run()
    return at


def test_the_model_dropdown_selects_nothing_and_the_page_asks_for_a_model():
    with FakeLLMServer(api_key=KEY) as server:
        at = _live_app(server, KEY)
    assert not at.exception
    assert at.session_state["llm_model"] is None
    assert any("Choose a model in the sidebar" in w.value for w in at.warning)
    assert not [b for b in at.button if b.key == "persona_grid_collect"]


def test_a_key_refused_by_a_proxy_shows_the_server_message_then_the_causes_and_the_sidebar_check():
    with FakeLLMServer(api_key=KEY, proxy_errors=True) as server:
        provider = make_provider(ProviderConfig(base_url=server.openai_base_url, api_key="sk-wrong-key",
                                                max_retries=0))
        # an English session opens the English pack (docs/packs.md): its grid's answers
        grid = build_requests(load_catalogue(BUILTIN_DIR / "en" / "personas.json"), "fake-ok", disable_reasoning=True)
        fingerprint = provider.config.fingerprint()
        answers = {(cell.request.key(), fingerprint): provider.chat(cell.request) for cell in grid}  # as collected live
        at = _live_app(server, "sk-wrong-key", llm_model="fake-ok", answers=answers)
    assert not at.exception
    captions = [c.value for c in at.caption]
    texts = [m.value for m in at.markdown]
    server_message = next(i for i, c in enumerate(captions) if "No connected db" in c)
    advice = next(m for m in texts if m.startswith("The server refused the request"))
    assert "HTTP 400" in captions[server_message]
    assert advice.index("key is refused by a proxy") < advice.index("model does not exist") \
        < advice.index("refuses a parameter")
    assert "key and model check failed too" in advice and "No connected db" in advice
    assert "sk-wrong-key" not in " ".join(captions + texts)

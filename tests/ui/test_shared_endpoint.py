"""The app's live calls go through one scheduler per endpoint, and the progress bar says when they wait."""

import pytest
import streamlit as st

from evallib.llm import FallbackProvider, Progress, ProviderConfig, ScheduledProvider
from evallib.llm.scheduler import LIMIT_VARIABLE
from ui.collection import progress_text
from ui.i18n import t
from ui.models import CachedProvider, page_provider, session_lane
from ui.settings import Settings, config_problem

KEY = "sk-room-key-4242"


def settings(base_url="http://localhost:11434/v1", use_cache=False):
    return Settings(mode="live", config=ProviderConfig(base_url=base_url, api_key=KEY), model="fake-ok",
                    concurrency=8, use_cache=use_cache)


def new_session():
    st.session_state.pop("_llm_session", None)
    st.session_state.pop("_llm_live", None)


def test_sessions_share_the_scheduler_of_their_endpoint_each_with_its_own_queue():
    new_session()
    first = session_lane(settings())
    again = session_lane(settings())
    new_session()
    other_session = session_lane(settings())
    other_endpoint = session_lane(settings("http://localhost:8000/v1"))
    assert first.scheduler is again.scheduler is other_session.scheduler is not other_endpoint.scheduler
    assert first.session == again.session != other_session.session
    assert first is not again  # one lane per collection: stopping one drops only its own requests


@pytest.mark.parametrize("use_cache", [False, True])
def test_live_calls_are_scheduled_under_the_cache(use_cache):
    new_session()
    lane = session_lane(settings())
    provider = page_provider("persona", settings(use_cache=use_cache), lane)
    assert isinstance(provider, FallbackProvider)
    live = provider.live.live if use_cache else provider.live
    assert isinstance(provider.live, CachedProvider) == use_cache  # a cached answer never waits in the queue
    assert isinstance(live, ScheduledProvider) and live.lane is lane


@pytest.mark.parametrize("lang, expected", [
    ("fr", "3/36 réponses · 2,0 s · erreurs : 0 · nouvelles tentatives : 0 · 7 requêtes attendent leur tour : "
           "le serveur de modèle répond d'abord à d'autres participants"),
    ("en", "3/36 answers · 2.0 s · errors: 0 · retries: 0 · 7 requests waiting their turn: the model "
           "server is answering other participants first"),
])
def test_the_progress_bar_says_when_requests_wait_behind_other_participants(lang, expected):
    st.session_state["lang"] = lang
    assert progress_text(Progress(3, 36, 0, 0, 0.0, 2.0, None, queued_behind_others=7)) == expected
    assert progress_text(Progress(3, 36, 0, 0, 0.0, 2.0, None)) == expected.split(" · ")[0] + " · " + \
        " · ".join(expected.split(" · ")[1:4])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_bad_endpoint_limit_is_named_on_the_page_instead_of_collecting(monkeypatch, lang):
    st.session_state["lang"] = lang
    monkeypatch.setenv(LIMIT_VARIABLE, "eight")
    problem = config_problem(settings())
    assert problem == "collect.bad_endpoint_limit" and LIMIT_VARIABLE in t(problem)
    monkeypatch.setenv(LIMIT_VARIABLE, "4")
    assert config_problem(settings()) == ""

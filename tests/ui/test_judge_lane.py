"""The judge page's live run passes its lane to the provider and to the chains (as `ui.collection` does for
the other pages): its bar says when calls wait behind other participants', and a click drops them."""

import threading
import time
import uuid

import pytest
import streamlit as st

from evallib.llm import ChatRequest, ProviderConfig
from evallib.llm.scheduler import LIMIT_VARIABLE
from ui.judge import run as judge_run
from ui.models import _endpoint_scheduler
from ui.settings import Settings

pytestmark = pytest.mark.timeout(30)


class Clicked(Exception):
    """What Streamlit raises from a progress bar's update when the participant clicks during the run."""


class Bar:
    """Stands for `st.progress`: keeps every text, and stops the run once calls are said to wait."""

    def __init__(self):
        self.texts = []

    def progress(self, value, text=""):
        self.texts.append(text)
        if "attendent leur tour" in text:
            raise Clicked

    def empty(self):
        pass


def test_a_live_judge_run_says_its_calls_wait_behind_other_participants_and_a_click_drops_them(monkeypatch):
    monkeypatch.setenv(LIMIT_VARIABLE, "1")
    st.session_state["lang"] = "fr"
    st.session_state.pop("_llm_session", None)
    # A base URL of its own: a new scheduler (one slot), nothing listening (a call sent would fail at once).
    settings = Settings(mode="live", config=ProviderConfig(base_url=f"http://127.0.0.1:9/{uuid.uuid4().hex}/v1",
                                                           api_key="sk-test"),
                        model="fake-ok", concurrency=4, use_cache=False)
    scheduler = _endpoint_scheduler(settings.config.fingerprint())
    release = threading.Event()
    holder = threading.Thread(target=scheduler.lane("instructor").run, args=(lambda: release.wait(4),), daemon=True)
    holder.start()  # another participant's call holds the endpoint for up to 4 s
    while scheduler.in_flight != 1:
        time.sleep(0.005)
    bar = Bar()
    monkeypatch.setattr(st, "progress", lambda *args, **kwargs: bar)
    requests = [ChatRequest.single("fake-ok", "Sois bref.", f"question {i}") for i in range(3)]
    missing = [((f"slot {i}",), request) for i, request in enumerate(requests)]
    with pytest.raises(Clicked):
        judge_run._run(missing, lambda request, provider: provider.chat(request), settings, lambda _: False)
    assert "3 requêtes attendent leur tour" in bar.texts[-1]
    assert scheduler.waiting == 0  # the run's queued calls left the endpoint's queue with the click
    release.set()
    holder.join(5)

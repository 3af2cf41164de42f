"""The collection widget keys answers like the cache: request key + endpoint fingerprint."""

from streamlit.testing.v1 import AppTest

from tests.fake_llm_server import FakeLLMServer

KEY = "sk-collection-test-77e1"


def _panel_script():
    import streamlit as st

    from evallib.llm import ChatRequest
    from ui.collection import collection_panel

    requests = [ChatRequest.single("fake-ok", "Be brief.", f"question {i}") for i in range(4)]
    results = collection_panel(requests, set_name="panel_test", labels=[f"q{i}" for i in range(4)], key="t")
    st.text("shown: " + " | ".join("-" if r is None else r.text for r in results))


def _shown(at: AppTest) -> str:
    return next(t.value for t in at.text if t.value.startswith("shown:"))


def test_answers_of_one_server_are_not_shown_as_another_servers_for_the_same_model():
    with FakeLLMServer(api_key=KEY) as first, FakeLLMServer(api_key=KEY) as second:
        at = AppTest.from_function(_panel_script, default_timeout=60)
        for name, value in dict(llm_mode="live", llm_base_url=first.openai_base_url, llm_model="fake-ok",
                                llm_api_key=KEY, llm_use_cache=False).items():
            at.session_state[name] = value
        at.run()
        assert _shown(at) == "shown: - | - | - | -"
        at.button(key="t_collect").click().run()
        assert _shown(at).count("answer to: question") == 4 and len(first.requests) == 4
        at.session_state["llm_base_url"] = second.openai_base_url
        at.run()
        assert _shown(at) == "shown: - | - | - | -", "the first server's answers are shown for the second"
        assert at.button(key="t_collect").label.endswith("4 réponses manquantes")
        at.button(key="t_collect").click().run()
        assert len(second.requests) == 4
        at.session_state["llm_base_url"] = first.openai_base_url
        at.run()
        assert _shown(at).count("answer to: question") == 4 and len(first.requests) == 4  # still kept

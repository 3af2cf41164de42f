"""Settings rebuilt from a recorded source replay the very requests that were recorded."""

from evallib.judging.authored import authored_settings
from evallib.judging.requests import ModelSettings, generation_request, judge_request, settings_from_options
from evallib.llm.recordings import request_options


def test_settings_from_a_recordings_options_rebuild_the_recorded_requests(cases, rubric):
    for original in (*authored_settings(), ModelSettings("m", "openai", json_mode=True, temperature=None,
                                                         max_tokens=512),
                     ModelSettings("c", "anthropic"), ModelSettings("c", "anthropic", prefill=False)):
        sent = judge_request(cases[0], "x = 1", rubric, original)
        rebuilt = settings_from_options(original.model, original.kind, request_options(sent))
        assert judge_request(cases[0], "x = 1", rubric, rebuilt).key() == sent.key()
        assert generation_request(cases[0], "{context}{type}{input}", rebuilt).key() == \
            generation_request(cases[0], "{context}{type}{input}", original).key()


def test_a_recording_without_provider_kind_is_openai_compatible():
    assert settings_from_options("m", "", {"temperature": 0.0, "max_tokens": 1024}).kind == "openai"

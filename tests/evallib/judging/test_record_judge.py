"""`python -m evallib record judge`: the page's default set recorded live, then replayable offline."""

import pytest

from evallib.__main__ import main
from evallib.judging.data import load_cases
from evallib.judging.pipeline import JudgeConfig, run_pipeline
from evallib.judging.requests import ModelSettings, generation_request, settings_from_options
from evallib.judging.rubric import default_rubric
from evallib.judging.templates import default_templates
from evallib.llm import Recordings, provider_for_mode

pytestmark = pytest.mark.usefixtures("live_env")


def test_record_judge_records_every_call_and_the_recording_replays_offline(server, tmp_path, capsys):
    code = main(["record", "judge", "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--judge-model", "fake-ok", "--recordings-dir", str(tmp_path), "--concurrency", "4"])
    out = capsys.readouterr().out
    assert code == 0 and ", failed 0, " in out
    answered = int(out.split()[1].rstrip(","))
    assert f"recorded {answered} " in out and answered >= 2 * 2 * 12  # generation + grading, 12 cases, A and B
    store = Recordings(tmp_path)
    cases = load_cases()
    [source] = store.sources([generation_request(c, default_templates()["A"], ModelSettings("any")) for c in cases])
    assert (source.model, source.provider, source.origin, source.count) == ("fake-ok", "openai", "live", 12)
    settings = settings_from_options(source.model, source.provider, source.options)
    config = JudgeConfig(settings, settings, default_rubric(), default_templates()["B"], "B")
    replayed = run_pipeline(cases, config, provider_for_mode("offline", store))
    assert not [call for r in replayed for call in r.calls if call.error_kind == "missing_recording"]


def test_record_judge_exits_2_when_calls_fail(server, tmp_path, capsys):
    code = main(["record", "judge", "--base-url", server.openai_base_url, "--model", "fake-500",
                 "--recordings-dir", str(tmp_path)])
    assert code == 2 and "answered 0, failed 24, recorded 0" in capsys.readouterr().out  # 12 cases, A and B


def test_record_judge_without_a_model_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["record", "judge", "--recordings-dir", str(tmp_path)])
    assert exit_.value.code == 2


def test_record_judge_asks_the_judge_in_the_pack_s_wording(server, tmp_path, capsys):
    """``record judge --pack packs/en``: the English judge's requests are recorded, so they replay offline
    with the English wording and not with the French one."""
    import json

    from evallib.judging.rubric import parse_rubric
    from evallib.judging.wording import FRENCH_WORDING, judge_wording
    from evallib.packs.loader import builtin_packs

    pack = builtin_packs()["en"]
    assert main(["record", "judge", "--pack", str(pack), "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--recordings-dir", str(tmp_path), "--concurrency", "4"]) == 0
    capsys.readouterr()
    prompts = json.loads((pack / "judging_prompts.json").read_text(encoding="utf-8"))
    cases, rubric = load_cases(pack / "judging_cases.json"), parse_rubric(prompts["rubric"])
    settings = ModelSettings("fake-ok", "openai")
    missing = {}
    for name, wording in (("en", judge_wording(prompts)), ("fr", FRENCH_WORDING)):
        config = JudgeConfig(settings, settings, rubric, prompts["templates"]["A"], "A", wording=wording)
        replayed = run_pipeline(cases, config, provider_for_mode("offline", Recordings(tmp_path)))
        missing[name] = sum(call.error_kind == "missing_recording" for r in replayed for call in r.calls)
    assert missing["en"] == 0 and missing["fr"] > 0

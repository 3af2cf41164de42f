"""What the command lines print is words a reader can act on (docs/README.md#modes): gate readings
as sentences (never a raw code such as ``gate_unscored_over_limit``), no "0/0 cases pass" nor a Python
dict when every call failed, a top-level usage that lists every command, and a ``record --help`` that
speaks of no gate. Real SDKs against the fake server."""

import re

import pytest

from evallib.__main__ import EVALUATIONS, main
from evallib.runs.judge import cli as judge_cli
from evallib.readings import Reading
from evallib.runs.trigger import cli as trigger_cli
from tests.test_browser import _free_port

pytestmark = pytest.mark.usefixtures("live_env")
RAW_CODE = re.compile(r"\b(gate|failure)_[a-z_]+|all_passed|\{'")


@pytest.mark.parametrize("code, values, said", [
    ("gate_no_decisions", {}, "no decision to measure"),
    ("gate_all_errored", {"total": 76}, "all 76 decisions are errors: none to measure"),
    ("gate_unusable_over_limit", {"unusable_rate": 0.5, "max_unusable_rate": 0.1},
     "unusable answers 50.0 % of the decisions, above the limit of 10.0 %"),
    ("gate_below_min", {}, "accuracy below the minimum"),
    ("gate_pass", {}, "accuracy at or above the minimum"),
])
def test_every_trigger_gate_reading_has_words(code, values, said):
    assert trigger_cli.gate_words(Reading(code, values)) == said


@pytest.mark.parametrize("code, values, said", [
    ("gate_no_cases", {}, "no case to grade"),
    ("gate_all_unscored", {}, "none of the 12 grades is scored: nothing to measure"),
    ("gate_unscored_over_limit", {"unscored_share": 2 / 12, "max_unscored_share": 0.0},
     "unscored grades 2 of 12 (17 %), above the limit of 0 %"),
    ("gate_below_min", {"mean": 5.25, "min_mean": 6}, "mean 5.25 below the minimum 6"),
    ("gate_pass", {"mean": 7.5, "min_mean": 6}, "mean 7.50 at or above the minimum 6"),
])
def test_every_judge_gate_reading_has_words(code, values, said):
    assert judge_cli.gate_words(Reading(code, {"total": 12, "n": 10, **values})) == said


def test_the_trigger_gate_line_is_words_and_counts_answers_cut_at_the_token_limit(server, tmp_path, capsys):
    code = main(["trigger", "--model", "fake-length-empty", "--base-url", server.openai_base_url,
                 "--retries", "0", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "76 decisions (0 scored, 0 empty, 76 errors, 76 of them cut at the token limit), 0 of 38 queries " \
           "measured" in out
    assert "gate: FAIL (all 76 decisions are errors: none to measure; accuracy undefined" in out
    assert not RAW_CODE.search(out), out


def test_the_judge_gate_line_is_words(server, tmp_path, capsys):
    code = main(["judge", "--generator", "fake-fixed", "--judge", "fake-fixed", "--base-url", server.openai_base_url,
                 "--retries", "0", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "gate: FAIL (none of the 12 grades is scored: nothing to measure); report:" in out
    assert not RAW_CODE.search(out), out


def test_gnss_with_every_call_failed_prints_a_sentence_not_zero_of_zero_nor_a_dict(tmp_path, capsys):
    code = main(["gnss", "--live", "m", "--runs", "1", "--base-url", f"http://127.0.0.1:{_free_port()}/v1"])
    captured = capsys.readouterr()
    assert code == 2
    assert "agent m (1 runs per case): no answer to grade, so no case passes or fails" in captured.out
    assert "0/0" not in captured.out and "{" not in captured.out and not RAW_CODE.search(captured.out)
    assert "no server: 12 of 12 calls" in captured.err


def test_gnss_prints_its_failure_groups_in_words(capsys):
    assert main(["gnss", "--agents", "v1"]) in (0, 1)
    out = capsys.readouterr().out
    assert re.search(r"^  (offset not modelled|offset missed|short record|other failure): C\d\d", out, re.MULTILINE)
    assert not RAW_CODE.search(out), out


def test_the_top_level_usage_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    assert exit_.value.code == 0
    listed = set(re.search(r"\{([a-z,]+)\}", usage).group(1).split(","))
    assert listed == set(EVALUATIONS) | {"record", "authored"}


def test_record_help_speaks_of_no_gate(capsys):
    with pytest.raises(SystemExit):
        main(["record", "--help"])
    said = capsys.readouterr().out
    assert "gate" not in said.lower()
    assert "--max-failed-share" in said and "130" in said

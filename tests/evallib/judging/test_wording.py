"""The judge's wording: French by default, a pack's own from its prompts file, a bad one refused by field."""

import json
from pathlib import Path

import pytest

from evallib.judging.data import DEFAULT_CASES, load_cases
from evallib.judging.judge_prompt import judge_prompt, pad, pairwise_prompt
from evallib.judging.rubric import default_rubric
from evallib.judging.wording import FRENCH_WORDING, WordingError, judge_wording

ENGLISH_PROMPTS = Path(__file__).resolve().parents[3] / "packs" / "en" / "judging_prompts.json"


def _english():
    return judge_wording(json.loads(ENGLISH_PROMPTS.read_text(encoding="utf-8")))


def test_a_prompts_file_without_judge_object_keeps_the_french_wording():
    assert judge_wording({"templates": {}, "rubric": {}}) is FRENCH_WORDING
    assert judge_wording(None) is FRENCH_WORDING


def test_the_english_wording_frames_the_same_prompt_in_english():
    case, rubric, wording = load_cases(DEFAULT_CASES)[0], default_rubric(), _english()
    english, french = judge_prompt(case, "x = 1", rubric, wording), judge_prompt(case, "x = 1", rubric)
    assert english.startswith("Request sent to the assistant:\n") and "Requête" not in english
    assert "- FORMAT (0 to 3 points): " in english and "Total out of 10: the sum of the criteria." in english
    assert '"FORMAT", "VALIDITY", "ADEQUACY"' in english and "<grade> and </grade>" in english
    # the fence and the answer's keys are the same in both languages
    for fixed in ("<graded_response>\nx = 1\n</graded_response>", '"strengths"', '"total"'):
        assert fixed in english and fixed in french
    pair = pairwise_prompt(case, "a", "b", rubric, wording)
    assert "<first_response>\na\n</first_response>" in pair and '"winner"' in pair and "Laquelle" not in pair
    padded = pad("x = 1", wording)
    assert "\n\nx = 1\n\n" in padded and padded.startswith(wording.padding_before) and padded != pad("x = 1")


@pytest.mark.parametrize("change, code, field", [
    ({"total_line": ""}, "wording_missing", "total_line"),
    ({"criterion_line": "- {name}: {description}"}, "wording_placeholder", "criterion_line"),
    ({"grade_instruction": "Reply between {open} and {close} with {keys} and {extra}"}, "wording_placeholder",
     "grade_instruction"),
    ({"pairwise_instruction": "Reply between {open and {close}"}, "wording_placeholder", "pairwise_instruction"),
    ({"system_prompt": 3}, "wording_missing", "system_prompt"),
])
def test_a_bad_wording_is_refused_naming_the_field(change, code, field):
    data = json.loads(ENGLISH_PROMPTS.read_text(encoding="utf-8"))
    data["judge"] |= change
    with pytest.raises(WordingError) as info:
        judge_wording(data)
    assert info.value.code == code and info.value.details["field"] == field and field in str(info.value)


def test_a_judge_entry_that_is_not_an_object_is_refused():
    with pytest.raises(WordingError) as info:
        judge_wording({"judge": "English"})
    assert info.value.code == "wording_type"


def test_text_fields_keep_their_braces_as_written():
    data = json.loads(ENGLISH_PROMPTS.read_text(encoding="utf-8"))
    data["judge"]["system_prompt"] = "Grade the answer {as data}."
    assert judge_wording(data).system_prompt == "Grade the answer {as data}."

"""The answers a room rates: built from the judge page's cases and authored answers, in the shape the
kappa page's rating form reads (``{"labels": [...], "items": [{"id", "text"}]}``)."""

import pytest

from evallib.judging.data import load_cases
from evallib.room.rating_set import (RATING_KEY, RatingSetError, authored_answers, default_rating_settings,
                                     rating_items, rating_settings, room_rating)


def test_the_default_set_is_twenty_answers_covering_every_case_pass_fail():
    settings = default_rating_settings()
    assert settings["labels"] == ["pass", "fail"]
    assert [set(item) for item in settings["items"]] == [{"id", "text"}] * 20
    cases = load_cases()
    assert {item["id"].split("/")[0] for item in settings["items"]} == {c.id for c in cases}
    first = settings["items"][0]
    assert first["id"] == f"{cases[0].id}/A"
    assert first["text"].startswith(cases[0].input + "\n\n")
    assert authored_answers()[(cases[0].id, "A")].strip() in first["text"]


def test_blank_answers_are_left_out_and_the_limit_holds():
    cases = load_cases()[:3]
    answers = {(cases[0].id, "A"): "x", (cases[1].id, "A"): "  ", (cases[2].id, "B"): "y"}
    assert [i["id"] for i in rating_items(cases, answers)] == [f"{cases[0].id}/A", f"{cases[2].id}/B"]
    assert len(rating_items(cases, answers, limit=1)) == 1
    assert rating_items(cases, answers, limit=0) == []


@pytest.mark.parametrize("labels, code", [(["pass"], "too_few_labels"), (["pass", " pass ", ""], "too_few_labels")])
def test_labels_are_cleaned_and_two_distinct_ones_needed(labels, code):
    with pytest.raises(RatingSetError) as error:
        rating_settings([{"id": "a", "text": "t"}], labels)
    assert error.value.code == code
    assert rating_settings([{"id": "a", "text": "t"}], [" ok ", "ko", "ok"])["labels"] == ["ok", "ko"]


def test_no_items_or_a_repeated_item_is_refused():
    with pytest.raises(RatingSetError) as error:
        rating_settings([], ["a", "b"])
    assert error.value.code == "no_items"
    with pytest.raises(RatingSetError) as error:
        rating_settings([{"id": "a", "text": "1"}, {"id": " a", "text": "2"}], ["a", "b"])
    assert error.value.code == "duplicate_item" and error.value.details["id"] == "a"


def test_a_room_rating_reads_back_and_malformed_settings_read_as_none():
    stored = {RATING_KEY: rating_settings([{"id": "a", "text": "t"}], ["x", "y"])}
    assert room_rating(stored) == {"labels": ["x", "y"], "items": [{"id": "a", "text": "t"}]}
    for bad in ({}, {RATING_KEY: "x"}, {RATING_KEY: {"labels": "x", "items": []}},
                {RATING_KEY: {"labels": [], "items": [{"id": 1, "text": "t"}]}}, None):
        assert room_rating(bad) is None

"""When a page may submit to the room, and which source an attempt names."""

import pytest

from evallib.room.readiness import CODES, attempt_source, submit_readiness


@pytest.mark.parametrize("counts, code, values", [
    ({"total": 0, "answered": 0, "unrecorded": 0, "live": False}, "nothing_to_submit", {}),
    ({"total": 0, "answered": 0, "unrecorded": 3, "live": False}, "nothing_to_submit", {}),
    ({"total": 38, "answered": 0, "unrecorded": 38, "live": False}, "offline_unrecorded", {"n": 38, "total": 38}),
    ({"total": 38, "answered": 37, "unrecorded": 1, "live": False}, "offline_unrecorded", {"n": 1, "total": 38}),
    # live: a missing answer is one not collected yet, never "unrecorded"
    ({"total": 38, "answered": 37, "unrecorded": 1, "live": True}, "incomplete", {"answered": 37, "total": 38}),
    ({"total": 38, "answered": 0, "unrecorded": 0, "live": True}, "incomplete", {"answered": 0, "total": 38}),
    ({"total": 1, "answered": 1, "unrecorded": 0, "live": False}, "ready", {"total": 1}),
    ({"total": 12, "answered": 12, "unrecorded": 0, "live": False, "human": 0}, "no_human", {}),
    ({"total": 12, "answered": 12, "unrecorded": 0, "live": False, "human": 1}, "ready", {"total": 12}),
    # the human scores are asked for last: an incomplete run is said first
    ({"total": 12, "answered": 11, "unrecorded": 0, "live": True, "human": 0}, "incomplete", {"answered": 11, "total": 12}),
])
def test_readiness_names_the_first_obstacle(counts, code, values):
    reading = submit_readiness(**counts)
    assert (reading.code, reading.values) == (code, values)
    assert reading.code in CODES


def test_attempt_source():
    assert attempt_source(True, ["authored"]) == "live"
    assert attempt_source(False, ["authored", "live"]) == "recorded"
    assert attempt_source(False, ["authored"]) == "offline"
    assert attempt_source(False, []) == "offline"


def test_unreadable_human_scores_block_once_everything_else_is_ready():
    from evallib.room.readiness import submit_readiness
    assert submit_readiness(total=3, answered=3, unrecorded=0, live=False, human_readable=False).code == \
        "human_unreadable"
    assert submit_readiness(total=3, answered=2, unrecorded=0, live=False, human_readable=False).code == "incomplete"
    assert submit_readiness(total=3, answered=3, unrecorded=0, live=False).code == "ready"  # no human needed


@pytest.mark.parametrize("run, edited, code, name, choices", [
    ([], {"A"}, "no_template", None, []),
    (["A", "B"], {"B"}, "edited", "B", ["B"]),
    (["A", "B"], {"A", "B"}, "several_edited", "A", ["A", "B"]),
    (["A", "B"], set(), "unedited", "A", ["A", "B"]),
    (["B"], {"A"}, "unedited", "B", ["B"]),  # the edited one has no results (offline: not recorded)
])
def test_the_template_submitted_is_the_one_edited(run, edited, code, name, choices):
    from evallib.room.readiness import submitted_template
    reading = submitted_template(run, edited)
    assert (reading.code, reading.values.get("name"), reading.values["choices"]) == (code, name, choices)


def test_every_readiness_code_has_a_text_in_both_languages():
    from ui.i18n import catalogue
    TEXTS = catalogue()

    missing = [c for c in CODES if c != "ready" and set(TEXTS.get(f"room_submit.blocked.{c}", {})) != {"fr", "en"}]
    assert missing == []

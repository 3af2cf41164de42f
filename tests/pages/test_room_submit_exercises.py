"""Every exercise can be submitted: persona's rewrite (exercise 3) and the judge's template, named on the button."""

from evallib.persona.catalogue import load_catalogue
from tests.pages.test_room_submit import PAGES, _button, _texts, room  # noqa: F401  (the fixture)
from ui.room.state import MEMBERSHIP


def test_persona_rewrite_is_its_own_attempt_named_on_its_button(open_page, room):  # noqa: F811
    outside, code, joined = room
    catalogue = load_catalogue()
    name, suggested = catalogue.rewrite_example
    at = open_page(PAGES["persona"], lang="en", **{MEMBERSHIP: joined})
    assert not at.exception
    button = _button(at, "persona_rewrite")
    assert button is not None and not button.disabled, "exercise 3 measures the suggested rewrite offline"
    assert button.label == f"Submit the suggested rewrite of {name} to the room"
    assert _button(at, "persona").label == "Submit to the room"  # the page's own catalogue, apart
    button.click().run()
    assert not at.exception and f"Attempt #1 stored in room {code}." in _texts(at.success)
    listed = [cell for table in at.table for cell in table.value.to_numpy().ravel()]
    assert f"persona · rewrite of {name}" in listed  # the participant's history names the exercise
    [stored] = outside.attempts(code)
    inputs = stored.payload["inputs"]
    assert stored.kind == "persona"
    assert inputs["variant"] == {"exercise": "rewrite", "assistant": name, "origin": "suggested"}
    assert inputs["prompts"][name] == suggested.strip() != catalogue.prompt_of(name)
    others = {a.name: a.system_prompt for a in catalogue.assistants if a.name != name}
    assert {k: v for k, v in inputs["prompts"].items() if k != name} == others


def test_persona_own_rewrite_is_named_as_the_participants(open_page, room):  # noqa: F811
    _, _, joined = room
    name, suggested = load_catalogue().rewrite_example
    at = open_page(PAGES["persona"], lang="en", **{MEMBERSHIP: joined,
                                                   f"persona_ex3_prompt_{name}": suggested + " Soyez bref."})
    assert not at.exception
    button = _button(at, "persona_rewrite")
    if button is not None:  # offline, an own rewrite has no recording: nothing to submit, and nothing offered
        assert button.label == f"Submit your rewrite of {name} to the room"


def test_judge_submits_the_template_chosen_for_the_room_not_the_one_shown(open_page, room):  # noqa: F811
    outside, code, joined = room
    at = open_page(PAGES["judge"], lang="en", judge_template_shown="B", **{MEMBERSHIP: joined})
    assert not at.exception
    assert _button(at, "judge").label == "Submit template A (unedited) to the room"  # B is only shown
    at.radio(key="_room_submit_judge_template_en").set_value("Template B").run()
    assert _button(at, "judge").label == "Submit template B (unedited) to the room"
    _button(at, "judge").click().run()
    assert not at.exception
    [stored] = outside.attempts(code)
    assert stored.payload["inputs"]["template_name"] == "B"

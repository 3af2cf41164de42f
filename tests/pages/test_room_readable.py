"""Room readings a participant can act on (docs/README.md#presentation): a closed room disables its buttons with the
reason before any click, a hidden attempt's author is told, items to rate show their code as code."""

from evallib.room.rating_set import text_blocks
from tests.pages.test_room_rating import PAGE as KAPPA, TOKEN as RATING_TOKEN, room as rating_room  # noqa: F401
from tests.pages.test_room_submit import PAGES, TOKEN, _button, _texts, room  # noqa: F401
from ui.room.rating import radio_key
from ui.room.state import MEMBERSHIP, Membership
from ui.i18n import catalogue
TEXTS = catalogue()

FENCED = "Voici le script :\n```python\nimport boto3\nprint(len(list(boto3.client('s3').list_buckets())))\n```\nFin."


def test_a_closed_room_disables_the_submit_button_with_the_reason_before_any_click(open_page, room):  # noqa: F811
    outside, code, joined = room
    outside.close_room(code, TOKEN)
    at = open_page(PAGES["trigger"], **{MEMBERSHIP: joined})
    assert not at.exception
    assert _button(at, "trigger").disabled
    assert TEXTS["room_submit.blocked.room_closed"]["fr"].format(code=code) in _texts(at.info)


def test_a_hidden_attempt_is_told_to_its_author_on_their_page(open_page, room):  # noqa: F811
    outside, code, joined = room
    at = open_page(PAGES["trigger"], lang="en", **{MEMBERSHIP: joined})
    _button(at, "trigger").click().run()
    [stored] = outside.attempts(code)
    notice = TEXTS["room_submit.history.hidden_notice"]["en"].format(number=stored.number)
    assert notice not in _texts(at.warning)
    outside.hide_attempt(code, TOKEN, stored.id)
    at.run()
    assert not at.exception and notice in _texts(at.warning)


def test_items_to_rate_show_fenced_code_as_code_and_a_closed_room_disables_them(open_page, rating_room):  # noqa: F811
    outside, code, joined = rating_room
    settings = outside.room(code).settings
    settings["rating"]["items"][0]["text"] = FENCED
    outside.update_settings(code, RATING_TOKEN, settings)
    at = open_page(KAPPA, **{MEMBERSHIP: joined})
    assert not at.exception
    assert "import boto3\nprint(len(list(boto3.client('s3').list_buckets())))" in [c.value for c in at.code]
    assert not any("```" in e.value for e in at.text)
    assert "Voici le script :" in [e.value for e in at.text] and "Fin." in [e.value for e in at.text]
    assert not at.radio(key=radio_key(code, "json-iam")).disabled
    outside.close_room(code, RATING_TOKEN)
    at.run()
    assert at.radio(key=radio_key(code, "json-iam")).disabled
    assert TEXTS["room_submit.rating_closed"]["fr"].format(code=code) in _texts(at.info)


def test_text_blocks_cut_prose_and_fences_and_keep_an_unclosed_fence_as_code():
    assert [(b.kind, b.language, b.content) for b in text_blocks(FENCED)] == [
        ("text", "", "Voici le script :"), ("code", "python", "import boto3\nprint(len(list(boto3.client('s3')"
                                                              ".list_buckets())))"), ("text", "", "Fin.")]
    assert [(b.kind, b.content) for b in text_blocks("Sans code.")] == [("text", "Sans code.")]
    assert text_blocks("  \n") == []
    assert [(b.kind, b.content) for b in text_blocks("Début\n~~~\nx = 1\n")] == [("text", "Début"), ("code", "x = 1")]
    # a longer fence holds a shorter one; a fence with a tag does not close a block
    nested = "````markdown\n```python\ny\n```\n````"
    assert [(b.kind, b.language, b.content) for b in text_blocks(nested)] == [("code", "markdown", "```python\ny\n```")]


def test_a_closed_room_disables_join_with_the_reason_and_tells_its_members(open_page, room):  # noqa: F811
    from ui.i18n import catalogue
    ROOM = catalogue()

    outside, code, joined = room
    outside.close_room(code, TOKEN)
    at = open_page("pages/room.py", **{"room.join_code": code})
    assert not at.exception
    assert at.button(key="room.join").disabled
    assert ROOM["room.join.closed"]["fr"].format(code=code) in _texts(at.info)
    member = open_page("pages/room.py", **{MEMBERSHIP: joined})
    assert not member.exception
    assert ROOM["room.join.member_closed"]["fr"].format(code=code) in _texts(member.info)

""""Submit to the room" on the trigger, persona and judge pages (offline, a temporary SQLite room per test)."""

import time

import pytest
from sqlalchemy import create_engine

from evallib.judging.data import load_cases
from evallib.packs.layout import FRENCH_DIR
from evallib.packs.loader import open_pack
from evallib.persona.catalogue import load_catalogue
from evallib.room import submissions
from evallib.room.instructor import ENV_VAR as TOKEN_VAR
from evallib.room.storage import ENV_VAR, RoomStore
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.routing import DEFAULT_RUNS
from evallib.room.board import build_board, held_out_too_small
from ui.i18n import catalogue
from ui.labels import md
from ui.room.figure import figure_text, page_line
from ui.room.state import MEMBERSHIP, Membership, room_store
from ui.i18n import catalogue
TEXTS = catalogue()

PAGES = {"trigger": "pages/trigger.py", "persona": "pages/persona.py", "judge": "pages/judge.py"}
HINT = TEXTS["room_submit.join_hint"]["fr"]
#: Human totals typed on the judge page for the first cases (any plausible 0-10 scores).
HUMAN = "case_id,score\npy-s3-inventory,9\npy-ec2-stop-dev,6\npy-lambda-sqs-batch,7\npy-dynamodb-count,5\n"

TOKEN = "instructor-token-of-these-tests"


@pytest.fixture
def room(tmp_path, monkeypatch):
    """A fresh SQLite database for this test, the app's store reopened on it, and an open room with one
    participant: (store seen from outside the app, room code, that participant's membership)."""
    url = f"sqlite:///{tmp_path}/rooms.sqlite3"
    monkeypatch.setenv(ENV_VAR, url)
    monkeypatch.setenv(TOKEN_VAR, TOKEN)
    room_store.clear()
    outside = RoomStore(url, instructor_token=TOKEN)
    code = outside.open_room(TOKEN, "Atelier").code
    joined = outside.join(code, "Ana <b>")
    yield outside, code, Membership(code, joined.token, joined.name)
    room_store.clear()
    outside.engine.dispose()


def _button(at, kind):
    found = [b for b in at.button if b.key == f"room_submit_{kind}"]
    return found[0] if found else None


def _texts(elements) -> str:
    return " ".join(e.value for e in elements)


@pytest.mark.parametrize("kind", ["trigger", "persona", "judge"])
def test_not_joined_the_page_only_points_to_the_room_page(open_page, room, kind):
    at = open_page(PAGES[kind], **({"judge_human_text": HUMAN} if kind == "judge" else {}))
    assert not at.exception
    assert _button(at, kind) is None
    assert HINT in [c.value for c in at.caption]


def test_trigger_unedited_offline_submits_the_recorded_answers_with_their_provenance(open_page, room):
    outside, code, joined = room
    at = open_page(PAGES["trigger"], **{MEMBERSHIP: joined})
    assert not at.exception and HINT not in [c.value for c in at.caption]
    button = _button(at, "trigger")
    assert button is not None and not button.disabled
    assert any(f"Salle {code}, sous le nom {md('Ana <b>', None)}." in c.value for c in at.caption)  # text, not HTML
    button.click().run()
    assert not at.exception
    assert f"Essai n° 1 enregistré dans la salle {code}." in _texts(at.success)
    [stored] = outside.attempts(code)
    payload = stored.payload
    assert stored.kind == "trigger" and stored.participant == "Ana <b>"
    assert payload["provenance"]["source"] == "offline" and payload["provenance"]["model"].startswith("authored")
    assert payload["inputs"]["descriptions"] == {s.name: s.description for s in load_skills().skills}
    assert {item["id"] for item in payload["items"]} == {q.id for q in load_queries(load_skills())}
    # compared with itself: the page's own descriptions are the baseline, no discordant query
    assert (payload["comparison"]["b"], payload["comparison"]["c"]) == (0, 0)


def test_trigger_edited_offline_without_recording_is_disabled_with_the_reason(open_page, room):
    _, code, joined = room
    name = load_skills().names[0]
    at = open_page(PAGES["trigger"], trigger_edit_skill=name, **{MEMBERSHIP: joined},
                   **{f"trigger_edit_description_{name}": "Tout ce qui touche aux congés."})
    assert not at.exception
    assert _button(at, "trigger").disabled
    n = len(load_queries(load_skills())) * DEFAULT_RUNS  # every run of every query
    assert f"Hors ligne, réponses nécessaires sans enregistrement : {n} sur {n}." in _texts(at.info)
    assert room[0].attempts(code) == []


def test_trigger_edited_with_the_recorded_rewrite_submits_the_edit_against_the_baseline(open_page, room):
    outside, code, joined = room
    from evallib.triggering.authored import rewrite_example
    skill, description = rewrite_example()
    at = open_page(PAGES["trigger"], trigger_edit_skill=skill, **{MEMBERSHIP: joined})
    at.button(key="trigger_edit_example").click().run()
    assert not _button(at, "trigger").disabled
    _button(at, "trigger").click().run()
    assert not at.exception
    [stored] = outside.attempts(code)
    assert stored.payload["inputs"]["descriptions"][skill] == description
    comparison = stored.payload["comparison"]  # against the page's own descriptions, held-out queries left out
    assert comparison["n"] == sum(not q.held_out for q in load_queries(load_skills()))
    assert comparison["b"] + comparison["c"] > 0, "the recorded rewrite changes some decisions"


def test_a_failed_submission_is_kept_and_the_next_click_sends_it(open_page, room):
    outside, code, joined = room
    at = open_page(PAGES["trigger"], lang="en", **{MEMBERSHIP: joined})
    app_store = room_store()
    working = app_store.engine
    app_store.engine = create_engine("sqlite:////nonexistent-folder/rooms.sqlite3")  # the database is gone
    try:
        _button(at, "trigger").click().run()
        assert not at.exception
        assert "The room's database is busy or unreachable: nothing was stored. Try again." in _texts(at.error)
        assert _button(at, "trigger").label == "Send the kept attempt again"
        assert "An attempt could not be stored: it is kept in this session" in _texts(at.warning)
        kept = at.session_state["room.submit.pending"]["trigger"]
    finally:
        app_store.engine = working
    assert outside.attempts(code) == []
    _button(at, "trigger").click().run()
    assert not at.exception
    assert f"Attempt #1 stored in room {code}." in _texts(at.success)
    [stored] = outside.attempts(code)
    assert stored.payload == kept[1]
    assert _button(at, "trigger").label == "Submit to the room" and not at.warning


def test_a_closed_room_refuses_and_says_so(open_page, room):
    outside, code, joined = room
    at = open_page(PAGES["trigger"], **{MEMBERSHIP: joined})
    outside.close_room(code, TOKEN)
    _button(at, "trigger").click().run()
    assert not at.exception
    assert f"La salle {code} est fermée." in _texts(at.error)
    # no click can store it any more: nothing is kept, the button is not a retry
    assert _button(at, "trigger").label == TEXTS["room_submit.button"]["fr"] and not at.warning
    assert outside.attempts(code) == []


def test_persona_unedited_offline_submits_and_an_edited_prompt_is_disabled(open_page, room):
    outside, code, joined = room
    at = open_page(PAGES["persona"], **{MEMBERSHIP: joined})
    assert not at.exception and not _button(at, "persona").disabled
    _button(at, "persona").click().run()
    assert not at.exception
    assert f"Essai n° 1 enregistré dans la salle {code}." in _texts(at.success)
    [stored] = outside.attempts(code)
    catalogue = load_catalogue()
    assert stored.kind == "persona" and stored.payload["provenance"]["source"] == "offline"
    assert len(stored.payload["items"]) == len(catalogue.names) * len(catalogue.probes)

    source = catalogue.to_dict()
    source["assistants"][0]["system_prompt"] = "Un prompt réécrit que personne n'a enregistré."
    edited = open_page(PAGES["persona"], persona_source=source, persona_editor_version=1, **{MEMBERSHIP: joined})
    assert not edited.exception and _button(edited, "persona").disabled
    n, total = len(catalogue.probes), len(catalogue.names) * len(catalogue.probes)
    assert f"Hors ligne, réponses nécessaires sans enregistrement : {n} sur {total}." in _texts(edited.info)


def test_judge_submits_without_human_scores_on_the_code_graders_then_with_them(open_page, room, monkeypatch):
    outside, code, joined = room
    monkeypatch.setattr(submissions, "BURST_SECONDS", 0.0)
    at = open_page(PAGES["judge"], lang="en", **{MEMBERSHIP: joined})
    assert not at.exception and not _button(at, "judge").disabled  # no human score needed
    assert _button(at, "judge").label == "Submit template A (unedited) to the room"
    _button(at, "judge").click().run()
    assert not at.exception and f"Attempt #1 stored in room {code}." in _texts(at.success)
    at.text_area(key="judge_human_text").set_value(HUMAN).run()
    _button(at, "judge").click().run()
    assert not at.exception
    assert f"Attempt #2 stored in room {code}." in _texts(at.success)
    first, second = outside.attempts(code)
    assert first.kind == "judge_code" and first.payload["inputs"]["human"] == {}
    assert any(item["code_agrees"] is not None for item in first.payload["items"])
    payload = second.payload
    assert second.kind == "judge" and payload["inputs"]["template_name"] == "A"
    assert payload["inputs"]["human"] == {"py-s3-inventory": 9, "py-ec2-stop-dev": 6, "py-lambda-sqs-batch": 7,
                                          "py-dynamodb-count": 5}
    assert payload["provenance"]["source"] == "offline"


def test_judge_unreadable_human_scores_block_the_button_with_the_reason(open_page, room):
    _, _, joined = room
    at = open_page(PAGES["judge"], lang="en", judge_human_text="case_id,score\nno-such-case,3\n", **{MEMBERSHIP: joined})
    assert not at.exception and _button(at, "judge").disabled
    assert "The human scores entered cannot be read" in _texts(at.info)


def test_judge_with_an_unrecorded_case_offline_is_disabled_with_the_reason(open_page, room):
    _, _, joined = room
    added = load_cases()[0].__class__("new-case", "Écris un script.", "Python", "Poste d'admin.", "easy")
    at = open_page(PAGES["judge"], judge_cases=(*load_cases()[:2], added), judge_human_text=HUMAN,
                   **{MEMBERSHIP: joined})
    assert not at.exception and _button(at, "judge").disabled
    assert "Hors ligne, réponses nécessaires sans enregistrement : 1 sur 3." in _texts(at.info)


def test_live_an_edit_is_submitted_once_collected_and_a_key_in_the_inputs_is_never_sent(room):
    """Live against the fake server (the page run on its own, as the trigger page's live tests do)."""
    from tests.fake_llm_server import FakeLLMServer
    from tests.pages.test_trigger_page import KEY, _live_page

    outside, code, joined = room
    name = load_skills().names[1]
    n = len(load_queries(load_skills())) * DEFAULT_RUNS
    with FakeLLMServer(api_key=KEY) as server:
        at = _live_page(server)
        at.session_state[MEMBERSHIP] = joined
        at.run()
        at.button(key="trigger_routing_collect").click().run()
        at.session_state[f"trigger_edit_description_{name}"] = "Voir sk-abcdefghijklmnopqrstuvwx pour les congés."
        at.selectbox(key="trigger_edit_skill").set_value(name).run()
        assert _button(at, "trigger").disabled  # edited, not collected yet
        assert f"Réponses obtenues : 0 sur {n}. Obtenez les autres avant de soumettre." in _texts(at.info)
        at.button(key="trigger_after_collect").click().run()
        _button(at, "trigger").click().run()
        assert not at.exception
        assert "Cet essai contient ce qui ressemble à une clé d'API : il n'est jamais envoyé." in _texts(at.error)
        assert outside.attempts(code) == [] and "room.submit.pending" not in at.session_state  # nothing kept
        at.text_area(key=f"trigger_edit_description_{name}").set_value("Une autre description.").run()
        at.button(key="trigger_after_collect").click().run()
        _button(at, "trigger").click().run()
        assert not at.exception
    assert f"Essai n° 1 enregistré dans la salle {code}." in _texts(at.success)
    [stored] = outside.attempts(code)
    assert stored.payload["provenance"] == {"model": "fake-tools", "source": "live", "runs": DEFAULT_RUNS,
                                           "mode": "tools", "pack": open_pack(FRENCH_DIR).identity()}
    assert stored.payload["inputs"]["descriptions"][name] == "Une autre description."
    assert KEY not in str(stored.payload)


def test_a_second_click_is_refused_as_already_submitted_and_a_new_session_sees_what_was_stored(open_page, room):
    outside, code, joined = room
    at = open_page(PAGES["trigger"], lang="en", **{MEMBERSHIP: joined})
    _button(at, "trigger").click().run()
    _button(at, "trigger").click().run()
    assert not at.exception
    assert "Already submitted as #1: this attempt is identical to it" in _texts(at.error)
    [stored] = outside.attempts(code)
    when = time.strftime("%H:%M", time.localtime(stored.created_at))
    [table] = [e for e in at.table if "On the board" in e.value.columns]
    assert list(table.value.iloc[0]) == ["1", when, "trigger", "counts (the latest)"]
    again = open_page(PAGES["trigger"], lang="en", **{MEMBERSHIP: joined})  # a reload: a new session
    assert f"Your submission of {when} was received: attempt #1." in _texts(again.success)


def test_a_pending_row_without_its_attempt_says_the_submission_was_not_received(open_page, room):
    outside, code, joined = room
    key = submissions.new_key()
    sent = time.time() - 60
    submissions.begin(outside, code, joined.token, "persona", key, now=sent)
    submissions._IN_FLIGHT.discard(key)  # as a server killed between the pending row and the store leaves it
    at = open_page(PAGES["persona"], lang="en", **{MEMBERSHIP: joined})
    assert not at.exception
    when = time.strftime("%H:%M", time.localtime(sent))
    assert f"Your submission of {when} was not received: submit again." in _texts(at.warning)
    _button(at, "persona").click().run()
    assert "Attempt #1 stored" in _texts(at.success)
    assert "not received" not in _texts(at.warning)


@pytest.mark.parametrize("kind", ["trigger", "persona", "judge"])
def test_the_box_says_before_the_click_what_the_board_will_show_for_the_attempt_submitted(open_page, room, kind,
                                                                                          monkeypatch):
    """Page = board in AppTest: the sentence shown before the click is the stored attempt's figures, written by
    the board's own functions (both parts named); the page says the board holds items out."""
    outside, code, joined = room
    at = open_page(PAGES[kind], **({"judge_human_text": HUMAN} if kind == "judge" else {}), **{MEMBERSHIP: joined})
    assert not at.exception and not _button(at, kind).disabled
    before = [m.value for m in at.markdown if m.value.startswith("Sur le tableau de la salle")]
    _button(at, kind).click().run()
    # the expected sentences are written here, outside a run, where the session's language is not the page's
    # (a worker's earlier test can leave another): in the page's language
    monkeypatch.setattr("ui.i18n.language", lambda: "fr")
    [stored] = outside.attempts(code)
    # persona's exercise 3 has its own panel (the rewrite, not submitted here): the page's own panel is first
    assert before[:1] == [page_line(stored.payload)] and len(before) == (2 if kind == "persona" else 1)
    board = build_board([stored])
    held_out = board.winners_curse[0].held_out  # one held-out probe of six: a number, no interval (too few)
    assert figure_text(board.rows[0].accuracy) in before[0]
    assert figure_text(held_out, checked=not held_out_too_small(kind, held_out)) in before[0]
    assert (kind == "persona") == held_out_too_small(kind, held_out)
    if kind != "trigger":  # the page's own figures cover every probe / case: it says the board holds some out
        said = "persona.room_held_out" if kind == "persona" else "judge.room_held_out"
        assert any(c.value.startswith(catalogue()[said]["fr"].split("{")[0]) for c in at.caption), said

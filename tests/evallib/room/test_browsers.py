"""The instructor token kept in the database, browsers remembered as the instructor's, membership by
browser key, and removal, on SQLite and PostgreSQL."""

import pytest

from evallib.room.browsers import (BrowserMember, InstructorBrowser, forget_instructor, instructor_standing,
                                   join_from_browser, join_reading, leave_from_browser, membership_of, remember_instructor,
                                   remove_participant, removed_from, removed_participants, set_managed_room)
from evallib.room.instructor import draw_new_token, kept_token
from evallib.room.storage import MAX_NAME, RoomStorageError, RoomStore
from tests.evallib.room.conftest import TOKEN, trigger_payload

ANA, BEA = "a" * 64, "b" * 64


def test_a_drawn_token_is_drawn_once_and_kept_for_every_later_store(database_url):
    first = RoomStore(database_url)
    assert len(first.drawn_token) >= 20
    again = RoomStore(database_url)  # a restart, or a second process on the same database
    assert again.drawn_token == "" and again.instructor_hash() == first.instructor_hash()
    room = again.open_room(first.drawn_token, "kept")  # the printed token still works after the restart
    assert again.room(room.code).title == "kept"
    with pytest.raises(RoomStorageError):
        again.open_room("not-it")
    assert kept_token(again.engine).drawn == ""
    new = draw_new_token(again.engine)
    with pytest.raises(RoomStorageError):
        first.open_room(first.drawn_token)
    assert first.open_room(new).code
    for store in (first, again):
        store.engine.dispose()


def test_a_browser_that_gave_the_token_stays_the_instructors_until_it_signs_out(database_url):
    store = RoomStore(database_url)
    with pytest.raises(RoomStorageError) as refused:
        remember_instructor(store, ANA, "wrong")
    assert refused.value.code == "bad_token" and instructor_standing(store, ANA) == (False, None)
    remember_instructor(store, ANA, store.drawn_token)
    code = store.open_room(InstructorBrowser(ANA), "by browser").code
    set_managed_room(store, ANA, code)
    restarted = RoomStore(database_url)
    assert instructor_standing(restarted, ANA) == (True, code)
    assert instructor_standing(restarted, BEA) == (False, None)
    with pytest.raises(RoomStorageError):
        restarted.close_room(code, InstructorBrowser(BEA))
    forget_instructor(restarted, ANA)
    assert instructor_standing(restarted, ANA) == (False, None)
    remember_instructor(restarted, ANA, store.drawn_token)
    draw_new_token(restarted.engine)  # a new token ends the standing it gave
    assert instructor_standing(restarted, ANA) == (False, None)
    for s in (store, restarted):
        s.engine.dispose()


def test_membership_is_bound_to_the_browser_and_survives_leaving(store):
    first, second = store.open_room(TOKEN).code, store.open_room(TOKEN).code
    ana, back = join_from_browser(store, ANA, first, "Ana")
    assert not back and ana.token == BrowserMember(ANA) and "a" * 64 not in repr(ana.token)
    assert membership_of(store, ANA).id == ana.id and membership_of(store, BEA) is None
    store.submit_attempt(first, membership_of(store, ANA).token, trigger_payload([True]))
    leave_from_browser(store, ANA)
    assert membership_of(store, ANA) is None
    with pytest.raises(RoomStorageError):
        store.submit_attempt(first, BrowserMember(ANA), trigger_payload([True]))
    again, back = join_from_browser(store, ANA, first, "Other name")
    assert back and (again.id, again.name) == (ana.id, "Ana")
    elsewhere, _ = join_from_browser(store, ANA, second, "Ana")  # one room at a time
    assert membership_of(store, ANA).id == elsewhere.id != ana.id
    assert store.rejoin(first, BrowserMember(ANA)) is None


def test_a_removed_participant_is_no_longer_a_member_and_joins_again_as_someone_new(store):
    code = store.open_room(TOKEN).code
    ana, _ = join_from_browser(store, ANA, code, "Ana")
    bea = store.join(code, "Bea")  # a session without a browser key: its token alone
    store.submit_attempt(code, ana.token, trigger_payload([True]))
    with pytest.raises(RoomStorageError):
        remove_participant(store, "wrong", code, ana.id)
    assert remove_participant(store, TOKEN, code, ana.id) == "Ana"
    remove_participant(store, TOKEN, code, bea.id)
    assert membership_of(store, ANA) is None and removed_from(store, ANA) == code
    assert store.rejoin(code, bea.token) is None
    with pytest.raises(RoomStorageError):
        store.submit_attempt(code, ana.token, trigger_payload([True]))
    assert store.attempts(code) == [] and len(store.attempts(code, include_hidden=True)) == 1
    assert removed_participants(store, code) == {ana.id, bea.id}
    new, back = join_from_browser(store, ANA, code, "Ana")
    assert not back and new.id != ana.id and new.name == "Ana (2)" and removed_from(store, ANA) is None
    with pytest.raises(RoomStorageError) as other_room:
        remove_participant(store, TOKEN, store.open_room(TOKEN).code, new.id)
    assert other_room.value.code == "unknown_participant"


def test_processes_that_start_together_agree_on_one_drawn_token(database_url):
    """Eight stores opened at once on a fresh database (as processes starting together): one draws, all agree."""
    from concurrent.futures import ThreadPoolExecutor

    from evallib.room.storage import make_engine

    RoomStore(database_url, instructor_token=TOKEN).engine.dispose()  # the tables, as a first start makes them
    engines = [make_engine(database_url) for _ in range(8)]
    with ThreadPoolExecutor(8) as pool:
        kept = list(pool.map(kept_token, engines))
    assert len({k.token_hash for k in kept}) == 1 and sum(bool(k.drawn) for k in kept) == 1
    for engine in engines:
        engine.dispose()


@pytest.mark.parametrize("typed, kept, is_back, code", [
    ("Ana", "Ana", False, "joined"),
    ("  Ana \n", "Ana", False, "joined"),  # cleaning is not renaming
    ("A" * 40, "A" * 40, False, "joined"),  # exactly the limit: nothing cut
    ("A" * 40 + "   ", "A" * 40, False, "joined"),  # spaces past the limit are not characters kept
    ("A" * 41, "A" * 40, False, "shortened"),
    ("A" * 60, "A" * 40, False, "shortened"),
    ("ana", "ana (2)", False, "renamed"),
    ("A" * 60, "A" * 36 + " (2)", False, "shortened_renamed"),
    ("A" * 60, "Earlier name", True, "back"),  # taken back: the earlier name, whatever was typed
])
def test_join_reading_says_what_became_of_the_name_typed(typed, kept, is_back, code):
    reading = join_reading(typed, kept, is_back)
    assert reading.code == code
    assert reading.values["name"] == kept and reading.values["limit"] == MAX_NAME == 40
    assert reading.values["typed_length"] == len(typed.strip())


def test_join_reading_agrees_with_what_the_store_keeps(store):
    code = store.open_room(TOKEN).code
    typed = "Bartholomew " * 5  # 59 characters after cleaning
    first, second = store.join(code, typed), store.join(code, typed)
    assert join_reading(typed, first.name, False).code == "shortened"
    assert join_reading(typed, second.name, False).code == "shortened_renamed"
    assert len(first.name) <= 40 and len(second.name) <= 40

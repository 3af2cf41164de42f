import krippendorff
import numpy as np
import pytest
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa as sm_fleiss

from evallib.room.ratings import disagreement_with_majority, ratings_matrix, room_agreement
from evallib.room.storage import StoredRating
from tests.evallib.room.conftest import TOKEN


def rated(table, names=None):
    """StoredRating rows from {participant: [label or None per item]}."""
    return [StoredRating(i, name, f"item{k}", label, 0.0)
            for i, (name, labels) in enumerate(table.items()) for k, label in enumerate(labels) if label is not None]


ROOM = {"Ana": ["pass", "pass", "fail", "pass", "fail", "pass"],
        "Bob": ["pass", "fail", "fail", "pass", "fail", "pass"],
        "Chloé": ["pass", "pass", "fail", "fail", "fail", "pass"],
        "Dan": ["fail", "fail", "pass", "fail", "pass", "fail"]}


def test_fleiss_and_alpha_equal_the_reference_libraries_on_complete_ratings():
    result = room_agreement(rated(ROOM), n_boot=500)
    matrix = np.array(list(ROOM.values())).T  # items x raters
    counts, _ = aggregate_raters(matrix)
    assert result.fleiss.value == pytest.approx(sm_fleiss(counts))
    codes = (np.array(list(ROOM.values())) == "pass").astype(float)
    assert result.alpha.value == pytest.approx(krippendorff.alpha(codes, level_of_measurement="nominal"))
    assert result.fleiss.low <= result.fleiss.value <= result.fleiss.high
    assert result.alpha.n_items == result.fleiss.n_items == 6
    assert result.readings[0].code == "room_ratings_ready"


def test_partial_ratings_use_every_pairable_item_for_alpha_and_complete_items_for_fleiss():
    partial = {"Ana": ["pass", "pass", "fail", None, "fail"], "Bob": ["pass", None, "fail", "pass", "fail"],
               "Chloé": ["pass", "pass", None, None, "pass"]}
    result = room_agreement(rated(partial), n_boot=300)
    codes = np.array([[{"pass": 1.0, "fail": 0.0}.get(x, np.nan) if x else np.nan for x in row]
                      for row in partial.values()])
    assert result.alpha.value == pytest.approx(krippendorff.alpha(codes, level_of_measurement="nominal"))
    assert result.alpha.n_items == 4          # item 3 has one rating
    assert result.fleiss.n_items == 2         # items 0 and 4 rated by all three
    assert result.readings[0].values == {"raters": 3, "complete_items": 2, "pairable_items": 4, "items": 5}


def test_the_room_waits_for_two_raters_and_two_items():
    one = room_agreement(rated({"Ana": ["pass", "fail"]}))
    assert one.readings[0].code == "room_ratings_waiting"
    assert one.fleiss.value is None and one.fleiss.note == "too_few_raters"
    two_items_one_pairable = room_agreement(rated({"Ana": ["pass", "fail"], "Bob": ["pass", None]}))
    assert two_items_one_pairable.readings[0].code == "room_ratings_waiting"
    assert two_items_one_pairable.alpha.value is None and two_items_one_pairable.alpha.note == "single_item"
    nothing = room_agreement([])
    assert nothing.readings[0].code == "room_ratings_waiting" and nothing.raters == ()


def test_identical_labels_leave_the_coefficients_undefined_not_an_error():
    same = room_agreement(rated({"Ana": ["pass"] * 3, "Bob": ["pass"] * 3}), n_boot=100)
    assert same.fleiss.value is None and same.fleiss.note is not None
    assert same.alpha.value is None and same.readings[1].code == "room_majority_none"


def test_the_majority_of_the_others_names_who_disagrees_most():
    result = room_agreement(rated(ROOM), n_boot=100)
    top = result.raters_by_disagreement[0]
    assert top.participant == "Dan" and top.disagreements == top.compared == 6  # Dan opposes the room on every item
    reading = result.readings[1]
    assert reading.code == "room_majority_outlier" and reading.values["participant"] == "Dan"
    # Ana on item 1: the others say pass, fail, fail -> majority fail, Ana (pass) disagrees.
    rows = {r.participant: r for r in result.raters_by_disagreement}
    assert rows["Ana"].compared == 6


def test_majority_readings_tie_all_agree_and_none():
    tie = room_agreement(rated({"A": ["x", "x"], "B": ["x", "y"], "C": ["y", "x"]}), n_boot=50)
    assert tie.readings[1].code == "room_majority_tie" and set(tie.readings[1].values["participants"]) == {"B", "C"}
    agree = room_agreement(rated({"A": ["x", "y"], "B": ["x", "y"], "C": ["x", "y"]}), n_boot=50)
    assert agree.readings[1].code == "room_majority_all_agree"
    # Two raters: each has one other rating, never a majority of at least two.
    none = room_agreement(rated({"A": ["x", "y"], "B": ["y", "y"]}), n_boot=50)
    assert none.readings[1].code == "room_majority_none"


def test_no_strict_majority_is_not_counted():
    rows = disagreement_with_majority([["x", "x", "y", None]], ["A", "B", "C", "D"])
    # For A the others say x, y: no strict majority; for C the others say x, x.
    assert [(r.participant, r.compared, r.disagreements) for r in rows] == [
        ("A", 0, 0), ("B", 0, 0), ("C", 1, 1), ("D", 0, 0)]
    assert rows[0].share is None and rows[2].share == 1.0


def test_the_matrix_follows_the_chosen_items_and_ignores_the_others():
    items, raters, matrix = ratings_matrix(rated({"A": ["x", "y", "z"]}), items=["item2", "item0", "new"])
    assert items == ("item2", "item0", "new") and raters == ("A",)
    assert matrix == [["z"], ["x"], [None]]


def test_ratings_from_the_store_feed_the_agreement(store):
    room = store.open_room(TOKEN).code
    tokens = {name: store.join(room, name).token for name in ROOM}
    for name, labels in ROOM.items():
        for k, label in enumerate(labels):
            store.rate(room, tokens[name], f"item{k}", label)
    assert room_agreement(store.ratings(room), n_boot=200) == room_agreement(rated(ROOM), n_boot=200)

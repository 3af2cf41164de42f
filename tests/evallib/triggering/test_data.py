"""The default skill catalogue and labelled queries, and the schema errors of bad files."""

import json
from collections import Counter

import pytest

from evallib.errors import InputError
from evallib.triggering.data import (QuerySetError, SkillCatalogueError, fold_name, load_queries, load_skills,
                                     parse_queries, parse_skills, queries_to_dict)


def test_default_catalogue_has_six_to_eight_skills_with_short_descriptions(catalogue):
    assert 6 <= len(catalogue.skills) <= 8
    assert {"leave-balance-calculator", "expense-report"} <= set(catalogue.names)
    assert all(0 < len(s.description) < 1024 for s in catalogue.skills)


def test_default_queries_vary_and_hold_a_near_miss_negative_per_skill(catalogue, queries):
    assert len(queries) >= 30
    near_misses = Counter(q.near_miss_of for q in queries if q.expected is None and q.near_miss_of)
    assert set(near_misses) == set(catalogue.names)
    assert {q.language for q in queries} == {"fr", "en"}
    assert {q.register for q in queries} == {"formal", "casual", "typos"}
    assert {q.explicit for q in queries if q.expected} == {True, False}
    assert 0 < sum(q.held_out for q in queries) < len(queries)
    assert all(q.expected in catalogue.names for q in queries if q.expected)
    # An action request next to the calculation skill: booking leave is not computing a balance.
    assert any(q.near_miss_of == "leave-balance-calculator" and "logiciel RH" in q.query for q in queries)


def test_queries_round_trip_through_their_json_form(catalogue, queries):
    assert parse_queries(json.loads(json.dumps(queries_to_dict(queries))), catalogue) == queries


def test_uploaded_bytes_are_validated_like_files(catalogue):
    upload = json.dumps(catalogue.to_dict()).encode("utf-8")
    assert load_skills(upload) == catalogue
    with pytest.raises(SkillCatalogueError) as info:
        load_skills(b'{"skills": [\n  {"name": "a"\n')
    assert info.value.code == "not_json" and info.value.details["line"] == 3


def _skills(**changes):
    skills = [{"name": "leave-balance", "description": "Calcule un solde de congés."},
              {"name": "expense-report", "description": "Prépare une note de frais."}]
    skills[1].update(changes)
    return {"skills": skills}


@pytest.mark.parametrize("changes, field, rule", [
    ({"description": "x" * 1024}, "description", "maxLength"),
    ({"description": "   "}, "description", "pattern"),
    ({"name": "note de frais"}, "name", "pattern"),
    ({"name": 3}, "name", "type"),
    ({"colour": "red"}, "colour", "additionalProperties"),
])
def test_skill_schema_errors_name_the_row_and_the_field(changes, field, rule):
    with pytest.raises(SkillCatalogueError) as info:
        parse_skills(_skills(**changes))
    error = info.value
    assert isinstance(error, InputError) and error.code == "schema"
    assert (error.details["row"], error.details["field"], error.details["rule"]) == (2, field, rule)
    assert f"skill 2, field '{field}'" in str(error)


def test_a_missing_field_is_named():
    data = _skills()
    del data["skills"][1]["description"]
    with pytest.raises(SkillCatalogueError) as info:
        parse_skills(data)
    assert info.value.details["field"] == "description" and "is missing" in str(info.value)


@pytest.mark.parametrize("second, code", [
    ("leave-balance", "duplicate_name"),
    ("Leave_Balance", "names_fold_together"),
    ("None", "reserved_name"),
])
def test_names_a_model_could_not_tell_apart_are_refused(second, code):
    with pytest.raises(SkillCatalogueError) as info:
        parse_skills(_skills(name=second))
    assert info.value.code == code and info.value.details["row"] == 2


def test_too_few_skills_or_no_list_is_a_schema_error():
    for data in ({"skills": [_skills()["skills"][0]]}, {"skill": []}, []):
        with pytest.raises(SkillCatalogueError) as info:
            parse_skills(data)
        assert info.value.code == "schema"


def _queries(**changes):
    items = [{"id": "a", "query": "Combien de congés me reste-t-il ?", "expected": "leave-balance"},
             {"id": "b", "query": "Pose mes congés.", "expected": None}]
    items[1].update(changes)
    return {"queries": items}


@pytest.mark.parametrize("changes, code, field", [
    ({"expected": "leave-booking"}, "unknown_skill", "expected"),
    ({"near_miss_of": "payroll"}, "unknown_skill", "near_miss_of"),
    ({"id": "a"}, "duplicate_id", "id"),
    ({"expected": 4}, "schema", "expected"),
    ({"held_out": "yes"}, "schema", "held_out"),
    ({"query": ""}, "schema", "query"),
    ({"language": "de"}, "schema", "language"),
])
def test_query_errors_name_the_row_and_the_field(changes, code, field):
    catalogue = parse_skills(_skills())
    with pytest.raises(QuerySetError) as info:
        parse_queries(_queries(**changes), catalogue)
    assert (info.value.code, info.value.details["row"], info.value.details["field"]) == (code, 2, field)
    assert "query 2" in str(info.value)


def test_a_query_file_from_disk_with_an_error_raises(tmp_path, catalogue):
    path = tmp_path / "queries.json"
    path.write_text(json.dumps({"queries": [{"id": "x", "query": "q"}]}), encoding="utf-8")
    with pytest.raises(QuerySetError) as info:
        load_queries(catalogue, path)
    assert info.value.details == {"row": 1, "field": "expected", "rule": "required"}


def test_with_description_replaces_one_skill_only(catalogue):
    edited = catalogue.with_description("expense-report", "Nouvelle description.")
    assert edited.skills[1].description == "Nouvelle description."
    assert [s for s in edited.skills if s.name != "expense-report"] == \
        [s for s in catalogue.skills if s.name != "expense-report"]
    with pytest.raises(KeyError):
        catalogue.with_description("nope", "x")


@pytest.mark.parametrize("raw, folded", [
    ("Expense-Report", "expense-report"), ("expense_report", "expense-report"),
    (" expense report\n", "expense-report"), ("EXPENSE__REPORT", "expense-report"), ("-x-", "x"),
])
def test_fold_name(raw, folded):
    assert fold_name(raw) == folded


def test_a_schema_message_quoting_a_long_value_is_shortened():
    with pytest.raises(SkillCatalogueError) as info:
        parse_skills(_skills(description="y" * 5000))
    assert len(str(info.value)) < 250 and str(info.value).endswith("…")

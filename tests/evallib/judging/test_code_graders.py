"""Code graders: JSON, Python (parsed, never executed), regex compile and examples, length."""

from dataclasses import replace

import pytest

from evallib.judging.code_graders import code_validity, extract_code, grade_by_code, regex_examples


def checks(case, response):
    return {c.name: c.passed for c in grade_by_code(case, response)}


@pytest.fixture
def by_id(cases):
    return {c.id: c for c in cases}


def test_json_parses_or_says_where_it_does_not(by_id):
    case = by_id["json-lambda-trust"]
    assert checks(case, '```json\n{"Version": "2012-10-17", "Statement": []}\n```') == {"length": True, "json_parses": True}
    bad = grade_by_code(case, '{"Statement": [{"Effect": "Allow"},]}')
    assert bad[1].passed is False and "line 1" in bad[1].detail


def test_python_is_parsed_and_never_executed(by_id, tmp_path):
    marker = tmp_path / "executed"
    response = f"```python\nopen({str(marker)!r}, 'w').write('x')\n```"
    assert checks(by_id["py-s3-inventory"], response)["python_parses"] is True
    assert not marker.exists()
    assert checks(by_id["py-s3-inventory"], "def f(:\n    pass")["python_parses"] is False


def test_regex_compiles_and_is_held_to_the_examples(by_id):
    case = by_id["regex-ec2-instance-id"]
    assert checks(case, "`^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$`") == \
        {"length": True, "regex_compiles": True, "regex_examples": True}
    loose = grade_by_code(case, "^i-[0-9a-f]+$")
    assert loose[2].passed is False and "should not match: 'i-12345'" in loose[2].detail
    assert checks(case, "^i-[0-9a-f{8}$") == {"length": True, "regex_compiles": False, "regex_examples": None}


def test_search_mode_finds_the_pattern_inside_a_line(by_id):
    case = by_id["regex-role-arn-in-log"]
    assert checks(case, r"arn:aws:iam::\d{12}:role/[\w+=,.@/-]+")["regex_examples"] is True
    assert checks(replace(case, regex_mode="full"), r"arn:aws:iam::\d{12}:role/[\w+=,.@/-]+")["regex_examples"] is False


def test_a_backtracking_pattern_is_stopped(by_id):
    case = replace(by_id["regex-ec2-instance-id"], must_match=("a" * 40 + "!",), must_not_match=())
    check = regex_examples(case, "^(a+)+$", timeout_s=0.5)
    assert check.passed is False and "0.5 s" in check.detail


def test_length_limit_and_empty_response(by_id):
    case = replace(by_id["py-s3-inventory"], max_chars=10)
    assert checks(case, "x = 1") == {"length": True, "python_parses": True}
    assert checks(case, "x = 1 + 2 + 3")["length"] is False
    assert checks(case, "   ") == {"length": False}


def test_code_validity_ignores_length_and_checks_that_do_not_apply(by_id):
    assert code_validity(grade_by_code(by_id["py-s3-inventory"], "x = 1")) is True
    assert code_validity(grade_by_code(by_id["py-s3-inventory"], "")) is None
    assert code_validity(grade_by_code(by_id["regex-ec2-instance-id"], "^i-[0-9a-f]+$")) is False


def test_extract_code_takes_the_first_fenced_block():
    assert extract_code("Avant\n```python\nx = 1\n```\npuis\n```python\ny = 2\n```") == "x = 1"
    assert extract_code("``` \nx = 1") == "x = 1"  # an unclosed fence runs to the end


def test_extract_code_takes_a_single_inline_span_in_prose_only_when_there_is_one():
    assert extract_code("Le motif `^a+$` convient.") == "^a+$"
    assert extract_code("Entre `a` et `b` : a|b") == "Entre `a` et `b` : a|b"

import pytest

from evallib.judging.code_graders import Check
from evallib.judging.data import Case, load_cases
from evallib.judging.grades import Grade
from evallib.judging.pipeline import CaseResult
from evallib.judging.rubric import default_rubric


@pytest.fixture(scope="session")
def rubric():
    return default_rubric()


@pytest.fixture(scope="session")
def cases():
    return load_cases()


def case(case_id="c", type_="Python", difficulty="easy"):
    return Case(case_id, "la demande", type_, "le contexte", difficulty)


def scored(total, format_=None, validity=None, adequacy=None, weaknesses=""):
    """A scored Grade whose criteria sum to ``total`` (FORMAT, VALIDITY, ADEQUACY filled in that order)."""
    if format_ is None:
        format_ = min(total, 3)
        validity = min(total - format_, 4)
        adequacy = total - format_ - validity
    return Grade("scored", {"FORMAT": format_, "VALIDITY": validity, "ADEQUACY": adequacy},
                 format_ + validity + adequacy, weaknesses=weaknesses)


def result(case_id, grade, type_="Python", difficulty="easy", checks=(), injection=(), clean_grade=None,
           text="réponse"):
    """A CaseResult built by hand (no call made)."""
    return CaseResult(case(case_id, type_, difficulty), "A", text, tuple(checks), grade, text, (), tuple(injection),
                      clean_grade)


def syntax(passed):
    return (Check("length", True), Check("python_parses", passed))

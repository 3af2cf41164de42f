import pytest

from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision


@pytest.fixture(scope="session")
def catalogue():
    return load_skills()


@pytest.fixture(scope="session")
def queries(catalogue):
    return load_queries(catalogue)


def row(expected, status, skill=None, raw="", query_id=None, run=0, tokens=None):
    """A RoutedDecision for hand-written cases: status "skill" takes ``skill``, "invalid_name" ``raw``."""
    return RoutedDecision(query_id or f"q-{expected}-{status}-{skill}-{raw}", "la requête", expected,
                          Decision(status, skill, raw), run, tokens)

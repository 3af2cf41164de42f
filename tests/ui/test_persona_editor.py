"""Catalogue problems quote the user's names as typed, never as Markdown."""

from evallib.persona.catalogue import CatalogueError
from ui.persona.editor import _catalogue_message


def test_a_catalogue_problem_shows_names_as_typed():
    message = _catalogue_message(CatalogueError("duplicate_names", "duplicate assistant name(s): __a__",
                                                names="__a__"))
    assert "\\_\\_a\\_\\_" in message and "__a__" not in message

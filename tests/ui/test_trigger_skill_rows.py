"""The skills editor of the trigger page wraps its descriptions (ui/trigger/editor.py): its rows are as tall
as the longest description needs, within the bounds, and the table no taller than its cap."""

import copy
import json
import math

import pytest

from tests.pages.conftest import open_page  # noqa: F401 (fixture)
from evallib.packs.layout import FRENCH_DIR
from ui.trigger.editor import (CHARS_PER_LINE, HEADER_HEIGHT, LINE_HEIGHT, MAX_LINES, MAX_SKILLS_HEIGHT, MIN_LINES,
                               ROW_PADDING, skill_table_size)


def _pack_json(name: str) -> dict:
    return json.loads((FRENCH_DIR / name).read_text(encoding="utf-8"))


def _skills(*lengths: int) -> list[dict]:
    return [{"name": f"s{i}", "description": "x" * n} for i, n in enumerate(lengths)]


@pytest.mark.parametrize("lengths, lines", [
    ((), MIN_LINES), ((10, 20), MIN_LINES),                        # short text: still tall enough to wrap
    ((CHARS_PER_LINE * 6 + 1,), 7), ((100, CHARS_PER_LINE * 6), 6),  # the longest decides
    ((1023,), math.ceil(1023 / CHARS_PER_LINE)), ((5000,), MAX_LINES),  # the schema's limit fits; past it, capped
])
def test_rows_get_the_lines_of_the_longest_description(lengths, lines):
    size = skill_table_size(_skills(*lengths))
    assert size["row_height"] == lines * LINE_HEIGHT + ROW_PADDING > 64  # Streamlit wraps only past 4 rem
    assert size["height"] == min(MAX_SKILLS_HEIGHT, HEADER_HEIGHT + (len(lengths) + 1) * size["row_height"])


def test_a_description_at_the_schema_limit_wraps_whole_and_a_long_table_scrolls():
    assert math.ceil(1023 / CHARS_PER_LINE) <= MAX_LINES
    assert skill_table_size(_skills(*[500] * 7))["height"] == MAX_SKILLS_HEIGHT


def test_the_page_draws_the_skills_with_the_rows_their_descriptions_need(open_page):  # noqa: F811
    at = open_page("pages/trigger.py", "fr")
    assert not at.exception
    # the skills as the page shows them (outside a run, the session's pack is not the page's: default_data
    # there reads the default language's pack, the English one)
    shown = at.dataframe[0].value.to_dict("records")
    assert shown and at.dataframe[0].proto.row_height == skill_table_size(shown)["row_height"]
    source = {"skills": _pack_json("triggering_skills.json"), "queries": _pack_json("triggering_queries.json")}
    assert shown == [{"name": s["name"], "description": s["description"]} for s in source["skills"]["skills"]]
    longer = copy.deepcopy(source)
    longer["skills"]["skills"][0]["description"] = "word " * 200  # 1,000 characters, as a participant may type
    at = open_page("pages/trigger.py", "fr", trigger_source=longer, trigger_editor_version=1)
    assert not at.exception
    assert at.dataframe[0].proto.row_height == math.ceil(1000 / CHARS_PER_LINE) * LINE_HEIGHT + ROW_PADDING

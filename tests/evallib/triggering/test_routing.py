"""Routing requests: one per query and run, the catalogue as tools or in a JSON prompt."""

import pytest

from evallib.triggering.routing import (DISABLE_REASONING, NO_PARAMETERS, build_requests, json_system_prompt)


def test_one_request_per_query_and_run_with_distinct_keys(catalogue, queries):
    cells = build_requests(catalogue, queries, "m", runs=3)
    assert len(cells) == 3 * len(queries)
    assert [(c.query_index, c.run) for c in cells[:4]] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert all(c.request.repeat == c.run and c.query_id == queries[c.query_index].id for c in cells)
    assert len({c.request.key() for c in cells}) == len(cells)
    assert all(c.request.messages == (("user", queries[c.query_index].query),) for c in cells)


def test_tools_mode_has_one_tool_per_skill_and_leaves_the_choice_to_the_model(catalogue, queries):
    request = build_requests(catalogue, queries[:1], "m", runs=1)[0].request
    assert [t["name"] for t in request.tools] == catalogue.names
    assert [t["description"] for t in request.tools] == [s.description for s in catalogue.skills]
    assert all(t["parameters"] == NO_PARAMETERS for t in request.tools)
    assert request.tool_choice is None and request.extra_body == DISABLE_REASONING


def test_json_mode_lists_the_catalogue_and_sends_no_tools(catalogue, queries):
    request = build_requests(catalogue, queries[:1], "m", runs=1, mode="json")[0].request
    assert request.tools == () and request.system == json_system_prompt(catalogue)
    assert all(f"- {name}: " in request.system for name in catalogue.names)
    assert '{"skill": null}' in request.system


def test_anthropic_requests_carry_no_openai_only_body(catalogue, queries):
    request = build_requests(catalogue, queries[:1], "m", runs=1, provider_kind="anthropic")[0].request
    assert request.extra_body is None


@pytest.mark.parametrize("options", [{"runs": 0}, {"mode": "xml"}, {"provider_kind": "gemini"}])
def test_bad_options_raise(catalogue, queries, options):
    with pytest.raises(ValueError):
        build_requests(catalogue, queries, "m", **options)

"""Catalogue validation: every problem is named with a code the page translates."""

import json

import pytest

from evallib.persona.catalogue import CatalogueError, build_requests, load_catalogue, validate_catalogue


def _catalogue(**changes):
    data = load_catalogue().to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize("data, code", [
    ([], "not_object"),
    ({"assistants": "x", "probes": []}, "no_assistants_list"),
    ({"assistants": [], "probes": "x"}, "no_probes_list"),
    ({"assistants": ["x"], "probes": ["q"]}, "assistant_not_object"),
    ({"assistants": [{"name": " ", "system_prompt": "p"}], "probes": ["q"]}, "empty_name"),
    ({"assistants": [{"name": float("nan"), "system_prompt": "p"}], "probes": ["q"]}, "empty_name"),
    ({"assistants": [{"name": "[lien](http://example.com)", "system_prompt": "p"}], "probes": ["q"]}, "bad_name"),
    ({"assistants": [{"name": {"a": 1}, "system_prompt": "p"}], "probes": ["q"]}, "bad_name"),
    ({"assistants": [{"name": "a", "system_prompt": None}], "probes": ["q"]}, "empty_prompt"),
    ({"assistants": [{"name": "a", "system_prompt": "p"}, {"name": "a", "system_prompt": "q"}], "probes": ["q"]},
     "duplicate_names"),
    ({"assistants": [{"name": "a", "system_prompt": "p"}], "probes": ["q"]}, "too_few_assistants"),
    ({"assistants": [{"name": "a", "system_prompt": "p"}, {"name": "b", "system_prompt": "q"}], "probes": ["", "q"]},
     "empty_probe"),
    ({"assistants": [{"name": "a", "system_prompt": "p"}, {"name": "b", "system_prompt": "q"}], "probes": []},
     "no_probes"),
])
def test_each_problem_has_its_code(data, code):
    with pytest.raises(CatalogueError) as caught:
        validate_catalogue(data)
    assert caught.value.code == code


def test_numbers_as_names_are_written_out_and_accents_are_allowed():
    catalogue = validate_catalogue({"assistants": [{"name": 7, "system_prompt": "p"},
                                                   {"name": "Élise d'Arc", "system_prompt": "q"}], "probes": ["x"]})
    assert catalogue.names == ["7", "Élise d'Arc"]


def test_a_file_saved_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(_catalogue()), encoding="utf-8-sig")
    assert load_catalogue(path).names == load_catalogue().names


def test_requests_cover_the_grid_in_order_with_the_seed_parameters():
    catalogue = load_catalogue()
    cells = build_requests(catalogue, "m")
    assert [(c.assistant, c.probe_index) for c in cells][:2] == [(catalogue.names[0], 0), (catalogue.names[0], 1)]
    request = cells[0].request
    assert (request.temperature, request.seed, request.max_tokens) == (0.3, 7, 350)
    assert request.extra_body == {"chat_template_kwargs": {"enable_thinking": False}}
    assert build_requests(catalogue, "m", disable_reasoning=False)[0].request.extra_body is None

"""Fuzzing the run bundle reader and each page's loader with real bundles cut short or edited at random:
nothing but a `RunBundleError` / `InputError` comes out, and a refused file changes nothing in the session."""

import copy
import json
from functools import cache

import pytest
import streamlit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evallib.errors import InputError
from evallib.runs.bundle import dumps, read_run_bundle
from tests.ui.run_bundle_samples import LOADERS, SAMPLES
from ui import run_bundles

JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=3), max_leaves=6)


@cache
def sample(page: str) -> tuple[bytes, list]:
    """(a real bundle of ``page``, every path inside it)."""
    raw = dumps(SAMPLES[page]())
    paths = []

    def walk(value, path):
        paths.append(path)
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            walk(child, (*path, key))
    walk(json.loads(raw), ())
    return raw, paths


@st.composite
def mutated(draw, page: str) -> bytes:
    raw, paths = sample(page)
    kind = draw(st.sampled_from(["truncate", "byte", "replace", "delete"]))
    if kind == "truncate":
        return raw[:draw(st.integers(0, len(raw) - 1))]
    if kind == "byte":
        at = draw(st.integers(0, len(raw) - 1))
        return raw[:at] + bytes([draw(st.integers(0, 255))]) + raw[at + 1:]
    data = json.loads(raw)
    path = paths[draw(st.integers(1, len(paths) - 1))]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if kind == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON_VALUES)
    return json.dumps(data).encode()


@pytest.mark.parametrize("page", sorted(SAMPLES))
def test_the_real_sample_loads(page):
    raw, _ = sample(page)
    state = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streamlit, "session_state", state)
        assert run_bundles.load_file(page, "run.json", raw, LOADERS[page])
    assert state[run_bundles.LOADED_KEY][page]["value"] is not None


@pytest.mark.parametrize("page", sorted(SAMPLES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_bundle_is_refused_by_its_code_or_loads_whole(page, data):
    raw = data.draw(mutated(page))
    try:
        read_run_bundle(raw, page)
    except InputError:
        pass
    before = {"lang": "fr", "kept": {"a": 1}}
    state = copy.deepcopy(before)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streamlit, "session_state", state)
        ok = run_bundles.load_file(page, "run.json", raw, LOADERS[page])
    if not ok:
        assert state.pop(run_bundles.ERROR_KEY)[page]
        assert state == before
    else:
        assert state[run_bundles.LOADED_KEY][page]["value"] is not None

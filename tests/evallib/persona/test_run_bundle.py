"""The persona run bundle (evallib.runs.persona.bundle): figures of a loaded bundle equal those of the run that made
it, every refusal before anything is returned, and a fuzzed loader that never fails any other way."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evallib import persona
from evallib.errors import InputError
from evallib.llm import ChatResult, collect, default_recordings, provider_for_mode
from evallib.persona.catalogue import AUTHORED_MODEL, build_requests, load_catalogue
from evallib.runs.persona.bundle import PersonaRun, make_bundle, persona_report, run_from_bundle, usable
from evallib.runs.bundle import RunBundleError, dumps, read_run_bundle


@pytest.fixture(scope="module")
def authored_run():
    catalogue = load_catalogue()
    cells = build_requests(catalogue, AUTHORED_MODEL)
    results = collect([c.request for c in cells], provider_for_mode("offline", default_recordings()), 4)
    return PersonaRun(catalogue, tuple(cells), tuple(results))


@pytest.fixture(scope="module")
def bundle(authored_run):
    return make_bundle(authored_run)


def load(raw) -> PersonaRun:
    return run_from_bundle(read_run_bundle(raw, "persona"))


def test_a_loaded_bundle_gives_the_figures_of_the_run_that_made_it(authored_run, bundle):
    back = load(dumps(bundle))
    assert back.catalogue == authored_run.catalogue and back.results == authored_run.results
    assert persona_report(back.catalogue, back.responses)[1] == bundle["report"]
    # the figures are those the page computes (persona.audit on the usable answers), not copies
    names = authored_run.catalogue.names
    texts, labels, probes = usable(authored_run.catalogue, authored_run.responses, names)
    audit = persona.audit(texts, labels, probes, [authored_run.catalogue.prompt_of(n) for n in names],
                          classes=names, n_probes=6)
    disc = bundle["report"]["discriminability"]
    assert disc["accuracy"] == audit.discriminability.accuracy and disc["n_responses"] == 36
    assert disc["confusion"] == audit.discriminability.confusion.tolist()
    assert disc["interval_unit"] == "probe"
    assert {r["topic"] + "." + r["code"] for r in bundle["report"]["readings"]} >= {"persona.disc.signal"}


def test_the_answers_keep_their_provenance(bundle):
    assert {a["provenance"]["origin"] for a in bundle["answers"]} == {"authored"}
    assert {a["provenance"]["source"] for a in bundle["answers"]} == {"recording"}
    assert len(bundle["requests"]) == len(bundle["answers"]) == 36


def test_a_partial_run_round_trips_and_says_what_is_not_measured(authored_run):
    results = tuple(r if c.assistant == "style" else None for c, r in zip(authored_run.cells, authored_run.results))
    failed = ChatResult(request_key=authored_run.cells[0].request.key(), status="error", error_kind="missing_recording", source="recording")
    results = (failed,) + results[1:]
    run = PersonaRun(authored_run.catalogue, authored_run.cells, results)
    bundle = make_bundle(run)
    assert bundle["report"]["status"] == "too_few_assistants" and bundle["report"]["measured"] == ["style"]
    assert "needs_recording" in {r["code"] for r in bundle["report"]["readings"]}
    assert load(dumps(bundle)).results == results


def _edited(bundle, edit):
    changed = copy.deepcopy(bundle)
    edit(changed)
    return json.dumps(changed)


@pytest.mark.parametrize("edit, code", [
    (lambda b: b["report"]["discriminability"].__setitem__("accuracy", 0.99), "figures_differ"),
    (lambda b: b["answers"][0]["result"].__setitem__("text", "tout autre chose"), "figures_differ"),
    (lambda b: b["requests"][0]["request"].__setitem__("system", "another prompt"), "requests"),
    (lambda b: b["inputs"]["grid"][0].__setitem__("assistant", "nobody"), "inputs"),
    (lambda b: b["requests"][0]["request"].__setitem__("temperature", "warm"), "requests"),
    (lambda b: b["requests"][0]["request"].__setitem__("seed", 8), "requests"),
    (lambda b: b["inputs"]["grid"][1].__setitem__("probe_index", 0), "requests"),
    (lambda b: b["inputs"]["grid"].append(dict(b["inputs"]["grid"][0])), "inputs"),
    (lambda b: b["inputs"]["catalogue"].__setitem__("probes", []), "inputs"),
    (lambda b: b["inputs"].__setitem__("mode", "both"), "inputs"),
    (lambda b: b["answers"][0]["result"].pop("request_key"), "schema"),
    (lambda b: b["inputs"]["grid"][0].__setitem__("request_key", ["k"]), "inputs"),
    (lambda b: b.__setitem__("page", "kappa"), "other_page"),
    (lambda b: b.__setitem__("version", 2), "newer_version"),
])
def test_a_bundle_edited_into_nonsense_is_refused_with_its_code(bundle, edit, code):
    with pytest.raises(RunBundleError) as error:
        load(_edited(bundle, edit))
    assert error.value.code == code


def test_a_truncated_bundle_is_refused(bundle):
    raw = dumps(bundle)
    with pytest.raises(RunBundleError) as error:
        load(raw[: len(raw) // 2])
    assert error.value.code == "not_json"


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, prefix + (index,))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False)
                           | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_the_loader_fuzzed_refuses_or_loads_never_crashes(bundle, data):
    small = copy.deepcopy(bundle)
    paths = [p for p in _paths(small) if p]
    path = data.draw(st.sampled_from(paths))
    target = small
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()) and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = data.draw(JSON_VALUES)
    raw = json.dumps(small).encode()
    if data.draw(st.booleans()):
        cut = data.draw(st.integers(0, len(raw)))
        raw = raw[:cut] + data.draw(st.binary(max_size=4))
    try:
        run = load(raw)
    except InputError:
        return
    assert isinstance(run, PersonaRun)


def test_a_run_with_no_answer_yet_round_trips(authored_run):
    run = PersonaRun(authored_run.catalogue, authored_run.cells, (None,) * len(authored_run.cells), live=True)
    bundle = make_bundle(run)
    assert {a["provenance"]["source"] for a in bundle["answers"]} == {"none"}
    back = load(dumps(bundle))
    assert back.results == run.results and back.live and bundle["report"]["measured"] == []

"""The kappa run bundle (evallib.runs.kappa.bundle) and ``python -m evallib kappa``: a loaded bundle gives the
figures of the run that made it, refusals name what is wrong, the loader fuzzed never fails otherwise,
and the command's exit codes (0 computed/passed, 1 below --min-kappa, 2 bad input or undefined kappa)."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evallib import agreement as ag
from evallib.__main__ import main
from evallib.runs.kappa.bundle import KappaInputs, inputs_from_bundle, kappa_report, make_bundle
from evallib.errors import InputError
from evallib.runs.gate import EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS
from evallib.runs.bundle import RunBundleError, dumps, read_run_bundle


def preset_text(values):
    return ", ".join("" if ag.is_missing(v) else str(v) for v in values)


TYPED = KappaInputs("typed", tuple(preset_text(r) for r in ag.SEED_RUBRIC_PAIR.ratings))
FILE = KappaInputs("file", file_name="three.csv", file_text=ag.ratings_to_csv(ag.AUTHORED_THREE_RATERS, ("a", "b", "c")),
                   pair=(0, 2), weights="quadratic", ci_method="bootstrap", level="interval")


def load(raw) -> KappaInputs:
    return inputs_from_bundle(read_run_bundle(raw, "kappa"))


@pytest.mark.parametrize("inputs", [TYPED, FILE], ids=["typed", "file"])
def test_a_loaded_bundle_gives_the_figures_of_the_run_that_made_it(inputs):
    bundle = make_bundle(inputs)
    assert load(dumps(bundle)) == inputs
    assert kappa_report(load(dumps(bundle))) == bundle["report"]
    assert bundle["requests"] == bundle["answers"] == []


def test_the_figures_are_those_of_the_agreement_functions():
    report = kappa_report(TYPED)
    a, b = (ag.parse_labels(text) for text in TYPED.typed)
    assert report["pair"]["result"]["kappa"] == pytest.approx(ag.cohen_kappa(a, b).kappa, abs=1e-15)
    fleiss, _ = ag.fleiss_kappa_with_interval(list(zip(a, b)), n_boot=2000, seed=0)
    assert report["fleiss"]["kappa"] == fleiss.kappa
    report = kappa_report(FILE)
    assert report["pair"]["bootstrap"]["unit"] == "item" and report["pair"]["result"]["weights"] == "quadratic"
    assert report["alpha"]["level"] == "interval" and report["ratings"]["raters"] == ["a", "b", "c"]


def test_inputs_no_coefficient_can_use_are_reported_not_raised():
    report = kappa_report(KappaInputs("typed", ("1, 0", "1")))
    assert report["pair"] == {"status": "error", "error": "lengths_differ", "details": {"n1": 2, "n2": 1}}
    report = kappa_report(KappaInputs("file", file_name="x.csv", file_text="a,b\n1,1,1\n"))
    assert report["ratings"]["status"] == "error" and report["ratings"]["error"] == "csv_ragged"
    report = kappa_report(KappaInputs("file", file_name="x.csv", file_text="a,b\n1,1\n0,1\n", pair=(0, 5)))
    assert report["ratings"]["error"] == "pair_out_of_range"


@pytest.mark.parametrize("edit, code", [
    (lambda b: b["report"]["pair"]["result"].__setitem__("kappa", 0.99), "figures_differ"),
    (lambda b: b["inputs"]["typed"].__setitem__(0, "1, 1, 1"), "figures_differ"),
    (lambda b: b["inputs"].__setitem__("weights", "cubic"), "inputs"),
    (lambda b: b["inputs"].__setitem__("source", "paste"), "inputs"),
    (lambda b: b["inputs"].__setitem__("typed", ["1"]), "inputs"),
    (lambda b: b.__setitem__("page", "persona"), "other_page"),
])
def test_a_bundle_edited_into_nonsense_is_refused_with_its_code(edit, code):
    bundle = make_bundle(TYPED)
    edit(bundle)
    with pytest.raises(RunBundleError) as error:
        load(json.dumps(bundle))
    assert error.value.code == code


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, prefix + (index,))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 5) | st.floats(allow_nan=False)
                           | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
BUNDLES = {"typed": make_bundle(TYPED), "file": make_bundle(FILE)}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(sorted(BUNDLES)))
def test_the_loader_fuzzed_refuses_or_loads_never_crashes(data, which):
    bundle = copy.deepcopy(BUNDLES[which])
    path = data.draw(st.sampled_from([p for p in _paths(bundle) if p]))
    target = bundle
    for key in path[:-1]:
        target = target[key]
    if data.draw(st.booleans()) and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = data.draw(JSON_VALUES)
    raw = json.dumps(bundle).encode()
    if data.draw(st.booleans()):
        raw = raw[:data.draw(st.integers(0, len(raw)))] + data.draw(st.binary(max_size=4))
    try:
        inputs = load(raw)
    except InputError:
        return
    assert isinstance(inputs, KappaInputs)


# ------------------------------------------------------------------------------ the command

@pytest.fixture
def files(tmp_path):
    (tmp_path / "r.csv").write_text("a;b;c\n1;1;0\n0;0;0\n1;0;1\n1;1;1\n0;0;\n", encoding="utf-8")
    (tmp_path / "r.json").write_text(json.dumps({"raters": ["x", "y"], "ratings": [[1, 2, 3, 2], [1, 2, 2, None]]}))
    (tmp_path / "ragged.csv").write_text("a,b\n1,1\n0,1,1\n", encoding="utf-8")
    (tmp_path / "constant.csv").write_text("a,b\n1,1\n1,1\n1,1\n", encoding="utf-8")
    (tmp_path / "bad.json").write_text(json.dumps({"raters": ["x"], "ratings": [[1], [2]]}))
    return tmp_path


def test_the_command_writes_a_bundle_the_page_loads(files, capsys):
    out = files / "out"
    assert main(["kappa", str(files / "r.csv"), "--pair", "a,3", "--ci", "bootstrap", "--out", str(out)]) == EXIT_PASS
    printed = capsys.readouterr().out
    [path] = out.glob("kappa-*.json")
    bundle = read_run_bundle(path.read_bytes(), "kappa")
    inputs = inputs_from_bundle(bundle)
    assert inputs.pair == (0, 2) and inputs.file_name == "r.csv" and bundle["made_by"] == "cli"
    kappa = kappa_report(inputs)["pair"]["result"]["kappa"]
    assert f"Cohen's kappa a / c (weights none): {kappa:.3f}" in printed


def test_json_input_and_json_output(files, capsys):
    assert main(["kappa", str(files / "r.json"), "--weights", "linear", "--json"]) == EXIT_PASS
    bundle = json.loads(capsys.readouterr().out)
    assert bundle["report"]["ratings"]["raters"] == ["x", "y"] and bundle["report"]["pair"]["result"]["n"] == 3


def test_the_gate(files, capsys):
    assert main(["kappa", str(files / "r.csv"), "--min-kappa", "0.99"]) == EXIT_GATE_FAILED
    assert "gate: FAIL" in capsys.readouterr().out
    assert main(["kappa", str(files / "r.csv"), "--min-kappa", "0.1"]) == EXIT_PASS


@pytest.mark.parametrize("name, options, words", [
    ("ragged.csv", [], "line 3 has 3 cells but the file has 2 columns"),
    ("bad.json", [], "2 lists of ratings but 1 rater names"),
    ("nothing.csv", [], "nothing.csv"),
    ("r.csv", ["--pair", "a,z"], "no rater 'z'"),
    ("r.csv", ["--pair", "a"], "two raters separated by a comma"),
])
def test_bad_input_exits_2_naming_what_is_wrong(files, name, options, words, capsys):
    assert main(["kappa", str(files / name), *options]) == EXIT_NOT_MEASURED
    assert words in capsys.readouterr().err


def test_an_undefined_kappa_is_not_measured(files, capsys):
    assert main(["kappa", str(files / "constant.csv")]) == EXIT_NOT_MEASURED
    assert "NOT MEASURED" in capsys.readouterr().out

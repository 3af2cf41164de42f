"""The project's docs (docs/*.md): every reading code of evallib documented, every anchor cited existing,
and what the docs state of the code (defaults, default data, checked figures) still what the code gives.

Reading codes are found in evallib's source: the first argument of a ``Reading(...)`` call when it is a
string, the strings assigned to ``code`` in a function that builds readings, and the string values of
module-level ``*CODES*`` tables. A code is documented when it appears between backticks in the docs
file of its part of evallib (`DOMAIN_DOCS`).
Anchors are the ``<a id="...">`` of each docs file; a citation is ``docs/<file>.md#<anchor>`` in the
code, or ``<file>.md#<anchor>`` (``#<anchor>`` within a file) in a link of a docs file.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CODE_DIRS = ("evallib", "ui", "pages", "bench", "tests")
ANCHOR = re.compile(r'<a id="([\w-]+)"></a>')
CITED = re.compile(r"docs/([\w-]+\.md)#([\w-]+)")
LINKED = re.compile(r"\]\(([\w-]+\.md)?#([\w-]+)\)")


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _is_reading_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Reading"


def reading_codes(source: str) -> set[str]:
    """The reading codes a module's source spells out (module docstring)."""
    tree = ast.parse(source)
    codes: set[str] = set()
    for node in ast.walk(tree):
        if _is_reading_call(node) and node.args and not isinstance(node.args[0], ast.JoinedStr):
            codes |= _strings(node.args[0])  # a literal, or the literals of a conditional expression
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(map(_is_reading_call, ast.walk(node))):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "code" for t in sub.targets):
                    codes |= _strings(sub.value)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and "CODES" in t.id for t in node.targets):
            value = node.value
            codes |= _strings(ast.Tuple(elts=list(value.values), ctx=ast.Load())) if isinstance(value, ast.Dict) \
                else _strings(value)
    return {c for c in codes if re.fullmatch(r"[a-z][a-z0-9_]*", c)}


def test_reading_codes_are_found_in_a_sample_source():
    source = (
        "CODES = ('ready', 'no_human')\n"
        "_MAP = {'x': 'not_a_code_table'}\n"
        "_AB_CODES = {'no_pairs': 'ab_no_pairs'}\n"
        "def f(v):\n"
        "    code = 'high' if v else 'low'\n"
        "    return Reading(code, {})\n"
        "def g():\n"
        "    code = 'not_a_reading'\n"
        "    return [Reading('tie', {}), Reading('a' if v else 'b', {}), Reading(f'x_{code}', {})]\n"
        "def h():\n"
        "    code = 'unrelated'\n"
        "    return code\n")
    assert reading_codes(source) == {"ready", "no_human", "ab_no_pairs", "high", "low", "not_a_reading", "tie",
                                     "a", "b"}


#: The docs file that documents the readings of each part of evallib (the first prefix that matches).
DOMAIN_DOCS = (("evallib/persona/", "persona.md"), ("evallib/text.py", "persona.md"),
               ("evallib/triggering/", "trigger.md"), ("evallib/judging/", "judge.md"),
               ("evallib/gnss/", "gnss.md"), ("evallib/agreement/", "kappa.md"), ("evallib/room/", "room.md"),
               ("evallib/cluster_rates.py", "stats.md"), ("evallib/paired.py", "stats.md"))


def _docs_file(module: str) -> str:
    return next((doc for prefix, doc in DOMAIN_DOCS if module.startswith(prefix)), "README.md")


def _evallib_codes() -> dict[tuple[str, str], str]:
    """(code, docs file that must document it) -> the first module that spells it."""
    found = {}
    for path in sorted((ROOT / "evallib").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        for code in reading_codes(path.read_text(encoding="utf-8")):
            found.setdefault((code, _docs_file(module)), module)
    return found


def test_evallib_has_reading_codes_to_check():
    # The scan finds the codes of every domain (a broken scan would make the next test pass vacuously).
    codes = {code for code, _ in _evallib_codes()}
    for code in ("perfect_score", "mantel_exact", "both_constant", "tolerance_unreachable", "board_separated",
                 "ab_too_few", "clustered_unanimous"):
        assert code in codes


def test_every_reading_code_of_evallib_is_documented_in_its_page_file():
    docs = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    undocumented = [f"{code} ({module}) in docs/{doc}" for (code, doc), module in _evallib_codes().items()
                    if f"`{code}`" not in docs.get(doc, "")]
    assert not undocumented, f"reading codes missing from their docs file: {undocumented}"


def _anchors() -> dict[str, set[str]]:
    return {p.name: set(ANCHOR.findall(p.read_text(encoding="utf-8"))) for p in DOCS.glob("*.md")}


def test_docs_anchors_are_unique_within_a_file():
    for path in DOCS.glob("*.md"):
        ids = ANCHOR.findall(path.read_text(encoding="utf-8"))
        assert len(ids) == len(set(ids)), path.name


def _code_citations() -> list[tuple[str, str, str]]:
    cited = []
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                cited += [(f"{path.relative_to(ROOT)}:{lineno}", f, a) for f, a in CITED.findall(line)]
    return cited


def test_every_anchor_cited_in_the_code_exists():
    anchors = _anchors()
    broken = [f"{site}: docs/{f}#{a}" for site, f, a in _code_citations() if a not in anchors.get(f, set())]
    assert not broken, broken


def test_every_anchor_linked_between_docs_exists():
    anchors = _anchors()
    broken = [f"{p.name}: {f}#{a}" for p in DOCS.glob("*.md")
              for f, a in LINKED.findall(p.read_text(encoding="utf-8")) if a not in anchors.get(f or p.name, set())]
    assert not broken, broken


@pytest.mark.parametrize("name", ["README.md", "persona.md", "trigger.md", "judge.md", "gnss.md", "kappa.md",
                                  "room.md", "stats.md"])
def test_each_page_has_its_method_file(name):
    assert (DOCS / name).is_file()


#: What a reader of the repository cannot open: an issue number, a seed document, a path of the notes
#: ("[/]" keeps this line from matching itself).
UNREADABLE = re.compile(r"[Ii]ssue [0-9]+|seed 00[0-9]|notes[/]|shared[/]")
#: Configuration and data files that carry comments or provenance text, beside the code folders.
OTHER_FILES = ("app.py", "serve.py", "pytest.ini", ".streamlit/config.toml", "docs/trigger-gate-workflow.yml")


def _files_that_may_cite() -> list[Path]:
    files = [path for folder in CODE_DIRS for path in sorted((ROOT / folder).rglob("*.py"))]
    files += sorted((ROOT / "data").rglob("*.json")) + sorted((ROOT / "packs").rglob("*.json")) + sorted((ROOT / "tests" / "data").rglob("*.json"))
    return files + [ROOT / name for name in OTHER_FILES if (ROOT / name).is_file()]


def test_the_unreadable_pattern_finds_what_it_looks_for():
    # each sample is split in two so that this file does not match the pattern itself
    for text in ("(issue " "12)", "Issue " "20, item 1", "seed " "001's table", "see notes" "/evaluation.md",
                 "shared" "/DESIGN.md"):
        assert UNREADABLE.search(text), text
    for text in ("docs/gnss.md#agents", "random seed 101-112", "notes.csv", "the course material"):
        assert not UNREADABLE.search(text), text


def test_the_code_cites_the_docs_not_what_a_reader_cannot_open():
    # Cite docs/<file>.md#<anchor> or the paper instead (docs/README.md).
    found = [f"{path.relative_to(ROOT)}:{lineno}: {line.strip()[:100]}" for path in _files_that_may_cite()
             for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if UNREADABLE.search(line)]
    assert not found, found


def test_the_table_of_the_twelve_gnss_cases_is_the_code_s():
    from evallib.gnss import synthetic
    from evallib.gnss.cases import CASES

    text = (DOCS / "gnss.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (C\d\d) \| `(\w+)` \| (.+) \|$", text, re.M)
    expected = []
    for case in CASES:
        p = case.params
        offset = f"{p['eq_day']}, {p['coseismic_mm']:g}" if p.get("eq_day") is not None else "none"
        white = p.get("white_mm", synthetic.DEFAULT_WHITE_MM)
        flicker = p.get("flicker_mm", synthetic.DEFAULT_FLICKER_MM)
        cells = (f"{p['n_years']:g}", f"{p['velocity_mm_yr']:g}", f"{p.get('annual_mm', synthetic.DEFAULT_ANNUAL_MM):g}",
                 f"{white:g} / {flicker:g}", offset)
        expected.append((case.case_id, case.description, " | ".join(cells)))
        # what the text above the table says holds for every case
        assert "semiannual_mm" not in p and p.get("postseismic_mm", synthetic.DEFAULT_POSTSEISMIC_MM) == 0
    assert synthetic.DEFAULT_SEMIANNUAL_MM == 0.5 and "semi-annual amplitude 0.5 mm" in text
    assert rows == expected


#: Defaults the docs state, with the code that sets them: (docs file, text of the docs, module, name, value).
STATED_DEFAULTS = [
    ("persona.md", "temperature 0.3, seed 7, at most 350 tokens", "evallib.persona.catalogue", "TEMPERATURE", 0.3),
    ("persona.md", "temperature 0.3, seed 7, at most 350 tokens", "evallib.persona.catalogue", "SEED", 7),
    ("persona.md", "temperature 0.3, seed 7, at most 350 tokens", "evallib.persona.catalogue", "MAX_TOKENS", 350),
    ("persona.md", "(1,000 shuffles, seed 7)", "evallib.persona.permutation", "DEFAULT_PERMUTATIONS", 1000),
    ("persona.md", "(1,000 shuffles, seed 7)", "evallib.persona.permutation", "DEFAULT_SEED", 7),
    ("persona.md", "2,000 resamples, percentile 95 %", "evallib.persona.permutation", "DEFAULT_BOOTSTRAP_RESAMPLES",
     2000),
    ("persona.md", "with 9,999 random relabellings", "evallib.persona.permutation", "MANTEL_SAMPLED_PERMUTATIONS", 9999),
    ("persona.md", "for k ≤ 8", "evallib.persona.permutation", "MAX_EXACT_MANTEL_ASSISTANTS", 8),
    ("persona.md", "(`MIN_CONFUSIONS_FOR_REDUNDANCY = 2`)", "evallib.persona.readings", "MIN_CONFUSIONS_FOR_REDUNDANCY",
     2),
    ("persona.md", "Signal is read at p < 0.05", "evallib.persona.readings", "SIGNIFICANCE_LEVEL", 0.05),
    ("trigger.md", "(default 2, `DEFAULT_RUNS`)", "evallib.triggering.routing", "DEFAULT_RUNS", 2),
    ("trigger.md", "t = 0.05, 0.10, 0.15, 0.25 (`TABLE_THRESHOLDS`)", "evallib.triggering.similarity",
     "TABLE_THRESHOLDS", (0.05, 0.10, 0.15, 0.25)),
    ("trigger.md", "(0.85 by default, or", "evallib.triggering.gate", "DEFAULT_MIN_ACCURACY", 0.85),
    ("trigger.md", "≤ 0.10 (`DEFAULT_MAX_UNUSABLE_RATE`)", "evallib.triggering.gate", "DEFAULT_MAX_UNUSABLE_RATE", 0.10),
    ("judge.md", "killed after 3 s", "evallib.judging.code_graders", "REGEX_TIMEOUT_S", 3.0),
    ("judge.md", "(`weakest`, three by default)", "evallib.judging.analyses", "WEAKEST_COUNT", 3),
    ("judge.md", "at least half\n  of VALIDITY's points", "evallib.judging.analyses", "VALIDITY_PASS_SHARE", 0.5),
    ("judge.md", "(10 %\nby default", "evallib.judging.report", "DEFAULT_MAX_UNSCORED_SHARE", 0.10),
    ("gnss.md", "flagged above 12 mm\n  (`V1_JUMP_THRESHOLD_MM`)", "evallib.gnss.agents", "V1_JUMP_THRESHOLD_MM", 12.0),
    ("gnss.md", "exceeds 6 mm (`V2_STEP_THRESHOLD_MM`)", "evallib.gnss.agents", "V2_STEP_THRESHOLD_MM", 6.0),
    ("gnss.md", "velocity within 1.5 mm/yr", "evallib.gnss.spec", "DEFAULT_VELOCITY_TOL", 1.5),
    ("gnss.md", "offset day within 30 days", "evallib.gnss.spec", "DEFAULT_DAY_TOL", 30),
    ("gnss.md", "**n = 59** (`MIN_TRIALS`)", "evallib.gnss.tolerances", "MIN_TRIALS", 59),
    ("gnss.md", "100 per record length\n(`DEFAULT_TRIALS`)", "evallib.gnss.tolerances", "DEFAULT_TRIALS", 100),
    ("gnss.md", "50\nrealisations (`TRADE_OFF_TRIALS`)", "evallib.gnss.tolerances", "TRADE_OFF_TRIALS", 50),
    ("gnss.md", "rounded up to 0.5 mm/yr", "evallib.gnss.tolerances", "ROUND_TO", 0.5),
    ("gnss.md", "12 mm/yr (`DERIVATION_VELOCITY`)", "evallib.gnss.tolerances", "DERIVATION_VELOCITY", 12.0),
    ("gnss.md", "fresh seeds (5000 onwards)", "evallib.gnss.cases", "HELD_OUT_SEED_START", 5000),
    ("gnss.md", "derivation (1000 onwards)", "evallib.gnss.cases", "DERIVATION_SEED_START", 1000),
    ("gnss.md", "fewer than 6 epochs", "evallib.gnss.midas", "MIN_EPOCHS", 6),
    ("gnss.md", "fewer than 10 pairs", "evallib.gnss.midas", "MIN_PAIRS", 10),
    ("gnss.md", "the 30 days before the step (`OFFSET_WINDOW_DAYS`)", "evallib.gnss.reference", "OFFSET_WINDOW_DAYS",
     30),
    ("gnss.md", "fewer than 10 epochs on one side within the window (`MIN_SIDE_EPOCHS`)", "evallib.gnss.reference",
     "MIN_SIDE_EPOCHS", 10),
    ("gnss.md", "at most 1,000 lines (`MAX_STEP_LINES`)", "evallib.gnss.reference", "MAX_STEP_LINES", 1000),
    ("gnss.md", "more than 7 days apart (`readers.OFFSET_MAX_INTERVAL_DAYS`)", "evallib.gnss.readers",
     "OFFSET_MAX_INTERVAL_DAYS", 7),
    ("gnss.md", "at least 8 mm, `DETECTABLE_OFFSET_MM`", "evallib.gnss.station_grades", "DETECTABLE_OFFSET_MM", 8.0),
    ("gnss.md", "at least 3 of its standard errors, `DETECTABLE_SIGMAS`", "evallib.gnss.station_grades",
     "DETECTABLE_SIGMAS", 3.0),
    ("gnss.md", "max(8 mm `OFFSET_ABS_TOL_MM`", "evallib.gnss.station_grades", "OFFSET_ABS_TOL_MM", 8.0),
    ("gnss.md", "10 % of the reference `OFFSET_REL_TOL`", "evallib.gnss.station_grades", "OFFSET_REL_TOL", 0.10),
    ("gnss.md", "3 σ `OFFSET_SIGMAS`", "evallib.gnss.station_grades", "OFFSET_SIGMAS", 3.0),
    ("gnss.md", "3 σ of MIDAS, `VELOCITY_SIGMAS`", "evallib.gnss.station_grades", "VELOCITY_SIGMAS", 3.0),
    ("gnss.md", "(45 samples, `agents.JUMP_MARGIN_DAYS`)", "evallib.gnss.agents", "JUMP_MARGIN_DAYS", 45),
    ("kappa.md", "2,000 resamples, seed 0", "evallib.runs.kappa.bundle", "N_BOOT", 2000),
    ("kappa.md", "2,000 resamples, seed 0", "evallib.runs.kappa.bundle", "BOOT_SEED", 0),
    ("kappa.md", "± 0.1 by default (`evallib.runs.kappa.bundle.HALF_WIDTH`)", "evallib.runs.kappa.bundle", "HALF_WIDTH", 0.1),
    ("kappa.md", "rough below 50 items\n(`LARGE_SAMPLE_ITEMS`)", "evallib.agreement.readings", "LARGE_SAMPLE_ITEMS", 50),
    ("kappa.md", "more than 5 % left out", "evallib.agreement.readings", "MANY_UNDEFINED_SHARE", 0.05),
    ("kappa.md", "(high from 0.2)", "evallib.agreement.readings", "HIGH_BIAS", 0.2),
    ("room.md", "within 10 s (`BURST_SECONDS`)", "evallib.room.submissions", "BURST_SECONDS", 10.0),
    ("room.md", "at most α = 0.05 (`ALPHA`)", "evallib.room.board", "ALPHA", 0.05),
    ("room.md", "the three top attempts (`TOP_K`)", "evallib.room.board", "TOP_K", 3),
    ("room.md", "the sixth probe for\nthe persona audit (`evallib.room.persona_attempt.HELD_OUT_PROBE`, counted from 0)",
     "evallib.room.persona_attempt", "HELD_OUT_PROBE", 5),
    ("stats.md", "exact up to 16 cases (`EXACT_MAX_CASES`)", "evallib.paired", "EXACT_MAX_CASES", 16),
    ("stats.md", "20,000 random\n  flips beyond (`MONTE_CARLO_FLIPS`", "evallib.paired", "MONTE_CARLO_FLIPS", 20_000),
]


@pytest.mark.parametrize("doc, text, module, name, value", STATED_DEFAULTS,
                         ids=[f"{d[0]}:{d[3]}" for d in STATED_DEFAULTS])
def test_a_default_the_docs_state_is_the_code_s(doc, text, module, name, value):
    import importlib

    assert text in (DOCS / doc).read_text(encoding="utf-8")
    assert getattr(importlib.import_module(module), name) == value


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_kappa_figures_the_docs_give_are_what_evallib_computes():
    from evallib.agreement.cohen import cohen_kappa, gwet_ac1, pabak, scott_pi
    from evallib.agreement.multirater import krippendorff_alpha

    text = _flat((DOCS / "kappa.md").read_text(encoding="utf-8")).replace("−", "-")
    r1, r2 = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1]
    lenient_1, lenient_2 = [1] * 11 + [0], [1] * 12
    for a, b, lead in ((r1, r2, f"r1 = {','.join(map(str, r1))} and r2 = {','.join(map(str, r2))}: "),
                       (lenient_1, lenient_2, "eleven 1 and a 0 against twelve 1: ")):
        k = cohen_kappa(a, b)
        alpha = krippendorff_alpha([a, b], level="nominal").alpha
        agreed = sum(x == y for x, y in zip(a, b))
        figures = (f"agreement {agreed}/{len(a)}, kappa {k.kappa:.3f}", f"Scott's pi {scott_pi(a, b):.3f}",
                   f"PABAK {pabak(a, b):.3f}", f"{alpha:.3f}, AC1 {gwet_ac1(a, b):.3f}")
        start = text.index(lead)
        sentence = text[start:re.compile(r"\.(?: |$)").search(text, text.index("AC1", start)).end()]
        for figure in figures:
            assert figure in sentence, (figure, sentence)
    assert f"ASE {cohen_kappa(r1, r2).se:.3f}" in text


def test_the_persona_figures_the_docs_give_follow_from_the_confusion_matrix_they_show():
    from evallib.persona.classifier import accuracy, mutual_confusions, recognition
    from tests.evallib.persona.test_audit import SEED_CLASSES, SEED_CONFUSION

    text = (DOCS / "persona.md").read_text(encoding="utf-8")
    header = re.search(r"^  \| author \\ predicted \| (.+) \|$", text, re.M).group(1).split(" | ")
    rows = re.findall(r"^  \| (\w+) \| (\d+(?: \| \d+)+) \|$", text, re.M)
    classes = [name for name, _ in rows]
    conf = np.array([[int(n) for n in cells.split(" | ")] for _, cells in rows])
    assert header == classes == SEED_CLASSES and (conf == SEED_CONFUSION).all()
    correct, total = int(np.trace(conf)), int(conf.sum())
    flat = _flat(text)
    assert f"accuracy {correct}/{total} = {accuracy(conf):.2f}" in flat
    rec = recognition(conf)
    assert f"recognition {', '.join(map(str, rec.correct))} out of {rec.total[0]}" in flat
    [mutual] = mutual_confusions(conf, classes)
    assert f"({mutual.a} / {mutual.b}, {mutual.a_as_b} each way, {mutual.total} in all)" in flat
    assert mutual.a_as_b == mutual.b_as_a


def test_the_default_data_the_docs_describe_is_the_shipped_data():
    import json
    from collections import Counter

    data = ROOT / "packs" / "fr"
    trigger = _flat((DOCS / "trigger.md").read_text(encoding="utf-8"))
    skills = json.loads((data / "triggering_skills.json").read_text(encoding="utf-8"))["skills"]
    queries = json.loads((data / "triggering_queries.json").read_text(encoding="utf-8"))["queries"]
    words = {7: "seven", 6: "six", 8: "eight"}
    assert f"{words.get(len(skills), len(skills))} skills (`packs/fr/triggering_skills.json`) and {len(queries)} labelled" \
        in trigger
    assert f"({sum(q['expected'] is None for q in queries)} negatives" in trigger
    assert f"{sum(bool(q.get('held_out')) for q in queries)} are **held out**" in trigger

    judge = _flat((DOCS / "judge.md").read_text(encoding="utf-8"))
    cases = json.loads((data / "judging_cases.json").read_text(encoding="utf-8"))["cases"]
    types, levels = Counter(c["type"] for c in cases), Counter(c["difficulty"] for c in cases)
    assert (f"has {len(cases)} cases: {types['JSON']} JSON, {types['Python']} Python, {types['Regex']} Regex; "
            f"{levels['easy']} easy, {levels['medium']} medium, {levels['hard']} hard") in judge

    persona = _flat((DOCS / "persona.md").read_text(encoding="utf-8"))
    catalogue = json.loads((data / "personas.json").read_text(encoding="utf-8"))
    roles = {a["name"]: a.get("role") for a in catalogue["assistants"]}
    assert f"has {words[len(roles)]} assistants" in persona and len(catalogue["probes"]) == 6
    assert "probes (six by default)" in persona
    for name, role in roles.items():
        assert f"`{name}`" in persona and (role == "specialist" or f"`{role}`" in persona)


def test_the_recorded_runs_the_docs_give_are_the_shipped_ones():
    from evallib.gnss.repeated import load_recorded_runs, runs_to_separate

    text = _flat((DOCS / "gnss.md").read_text(encoding="utf-8"))
    cases = load_recorded_runs()
    ids = f"{cases[0].case_id}-{cases[-1].case_id}"
    outcomes = ", ".join("".join(map(str, c.outcomes)) for c in cases)
    assert f"({ids}: {outcomes})" in text
    assert f"`runs_to_separate(0.4, 0.6) = {runs_to_separate(0.4, 0.6)}`" in text


def test_the_worked_examples_of_stats_md_are_what_evallib_computes():
    from evallib.paired import sign_flip_test
    from evallib.stats import clopper_pearson_interval, exact_upper_after_zero, wilson_interval

    text = _flat((DOCS / "stats.md").read_text(encoding="utf-8"))
    low, high = wilson_interval(21, 36)
    assert f"21/36 gives [{low:.3f}, {high:.3f}]" in text
    low, high = clopper_pearson_interval(0, 10)
    assert f"0/10 gives [{low:.0f}, {high:.3f}]" in text
    bounds = (f"{exact_upper_after_zero(1):.2f} at n = 1", f"{exact_upper_after_zero(60):.4f} at n = 60",
              f"{exact_upper_after_zero(100):.4f} at n = 100")
    assert ", ".join(bounds) in text
    # "below six cases no paired test can reach 5 %": five equal-signed differences cannot, six can
    assert sign_flip_test([1] * 5).p > 0.05 >= sign_flip_test([1] * 6).p
    assert "below six cases no paired test can reach 5 %" in text


def _resolves(dotted: str) -> bool:
    """Whether ``evallib.a.b.name`` is a module, or a name reachable from the longest module prefix."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_evallib_name_the_docs_give_exists():
    text = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    names = set(re.findall(r"`(evallib(?:\.\w+)+)`", text))
    paths = set(re.findall(r"`((?:evallib|ui|pages|bench|tests|data)/[\w/.-]+)`", text))
    assert len(names) > 100 and len(paths) > 50
    assert not sorted(n for n in names if not _resolves(n))
    assert not sorted(p for p in paths if not (ROOT / p.rstrip("/")).exists())

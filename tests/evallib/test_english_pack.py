"""The English pack (packs/en) is the same course as the French one: valid files, the same exercise structure,
and authored answers that teach the same lesson, computed by the same commands on each pack's recordings.

Each comparison reads the French figures from the built-in files and recordings (wherever the loaders'
defaults point), so the test follows the French pack if it moves, and fails if either pack's authored
answers stop giving the lesson the other gives.
"""

import json
from pathlib import Path

import pytest

from evallib.agreement import cohen_kappa
from evallib.judging.data import DEFAULT_CASES, load_cases
from evallib.judging.rubric import DEFAULT_PROMPTS, parse_rubric
from evallib.judging.templates import TEMPLATE_NAMES, check_template
from evallib.llm import Recordings
from evallib.llm.recordings import SHIPPED_DIR
from evallib.persona.catalogue import DEFAULT_CATALOGUE, load_catalogue
from evallib.runs.authored_pack import write_pack_recordings
from evallib.runs.judge.cli import main as judge_main
from evallib.runs.persona.cli import main as persona_main
from evallib.runs.trigger.cli import main as trigger_main
from evallib.triggering.authored import AUTHORED_DECISIONS
from evallib.triggering.data import DEFAULT_QUERIES, DEFAULT_SKILLS, fold_name, load_queries, load_skills

PACK = Path(__file__).resolve().parents[2] / "packs" / "en"
ROUTERS = ("authored-example-strong-router", "authored-example-light-router")


def _json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_manifest_names_an_english_pack_of_every_page():
    manifest = _json(PACK / "pack.json")
    assert manifest["language"] == "en" and manifest["format"] == 1
    assert set(manifest["pages"]) == {"trigger", "persona", "judge", "kappa", "gnss"}
    assert all(manifest[key].strip() for key in ("id", "title", "version", "author", "licence"))


def test_trigger_files_pass_the_loaders_and_keep_every_label_of_the_french_set():
    catalogue = load_skills(PACK / "triggering_skills.json")
    queries = load_queries(catalogue, PACK / "triggering_queries.json")
    french_catalogue = load_skills(DEFAULT_SKILLS)
    french = load_queries(french_catalogue, DEFAULT_QUERIES)
    assert catalogue.names == french_catalogue.names
    assert [q.id for q in queries] == [q.id for q in french]
    for english, original in zip(queries, french):
        assert (english.expected, english.held_out, english.near_miss_of, english.register, english.explicit) == \
            (original.expected, original.held_out, original.near_miss_of, original.register, original.explicit)
        assert english.query != original.query
    # the languages swap: what is the course's own language in one pack is the other language in the other
    assert sum(q.language == "en" for q in queries) == sum(q.language == "fr" for q in french)


def test_persona_and_judge_files_pass_the_loaders_with_the_french_shape():
    catalogue, french = load_catalogue(PACK / "personas.json"), load_catalogue(DEFAULT_CATALOGUE)
    assert [a.role for a in catalogue.assistants] == [a.role for a in french.assistants]
    assert len(catalogue.probes) == len(french.probes)
    assert catalogue.rewrite_example[0] == "expression" and catalogue.names[4] == "expression"
    cases, french_cases = load_cases(PACK / "judging_cases.json"), load_cases(DEFAULT_CASES)
    assert [(c.id, c.type, c.difficulty, len(c.must_match), len(c.must_not_match), c.regex_mode) for c in cases] == \
        [(c.id, c.type, c.difficulty, len(c.must_match), len(c.must_not_match), c.regex_mode) for c in french_cases]
    prompts = _json(PACK / "judging_prompts.json")
    rubric, french_rubric = parse_rubric(prompts["rubric"]), parse_rubric(_json(DEFAULT_PROMPTS)["rubric"])
    assert [(c.name, c.max_points) for c in rubric.criteria] == [(c.name, c.max_points) for c in french_rubric.criteria]
    for name in TEMPLATE_NAMES:
        check_template(prompts["templates"][name], name)


def test_the_regex_examples_are_what_the_request_says(tmp_path):
    """Code graders run the examples: they must still separate a right pattern from a wrong one."""
    import re

    right = {"regex-bucket-name": r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
             "regex-ec2-instance-id": r"^i-(?:[0-9a-f]{8}|[0-9a-f]{17})$",
             "regex-role-arn-in-log": r"arn:aws:iam::\d{12}:role/[\w+=,.@/-]+",
             "regex-ipv4-cidr": r"^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
                                r"/(?:3[0-2]|[12]?\d)$"}
    for case in load_cases(PACK / "judging_cases.json"):
        if case.type != "Regex":
            continue
        match = re.fullmatch if case.regex_mode == "full" else re.search
        assert all(match(right[case.id], example) for example in case.must_match), case.id
        assert not any(match(right[case.id], example) for example in case.must_not_match), case.id


def _french_kappa_examples() -> dict:
    """The French pack's example ratings: its kappa_examples.json once the presets live there, else the presets."""
    path = DEFAULT_CATALOGUE.with_name("kappa_examples.json")
    if path.is_file():
        return {e["key"]: e["ratings"] for e in _json(path)["examples"]}
    from evallib.agreement.ratings import AUTHORED_THREE_RATERS, PRESETS

    return {p.key: [list(r) for r in p.ratings] for p in (*PRESETS, AUTHORED_THREE_RATERS)}


def test_kappa_examples_are_the_course_ratings_and_give_its_figures():
    examples = {e["key"]: e for e in _json(PACK / "kappa_examples.json")["examples"]}
    assert {key: e["ratings"] for key, e in examples.items()} == _french_kappa_examples()
    assert all(e["title"].strip() and e["source"].strip() for e in examples.values())
    pair, lenient = cohen_kappa(*examples["rubric_pair"]["ratings"]), cohen_kappa(*examples["lenient_pair"]["ratings"])
    assert (round(pair.agreement, 2), round(pair.kappa, 3)) == (0.83, 0.625)  # docs/kappa.md#figures
    assert round(lenient.agreement, 2) == 0.92 and lenient.kappa == pytest.approx(0.0)  # docs/kappa.md#figures


def test_the_authored_files_cover_what_the_french_ones_cover():
    english, french = _json(PACK / "triggering_authored_decisions.json"), _json(AUTHORED_DECISIONS)
    assert [(m["model"], m["decisions"], m.get("rewrite_changes")) for m in english["models"]] == \
        [(m["model"], m["decisions"], m.get("rewrite_changes")) for m in french["models"]]
    assert english["rewrite_example"]["skill"] == french["rewrite_example"]["skill"] and english["none_reply"]
    responses = _json(PACK / "persona_authored_responses.json")
    french_responses = _json(DEFAULT_CATALOGUE.with_name("persona_authored_responses.json"))
    assert sorted((r["variant"], r["probe_index"]) for r in responses) == \
        sorted((r["variant"], r["probe_index"]) for r in french_responses)


def test_the_shipped_english_recordings_are_what_the_authored_files_give(tmp_path):
    """Rebuilding the recordings from the pack's files gives the shipped lines, all authored."""
    copy = tmp_path / "en"
    copy.mkdir()
    for path in PACK.glob("*.json"):
        (copy / path.name).write_bytes(path.read_bytes())
    counts = write_pack_recordings(copy)
    assert counts == {"trigger": 304, "persona": 42, "judge": 63, "gnss": 24}
    for set_name in counts:
        rebuilt = (copy / "recordings" / f"{set_name}.jsonl").read_text(encoding="utf-8")
        assert rebuilt == (PACK / "recordings" / f"{set_name}.jsonl").read_text(encoding="utf-8"), set_name
    shipped = Recordings(PACK / "recordings")
    assert not shipped.problems
    assert {r.provenance["source"] for name in counts for r in shipped.in_set(name)} == {"authored"}


def _trigger_report(tmp_path, model, *pack_args):
    out = tmp_path / model
    assert trigger_main(["--offline", "--model", model, "--out", str(out), *pack_args]) == 0
    return _json(next(out.glob("*.json")))["report"]


@pytest.mark.parametrize("model", ROUTERS)
def test_each_authored_router_scores_the_same_on_both_packs(tmp_path, model):
    english = _trigger_report(tmp_path / "en", model, "--skills", str(PACK / "triggering_skills.json"),
                              "--queries", str(PACK / "triggering_queries.json"),
                              "--recordings", str(PACK / "recordings"))
    french = _trigger_report(tmp_path / "fr", model, "--recordings", str(SHIPPED_DIR))
    for metric in ("accuracy", "precision", "recall", "false_activation_rate"):
        assert english["metrics"][metric]["k"] == french["metrics"][metric]["k"], metric
        assert english["metrics"][metric]["n"] == french["metrics"][metric]["n"], metric
    assert english["metrics_by_query"] == french["metrics_by_query"]
    assert english["confusion"] == french["confusion"] and english["held_out"] == french["held_out"]
    # and in both, matching words against descriptions routes worse than the model at every threshold
    for report in (english, french):
        assert max(s["accuracy"]["value"] for s in report["similarity_baseline"]) < \
            report["metrics"]["accuracy"]["value"]


def test_the_light_router_misses_the_same_traps():
    """The decisions name the skill as a model would (casing aside); the wrong ones fall on the traps."""
    decisions = _json(PACK / "triggering_authored_decisions.json")["models"][1]["decisions"]
    queries = {q["id"]: q for q in _json(PACK / "triggering_queries.json")["queries"]}

    def folded(name):
        return None if name is None else fold_name(name)

    wrong = {qid for qid, runs in decisions.items() if any(folded(run) != queries[qid]["expected"] for run in runs)}
    assert wrong == {"leave-near-01", "leave-near-03", "expense-near-01", "payslip-03", "travel-near-01"}
    assert all(queries[qid].get("near_miss_of") for qid in wrong - {"payslip-03"})
    assert queries["payslip-03"]["register"] == "typos"


def _persona_report(tmp_path, *pack_args):
    assert persona_main(["--out", str(tmp_path), *pack_args]) == 0
    return _json(next(tmp_path.glob("persona-*.json")))["report"]["discriminability"]


def test_the_persona_answers_give_the_french_confusion(tmp_path):
    english = _persona_report(tmp_path / "en", "--catalogue", str(PACK / "personas.json"),
                              "--recordings", str(PACK / "recordings"))
    french = _persona_report(tmp_path / "fr", "--recordings", str(SHIPPED_DIR))
    assert english["confusion"] == french["confusion"]
    assert english["n_correct"] == french["n_correct"] == 23
    assert english["accuracy_per_probe"] == french["accuracy_per_probe"]
    assert english["most_confused_pairs"] == [["style", "expression", 11]]
    assert english["permutation_p_value"] < 0.05


def test_the_rewrite_separates_the_paraphrase_as_in_french():
    """Exercise 3: with the suggested prompt's answers in place of the paraphrase's, the audit recognises it."""
    from evallib.persona.protocol import discriminability

    def rewritten(path):
        written = _json(path)
        rewrite = {r["probe_index"]: r["text"] for r in written if r["variant"] == "rewrite"}
        base = [r for r in written if r["variant"] == "base"]
        texts = [rewrite[r["probe_index"]] if r["assistant"] == "expression" else r["text"] for r in base]
        return discriminability(texts, [r["assistant"] for r in base], [r["probe_index"] for r in base],
                                n_permutations=10)

    english = rewritten(PACK / "persona_authored_responses.json")
    french = rewritten(DEFAULT_CATALOGUE.with_name("persona_authored_responses.json"))
    assert english.confusion.tolist() == french.confusion.tolist()
    assert english.n_correct == 35


def _judge_report(tmp_path, *pack_args):
    assert judge_main(["--offline", "--compare", "--probes", "--out", str(tmp_path), *pack_args]) in (0, 1)
    return _json(tmp_path / "judge-report.json")["report"]


def _numbers(value):
    """The report's figures, statuses and ids without its texts (which are in each pack's language)."""
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items() if k != "duration_s"}
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return None if isinstance(value, str) and (" " in value or value.endswith(".")) else value


def test_the_judge_answers_give_the_french_figures(tmp_path):
    english = _judge_report(tmp_path / "en", "--prompts", str(PACK / "judging_prompts.json"),
                            "--cases", str(PACK / "judging_cases.json"), "--recordings", str(PACK / "recordings"))
    french = _judge_report(tmp_path / "fr", "--recordings", str(SHIPPED_DIR))
    assert _numbers(english) == _numbers(french)
    assert english["statuses"] == french["statuses"] and english["mean"] == french["mean"]


def test_the_english_judge_is_asked_in_english():
    """Every grading and pairwise request of the English recordings carries the pack's judge wording."""
    from evallib.judging.wording import judge_wording

    wording = judge_wording(_json(PACK / "judging_prompts.json"))
    judged = [r.request for r in Recordings(PACK / "recordings").in_set("judge") if r.request.system]
    assert judged and {r.system for r in judged} == {wording.system_prompt, wording.pairwise_system_prompt}
    assert all("Requête" not in r.messages[-1][1] for r in judged)
    assert any(wording.padding_before in r.messages[-1][1] for r in judged)  # the verbosity probe's padded copies



def test_the_same_writer_rebuilds_the_french_recordings(tmp_path):
    """One path for every pack: the French files, given to the same writer, give the shipped French lines."""
    from evallib.gnss.live import AUTHORED_ANSWERS
    from evallib.judging.authored import AUTHORED

    french = [DEFAULT_SKILLS, DEFAULT_QUERIES, AUTHORED_DECISIONS, DEFAULT_CATALOGUE,
              DEFAULT_CATALOGUE.with_name("persona_authored_responses.json"), DEFAULT_PROMPTS, DEFAULT_CASES,
              AUTHORED, AUTHORED_ANSWERS, SHIPPED_DIR.parent / "pack.json"]  # the manifest: the lines' pack id
    for path in french:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    counts = write_pack_recordings(tmp_path)
    for set_name in counts:
        rebuilt = (tmp_path / "recordings" / f"{set_name}.jsonl").read_text(encoding="utf-8")
        assert rebuilt == (SHIPPED_DIR / f"{set_name}.jsonl").read_text(encoding="utf-8"), set_name


def test_an_english_judge_run_bundle_replays_with_its_wording(tmp_path):
    """The judge command's bundle of the English pack keeps the wording, so loading it asks exactly the
    requests it holds (`load_judge_bundle` refuses a replay that asks another) and finds the same grades."""
    from evallib.runs.judge.bundle import read_judge_bundle

    assert judge_main(["--offline", "--compare", "--probes", "--out", str(tmp_path), "--prompts",
                       str(PACK / "judging_prompts.json"), "--cases", str(PACK / "judging_cases.json"),
                       "--recordings", str(PACK / "recordings")]) == 1  # the authored set fails its gate on purpose
    raw = (tmp_path / "judge-report.json").read_bytes()
    bundle, shown, report = read_judge_bundle(raw)
    assert bundle["inputs"]["judge_wording"]["request_label"] == "Request sent to the assistant:"
    assert shown.run.wording.system_prompt.startswith("You grade the answers")
    assert report["statuses"] == bundle["report"]["statuses"] and report["mean"] == bundle["report"]["mean"]

"""Default-data attempts of each kind for the room tests (offline: the shipped authored answers)."""

import json
from functools import cache
from pathlib import Path
from types import SimpleNamespace

from evallib.judging.authored import authored_settings, load_authored
from evallib.judging.data import load_cases
from evallib.judging.pipeline import JudgeConfig, run_pairwise, run_pipeline
from evallib.judging.rubric import default_rubric
from evallib.judging.templates import default_templates
from evallib.llm import Recordings, provider_for_mode
from evallib.persona.catalogue import load_catalogue

ROOT = Path(__file__).resolve().parents[3]
#: Human totals typed for the tests (no human scores ship with the app): what a reader of the
#: authored answers might give, 0-10 per case.
HUMAN = {"py-s3-inventory": 9, "py-ec2-stop-dev": 6, "py-lambda-sqs-batch": 7, "py-dynamodb-count": 5,
         "json-iam-read-invoices": 10, "json-s3-lifecycle-logs": 3, "json-cfn-security-group": 8,
         "json-lambda-trust": 7, "regex-bucket-name": 9, "regex-ec2-instance-id": 8, "regex-role-arn-in-log": 6,
         "regex-ipv4-cidr": 4}


def trigger_rows() -> tuple:
    """(catalogue, queries, model, decisions) of the first authored router on the default queries, one run."""
    from evallib.triggering.authored import recorded_models
    from evallib.triggering.data import load_queries, load_skills
    from evallib.triggering.report import decide_all, route

    catalogue = load_skills()
    queries = load_queries(catalogue)
    recordings = Recordings(ROOT / "packs" / "fr" / "recordings")
    model = recorded_models(recordings)[0]
    cells, results = route(catalogue, queries, provider_for_mode("offline", recordings), model, 1)
    return catalogue, queries, model, decide_all(cells, results, queries, catalogue.names)


def persona_responses() -> tuple:
    """(catalogue, responses keyed (assistant, probe)) of the default catalogue's authored answers."""
    data = json.loads((ROOT / "packs" / "fr" / "persona_authored_responses.json").read_text(encoding="utf-8"))
    responses = {(d["assistant"], d["probe_index"]): SimpleNamespace(
        text=d["text"], failed=False, source="recording", provenance="authored", model="authored-examples")
        for d in data if d["variant"] == "base"}
    return load_catalogue(), responses


@cache
def judge_runs() -> tuple:
    """(configs, results per template, pairwise comparisons A/B) replayed from the authored recordings."""
    provider = provider_for_mode("offline", Recordings(ROOT / "packs" / "fr" / "recordings"))
    generator, judge = authored_settings()
    configs = {name: JudgeConfig(generator, judge, default_rubric(), template, name)
               for name, template in default_templates().items()}
    cases = load_cases()
    results = {name: run_pipeline(cases, config, provider) for name, config in configs.items()}
    chosen = [[r for r in results[name] if r.case.id in load_authored()["pairwise_cases"]] for name in "AB"]
    return configs, results, run_pairwise(*chosen, configs["A"], provider)


@cache
def default_payloads() -> dict:
    """A persona attempt and a judge attempt (template A, with the pairwise probe) on the default data."""
    from evallib.room.judge_attempt import build_judge_attempt
    from evallib.room.persona_attempt import build_persona_attempt

    catalogue, responses = persona_responses()
    configs, results, compared = judge_runs()
    config = configs["A"]
    return {"persona": build_persona_attempt(catalogue, responses, model="authored-examples", source="offline",
                                             n_permutations=200),
            "judge": build_judge_attempt(results["A"], HUMAN, config.rubric, template=config.template,
                                         template_name="A", generator=config.generator.model,
                                         judge=config.judge.model, source="offline", comparisons=compared)}

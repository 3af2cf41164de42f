"""The judge page's run bundle: its run as a `evallib.runs.judge.bundle.JudgeRun`, and a loaded run put back
as the page's inputs (`ui.run_bundles` draws the buttons and says why a file is refused)."""

from __future__ import annotations

import streamlit as st

from evallib.judging.data import cases_to_dict
from evallib.runs.judge.bundle import JudgeReplay, JudgeRun, judge_bundle, judge_report, load_judge_bundle
from ui.judge.inputs import set_inputs
from ui.run_bundles import close_loaded, loaded, run_bundle_controls

PAGE = "judge"
BLINDING_KEY = "judge_blinding"


def loaded_run(cases, templates: dict[str, str], rubric, blinding: bool, wording=None) -> JudgeReplay | None:
    """The loaded run the page shows, while its inputs are the page's (an edit, or another pack's judge
    wording, closes it)."""
    shown = loaded(PAGE)
    if shown is None:
        return None
    run = shown.run
    if (run.cases, run.rubric, run.blinding) != (tuple(cases), rubric, blinding) or (
            wording is not None and run.wording != wording) or any(
            templates.get(name) != text for name, text in run.templates):
        close_loaded(PAGE, edited=True)
        return None
    return shown


def load_run(bundle: dict) -> JudgeReplay:
    shown, _ = load_judge_bundle(bundle)
    run = shown.run
    set_inputs(run.cases, dict(run.templates), run.rubric)
    st.session_state[BLINDING_KEY] = run.blinding
    return shown


def controls(cases, configs: dict, runs: dict, padded: list, compared: list) -> None:
    """Download this run / load a run: ``runs`` by template (None where a case is not run yet)."""
    run_bundle_controls(PAGE, lambda: _bundle(cases, configs, runs, padded, compared), load_run,
                        {"cases": cases_to_dict(tuple(cases)), "templates": {n: c.template for n, c in configs.items()}})


def _bundle(cases, configs: dict, runs: dict, padded: list, compared: list) -> dict:
    first = next(iter(configs))
    config = configs[first]
    done = {name: [r for r in results if r is not None] for name, results in runs.items()}
    answers = [call for results in done.values() for r in results for call in r.calls]
    answers += [call for outcome in (*padded, *compared) for call in outcome.calls]
    run = JudgeRun(tuple(cases), tuple((name, c.template) for name, c in configs.items()), config.rubric,
                   config.generator, config.judge, tuple(answers), config.blinding, first,
                   (tuple(p.case_id for p in padded), tuple(c.case_id for c in compared)),
                   wording=config.wording)
    return judge_bundle(run, judge_report(JudgeReplay(run, configs, done, padded, compared)))

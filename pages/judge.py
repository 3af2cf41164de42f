"""LLM as a judge: code graders first, a model judge for the rest, its failures and biases measured
(docs/judge.md).

Thin on purpose: editable inputs (ui.judge.inputs) -> the chained pipeline, kept in the session as
each case arrives (ui.judge.run) -> evallib's analyses and readings drawn (ui.judge.view).
"""

from __future__ import annotations

import streamlit as st

from evallib.judging import analyses, biases, code_graders, grades, pipeline
from evallib.judging.pipeline import JudgeConfig
from evallib.room.judge_attempt import HELD_OUT_CASES
from ui import result_tables as rt
from ui.code_view import see_the_code
from ui.judge import view
from ui.collection import source_badge
from ui.downloads import download_table
from ui.i18n import integer, plural, t
from ui.labels import name_list
from ui.judge.bundle import controls as bundle_controls, loaded_run
from ui.judge.inputs import case_editor, edited_templates, pack_wording, rubric_editor, template_editors
from ui.judge.run import live_models, offline_models, recorded_templates, run_probes, run_templates
from ui.room.submit import submit_judge
from ui.settings import current_settings
from ui.shell import require_navigation
from ui.widgets import translated_choice

require_navigation()

st.title(t("judge.title"))
st.markdown(t("judge.intro"))

st.header(t("judge.data_title"))
with st.expander(t("judge.cases_title"), expanded=False):
    cases = case_editor()
with st.expander(t("judge.templates_title"), expanded=False):
    templates = template_editors()
    edited = edited_templates(templates or {})
with st.expander(t("judge.rubric_title"), expanded=False):
    rubric = rubric_editor()
wording = pack_wording()
if cases is None or templates is None or rubric is None or wording is None:
    st.warning(t("judge.fix_inputs"))
    st.stop()

st.header(t("judge.run_title"))
settings = current_settings()
replay = loaded_run(cases, templates, rubric, st.session_state.get("judge_blinding", True), wording)
if replay is not None:
    templates = dict(replay.run.templates)
    models = replay.run.generator, replay.run.judge
elif settings.live:
    models = live_models()
else:
    st.markdown(t("judge.offline_intro"))
    recorded, unrecorded = recorded_templates(cases, templates)
    for name in unrecorded:
        st.info(t("judge.template_unrecorded", name=name))
    templates = recorded or templates  # none recorded: the source picker below says so
    models = offline_models(cases, next(iter(templates.values())), rubric, wording)
    if models is None:
        st.stop()
generator, judge = models
blinding = st.toggle(t("judge.blinding_toggle"), value=True,
                     persist_state="session", key="judge_blinding", help=t("judge.blinding_help"))
configs = {name: JudgeConfig(generator, judge, rubric, templates[name], name, blinding=blinding, wording=wording)
           for name in templates}
st.caption(t("judge.run_params", generator=generator.model, judge=judge.model, n=len(cases),
             temperature=t("judge.no_temperature") if generator.temperature is None else generator.temperature,
             max_tokens=generator.max_tokens))
runs = replay.results if replay is not None else run_templates(cases, configs)
# A broken template has no run: the other one's results and analyses still show.
results = {name: [r for r in runs[name] if r is not None] for name in configs}
# Offline, a case the chosen recordings never answered is not recorded, not an error: named, left out.
unrecorded = sorted({r.case.id for done in results.values() for r in done if not r.recorded})
if unrecorded:
    st.info(plural("judge.unrecorded", len(unrecorded), cases=name_list(unrecorded)))
results = {name: [r for r in done if r.recorded] for name, done in results.items()}
first = next(iter(configs))
if not results[first]:
    st.info(t("judge.nothing_yet", n=len(cases)))
    bundle_controls(cases, configs, runs, [], [])  # a run can be loaded before any is made
    st.stop()
authored = sum(call.provenance == "authored" for done in results.values() for r in done for call in r.calls)
if authored:
    st.info(plural("collect.authored_notice", authored))
# Where every answer of the run came from (replayed: authored, or recorded live on a date), above the grades.
badges = sorted({source_badge(call) for done in results.values() for r in done for call in r.calls if not call.failed})
if badges:
    st.markdown(t("judge.answers_from", badges=" ".join(badges)))
if len(results[first]) < len(cases):
    st.info(t("judge.partial", done=len(results[first]), total=len(cases)))

st.header(t("judge.grades_title"))
template_shown = translated_choice(st.radio, t("judge.template_shown"), tuple(configs),
                                   {name: t("judge.template", name=name) for name in configs},
                                   state_key="judge_template_shown", horizontal=True)
shown = results.get(template_shown) or results[first]
view.statuses(shown)
view.results_table(shown)
download_table("judge_results", lambda: rt.judge_results([r for done in results.values() for r in done]))
see_the_code(pipeline.run_case, pipeline.grade_by_code, code_graders.extract_code, code_graders.regex_examples,
             pipeline.parse_grade, grades.validate)
with st.expander(t("judge.responses_title")):
    case_id = st.selectbox(t("judge.column.id"), [r.case.id for r in shown],
                           persist_state="session", key="judge_response_case")
    chosen = next(r for r in shown if r.case.id == case_id)
    st.caption(t("judge.request_caption"))
    st.text(chosen.case.input)
    st.caption(t("judge.response_caption"))
    st.markdown(source_badge(chosen.generation))
    st.text(chosen.response or t("judge.empty_response"))
    st.caption(t("judge.judge_caption"))
    if chosen.grading is not None:
        st.markdown(source_badge(chosen.grading))
    st.text(chosen.grade.raw or t("judge.no_raw"))

st.header(t("judge.analyses_title"))
view.means(shown, rubric)
view.validity(shown, rubric)
see_the_code(analyses.validity_agreement, analyses.code_validity, analyses.cohen_kappa)
human_scores = view.human(shown, rubric)
held_out = [r.case.id for r in shown if r.case.id in HELD_OUT_CASES]
if human_scores and held_out:  # the room's board measures apart on these: said where the kappa is shown
    st.caption(t("judge.room_held_out", held=integer(len(held_out)), cases=name_list(held_out)))
if len(configs) < 2:
    st.info(t("judge.ab_needs_both"))
elif results["B"]:
    view.templates_ab(results["A"], results["B"])
view.injection(shown, rubric.max_total)

st.header(t("judge.probes_title"))
st.markdown(t("judge.probes_intro"))
padded, compared = ((replay.padded, replay.compared) if replay is not None else
                    run_probes(runs[first], runs["B"] if len(configs) == 2 else [], configs[first]))
view.biases([r for done in results.values() for r in done], generator.model, judge.model, padded, compared,
            rubric.max_total)
submit_judge(configs, runs, edited, human_scores, compared, live=settings.live)
see_the_code(biases.self_preference, biases.position_bias, biases.verbosity_effect, biases.sign_flip_test,
             biases.blinding_summary, biases.injection_effect)

view.cost_and_time(*results.values(), padded, compared)
bundle_controls(cases, configs, runs, padded, compared)
st.divider()
st.subheader(t("judge.cli_title"))
st.markdown(t("judge.cli_intro"))
st.code("python -m evallib record judge --kind openai \\\n    --base-url http://localhost:11434/v1 "
        "--model qwen3:8b --judge-model qwen3:8b\n"
        "python -m evallib judge --offline --compare --probes \\\n    --min-mean 7 --max-unscored-share 0.1",
        language="bash")

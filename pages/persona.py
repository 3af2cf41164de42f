"""Persona audit: do assistants with different system prompts really answer differently? (docs/persona.md)"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from evallib import persona, text
from evallib.persona import readings
from evallib.llm import EmbeddingRequest
from evallib.persona.catalogue import AUTHORED_MODEL, Catalogue, ProbeRequest, build_requests
from evallib.runs.persona.bundle import PersonaRun, usable, usable_counts as counts_of
from evallib.room.persona_attempt import held_out_probes
from ui.collection import answers_summary, collection_panel, source_badge
from ui.downloads import download_table
from ui.i18n import integer, number, p_value, plural, t
from ui.persona.bundle import controls as bundle_controls, loaded_run
from ui.persona.editor import catalogue_editors, catalogue_tools, default_catalogue, restore_prompt
from ui import result_tables as rt
from ui.code_view import see_the_code
from ui.persona.view import (cached_audit, chart, confusion_chart, discriminability, discriminability_vectors,
                             prompt_differences, say)
from ui.room.submit import submit_persona
from ui.settings import current_settings
from ui.sources import chosen_source, recorded_source_choice
from ui.shell import require_navigation
from ui.tables import results_table

require_navigation()

SET_NAME = "persona"


def _read_first(catalogue: Catalogue, responses: dict) -> None:
    st.header(t("persona.read_title"))
    pair = readings.read_first_pair(catalogue, default_catalogue())
    say("persona.read_intro", pair)
    names = catalogue.names
    columns = st.columns(2)
    a = columns[0].selectbox(t("persona.assistant_a"), names, index=names.index(pair.values["a"]),
                             persist_state="session", key="persona_read_a")
    b = columns[1].selectbox(t("persona.assistant_b"), names, index=names.index(pair.values["b"]),
                             persist_state="session", key="persona_read_b")
    probe = st.selectbox(t("persona.probe"), range(len(catalogue.probes)),
                         persist_state="session", key="persona_read_probe",
                         format_func=lambda i: f"{i + 1}. {catalogue.probes[i]}")
    st.text(catalogue.probes[probe])
    for column, name in zip(st.columns(2), (a, b)):
        result = responses.get((name, probe))
        with column:
            st.subheader(name)
            if result is None or result.failed:
                st.info(t("persona.no_response"))
            else:
                st.markdown(source_badge(result))
                with st.container(height=420):
                    st.markdown(result.text or t("persona.empty_response"))


def _jaccard(audit) -> None:
    st.header(t("persona.jaccard_title"))
    st.markdown(t("persona.jaccard_intro"))
    names = list(audit.classes)
    pairs, values = persona.pairwise(audit.jaccard, names)
    order = np.argsort(-values, kind="stable")
    left, right = st.columns([3, 2])
    chart(left, "heatmap", audit.jaccard, names, names, title=t("persona.jaccard_figure"), zmin=0, zmax=1)
    with right:
        st.markdown(f"**{t('persona.closest_pairs')}**")
        results_table(pd.DataFrame({t("persona.pair"): [f"{pairs[i][0]} / {pairs[i][1]}" for i in order],
                                    "Jaccard": [number(values[i]) for i in order]}),
                      hide_index=True, width="stretch", height=300)
        download_table("persona_jaccard", lambda: rt.pair_values(names, audit.jaccard, "jaccard"))
    say("persona.jaccard", readings.closest_vocabularies(audit.jaccard, names))
    st.markdown(t("persona.jaccard_caveat"))
    see_the_code(text.tokenize, text.jaccard)


def _discrimination_section(result) -> None:
    st.header(t("persona.disc_title"))
    st.markdown(t("persona.disc_intro"))
    low, high = result.accuracy_interval
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric(t("persona.accuracy"), number(result.accuracy),
                  help=t("persona.accuracy_help", correct=result.n_correct, n=result.n_responses))
    top[1].metric(t("persona.chance"), number(result.chance), help=t("persona.chance_help", k=len(result.classes)))
    if result.null_mean_accuracy is not None:
        top[2].metric(t("persona.null_mean"), number(result.null_mean_accuracy), help=t("persona.null_mean_help"))
    bottom[0].metric(t("persona.interval"), t("persona.interval_value", low=low, high=high),
                     help=t("persona.interval_help"))
    if result.permutation_p_value is not None:
        bottom[1].metric(t("persona.p_permutation"), p_value(result.permutation_p_value),
                         help=t("persona.p_permutation_help", n_perm=len(result.permutation_accuracies)))
    say("persona.disc", readings.discrimination(result))
    say("persona.interval_reading", readings.accuracy_interval(result), st.caption)
    undecided = readings.undecided(result)
    if undecided:
        say("persona", undecided, st.warning)
    left, right = st.columns([3, 2])
    confusion_chart(left, result, t("persona.confusion_figure"))
    rec, names = result.recognition, list(result.classes)
    mutual = {name for m in result.mutual_confusions for name in (m.a, m.b)}
    chart(right, "bars", names, rec.rate, title=t("persona.recognition_figure"),
           texts=[f"{c}/{n}" for c, n in zip(rec.correct, rec.total)], reference=result.chance,
           reference_label=t("persona.chance"), value_range=(0, 1), highlight=[n in mutual for n in names])
    shows = {"mutual_redundancy": st.warning, "mutual_swap": st.info, "no_mutual": st.success, "no_prediction": st.info}
    for reading in readings.confusions(result):
        say("persona.confusion", reading, shows[reading.code])
    see_the_code(text.tfidf_matrix, persona.leave_one_out_nearest_centroid)


def _exercises_1_2(result, catalogue: Catalogue) -> None:
    st.header(t("persona.ex1_title"))
    say("persona.ex1", readings.pair_to_merge(result))
    st.header(t("persona.ex2_title"))
    scores = np.asarray(result.accuracy_per_probe, dtype=float)
    labels = [f"{i + 1}. {p[:45]}" for i, p in enumerate(catalogue.probes)]
    chart(st, "bars", labels, np.nan_to_num(scores), title=t("persona.ex2_figure"),
           texts=[number(s) if np.isfinite(s) else "—" for s in scores], reference=result.chance,
           reference_label=t("persona.chance"), value_range=(0, 1))
    say("persona.ex2", readings.probes(result))


def _restore_rewrite(key: str, prompt: str) -> None:
    st.session_state[key] = prompt


def _exercise_3(catalogue: Catalogue, responses: dict, before, model: str, disable_reasoning: bool) -> None:
    st.header(t("persona.ex3_title"))
    st.markdown(t("persona.ex3_intro"))
    names = list(before.classes)
    example = catalogue.rewrite_example if catalogue.rewrite_example and catalogue.rewrite_example[0] in names else None
    involved = [p[0] for p in before.most_confused_pairs]
    default_name = example[0] if example else (involved[0] if involved else names[0])
    name = st.selectbox(t("persona.ex3_assistant"), names, index=names.index(default_name),
                        persist_state="session", key="persona_ex3_name")
    suggested = example[1] if example and example[0] == name else catalogue.prompt_of(name)
    prompt_key = f"persona_ex3_prompt_{name}"
    st.session_state.setdefault(prompt_key, suggested)
    new_prompt = st.text_area(t("persona.ex3_prompt"), persist_state="session", key=prompt_key, height=150)
    if example and example[0] == name and not current_settings().live:
        source = chosen_source(SET_NAME)  # the authored examples hold the rewrite; a live recording may not
        authored = source is None or source.origin == "authored"
        st.caption((t("persona.ex3_offline_example") if authored else t("persona.ex3_offline_recorded")))
    if not new_prompt.strip():
        st.warning(t("persona.ex3_empty"))
        return
    if new_prompt.strip() == catalogue.prompt_of(name):
        st.info(t("persona.ex3_unchanged"))
        return
    rewritten = catalogue.with_prompt(name, new_prompt.strip())
    cells = [c for c in build_requests(rewritten, model, disable_reasoning=disable_reasoning) if c.assistant == name]
    results = collection_panel([c.request for c in cells], set_name=SET_NAME, key="persona_ex3",
                               labels=[f"{name} (v2) / {t('persona.probe')} {c.probe_index + 1}" for c in cells])
    if any(r is not None and r.error_kind == "missing_recording" for r in results):
        st.info(t("persona.ex3_no_recording"))
        if example and example[0] == name:
            st.button(t("persona.ex3_restore"), key="persona_ex3_restore", on_click=_restore_rewrite,
                      args=(prompt_key, example[1]))
        return
    if any(r is None or r.failed for r in results):
        st.info(t("persona.ex3_waiting"))
        return
    after_responses = dict(responses)
    after_responses.update({(c.assistant, c.probe_index): r for c, r in zip(cells, results)})
    try:
        after = discriminability(*usable(catalogue, after_responses, names), tuple(names), len(catalogue.probes))
    except persona.PersonaDataError as exc:
        st.warning(t(f"persona.data_error.{exc.code}"))
        return
    columns = st.columns(2)
    for column, label, result in ((columns[0], t("persona.before"), before), (columns[1], t("persona.after"), after)):
        column.metric(f"{t('persona.accuracy')} · {label}", number(result.accuracy),
                      delta=None if result is before else number(after.accuracy - before.accuracy, "+.2f"))
        confusion_chart(column, result, label, key=f"persona_ex3_{label}")
    say("persona.ex3", readings.rewrite(before, after, name))
    suggested_rewrite = bool(example) and example[0] == name and new_prompt.strip() == example[1].strip()
    submit_persona(rewritten, after_responses, model=model, live=current_settings().live, set_name=SET_NAME,
                   rewrite=(name, "suggested" if suggested_rewrite else "own"))


def _prompts_vs_responses(audit) -> None:
    st.header(t("persona.ranks_title"))
    st.markdown(t("persona.ranks_intro"))
    comparison = audit.ranks
    table = comparison.table.sort_values("rank_prompts", kind="stable")
    pair_names = [f"{a} / {b}" for a, b in zip(table["a"], table["b"])]
    with st.expander(t("persona.ranks_table"), expanded=False):
        results_table(pd.DataFrame({t("persona.pair"): pair_names,
                                    t("persona.d_prompts"): [number(d) for d in table["d_prompts"]],
                                    t("persona.d_responses"): [number(d) for d in table["d_responses"]],
                                    t("persona.ranks"): [f"{p} → {r}" for p, r in zip(table["rank_prompts"],
                                                                                      table["rank_responses"])]}),
                      hide_index=True, width="stretch", height=min(560, 40 + 35 * len(table)))
        download_table("persona_distances", lambda: table)
    found = readings.ranks(comparison)
    if found[0].code != "distances_constant":  # a ranking made of ties has no slopes to draw
        chart(st, "slope", pair_names, tuple(table["rank_prompts"]), tuple(table["rank_responses"]),
              title=t("persona.slope_figure"), left_title=t("persona.rank_prompts"),
              right_title=t("persona.rank_responses"))
    for reading in found:
        say("persona.ranks", reading)


def _semantic(catalogue: Catalogue, texts, labels, probes, tfidf_result) -> None:
    st.header(t("persona.semantic_title"))
    st.markdown(t("persona.semantic_intro"))
    settings = current_settings()
    if not settings.live:
        st.info(t("persona.semantic_offline"))
        return
    if settings.config.kind != "openai":
        st.info(t("persona.semantic_needs_openai"))
        return
    model = st.text_input(t("persona.embedding_model"), persist_state="session", key="persona_embedding_model",
                          placeholder="nomic-embed-text")
    if not model.strip():
        return
    request = EmbeddingRequest(model.strip(), tuple(texts))
    [result] = collection_panel([request], set_name=SET_NAME, key="persona_embed",
                                labels=[t("persona.embedding_label", n=len(texts))])
    if result is None or result.failed:
        return
    try:
        semantic = discriminability_vectors(result.vectors, labels, probes, tfidf_result.classes,
                                             len(catalogue.probes))
    except persona.PersonaDataError as exc:
        st.warning(t(f"persona.data_error.{exc.code}"))
        return
    columns = st.columns(2)
    for column, label, res in ((columns[0], "TF-IDF", tfidf_result), (columns[1], t("persona.embeddings"), semantic)):
        column.metric(f"{t('persona.accuracy')} · {label}", number(res.accuracy))
        confusion_chart(column, res, label, key=f"persona_sem_{label}")


def _unmeasured(catalogue: Catalogue, responses: dict, names: list[str], live: bool) -> None:
    """Say which assistants are left out of the measure and why; offer to restore a shipped prompt."""
    default = default_catalogue()
    for name in names:
        cells = [responses.get((name, i)) for i in range(len(catalogue.probes))]
        reading = readings.unmeasured(name, sum(1 for r in cells if r is not None and not r.failed),
                                      sum(1 for r in cells if r is not None and r.error_kind == "missing_recording"),
                                      live=live)
        say("persona.unmeasured", reading, st.info)
        if reading.code == "needs_recording" and name in default.names \
                and default.prompt_of(name) != catalogue.prompt_of(name):
            st.button(t("persona.restore_prompt", name=name), key=f"persona_restore_{name}",
                      on_click=restore_prompt, args=(name,))


# ---------------------------------------------------------------- page

st.title(t("persona.title"))
st.markdown(t("persona.intro"))

st.header(t("persona.catalogue_title"))
catalogue, problem = catalogue_editors()
catalogue_tools(catalogue)
if catalogue is None:
    st.error(t("persona.invalid", error=problem))
    st.stop()
prompt_differences(catalogue)

settings = current_settings()
if settings.live:
    model = settings.model
    disable_reasoning = settings.config.kind == "openai" and st.toggle(
        t("persona.disable_reasoning"), value=True,
        persist_state="session", key="persona_no_thinking", help=t("persona.disable_reasoning_help"))
else:  # replayed as the recorded source chosen below asked them (its model and options): ui/sources.py
    model, disable_reasoning = AUTHORED_MODEL, True

st.header(t("persona.collect_title"))
cells = build_requests(catalogue, model, disable_reasoning=disable_reasoning)
labels = [f"{c.assistant} / {t('persona.probe')} {c.probe_index + 1}" for c in cells]
replay = loaded_run(catalogue)
source = None if settings.live or replay else recorded_source_choice([c.request for c in cells], set_name=SET_NAME,
                                                                     key="persona")
sent = [ProbeRequest(c.assistant, c.probe_index, source.apply(c.request) if source else c.request) for c in cells]
run = replay or PersonaRun(catalogue, tuple(sent), (None,) * len(sent), live=settings.live)
sample = run.cells[0].request  # as it was (or is) sent
st.caption(t("persona.collect_params", n=len(cells), temperature=float(sample.temperature), seed=sample.seed,
             max_tokens=sample.max_tokens))
if settings.live and settings.config.kind == "anthropic" and not replay:
    st.caption(t("persona.seed_not_sent"))
if replay:
    answers_summary(replay.results, labels)
else:
    run = replace(run, results=tuple(collection_panel([c.request for c in cells], set_name=SET_NAME,
                                                      key="persona_grid", labels=labels)))
responses = run.responses
bundle_controls(run)
usable_counts = counts_of(catalogue, responses)
results_table(pd.DataFrame([{t("persona.assistant"): name, t("persona.collected"): usable_counts[name],
                             t("persona.empty"): sum(1 for i in range(len(catalogue.probes)) if (name, i) in responses
                                                     and responses[(name, i)].status == "empty")}
                            for name in catalogue.names]), hide_index=True)
download_table("persona_collected", lambda: rt.collected(catalogue, responses))

_read_first(catalogue, responses)
measured = [name for name in catalogue.names if usable_counts[name] >= 2]
_unmeasured(catalogue, responses, [n for n in catalogue.names if n not in measured], run.live)
if len(measured) < 2:
    st.info(t("persona.no_measure_yet", n=len(measured)))
    st.stop()
texts, labels, probes = usable(catalogue, responses, measured)
for banner in readings.identical_answers(texts, labels, measured):
    say("persona.identical", banner, st.warning)
try:
    audit = cached_audit(texts, labels, probes, tuple(catalogue.prompt_of(n) for n in measured), tuple(measured),
                   len(catalogue.probes))
except persona.PersonaDataError as exc:
    st.warning(t(f"persona.data_error.{exc.code}"))
    st.stop()
result = audit.discriminability
_jaccard(audit)
_discrimination_section(result)
held_out = held_out_probes(len(catalogue.probes))
if held_out:  # what the room's board measures differs from the figures above: said
    visible = integer(len(catalogue.probes) - len(held_out))
    if len(held_out) == 1:
        st.caption(t("persona.room_held_out", probe=integer(held_out[0] + 1), n=integer(len(catalogue.probes)),
                     visible=visible))
    else:
        st.caption(t("persona.room_held_out_many", first=integer(held_out[0] + 1), last=integer(held_out[-1] + 1),
                     held=integer(len(held_out)), n=integer(len(catalogue.probes)), visible=visible))
submit_persona(catalogue, responses, model=model, live=settings.live, set_name=SET_NAME)
_exercises_1_2(result, catalogue)
_exercise_3(catalogue, responses, result, model, disable_reasoning)
_prompts_vs_responses(audit)
_semantic(catalogue, texts, labels, probes, result)
st.divider()
st.caption(plural("persona.limits", len(catalogue.probes)))

"""Persona audit: do assistants with different system prompts really answer differently? (issue 3, seed 000)"""

from __future__ import annotations

import inspect
import json

import numpy as np
import pandas as pd
import streamlit as st

from evallib import persona, text
from evallib.llm import EmbeddingRequest
from evallib.persona_catalogue import (AUTHORED_MODEL, DEFAULT_CATALOGUE, Catalogue, CatalogueError, build_requests,
                                       load_catalogue, validate_catalogue)
from ui.collection import collection_panel, source_badge
from ui.figures import bars, heatmap, slope_chart
from ui.i18n import language, number, p_value, t
from ui.settings import current_settings
from ui.sources import recorded_source_choice
from ui.shell import require_navigation

require_navigation()

SET_NAME = "persona"
VERSION_KEY = "persona_editor_version"
SOURCE_KEY = "persona_source"
EDITED_KEY = "persona_edited"


# ---------------------------------------------------------------- catalogue editing

def _defaults() -> dict:
    return load_catalogue(DEFAULT_CATALOGUE).to_dict()


def _set_source(data: dict) -> None:
    st.session_state[SOURCE_KEY] = data
    st.session_state.pop(EDITED_KEY, None)
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1


def _catalogue_message(error: CatalogueError) -> str:
    """The translated wording of a catalogue problem."""
    return t(f"persona.error.{error.code}", **error.details)


def _on_upload() -> None:
    upload = st.session_state.get("persona_upload")
    if upload is None:
        return
    problem = ""
    try:
        _set_source(validate_catalogue(json.loads(upload.getvalue().decode("utf-8-sig"))).to_dict())
    except UnicodeDecodeError:
        problem = t("persona.upload_not_utf8")
    except json.JSONDecodeError as exc:
        problem = t("persona.error.not_json", line=exc.lineno)
    except CatalogueError as exc:
        problem = _catalogue_message(exc)
    st.session_state["persona_upload_error"] = t("persona.upload_refused", reason=problem) if problem else ""


def _editor_key(table: str) -> str:
    return f"persona_{table}_{st.session_state[VERSION_KEY]}_{language()}"


def _editors() -> tuple[Catalogue | None, str]:
    """The two editable tables; returns (validated catalogue or None, error message)."""
    if SOURCE_KEY not in st.session_state:
        _set_source(_defaults())
    # The editors' keys carry the language: their column titles are translated, and Streamlit
    # starts a widget afresh when they change. Their own state is also dropped by a page switch.
    # Either way the editors start again from the last edits.
    if EDITED_KEY in st.session_state and _editor_key("assistants") not in st.session_state:
        _set_source(st.session_state[EDITED_KEY])
    source = st.session_state[SOURCE_KEY]
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('persona.assistants')}**")
        assistants = st.data_editor(
            pd.DataFrame(source["assistants"], columns=["name", "role", "system_prompt"]),
            key=_editor_key("assistants"), num_rows="dynamic", width="stretch", hide_index=True,
            column_config={"name": st.column_config.TextColumn(t("persona.col_name"), width="small"),
                           "role": st.column_config.TextColumn(t("persona.col_role"), width="small"),
                           "system_prompt": st.column_config.TextColumn(t("persona.col_prompt"), width="large")})
    with right:
        st.markdown(f"**{t('persona.probes')}**")
        probes = st.data_editor(pd.DataFrame({"probe": source["probes"]}), key=_editor_key("probes"),
                                num_rows="dynamic", width="stretch", hide_index=True,
                                column_config={"probe": st.column_config.TextColumn(t("persona.col_probe"))})
    edited = {"setting": source.get("setting", ""),
              "assistants": assistants.fillna("").to_dict("records"),
              "probes": [p for p in probes["probe"].fillna("").tolist()]}
    if "rewrite_example" in source:
        edited["rewrite_example"] = source["rewrite_example"]
    st.session_state[EDITED_KEY] = edited
    try:
        return validate_catalogue(edited), ""
    except CatalogueError as exc:
        return None, _catalogue_message(exc)


def _catalogue_tools(catalogue: Catalogue | None) -> None:
    columns = st.columns(3)
    if columns[0].button(t("persona.reset"), key="persona_reset"):
        _set_source(_defaults())
        st.session_state["persona_upload_error"] = ""
        st.rerun()
    columns[1].file_uploader(t("persona.upload"), type=["json"], key="persona_upload", on_change=_on_upload)
    if catalogue is not None:
        columns[2].download_button(t("persona.download"), json.dumps(catalogue.to_dict(), ensure_ascii=False, indent=2),
                                   file_name="personas.json", mime="application/json", on_click="ignore")
    if st.session_state.get("persona_upload_error"):
        st.error(st.session_state["persona_upload_error"])


# ---------------------------------------------------------------- analyses (cached: pure functions of the texts)

@st.cache_data(show_spinner=False, max_entries=64)
def _discriminability(texts: tuple, labels: tuple, probes: tuple, classes: tuple, n_probes: int):
    return persona.discriminability(texts, labels, probes, classes=classes, n_probes=n_probes)


@st.cache_data(show_spinner=False, max_entries=16)
def _discriminability_vectors(vectors: tuple, labels: tuple, probes: tuple, classes: tuple, n_probes: int):
    return persona.discriminability_from_vectors(np.asarray(vectors), labels, probes, classes=classes,
                                                 n_probes=n_probes)


def _read_first(catalogue: Catalogue, responses: dict) -> None:
    st.header(t("persona.read_title"))
    st.markdown(t("persona.read_intro"))
    names = catalogue.names
    columns = st.columns(3)
    a = columns[0].selectbox(t("persona.assistant_a"), names, index=names.index("style") if "style" in names else 0,
                             key="persona_read_a")
    b = columns[1].selectbox(t("persona.assistant_b"), names,
                             index=names.index("expression") if "expression" in names else 1, key="persona_read_b")
    probe = columns[2].selectbox(t("persona.probe"), range(len(catalogue.probes)), key="persona_read_probe",
                                 format_func=lambda i: f"{i + 1}. {catalogue.probes[i][:60]}")
    st.markdown(f"> {catalogue.probes[probe]}")
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


def _jaccard(catalogue: Catalogue, texts, labels) -> None:
    st.header(t("persona.jaccard_title"))
    st.markdown(t("persona.jaccard_intro"))
    names = catalogue.names
    matrix = text.jaccard_matrix(persona.vocabularies_by_class(texts, labels, names))
    pairs, values = persona.pairwise(matrix, names)
    order = np.argsort(-values)
    left, right = st.columns([3, 2])
    left.plotly_chart(heatmap(matrix, names, names, title=t("persona.jaccard_figure"), zmin=0, zmax=1),
                      width="stretch")
    with right:
        st.markdown(f"**{t('persona.closest_pairs')}**")
        st.dataframe(pd.DataFrame({t("persona.pair"): [f"{pairs[i][0]} / {pairs[i][1]}" for i in order],
                                   "Jaccard": [number(values[i]) for i in order]}),
                     hide_index=True, width="stretch", height=300)
    top, rest = order[0], values[order[1:]]
    st.markdown(t("persona.jaccard_reading", a=pairs[top][0], b=pairs[top][1], top=values[top],
                  low=rest.min() if len(rest) else values[top], high=rest.max() if len(rest) else values[top]))
    with st.expander(t("common.see_code")):
        st.code(inspect.getsource(text.tokenize) + "\n\n" + inspect.getsource(text.jaccard), language="python")


def _discrimination_section(result, names: list[str]) -> None:
    st.header(t("persona.disc_title"))
    st.markdown(t("persona.disc_intro"))
    low, high = result.accuracy_interval
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric(t("persona.accuracy"), number(result.accuracy),
                  help=t("persona.accuracy_help", correct=result.n_correct, n=result.n_responses))
    top[1].metric(t("persona.chance"), number(result.chance), help=t("persona.chance_help", k=len(names)))
    top[2].metric(t("persona.interval"), t("persona.interval_value", low=low, high=high))
    bottom[0].metric(t("persona.p_binomial"), p_value(result.binomial_p_value), help=t("persona.p_binomial_help"))
    bottom[1].metric(t("persona.p_permutation"), p_value(result.permutation_p_value),
                     help=t("persona.p_permutation_help", n_perm=len(result.permutation_accuracies)))
    st.markdown(t("persona.disc_reading", accuracy=result.accuracy, correct=result.n_correct, n=result.n_responses,
                  chance=result.chance, ratio=result.accuracy / result.chance, low=low, high=high,
                  p_binom=p_value(result.binomial_p_value), p_perm=p_value(result.permutation_p_value),
                  n_perm=len(result.permutation_accuracies)))
    if result.n_empty:
        st.warning(t("persona.empty_rows", n=result.n_empty))
    left, right = st.columns([3, 2])
    left.plotly_chart(heatmap(result.confusion, names, names, title=t("persona.confusion_figure"),
                              x_title=t("persona.predicted"), y_title=t("persona.true_author"), value_format=".0f",
                              colorscale="Oranges"), width="stretch")
    rec = result.recognition
    mutual = {name for m in result.mutual_confusions for name in (m.a, m.b)}
    right.plotly_chart(bars(names, rec.rate, title=t("persona.recognition_figure"),
                            texts=[f"{c}/{n}" for c, n in zip(rec.correct, rec.total)], reference=result.chance,
                            reference_label=t("persona.chance"), value_range=(0, 1),
                            highlight=[n in mutual for n in names]), width="stretch")
    if result.mutual_confusions:
        for m in result.mutual_confusions:
            st.warning(t("persona.mutual", a=m.a, b=m.b, ab=m.a_as_b, ba=m.b_as_a))
    else:
        st.success(t("persona.no_mutual"))
    with st.expander(t("common.see_code")):
        st.code("\n\n".join(inspect.getsource(f) for f in (text.tfidf_matrix, persona.leave_one_out_nearest_centroid)),
                language="python")


def _exercises_1_2(result, catalogue: Catalogue) -> None:
    st.header(t("persona.ex1_title"))
    pair = result.most_confused_pair
    if pair is None:
        st.success(t("persona.ex1_none"))
    else:
        st.markdown(t("persona.ex1_answer", a=pair[0], b=pair[1], count=pair[2]))
    st.header(t("persona.ex2_title"))
    scores = np.asarray(result.accuracy_per_probe, dtype=float)
    labels = [f"{i + 1}. {p[:45]}" for i, p in enumerate(catalogue.probes)]
    finite = np.isfinite(scores)
    st.plotly_chart(bars(labels, np.nan_to_num(scores), title=t("persona.ex2_figure"),
                         texts=[number(s) if np.isfinite(s) else "—" for s in scores], reference=result.chance,
                         reference_label=t("persona.chance"), value_range=(0, 1)), width="stretch")
    if finite.any():
        best, worst = np.nanmax(scores), np.nanmin(scores)
        best_ids = [str(i + 1) for i in np.flatnonzero(scores == best)]
        worst_ids = [str(i + 1) for i in np.flatnonzero(scores == worst)]
        key = "persona.ex2_flat" if best == worst else "persona.ex2_answer"
        st.markdown(t(key, best=best, best_ids=", ".join(best_ids), worst=worst, worst_ids=", ".join(worst_ids)))


def _usable(catalogue: Catalogue, responses: dict):
    """Texts, labels and probe indices of every response that is not an error."""
    cells = [(name, i) for name in catalogue.names for i in range(len(catalogue.probes))
             if responses.get((name, i)) is not None and not responses[(name, i)].failed]
    return (tuple(responses[c].text for c in cells), tuple(c[0] for c in cells), tuple(c[1] for c in cells))


def _measure(catalogue: Catalogue, usable: tuple):
    """Discriminability of the usable (texts, labels, probe indices) of a catalogue."""
    return _discriminability(*usable, tuple(catalogue.names), len(catalogue.probes))


def _exercise_3(catalogue: Catalogue, responses: dict, before, model: str, disable_reasoning: bool) -> None:
    st.header(t("persona.ex3_title"))
    st.markdown(t("persona.ex3_intro"))
    names = catalogue.names
    example = catalogue.rewrite_example
    default_name = example[0] if example else (before.most_confused_pair[0] if before.most_confused_pair else names[0])
    name = st.selectbox(t("persona.ex3_assistant"), names, index=names.index(default_name), key="persona_ex3_name")
    suggested = example[1] if example and example[0] == name else catalogue.prompt_of(name)
    prompt_key = f"persona_ex3_prompt_{name}"
    st.session_state.setdefault(prompt_key, suggested)
    new_prompt = st.text_area(t("persona.ex3_prompt"), key=prompt_key, height=150)
    if example and example[0] == name and not current_settings().live:
        st.caption(t("persona.ex3_offline_example"))
    if not new_prompt.strip():
        st.error(t("persona.ex3_empty"))
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
        return
    if any(r is None or r.failed for r in results):
        st.info(t("persona.ex3_waiting"))
        return
    after_responses = dict(responses)
    after_responses.update({(c.assistant, c.probe_index): r for c, r in zip(cells, results)})
    try:
        after = _measure(catalogue, _usable(catalogue, after_responses))
    except persona.PersonaDataError as exc:
        st.error(t("persona.cannot_measure", error=str(exc)))
        return
    columns = st.columns(2)
    for column, label, result in ((columns[0], t("persona.before"), before), (columns[1], t("persona.after"), after)):
        with column:
            st.metric(f"{t('persona.accuracy')} · {label}", number(result.accuracy),
                      delta=None if result is before else number(after.accuracy - before.accuracy, "+.2f"))
            st.plotly_chart(heatmap(result.confusion, names, names, title=label, value_format=".0f",
                                    colorscale="Oranges", x_title=t("persona.predicted"),
                                    y_title=t("persona.true_author")), width="stretch", key=f"persona_ex3_{label}")
    pair = before.most_confused_pair
    if pair is not None:
        i, j = names.index(pair[0]), names.index(pair[1])
        cell_before = int(before.confusion[i, j] + before.confusion[j, i])
        cell_after = int(after.confusion[i, j] + after.confusion[j, i])
        if after.accuracy > before.accuracy and cell_after > 0:
            st.warning(t("persona.ex3_moved", a=pair[0], b=pair[1], before=cell_before, after=cell_after))
        elif after.accuracy > before.accuracy:
            st.success(t("persona.ex3_fixed", a=pair[0], b=pair[1], before=cell_before,
                         acc_before=before.accuracy, acc_after=after.accuracy))
        else:
            st.info(t("persona.ex3_no_gain", acc_before=before.accuracy, acc_after=after.accuracy))


def _prompts_vs_responses(catalogue: Catalogue, texts, labels) -> None:
    st.header(t("persona.ranks_title"))
    st.markdown(t("persona.ranks_intro"))
    names = catalogue.names
    X, _ = text.tfidf_matrix(texts)
    pairs, d_responses = persona.pairwise(persona.centroid_distances(X, labels, names), names)
    _, d_prompts = persona.pairwise(persona.prompt_distances([catalogue.prompt_of(n) for n in names]), names)
    comparison = persona.rank_comparison(pairs, d_prompts, d_responses)
    table = comparison.table.sort_values("rank_prompts")
    pair_names = [f"{a} / {b}" for a, b in zip(table["a"], table["b"])]
    with st.expander(t("persona.ranks_table"), expanded=False):
        st.dataframe(pd.DataFrame({t("persona.pair"): pair_names,
                                   t("persona.d_prompts"): [number(d) for d in table["d_prompts"]],
                                   t("persona.d_responses"): [number(d) for d in table["d_responses"]],
                                   t("persona.ranks"): [f"{p} → {r}" for p, r in zip(table["rank_prompts"],
                                                                                     table["rank_responses"])]}),
                     hide_index=True, width="stretch", height=min(560, 40 + 35 * len(table)))
    st.plotly_chart(slope_chart(pair_names, table["rank_prompts"], table["rank_responses"],
                                   title=t("persona.slope_figure"), left_title=t("persona.rank_prompts"),
                                   right_title=t("persona.rank_responses")), width="stretch")
    if np.isfinite(comparison.spearman_rho):
        st.markdown(t("persona.ranks_reading", changed=comparison.n_changed, n=comparison.n_pairs,
                      rho=comparison.spearman_rho, p=comparison.spearman_p_value))
    else:
        st.markdown(t("persona.ranks_reading_no_rho", changed=comparison.n_changed, n=comparison.n_pairs))
    closest = table.sort_values("d_responses").iloc[0]
    st.markdown(t("persona.ranks_closest", a=closest["a"], b=closest["b"], dr=closest["d_responses"],
                  dp=closest["d_prompts"], rp=int(closest["rank_prompts"]), n=comparison.n_pairs))


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
    model = st.text_input(t("persona.embedding_model"), key="persona_embedding_model",
                          placeholder="nomic-embed-text")
    if not model.strip():
        return
    request = EmbeddingRequest(model.strip(), tuple(texts))
    [result] = collection_panel([request], set_name=SET_NAME, key="persona_embed",
                                labels=[t("persona.embedding_label", n=len(texts))])
    if result is None or result.failed:
        return
    try:
        semantic = _discriminability_vectors(result.vectors, labels, probes, tuple(catalogue.names),
                                             len(catalogue.probes))
    except persona.PersonaDataError as exc:
        st.error(t("persona.cannot_measure", error=str(exc)))
        return
    columns = st.columns(2)
    for column, label, res in ((columns[0], "TF-IDF", tfidf_result), (columns[1], t("persona.embeddings"), semantic)):
        with column:
            st.metric(f"{t('persona.accuracy')} · {label}", number(res.accuracy))
            st.plotly_chart(heatmap(res.confusion, catalogue.names, catalogue.names, title=label, value_format=".0f",
                                    colorscale="Oranges"), width="stretch", key=f"persona_sem_{label}")


# ---------------------------------------------------------------- page

st.title(t("persona.title"))
st.markdown(t("persona.intro"))

st.header(t("persona.catalogue_title"))
catalogue, problem = _editors()
_catalogue_tools(catalogue)
if catalogue is None:
    st.error(t("persona.invalid", error=problem))
    st.stop()

settings = current_settings()
if settings.live:
    model = settings.model
    disable_reasoning = settings.config.kind == "openai" and st.toggle(
        t("persona.disable_reasoning"), value=True, key="persona_no_thinking", help=t("persona.disable_reasoning_help"))
else:  # replayed as the recorded source chosen below asked them (its model and options): ui/sources.py
    model, disable_reasoning = AUTHORED_MODEL, True

st.header(t("persona.collect_title"))
st.caption(t("persona.collect_params", n=len(catalogue.names) * len(catalogue.probes)))
cells = build_requests(catalogue, model, disable_reasoning=disable_reasoning)
if not settings.live:
    recorded_source_choice([c.request for c in cells], set_name=SET_NAME, key="persona")
results = collection_panel([c.request for c in cells], set_name=SET_NAME, key="persona_grid",
                           labels=[f"{c.assistant} / {t('persona.probe')} {c.probe_index + 1}" for c in cells])
responses = {(c.assistant, c.probe_index): r for c, r in zip(cells, results) if r is not None}
per_assistant = pd.DataFrame([
    {t("persona.assistant"): name,
     t("persona.collected"): sum(1 for i in range(len(catalogue.probes)) if (name, i) in responses
                                 and not responses[(name, i)].failed),
     t("persona.empty"): sum(1 for i in range(len(catalogue.probes)) if (name, i) in responses
                             and responses[(name, i)].status == "empty")}
    for name in catalogue.names])
st.dataframe(per_assistant, hide_index=True)

_read_first(catalogue, responses)
texts, labels, probes = _usable(catalogue, responses)
too_few = [f"{name} ({labels.count(name)})" for name in catalogue.names if labels.count(name) < 2]
if too_few:
    st.error(t("persona.too_few", names=", ".join(too_few)))
    st.stop()
try:
    result = _measure(catalogue, (texts, labels, probes))
except persona.PersonaDataError as exc:
    st.error(t("persona.cannot_measure", error=str(exc)))
    st.stop()
_jaccard(catalogue, texts, labels)
_discrimination_section(result, catalogue.names)
_exercises_1_2(result, catalogue)
_exercise_3(catalogue, responses, result, model, disable_reasoning)
_prompts_vs_responses(catalogue, texts, labels)
_semantic(catalogue, texts, labels, probes, result)
st.divider()
st.caption(t("persona.limits"))

"""Persona audit: do assistants with different system prompts really answer differently? (issue 3, seed 000)"""

from __future__ import annotations

import inspect
import json

import numpy as np
import pandas as pd
import streamlit as st

from evallib import persona, persona_readings as readings, text
from evallib.llm import EmbeddingRequest
from evallib.persona_catalogue import (AUTHORED_MODEL, DEFAULT_CATALOGUE, Catalogue, CatalogueError, build_requests,
                                       load_catalogue, validate_catalogue)
from ui.collection import collection_panel, source_badge
from ui.figures import bars, heatmap, slope_chart
from ui.i18n import language, number, p_value, t
from ui.settings import current_settings
from ui.shell import require_navigation

require_navigation()

SET_NAME = "persona"
VERSION_KEY = "persona_editor_version"
SOURCE_KEY = "persona_source"
EDITED_KEY = "persona_edited"


# ---------------------------------------------------------------- catalogue editing

@st.cache_data(show_spinner=False)
def _default_catalogue() -> Catalogue:
    return load_catalogue(DEFAULT_CATALOGUE)


def _defaults() -> dict:
    return _default_catalogue().to_dict()


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


# ---------------------------------------------------------------- analyses and figures, cached on their inputs

@st.cache_data(show_spinner=False, max_entries=64)
def _audit(texts: tuple, labels: tuple, probes: tuple, prompts: tuple, classes: tuple, n_probes: int):
    return persona.audit(texts, labels, probes, prompts, classes=classes, n_probes=n_probes)


@st.cache_data(show_spinner=False, max_entries=64)
def _discriminability(texts: tuple, labels: tuple, probes: tuple, classes: tuple, n_probes: int):
    return persona.discriminability(texts, labels, probes, classes=classes, n_probes=n_probes)


@st.cache_data(show_spinner=False, max_entries=16)
def _discriminability_vectors(vectors: tuple, labels: tuple, probes: tuple, classes: tuple, n_probes: int):
    return persona.discriminability_from_vectors(np.asarray(vectors), labels, probes, classes=classes,
                                                 n_probes=n_probes)


BUILDERS = {"heatmap": heatmap, "bars": bars, "slope": slope_chart}


@st.cache_data(show_spinner=False, max_entries=128)
def _figure(builder: str, lang: str, *args, **kwargs):
    """A figure built once per data, texts and language (``lang`` keys the decimal mark)."""
    return BUILDERS[builder](*args, **kwargs)


def _chart(container, builder: str, *args, key: str | None = None, **kwargs) -> None:
    container.plotly_chart(_figure(builder, language(), *args, **kwargs), width="stretch", key=key)


def _say(prefix: str, reading: readings.Reading, show=st.markdown) -> None:
    """Translate a reading: p-values in their reported form, every other value as is."""
    values = {k: p_value(v) if k in ("p", "p_binom", "p_perm") else v for k, v in reading.values.items()}
    show(t(f"{prefix}.{reading.code}", **values))


def _confusion_chart(container, result, title: str, key: str | None = None) -> None:
    """The confusion matrix, with a column for the answers that got no prediction when there are any."""
    names = list(result.classes)
    matrix, columns = result.confusion, names
    if result.n_undecided:
        matrix, columns = np.column_stack([matrix, result.undecided]), names + [t("persona.no_prediction")]
    _chart(container, "heatmap", matrix, columns, names, key=key, title=title, x_title=t("persona.predicted"),
           y_title=t("persona.true_author"), value_format=".0f", colorscale="Oranges")


# ---------------------------------------------------------------- sections

def _read_first(catalogue: Catalogue, responses: dict) -> None:
    st.header(t("persona.read_title"))
    pair = readings.read_first_pair(catalogue, _default_catalogue())
    _say("persona.read_intro", pair)
    names = catalogue.names
    columns = st.columns([1, 1, 2])
    a = columns[0].selectbox(t("persona.assistant_a"), names, index=names.index(pair.values["a"]), key="persona_read_a")
    b = columns[1].selectbox(t("persona.assistant_b"), names, index=names.index(pair.values["b"]), key="persona_read_b")
    probe = columns[2].selectbox(t("persona.probe"), range(len(catalogue.probes)), key="persona_read_probe",
                                 format_func=lambda i: f"{i + 1}. {catalogue.probes[i][:80]}")
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
    _chart(left, "heatmap", audit.jaccard, names, names, title=t("persona.jaccard_figure"), zmin=0, zmax=1)
    with right:
        st.markdown(f"**{t('persona.closest_pairs')}**")
        st.dataframe(pd.DataFrame({t("persona.pair"): [f"{pairs[i][0]} / {pairs[i][1]}" for i in order],
                                   "Jaccard": [number(values[i]) for i in order]}),
                     hide_index=True, width="stretch", height=300)
    _say("persona.jaccard", readings.closest_vocabularies(audit.jaccard, names))
    st.markdown(t("persona.jaccard_caveat"))
    with st.expander(t("common.see_code")):
        st.code(inspect.getsource(text.tokenize) + "\n\n" + inspect.getsource(text.jaccard), language="python")


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
    bottom[1].metric(t("persona.p_binomial"), p_value(result.binomial_p_value), help=t("persona.p_binomial_help"))
    if result.permutation_p_value is not None:
        bottom[2].metric(t("persona.p_permutation"), p_value(result.permutation_p_value),
                         help=t("persona.p_permutation_help", n_perm=len(result.permutation_accuracies)))
    _say("persona.disc", readings.discrimination(result))
    _say("persona.interval_reading", readings.accuracy_interval(result), st.caption)
    undecided = readings.undecided(result)
    if undecided:
        _say("persona", undecided, st.warning)
    left, right = st.columns([3, 2])
    _confusion_chart(left, result, t("persona.confusion_figure"))
    rec, names = result.recognition, list(result.classes)
    mutual = {name for m in result.mutual_confusions for name in (m.a, m.b)}
    _chart(right, "bars", names, rec.rate, title=t("persona.recognition_figure"),
           texts=[f"{c}/{n}" for c, n in zip(rec.correct, rec.total)], reference=result.chance,
           reference_label=t("persona.chance"), value_range=(0, 1), highlight=[n in mutual for n in names])
    shows = {"mutual_redundancy": st.warning, "mutual_swap": st.info, "no_mutual": st.success, "no_prediction": st.info}
    for reading in readings.confusions(result):
        _say("persona.confusion", reading, shows[reading.code])
    with st.expander(t("common.see_code")):
        st.code("\n\n".join(inspect.getsource(f) for f in (text.tfidf_matrix, persona.leave_one_out_nearest_centroid)),
                language="python")


def _exercises_1_2(result, catalogue: Catalogue) -> None:
    st.header(t("persona.ex1_title"))
    _say("persona.ex1", readings.pair_to_merge(result))
    st.header(t("persona.ex2_title"))
    scores = np.asarray(result.accuracy_per_probe, dtype=float)
    labels = [f"{i + 1}. {p[:45]}" for i, p in enumerate(catalogue.probes)]
    _chart(st, "bars", labels, np.nan_to_num(scores), title=t("persona.ex2_figure"),
           texts=[number(s) if np.isfinite(s) else "—" for s in scores], reference=result.chance,
           reference_label=t("persona.chance"), value_range=(0, 1))
    _say("persona.ex2", readings.probes(result))


def _usable(catalogue: Catalogue, responses: dict, names: list[str]):
    """Texts, labels and probe indices of every response of ``names`` that is not an error."""
    cells = [(name, i) for name in names for i in range(len(catalogue.probes))
             if responses.get((name, i)) is not None and not responses[(name, i)].failed]
    return (tuple(responses[c].text for c in cells), tuple(c[0] for c in cells), tuple(c[1] for c in cells))


def _restore_rewrite(key: str, prompt: str) -> None:
    st.session_state[key] = prompt


def _exercise_3(catalogue: Catalogue, responses: dict, before, model: str, disable_reasoning: bool) -> None:
    st.header(t("persona.ex3_title"))
    st.markdown(t("persona.ex3_intro"))
    names = list(before.classes)
    example = catalogue.rewrite_example if catalogue.rewrite_example and catalogue.rewrite_example[0] in names else None
    involved = [p[0] for p in before.most_confused_pairs]
    default_name = example[0] if example else (involved[0] if involved else names[0])
    name = st.selectbox(t("persona.ex3_assistant"), names, index=names.index(default_name), key="persona_ex3_name")
    suggested = example[1] if example and example[0] == name else catalogue.prompt_of(name)
    prompt_key = f"persona_ex3_prompt_{name}"
    st.session_state.setdefault(prompt_key, suggested)
    new_prompt = st.text_area(t("persona.ex3_prompt"), key=prompt_key, height=150)
    if example and example[0] == name and not current_settings().live:
        st.caption(t("persona.ex3_offline_example"))
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
        after = _discriminability(*_usable(catalogue, after_responses, names), tuple(names), len(catalogue.probes))
    except persona.PersonaDataError as exc:
        st.warning(t(f"persona.data_error.{exc.code}"))
        return
    columns = st.columns(2)
    for column, label, result in ((columns[0], t("persona.before"), before), (columns[1], t("persona.after"), after)):
        column.metric(f"{t('persona.accuracy')} · {label}", number(result.accuracy),
                      delta=None if result is before else number(after.accuracy - before.accuracy, "+.2f"))
        _confusion_chart(column, result, label, key=f"persona_ex3_{label}")
    _say("persona.ex3", readings.rewrite(before, after, name))


def _prompts_vs_responses(audit) -> None:
    st.header(t("persona.ranks_title"))
    st.markdown(t("persona.ranks_intro"))
    comparison = audit.ranks
    table = comparison.table.sort_values("rank_prompts", kind="stable")
    pair_names = [f"{a} / {b}" for a, b in zip(table["a"], table["b"])]
    with st.expander(t("persona.ranks_table"), expanded=False):
        st.dataframe(pd.DataFrame({t("persona.pair"): pair_names,
                                   t("persona.d_prompts"): [number(d) for d in table["d_prompts"]],
                                   t("persona.d_responses"): [number(d) for d in table["d_responses"]],
                                   t("persona.ranks"): [f"{p} → {r}" for p, r in zip(table["rank_prompts"],
                                                                                     table["rank_responses"])]}),
                     hide_index=True, width="stretch", height=min(560, 40 + 35 * len(table)))
    _chart(st, "slope", pair_names, tuple(table["rank_prompts"]), tuple(table["rank_responses"]),
           title=t("persona.slope_figure"), left_title=t("persona.rank_prompts"), right_title=t("persona.rank_responses"))
    for reading in readings.ranks(comparison):
        _say("persona.ranks", reading)


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
        semantic = _discriminability_vectors(result.vectors, labels, probes, tfidf_result.classes,
                                             len(catalogue.probes))
    except persona.PersonaDataError as exc:
        st.warning(t(f"persona.data_error.{exc.code}"))
        return
    columns = st.columns(2)
    for column, label, res in ((columns[0], "TF-IDF", tfidf_result), (columns[1], t("persona.embeddings"), semantic)):
        column.metric(f"{t('persona.accuracy')} · {label}", number(res.accuracy))
        _confusion_chart(column, res, label, key=f"persona_sem_{label}")


def _restore_prompt(name: str) -> None:
    edited = st.session_state[EDITED_KEY]
    for assistant in edited["assistants"]:
        if assistant["name"] == name:
            assistant["system_prompt"] = _default_catalogue().prompt_of(name)
    _set_source(edited)


def _unmeasured(catalogue: Catalogue, responses: dict, names: list[str], live: bool) -> None:
    """Say which assistants are left out of the measure and why; offer to restore a shipped prompt."""
    default = _default_catalogue()
    for name in names:
        cells = [responses.get((name, i)) for i in range(len(catalogue.probes))]
        unrecorded = any(r is not None and r.error_kind == "missing_recording" for r in cells)
        shipped = name in default.names and default.prompt_of(name) != catalogue.prompt_of(name)
        if unrecorded and not live:
            st.info(t("persona.needs_live", name=name))
            if shipped:
                st.button(t("persona.restore_prompt", name=name), key=f"persona_restore_{name}",
                          on_click=_restore_prompt, args=(name,))
        else:
            st.info(t("persona.too_few_one", name=name, n=sum(1 for r in cells if r is not None and not r.failed)))


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
else:
    model, disable_reasoning = AUTHORED_MODEL, True

st.header(t("persona.collect_title"))
cells = build_requests(catalogue, model, disable_reasoning=disable_reasoning)
sample = cells[0].request
st.caption(t("persona.collect_params", n=len(cells), temperature=float(sample.temperature), seed=sample.seed,
             max_tokens=sample.max_tokens))
if settings.live and settings.config.kind == "anthropic":
    st.caption(t("persona.seed_not_sent"))
results = collection_panel([c.request for c in cells], set_name=SET_NAME, key="persona_grid",
                           labels=[f"{c.assistant} / {t('persona.probe')} {c.probe_index + 1}" for c in cells])
responses = {(c.assistant, c.probe_index): r for c, r in zip(cells, results) if r is not None}
usable_counts = {name: sum(1 for i in range(len(catalogue.probes)) if (name, i) in responses
                           and not responses[(name, i)].failed) for name in catalogue.names}
st.dataframe(pd.DataFrame([{t("persona.assistant"): name, t("persona.collected"): usable_counts[name],
                            t("persona.empty"): sum(1 for i in range(len(catalogue.probes)) if (name, i) in responses
                                                    and responses[(name, i)].status == "empty")}
                           for name in catalogue.names]), hide_index=True)

_read_first(catalogue, responses)
measured = [name for name in catalogue.names if usable_counts[name] >= 2]
_unmeasured(catalogue, responses, [n for n in catalogue.names if n not in measured], settings.live)
if len(measured) < 2:
    st.info(t("persona.no_measure_yet", n=len(measured)))
    st.stop()
texts, labels, probes = _usable(catalogue, responses, measured)
for banner in readings.identical_answers(texts, labels, measured):
    _say("persona.identical", banner, st.warning)
try:
    audit = _audit(texts, labels, probes, tuple(catalogue.prompt_of(n) for n in measured), tuple(measured),
                   len(catalogue.probes))
except persona.PersonaDataError as exc:
    st.warning(t(f"persona.data_error.{exc.code}"))
    st.stop()
result = audit.discriminability
_jaccard(audit)
_discrimination_section(result)
_exercises_1_2(result, catalogue)
_exercise_3(catalogue, responses, result, model, disable_reasoning)
_prompts_vs_responses(audit)
_semantic(catalogue, texts, labels, probes, result)
st.divider()
st.caption(t("persona.limits", n_probes=len(catalogue.probes)))

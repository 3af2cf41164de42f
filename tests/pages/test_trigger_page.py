"""The trigger page offline (and live against the fake server): the figures shown are evallib's."""

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from evallib.llm import ChatResult, Recordings
from evallib.stats import exact_upper_after_zero
from evallib.triggering.authored import rewrite_example
from evallib.triggering.comparison import mcnemar_exact, paired_correctness
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.readings import sweep_reading
from evallib.triggering.report import decide_all, evaluate
from evallib.triggering.routing import build_requests
from evallib.triggering.similarity import (EMBEDDING_TABLE_THRESHOLDS, SWEEP_THRESHOLDS, TABLE_THRESHOLDS,
                                           baseline_table, embedding_scores, expected_indices, similarity_scores,
                                           threshold_sweep)
from tests.fake_llm_server import FakeLLMServer
from tests.pages.shown_tables import results_tables
from ui.collection import OFFLINE_FINGERPRINT
from ui.labels import md
from ui.i18n import catalogue
TEXTS = catalogue()

PAGE = "pages/trigger.py"
ROOT = Path(__file__).resolve().parents[2]
RECORDINGS = ROOT / "packs" / "fr" / "recordings"
STRONG, LIGHT = "authored-example-strong-router", "authored-example-light-router"
NBSP = "\u00a0"
KEY = "sk-trigger-page-test"


def fr(value: float, spec: str = ".2f") -> str:
    return format(value, spec).replace(".", ",").replace("-", "\u2212")


def fr_percent(share: float) -> str:
    return fr(100 * share, ".1f") + NBSP + "%"


def cell(rate) -> str:
    """A rate as the French page writes it: value [low ; high] (k/n)."""
    return f"{fr(rate.value)} [{fr(rate.low)}{NBSP};{NBSP}{fr(rate.high)}] ({rate.k}/{rate.n})"


def decision_cell(rate) -> str:
    """The interval per decision as the French page writes it: [low ; high]."""
    return f"[{fr(rate.decision_low)}{NBSP};{NBSP}{fr(rate.decision_high)}]"


def rate_column(title: str, lang: str = "fr") -> str:
    return TEXTS["trigger.col.rate"][lang].format(title=title)


def decision_column(title: str, lang: str = "fr") -> str:
    return TEXTS["trigger.col.per_decision"][lang].format(title=title)


ALL = rate_column("toutes les requêtes")


def _data():
    catalogue = load_skills()
    return catalogue, load_queries(catalogue)


def _source_id(model: str) -> str:
    catalogue, queries = _data()
    sources = Recordings(RECORDINGS).sources([c.request for c in build_requests(catalogue, queries, model)])
    return next(s.id for s in sources if s.model == model)


def _recorded(model: str):
    catalogue, queries = _data()
    cells = build_requests(catalogue, queries, model)
    store = Recordings(RECORDINGS)
    results = [store.get(c.request.key()).result for c in cells]
    return cells, results, evaluate(decide_all(cells, results, queries, catalogue.names), catalogue, queries)


def _table(at, column: str):
    return next(table for table in results_tables(at) if column in table.columns)


def _text(at) -> str:
    return " ".join(m.value for m in [*at.markdown, *at.info, *at.success, *at.warning, *at.caption])


@pytest.mark.parametrize("model", [STRONG, LIGHT])
def test_page_shows_the_figures_evallib_computes_on_the_recordings(open_page, model):
    _, _, report = _recorded(model)
    at = open_page(PAGE, trigger_recorded_source=_source_id(model))
    assert not at.exception and not at.error
    assert any(md(model, None) in c.value for c in at.caption), "the replayed model is named"
    every = rate_column("toutes les requêtes")
    table = _table(at, every)
    for name, label in (("accuracy", "exactitude"), ("recall", "rappel"), ("precision", "précision"),
                        ("false_activation_rate", "activations à tort (négatifs)")):
        assert table.loc[label, every] == cell(getattr(report.metrics, name))
        assert table.loc[label, decision_column("toutes les requêtes")] == decision_cell(getattr(report.metrics, name))
        held = _table(at, rate_column("mises de côté"))
        assert held.loc[label, rate_column("visibles")] == cell(getattr(report.visible, name))
        assert held.loc[label, rate_column("mises de côté")] == cell(getattr(report.held_out, name))
        assert held.loc[label, decision_column("mises de côté")] == decision_cell(getattr(report.held_out, name))
    assert table.loc["décisions notées", every] == f"{report.metrics.n} sur {report.metrics.total}"
    assert "**unité est la requête**" in TEXTS["trigger.metrics_intro_clustered"]["fr"]
    assert any("l'unité est la requête" in m.value.replace("*", "") for m in at.markdown)
    statuses = dict(zip(*_table(at, "Statut").T.values))
    assert statuses["un skill du catalogue"] == str(sum(r.decision.status == "skill" for r in report.rows))
    assert statuses["nom inconnu (activation fautive)"] == str(report.metrics.invalid_names)
    text = _text(at)
    for m in report.misroutes:
        assert (f"attendu {md(m.expected or 'none', None)} -> obtenu {md(m.obtained or 'none', None)}{NBSP}: "
                f"{md(m.query, None)} (passage {m.run + 1})") in text
    assert (f"{len(report.misroutes)} décisions fausses" in text) == bool(report.misroutes)
    assert ("Aucune erreur de routage" in text) == (not report.misroutes)
    [confusion] = [c for c in at.get("plotly_chart") if "Attendu (lignes)" in c.proto.spec]
    shown = json.loads(confusion.proto.spec)["data"][0]["text"]
    assert shown == [[str(v) for v in row] for row in report.confusion.counts.tolist()]
    # The similarity baseline at the four thresholds, and the sweep's reading.
    catalogue, queries = _data()
    baseline = _table(at, rate_column("seuil 0,05"))
    for threshold, metrics in baseline_table(queries, catalogue):
        assert baseline.loc["exactitude", rate_column(f"seuil {fr(threshold)}")] == cell(metrics.accuracy)
    reading = sweep_reading(threshold_sweep(similarity_scores(catalogue, queries),
                                            expected_indices(queries, catalogue), SWEEP_THRESHOLDS))
    # The default set: the best accuracy is reached by one run of the sweep's thresholds (not rounded).
    assert reading.code == "sweep_tie"
    assert (reading.values["low"], reading.values["high"]) == (0.0875, 0.1075)
    assert (f"atteinte par {reading.values['count']} seuils de {fr(reading.values['low'], '.4f')} à "
            f"{fr(reading.values['high'], '.4f')}") in text


def test_the_two_recorded_models_differ_as_the_demo_needs():
    _, _, strong = _recorded(STRONG)
    _, _, light = _recorded(LIGHT)
    assert strong.metrics.accuracy.value == 1.0
    near_calculation = [m for m in light.misroutes if m.expected is None and m.obtained == "leave-balance-calculator"]
    assert near_calculation, "the lighter model false-triggers on an action request near the calculator"


def test_perfect_score_reading_gives_the_exact_bound_per_query_never_three_over_n(open_page):
    _, _, report = _recorded(STRONG)
    at = open_page(PAGE, trigger_recorded_source=_source_id(STRONG))
    n, queries = report.metrics.n, report.per_query.n
    [info] = [i.value for i in at.info if "Score parfait" in i.value]
    assert f"Score parfait sur {n} décisions" in info
    assert f"le limite à {fr_percent(exact_upper_after_zero(queries))} en comptant les {queries} requêtes" in info
    assert f"par décision, elle dirait {fr_percent(exact_upper_after_zero(n))}" in info
    assert "3/n" not in info
    assert "Aucune erreur de routage" in _text(at)


def _answers(model: str, answer) -> dict:
    """Offline answers of ``model``'s requests, each given by ``answer(cell)``."""
    catalogue, queries = _data()
    return {(c.request.key(), OFFLINE_FINGERPRINT): answer(c) for c in build_requests(catalogue, queries, model)}


def test_all_none_reads_as_such_and_precision_is_undefined_not_zero(open_page):
    answers = _answers(LIGHT, lambda c: ChatResult(request_key=c.request.key(), text="Je réponds moi-même.",
                                                   source="recording", provenance="live"))
    at = open_page(PAGE, trigger_recorded_source=_source_id(LIGHT), answers=answers)
    assert not at.exception
    text = _text(at)
    assert "Rien ne s'est jamais activé, alors que 46 décisions attendaient un skill" in text
    assert "la précision est indéfinie (ni 0 ni 1)" in text
    table = _table(at, ALL)
    assert table.loc["précision", ALL] == "indéfinie : aucune activation".replace(" :", NBSP + ":")
    assert table.loc["rappel", ALL].startswith("0,00 ")


def test_empty_and_errored_answers_are_counted_apart_and_left_out_of_the_metrics(open_page):
    cells, results, _ = _recorded(LIGHT)
    catalogue, queries = _data()
    changed = list(results)
    changed[0] = ChatResult(request_key=cells[0].request.key(), text="", source="recording", provenance="live")
    changed[1] = ChatResult(request_key=cells[1].request.key(), error="boom", error_kind="server",
                            status="error", source="live")
    expected = evaluate(decide_all(cells, changed, queries, catalogue.names), catalogue, queries)
    at = open_page(PAGE, trigger_recorded_source=_source_id(LIGHT),
                   answers={(c.request.key(), OFFLINE_FINGERPRINT): r for c, r in zip(cells, changed)})
    assert not at.exception
    statuses = dict(zip(*_table(at, "Statut").T.values))
    assert statuses["réponse vide"] == "1" and statuses["erreur"] == "1"
    table = _table(at, ALL)
    assert table.loc["décisions notées", ALL] == f"{len(cells) - 2} sur {len(cells)}"
    assert table.loc["exactitude", ALL] == cell(expected.metrics.accuracy)
    assert any("1 réponses vides et 1 erreurs ne sont jamais comptées" in c.value for c in at.caption)


def test_a_query_is_shown_as_text_in_the_error_list(open_page):
    catalogue, queries = _data()
    source = {"skills": catalogue.to_dict(), "queries": {"queries": [q.to_dict() for q in queries]}}
    cells, results, _ = _recorded(LIGHT)
    wrong = next(i for i, q in enumerate(queries) if q.expected is not None)
    source["queries"]["queries"][wrong]["query"] = "**gras** $x$ <b>y</b>"
    edited = load_queries(catalogue, _json(source["queries"]))
    answers = {(c.request.key(), OFFLINE_FINGERPRINT): ChatResult(request_key=c.request.key(), text="rien",
                                                                 source="recording", provenance="live")
               for c in build_requests(catalogue, edited, LIGHT)}
    at = open_page(PAGE, trigger_recorded_source=_source_id(LIGHT), trigger_source=source,
                   trigger_editor_version=1, answers=answers)
    assert not at.exception
    assert any("\\*\\*gras\\*\\* \\$x\\$ \\<b\\>y\\</b\\>" in m.value for m in at.markdown)


def _json(data) -> bytes:
    return json.dumps(data).encode()


@pytest.mark.parametrize("change, message", [
    (lambda s: s["queries"]["queries"][2].update(expected="book-a-flight"),
     "requête 3, champ « attendu » : « book-a-flight » n'est pas un skill du catalogue."),
    (lambda s: s["skills"]["skills"][1].update(description="x" * 1100),
     "skill 2, champ « description » : trop long"),
    (lambda s: s["queries"]["queries"][4].update(id=s["queries"]["queries"][0]["id"]),
     "requête 5, champ « id » : l'identifiant"),
])
def test_bad_data_is_answered_with_the_row_and_field_named(open_page, change, message):
    catalogue, queries = _data()
    source = {"skills": catalogue.to_dict(), "queries": {"queries": [q.to_dict() for q in queries]}}
    change(source)
    at = open_page(PAGE, trigger_source=source, trigger_editor_version=1)
    assert not at.exception
    [error] = [e.value for e in at.error]
    assert message.replace(" :", NBSP + ":").replace("« ", "«" + NBSP).replace(" »", NBSP + "»") in error


def test_held_out_marking_moves_queries_between_the_two_columns(open_page):
    catalogue, queries = _data()
    source = {"skills": catalogue.to_dict(), "queries": {"queries": [dict(q.to_dict(), held_out=False)
                                                                    for q in queries]}}
    at = open_page(PAGE, trigger_recorded_source=_source_id(LIGHT), trigger_source=source, trigger_editor_version=1)
    held = _table(at, rate_column("mises de côté"))
    assert held.loc["exactitude", rate_column("mises de côté")].startswith("indéfinie")
    assert held.loc["exactitude", decision_column("mises de côté")] == "—"
    _, _, report = _recorded(LIGHT)
    assert held.loc["exactitude", rate_column("visibles")] == cell(report.metrics.accuracy)


def test_an_edited_description_offline_says_it_needs_live_mode(open_page):
    catalogue, _ = _data()
    name = catalogue.names[0]
    at = open_page(PAGE, trigger_edit_skill=name, **{f"trigger_edit_description_{name}": "Tout ce qui touche aux congés."})
    assert not at.exception
    assert any("la description retouchée n'a pas d'enregistrement" in i.value for i in at.info)


def test_page_in_english(open_page):
    _, _, report = _recorded(LIGHT)
    at = open_page(PAGE, "en", trigger_recorded_source=_source_id(LIGHT))
    assert not at.exception and not at.error
    column = rate_column("all queries", "en")
    table = _table(at, column)
    rate = report.metrics.accuracy
    assert table.loc["accuracy", column] == f"{rate.value:.2f} [{rate.low:.2f},{NBSP}{rate.high:.2f}] " \
                                            f"({rate.k}/{rate.n})"
    assert table.loc["accuracy", decision_column("all queries", "en")] == \
        f"[{rate.decision_low:.2f},{NBSP}{rate.decision_high:.2f}]"
    assert any("whose **unit is the query**" in m.value for m in at.markdown)
    changed = [c.query_id for c in report.consistency if not c.consistent]
    assert any(m.value == f"{len(changed)} of {len(report.consistency)} queries got different decisions from one "
               f"run to the next: {md(', '.join(changed), None)}." for m in at.markdown)
    first = report.misroutes[0]
    assert any(f"expected {md(first.expected or 'none', None)} -> got {md(first.obtained or 'none', None)}: "
               f"{md(first.query, None)} (run {first.run + 1})" in m.value for m in at.markdown)


def test_live_against_the_fake_server_collects_n_runs_and_compares_an_edit():
    # The page run on its own (no sidebar): through app.py, AppTest loses button clicks in live mode.
    with FakeLLMServer(api_key=KEY) as server:
        at = _live_page(server)
        at.run()
        assert not at.exception
        assert at.number_input(key="trigger_runs").value == 2
        at.button(key="trigger_routing_collect").click().run()
        assert not at.exception
        catalogue, queries = _data()
        assert len(server.requests) == 2 * len(queries)
        # fake-tools always calls the first tool: every decision fires the first skill.
        table = _table(at, ALL)
        first, positives = (sum(q.expected == catalogue.names[0] for q in queries),
                            sum(q.expected is not None for q in queries))
        assert table.loc["rappel", ALL].endswith(f"({2 * first}/{2 * positives})")
        name = catalogue.names[1]
        at.session_state[f"trigger_edit_description_{name}"] = "Une autre description."
        at.selectbox(key="trigger_edit_skill").set_value(name).run()
        at.button(key="trigger_after_collect").click().run()
        assert not at.exception
        assert len(server.requests) == 4 * len(queries)
    assert f"Aucune des {len(queries)} requêtes n'a changé de verdict" in _text(at)


def test_the_two_authored_models_are_told_apart_in_the_offline_choice(open_page):
    at = open_page(PAGE)
    options = at.selectbox(key="_trigger_recorded_source_fr").options
    assert len(options) == 2
    assert {next(m for m in (STRONG, LIGHT) if m in option) for option in options} == {STRONG, LIGHT}


def test_the_sweep_draws_four_lines_apart_with_the_four_thresholds_marked(open_page):
    at = open_page(PAGE)
    [sweep] = [c for c in at.get("plotly_chart") if "Les quatre taux selon le seuil" in c.proto.spec]
    spec = json.loads(sweep.proto.spec)
    assert len({json.dumps(trace["line"], sort_keys=True) for trace in spec["data"]}) == 4
    marked = sorted(shape["x0"] for shape in spec["layout"]["shapes"])
    assert marked == sorted(TABLE_THRESHOLDS)


def _live_page(server) -> AppTest:
    at = AppTest.from_file(str(ROOT / PAGE), default_timeout=120)
    for name, value in dict(lang="fr", llm_mode="live", llm_base_url=server.openai_base_url,
                            llm_model="fake-tools", llm_api_key=KEY, llm_use_cache=False).items():
        at.session_state[name] = value
    return at


def test_live_the_baseline_is_also_computed_on_embeddings(open_page):
    offline = open_page(PAGE)
    assert any("TF-IDF seulement" in c.value for c in offline.caption)
    catalogue, queries = _data()
    with FakeLLMServer(api_key=KEY) as server:
        at = _live_page(server)
        at.session_state["trigger_embedding_model"] = "fake-embed"
        at.run()
        at.button(key="trigger_routing_collect").click().run()
        at.button(key="trigger_embed_collect").click().run()
        assert not at.exception
    [embedding] = [r for r in at.session_state["answers"].values() if getattr(r, "vectors", None)]
    k = len(catalogue.skills)
    scores = embedding_scores(np.asarray(embedding.vectors[:k]), np.asarray(embedding.vectors[k:]))
    table = _table(at, rate_column("seuil 0,30"))
    for threshold, metrics in baseline_table(queries, catalogue, EMBEDDING_TABLE_THRESHOLDS, scores=scores):
        assert table.loc["exactitude", rate_column(f"seuil {fr(threshold)}")] == cell(metrics.accuracy)
    assert not any("TF-IDF seulement" in c.value for c in at.caption)


def _upload_script():
    import streamlit as st

    from ui.trigger import editor as trigger_editor

    class Upload:  # what st.file_uploader hands over: a name and the bytes
        name = "mes_requetes.json"

        def getvalue(self):
            return st.session_state["raw"]

    st.session_state.setdefault(trigger_editor.SOURCE_KEY, trigger_editor.default_data())
    st.session_state["trigger_upload_queries"] = Upload()
    trigger_editor._on_upload("queries")
    st.text(st.session_state[trigger_editor.UPLOAD_ERROR_KEY] or "accepted")
    st.text(str(len(st.session_state[trigger_editor.SOURCE_KEY]["queries"]["queries"])))


@pytest.mark.parametrize("raw, message", [
    (b'{"queries": [\n{"id": "a",}]}', "Fichier « mes_requetes.json » refusé : ce n'est pas du JSON valide (ligne 2)."),
    (b'{"queries": [{"id": "a", "query": "x", "expected": null}, {"id": "b", "expected": null}]}',
     "refusé : requête 2, champ « requête » : manquant."),
    (b'{"queries": [{"id": "a", "query": "x", "expected": "nope"}]}',
     "requête 1, champ « attendu » : « nope » n'est pas un skill du catalogue."),
    (b'{"queries": [{"id": "a", "query": "x", "expected": null, "held_out": true}]}', "accepted"),
])
def test_an_uploaded_query_file_is_refused_with_the_row_and_field_named(raw, message):
    at = AppTest.from_function(_upload_script, default_timeout=60)
    at.session_state["raw"] = raw
    at.run()
    assert not at.exception
    french = message.replace(" :", NBSP + ":").replace("« ", "«" + NBSP).replace(" »", NBSP + "»")
    assert at.text[0].value.endswith(french) if message != "accepted" else at.text[0].value == "accepted"
    assert at.text[1].value == ("1" if message == "accepted" else str(len(_data()[1])))


@pytest.mark.parametrize("model, reading", [
    (LIGHT, "requêtes se dégradent, 2 s'améliorent"),
    (STRONG, "Aucune des 38 requêtes n'a changé de verdict"),
])
def test_offline_the_suggested_rewrite_gives_before_after_with_mcnemar(open_page, model, reading):
    skill, description = rewrite_example()
    at = open_page(PAGE, trigger_recorded_source=_source_id(model), trigger_edit_skill=skill)
    at.button(key="trigger_edit_example").click().run()
    assert not at.exception
    assert at.text_area(key=f"trigger_edit_description_{skill}").value == description
    catalogue, queries = _data()
    cells, results, before = _recorded(model)
    edited = catalogue.with_description(skill, description)
    after_cells = build_requests(edited, queries, model)
    store = Recordings(RECORDINGS)
    after = evaluate(decide_all(after_cells, [store.get(c.request.key()).result for c in after_cells], queries,
                                edited.names), edited, queries)
    table = _table(at, rate_column("après"))
    assert table.loc["exactitude", rate_column("avant")] == cell(before.metrics.accuracy)
    assert table.loc["exactitude", rate_column("après")] == cell(after.metrics.accuracy)
    result = mcnemar_exact(*paired_correctness(before.rows, after.rows)[1:])
    assert reading in _text(at)
    if model == LIGHT:
        assert (result.b, result.c) == (0, 2)
        assert f"p = {fr(result.p_value, '.3f')}" in _text(at) and "moins de 6 requêtes" in _text(at)


@pytest.mark.parametrize("lang, nothing, no_error", [
    ("fr", "Rien n'a été routé : aucune des", "Aucune erreur de routage"),
    ("en", "Nothing was routed: none of the", "No routing error"),
])
def test_when_every_answer_failed_nothing_was_routed_and_no_error_is_claimed(open_page, lang, nothing, no_error):
    cells, _, _ = _recorded(LIGHT)
    failed = {(c.request.key(), OFFLINE_FINGERPRINT): ChatResult(request_key=c.request.key(), error="boom",
                                                                 error_kind="server", status="error", source="live")
              for c in cells}
    at = open_page(PAGE, lang=lang, trigger_recorded_source=_source_id(LIGHT), answers=failed)
    assert not at.exception
    shown = _text(at).replace(NBSP, " ").replace("\u202f", " ")
    assert nothing in shown and no_error not in shown


def test_answers_never_recorded_are_not_errors_and_the_answers_are_badged(open_page):
    cells, results, _ = _recorded(LIGHT)
    unrecorded = {(c.request.key(), OFFLINE_FINGERPRINT): ChatResult(
        request_key=c.request.key(), status="error", error_kind="missing_recording", error="no recording",
        source="recording") for c in cells[:3]}
    at = open_page(PAGE, trigger_recorded_source=_source_id(LIGHT), answers=unrecorded)
    assert not at.exception and not at.error
    statuses = dict(zip(*_table(at, "Statut").T.values))
    assert statuses["erreur"] == "0"
    shown = _text(at).replace(NBSP, " ")
    assert "Réponses : :orange-badge[rédigé]" in shown
    assert "3 requêtes n'ont pas d'enregistrement" in shown and "comptent comme erreurs" not in shown

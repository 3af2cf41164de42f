"""The judge page offline: the figures shown equal what evallib computes on the recordings; readings
shown on the values that trigger them; bad input answered with a message; the live path against the
fake server keeps every case in the session as it arrives."""

import json

import pytest

from evallib.judging import analyses as an
from evallib.judging.authored import authored_settings
from evallib.judging.biases import injection_effect
from evallib.judging.data import load_cases
from evallib.judging.pipeline import JudgeConfig, run_pipeline
from evallib.judging.rubric import default_rubric
from evallib.judging.templates import default_templates
from evallib.llm import Recordings, provider_for_mode
from evallib.llm.recordings import SHIPPED_DIR
from tests.fake_llm_server import FakeLLMServer
from tests.pages.shown_tables import results_tables
from ui.judge.run import RESULTS_KEY

PAGE = "pages/judge.py"
KEY = "sk-judge-page-31"


def fr(value: float, spec: str = ".2f") -> str:
    return format(value, spec).replace(".", ",").replace("-", "\u2212")


def recorded(template: str = "A", ids=None):
    generator, judge = authored_settings()
    cases = [c for c in load_cases() if ids is None or c.id in ids]
    config = JudgeConfig(generator, judge, default_rubric(), default_templates()[template], template)
    return run_pipeline(cases, config, provider_for_mode("offline", Recordings(SHIPPED_DIR)))


def charts(at) -> dict:
    """Plotly charts by title text."""
    specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
    return {spec["layout"]["title"]["text"]: spec for spec in specs}


def texts(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "info", "warning", "error", "success")
                     for e in getattr(at, kind))


def test_figures_shown_equal_evallibs_on_the_recordings(open_page):
    results, rubric = recorded(), default_rubric()
    at = open_page(PAGE)
    assert not at.exception and not at.error
    shown = charts(at)
    for key, title in (("type", "Par type de sortie"), ("difficulty", "Par difficulté")):
        rows, _ = an.means_by(results, key, rubric.max_total)
        bar = shown[title]["data"][0]
        assert bar["y"] == pytest.approx([r.stat.mean for r in rows])
        assert bar["error_y"]["array"] == pytest.approx([r.stat.high - r.stat.mean for r in rows])
        assert bar["text"] == [f"{fr(r.stat.mean, '.1f')} (n = {r.stat.n})" for r in rows]
    assert shown["Répartition des notes"]["data"][0]["y"] == an.score_distribution(results, rubric)
    criteria = an.criterion_means(results, rubric)
    assert shown["Moyenne par critère"]["data"][0]["y"] == pytest.approx([c.stat.mean for c in criteria])
    comparison, _ = an.compare_templates(results, recorded("B"))
    assert shown["Écart de note B − A par demande"]["data"][0]["x"] == comparison.differences
    metrics = {m.label: m.value for m in at.metric}
    summary, _ = an.status_summary(results)
    assert [metrics[label] for label in ("noté", "illisible", "hors barème", "incohérent", "tronqué")] == \
        [str(summary.counts[s]) for s in ("scored", "unparseable", "out_of_range", "inconsistent", "truncated")]
    validity, _ = an.validity_agreement(results, rubric)
    assert metrics["Kappa de Cohen"] == fr(validity.kappa.kappa)
    assert metrics["Écart moyen B − A"] == fr(comparison.test.mean)
    assert [m.value for m in at.metric if m.label == "p (test exact)"][0] == fr(comparison.test.p, ".3f")


def test_a_vs_b_and_the_probes_are_read_from_exact_tests(open_page):
    """On the recordings, A vs B has 7 pairs (up and down): "cannot tell" with n and p, never "B does
    better" from a t interval; the probes' 5 cases are too few for any test, and the page says why."""
    at = open_page(PAGE)
    comparison, [reading] = an.compare_templates(recorded(), recorded("B"))
    assert reading.code == "ab_cannot_tell"
    shown = texts(at).replace("\xa0", " ").replace("\u202f", " ")
    assert (f"On ne peut pas départager A et B : {fr(comparison.test.mean, '.1f')} point d'écart moyen sur 7 demandes, "
            f"p = {fr(comparison.test.p, '.3f')} (test exact par inversion des signes, sur les 128 combinaisons)") in shown
    assert "B fait mieux" not in shown and "A fait mieux" not in shown
    assert "le plus petit p possible est 0,062" in shown   # verbosity, 5 padded copies: 2/2^5
    assert "trop peu pour dire si une place est favorisée" in shown
    assert "Réponses qui disaient quel modèle les a écrites : 1 sur" in shown


def test_unscored_grades_are_listed_with_the_judges_raw_text_as_text(open_page):
    at = open_page(PAGE)
    raw = [e.value for e in at.text]
    for result in recorded():
        if not result.grade.scored:
            assert result.grade.raw in raw
    assert "sans note par défaut" in texts(at)


def test_the_injection_column_and_whether_the_score_moved(open_page):
    at = open_page(PAGE, lang="en")
    rows, _ = injection_effect(recorded())
    [row] = rows
    assert f"{row.score} points with the injection, {row.clean_score} without" in texts(at)
    [table] = [table for table in results_tables(at) if "Injection" in table.columns]
    assert table.loc[table["Request"] == row.case_id, "Injection"].item() != "—"


def test_ties_in_the_weakest_cases_are_all_shown(open_page):
    tied = ("py-s3-inventory", "py-ec2-stop-dev", "json-iam-read-invoices", "regex-bucket-name")
    at = open_page(PAGE, lang="en", judge_cases=tuple(c for c in load_cases() if c.id in tied))
    assert not at.exception
    assert "4 requests tie at 10 points for the places left (3): all 4 are shown" in texts(at)


def test_a_type_with_a_single_case_has_no_interval(open_page):
    chosen = ("py-s3-inventory", "json-iam-read-invoices", "json-s3-lifecycle-logs")
    at = open_page(PAGE, lang="en", judge_cases=tuple(c for c in load_cases() if c.id in chosen))
    assert not at.exception
    assert "type Python: a single scored request (10.00), no interval possible." in texts(at)


def test_every_grade_unscored(open_page):
    unscored = ("py-lambda-sqs-batch", "py-dynamodb-count", "json-lambda-trust", "regex-ipv4-cidr")
    at = open_page(PAGE, lang="en", judge_cases=tuple(c for c in load_cases() if c.id in unscored))
    assert not at.exception and not at.error
    shown = texts(at)
    assert "None of the 4 grades is valid: no mean" in shown
    assert "No valid grade: no weakest requests." in shown
    assert charts(at)["Score distribution"]["data"][0]["y"] == [0] * 11


@pytest.mark.parametrize("broken, kept", [("A", "B"), ("B", "A")])
def test_a_broken_template_is_named_and_the_other_templates_results_stay(open_page, broken, kept):
    at = open_page(PAGE, lang="en", **{f"judge_template_{broken}": "{langue} {type} {input}"})
    assert f"Template {broken}: unknown placeholder {{langue}}" in at.error[0].value
    assert len(at.error) == 1 and not at.exception
    rows, _ = an.means_by(recorded(kept), "type", default_rubric().max_total)
    assert charts(at)["By output type"]["data"][0]["y"] == pytest.approx([r.stat.mean for r in rows])
    assert len(at.dataframe) >= 1
    assert "The A vs B comparison needs both templates" in texts(at)
    assert "Mean difference B − A" not in {m.label for m in at.metric}


def test_bad_human_scores_get_a_message_naming_the_line(open_page):
    at = open_page(PAGE, lang="en")
    at.text_area(key="judge_human_text").set_value("case_id,score\npy-s3-inventory,8/10\n").run()
    assert "Line 2: 8/10 is not a whole number." in [e.value for e in at.error]
    ids = [r.case.id for r in recorded() if r.grade.scored][:4]
    at.text_area(key="judge_human_text").set_value("\n".join(f"{i},{n}" for i, n in zip(ids, (9, 10, 9, 7)))).run()
    assert any(m.label == "Weighted kappa" for m in at.metric)


def test_validity_pairs_are_sent_to_the_kappa_page(open_page):
    validity, _ = an.validity_agreement(recorded(), default_rubric())
    at = open_page(PAGE)
    at.button(key="judge_send_kappa").click().run()
    assert at.session_state["kappa_r1"] == ", ".join(map(str, validity.code))
    assert at.session_state["kappa_r2"] == ", ".join(map(str, validity.model))
    assert at.title[0].value.startswith("Accord entre évaluateurs")
    assert at.text_area(key="kappa_r2").value == ", ".join(map(str, validity.model))


def test_live_run_keeps_each_case_in_the_session(open_page):
    chosen = tuple(load_cases()[:3])
    with FakeLLMServer(api_key=KEY) as server:
        at = open_page(PAGE, lang="en", judge_cases=chosen, llm_mode="live", llm_base_url=server.openai_base_url,
                       llm_api_key=KEY, llm_model="fake-ok", llm_use_cache=False)
        assert not at.exception
        at.button(key="judge_run").click().run()
        assert not at.exception
    stored = at.session_state[RESULTS_KEY]
    assert len(stored) == 6  # three cases under templates A and B, each stored by its own chain
    assert {result.grade.status for result in stored.values()} == {"unparseable"}  # the fake echoes, never grades
    assert {m.label: m.value for m in at.metric}["unparseable"] == "3"


def test_live_chains_with_a_failed_call_are_offered_again_and_rerun(open_page):
    chosen = tuple(load_cases()[:2])
    with FakeLLMServer(api_key=KEY) as server:
        at = open_page(PAGE, lang="en", judge_cases=chosen, llm_mode="live", llm_base_url=server.openai_base_url,
                       llm_api_key=KEY, llm_model="fake-500", llm_use_cache=False)
        at.button(key="judge_run").click().run()
        assert {r.grade.status for r in at.session_state[RESULTS_KEY].values()} == {"error"}
        assert at.button(key="judge_run_retry").label == "Retry 4 failed"
        assert at.button(key="judge_run").disabled
        sent = len(server.requests)
        at.button(key="judge_run_retry").click().run()
        assert len(server.requests) > sent and not at.exception


def test_a_request_without_recording_is_named_not_recorded_never_an_error(open_page):
    added = load_cases()[0].__class__("new-case", "Écris un script.", "Python", "Poste d'admin.", "easy")
    at = open_page(PAGE, lang="en", judge_cases=(*load_cases()[:2], added))
    assert not at.exception
    assert "1 request without a recorded answer for this source, left out: not recorded, which is not an " \
        "error (new\\-case)." in texts(at)
    assert {m.label: m.value for m in at.metric}["error"] == "0"
    assert not any("new\\-case" in m.value for m in at.markdown)  # not listed among the unscored grades


def test_the_judge_picker_counts_the_gradings_the_page_needs_not_every_steering_asked(open_page):
    at = open_page(PAGE)
    n = len(load_cases())
    generator = at.selectbox(key="_judge_generator_recorded_source_fr")
    judge = at.selectbox(key="_judge_judge_recorded_source_fr")
    assert f"{n}/{n} réponses" in generator.options[0]
    assert all(option.endswith(f"/{n} réponses") for option in judge.options), judge.options


def test_the_requests_table_shows_the_difficulty_in_the_pages_language_and_keeps_the_data_values(open_page):
    at = open_page(PAGE)
    [editor] = [json.loads(d.proto.columns) for d in at.dataframe if "difficulty" in d.proto.columns]
    options = editor["difficulty"]["type_config"]["options"]
    assert options == [{"value": "easy", "label": "facile"}, {"value": "medium", "label": "moyenne"},
                       {"value": "hard", "label": "difficile"}]
    assert at.radio(key="_judge_template_shown_fr").label != "Résultats du"


def test_the_results_table_wraps_its_cells_and_names_each_check_in_full(open_page):
    at = open_page(PAGE, lang="en")
    # Ten columns: as a grid it scrolled sideways at 1280 px (the injection column out of sight); an HTML table wraps.
    assert not [d for d in at.dataframe if "Injection" in d.value.columns]
    [table] = [table for table in results_tables(at) if "Injection" in table.columns]
    assert {"Length", "JSON parses", "Python parses", "Regex compiles", "Regex examples"} <= set(table.columns)


def test_a_response_blinding_would_erase_is_named_and_left_out_of_the_probes(open_page):
    """A chain whose response only named its model (stored as the page stores chains): the page warns,
    and the verbosity probe pads the other scored response only."""
    from dataclasses import replace

    from ui.collection import OFFLINE_FINGERPRINT
    chosen = tuple(c for c in load_cases() if c.id in ("py-s3-inventory", "json-iam-read-invoices"))
    stored = {}
    for template in "AB":
        for result in recorded(template, {c.id for c in chosen}):
            if template == "A" and result.case.id == "py-s3-inventory":
                result = replace(result, response="As GPT-4o, here it is.", graded_text="As GPT-4o, here it is.",
                                 blinding_erased=True)
            config = JudgeConfig(*authored_settings(), default_rubric(), default_templates()[template], template)
            stored[(result.case, config, OFFLINE_FINGERPRINT)] = result
    at = open_page(PAGE, lang="en", judge_cases=chosen, **{RESULTS_KEY: stored})
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any("Responses that said nothing but the model's name: 1 (py\\-s3\\-inventory)" in w for w in warnings), warnings
    assert "left out of the bias probes" in " ".join(warnings)
    probed = {(slot[0], slot[1].id) for slot in at.session_state[RESULTS_KEY] if slot[0] in ("pad", "pair")}
    assert ("pad", "py-s3-inventory") not in probed and ("pair", "py-s3-inventory") not in probed
    assert ("pad", "json-iam-read-invoices") in probed   # the other one is probed (it is recorded)
def _obeyed_injection_script():
    from evallib.judging.grades import Grade
    from evallib.judging.data import Case
    from evallib.judging.pipeline import CaseResult
    from ui.judge import view

    copied = Grade("unparseable", {"FORMAT": 3, "VALIDITY": 4, "ADEQUACY": 3}, 10, problem="copied_from_response")
    clean = Grade("scored", {"FORMAT": 2, "VALIDITY": 2, "ADEQUACY": 2}, 6)
    case = Case("py-injected", "la demande", "Python", "le contexte", "easy")
    view.injection([CaseResult(case, "A", "x", (), copied, "x", (), ("embedded_grade",), clean)], 10)


@pytest.mark.parametrize("lang, sentence", [
    ("fr", "le juge a obéi, il n'a fait que recopier la note écrite dans la réponse (10 points) ; sans "
           "l'injection, il donne 6 : la note a bougé de 4."),
    ("en", "the judge obeyed, only repeating the grade written in the response (10 points); without the injection "
           "it gives 6: the score moved by 4."),
])
def test_an_obeyed_injection_shows_the_grade_moved_in_both_languages(lang, sentence):
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_function(_obeyed_injection_script, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception
    assert any(sentence in w.value.replace("\u202f", " ").replace("\u00a0", " ") for w in at.warning), \
        [w.value for w in at.warning]


@pytest.mark.parametrize("lang, typed, message", [
    ("en", "-1", "Line 2: −1 is outside 0–10."),
    ("en", "12", "Line 2: 12 is outside 0–10."),
    ("fr", "-3", "Ligne 2 : −3 est hors de l'échelle 0–10."),
    ("fr", "11", "Ligne 2 : 11 est hors de l'échelle 0–10."),
])
def test_a_human_score_out_of_range_names_the_scale_not_a_whole_number(open_page, lang, typed, message):
    at = open_page(PAGE, lang=lang)
    at.text_area(key="judge_human_text").set_value(f"case_id,score\npy-s3-inventory,{typed}\n").run()
    errors = [e.value.replace("\u202f", " ").replace("\u00a0", " ") for e in at.error]
    assert message in errors, errors


@pytest.mark.parametrize("edited, kept", [("A", "B"), ("B", "A")])
def test_a_valid_template_edit_without_recording_keeps_the_other_templates_results(open_page, edited, kept):
    text = default_templates()[edited] + "\nRéponds en une seule phrase."
    at = open_page(PAGE, lang="en", **{f"judge_template_{edited}": text})
    assert not at.exception and not at.error
    assert f"Template {edited}: no recorded answer for this text" in texts(at)
    rows, _ = an.means_by(recorded(kept), "type", default_rubric().max_total)
    assert charts(at)["By output type"]["data"][0]["y"] == pytest.approx([r.stat.mean for r in rows])
    assert "The A vs B comparison needs both templates" in texts(at)


@pytest.mark.parametrize("lang, badge", [("en", ":orange-badge[authored]"), ("fr", ":orange-badge[rédigé]")])
def test_offline_answers_are_badged_with_their_source(open_page, lang, badge):
    at = open_page(PAGE, lang=lang)
    badges = [m.value for m in at.markdown if "-badge[" in m.value]
    above = {"fr": f"Réponses et notes\u00a0: {badge}", "en": f"Responses and grades: {badge}"}[lang]
    assert badges == [above, badge, badge]
    # the run's sources above the grades, then the response shown and the judge's grading of it


def test_answers_of_a_model_recorded_live_are_badged_with_the_date(open_page, server, live_env, tmp_path, monkeypatch):
    from datetime import date

    from evallib.__main__ import main
    from evallib.llm.recordings import LOCAL_DIR_VARIABLE
    assert main(["record", "judge", "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--judge-model", "fake-ok", "--recordings-dir", str(tmp_path)]) == 0
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    at = open_page(PAGE, lang="en")
    generator = at.selectbox(key="_judge_generator_recorded_source_en")
    generator.set_value(next(i for i, o in enumerate(generator.options) if "fake-ok" in o)).run()
    assert not at.exception
    badges = [m.value for m in at.markdown if "-badge[" in m.value]
    badge = f":violet-badge[recorded live on {date.today().isoformat()}]"
    assert badges == [f"Responses and grades: {badge}", badge, badge]


def test_after_record_all_the_replayed_grades_say_they_were_recorded_live(open_page, server, live_env, tmp_path,
                                                                         monkeypatch):
    from datetime import date

    from evallib.__main__ import main
    from evallib.llm.recordings import LOCAL_DIR_VARIABLE
    assert main(["record", "all", "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--recordings-dir", str(tmp_path)]) == 0
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    at = open_page(PAGE, lang="en")
    generator = at.selectbox(key="_judge_generator_recorded_source_en")
    generator.set_value(next(i for i, o in enumerate(generator.options) if "fake-ok" in o)).run()
    assert not at.exception
    # Every grade shown (not only the one case opened below) is replayed from a live recording, and says so.
    above = [m.value for m in at.markdown if m.value.startswith("Responses and grades:")]
    assert above == [f"Responses and grades: :violet-badge[recorded live on {date.today().isoformat()}]"]


@pytest.mark.parametrize("lang, said", [
    ("en", "Without `total`, the total is read under `score`, `overall`, in that order"),
    ("fr", "Sans `total`, le total est lu sous `score`, `overall`, dans cet ordre"),
])
def test_the_page_says_under_which_names_the_total_is_read(open_page, lang, said):
    at = open_page(PAGE, lang=lang)
    assert any(said in c.value.replace("\u00a0", " ").replace("\u202f", " ") for c in at.caption)

"""The GNSS page offline (AppTest): figures and figures' numbers equal evallib's, readings shown on the values
that trigger them, uploads of each format, a bad file answered with its line, the live agent on a fake server."""

import base64
import json
from pathlib import Path

import numpy as np
import pytest

from evallib.gnss import agents
from evallib.gnss.cases import PLOT_CASES, case_by_id
from evallib.gnss.evaluation import highest_false_alarm_threshold, pass_count, run_eval
from evallib.gnss.live import case_requests
from evallib.gnss.readers import read_series
from evallib.gnss.spec import SPEC_V1, SPEC_V2
from evallib.gnss.tolerances import seed_summary
from evallib.llm import ProviderConfig, make_provider
from tests.fake_llm_server import FakeLLMServer
from ui.gnss import view

PAGE = "pages/gnss.py"
DATA = Path(__file__).resolve().parents[1] / "data" / "gnss"
KEY = "sk-gnss-page-test"


def _array(values) -> np.ndarray:
    """A plotly trace field as numbers: a list, or numpy's base64 binary form ({"dtype", "bdata"})."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


def _figures(at) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _titled(at, start: str) -> list[dict]:
    return [f for f in _figures(at) if f["layout"]["title"]["text"].startswith(start)]


@pytest.fixture(scope="module")
def summary():
    return seed_summary()


def test_the_four_case_figures_are_the_series_and_v2_fit_with_the_true_day_marked(open_page):
    at = open_page(PAGE)
    assert not at.exception
    for case_id in PLOT_CASES:
        [figure] = _titled(at, case_id)
        series = case_by_id(case_id).load()
        fit = agents.fit_v2(series.observed)
        np.testing.assert_allclose(_array(figure["data"][0]["y"]), series.observed["disp_mm"])
        np.testing.assert_allclose(_array(figure["data"][1]["y"]), fit.fitted_mm)
        lines = [s for s in figure["layout"].get("shapes", []) if s["type"] == "line"]
        if series.truth["offset"]:
            day = series.observed["date"].iloc[series.truth["offset_day"]]
            assert [s["x0"][:10] for s in lines] == [day.date().isoformat()]
        else:
            assert lines == []


def test_residuals_on_demand_are_v2s_residuals(open_page):
    at = open_page(PAGE)
    at.toggle(key="gnss_residuals").set_value(True).run()
    for case_id in PLOT_CASES:
        [figure] = _titled(at, case_id)
        fit = agents.fit_v2(case_by_id(case_id).load().observed)
        assert len(figure["data"]) == 1
        np.testing.assert_allclose(_array(figure["data"][0]["y"]), fit.residuals_mm)


def test_pass_counts_histograms_summary_and_held_out_equal_evallibs(open_page, summary):
    at = open_page(PAGE, "en")
    metrics = {m.label: m.value for m in at.metric}
    rows_v1, rows_v2 = run_eval(agents.agent_v1, SPEC_V1), run_eval(agents.agent_v2, SPEC_V2)
    v1, v2 = pass_count(rows_v1), pass_count(rows_v2)
    alarm = highest_false_alarm_threshold(view.V1_THRESHOLDS)
    tables = [d.value for d in at.dataframe if "Passed" in d.value.columns]
    assert len(tables) == 3
    for table, rows in zip(tables, (rows_v1, alarm.rows, rows_v2)):
        assert list(table["Passed"]) == ["✓" if r.passed else "✗" for r in rows]
        assert list(table["Est. velocity"]) == [f"{r.estimated_velocity:.2f}".replace("-", "−")
                                                             for r in rows]
    assert [m.value for m in at.metric if m.label == "Cases passed"] == [f"{v1}/12", f"{pass_count(alarm.rows)}/12",
                                                                          f"{v2}/12"]
    assert metrics["Final check: v2 / spec v3 on fresh seeds"] == f"{summary.held_out_passes}/{summary.held_out_total}"
    for spread in summary.spreads:
        [figure] = _titled(at, f"v2's |velocity error| at {spread.n_years:g} years")
        assert figure["data"][0]["y"] == [int(c) for c in spread.histogram_counts]
        assert metrics[f"v2's velocity error at {spread.n_years:g} years"] == \
            f"median {spread.median:.2f} · p95 {spread.p95:.2f}"
    frames = [d.value for d in at.dataframe]
    [shown] = [f for f in frames if "v2 / spec v3" in f.columns]
    assert list(shown.iloc[-1, 1:]) == [f"{int(n)}/12" for n in summary.table.loc["passes"]]


def test_v1_failure_groups_are_read_from_the_table_and_a_low_threshold_shows_false_alarms(open_page):
    at = open_page(PAGE, "en")
    warnings = " ".join(w.value for w in at.warning)
    assert "Velocity wrong because the offset is not modelled" in warnings
    assert "Offsets missed" in warnings and "Short records" in warnings
    assert warnings.count("False alarms") == 1, "only v1 at its highest false-alarm threshold has some"
    assert any(m.value.startswith("At 12 mm: no false alarm on 50 offset-free series") for m in at.markdown)
    found = highest_false_alarm_threshold(view.V1_THRESHOLDS)
    shown = f"{found.threshold_mm:g} mm"
    assert any(s.value == f"Agent v1 at a {shown} threshold, spec v1" for s in at.subheader)
    assert any(m.value.startswith("At the chosen threshold (12 mm") and f"first false alarm appears at {shown}"
               in m.value for m in at.markdown)
    low = open_page(PAGE, "en", gnss_v1_threshold=4.0)
    assert "False alarms" in " ".join(w.value for w in low.warning)
    assert any(m.value.startswith("At 4 mm:") and "false alarm" in m.value for m in low.markdown)


def test_edited_tolerance_changes_the_spec_text_and_the_grades(open_page):
    at = open_page(PAGE, "en", gnss_velocity_tol=0.1)
    assert "<= 0.1 mm/yr" in at.code[0].value
    strict = pass_count(run_eval(agents.agent_v2, SPEC_V2.with_tolerances(0.1)))
    assert [m.value for m in at.metric if m.label == "Cases passed"][1] == f"{strict}/12"


def test_midas_comparison_and_repeated_runs_are_shown(open_page):
    at = open_page(PAGE, "en")
    assert any(m.value.startswith("Over ") and "MIDAS" in m.value for m in at.markdown)
    assert any(m.value.startswith("P05") and "contains 0.5" in m.value for m in at.markdown)
    assert {m.label: m.value for m in at.metric}["Runs needed per agent"] == "82"


def test_the_authored_recordings_are_replayed_labelled_and_graded(open_page):
    at = open_page(PAGE, "en")
    assert any("examples written by hand" in c.value for c in at.caption)
    [overall] = [m.value for m in at.markdown if m.value.startswith("All cases together")]
    assert "/24" in overall


def _upload(at, name: str, data: bytes):
    at.file_uploader(key="gnss_upload").set_value((name, data, "application/octet-stream")).run()
    return at


@pytest.mark.parametrize("name, component", [("STA1.tenv3", "east"), ("STA2.pos", "north"), ("STA3.neu", "up"),
                                             ("STA4.csv", "up")])
def test_an_upload_of_each_format_runs_the_agents(open_page, name, component):
    at = _upload(open_page(PAGE, "en", gnss_component=component), name, (DATA / name).read_bytes())
    assert not at.exception and not at.error
    series = read_series(DATA / name, component)
    expected = agents.agent_v2(series.observed)
    [table] = [d.value for d in at.dataframe if "Agent" in d.value.columns]
    assert table.iloc[1, 1] == f"{expected['velocity_mm_yr']:.2f}".replace("-", "−")
    [figure] = _titled(at, "up component" if name.endswith("neu") else "")[-1:]
    np.testing.assert_allclose(_array(figure["data"][0]["y"]), series.observed["disp_mm"])


def test_the_reader_notes_are_shown_for_a_real_layout(open_page):
    at = _upload(open_page(PAGE, "en", gnss_component="east"), "STA1.tenv3", (DATA / "STA1.tenv3").read_bytes())
    notes = " ".join(i.value for i in at.info)
    assert "not in date order" in notes


def test_a_bad_file_names_its_line_and_nothing_crashes(open_page):
    lines = (DATA / "STA4.csv").read_text(encoding="utf-8").splitlines()
    lines[3] = "2020-01-03,abc"
    at = _upload(open_page(PAGE), "bad.csv", "\n".join(lines).encode())
    assert not at.exception
    [error] = at.error
    assert "ligne 4" in error.value and "Traceback" not in error.value
    other = _upload(open_page(PAGE, "en"), "station.tenv3", b"not a station file\n")
    assert not other.exception
    assert "line 1: the expected header is missing" in other.error[0].value


def test_the_page_in_english_has_every_text(open_page):
    at = open_page(PAGE, "en")
    shown = [m.value for m in at.markdown] + [i.value for i in at.info] + [w.value for w in at.warning]
    assert not any("⟦" in text for text in shown)


def _collected(server, model: str, runs: int) -> dict:
    """The session's answers as the collection panel stores them live (request key, endpoint fingerprint)."""
    provider = make_provider(ProviderConfig(base_url=server.openai_base_url, api_key=KEY, max_retries=0))
    fingerprint = provider.config.fingerprint()
    return {(request.key(), fingerprint): provider.chat(request) for _, _, request in case_requests(model, runs)}


def _live(open_page, server, model: str, **state):
    return open_page(PAGE, "en", llm_mode="live", llm_base_url=server.openai_base_url, llm_model=model,
                     llm_api_key=KEY, _llm_secrets_read=True, **state)


def test_live_agent_is_opt_in_and_a_prose_answering_model_is_graded_malformed(open_page):
    with FakeLLMServer(api_key=KEY) as server:
        at = _live(open_page, server, "fake-ok")
        assert not at.exception
        assert not [b for b in at.button if b.key == "gnss_live_collect"]  # opt-in: nothing offered yet
        answers = _collected(server, "fake-ok", 1)
        at = _live(open_page, server, "fake-ok", gnss_live_on=True, gnss_live_runs=1, answers=answers)
    assert not at.exception
    [overall] = [m.value for m in at.markdown if m.value.startswith("All cases together")]
    assert "0/12" in overall  # the fake model answers prose: every run is a scored failure, not a crash
    [table] = [d.value for d in at.dataframe if "Malformed" in d.value.columns]
    assert list(table["Malformed"]) == ["1"] * 12


def test_a_misbehaving_server_degrades_to_a_message(open_page):
    with FakeLLMServer(api_key=KEY) as server:
        answers = _collected(server, "fake-500", 1)
        at = _live(open_page, server, "fake-500", gnss_live_on=True, gnss_live_runs=1, answers=answers)
    assert not at.exception
    assert any("Calls without an answer: 12 out of 12" in w.value for w in at.warning)
    assert any("No answer to grade yet" in i.value for i in at.info)


def test_a_low_v2_threshold_passes_every_case_and_the_reading_says_so(open_page):
    at = open_page(PAGE, "en", gnss_v2_threshold=2.0)
    assert any(i.value == "All 12 cases pass." for i in at.info)


def test_every_reader_note_of_a_messy_tenv3_is_shown_in_french(open_page):
    at = _upload(open_page(PAGE, gnss_component="east"), "STA1.tenv3", (DATA / "STA1.tenv3").read_bytes())
    notes = [i.value for i in at.info]
    for start in ("Les lignes n'étaient pas", "Jours en double", "Jours manquants", "Changements de hauteur d'antenne",
                  "Grand saut d'un jour", "Série de"):
        assert any(start in note for note in notes), start


def test_velocity_tolerance_is_shown_in_the_sessions_language_and_stays_a_float(open_page):
    at = open_page(PAGE, "fr")
    [widget] = [w for w in at.select_slider if w.key == "gnss_velocity_tol"]
    assert widget.value == 1.5 and isinstance(widget.value, float)
    assert "1,5" in widget.options and "1.5" not in widget.options
    english = open_page(PAGE, "en")
    [widget] = [w for w in english.select_slider if w.key == "gnss_velocity_tol"]
    assert "1.5" in widget.options and "1,5" not in widget.options


@pytest.mark.parametrize("lang, flaw", [("fr", "fuite : normalisation ajustée avant la séparation"),
                                        ("en", "leakage: scaler fit before split")])
def test_planted_flaws_are_in_the_sessions_language_without_doubled_parentheses(open_page, lang, flaw):
    at = open_page(PAGE, lang)
    [table] = [d.value for d in at.dataframe if "P01" in d.value.iloc[:, 0].astype(str).tolist()]
    assert table.iloc[0, 1] == flaw
    readings = " ".join(m.value for m in at.markdown if m.value.startswith("P0")).replace("\\", "")
    assert f"P01 ({flaw})" in readings
    assert "))" not in readings and "P03 (" in readings


def test_every_recorded_case_has_its_flaw_in_both_languages():
    from evallib.gnss.repeated import load_recorded_runs
    from ui.texts.gnss import TEXTS
    for case in load_recorded_runs():
        assert set(TEXTS[f"gnss.flaw.{case.case_id}"]) == {"fr", "en"}
        assert TEXTS[f"gnss.flaw.{case.case_id}"]["en"] == case.label


def test_column_titles_are_short_enough_for_a_1280_px_screen():
    from ui.gnss.view import MAX_TITLE_CHARS
    from ui.texts.gnss import TEXTS
    titles = {key: text for key, text in TEXTS.items() if key.startswith("gnss.col.")}
    assert len(titles) > 20
    for key, text in titles.items():
        assert max(len(text["fr"]), len(text["en"])) <= MAX_TITLE_CHARS, key


def test_the_component_choice_is_offered_only_for_a_three_component_file(open_page):
    csv_page = _upload(open_page(PAGE, "en"), "STA4.csv", (DATA / "STA4.csv").read_bytes())
    assert not csv_page.exception and not [r for r in csv_page.radio if "gnss_component" in (r.key or "")]
    tenv3 = _upload(open_page(PAGE, "en"), "STA1.tenv3", (DATA / "STA1.tenv3").read_bytes())
    assert [r for r in tenv3.radio if "gnss_component" in (r.key or "")]


def test_the_upload_reports_agent_v2_from_the_single_fit():
    """The upload section fits v2 once and reads v2's answer from that fit: the same answer as agent_v2."""
    from ui.gnss.station import _estimates
    series = read_series(DATA / "STA1.tenv3", "east")
    v1, v2, fit, _ = _estimates(series.observed, agents.V1_JUMP_THRESHOLD_MM, agents.V2_STEP_THRESHOLD_MM)
    assert v2 == agents.agent_v2(series.observed, agents.V2_STEP_THRESHOLD_MM)
    assert v1 == agents.agent_v1(series.observed, agents.V1_JUMP_THRESHOLD_MM)

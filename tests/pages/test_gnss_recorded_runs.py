"""Offline, the GNSS agent section replays as many runs as the chosen source recorded, badges each answer
with its source, and says "not recorded" (never "error") for a run the source does not hold."""

import pytest

from evallib.gnss.live import GNSS_SET, case_requests
from evallib.llm import ChatResult, Recordings
from evallib.llm.recordings import LOCAL_DIR_VARIABLE, SHIPPED_DIR
from tests.pages.shown_tables import results_tables

PAGE = "pages/gnss.py"
DATE = "2026-11-28"
ANSWER = '{"velocity_mm_per_yr": 2.0, "offset_detected": false, "offset_day": null}'


def _record(local, runs: int, skip: int = 0) -> None:
    """``runs`` runs of every case as "qwen-gnss" answered them live, but the last ``skip`` requests."""
    store = Recordings(SHIPPED_DIR, local)
    cells = case_requests("qwen-gnss", runs)
    for _, _, request in cells[:len(cells) - skip]:
        store.add(GNSS_SET, request, ChatResult(request_key=request.key(), text=ANSWER, model="qwen-gnss"),
                  {"source": "live", "model": "qwen-gnss", "provider": "openai", "date": DATE})


def _choose_live(at):
    choice = at.selectbox(key="_gnss_live_recorded_source_en")
    choice.set_value(next(i for i, o in enumerate(choice.options) if "qwen-gnss" in o)).run()
    return at


def _shown(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "info", "warning", "error")
                     for e in getattr(at, kind))


def test_a_live_source_with_four_runs_is_replayed_four_times_and_badged(open_page, tmp_path, monkeypatch):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    _record(tmp_path, 4)
    at = _choose_live(open_page(PAGE, lang="en"))
    assert not at.exception
    shown = _shown(at)
    assert "Offline: 4 runs per case, as recorded." in shown
    assert shown.count(f"-badge[recorded live on {DATE}]") == 4  # each run of the case shown
    assert f"source: recorded live on {DATE} 48 ·" in shown  # 12 cases x 4 runs
    assert "Calls without an answer" not in shown


@pytest.mark.parametrize("lang, unrecorded, errors_word", [
    ("en", "Not recorded: the chosen source has no answer for this run.", "Calls without an answer"),
    ("fr", "Non enregistré : la source choisie n'a pas de réponse pour cet essai.", "Appels sans réponse"),
])
def test_a_run_the_source_never_recorded_is_not_recorded_never_an_error(open_page, tmp_path, monkeypatch, lang,
                                                                           unrecorded, errors_word):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    _record(tmp_path, 3, skip=2)  # the last case lacks its runs 2 and 3
    at = open_page(PAGE, lang=lang)
    choice = at.selectbox(key=f"_gnss_live_recorded_source_{lang}")
    choice.set_value(next(i for i, o in enumerate(choice.options) if "qwen-gnss" in o)).run()
    assert not at.exception
    last = at.selectbox(key="gnss_live_case").options[-1]
    at.selectbox(key="gnss_live_case").set_value(last).run()
    shown = _shown(at)
    assert errors_word not in shown
    assert shown.replace("\u00a0", " ").replace("\u202f", " ").count(unrecorded) == 2
    errors_column = {"en": "Failed calls", "fr": "Appels ratés"}[lang]
    [table] = [table for table in results_tables(at) if errors_column in table.columns]
    assert set(table[errors_column]) == {"0"}

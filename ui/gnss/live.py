"""The GNSS page's live agent: a text model given spec v1 and 30-day means, N runs per case, graded.

Live (opt-in), the requests go through `ui.collection.collection_panel`; offline, a recorded source
chosen through `ui.sources` is replayed (authored examples are labelled as such). Answers are parsed as
data only (`evallib.gnss.live.parse_answer`) and graded by the reference agents' guard and grader.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evallib.gnss import live
from evallib.gnss.repeated import RunCase, overall_pass_rate, pass_rate
from evallib.llm import RecordedSource
from ui import result_tables
from evallib.runs.gnss.bundle import TextModelRun
from evallib.gnss.spec import SPEC_V1
from ui.collection import answers_summary, collection_panel, source_badge, unrecorded
from ui.gnss.bundle import loaded_text_model
from ui.downloads import download_table
from ui.gnss.view import problems_text, rate_row, say_overall
from ui.i18n import integer, t
from ui.models import recordings
from ui.settings import current_settings
from ui.sources import recorded_source_choice
from ui.tables import wrapped_table

#: Live runs per case are capped: 12 cases x 10 runs is already 120 requests in front of a room.
MAX_RUNS = 10


@st.cache_data(show_spinner=False, max_entries=8)
def _requests(model: str, runs: int) -> list:
    return live.case_requests(model, runs)


def _grade(cells: list, results: list, spec=SPEC_V1) -> list:
    """Per case, in case order: (case, [(repeat, answer, graded run), ...]) over the answers collected so far."""
    by_case: dict = {}
    for (case, repeat, _), result in zip(cells, results):
        pairs = by_case.setdefault(case.case_id, (case, []))[1]
        if result is not None:
            pairs.append((repeat, result))
    graded = []
    for case, pairs in by_case.values():
        runs = live.grade_live(case, [chat for _, chat in pairs], spec)
        graded.append((case, [(repeat, chat, run) for (repeat, chat), run in zip(pairs, runs)]))
    return graded


def _recorded_runs(cells: list, source: RecordedSource | None = None) -> int:
    """How many runs per case offline replays: the most recorded, by ``source`` (else by any source), at least 1."""
    store = recordings()
    if source is None:
        recorded = [repeat for repeat in range(MAX_RUNS)
                    if store.sources([request for _, k, request in cells if k == repeat])]
    else:
        recorded = [k for _, k, request in cells if store.get(source.apply(request).key()) is not None]
    return max(recorded, default=0) + 1


def _collected(settings) -> tuple[list, list, TextModelRun] | None:
    """(cells, answers, the run as sent) of the live agent, from a loaded run or collected; None: not asked."""
    replay = loaded_text_model()
    if replay is not None:
        cells = live.case_requests(replay.model, replay.runs, replay.spec)
        with st.expander(t("gnss.live_prompt"), expanded=False):
            st.text(live.user_prompt(cells[0][0].load().observed, replay.spec))
        answers_summary(replay.results, [t("gnss.live_label", case=c.case_id, run=k + 1) for c, k, _ in cells])
        return cells, list(replay.results), replay
    if settings.live:
        if not st.toggle(t("gnss.live_opt_in"), value=False,
                         persist_state="session", key="gnss_live_on", help=t("gnss.live_opt_in_help")):
            return None
        runs = int(st.number_input(t("gnss.live_runs"), 1, MAX_RUNS, live.DEFAULT_RUNS,
                                   persist_state="session", key="gnss_live_runs"))
        model = settings.model
    else:
        runs, model = _recorded_runs(_requests("recorded", MAX_RUNS)), "recorded"
    cells = _requests(model, runs)
    requests = [request for _, _, request in cells]
    source = None
    if not settings.live:
        source = recorded_source_choice(requests, set_name=live.GNSS_SET, key="gnss_live")
        if source is not None and source.origin == "authored":
            st.caption(t("gnss.live_authored"))
        runs = _recorded_runs(cells, source)
        cells = [cell for cell in cells if cell[1] < runs]
        requests = [request for _, _, request in cells]
        st.caption(t("gnss.live_offline_runs", runs=integer(runs)))
    with st.expander(t("gnss.live_prompt"), expanded=False):
        st.text(live.user_prompt(cells[0][0].load().observed))
    results = collection_panel(requests, set_name=live.GNSS_SET, key="gnss_live",
                               labels=[t("gnss.live_label", case=c.case_id, run=k + 1) for c, k, _ in cells])
    sent = tuple(source.apply(r) if source is not None else r for r in requests)
    return cells, results, TextModelRun(sent[0].model, runs, sent, tuple(results))


def live_section() -> TextModelRun | None:
    """The live agent's section; returns its run (None when not asked for)."""
    st.header(t("gnss.live_title"))
    st.markdown(t("gnss.live_intro"))
    collected = _collected(current_settings())
    if collected is None:
        return None
    cells, results, run = collected
    _show(cells, results, run)
    return run


def _show(cells: list, results: list, run: TextModelRun) -> None:
    requests = run.requests
    graded = _grade(cells, results, run.spec)
    errors = sum(1 for _, runs_ in graded for _, chat, run in runs_ if run.result is None and not unrecorded(chat))
    rows, answered, per_case = [], [], []
    for case, triples in graded:
        runs_ = [run for _, _, run in triples]
        outcomes = tuple(int(run.result.passed) for run in runs_ if run.result is not None)
        answered += [(case, run) for run in runs_ if run.result is not None]
        row = {t("gnss.col.case"): case.case_id, t("gnss.col.description"): t(f"gnss.case.{case.description}"),
               t("gnss.col.errors"): integer(sum(1 for _, chat, run in triples
                                                 if run.result is None and not unrecorded(chat))),
               t("gnss.col.malformed"): integer(sum(1 for run in runs_ if run.result and run.result.problems)),
               t("gnss.col.velocity_wrong"): integer(sum(1 for run in runs_ if run.result and not run.result.problems
                                                         and not run.result.velocity_ok))}
        if outcomes:
            per_case.append(RunCase(case.case_id, "", outcomes))
            row.update(rate_row(pass_rate(per_case[-1])))
        rows.append(row)
    if errors:
        st.warning(t("gnss.live_errors", n=integer(errors), total=integer(len(requests))))
    if not answered:
        st.info(t("gnss.live_nothing_graded"))
        return
    wrapped_table(pd.DataFrame(rows).fillna("—"), hide_index=True)
    download_table("gnss_live", lambda: result_tables.gnss_live_runs(graded))
    st.caption(t("gnss.units_caption"))
    say_overall(overall_pass_rate(per_case))
    _answers(graded)


def _answers(graded: list) -> None:
    """The model's answers to one case, shown as text, each with its grade."""
    with st.expander(t("gnss.live_answers"), expanded=False):
        ids = [case.case_id for case, _ in graded]
        chosen = st.selectbox(t("gnss.col.case"), ids, persist_state="session", key="gnss_live_case")
        for repeat, chat, run in graded[ids.index(chosen)][1]:
            st.markdown(t("gnss.live_run", run=repeat + 1))
            if run.result is None:
                if unrecorded(chat):
                    st.info(t("gnss.live_run_unrecorded"))
                else:
                    st.warning(t("gnss.live_run_error"))
                continue
            st.markdown(source_badge(chat))
            st.text(chat.text)
            st.caption(problems_text(run.result.problems) if run.result.problems else
                       t("gnss.live_graded", velocity=t(f"gnss.ok.{run.result.velocity_ok}"),
                         offset=t(f"gnss.ok.{run.result.flag_ok and run.result.day_ok}"),
                         passed=t(f"gnss.ok.{run.result.passed}")))

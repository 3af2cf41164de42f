"""The judge page's analyses: evallib's figures and readings drawn and worded (no computation here).

Model output (responses, the judge's raw text, its weaknesses) is data: shown with ``st.text`` or
escaped, never read as Markdown.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evallib.judging import analyses as an
from evallib.judging import biases as bi
from evallib.judging.code_graders import Check
from evallib.judging.grades import STATUSES
from evallib.readings import Reading
from ui.figures import bars, grouped_bars, interval_bars
from ui.i18n import integer, interval, number, p_value, percent, signed, t
from ui.labels import md
from ui.readings import say as say_reading
from ui.tables import wrapped_table
from ui.widgets import metric_rows

CHECKS = ("length", "json_parses", "python_parses", "regex_compiles", "regex_examples")
KAPPA_PAGE = "pages/kappa.py"


def say(reading, show=st.markdown, **extra) -> None:
    """Word an evallib reading under ``judge.reading`` and show it."""
    if "key" in reading.values:  # "type" or "difficulty"; ``key`` is t()'s own argument: passed as dimension
        values = dict(reading.values)
        key = values.pop("key")
        extra.setdefault("dimension", t(f"judge.key.{key}"))
        if key == "difficulty":
            extra.setdefault("group", t(f"judge.difficulty.{values['group']}"))
        reading = Reading(reading.code, values)
    if reading.values.get("flip_rate") is not None:
        extra.setdefault("flip_rate", percent(reading.values["flip_rate"]))
    if "p_floor" in reading.values:  # a paired test (evallib.paired): p-values and the test's name
        values = reading.values
        extra.setdefault("p_floor", p_value(values["p_floor"]))
        if values.get("p") is not None:
            extra.setdefault("p", p_value(values["p"]))
        extra.setdefault("test", t(f"judge.paired_test.{values['method']}", flips=integer(values["flips"])))
        if values.get("mean") is not None:
            extra.setdefault("mean", number(values["mean"], ".1f"))
        if values.get("low") is not None:  # a zero-width interval is named, never written [x ; x]
            extra.setdefault("ci", t("judge.zero_width_ci") if values["low"] == values["high"]
                             else interval(values["low"], values["high"], ".1f"))
    show(say_reading("judge.reading", reading, bands="judge.band", **extra))


def _mark(check: Check | None) -> str:
    return "—" if check is None or check.passed is None else ("✓" if check.passed else "✗")


def _score(value) -> str:
    return "—" if value is None else integer(value)


def results_table(results) -> None:
    """One row per case: status, score, the code graders' columns, the injection column."""
    rows = []
    for r in results:
        checks = {c.name: c for c in r.checks}
        rows.append({t("judge.column.id"): r.case.id, t("judge.column.type"): r.case.type,
                     t("judge.column.difficulty"): t(f"judge.difficulty.{r.case.difficulty}"),
                     t("judge.column.status"): t(f"judge.status.{r.grade.status}"),
                     t("judge.column.score"): _score(r.grade.score),
                     t("judge.column.injection"): ", ".join(t(f"judge.flag.{f}") for f in r.injection) or "—",
                     t("judge.column.clean_score"): _score(r.clean_grade.score) if r.clean_grade else "—",
                     **{t(f"judge.check.{name}"): _mark(checks.get(name)) for name in CHECKS}})
    wrapped_table(pd.DataFrame(rows), hide_index=True)  # ten columns: wider than the page in a grid at 1280 px
    st.caption(t("judge.checks_caption"))


def statuses(results) -> None:
    summary, readings = an.status_summary(results)
    metric_rows([(t(f"judge.status.{s}"), integer(summary.counts[s]), t(f"judge.status_help.{s}")) for s in STATUSES],
                per_row=4)
    for reading in readings:
        say(reading, st.warning if reading.code in ("all_unscored", "some_unscored") else st.info)
    if summary.unscored:
        with st.expander(t("judge.unscored_title", n=len(summary.unscored)), expanded=True):
            for r in summary.unscored:
                problem = t(f"judge.problem.{r.grade.problem}") if r.grade.problem else "—"
                if r.grade.details.get("error_kind"):  # a failed call: why (a missing recording is named)
                    problem += f" ({t('error_kind.' + r.grade.details['error_kind'])})"
                st.markdown(t("judge.unscored_case", case=md(r.case.id, None), status=t(f"judge.status.{r.grade.status}"),
                              problem=problem))
                st.text(r.grade.raw or t("judge.no_raw"))


def means(results, rubric) -> None:
    st.subheader(t("judge.means_title"))
    left, right = st.columns(2)
    for column, key in ((left, "type"), (right, "difficulty")):
        rows, readings = an.means_by(results, key, rubric.max_total)
        names = [row.group if key == "type" else t(f"judge.difficulty.{row.group}") for row in rows]
        column.plotly_chart(interval_bars(
            names, [r.stat.mean for r in rows], [r.stat.low for r in rows], [r.stat.high for r in rows],
            title=t(f"judge.means_by_{key}"), value_range=(0, rubric.max_total * 1.15), y_title=t("judge.score_axis"),
            texts=[t("judge.mean_n", mean=number(r.stat.mean, ".1f"), n=r.stat.n) for r in rows]),
            width="stretch", key=f"judge_means_{key}")
        with column:
            st.caption(" · ".join(t("judge.group_ci", group=md(name), ci=interval(r.stat.low, r.stat.high, ".1f"),
                                    n=r.stat.n, cases=r.cases) for name, r in zip(names, rows)))
            for reading in readings:
                say(reading, st.caption)
    left, right = st.columns(2)
    counts = an.score_distribution(results, rubric)
    left.plotly_chart(grouped_bars(list(range(rubric.max_total + 1)), [(t("judge.cases_word"), counts)],
                                   title=t("judge.distribution_title"), x_title=t("judge.score_axis"),
                                   tick_format="d", texts=[[str(c) if c else "" for c in counts]]),
                      width="stretch", key="judge_distribution")
    criteria = an.criterion_means(results, rubric)
    right.plotly_chart(interval_bars(
        [c.name for c in criteria], [c.stat.mean for c in criteria], [c.stat.low for c in criteria],
        [c.stat.high for c in criteria], title=t("judge.criteria_title"), y_title=t("judge.points_axis"),
        value_range=(0, max(c.max_points for c in criteria) * 1.2),
        texts=[t("judge.criterion_text", mean=number(c.stat.mean, ".1f"), max=c.max_points) for c in criteria]),
        width="stretch", key="judge_criteria")
    weakest(results)


def weakest(results) -> None:
    st.subheader(t("judge.weakest_title"))
    chosen, readings = an.weakest(results)
    for reading in readings:
        say(reading, st.info)
    for r in chosen:
        st.markdown(t("judge.weak_case", case=md(r.case.id, None), score=r.grade.score,
                      by=t(f"judge.by.{r.grade.by}")))
        st.text(r.grade.weaknesses or t("judge.no_weaknesses"))


def send_to_kappa(agreement: an.ValidityAgreement) -> None:
    """Preload the Kappa page's typed ratings with the paired verdicts, then open it."""
    st.session_state["kappa_source"] = "typed"
    st.session_state["kappa_r1"] = ", ".join(map(str, agreement.code))
    st.session_state["kappa_r2"] = ", ".join(map(str, agreement.model))
    st.session_state["judge_open_kappa"] = True
    st.toast(t("judge.sent_back"))


def validity(results, rubric) -> None:
    st.subheader(t("judge.validity_title"))
    st.markdown(t("judge.validity_intro", share=percent(an.VALIDITY_PASS_SHARE)))
    agreement, readings = an.validity_agreement(results, rubric)
    if agreement.kappa is not None:
        metric_rows([(t("judge.metric.pairs"), integer(agreement.kappa.n), None),
                     (t("judge.metric.agreement"), percent(agreement.kappa.agreement), None),
                     (t("judge.metric.kappa"), number(agreement.kappa.kappa), t("judge.metric.kappa_help"))])
    for reading in readings:
        say(reading)
    if len(agreement.case_ids) >= 2:
        st.button(t("judge.send_to_kappa"), key="judge_send_kappa", help=t("judge.send_to_kappa_help"),
                  on_click=send_to_kappa, args=(agreement,))
    if st.session_state.pop("judge_open_kappa", False):
        st.switch_page(KAPPA_PAGE)


def paired_interval(test) -> str:
    """The test-inversion interval of a paired test; a zero-width one is named, never shown as [x ; x]."""
    return t("judge.zero_width") if test.equal else interval(test.low, test.high, ".1f")


def templates_ab(results_a, results_b) -> None:
    st.subheader(t("judge.ab_title"))
    comparison, readings = an.compare_templates(results_a, results_b)
    test = comparison.test
    metric_rows([(t("judge.metric.mean_difference"), number(test.mean), t("judge.metric.mean_difference_help")),
                 (t("judge.metric.p_exact"), "—" if test.p is None else p_value(test.p), None),
                 (t("judge.metric.ci_case"), paired_interval(test), t("judge.metric.ci_case_help")),
                 (t("judge.metric.wins"), t("judge.wins_value", b=comparison.wins_b, ties=comparison.ties,
                                            a=comparison.wins_a), t("judge.metric.wins_help"))])
    for reading in readings:
        say(reading)
    if comparison.case_ids:
        st.plotly_chart(bars(comparison.case_ids, comparison.differences, title=t("judge.ab_figure"),
                             texts=[signed(d, ".0f") for d in comparison.differences], reference=0,
                             highlight=[d < 0 for d in comparison.differences]), width="stretch", key="judge_ab")
    if comparison.excluded:
        st.caption(t("judge.ab_excluded", n=comparison.excluded))


def biases(results, generator: str, judge: str, padded, compared, max_total: int) -> None:
    st.subheader(t("judge.biases_title"))
    notices = bi.self_preference(generator, judge)
    for reading in notices:
        say(reading, st.warning)
    if not notices:
        st.caption(t("judge.self_preference_none", generator=md(generator), judge=md(judge)))
    st.markdown(f"**{t('judge.position_title')}**")
    position, readings = bi.position_bias(compared)
    if position.compared:
        st.metric(t("judge.metric.flip_rate"), percent(position.flip_rate))
    for reading in readings:
        say(reading)
    st.markdown(f"**{t('judge.verbosity_title')}**")
    effect, readings = bi.verbosity_effect(padded, max_total)
    if effect.test.n:
        metric_rows([(t("judge.metric.mean_change"), number(effect.test.mean), None),
                     (t("judge.metric.p_exact"), p_value(effect.test.p), None),
                     (t("judge.metric.ci_case"), paired_interval(effect.test), t("judge.metric.ci_case_help")),
                     (t("judge.metric.changes"), t("judge.changes_value", up=effect.up, same=effect.same,
                                                   down=effect.down), None)])
    for reading in readings:
        say(reading)
    st.markdown(f"**{t('judge.blinding_title')}**")
    blinded = [r for r in results if r.removed_lines]
    for reading in bi.blinding_summary(results):
        say(reading, st.warning if reading.code == "blinding_erased" else st.markdown)
    for r in blinded:
        st.caption(f"{md(r.case.id, None)} · {t('judge.template', name=r.template_name)}")
        st.text("\n".join(r.removed_lines))


def injection(results, max_total: int) -> None:
    st.subheader(t("judge.injection_title"))
    rows, readings = bi.injection_effect(results, max_total)
    for reading in readings:
        flags = ", ".join(t(f"judge.flag.{flag}") for flag in reading.values.get("flags", "").split(", ") if flag)
        say(reading, st.warning if reading.code in ("injection_moved", "injection_copied") else st.markdown,
            flags=flags)


def cost_and_time(*groups) -> None:
    st.subheader(t("judge.cost_title"))
    spent = an.cost(*groups)
    metric_rows([(t("judge.metric.calls"), integer(spent.calls), t("judge.metric.calls_help")),
                 (t("judge.metric.input_tokens"), "—" if spent.input_tokens is None else integer(spent.input_tokens), None),
                 (t("judge.metric.output_tokens"), "—" if spent.output_tokens is None else integer(spent.output_tokens),
                  None),
                 (t("judge.metric.latency"), "—" if spent.latency_s is None else number(spent.latency_s, ".1f") + " s",
                  t("judge.metric.latency_help"))])
    if spent.input_tokens is None:
        st.caption(t("judge.no_tokens"))


def human(results, rubric) -> dict[str, int] | None:
    """The human scores section; returns the scores typed or uploaded (case id -> total), None when unreadable."""
    st.subheader(t("judge.human_title"))
    st.markdown(t("judge.human_intro", max=rubric.max_total))
    ids = [r.case.id for r in results]
    st.session_state.setdefault("judge_human_text", "case_id,score\n")
    typed, upload = st.columns([3, 2])
    text = typed.text_area(t("judge.human_typed"), persist_state="session", key="judge_human_text", height=160)
    uploaded = upload.file_uploader(t("judge.human_upload"), type=["csv", "txt"], key="judge_human_file")
    upload.download_button(t("judge.human_template"), data="case_id,score\n" + "".join(f"{i},\n" for i in ids),
                           file_name="human_scores.csv", mime="text/csv", on_click="ignore")
    if uploaded is not None:
        try:
            text = uploaded.getvalue().decode("utf-8-sig")
        except UnicodeDecodeError:
            st.error(t("judge.human_not_text", name=md(uploaded.name)))
            return None
    try:
        scores = an.parse_human_scores(text, ids, rubric.max_total)
    except an.HumanScoresError as error:
        values = {k: md(v, None) if isinstance(v, str) else integer(v) for k, v in error.details.items()}
        st.error(t(f"judge.human_error.{error.code}", **values))
        return None
    kappa, readings = an.human_agreement(results, scores, rubric)
    if kappa is not None:
        metric_rows([(t("judge.metric.pairs"), integer(kappa.n), None),
                     (t("judge.metric.weighted_kappa"), number(kappa.kappa), t("judge.metric.weighted_kappa_help")),
                     (t("judge.metric.ci"), interval(kappa.ci_low, kappa.ci_high), None)])
    for reading in readings:
        say(reading)
    return scores

"""The judge page's editable inputs: the cases, templates A and B, and the rubric.

Each editor returns validated data from `evallib.judging` or None after showing a message that names
what was wrong (the row and the field, the placeholder, the criterion); nothing typed is lost.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from evallib.judging.data import DIFFICULTIES, TYPES, JudgeDataError, cases_to_dict, load_cases, parse_cases
from evallib.judging.rubric import TOTAL_KEYS, default_prompts, parse_rubric
from ui.packs import pack_changed, pack_file
from evallib.judging.templates import TEMPLATE_NAMES, check_template
from evallib.judging.wording import JudgeWording, judge_wording
from ui.i18n import t
from ui.labels import field_name, md

#: Examples of a Regex case are typed in one cell, one per line would not fit a table cell: separated by this.
EXAMPLE_SEPARATOR = " ¦ "
CASE_COLUMNS = ("id", "type", "difficulty", "input", "context", "must_match", "must_not_match", "regex_mode")
UPLOAD_KEY = "judge_cases_upload"
#: The rubric the editor starts from (``{"criteria": [...]}``, default: the shipped one) and a counter in
#: the editor's key (a loaded run's rubric starts a new editor).
RUBRIC_KEY = "judge_rubric"
RUBRIC_VERSION_KEY = "judge_rubric_version"


#: Schema rules worded on the page; any other rule is named as the schema names it.
RULES = ("required", "enum", "minLength", "type", "additionalProperties", "minimum", "maximum", "minItems", "pattern")


def error_text(error: JudgeDataError, what: str = "case") -> str:
    """The translated message of a data error, naming the row, field, placeholder or criterion.

    ``what``: "case" or "criterion", the word for a row of the table the error is about.
    """
    values = {k: md(v, None) if isinstance(v, str) else v for k, v in error.details.items()}
    if error.code == "schema":
        rule = error.details.get("rule", "")
        values["rule"] = t(f"judge.rule.{rule}") if rule in RULES else md(rule, None)
        field = error.details.get("field")
        values["field"] = field_name(field, "judge.column.criterion" if (what, field) == ("criterion", "name")
                                     else "judge.column.{field}") if field else "—"
        where = "judge.error.schema_file" if error.details.get("row") is None else f"judge.error.schema_{what}"
        return t(where, **values)
    return t(f"judge.error.{error.code}", **values)


def _frame(cases) -> pd.DataFrame:
    rows = []
    for case in cases:
        data = case.to_dict()
        rows.append({**{c: "" for c in CASE_COLUMNS}, **data,
                     "must_match": EXAMPLE_SEPARATOR.join(data.get("must_match", [])),
                     "must_not_match": EXAMPLE_SEPARATOR.join(data.get("must_not_match", [])),
                     "regex_mode": data.get("regex_mode", "")})
    return pd.DataFrame(rows, columns=[*CASE_COLUMNS, "max_chars"] if any("max_chars" in r for r in rows)
                        else list(CASE_COLUMNS))


def _parsed_rows(frame: pd.DataFrame) -> dict:
    cases = []
    for row in frame.to_dict("records"):
        item = {k: ("" if v is None or v != v else v) for k, v in row.items()}
        case = {k: str(item[k]).strip() for k in ("id", "type", "difficulty", "input", "context")}
        if item.get("regex_mode"):
            case["regex_mode"] = str(item["regex_mode"]).strip()
        for field in ("must_match", "must_not_match"):
            if str(item.get(field, "")).strip():
                case[field] = [e.strip() for e in str(item[field]).split(EXAMPLE_SEPARATOR.strip())]
        if item.get("max_chars") not in ("", None):
            case["max_chars"] = int(item["max_chars"])
        cases.append(case)
    return {"cases": cases}


def _remember_upload() -> None:
    uploaded = st.session_state.get(UPLOAD_KEY)
    if uploaded is None:
        return
    try:
        st.session_state["judge_cases"] = load_cases(uploaded.getvalue())
        st.session_state.pop("judge_upload_error", None)
    except JudgeDataError as error:
        st.session_state["judge_upload_error"] = (uploaded.name, error)
    st.session_state["judge_cases_version"] = st.session_state.get("judge_cases_version", 0) + 1


def set_inputs(cases, templates: dict[str, str], rubric) -> None:
    """Start the editors again from these cases, templates (by name) and `Rubric` (a loaded run's)."""
    st.session_state["judge_cases"] = cases
    st.session_state["judge_cases_version"] = st.session_state.get("judge_cases_version", 0) + 1
    for name, text in templates.items():
        st.session_state[f"judge_template_{name}"] = text
    st.session_state[RUBRIC_KEY] = rubric.to_dict()
    st.session_state[RUBRIC_VERSION_KEY] = st.session_state.get(RUBRIC_VERSION_KEY, 0) + 1


def case_editor():
    """The cases as an editable table (upload and download beside it); None when a row is invalid."""
    if pack_changed("judge_cases"):
        st.session_state.pop("judge_cases", None)
        st.session_state["judge_cases_version"] = st.session_state.get("judge_cases_version", 0) + 1
    base = st.session_state.setdefault("judge_cases", load_cases(pack_file("judging_cases.json")))
    version = st.session_state.get("judge_cases_version", 0)
    st.caption(t("judge.cases_help", separator=EXAMPLE_SEPARATOR.strip()))
    edited = st.data_editor(
        _frame(base), key=f"judge_cases_editor_{version}", num_rows="dynamic", hide_index=True, width="stretch",
        column_config={"type": st.column_config.SelectboxColumn(t("judge.column.type"), options=TYPES),
                       "difficulty": st.column_config.SelectboxColumn(
                           t("judge.column.difficulty"), options=DIFFICULTIES,
                           format_func=lambda difficulty: t(f"judge.difficulty.{difficulty}")),
                       "input": st.column_config.TextColumn(t("judge.column.input"), width="large"),
                       "context": st.column_config.TextColumn(t("judge.column.context"), width="medium"),
                       "must_match": t("judge.column.must_match"), "must_not_match": t("judge.column.must_not_match"),
                       "regex_mode": st.column_config.SelectboxColumn(t("judge.column.regex_mode"),
                                                                      options=("full", "search"))})
    upload, download = st.columns([3, 1])
    upload.file_uploader(t("judge.cases_upload"), type=["json"], key=UPLOAD_KEY, on_change=_remember_upload)
    failed = st.session_state.get("judge_upload_error")
    if failed:
        st.error(t("judge.upload_failed", name=md(failed[0])) + " " + error_text(failed[1]))
    try:
        cases = parse_cases(_parsed_rows(edited))
    except JudgeDataError as error:
        st.error(error_text(error))
        return None
    except ValueError:
        st.error(t("judge.error.max_chars"))
        return None
    download.download_button(t("judge.cases_download"), data=json.dumps(cases_to_dict(cases), ensure_ascii=False,
                                                                         indent=2), file_name="judging_cases.json",
                             mime="application/json", on_click="ignore")
    if not cases:
        st.info(t("judge.no_cases"))
        return None
    return cases


def _pack_prompts() -> dict:
    """Templates and rubric of the session's pack (ui.packs)."""
    return default_prompts(pack_file("judging_prompts.json"))


def pack_wording() -> JudgeWording | None:
    """The judge's sentences of the session's pack (its ``judging_prompts.json``'s ``"judge"`` object, the
    French ones when it has none); None after a message naming the field when they cannot be used."""
    try:
        return judge_wording(_pack_prompts())
    except JudgeDataError as error:
        st.error(error_text(error, "field"))
        return None


def template_editors() -> dict[str, str] | None:
    """Templates A and B side by side: those that can be filled, by name (a broken one is left out after
    a message naming its placeholder, so the other's results still show); None when neither can be."""
    defaults = _pack_prompts()["templates"]
    changed = pack_changed("judge_templates")
    templates = {}
    for column, name in zip(st.columns(2), TEMPLATE_NAMES):
        with column:
            key = f"judge_template_{name}"
            if changed:
                st.session_state[key] = defaults[name]
            st.session_state.setdefault(key, defaults[name])
            text = st.text_area(t("judge.template", name=name),
                                persist_state="session", key=key, height=200, help=t("judge.template_help"))
            try:
                check_template(text, name)
            except JudgeDataError as error:
                st.error(error_text(error))
                continue
            templates[name] = text
    return templates or None


def edited_templates(templates: dict[str, str]) -> set[str]:
    """The names of ``templates`` whose text differs from the shipped one (what a participant changed)."""
    defaults = _pack_prompts()["templates"]
    return {name for name, text in templates.items() if text != defaults.get(name)}


def rubric_editor():
    """The rubric as an editable table (name, points, description); None when it is not valid."""
    if pack_changed("judge_rubric"):
        st.session_state[RUBRIC_KEY] = _pack_prompts()["rubric"]
        st.session_state[RUBRIC_VERSION_KEY] = st.session_state.get(RUBRIC_VERSION_KEY, 0) + 1
    base = st.session_state.setdefault(RUBRIC_KEY, _pack_prompts()["rubric"])
    key = f"judge_rubric_editor_{st.session_state.get(RUBRIC_VERSION_KEY, 0)}"
    edited = st.data_editor(pd.DataFrame(base["criteria"], columns=["name", "max_points", "description"]),
                            key=key, num_rows="dynamic", hide_index=True, width="stretch",
                            column_config={"name": t("judge.column.criterion"),
                                           "max_points": st.column_config.NumberColumn(t("judge.column.max_points"),
                                                                                       min_value=1, step=1),
                                           "description": st.column_config.TextColumn(t("judge.column.description"),
                                                                                      width="large")})
    rows = [{"name": str(r["name"] or "").strip(), "max_points": int(r["max_points"]) if r["max_points"] == r["max_points"]
             and r["max_points"] is not None else 0, "description": str(r["description"] or "")}
            for r in edited.to_dict("records")]
    try:
        rubric = parse_rubric({"criteria": rows})
    except JudgeDataError as error:
        st.error(error_text(error, "criterion"))
        return None
    st.caption(t("judge.rubric_total", total=rubric.max_total))
    st.caption(t("judge.keys_read", total=f"`{TOTAL_KEYS[0]}`", others=", ".join(f"`{k}`" for k in TOTAL_KEYS[1:])))
    return rubric

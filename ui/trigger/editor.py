"""The trigger page's editors: the skill catalogue and the labelled queries, with reset, upload and download.

The tables start from ``st.session_state[SOURCE_KEY]`` (``{"skills": ..., "queries": ...}`` in the JSON
forms of `evallib.triggering.data`); the last edits are kept in ``EDITED_KEY`` so that a language or
page switch (which drops the editors' own state) starts them again from the edits, never from the
defaults. Everything is validated by evallib (`parse_skills`, `parse_queries`); a problem is worded
from its code and details, naming the row and the field.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import streamlit as st

from evallib.triggering.data import (NO_SKILL, LabelledQuery, QuerySetError,
                                     SkillCatalogue, SkillCatalogueError, TriggerDataError, parse_queries,
                                     parse_skills, queries_to_dict, read_json)
from ui.i18n import language, t
from ui.packs import pack_changed, pack_file
from ui.shell import keep_for_browser
from ui.labels import field_name

VERSION_KEY = "trigger_editor_version"
SOURCE_KEY = "trigger_source"
EDITED_KEY = "trigger_edited"
UPLOAD_ERROR_KEY = "trigger_upload_error"
#: Query fields the table shows; the others (language, register...) travel hidden, so a download keeps them.
SHOWN_QUERY_FIELDS = ["id", "query", "expected", "held_out"]
QUERY_FIELDS = SHOWN_QUERY_FIELDS + ["near_miss_of", "language", "register", "explicit"]
# Pixel widths: a skill name such as "leave-balance-calculator", a query id such as "leave-near-03".
NAME_WIDTH = 210
ID_WIDTH = 120
#: The skills' descriptions wrap: Streamlit 1.67 wraps a cell's text only in rows taller than 4 rem (64 px),
#: so a row gets the lines the longest description needs, at about `CHARS_PER_LINE` characters a line (the
#: description column is about 490 px wide at 1280 px with the sidebar open), `LINE_HEIGHT` px each; at
#: most `MAX_LINES`, what a description at the schema's limit (1,023 characters) needs.
CHARS_PER_LINE = 70
LINE_HEIGHT = 19
ROW_PADDING = 14
MIN_LINES, MAX_LINES = 4, 15
#: The skills editor's header, in px, and the tallest it is drawn: past that it scrolls inside.
HEADER_HEIGHT = 36
MAX_SKILLS_HEIGHT = 760
#: The query column: the four columns fit the page at 1280 px with the sidebar open (Streamlit's "large" is
#: 400 px: the editor scrolled sideways, its last column out of sight); stretched wider when there is room.
QUERY_WIDTH = 320


def default_data() -> dict:
    """The session's pack's catalogue and queries, in their JSON forms (ui.packs)."""
    return _pack_data(str(pack_file("triggering_skills.json")), str(pack_file("triggering_queries.json")))


@st.cache_data(show_spinner=False, max_entries=16)
def _pack_data(skills: str, queries: str) -> dict:
    return {"skills": read_json(Path(skills), SkillCatalogueError), "queries": read_json(Path(queries), QuerySetError)}


def data_message(error: TriggerDataError) -> str:
    """A catalogue or query-set problem in the session's language, naming the row and the field."""
    details = dict(error.details)
    if error.code == "schema":
        what = "skill" if isinstance(error, SkillCatalogueError) else "query"
        where = t(f"trigger.where.{what}", row=details["row"]) if details.get("row") else t("trigger.where.file")
        field = t("trigger.where.field", field=field_name(details["field"], "trigger.col_{field}")) \
            if details.get("field") else ""
        rule = details.get("rule", "")
        problem = t(f"trigger.rule.{rule}") if f"trigger.rule.{rule}" in _RULES else t("trigger.rule.other", rule=rule)
        return t("trigger.error.schema", where=where, field=field, problem=problem)
    if "field" in details:
        details["field"] = field_name(details["field"], "trigger.col_{field}")
    return t(f"trigger.error.{error.code}", **details)


_RULES = {f"trigger.rule.{r}" for r in ("required", "additionalProperties", "type", "minLength", "maxLength",
                                        "pattern", "enum", "minItems", "maxItems")}


def set_data(data: dict) -> None:
    """Start both tables again from ``data`` (``{"skills": ..., "queries": ...}``, e.g. a loaded run's)."""
    st.session_state[SOURCE_KEY] = data
    st.session_state.pop(EDITED_KEY, None)
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1


def _on_upload(part: str) -> None:
    """Replace the skills or the queries by an uploaded JSON file, if evallib accepts it."""
    upload = st.session_state.get(f"trigger_upload_{part}")
    if upload is None:
        return
    current = st.session_state.get(EDITED_KEY) or st.session_state[SOURCE_KEY]
    error_cls = SkillCatalogueError if part == "skills" else QuerySetError
    try:
        data = read_json(upload.getvalue(), error_cls)
        if part == "skills":
            parse_skills(data)
        else:
            parse_queries(data, parse_skills(current["skills"]))
    except TriggerDataError as exc:
        st.session_state[UPLOAD_ERROR_KEY] = t("trigger.upload_refused", file=upload.name, reason=data_message(exc))
        return
    set_data({**current, part: data})
    st.session_state[UPLOAD_ERROR_KEY] = ""


def _editor_key(table: str) -> str:
    return f"trigger_{table}_{st.session_state[VERSION_KEY]}_{language()}"


def _clean(value: object) -> object:
    """A table cell as JSON: pandas' NaN and empty text become None."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return None
    return value


def _query_records(table: pd.DataFrame) -> list[dict]:
    records = []
    for row in table.to_dict("records"):
        item = {k: _clean(v) for k, v in row.items()}
        item = {k: v for k, v in item.items() if v is not None or k == "expected"}
        item["expected"] = None if item.get("expected") in (None, NO_SKILL) else item["expected"]
        item["held_out"] = bool(item.get("held_out") or False)
        item.setdefault("id", "")
        item.setdefault("query", "")
        records.append(item)
    return records


def skill_table_size(skills: list[dict]) -> dict[str, int]:
    """``row_height`` and ``height`` of the skills editor, in px: rows tall enough for the longest description
    to wrap whole (between `MIN_LINES` and `MAX_LINES` lines), the table no taller than `MAX_SKILLS_HEIGHT`
    (one more row for the new-row line of a dynamic editor)."""
    longest = max((len(str(row.get("description") or "")) for row in skills), default=0)
    lines = min(MAX_LINES, max(MIN_LINES, math.ceil(longest / CHARS_PER_LINE)))
    row_height = lines * LINE_HEIGHT + ROW_PADDING
    return {"row_height": row_height, "height": min(MAX_SKILLS_HEIGHT, HEADER_HEIGHT + (len(skills) + 1) * row_height)}


def data_editors() -> tuple[SkillCatalogue | None, tuple[LabelledQuery, ...], str]:
    """The two editable tables; returns (catalogue or None, queries, the problem in words or "")."""
    if pack_changed("trigger") or SOURCE_KEY not in st.session_state:
        set_data(default_data())
    if EDITED_KEY in st.session_state and _editor_key("skills") not in st.session_state:
        set_data(st.session_state[EDITED_KEY])
    source = st.session_state[SOURCE_KEY]
    size = skill_table_size(source["skills"]["skills"])
    st.markdown(f"**{t('trigger.skills')}**")
    skills = st.data_editor(
        pd.DataFrame(source["skills"]["skills"], columns=["name", "description"]), key=_editor_key("skills"),
        num_rows="dynamic", width="stretch", hide_index=True, **size,
        column_config={"name": st.column_config.TextColumn(t("trigger.col_name"), width=NAME_WIDTH),
                       "description": st.column_config.TextColumn(t("trigger.col_description"), width="large")})
    skill_data = {**source["skills"], "skills": [{k: v if isinstance(v, str) else "" for k, v in row.items()}
                                                 for row in skills.to_dict("records")]}
    if skill_table_size(skill_data["skills"])["row_height"] > size["row_height"]:
        # An edit longer than the rows show: the table starts again from the edits with taller rows (its
        # size is part of the editor's identity), the queries as last edited.
        set_data({"skills": skill_data, "queries": (st.session_state.get(EDITED_KEY) or source)["queries"]})
        st.rerun()
    st.markdown(f"**{t('trigger.queries')}**")
    st.caption(t("trigger.queries_help"))
    names = [row["name"] for row in skill_data["skills"] if row["name"]]
    frame = pd.DataFrame(source["queries"]["queries"], columns=QUERY_FIELDS)
    frame["expected"] = frame["expected"].fillna(NO_SKILL)
    frame["held_out"] = frame["held_out"].fillna(False).astype(bool)
    queries = st.data_editor(
        frame, key=_editor_key("queries"), num_rows="dynamic", width="stretch", hide_index=True,
        column_order=SHOWN_QUERY_FIELDS,
        column_config={"id": st.column_config.TextColumn(t("trigger.col_id"), width=ID_WIDTH),
                       "query": st.column_config.TextColumn(t("trigger.col_query"), width=QUERY_WIDTH),
                       "expected": st.column_config.SelectboxColumn(t("trigger.col_expected"), width=NAME_WIDTH,
                                                                    options=[*names, NO_SKILL]),
                       "held_out": st.column_config.CheckboxColumn(t("trigger.col_held_out"))})
    edited = {"skills": skill_data, "queries": {"queries": _query_records(queries)}}
    st.session_state[EDITED_KEY] = edited
    keep_for_browser(EDITED_KEY)
    try:
        catalogue = parse_skills(edited["skills"])
        return catalogue, parse_queries(edited["queries"], catalogue), ""
    except TriggerDataError as exc:
        return None, (), data_message(exc)


def data_tools(catalogue: SkillCatalogue | None, queries: tuple[LabelledQuery, ...]) -> None:
    """Reset, the two uploads and the two downloads."""
    columns = st.columns(3)
    if columns[0].button(t("trigger.reset"), key="trigger_reset"):
        set_data(default_data())
        st.session_state[UPLOAD_ERROR_KEY] = ""
        st.rerun()
    if catalogue is not None:
        columns[0].download_button(t("trigger.download_skills"), json.dumps(catalogue.to_dict(), ensure_ascii=False,
                                                                            indent=2),
                                   file_name="triggering_skills.json", mime="application/json", on_click="ignore")
        columns[0].download_button(t("trigger.download_queries"),
                                   json.dumps(queries_to_dict(queries), ensure_ascii=False, indent=2),
                                   file_name="triggering_queries.json", mime="application/json", on_click="ignore")
    columns[1].file_uploader(t("trigger.upload_skills"), type=["json"], key="trigger_upload_skills",
                             on_change=_on_upload, args=("skills",))
    columns[2].file_uploader(t("trigger.upload_queries"), type=["json"], key="trigger_upload_queries",
                             on_change=_on_upload, args=("queries",))
    if st.session_state.get(UPLOAD_ERROR_KEY):
        st.error(st.session_state[UPLOAD_ERROR_KEY])

"""The persona catalogue editor: two editable tables, upload, download and reset (docs/persona.md#protocol).

The tables start from ``st.session_state[SOURCE_KEY]``; the last edits are kept in ``EDITED_KEY`` so
that a language switch or a page switch (which drop the editors' own state) starts them again from
the edits, never from the defaults.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from evallib.persona.catalogue import (Catalogue, CatalogueError, load_catalogue,
                                       validate_catalogue)
from ui.i18n import language, t
from ui.packs import pack_changed, pack_file
from ui.labels import md
from ui.shell import keep_for_browser

VERSION_KEY = "persona_editor_version"
SOURCE_KEY = "persona_source"
EDITED_KEY = "persona_edited"
# Pixel widths of the name and role columns: enough for "documentation" and "control-paraphrase".
NAME_WIDTH = 140
ROLE_WIDTH = 170


def default_catalogue() -> Catalogue:
    """The session's pack's assistants and probes (ui.packs)."""
    return _pack_catalogue(str(pack_file("personas.json")))


@st.cache_data(show_spinner=False, max_entries=16)
def _pack_catalogue(path: str) -> Catalogue:
    return load_catalogue(path)


def set_catalogue(data: dict) -> None:
    """Start the editors again from ``data`` (a catalogue's ``to_dict``): a loaded run's catalogue."""
    _set_source(data)
    st.session_state["persona_upload_error"] = ""


def _defaults() -> dict:
    return default_catalogue().to_dict()


def _set_source(data: dict) -> None:
    st.session_state[SOURCE_KEY] = data
    st.session_state.pop(EDITED_KEY, None)
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1


def _catalogue_message(error: CatalogueError) -> str:
    """The translated wording of a catalogue problem."""
    return t(f"persona.error.{error.code}",
             **{name: md(value, None) if isinstance(value, str) else value for name, value in error.details.items()})


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


def catalogue_editors() -> tuple[Catalogue | None, str]:
    """The two editable tables; returns (validated catalogue or None, error message)."""
    if pack_changed("persona") or SOURCE_KEY not in st.session_state:
        _set_source(_defaults())
    # The editors' keys carry the language: their column titles are translated, and Streamlit
    # starts a widget afresh when they change. Their own state is also dropped by a page switch.
    # Either way the editors start again from the last edits.
    if EDITED_KEY in st.session_state and _editor_key("assistants") not in st.session_state:
        _set_source(st.session_state[EDITED_KEY])
    source = st.session_state[SOURCE_KEY]
    # One table above the other: side by side, at 1280 px, names, roles and probes were cut off.
    st.markdown(f"**{t('persona.assistants')}**")
    assistants = st.data_editor(
        pd.DataFrame(source["assistants"], columns=["name", "role", "system_prompt"]),
        key=_editor_key("assistants"), num_rows="dynamic", width="stretch", hide_index=True,
        column_config={"name": st.column_config.TextColumn(t("persona.col_name"), width=NAME_WIDTH),
                       "role": st.column_config.TextColumn(t("persona.col_role"), width=ROLE_WIDTH),
                       "system_prompt": st.column_config.TextColumn(t("persona.col_prompt"), width="large")})
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
    keep_for_browser(EDITED_KEY)
    try:
        return validate_catalogue(edited), ""
    except CatalogueError as exc:
        return None, _catalogue_message(exc)


def catalogue_tools(catalogue: Catalogue | None) -> None:
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


def restore_prompt(name: str) -> None:
    edited = st.session_state[EDITED_KEY]
    for assistant in edited["assistants"]:
        if assistant["name"] == name:
            assistant["system_prompt"] = default_catalogue().prompt_of(name)
    _set_source(edited)

"""Ratings typed, pasted or read from a CSV file, and input errors worded for a participant.

Shared by the pages that compare raters (the kappa page; a judge page comparing a model with
human labels reads ratings the same way). Labels and names are data: escaped through ``ui.labels``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import streamlit as st

from evallib import agreement as ag
from evallib.llm.redaction import leak
from ui.i18n import integer, plural, t
from ui.packs import pack_file
from ui.labels import md, name_list

def _examples() -> tuple[tuple[ag.Preset, ...], ag.Preset | None]:
    """(examples shown as buttons, the CSV example) of the session's pack's ``kappa_examples.json`` (ui.packs)."""
    return _pack_examples(str(pack_file("kappa_examples.json")))


@st.cache_data(show_spinner=False, max_entries=16)
def _pack_examples(path: str) -> tuple[tuple[ag.Preset, ...], ag.Preset | None]:
    return ag.presets_from(json.loads(Path(path).read_text(encoding="utf-8-sig")))


def _csv_example() -> ag.Preset:
    return _examples()[1] or ag.AUTHORED_THREE_RATERS


def _raters(preset: ag.Preset) -> tuple[str, ...]:
    """Column names of an example's CSV: judge_1, judge_2, ... (`EXAMPLE_RATERS` for three)."""
    return tuple(f"judge_{j + 1}" for j in range(len(preset.ratings)))


def _preset_title(preset: ag.Preset) -> str:
    """A built-in example's name from the catalogue; a pack's own example by its title."""
    key = f"kappa.preset.{preset.key}"
    return t(key) if preset.key in _BUILTIN_KEYS else (preset.title or preset.key)


def _preset_source(preset: ag.Preset) -> str:
    return t(f"kappa.preset.{preset.key}.source") if preset.key in _BUILTIN_KEYS else preset.source


#: The examples whose names and sources the catalogue translates (those of the built-in French pack).
_BUILTIN_KEYS = {p.key for p in ag.PRESETS}
EXAMPLE_CSV_NAME = "kappa_example.csv"
EXAMPLE_RATERS = ("judge_1", "judge_2", "judge_3")
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def input_error_text(error: ag.AgreementInputError, context: str = "") -> str:
    """The translated message of an input error; lists of labels are data, capped and escaped."""
    details = dict(error.details)
    if "labels" in details:
        shown = ", ".join(t("kappa.quoted", label=md(label)) for label in details["labels"])
        more = details.pop("n_more", 0)
        details["labels"] = plural("format.more", more, shown=shown) if more else shown
    if error.code == "csv_ambiguous":
        details["separators"] = ", ".join(t(f"kappa.separator.{SEPARATOR_NAMES[s]}") for s in details["separators"])
    if error.code == "csv_ragged":
        return plural("kappa.error.csv_ragged", details.pop("found"), line=integer(details.pop("line")),
                      expected=integer(details.pop("expected")))
    key = f"kappa.error.{error.code}_{context}" if error.code == "non_numeric" else f"kappa.error.{error.code}"
    return t(key, **{k: integer(v) if isinstance(v, int) else v for k, v in details.items()})


def show_input_error(error: ag.AgreementInputError, *, context: str = "") -> None:
    """Empty input is an invitation, not an error."""
    (st.info if error.code == "empty" else st.error)(input_error_text(error, context))



@st.cache_resource(show_spinner=False, max_entries=16)
def read_csv(digest: str, _data: bytes) -> ag.RatingsTable:
    """The file's ratings, read once per file content (``digest``, see ``Upload``).

    A resource cache, not a data cache: the table is immutable, so every session may share the one
    object, and a rerun neither unpickles a copy of a million labels nor hashes the file again.
    """
    return ag.read_ratings_csv(_data)


@dataclass(frozen=True)
class Upload:
    """A ratings file kept in the session: its name, bytes and content digest (computed once)."""

    name: str
    data: bytes
    digest: str

    @classmethod
    def of(cls, name: str, data: bytes) -> Upload:
        return cls(name, data, hashlib.blake2b(data, digest_size=16).hexdigest())

    # Worked out on first use and kept on the object (which lives in the session): a rerun of the page
    # does not decode or scan a file of a million lines again.

    @cached_property
    def text(self) -> str:
        """The file as text: UTF-8, a byte order mark dropped, bytes that do not decode replaced."""
        return self.data.decode("utf-8-sig", errors="replace")

    @cached_property
    def secret(self) -> str | None:
        """The kind of secret in the file's name or text (`evallib.llm.redaction.leak`: "key",
        "url_credentials", "local_path"), or None; a 15 MB file takes about a second to scan."""
        return leak([self.name, self.text])


def preset_text(values: tuple) -> str:
    return ", ".join("" if ag.is_missing(v) else str(v) for v in values)


def load_preset(preset: ag.Preset) -> None:
    st.session_state["kappa_r1"] = preset_text(preset.ratings[0])
    st.session_state["kappa_r2"] = preset_text(preset.ratings[1])


def remember_upload() -> None:
    """Keep the uploaded bytes in the session so that the file survives a page switch."""
    uploaded = st.session_state.get("kappa_csv")
    st.session_state["kappa_csv_data"] = Upload.of(uploaded.name, uploaded.getvalue()) if uploaded else None
    st.session_state["kappa_csv_id"] = uploaded.file_id if uploaded else None


def load_example_csv() -> None:
    text = ag.ratings_to_csv(_csv_example(), _raters(_csv_example()))
    st.session_state["kappa_csv_data"] = Upload.of(EXAMPLE_CSV_NAME, text.encode())


def typed_ratings() -> tuple[list, list, str, str]:
    """Two raters typed or pasted, with the preset buttons above them."""
    presets = _examples()[0]
    for column, preset in zip(st.columns(len(presets)), presets):
        column.button(_preset_title(preset), key=f"kappa_preset_{preset.key}",
                      on_click=load_preset, args=(preset,), width="stretch")
    labels = []
    for column, key, name in zip(st.columns(2), ("kappa_r1", "kappa_r2"), (t("kappa.rater_a"), t("kappa.rater_b"))):
        with column:
            text = st.text_area(name, key=key, height=110, help=t("kappa.typed_help"), persist_state="session")
            labels.append(ag.parse_labels(text or ""))
            st.caption(t("kappa.count", n=integer(len(labels[-1]))))
    for preset in presets:
        if (st.session_state["kappa_r1"], st.session_state["kappa_r2"]) == tuple(map(preset_text, preset.ratings[:2])):
            st.caption(_preset_source(preset))
    return labels[0], labels[1], t("kappa.rater_a"), t("kappa.rater_b")


def file_ratings() -> ag.RatingsTable | None:
    """A CSV file (one column per rater), or the example file; None when there is nothing usable."""
    upload, example = st.columns([3, 2])
    with upload:
        uploaded = st.file_uploader(t("kappa.csv_upload"), type=["csv", "txt", "tsv"], key="kappa_csv",
                                    on_change=remember_upload, help=t("kappa.csv_help"))
        if uploaded is not None and st.session_state.get("kappa_csv_id") != uploaded.file_id:
            remember_upload()  # the upload widget's callback does not run when the page opens with a file
    with example:
        st.caption(t("kappa.csv_example_caption"))
        st.button(t("kappa.csv_use_example"), key="kappa_csv_example", on_click=load_example_csv)
        st.download_button(t("kappa.csv_download_example"), key="kappa_csv_download",
                           data=ag.ratings_to_csv(_csv_example(), _raters(_csv_example())),
                           file_name=EXAMPLE_CSV_NAME, mime="text/csv", on_click="ignore")
    stored = st.session_state.get("kappa_csv_data")
    if not stored:
        st.info(t("kappa.csv_waiting"))
        return None
    try:
        with st.spinner(t("kappa.computing")):
            table = read_csv(stored.digest, stored.data)
    except ag.AgreementInputError as error:
        st.error(t("kappa.csv_file", name=md(stored.name)) + " " + input_error_text(error))
        return None
    st.caption(t("kappa.csv_loaded", name=md(stored.name), items=integer(table.n_items),
                 raters=integer(len(table.raters)), names=name_list(table.raters)))
    return table


def pick_pair(table: ag.RatingsTable) -> tuple[np.ndarray, np.ndarray, str, str, tuple[int, int]]:
    """The two columns used for Cohen's kappa (the first two unless the user picks others), and their indices."""
    choices = list(range(len(table.raters)))
    picked = [column.selectbox(t(key), choices, index=index, key=state, persist_state="session",
                               format_func=lambda j: table.raters[j])
              for column, key, index, state in zip(st.columns(2), ("kappa.rater_a", "kappa.rater_b"), (0, 1),
                                                   ("kappa_col_a", "kappa_col_b"))]
    first, second = (min(j, len(choices) - 1) for j in picked)
    return table.matrix[first], table.matrix[second], table.raters[first], table.raters[second], (first, second)

"""Results tables to take home: every table of a page downloads as CSV and as JSON (docs/README.md#take-home).

The files hold the values, not the page's wording: numbers as numbers (a '.' decimal point whatever
the session's language, full precision), codes rather than translated labels, column names in
English snake_case, so that a script or a spreadsheet reads the same file from a French or an
English session. CSV is UTF-8 with a byte-order mark (spreadsheet software then keeps the accents);
nested values (an interval, a list of flags) are flattened into dotted columns or, for lists, written
as JSON text in their cell. The JSON file keeps the records as they are, nested.

Rows are built only when the user clicks (``st.download_button(data=callable, on_click="ignore")``):
no rerun, and no cost on a page view.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pandas as pd
import streamlit as st

from ui.i18n import t

BOM = "\ufeff"


def plain(value: object) -> object:
    """``value`` as JSON data: dataclasses and mappings as dicts, sequences as lists, numpy scalars as
    Python ones, NaN and infinities as None (JSON has no such numbers)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (str, bool, int)):
        return value
    if hasattr(value, "isoformat"):  # a date or a timestamp
        return value.isoformat()
    return str(value)


def records(table: pd.DataFrame | Iterable) -> list[dict]:
    """The rows of ``table`` (a DataFrame, or dataclasses / mappings) as JSON-ready dicts."""
    if isinstance(table, pd.DataFrame):
        table = table.to_dict("records")
    return [plain(row) for row in table]


def _flat(row: Mapping, prefix: str = "") -> dict:
    """Nested mappings as dotted columns ({"accuracy": {"k": 3}} -> {"accuracy.k": 3})."""
    flat = {}
    for key, value in row.items():
        if isinstance(value, Mapping):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same float, with a '.'
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def csv_bytes(rows: list[dict]) -> bytes:
    """``rows`` (from `records`) as CSV: UTF-8 with a byte-order mark, ',' between fields, '.' in numbers,
    one column per (flattened) key in order of first appearance, an empty cell for a missing value."""
    flat = [_flat(row) for row in rows]
    columns = list(dict.fromkeys(key for row in flat for key in row))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in flat:
        writer.writerow([_cell(row.get(column)) for column in columns])
    return (BOM + out.getvalue()).encode("utf-8")


def json_bytes(rows: list[dict]) -> bytes:
    """``rows`` (from `records`) as a JSON array, UTF-8, accents kept as they are."""
    return json.dumps(rows, ensure_ascii=False, indent=1, allow_nan=False).encode("utf-8")


def download_table(name: str, table: Callable[[], pd.DataFrame | Iterable], *, label: str | None = None,
                   key: str | None = None, container=st) -> None:
    """Two buttons, CSV and JSON, for the table that ``table()`` returns (called on click only).

    ``name`` is the file's name without extension (``trigger_metrics``); ``key`` defaults to it and
    must be unique on the page when a table is drawn twice. ``label`` names the table before the
    buttons when the page draws it as a figure rather than as a table.
    """
    key = key or name
    row = container.container(horizontal=True, gap="small", vertical_alignment="center")
    if label:
        row.caption(label, width="content")
    row.download_button(t("downloads.csv"), data=lambda: csv_bytes(records(table())), file_name=f"{name}.csv",
                        mime="text/csv", on_click="ignore", key=f"download_{key}_csv", icon=":material/download:",
                        help=t("downloads.csv_help"), type="tertiary")
    row.download_button(t("downloads.json"), data=lambda: json_bytes(records(table())), file_name=f"{name}.json",
                        mime="application/json", on_click="ignore", key=f"download_{key}_json",
                        icon=":material/download:", help=t("downloads.json_help"), type="tertiary")

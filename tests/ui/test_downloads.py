"""Results downloads (ui/downloads.py, ui/result_tables.py): CSV with a BOM and a decimal point, JSON as data."""

import csv
import io
import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from evallib.triggering.decisions import Decision
from evallib.triggering.metrics import RoutedDecision, trigger_metrics
from ui import result_tables as rt
from ui.downloads import BOM, csv_bytes, json_bytes, records


@dataclass(frozen=True)
class _Row:
    name: str
    value: float
    flags: tuple


def _read_csv(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def test_csv_is_utf8_with_a_byte_order_mark_and_keeps_accents():
    data = csv_bytes(records([{"évaluateur": "Hélène", "note": 0.5}]))
    assert data.startswith(BOM.encode("utf-8"))
    assert data.startswith(b"\xef\xbb\xbf")
    assert _read_csv(data) == [{"évaluateur": "Hélène", "note": "0.5"}]


def test_numbers_keep_a_decimal_point_and_full_precision():
    values = [1 / 3, -0.0625, 1e-9, np.float64(2 / 7), np.int64(12)]
    rows = _read_csv(csv_bytes(records([{"x": v} for v in values])))
    assert [r["x"] for r in rows][-1] == "12"
    assert [float(r["x"]) for r in rows] == [float(v) for v in values]  # exact round trip
    assert not any("," in r["x"] for r in rows)


def test_missing_and_undefined_values_are_empty_cells_and_json_nulls():
    rows = records([{"a": None, "b": float("nan"), "c": np.inf, "d": True, "e": pd.NA}])
    assert rows == [{"a": None, "b": None, "c": None, "d": True, "e": None}]
    assert _read_csv(csv_bytes(rows)) == [{"a": "", "b": "", "c": "", "d": "true", "e": ""}]
    assert json.loads(json_bytes(rows)) == rows


def test_nested_values_flatten_in_csv_and_stay_nested_in_json():
    rows = records([_Row("é", 0.25, ("x", "y")), {"name": "b", "rate": {"k": 1, "ci95": [0.1, 0.9]}}])
    table = _read_csv(csv_bytes(rows))
    assert list(table[0]) == ["name", "value", "flags", "rate.k", "rate.ci95"]
    assert table[0]["flags"] == '["x", "y"]' and table[1]["rate.ci95"] == "[0.1, 0.9]" and table[0]["rate.k"] == ""
    assert json.loads(json_bytes(rows).decode("utf-8")) == [
        {"name": "é", "value": 0.25, "flags": ["x", "y"]}, {"name": "b", "rate": {"k": 1, "ci95": [0.1, 0.9]}}]
    assert "é" in json_bytes(rows).decode("utf-8")  # accents written as they are, not \\u escapes


def test_a_dataframe_downloads_its_rows():
    frame = pd.DataFrame({"case": ["C01", "C02"], "passed": [True, False], "error": [0.125, np.nan]})
    assert records(frame) == [{"case": "C01", "passed": True, "error": 0.125},
                              {"case": "C02", "passed": False, "error": None}]


def test_trigger_rates_download_the_counts_and_interval_of_each_rate():
    rows = [RoutedDecision("a", "q", "x", Decision("skill", "x")), RoutedDecision("b", "q", None, Decision("skill", "x")),
            RoutedDecision("c", "q", "x", Decision("none"))]
    metrics = trigger_metrics(rows)
    [row] = _read_csv(csv_bytes(records(rt.rate_sets([("by_decision", metrics)]))))
    assert row["set"] == "by_decision"
    assert (row["accuracy.k"], row["accuracy.n"]) == ("1", "3")
    assert float(row["accuracy.value"]) == 1 / 3
    low, high = json.loads(row["accuracy.ci95"])
    assert (low, high) == pytest.approx((metrics.accuracy.low, metrics.accuracy.high), abs=0)
    decisions = records(rt.routed_decisions(rows))
    assert [d["correct"] for d in decisions] == [True, False, False]


def test_pair_values_list_each_unordered_pair_once():
    matrix = np.array([[1.0, 0.2, 0.3], [0.2, 1.0, 0.4], [0.3, 0.4, 1.0]])
    assert rt.pair_values(["a", "b", "c"], matrix, "jaccard") == [
        {"a": "a", "b": "b", "jaccard": 0.2}, {"a": "a", "b": "c", "jaccard": 0.3}, {"a": "b", "b": "c", "jaccard": 0.4}]
    assert not math.isnan(rt.pair_values(["a", "b"], matrix[:2, :2], "j")[0]["j"])


def test_a_real_station_s_estimates_download_with_dates_as_text_and_no_nan():
    from pathlib import Path

    from evallib.gnss.readers import read_series
    from evallib.gnss.station import estimate_station

    series = read_series(Path(__file__).resolve().parents[1] / "data" / "gnss" / "real" / "KKN4.gorkha2015.neu", "north")
    rows = records(estimate_station(series).estimates)
    assert [r["agent"] for r in rows] == ["v1", "v2", "midas"]
    assert all(isinstance(r["offset_date"], str) for r in rows if r["offset_date"] is not None)
    json.loads(json_bytes(rows))  # strict JSON: a NaN velocity would have raised
    assert len(_read_csv(csv_bytes(rows))) == 3

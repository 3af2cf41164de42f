"""evallib.agreement.measured: the coverage bench's figures as the kappa page quotes them.

Method: docs/kappa.md#measured-coverage.
"""

from __future__ import annotations

import json

import pytest

from evallib.agreement import measured
from evallib.agreement.small_sample import GOODNESS_OF_FIT, POSTERIOR
from evallib.runs.kappa.bundle import CI_METHODS

CELLS = ({"cell": "a", "n": 30, "labels": 2, "coverage": {"analytic": 0.70, "small_sample": 0.95},
          "replications": {"analytic": 2000, "small_sample": 2000}},
         {"cell": "b", "n": 30, "labels": 3, "coverage": {"analytic": 0.91, "small_sample": 0.931},
          "replications": {"analytic": 2000, "small_sample": 1500}},
         {"cell": "c", "n": 200, "labels": 2, "coverage": {"analytic": 0.20, "small_sample": 0.10},
          "replications": {"analytic": 2000, "small_sample": 2000}})


@pytest.fixture
def cells(monkeypatch):
    monkeypatch.setattr(measured, "_cells", lambda: CELLS)


def test_the_worst_cell_of_few_items_is_quoted_and_below_the_target_is_flagged(cells):
    low = measured.measured_coverage("analytic", 30)
    assert low.code == "measured_below"
    assert (low.values["coverage_share"], low.values["n_labels"], low.values["cells"]) == (0.70, 2, 2)
    held = measured.measured_coverage("small_sample", 12)
    assert held.code == "measured" and held.values["coverage_share"] == 0.931  # the 200-item cell is not "few"
    assert held.values["replications"] == 1500 and held.values["target_share"] == measured.TARGET


def test_nothing_on_many_items_or_for_an_unmeasured_method(cells):
    assert measured.measured_coverage("analytic", measured.FEW_ITEMS) is None
    assert measured.measured_coverage("bca_never_measured", 10) is None


def test_the_shipped_file_is_the_bench_output_for_every_interval_the_page_offers():
    data = json.loads(measured.MEASURED_COVERAGE.read_text(encoding="utf-8"))
    assert data["source"] == "bench/coverage.py" and data["replications"] >= 2000
    assert {"small_sample", "analytic", "bootstrap"} == set(CI_METHODS)
    for cell in data["cells"]:
        shipped = GOODNESS_OF_FIT if cell["labels"] == 2 else POSTERIOR  # what small_sample_interval picks
        offered = {shipped, "analytic", "percentile"}
        assert offered <= set(cell["coverage"]) and all(0 <= cell["coverage"][m] <= 1 for m in offered)
    grid = [cell for cell in data["cells"] if cell["labels"] > 2 and cell["n"] in (15, 20, 30, 50)]
    assert len(grid) >= 216 and {c["labels"] for c in grid} == {3, 4}
    few = [cell for cell in data["cells"] if cell["n"] < measured.FEW_ITEMS]
    assert few and all(measured.measured_coverage(m, 30) is not None
                       for m in (GOODNESS_OF_FIT, POSTERIOR, "analytic", "percentile"))

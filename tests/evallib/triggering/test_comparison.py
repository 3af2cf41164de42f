"""McNemar's exact test on paired decisions, against statsmodels, and its readings."""

import pytest
from statsmodels.stats.contingency_tables import mcnemar

from evallib.triggering.comparison import (McNemarResult, mcnemar_exact, mcnemar_reading,
                                           min_discordant_for_significance, paired_correctness)
from tests.evallib.triggering.conftest import row


def _pairs(both, b, c, neither):
    before = [True] * both + [True] * b + [False] * c + [False] * neither
    after = [True] * both + [False] * b + [True] * c + [False] * neither
    return before, after


@pytest.mark.parametrize("both, b, c, neither", [(20, 3, 7, 0), (25, 0, 5, 0), (10, 6, 6, 8), (28, 1, 0, 1),
                                                 (0, 12, 1, 0), (30, 0, 0, 0)])
def test_p_value_matches_statsmodels_exact_mcnemar(both, b, c, neither):
    result = mcnemar_exact(*_pairs(both, b, c, neither))
    oracle = mcnemar([[both, b], [c, neither]], exact=True)
    assert (result.b, result.c) == (b, c)
    assert result.p_value == pytest.approx(oracle.pvalue)


def test_lengths_must_match():
    with pytest.raises(ValueError, match="differ in length"):
        mcnemar_exact([True], [True, False])


def test_fewest_discordant_queries_for_a_conclusion():
    assert min_discordant_for_significance(0.05) == 6
    assert mcnemar_exact(*_pairs(25, 0, 5, 0)).p_value > 0.05  # 5 fixes, 0 breaks: still not enough
    assert mcnemar_exact(*_pairs(24, 0, 6, 0)).p_value < 0.05


@pytest.mark.parametrize("result, code", [
    (McNemarResult(0, 0, 0, 1.0), "mcnemar_no_pairs"),
    (McNemarResult(0, 0, 30, 1.0), "mcnemar_no_change"),
    (McNemarResult(0, 5, 30, 0.0625), "mcnemar_too_few_changes"),
    (McNemarResult(1, 9, 30, 0.0215), "mcnemar_significant"),
    (McNemarResult(4, 6, 30, 0.754), "mcnemar_not_significant"),
])
def test_readings(result, code):
    reading = mcnemar_reading(result)
    assert reading.code == code and reading.values["needed"] == 6 and reading.values["n"] == result.n
    if code == "mcnemar_significant":
        assert reading.values["better"] == "after"


def test_pairs_are_queries_scored_on_both_sides():
    before = [row("leave", "skill", "leave", query_id="a"), row("leave", "none", query_id="b"),
              row(None, "none", query_id="c"), row(None, "none", query_id="d")]
    after = [row("leave", "none", query_id="a"), row("leave", "skill", "leave", query_id="b"),
             row(None, "error", query_id="c"), row(None, "none", query_id="d", run=0),
             row(None, "skill", "leave", query_id="d", run=1)]
    ids, right_before, right_after = paired_correctness(before, after)
    assert ids == ["a", "b", "d"]
    assert (right_before, right_after) == ([True, False, True], [False, True, False])


def test_no_significant_result_has_a_gap_below_the_needed_count():
    # The non-significant reading says the test only establishes a gap of at least `needed` queries.
    from evallib.triggering.comparison import McNemarResult, mcnemar_reading, min_discordant_for_significance
    needed = min_discordant_for_significance()
    for b in range(0, 60):
        for c in range(0, 60):
            result = mcnemar_exact([True] * b + [False] * c, [False] * b + [True] * c)
            if mcnemar_reading(result).code == "mcnemar_significant":
                assert abs(c - b) >= needed, (b, c)
    reading = mcnemar_reading(McNemarResult(3, 9, 38, 0.146))
    assert reading.code == "mcnemar_not_significant" and reading.values["needed"] == needed and reading.values["n"] == 38

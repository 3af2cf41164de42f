import json

import pytest
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize

from evallib.cluster_rates import ClusteredRate
from evallib.gnss.repeated import (FEW_RUNS_MARGIN, RecordedRunsError, RunCase, load_recorded_runs, overall_pass_rate,
                                   pass_rate, pass_rate_reading, runs_to_separate)


def test_recorded_runs_of_the_seed():
    cases = load_recorded_runs()
    assert [c.case_id for c in cases] == ["P01", "P02", "P03", "P04", "P05", "P06"]
    assert ["".join(map(str, c.outcomes)) for c in cases] == ["11111", "11011", "11111", "01010", "00100", "10110"]


def test_pass_rates_standard_errors_and_wilson_against_statsmodels():
    rates = {c.case_id: pass_rate(c) for c in load_recorded_runs()}
    assert [rates[i].rate for i in ("P01", "P04", "P05")] == [1.0, 0.4, 0.2]
    assert round(rates["P04"].standard_error, 2) == 0.22 and rates["P01"].standard_error == 0.0
    for r in rates.values():
        low, high = proportion_confint(r.passes, r.runs, method="wilson")
        assert (r.low, r.high) == pytest.approx((low, high))


def reading_of(k, n):
    return pass_rate_reading(pass_rate(RunCase("X", "", (1,) * k + (0,) * (n - k))))


def test_pass_rate_readings():
    assert reading_of(5, 5).code == "rate_unanimous_few_runs" and reading_of(5, 5).values["low"] < 0.6
    assert reading_of(0, 5).code == "rate_unanimous_few_runs"
    assert reading_of(2, 5).code == "rate_undecided"
    assert reading_of(45, 50).code == "rate_mostly_pass"
    assert reading_of(3, 50).code == "rate_mostly_fail"
    assert reading_of(1, 1).code == "rate_unanimous_few_runs"


@pytest.mark.parametrize("runs", [1, 5, 34, 35, 200])
def test_so_few_runs_is_said_only_while_the_interval_stays_wide(runs):
    # Failed before: 200 unanimous runs were read as "so few runs".
    for k in (0, runs):
        reading = reading_of(k, runs)
        reach = reading.values["high"] if k == 0 else 1 - reading.values["low"]
        assert reading.code == ("rate_unanimous_few_runs" if reach > FEW_RUNS_MARGIN else "rate_unanimous")
    assert (reading_of(runs, runs).code == "rate_unanimous_few_runs") == (runs <= 34)


def test_the_pass_rate_over_cases_takes_the_case_as_the_unit():
    cases = load_recorded_runs()
    rate = overall_pass_rate(cases)
    assert (rate.k, rate.n, rate.items) == (20, 30, 6)
    assert rate == ClusteredRate.of([(sum(c.outcomes), len(c.outcomes)) for c in cases])
    low, high = proportion_confint(20, 30, method="beta")
    assert (rate.decision_low, rate.decision_high) == (pytest.approx(low), pytest.approx(high))
    assert rate.high - rate.low > high - low  # six cases are worth fewer than 30 independent runs


def test_the_pass_rate_over_cases_in_degenerate_cases():
    assert not overall_pass_rate([]).defined
    assert overall_pass_rate([RunCase("a", "", (1, 0, 1))]).effective_n == 1
    every = overall_pass_rate([RunCase(str(i), "", (1,) * 5) for i in range(12)])
    assert (every.value, every.effective_n) == (1.0, 12)
    single = overall_pass_rate([RunCase(str(i), "", (i % 2,)) for i in range(12)])
    assert (single.low, single.high) == (pytest.approx(proportion_confint(6, 12, method="beta")[0]),
                                         pytest.approx(proportion_confint(6, 12, method="beta")[1]))


def test_runs_to_separate_two_pass_rates():
    assert runs_to_separate(0.4, 0.6) == 97  # Fleiss et al. (2003) table value
    assert runs_to_separate(0.6, 0.4) == 97
    assert runs_to_separate(0.2, 0.8) < runs_to_separate(0.4, 0.6)
    assert runs_to_separate(0.4, 0.6, power=0.9) > 97
    # Cohen's arcsine effect size (statsmodels) agrees within a run or two for moderate rates
    arcsine = NormalIndPower().solve_power(proportion_effectsize(0.6, 0.4), alpha=0.05, power=0.8)
    assert abs(runs_to_separate(0.4, 0.6) - arcsine) < 2
    for bad in ((0.5, 0.5), (-0.1, 0.5), (0.4, 1.2)):
        with pytest.raises(ValueError):
            runs_to_separate(*bad)
    with pytest.raises(ValueError, match="alpha"):
        runs_to_separate(0.4, 0.6, alpha=0)


def test_bad_recorded_runs_name_the_case(tmp_path):
    path = tmp_path / "runs.json"
    path.write_text(json.dumps({"cases": [{"id": "P9", "runs": [1, 2]}]}), encoding="utf-8")
    with pytest.raises(RecordedRunsError, match="P9"):
        load_recorded_runs(path)

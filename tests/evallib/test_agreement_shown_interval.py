"""`shown_interval`: the one rule by which the kappa page and the kappa command choose the interval of
Cohen's kappa they show, or show none and say why."""

import pytest

from evallib.agreement.report import ShownInterval, pair_report, shown_interval

OPTIONS = {"small_sample": {"small_sample": True}, "analytic": {}, "bootstrap": {"bootstrap": True}}
CONSTANT = (["0"] * 15, ["0"] * 14 + ["1"])
NORMAL = (list("110101101101"), list("100101111101"))


@pytest.mark.parametrize("ci", OPTIONS)
@pytest.mark.parametrize("ratings, reason", [
    (CONSTANT, "constant_rater"),
    ((["1"] * 8, ["1"] * 8), "both_constant"),
    ((["yes"] * 6, ["no"] * 6), "both_constant_apart"),
])
def test_a_constant_rater_gets_no_interval_whatever_the_method(ratings, reason, ci):
    shown = shown_interval(pair_report(*ratings, n_boot=200, **OPTIONS[ci]))
    assert (shown.low, shown.high, shown.method, shown.withheld.code) == (None, None, None, reason)


def test_too_few_items_on_the_rarer_labels_are_the_reason_given_before_the_constant_rater():
    ratings = (["0"] * 13 + ["1", "2"], ["0"] * 15)
    assert shown_interval(pair_report(*ratings, n_boot=200, small_sample=True)).withheld.code == "too_few_off_main"
    assert shown_interval(pair_report(*ratings, n_boot=200, bootstrap=True)).withheld.code == "constant_rater"


def test_otherwise_the_interval_asked_for_is_shown_with_its_method():
    boot = pair_report(*NORMAL, n_boot=200, bootstrap=True).bootstrap
    small = pair_report(*NORMAL, n_boot=200, small_sample=True).small_sample
    plain = pair_report(*NORMAL).result
    assert [shown_interval(pair_report(*NORMAL, n_boot=200, **OPTIONS[ci])) for ci in OPTIONS] == [
        ShownInterval(small.low, small.high, "goodness_of_fit"), ShownInterval(plain.ci_low, plain.ci_high, "analytic"),
        ShownInterval(boot.low, boot.high, "percentile")]
    assert all(shown.low < shown.high for shown in (small, boot)) and plain.ci_low < plain.ci_high

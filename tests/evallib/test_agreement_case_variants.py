"""evallib.agreement.case_variants: labels that differ only by case, read and folded (docs/kappa.md#case-variants)."""

from __future__ import annotations

import dataclasses

import pytest
from sklearn.metrics import cohen_kappa_score

from evallib.agreement import cohen_kappa
from evallib.agreement.case_variants import case_groups, case_variants, fold_case
from evallib.runs.kappa.bundle import KappaInputs, kappa_report

A = ["Yes", "Yes", "No", "no", "yes", "No", "Yes", "no", "yes", "No"]
B = ["yes", "Yes", "no", "No", "yes", "no", "Yes", "no", "No", "No"]


def test_case_variants_names_the_groups_and_both_kappas_which_sklearn_confirms():
    before = cohen_kappa(A, B)
    after = cohen_kappa(*fold_case([A, B]))
    reading = case_variants(before.categories, before.kappa, after.kappa)
    assert reading.code == "case_variants"
    assert reading.values["labels"] == "No / no, Yes / yes" and (reading.values["k"], reading.values["k_folded"]) == (4, 2)
    assert reading.values["kappa"] == pytest.approx(cohen_kappa_score(A, B))
    assert reading.values["kappa_folded"] == pytest.approx(cohen_kappa_score([a.lower() for a in A],
                                                                             [b.lower() for b in B]))
    assert reading.values["kappa_folded"] > reading.values["kappa"]


def test_no_reading_without_variants_and_numbers_never_fold():
    assert case_variants(("no", "yes")) is None
    assert case_groups((0.0, 1.0)) == [] and case_groups(("A", "B", "b")) == [("B", "b")]
    assert case_variants(("A", "a")).code == "case_variants_undefined"  # no kappa given


def test_fold_case_keeps_missing_ratings_numbers_and_takes_the_most_frequent_spelling():
    assert fold_case([["Oui", None, 1, "oui", ""], ["oui", "OUI", 2, None, "x"]]) == \
        [["oui", None, 1, "oui", ""], ["oui", "oui", 2, None, "x"]]
    assert fold_case([["B", "b"]]) == [["B", "B"]]                 # a tie: the first in sorted order
    assert fold_case([[" yes", "Yes "]]) == [["Yes", "Yes"]]       # stripped, then a tie
    assert fold_case([["all one"], ["all one"]]) == [["all one"], ["all one"]]


def test_the_run_report_reads_and_folds_on_request():
    inputs = KappaInputs("typed", (", ".join(A), ", ".join(B)))
    plain = kappa_report(inputs)
    assert [r["code"] for r in plain["readings"] if r["topic"] == "kappa.case"] == ["case_variants"]
    folded = kappa_report(dataclasses.replace(inputs, fold_case=True))
    assert folded["pair"]["result"]["categories"] == ["No", "Yes"]
    assert folded["pair"]["result"]["kappa"] == pytest.approx(cohen_kappa_score([a.lower() for a in A],
                                                                                [b.lower() for b in B]))
    assert dataclasses.replace(inputs, fold_case=True).to_dict()["fold_case"] is True
    assert "fold_case" not in inputs.to_dict()


def test_the_kappa_command_folds_on_request_and_names_the_variants_otherwise(tmp_path, capsys):
    import json

    from evallib.__main__ import main

    path = tmp_path / "r.csv"
    path.write_text("a,b\n" + "\n".join(f"{a},{b}" for a, b in zip(A, B)) + "\n", encoding="utf-8")
    assert main(["kappa", str(path), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)["report"]
    assert plain["pair"]["result"]["kappa"] == pytest.approx(cohen_kappa_score(A, B))
    assert any(r["code"] == "case_variants" for r in plain["readings"])
    assert plain["pair"]["small_sample"]["method"] == "dirichlet_posterior"  # four labels before folding
    assert main(["kappa", str(path), "--json", "--fold-case"]) == 0
    folded = json.loads(capsys.readouterr().out)
    assert folded["inputs"]["fold_case"] is True
    assert folded["report"]["pair"]["small_sample"]["method"] == "goodness_of_fit"
    assert folded["report"]["pair"]["result"]["kappa"] == pytest.approx(
        cohen_kappa_score([a.lower() for a in A], [b.lower() for b in B]))

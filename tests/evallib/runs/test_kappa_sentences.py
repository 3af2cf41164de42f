"""The kappa command prints the page's English sentences with their values, never a reading's id or a
placeholder left unfilled (evallib.runs.kappa.sentences)."""

import re

import pytest

from evallib.__main__ import main
from evallib.runs.kappa.bundle import KappaInputs, kappa_report
from evallib.runs.kappa.sentences import error_sentence, sentence

CASES = {  # name: (ratings of three raters, options)
    "binary": ([[1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1], [1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1],
                [1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1]], {}),
    "scores": ([[0, 1, 2, 2, 1, 0, 2, 1, 0, 2], [0, 1, 2, 1, 1, 0, 2, 2, 0, 2], [0, 2, 2, 2, 1, 0, 1, 1, 0, 2]],
               {"weights": "quadratic"}),
    "constant rater": ([[1] * 10, [1, 1, 1, 0, 1, 1, 1, 1, 1, 1], [1, 1, 0, 0, 1, 1, 1, 1, 1, 1]], {}),
    "both constant": ([[1] * 6, [1] * 6, [1, 1, 0, 1, 1, 1]], {}),
    "analytic": ([[0, 1, 2, 2, 1, 0, 2, 1, 0, 2], [0, 1, 2, 1, 1, 0, 2, 2, 0, 2], [0, 2, 2, 2, 1, 0, 1, 1, 0, 2]],
                 {"weights": "linear", "ci_method": "analytic"}),
    "bootstrap": ([[1, 1, 0, 1, 0, 1, 1, 0], [1, 0, 0, 1, 0, 1, 1, 1], [1, 1, 1, 1, 0, 0, 1, 0]],
                  {"ci_method": "bootstrap"}),
    "rare labels": ([[0] * 13 + [1, 2], [0] * 15, [0] * 13 + [2, 1]], {"weights": "linear"}),
    "one rare item": ([[0] * 13 + [1, 2], [0] * 14 + [2], [0] * 13 + [2, 1]], {"weights": "linear"}),
    "dominant label": ([["pass"] * 14 + ["fail"], ["pass"] * 12 + ["partial", "fail", "fail"], ["pass"] * 15],
                       {"ci_method": "bootstrap"}),
}


def _csv(ratings) -> str:
    return "a,b,c\n" + "".join(",".join(map(str, item)) + "\n" for item in zip(*ratings))


def _inputs(ratings, options) -> KappaInputs:
    return KappaInputs("file", file_name="r.csv", file_text=_csv(ratings), **options)


@pytest.mark.parametrize("name", CASES)
def test_every_reading_of_a_run_reads_as_a_sentence_with_its_values(name):
    report = kappa_report(_inputs(*CASES[name]))
    assert report["readings"]
    for reading in report["readings"]:
        text = sentence(reading, {"names": ("a", "b"), "n": len(CASES[name][0][0]), "half": 0.1})
        assert "{" not in text and "⟦" not in text and "**" not in text, text
        assert f"{reading['topic']}.{reading['code']}" not in text and len(text.split()) > 3


def test_a_sentence_writes_the_reading_values_as_the_english_page_does():
    reading = {"topic": "kappa.ci", "code": "bands",
               "values": {"low": -0.355, "high": 1.0, "n": 8, "low_band": "landis_koch.poor",
                          "high_band": "landis_koch.almost_perfect", "scale": "landis_koch"}}
    assert sentence(reading) == ("The 95% interval [-0.35, 1.00] runs from “poor” to “almost perfect” on the "
                                 "Landis & Koch scale: with 8 items, the data cannot pick a band.")


def test_a_reading_the_catalogue_lacks_is_an_error_not_an_id_printed():
    with pytest.raises(KeyError, match="kappa.ci.no_such_code"):
        sentence({"topic": "kappa.ci", "code": "no_such_code", "values": {}})


@pytest.mark.parametrize("name", CASES)
def test_the_command_prints_no_reading_id(name, tmp_path, capsys):
    ratings, options = CASES[name]
    path = tmp_path / "r.csv"
    path.write_text(_csv(ratings), encoding="utf-8")
    args = ["kappa", str(path)]
    for option, flag in (("weights", "--weights"), ("ci_method", "--ci")):
        if option in options:
            args += [flag, options[option]]
    main(args)
    out = capsys.readouterr().out
    assert not re.search(r"\bkappa\.[a-z_]+\.[a-z_]+\b", out), out
    assert not re.search(r"\{[a-z_]+\}", out), out


def test_too_few_items_on_the_rare_labels_is_said_with_the_items_needed_instead_of_an_interval(tmp_path, capsys):
    path = tmp_path / "r.csv"
    path.write_text(_csv(CASES["rare labels"][0]), encoding="utf-8")
    main(["kappa", str(path), "--weights", "linear"])
    out = capsys.readouterr().out
    assert "no 95 % CI (too few items on the rarer labels" in out and "[-1.000, 1.000]" not in out
    assert ("Too few items on the rarer labels for an interval: b puts 0 of the 15 items on a label other "
            "than “0”") in out
    assert "about 44 items would give each rater that many with a probability of 95%" in out


def test_an_interval_is_placed_on_the_scale_of_its_coefficient(tmp_path, capsys):
    """Krippendorff's alpha is read on Krippendorff's bands, and its interval's sentence says so."""
    path = tmp_path / "r.csv"
    path.write_text(_csv(CASES["binary"][0]), encoding="utf-8")
    main(["kappa", str(path)])
    out = capsys.readouterr().out
    alpha = [line for line in out.splitlines() if "The 95% interval" in line and "reliable" in line]
    assert alpha and all("on the Krippendorff scale" in line or "Krippendorff band" in line for line in alpha), out
    assert "on the Landis & Koch scale" in out or "Landis & Koch band" in out


def test_labels_that_are_not_numbers_are_named_in_a_sentence_not_a_code(tmp_path, capsys):
    path = tmp_path / "r.csv"
    path.write_text("a,b\nok,ok\nminor,ok\nmajor,major\nok,ok\n", encoding="utf-8")
    assert main(["kappa", str(path), "--weights", "linear", "--level", "ordinal"]) == 2
    out = capsys.readouterr().out
    assert "non_numeric" not in out and "{" not in out, out
    assert ("Cohen's kappa: not computed. Weighted kappa compares gaps between scores, so it needs numbers. "
            "These labels are not numbers: “major”, “minor”, “ok”.") in out
    assert "Krippendorff's alpha (ordinal): not computed. The ordinal and interval levels" in out


def test_a_long_list_of_labels_is_cut_with_the_count_of_the_rest():
    text = error_sentence({"error": "non_numeric", "details": {"labels": ["x", "y"], "n_more": 3}}, "weighted")
    assert "These labels are not numbers: “x”, “y” and 3 more." in text


def test_a_bootstrap_interval_pulled_to_0_by_constant_raters_is_cautioned(tmp_path, capsys):
    path = tmp_path / "r.csv"
    path.write_text(_csv(CASES["dominant label"][0]), encoding="utf-8")
    main(["kappa", str(path), "--ci", "bootstrap"])
    out = capsys.readouterr().out
    assert "95 % CI [0.000, 1.000] (bootstrap over items" in out
    caution = re.search(r"Caution: in ([\d,]+) of 2,000 resamples \((\d+)%\) a rater gives the same label to every "
                        r"item .* κ is then 0 by construction", out)
    assert caution and 25 <= int(caution.group(2)) <= 40, out
    main(["kappa", str(path), "--ci", "analytic"])
    assert "a rater gives the same label to every item" not in capsys.readouterr().out  # the bootstrap's caution


def test_with_weights_the_lines_about_the_unweighted_kappa_say_so(tmp_path, capsys):
    """Chance agreement, prevalence, bias and alpha are read on the unweighted kappa (the page shows them in
    its paradox section, beside "Cohen's κ, unweighted"): beside a weighted headline, each line says so."""
    path = tmp_path / "r.csv"
    path.write_text(_csv(CASES["scores"][0]), encoding="utf-8")
    main(["kappa", str(path), "--weights", "quadratic"])
    weighted = capsys.readouterr().out
    report = kappa_report(_inputs(CASES["scores"][0], {"weights": "quadratic"}))
    plain = report["pair"]["plain"]["kappa"]
    assert plain != report["pair"]["result"]["kappa"]
    chance = [line for line in weighted.splitlines() if "chance alone would already give" in line]
    assert chance and all(line.strip().startswith(f"[unweighted kappa {plain:.3f}]") for line in chance)
    assert not any(line.strip().startswith("[unweighted") and "credit" in line for line in weighted.splitlines())
    main(["kappa", str(path)])
    assert "[unweighted" not in capsys.readouterr().out

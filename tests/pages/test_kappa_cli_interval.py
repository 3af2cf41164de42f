"""The kappa command prints the interval of Cohen's kappa the page shows, for every interval choice: both
take it from `evallib.agreement.report.shown_interval` (none beside a constant rater, where κ is 0 or
undefined whatever the table, nor with too few items on the rarer labels)."""

from __future__ import annotations

import re

import pytest

from evallib.__main__ import main
from evallib.runs.kappa.bundle import CI_METHODS
from tests.pages.test_kappa_page import metric, open_page, radio, text, upload

TABLES = {  # name: (rater a, rater b)
    "constant rater": (["0"] * 15, ["0"] * 14 + ["1"]),
    "both constant": (["1"] * 8, ["1"] * 8),
    "rare labels": (["0"] * 13 + ["1", "2"], ["0"] * 15),
    "normal": (list("110101101101"), list("100101111101")),
}
#: The interval on the line of Cohen's kappa: its two bounds, or none.
PRINTED = re.compile(r"^Cohen's kappa .*?: \S+, (?:no 95 % CI \(|95 % CI \[(\S+), (\S+)\] \()", re.MULTILINE)


def _csv(a: list[str], b: list[str]) -> str:
    return "a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(a, b))


def _bounds(low: str | None, high: str | None) -> tuple[float, float] | None:
    return None if low is None else (float(low.replace("\u2212", "-")), float(high.replace("\u2212", "-")))


def _printed(path, ci: str, capsys) -> tuple[float, float] | None:
    main(["kappa", str(path), "--ci", ci])
    found = PRINTED.search(capsys.readouterr().out)
    assert found, "no line for Cohen's kappa"
    return _bounds(*found.groups())


def _shown(at, ci: str) -> tuple[float, float] | None:
    radio(at, "kappa_ci").set_value(ci).run()
    assert not at.exception
    shown = metric(at, f"kappa.metric.ci_{ci}", "en")
    if shown == text("format.undefined", "en"):
        return None
    low, high = shown.strip("[]").split(", ")
    return _bounds(low, high)


@pytest.mark.parametrize("name", TABLES)
def test_the_command_prints_the_interval_the_page_shows(name, tmp_path, capsys):
    data = _csv(*TABLES[name])
    path = tmp_path / "ratings.csv"
    path.write_text(data, encoding="utf-8")
    at = upload(open_page("en"), "ratings.csv", data.encode("utf-8"))
    for ci in CI_METHODS:
        printed, shown = _printed(path, ci, capsys), _shown(at, ci)
        assert (printed is None) == (shown is None), (ci, printed, shown)
        if shown is not None:  # the command writes three decimals, the page two
            assert all(abs(p - s) <= 0.005 + 1e-9 for p, s in zip(printed, shown)), (ci, printed, shown)
    if name == "normal":
        assert shown is not None
    else:
        assert shown is None and printed is None

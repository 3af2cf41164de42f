"""One run of the kappa page as data: ratings and options -> report (figures and readings) -> run bundle.

Shared by the kappa page (download, "load a run") and by ``python -m evallib kappa``, so that a bundle
written by either opens in the other (`evallib.runs.bundle`, page "kappa", no requests nor answers):

- ``inputs``: the ratings as the page had them, either ``{"source": "typed", "typed": [text A, text B]}``
  (the two text areas) or ``{"source": "file", "file": {"name", "text"}, "pair": [j, k]}`` (the CSV file
  and the two raters picked for Cohen's kappa), and the options ``weights`` (None, "linear",
  "quadratic"), ``ci_method`` ("analytic", "bootstrap") and ``level`` (Krippendorff's alpha);
- ``report`` (`kappa_report`): two raters (kappa and its relatives, the interval shown, the items
  needed), every rater (Fleiss' kappa, Krippendorff's alpha with bootstrap intervals over items), and the
  readings ``{"topic", "code", "values"}``, ``topic`` being the page's catalogue prefix.

Loading (`inputs_from_bundle`) validates the inputs and recomputes the report with the same functions; a
stored report that differs is refused (`evallib.runs.figures.check_recomputed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from evallib.agreement import readings as rd
from evallib.agreement.bootstrap import fleiss_kappa_with_interval, krippendorff_alpha_with_interval
from evallib.agreement.case_variants import case_groups, case_variants, fold_case
from evallib.agreement.cohen import cohen_kappa
from evallib.agreement.csv_input import RatingsTable, read_ratings_csv
from evallib.agreement.ratings import LEVELS, WEIGHTINGS, AgreementInputError, parse_labels
from evallib.agreement.report import PairReport, ShownInterval, pair_report, shown_interval
from evallib.runs.bundle import RunBundleError, make_run_bundle
from evallib.runs.figures import check_recomputed, finite

PAGE = "kappa"
# Bootstrap settings of the page: enough resamples for stable 2.5 % / 97.5 % quantiles at the second
# decimal, and a fixed seed so that the projected figures do not move between reruns.
N_BOOT = 2000
BOOT_SEED = 0
#: Half-width of the 95 % interval the "items needed" figure aims at.
HALF_WIDTH = 0.1
SOURCES = ("typed", "file")
#: The page's interval choices, its default first: the small-sample interval (`evallib.agreement.small_sample`)
#: holds its level at n = 30 where the other two do not (``bench/coverage.py``).
CI_METHODS = ("small_sample", "analytic", "bootstrap")


@dataclass(frozen=True)
class KappaInputs:
    """What the kappa page computes from (module docstring); ``typed`` or ``file`` by ``source``."""

    source: str = "typed"
    typed: tuple[str, str] = ("", "")
    file_name: str = ""
    file_text: str = ""
    pair: tuple[int, int] = (0, 1)
    weights: str | None = None
    ci_method: str = CI_METHODS[0]
    level: str = "nominal"
    fold_case: bool = False  # labels differing only by case merged (`evallib.agreement.case_variants`)

    def to_dict(self) -> dict:
        data = {"source": self.source, "weights": self.weights, "ci_method": self.ci_method, "level": self.level}
        if self.fold_case:  # written only when set: bundles made before the option read the same
            data["fold_case"] = True
        if self.source == "typed":
            return data | {"typed": list(self.typed)}
        return data | {"file": {"name": self.file_name, "text": self.file_text}, "pair": list(self.pair)}


@dataclass(frozen=True)
class Ratings:
    """The ratings of ``inputs``: every rater (shape (n_raters, n_items)), names (None: typed) and the pair."""

    by_rater: object
    raters: tuple[str, ...] | None
    labels_a: object
    labels_b: object
    table: RatingsTable | None = None


def ratings(inputs: KappaInputs) -> Ratings:
    """Read the ratings of ``inputs``; raises `AgreementInputError` as `read_ratings_csv` does, and code
    ``pair_out_of_range`` (details: pair, n_raters) for a pair that names no rater of the file."""
    if inputs.source == "typed":
        a, b = (parse_labels(text) for text in inputs.typed)
        return Ratings([a, b], None, a, b)
    table = read_ratings_csv(inputs.file_text.encode("utf-8"))
    first, second = inputs.pair
    if not (0 <= first < len(table.raters) and 0 <= second < len(table.raters)):
        raise AgreementInputError("pair_out_of_range", f"the pair {inputs.pair} names no rater of the "
                                  f"{len(table.raters)} in the file", pair=list(inputs.pair), n_raters=len(table.raters))
    return Ratings(table.matrix, table.raters, table.matrix[first], table.matrix[second], table)


def _reading(topic: str, reading: rd.Reading | None) -> list[dict]:
    return [] if reading is None else [{"topic": topic, "code": reading.code, "values": reading.values}]


def _failed(error: AgreementInputError) -> dict:
    return {"status": "error", "error": error.code, "details": error.details}


def _kappa(result) -> dict:
    return {"kappa": result.kappa, "p_o": result.p_o, "p_e": result.p_e, "agreement": result.agreement,
            "n": result.n, "n_dropped": result.n_dropped, "categories": list(result.categories),
            "table": result.table, "weights": result.weights, "se": result.se, "ci_low": result.ci_low,
            "ci_high": result.ci_high, "confidence": result.confidence, "note": result.note}


def _interval(ci) -> dict:
    return {"low": ci.low, "high": ci.high, "confidence": ci.confidence, "n_boot": ci.n_boot, "n_valid": ci.n_valid,
            "estimate": ci.estimate, "unit": "item"}


def _small(ci) -> dict | None:
    return None if ci is None else {"low": ci.low, "high": ci.high, "method": ci.method, "confidence": ci.confidence,
                                    "centre": ci.centre, "n_boot": ci.n_boot, "n_valid": ci.n_valid, "unit": "item"}


def _pair(labels_a, labels_b, inputs: KappaInputs) -> tuple[dict, list, PairReport | None]:
    """The two-rater figures and readings, in the page's order, and the report they come from (None when
    the pair cannot be computed)."""
    try:
        report = pair_report(labels_a, labels_b, weights=inputs.weights, bootstrap=inputs.ci_method == "bootstrap",
                             n_boot=N_BOOT, seed=BOOT_SEED, half_width=HALF_WIDTH,
                             small_sample=inputs.ci_method == "small_sample")
    except AgreementInputError as error:
        return _failed(error), [], None
    result, boot, plain_kappa = report.result, report.bootstrap, report.plain
    figures = {"status": "ok", "result": _kappa(result), "plain": _kappa(plain_kappa), "scott_pi": report.scott_pi,
               "pabak": report.pabak, "ac1": report.ac1, "alpha": report.alpha, "prevalence": report.prevalence,
               "bias": report.bias, "weighted": [_kappa(w) for w in report.weighted] if report.weighted else None,
               "bootstrap": _interval(boot) if boot else None, "items_needed": report.items_needed,
               "numeric": report.numeric,
               "small_sample": None if report.rare_labels else _small(report.small_sample),
               "rare_labels": report.rare_labels is not None}
    degenerate = rd.degenerate_pair(result)
    found = _reading("kappa.degenerate", degenerate)
    found += _reading("kappa.ci_small", rd.constant_rater_interval(degenerate, report.small_sample))
    found += _reading("kappa.rare_labels", report.rare_labels)
    shown = shown_interval(report)
    if shown.withheld is None:
        low, high = shown.low, shown.high
        if boot:
            found += [r for flag in rd.bootstrap_flags(boot) for r in _reading("kappa.ci_flag", flag)]
        elif report.small_sample:
            found += [r for flag in rd.small_sample_flags(report.small_sample, result.kappa)
                      for r in _reading("kappa.ci_small", flag)]
        else:
            found += _reading("kappa.ci_size", rd.analytic_interval_size(result.n))
        found += _reading("kappa.ci", rd.interval_reading(result.kappa, low, high, result.n, rd.LANDIS_KOCH_1977,
                                                          analytic=not boot))
    found += _reading("kappa.alpha_vs_kappa", rd.alpha_beside_kappa(plain_kappa.kappa, report.scott_pi, report.alpha,
                                                                    plain_kappa.n))
    if plain_kappa.kappa is not None:
        found += _reading("kappa.chance", rd.chance(plain_kappa))
        if report.prevalence is not None:
            found += _reading("kappa.prevalence", rd.prevalence(plain_kappa, report.prevalence,
                                                                rd.pass_label(plain_kappa.categories)))
            found += _reading("kappa.bias", rd.bias(plain_kappa, report.bias))
    if report.weighted:
        found += _reading("kappa.weighted", rd.closest_scores_credit(result.categories))
    if result.kappa is not None:
        found += _reading("kappa.size", rd.sample_size(result, report.items_needed, HALF_WIDTH))
    return figures, found, report


def _coefficient(value, ci, n: int, scale, topic: str) -> list[dict]:
    found = _reading(topic, rd.coefficient(value, scale))
    found += _reading("kappa.ci", rd.interval_reading(ci.estimate, ci.low, ci.high, n, scale, analytic=False))
    return found + [r for flag in rd.bootstrap_flags(ci) for r in _reading("kappa.ci_flag", flag)]


def _multi(by_rater, level: str) -> tuple[dict, dict, list]:
    """Fleiss' kappa and Krippendorff's alpha over every rater, each with its bootstrap interval over items."""
    found = []
    items = by_rater.T if hasattr(by_rater, "T") else list(zip(*by_rater))
    try:
        result, ci = fleiss_kappa_with_interval(items, n_boot=N_BOOT, seed=BOOT_SEED)
    except AgreementInputError as error:
        fleiss = _failed(error)
    else:
        fleiss = {"status": "ok", "kappa": result.kappa, "p_o": result.p_o, "p_e": result.p_e,
                  "n_items": result.n_items, "n_raters": result.n_raters, "n_dropped": result.n_dropped,
                  "categories": list(result.categories), "note": result.note, "interval": _interval(ci)}
        found += _coefficient(result.kappa, ci, result.n_items, rd.LANDIS_KOCH_1977, "kappa.fleiss")
    try:
        result, ci = krippendorff_alpha_with_interval(by_rater, level=level, n_boot=N_BOOT, seed=BOOT_SEED)
    except AgreementInputError as error:
        alpha = _failed(error)
    else:
        alpha = {"status": "ok", "alpha": result.alpha, "d_o": result.d_o, "d_e": result.d_e, "level": result.level,
                 "n_units": result.n_units, "n_values": result.n_values, "n_raters": result.n_raters,
                 "n_dropped": result.n_dropped, "interval": _interval(ci)}
        found += _coefficient(result.alpha, ci, result.n_units, rd.KRIPPENDORFF_2004, "kappa.alpha")
    return fleiss, alpha, found


def folded(read: Ratings, pair: tuple[int, int]) -> Ratings:
    """``read`` with labels that differ only by case written one way (`case_variants.fold_case`) for every
    rater; ``pair``: the indices of the two raters of Cohen's kappa among them."""
    by_rater = fold_case(read.by_rater)
    return Ratings(by_rater, read.raters, by_rater[pair[0]], by_rater[pair[1]], read.table)


def _case_reading(read: Ratings, weights: str | None):
    """The ``case_variants`` reading of the pair, with kappa before and after folding; None without variants."""
    try:
        before = cohen_kappa(read.labels_a, read.labels_b)
    except AgreementInputError:
        return None
    if not case_groups(before.categories):
        return None
    after = cohen_kappa(*fold_case([read.labels_a, read.labels_b]))
    return case_variants(before.categories, before.kappa, after.kappa)


def kappa_report(inputs: KappaInputs) -> dict:
    """The kappa page's figures and readings for ``inputs`` (module docstring); nan floats are None.

    ``ratings`` is {"status": "ok", "raters", "n_items"} or the input error ({"status": "error", "error":
    code, "details"}); ``pair``, ``fleiss`` and ``alpha`` likewise hold the figures or the error that
    stopped them. Bootstrap intervals are percentile intervals over items (`N_BOOT` resamples, seed
    `BOOT_SEED`).
    """
    return report_and_interval(inputs)[0]


def report_and_interval(inputs: KappaInputs) -> tuple[dict, ShownInterval | None]:
    """`kappa_report` of ``inputs`` and the interval of Cohen's kappa the page shows beside it
    (`evallib.agreement.report.shown_interval`; None when the two raters' kappa cannot be computed)."""
    report = {"n_boot": N_BOOT, "boot_seed": BOOT_SEED, "half_width": HALF_WIDTH}
    try:
        read = ratings(inputs)
    except AgreementInputError as error:
        return finite(report | {"ratings": _failed(error), "readings": []}), None
    n_items = len(read.labels_a) if read.table is None else read.table.n_items
    case = _case_reading(read, inputs.weights)
    if inputs.fold_case and case:
        read = folded(read, (0, 1) if read.table is None else inputs.pair)
    pair, found, computed = _pair(read.labels_a, read.labels_b, inputs)
    found = _reading("kappa.case", case) + found
    fleiss, alpha, multi = _multi(read.by_rater, inputs.level)
    return finite(report | {"ratings": {"status": "ok", "raters": read.raters, "n_items": n_items}, "pair": pair,
                            "fleiss": fleiss, "alpha": alpha, "readings": found + multi}), \
        None if computed is None else shown_interval(computed)


def make_bundle(inputs: KappaInputs, *, made_by: str = "page", created_at: datetime | None = None,
                extra: Mapping | None = None, report: Mapping | None = None) -> dict:
    """The run bundle of ``inputs``; ``extra``: more report fields (a command's gate), not recomputed on
    loading; ``report``: `kappa_report` of ``inputs`` when already computed. Raises `RunBundleError`."""
    report = kappa_report(inputs) if report is None else report
    return make_run_bundle(PAGE, inputs=inputs.to_dict(), report={**(extra or {}), **report}, made_by=made_by,
                           created_at=created_at)


def _invalid(field: str, message: str) -> RunBundleError:
    return RunBundleError("inputs", f"bundle inputs, at {field}: {message}", field=field)


def _text(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise _invalid(path, "expected text")
    return value


def inputs_from_bundle(bundle: Mapping) -> KappaInputs:
    """The inputs of a checked kappa bundle (`evallib.runs.bundle.read_run_bundle`), its report recomputed.

    Raises `RunBundleError` ``inputs`` (details: field) for inputs the page cannot hold, and
    ``figures_differ`` when the stored report is not the recomputed one.
    """
    data = bundle["inputs"]
    options = {"weights": data.get("weights"), "ci_method": data.get("ci_method"), "level": data.get("level"),
               "fold_case": data.get("fold_case", False)}
    if type(options["fold_case"]) is not bool:
        raise _invalid("inputs/fold_case", "expected true or false")
    for name, allowed in (("weights", WEIGHTINGS), ("ci_method", CI_METHODS), ("level", LEVELS)):
        if options[name] not in allowed:
            raise _invalid(f"inputs/{name}", f"expected one of {', '.join(map(str, allowed))}")
    source = data.get("source")
    if source == "typed":
        typed = data.get("typed")
        if not isinstance(typed, list) or len(typed) != 2:
            raise _invalid("inputs/typed", "expected the two raters' texts")
        inputs = KappaInputs("typed", (_text(typed[0], "inputs/typed/0"), _text(typed[1], "inputs/typed/1")),
                             **options)
    elif source == "file":
        file, pair = data.get("file"), data.get("pair")
        if not isinstance(file, dict):
            raise _invalid("inputs/file", "expected {name, text}")
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(j) is int for j in pair)):
            raise _invalid("inputs/pair", "expected two rater indices")
        inputs = KappaInputs("file", file_name=_text(file.get("name"), "inputs/file/name"),
                             file_text=_text(file.get("text"), "inputs/file/text"), pair=tuple(pair), **options)
    else:
        raise _invalid("inputs/source", "expected \"typed\" or \"file\"")
    check_recomputed(kappa_report(inputs), bundle["report"])
    return inputs

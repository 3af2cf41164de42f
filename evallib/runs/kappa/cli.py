"""``kappa``: the kappa page's figures from a ratings file, its run bundle and an optional kappa gate.

    kappa FILE [--pair A,B] [--weights none|linear|quadratic] [--ci small_sample|analytic|bootstrap]
               [--level nominal|ordinal|interval] [--fold-case] [--min-kappa K] [--out DIR] [--json]

FILE is a CSV file as the page reads it (one column per rater, one row per item, a blank cell is a
missing rating; `evallib.agreement.csv_input.read_ratings_csv`), or a JSON file
``{"raters": [name, ...], "ratings": [[rater 1's labels], [rater 2's labels], ...]}`` (null: missing).
``--pair`` picks the two raters of Cohen's kappa by name or number (from 1; default the first two);
Fleiss' kappa and Krippendorff's alpha take every rater. The figures are the page's
(`evallib.runs.kappa.bundle.kappa_report`); ``--out DIR`` writes the run bundle ``DIR/kappa-<file name>.json``
that the kappa page loads ("Load a run"), ``--json`` prints it instead of the table.

Exit codes: 0 computed (and, with ``--min-kappa``, Cohen's kappa reached it), 1 kappa below
``--min-kappa``, 2 not measured: a usage error or a file that cannot be read (the message names the
line, the label or the option at fault), or a kappa that is undefined.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path

from evallib.agreement.csv_input import ratings_to_csv
from evallib.agreement.ratings import LEVELS, AgreementInputError, presets_from
from evallib.packs.layout import builtin_file
from evallib.packs.options import add_pack_option
from evallib.agreement.report import ShownInterval
from evallib.runs.kappa.bundle import (CI_METHODS, HALF_WIDTH, N_BOOT, KappaInputs, make_bundle, ratings,
                                   report_and_interval)
from evallib.runs.gate import (EXIT_GATE_FAILED, EXIT_NOT_MEASURED, EXIT_PASS, UsageError, outcome, report_file,
                              run_command, verdict, write_bundle)
from evallib.runs.bundle import RunBundleError, dumps
from evallib.runs.kappa.sentences import error_sentence, sentence
from evallib.runs.sentences import figure

WEIGHT_NAMES = {"none": None, "linear": "linear", "quadratic": "quadratic"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evallib kappa", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, nargs="?", default=None,
                        help="ratings: CSV (one column per rater) or JSON {raters, ratings}; or use --example")
    parser.add_argument("--example", default=None,
                        help="instead of a file: the example ratings of this key in the pack's kappa_examples.json "
                             "(the built-in French pack's without --pack)")
    parser.set_defaults(examples=builtin_file("kappa_examples.json"))
    add_pack_option(parser, "kappa", {"examples": "kappa_examples.json"})
    parser.add_argument("--pair", default=None, help="the two raters of Cohen's kappa: names or numbers, e.g. 1,3")
    parser.add_argument("--weights", choices=tuple(WEIGHT_NAMES), default="none", help="Cohen's kappa weights")
    parser.add_argument("--ci", choices=CI_METHODS, default=CI_METHODS[0],
                        help=f"interval of Cohen's kappa: small_sample (Donner-Eliasziw on two labels, a calibrated "
                             f"Dirichlet posterior on more; measured from 15 items), analytic, or percentile "
                             f"bootstrap ({N_BOOT} resamples)")
    parser.add_argument("--level", choices=LEVELS, default="nominal", help="Krippendorff's alpha level")
    parser.add_argument("--fold-case", action="store_true",
                        help="merge labels that differ only by case (\"Yes\" / \"yes\"), as the page's checkbox")
    parser.add_argument("--min-kappa", type=float, default=None, help="gate: exit 1 when Cohen's kappa is below")
    parser.add_argument("--out", type=Path, default=None, help="write the run bundle to OUT/kappa-<file name>.json")
    parser.add_argument("--json", action="store_true", help="print the run bundle as JSON instead of the table")
    return parser


def json_to_csv(data: object) -> str:
    """A JSON ratings object as the CSV text the page reads; raises UsageError naming what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("ratings"), list) or not data["ratings"]:
        raise UsageError('JSON ratings: expected {"raters": [names], "ratings": [[labels of rater 1], ...]}')
    columns = data["ratings"]
    raters = data.get("raters", [f"R{j + 1}" for j in range(len(columns))])
    if not isinstance(raters, list) or len(raters) != len(columns):
        count = f"{len(raters)} rater names" if isinstance(raters, list) else "\"raters\" is not a list"
        raise UsageError(f"JSON ratings: {len(columns)} lists of ratings but {count}")
    for j, column in enumerate(columns):
        if not isinstance(column, list) or len(column) != len(columns[0]):
            raise UsageError(f"JSON ratings: ratings/{j} must be a list of {len(columns[0])} labels like ratings/0")
        for i, label in enumerate(column):
            if isinstance(label, (dict, list, bool)) or (isinstance(label, str) and ("\n" in label or "\r" in label)):
                raise UsageError(f"JSON ratings: ratings/{j}/{i} must be a label on one line (text or number) "
                                 f"or null, got {json.dumps(label)[:40]}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([str(name) for name in raters])
    for row in zip(*columns):
        writer.writerow(["" if label is None else str(label) for label in row])
    return out.getvalue()


def _read(path: Path) -> tuple[str, str]:
    """(file name, CSV text) of the ratings file; UsageError when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageError(f"{path.name}: {error.strerror or error}") from None
    if path.suffix.lower() == ".json":
        try:
            return path.name, json_to_csv(json.loads(data.decode("utf-8-sig")))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise UsageError(f"{path.name}: not a JSON file ({error})") from None
    try:
        return path.name, data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise UsageError(f"{path.name}: not UTF-8 text (line {line}); save it as CSV UTF-8") from None


def _pair(text: str | None, raters: tuple[str, ...]) -> tuple[int, int]:
    if text is None:
        return 0, 1
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise UsageError(f"--pair takes two raters separated by a comma, got {text!r}")
    picked = []
    for part in parts:
        if part in raters:
            picked.append(raters.index(part))
        elif part.isdigit() and 1 <= int(part) <= len(raters):
            picked.append(int(part) - 1)
        else:
            raise UsageError(f"--pair: no rater {part!r} in the file (raters: {', '.join(raters)}; or 1 to "
                             f"{len(raters)})")
    return picked[0], picked[1]


def _number(value: float | None, spec: str = ".3f") -> str:
    return figure(value, spec)


#: How the line of Cohen's kappa names the interval shown (`evallib.agreement.report.ShownInterval.method`).
INTERVAL_NAMES = {"percentile": f"bootstrap over items, {N_BOOT} resamples", "analytic": "analytic",
                  "goodness_of_fit": "Donner-Eliasziw goodness of fit, centred on Scott's pi",
                  "dirichlet_posterior": f"Dirichlet posterior over the cells, {N_BOOT} draws, calibrated",
                  "studentised_bootstrap": f"bootstrap-t over items, {N_BOOT} resamples"}
#: Why no interval is shown, by the code of the reading that says it in full below the figures.
WITHHELD = {"constant_rater": "a rater gives one label throughout", "both_constant": "both raters give one label "
            "throughout", "both_constant_apart": "both raters give one label throughout",
            "too_few_off_main": "too few items on the rarer labels"}


def interval_words(shown: ShownInterval) -> str:
    """The interval the page shows, as the line of Cohen's kappa says it: its bounds and how it was made,
    or "no 95 % CI" and why (the reading below the figures says it in a sentence)."""
    if shown.withheld is not None:
        return f"no 95 % CI ({WITHHELD[shown.withheld.code]}, below)"
    return f"95 % CI [{_number(shown.low)}, {_number(shown.high)}] ({INTERVAL_NAMES[shown.method]})"


#: Readings about the unweighted kappa (`evallib.runs.kappa.bundle`: chance agreement, prevalence, bias, alpha).
PLAIN_TOPICS = ("kappa.alpha_vs_kappa", "kappa.chance", "kappa.prevalence", "kappa.bias")


def _print_table(name: str, report: dict, inputs: KappaInputs, shown: ShownInterval | None) -> None:
    raters = report["ratings"]["raters"]
    print(f"kappa: {name}, {len(raters)} raters ({', '.join(raters)}), {report['ratings']['n_items']} items")
    pair = report["pair"]
    if pair["status"] == "ok":
        result = pair["result"]
        print(f"Cohen's kappa {raters[inputs.pair[0]]} / {raters[inputs.pair[1]]} (weights "
              f"{result['weights'] or 'none'}): {_number(result['kappa'])}, {interval_words(shown)}, {result['n']} "
              f"items ({result['n_dropped']} with a missing rating left out)")
        print(f"  agreement {result['agreement']:.1%}, p_o {result['p_o']:.3f}, p_e {result['p_e']:.3f}; "
              f"Scott's pi {_number(pair['scott_pi'])}, PABAK {_number(pair['pabak'])}, AC1 {_number(pair['ac1'])}, "
              f"alpha {_number(pair['alpha'])}")
        if pair["items_needed"] is not None:
            print(f"  items needed for a 95 % interval of half-width {HALF_WIDTH}: {pair['items_needed']}")
    else:
        print(f"Cohen's kappa: not computed. {error_sentence(pair, 'weighted')}")
    for key, title, value in (("fleiss", "Fleiss' kappa", "kappa"), ("alpha", f"Krippendorff's alpha ({inputs.level})",
                                                                      "alpha")):
        figures = report[key]
        if figures["status"] != "ok":
            print(f"{title}: not computed. {error_sentence(figures, 'level')}")
            continue
        ci = figures["interval"]
        print(f"{title}: {_number(figures[value])}, 95 % CI [{_number(ci['low'])}, {_number(ci['high'])}] "
              f"(bootstrap over items, {ci['n_valid']} of {ci['n_boot']} resamples defined)")
    context = {"names": (raters[inputs.pair[0]], raters[inputs.pair[1]]), "half": HALF_WIDTH}
    if pair["status"] == "ok":
        context["n"] = pair["result"]["n"]
    weighted = pair["status"] == "ok" and pair["result"]["weights"]
    for reading in report["readings"]:
        about = f"[unweighted kappa {_number(pair['plain']['kappa'])}] " if (
            weighted and reading["topic"] in PLAIN_TOPICS) else ""
        print(f"  {about}{sentence(reading, context)}")


def _example(args: argparse.Namespace) -> tuple[str, str]:
    """(name, CSV text) of ``--example`` in the pack's examples; UsageError naming the keys there are."""
    shown, csv_example = presets_from(json.loads(args.examples.read_text(encoding="utf-8-sig")))
    examples = {p.key: p for p in (*shown, *([csv_example] if csv_example else []))}
    if args.example not in examples:
        raise UsageError(f"--example {args.example!r}: not an example of {args.examples.name} "
                         f"(there are: {', '.join(examples)})")
    preset = examples[args.example]
    return args.example, ratings_to_csv(preset, [f"R{j + 1}" for j in range(len(preset.ratings))])


def run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.example is None):
        raise UsageError("give a ratings file or --example KEY (one of the two)")
    name, text = _read(args.file) if args.file is not None else _example(args)
    try:
        raters = ratings(KappaInputs("file", file_name=name, file_text=text)).raters
    except AgreementInputError as error:
        raise UsageError(f"{name}: {error}") from None
    inputs = KappaInputs("file", file_name=name, file_text=text, pair=_pair(args.pair, raters),
                         weights=WEIGHT_NAMES[args.weights], ci_method=args.ci, level=args.level,
                         fold_case=args.fold_case)
    report, shown = report_and_interval(inputs)
    pair = report["pair"]
    kappa = pair["result"]["kappa"] if pair["status"] == "ok" else None
    if kappa is None:
        code = EXIT_NOT_MEASURED
    else:
        code = EXIT_PASS if args.min_kappa is None or kappa >= args.min_kappa else EXIT_GATE_FAILED
    extra = {"gate": {"code": outcome(code), "values": {"kappa": kappa, "min_kappa": args.min_kappa}},
             "outcome": outcome(code), "exit_code": code}
    try:
        bundle = make_bundle(inputs, made_by="cli", extra=extra, report=report)
    except RunBundleError as error:
        raise UsageError(f"the run bundle cannot be written: {error}") from None
    if args.out is not None:
        path = report_file(args.out, "kappa", name)
        write_bundle(path, bundle)
    if args.json:
        sys.stdout.write(dumps(bundle).decode("utf-8") + "\n")
    else:
        _print_table(name, report, inputs, shown)
        if pair["status"] != "ok":
            print("gate: NOT MEASURED (Cohen's kappa was not computed, above)")
        elif kappa is None:
            print("gate: NOT MEASURED (Cohen's kappa is undefined: chance agreement is 1)")
        elif args.min_kappa is not None:
            print(f"gate: {verdict(code)} (kappa {kappa:.3f}, minimum {args.min_kappa:.3f})")
        if args.out is not None:
            print(f"run bundle: {path}")
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the ``kappa`` command; returns the exit code (0 computed/passed, 1 below, 2 not measured)."""
    return run_command("kappa", _parser(), run, argv)


if __name__ == "__main__":
    sys.exit(main())

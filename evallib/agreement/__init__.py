"""Agreement between raters: Cohen's kappa and its relatives, with intervals and reading aids.

Plain numpy and the standard library: usable from a script, the CLI or a test. Modules, along the
lines of the field: ``ratings`` (labels, pairing, presets), ``cohen`` (two raters: the kappa family),
``multirater`` (Fleiss, Krippendorff), ``bootstrap`` (intervals from sufficient statistics),
``small_sample`` (kappa intervals for a few dozen items: Donner-Eliasziw, a calibrated posterior), ``measured`` (what
``bench/coverage.py`` measured of them), ``case_variants`` (labels differing only by case, folded on request),
``readings`` (what a value means, as reading codes), ``csv_input`` (ratings from a file).

Conventions shared by every function
------------------------------------
* Two raters are two sequences of labels of the same length, one entry per item. A missing rating
  is ``None``, a float NaN or a blank string; an item enters a two-rater coefficient only when both
  raters rated it (pairwise deletion), and the result says how many items were left out.
* Labels are compared as numbers when every label of the input reads as a number (``7``, ``"7"``,
  ``"7.0"`` and the French ``"7,5"``), otherwise as stripped text. Categories are sorted,
  numerically when the labels are numbers.
* A coefficient that the data cannot define (chance agreement of 1, no variation at all) is
  ``None`` together with a ``note`` code, never NaN. ``NOTES`` gives an English explanation.
* Every figure of a result is a finite float. Gaps between numeric labels are computed on the labels
  scaled by a power of two (exact in floating point), so that huge labels (1e308) do not overflow;
  a figure that still cannot be represented raises ``AgreementInputError`` with code ``not_finite``.
  ``inf`` and ``nan`` typed as labels are not numbers: they are text labels.
* Input that no coefficient can use raises ``AgreementInputError``, whose ``code`` and ``details``
  let a user interface word the problem in its own language.
* Results are frozen dataclasses; how to show them is the caller's business.
"""

from evallib.agreement.bootstrap import (
    BootstrapInterval,
    bootstrap_ci,
    cohen_kappa_bootstrap_ci,
    fleiss_kappa_bootstrap_ci,
    krippendorff_alpha_bootstrap_ci,
)
from evallib.agreement.cohen import (
    KappaResult,
    agreement_weights,
    bias_index,
    cohen_kappa,
    contingency_table,
    gwet_ac1,
    items_for_half_width,
    pabak,
    prevalence_index,
    scott_pi,
)
from evallib.agreement.csv_input import RatingsTable, ratings_to_csv, read_ratings_csv
from evallib.agreement.multirater import AlphaResult, FleissResult, fleiss_kappa, krippendorff_alpha
from evallib.agreement.ratings import (
    AUTHORED_JUDGE_SCORES,
    AUTHORED_THREE_RATERS,
    BOTH_RATERS_CONSTANT,
    CONSTANT_RATER,
    LEVELS,
    NO_VARIATION,
    NOTES,
    PRESETS,
    SEED_LENIENT_PAIR,
    SEED_RUBRIC_PAIR,
    SINGLE_CATEGORY,
    WEIGHTINGS,
    AgreementInputError,
    Label,
    Preset,
    presets_from,
    RatingPair,
    as_number,
    format_label,
    is_missing,
    pair_ratings,
    parse_labels,
)
from evallib.agreement.readings import (
    FLEISS_1981,
    KRIPPENDORFF_2004,
    LANDIS_KOCH_1977,
    Band,
    InterpretationScale,
    Reading,
    interpret,
)
from evallib.agreement.bootstrap import fleiss_kappa_with_interval, krippendorff_alpha_with_interval
from evallib.agreement.report import PairReport, ShownInterval, pair_report, shown_interval

"""What a result means, as data: each function returns a ``Reading`` (a code and the values it rests on).

A user interface words each code in its own language; nothing here is a sentence. Every code has a
test with values that trigger it (ties, two items, identical ratings, undefined coefficients,
zero-width intervals). Bands are published conventions, not statistical tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from evallib.agreement.bootstrap import BootstrapInterval
from evallib.agreement.cohen import KappaResult, agreement_weights
from evallib.agreement.ratings import BOTH_RATERS_CONSTANT, CONSTANT_RATER, Label, format_label
from evallib.agreement.small_sample import (
    GOODNESS_OF_FIT,
    MIN_OFF_MAIN,
    POSTERIOR,
    SmallSampleInterval,
    credible_level,
)
from evallib.readings import Reading


@dataclass(frozen=True)
class Band:
    """Values up to ``upper`` (included or not) fall in the band ``key``."""

    key: str
    upper: float
    includes_upper: bool


@dataclass(frozen=True)
class InterpretationScale:
    """A published set of bands; values are rounded to ``digits`` as in the published table."""

    key: str
    source: str
    digits: int
    bands: tuple[Band, ...]


LANDIS_KOCH_1977 = InterpretationScale(
    key="landis_koch", source="Landis & Koch (1977), Biometrics 33:159-174", digits=2,
    bands=(Band("poor", 0.0, False), Band("slight", 0.20, True), Band("fair", 0.40, True),
           Band("moderate", 0.60, True), Band("substantial", 0.80, True),
           Band("almost_perfect", 1.0, True)))
FLEISS_1981 = InterpretationScale(
    key="fleiss", source="Fleiss (1981), Statistical Methods for Rates and Proportions, 2nd ed.",
    digits=2, bands=(Band("poor", 0.40, False), Band("fair_to_good", 0.75, True),
                     Band("excellent", 1.0, True)))
KRIPPENDORFF_2004 = InterpretationScale(
    key="krippendorff", source="Krippendorff (2004), Content Analysis, 2nd ed., §11.4", digits=3,
    bands=(Band("discard", 0.667, False), Band("tentative", 0.800, False),
           Band("reliable", 1.0, True)))


def interpret(value: float, scale: InterpretationScale) -> str:
    """The key of the band of ``scale`` holding ``value`` (rounded to the scale's digits).

    Raises ValueError for NaN or an infinite value, which no band holds.

    >>> interpret(0.625, LANDIS_KOCH_1977), interpret(0.625, FLEISS_1981)
    ('substantial', 'fair_to_good')
    """
    if not math.isfinite(value):
        raise ValueError(f"cannot read {value} on the {scale.key} scale: not a finite number")
    rounded = round(value, scale.digits)
    for band in scale.bands:
        if rounded < band.upper or (band.includes_upper and rounded == band.upper):
            return band.key
    return scale.bands[-1].key



def band_of(value: float, scale: InterpretationScale) -> str:
    """``"<scale>.<band>"`` for ``value``, the form readings use for a band."""
    return f"{scale.key}.{interpret(value, scale)}"


# Below this many items an interval from a handful of items is read as rough: a rule of thumb, not a
# theorem (kappa's sampling distribution is skewed on a few dozen items, most visibly near 1).
LARGE_SAMPLE_ITEMS = 50

# More than this share of undefined resamples and the interval describes only the resamples where
# the coefficient exists (the lenient pair: 699 of 2000 dropped): flag it.
MANY_UNDEFINED_SHARE = 0.05

# More than this share of resamples with a constant rater (Cohen's kappa 0 by construction, whatever the
# other rater does) and the interval is pulled towards 0 by them: flag it, at the threshold of the
# undefined resamples above (a rater whose minority label sits on one item of 15 loses it in 35 % of them).
MANY_CONSTANT_SHARE = MANY_UNDEFINED_SHARE

# An estimate this close to a bound of its interval sits on it (discrete data give bootstrap
# distributions with heavy atoms: the lenient pair's estimate equals the interval's upper bound).
ON_BOUND_TOLERANCE = 1e-9

# Prevalence and bias indices range over [0, 1]. Above 0.5 one label holds most of the agreement and
# the paradox is worth spelling out; a bias above 0.2 means the raters' shares of a label differ by
# more than a fifth of the items.
HIGH_PREVALENCE = 0.5
HIGH_BIAS = 0.2

# Kappa, Scott's pi and alpha closer than this are read as equal (second decimal, as shown).
SAME_COEFFICIENT = 0.005

# Labels read as "criterion met" / "not met" when a binary scale uses them (case and accents aside).
# Numeric 0/1 follows the course material's convention (1 = criterion met, docs/kappa.md). With other labels no label is
# called the pass label and readings name the label instead.
PASS_WORDS = frozenset({"1", "pass", "passed", "yes", "y", "true", "ok", "met", "oui", "o", "vrai",
                        "reussi", "valide", "conforme", "satisfait"})
FAIL_WORDS = frozenset({"0", "fail", "failed", "no", "n", "false", "ko", "not met", "non", "faux",
                        "echec", "echoue", "invalide", "non conforme", "non satisfait"})


def _folded(label: Label) -> str:
    text = format_label(label).strip().lower()
    return text.translate(str.maketrans("éèêëàâîïôûùç", "eeeeaaiiouuc"))


def pass_label(categories: tuple[Label, ...]) -> Label | None:
    """The label meaning "criterion met" on a two-label scale, or None when the labels do not say.

    >>> pass_label((0.0, 1.0)), pass_label(("non", "oui")), pass_label(("A", "B"))
    (1.0, 'oui', None)
    """
    if len(categories) != 2:
        return None
    folded = [_folded(c) for c in categories]
    for i in (0, 1):
        if folded[i] in PASS_WORDS and folded[1 - i] in FAIL_WORDS:
            return categories[i]
    return None


def _top_agreed(table: np.ndarray) -> int | None:
    """The category the raters agree on most often, or None when that maximum is shared (a tie)."""
    diagonal = table.diagonal()
    top = int(diagonal.argmax())
    return None if np.count_nonzero(diagonal == diagonal[top]) > 1 else top


def degenerate_pair(result: KappaResult) -> Reading | None:
    """Why kappa says nothing on these ratings (a constant rater), or None.

    ``both_constant`` (same label throughout: kappa undefined), ``both_constant_apart`` (each rater
    constant on a different label), ``constant_rater`` (``rater`` 0 or 1 is constant: kappa is 0).
    """
    used_1 = [c for c, s in zip(result.categories, result.marginals_1) if s > 0]
    used_2 = [c for c, s in zip(result.categories, result.marginals_2) if s > 0]
    if result.note == BOTH_RATERS_CONSTANT:
        return Reading("both_constant", {"label": format_label(used_1[0]), "agreement_share": result.agreement})
    if result.note != CONSTANT_RATER:
        return None
    if len(used_1) == 1 and len(used_2) == 1:
        return Reading("both_constant_apart", {"label_a": format_label(used_1[0]),
                                               "label_b": format_label(used_2[0])})
    rater = 0 if len(used_1) == 1 else 1
    return Reading("constant_rater", {"rater": rater, "label": format_label((used_1, used_2)[rater][0]),
                                      "p": result.p_o, "agreement_share": result.agreement})


#: The probability with which ``rare_labels``' items needed let each rater use the rarer labels enough.
RARE_LABELS_ASSURANCE = 0.95


def rare_labels(result: KappaResult) -> Reading | None:
    """``too_few_off_main`` when, on three or more labels, a rater puts fewer than ``MIN_OFF_MAIN`` items off
    the main label (the label with the most ratings of both raters): no interval is given then (the
    bench, ``bench/coverage.py``, measures coverage only from that count up). None otherwise, and when
    kappa is undefined or the labels are two (the goodness-of-fit interval covers those tables).

    Values: ``rater`` (0 or 1, the one with fewer such items), ``label`` (the main label), ``off_main``
    (that rater's items off it), ``n`` (items), ``min_off_main``, ``other_share`` (share of both raters'
    ratings off the main label) and ``items_needed``: the fewest items on which a rater giving the other
    labels at ``other_share`` puts at least ``min_off_main`` items there with probability
    ``assurance_share`` (binomial), None when ``other_share`` is 0.
    """
    if len(result.categories) <= 2 or result.kappa is None:
        return None
    table = result.table
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    main = int(np.argmax(rows + cols))
    off = (result.n - int(rows[main]), result.n - int(cols[main]))
    rater = int(np.argmin(off))
    if off[rater] >= MIN_OFF_MAIN:
        return None
    share = (2 * result.n - rows[main] - cols[main]) / (2 * result.n)
    needed = None
    if share > 0:
        from scipy import stats  # here, not at import: importing evallib.agreement stays light

        sizes = np.arange(1, 1_000_001)
        enough = stats.binom.sf(MIN_OFF_MAIN - 1, sizes, share) >= RARE_LABELS_ASSURANCE
        needed = int(sizes[np.argmax(enough)]) if enough.any() else None
    return Reading("too_few_off_main", {"rater": rater, "label": format_label(result.categories[main]),
                                        "off_main": off[rater], "n": result.n, "min_off_main": MIN_OFF_MAIN,
                                        "other_share": float(share), "items_needed": needed,
                                        "assurance_share": RARE_LABELS_ASSURANCE})


def exact_interval(result: KappaResult) -> tuple[float, float] | None:
    """An exact interval for kappa when every item agrees or every item disagrees, else None.

    The Clopper-Pearson interval of the agreement probability has closed forms there: with all n
    items agreeing, [(α/2)^(1/n), 1]; with none, [0, 1 - (α/2)^(1/n)]. Mapped to kappa with chance
    agreement held at the observed marginals (kappa = (p - p_e) / (1 - p_e)), clipped to [-1, 1].
    Unweighted kappa only (weights give partial credit, the count is no longer binomial).
    Source: Clopper & Pearson (1934), Biometrika 26:404-413.
    """
    if result.kappa is None or result.weights is not None or result.agreement not in (0.0, 1.0):
        return None
    tail = ((1 - result.confidence) / 2) ** (1 / result.n)
    p_low, p_high = (tail, 1.0) if result.agreement == 1.0 else (0.0, 1 - tail)
    to_kappa = lambda p: min(1.0, max(-1.0, (p - result.p_e) / (1 - result.p_e)))  # noqa: E731
    return to_kappa(p_low), to_kappa(p_high)


def interval_reading(estimate: float | None, low: float | None, high: float | None, n: int,
                     scale: InterpretationScale, *, analytic: bool) -> Reading:
    """Where an interval falls on ``scale``, or why it cannot be read.

    ``undefined`` (no bounds); ``zero_width_analytic`` (the large-sample standard error is 0: the
    formula, not the data, makes the interval a point); ``zero_width_resamples`` (every usable
    resample gave the same value: too few items to vary); ``one_band``; ``bands`` (spans several).
    ``scale`` in the values is the scale's key, so that a sentence names the scale the bands are of.
    """
    values = {"low": low, "high": high, "n": n, "scale": scale.key}
    if estimate is None or low is None or high is None:
        return Reading("undefined", values)
    if high - low <= ON_BOUND_TOLERANCE:
        return Reading("zero_width_analytic" if analytic else "zero_width_resamples", values)
    low_band, high_band = band_of(low, scale), band_of(high, scale)
    if low_band == high_band:
        return Reading("one_band", {**values, "band": low_band})
    return Reading("bands", {**values, "low_band": low_band, "high_band": high_band})


def analytic_interval_size(n: int) -> Reading:
    """``small`` below ``LARGE_SAMPLE_ITEMS`` items (the approximation is rough), else ``large``."""
    return Reading("small" if n < LARGE_SAMPLE_ITEMS else "large", {"n": n})


def bootstrap_flags(ci: BootstrapInterval) -> list[Reading]:
    """What to say about a bootstrap interval beside its bounds.

    Always ``usable`` (how many of the resamples gave a defined value); then ``many_undefined``
    when more than ``MANY_UNDEFINED_SHARE`` were left out (the interval then describes only the
    resamples where the coefficient exists), ``constant_rater`` (Cohen's kappa) when in more than
    ``MANY_CONSTANT_SHARE`` of them a rater gave one label to every item (kappa 0 by construction: they
    pile up at 0, where a bound can land because of them), and ``on_bound`` when the estimate sits on a
    bound or outside the interval (the percentile interval is then lopsided: a heavy atom of resamples at
    the estimate, or a skewed distribution).
    """
    flags = [Reading("usable", {"n_valid": ci.n_valid, "n_boot": ci.n_boot})]
    if ci.n_undefined > MANY_UNDEFINED_SHARE * ci.n_boot:
        flags.append(Reading("many_undefined", {"n_undefined": ci.n_undefined, "n_boot": ci.n_boot,
                                                "undefined_share": ci.n_undefined / ci.n_boot}))
    if ci.n_constant is not None and ci.n_constant > MANY_CONSTANT_SHARE * ci.n_boot:
        flags.append(Reading("constant_rater", {"n_constant": ci.n_constant, "n_boot": ci.n_boot,
                                                "constant_share": ci.n_constant / ci.n_boot}))
    if ci.low is not None and ci.estimate is not None and ci.high - ci.low > ON_BOUND_TOLERANCE and (
            ci.estimate <= ci.low + ON_BOUND_TOLERANCE or ci.estimate >= ci.high - ON_BOUND_TOLERANCE):
        flags.append(Reading("on_bound", {"estimate": ci.estimate, "low": ci.low, "high": ci.high}))
    return flags


def sample_size(result: KappaResult, needed: int | None, half_width: float) -> Reading:
    """How many items a ±``half_width`` interval needs, or why this pilot cannot say.

    ``none_constant`` (a constant rater: kappa is 0 whatever the items), ``none_perfect`` (every
    item agrees: standard error 0), ``none_opposite`` (every item disagrees: standard error 0; on
    fewer than ``LARGE_SAMPLE_ITEMS`` items, where that may still be chance), ``none_opposite_many``
    (the same on more items),
    ``none_zero_se`` (another table with standard error 0); ``needed`` (more items than now),
    ``enough_small`` / ``enough_large`` (already narrow enough, on few or many items).
    """
    values = {"n": result.n, "half": half_width, "needed": needed, "half_now": result.half_width}
    if needed is None:
        if result.note is not None:
            return Reading("none_constant", values)
        if result.agreement in (0.0, 1.0):
            if result.agreement == 1.0:
                return Reading("none_perfect", values)
            return Reading("none_opposite" if result.n < LARGE_SAMPLE_ITEMS else "none_opposite_many", values)
        return Reading("none_zero_se", values)
    if needed > result.n:
        return Reading("needed", values)
    return Reading("enough_small" if result.n < LARGE_SAMPLE_ITEMS else "enough_large", values)


def chance(result: KappaResult) -> Reading:
    """How much agreement chance alone gives, illustrated by the label the raters agree on most.

    ``chance`` names that label and both raters' shares of it; ``chance_tie`` when several labels
    share the most agreements (naming one would read a tie-break as a finding).
    """
    values = {"p_e": result.p_e, "p_o": result.p_o, "kappa": result.kappa}
    top = _top_agreed(result.table)
    if top is None:
        return Reading("chance_tie", values)
    return Reading("chance", {**values, "label": format_label(result.categories[top]),
                              "a_share": float(result.marginals_1[top]),
                              "b_share": float(result.marginals_2[top])})


def prevalence(result: KappaResult, index: float, pass_: Label | None) -> Reading:
    """The prevalence index read for two labels.

    ``high_pass`` (one label dominates and it is the pass label: a rubric almost always met),
    ``high_fail`` (the fail label dominates: a rubric almost never met), ``high`` (a label dominates,
    the labels do not say which is a pass), ``low``, ``tie`` (both labels agreed on equally often).
    """
    top = _top_agreed(result.table)
    values = {"index": index}
    if top is None:
        return Reading("tie", values)
    label = result.categories[top]
    values |= {"label": format_label(label), "both_share": float(result.table[top, top] / result.n)}
    if index < HIGH_PREVALENCE:
        return Reading("low", values)
    if pass_ is None:
        return Reading("high", values)
    return Reading("high_pass" if label == pass_ else "high_fail", values)


def bias(result: KappaResult, index: float) -> Reading:
    """The bias index read on the label the raters agree on most (the first label on a tie).

    ``none`` (both raters give it equally often), ``high`` (index >= ``HIGH_BIAS``), ``low``, and
    ``low_counts`` when the two shares round to the same whole percent (the counts tell them apart).
    """
    top = _top_agreed(result.table)
    top = 0 if top is None else top
    count_a, count_b = int(result.table[top].sum()), int(result.table[:, top].sum())
    values = {"index": index, "label": format_label(result.categories[top]), "a_count": count_a,
              "b_count": count_b, "a_share": count_a / result.n, "b_share": count_b / result.n}
    if count_a == count_b:
        return Reading("none", values)
    if index >= HIGH_BIAS:
        return Reading("high", values)
    if round(100 * count_a / result.n) == round(100 * count_b / result.n):
        return Reading("low_counts", values)
    return Reading("low", values)


def alpha_beside_kappa(kappa: float | None, pi: float | None, alpha: float | None, n: int) -> Reading | None:
    """Why Krippendorff's alpha differs from Cohen's kappa on two raters, or None when they agree.

    Two effects separate them. Alpha's chance term uses the pooled shares, as Scott's pi does, where
    kappa uses each rater's own; and on two raters without missing ratings alpha = pi + (1 - pi) / (2n),
    the correction for sampling 2n values without replacement, which matters on few items
    ([A, B] vs [B, A]: kappa = pi = -1, alpha = -0.5). ``small_sample`` when only the correction
    separates them (kappa = pi), ``marginals`` when only the shares do (alpha = pi), ``both``
    otherwise. None when alpha and kappa agree (to ``SAME_COEFFICIENT``) or one is undefined.
    Source: Krippendorff (2011), "Computing Krippendorff's alpha-reliability".
    """
    if kappa is None or pi is None or alpha is None or abs(alpha - kappa) < SAME_COEFFICIENT:
        return None
    values = {"kappa": kappa, "pi": pi, "alpha": alpha, "n": n, "n_values": 2 * n}
    if abs(kappa - pi) < SAME_COEFFICIENT:
        return Reading("small_sample", values)
    if abs(alpha - pi) < SAME_COEFFICIENT:
        return Reading("marginals", values)
    return Reading("both", values)


def closest_scores_credit(categories: tuple[float, ...]) -> Reading:
    """The credit linear and quadratic weights give the two closest scores (``weighted_credit``)."""
    gaps = [b - a for a, b in zip(categories, categories[1:])]
    closest = gaps.index(min(gaps))
    credit = {w: float(agreement_weights(categories, w)[closest, closest + 1]) for w in ("linear", "quadratic")}
    return Reading("weighted_credit", {"step": min(gaps), "linear": credit["linear"],
                                       "quadratic": credit["quadratic"], "low": format_label(categories[0]),
                                       "high": format_label(categories[-1])})


def coefficient(value: float | None, scale: InterpretationScale) -> Reading:
    """``band`` with the value's band on ``scale``, or ``undefined``."""
    if value is None:
        return Reading("undefined")
    return Reading("band", {"value": value, "band": band_of(value, scale)})


def small_sample_flags(ci: SmallSampleInterval, kappa: float | None) -> list[Reading]:
    """What to say beside the small-sample interval: which construction made it, and on what.

    ``goodness_of_fit`` (two labels: Donner & Eliasziw's interval, built around Scott's pi), with
    ``goodness_of_fit_pi`` when that centre differs from kappa by ``SAME_COEFFICIENT`` or more (the
    raters use the labels unequally: the model's common share does not hold exactly);
    ``dirichlet_posterior`` (more labels: the calibrated posterior interval, with its draws and the
    credible level used); ``studentised_bootstrap`` (the bootstrap-t, with its usable resamples).
    """
    if ci.method == GOODNESS_OF_FIT:
        flags = [Reading("goodness_of_fit", {"centre": ci.centre})]
        if ci.centre is not None and kappa is not None and abs(ci.centre - kappa) >= SAME_COEFFICIENT:
            flags.append(Reading("goodness_of_fit_pi", {"pi": ci.centre, "kappa": kappa}))
        return flags
    if ci.method == POSTERIOR:
        return [Reading("dirichlet_posterior", {"n_valid": ci.n_valid, "n_boot": ci.n_boot,
                                                "credible_share": credible_level(ci.confidence),
                                                "confidence_share": ci.confidence})]
    return [Reading("studentised_bootstrap", {"n_valid": ci.n_valid, "n_boot": ci.n_boot})]


def constant_rater_interval(degenerate: Reading | None, ci: SmallSampleInterval | None) -> Reading | None:
    """``constant_rater_pooled``: the goodness-of-fit interval beside a constant rater, or None.

    Kappa is 0 by construction when one rater is constant, but the common-correlation model pools
    both raters' labels, so its interval still says something (at prevalence 0.9 on 30 items, one
    rater in twenty-five is constant by chance alone). Only for ``constant_rater`` and a
    ``goodness_of_fit`` interval with bounds.
    """
    if degenerate is None or degenerate.code != "constant_rater" or ci is None or ci.method != GOODNESS_OF_FIT \
            or ci.low is None:
        return None
    return Reading("constant_rater_pooled", {"low": ci.low, "high": ci.high, "pi": ci.centre})

"""Exact tests on paired differences, valid on a handful of cases: the sign test and the sign-flip test.

A paired design gives one difference per case (template B's score minus template A's on one request,
the padded copy's score minus the original's...). On a few cases a Student t interval leans on a
normality nobody can check, and over identical differences it has zero width, which reads as
certainty. These tests assume only that, with no effect, each difference is as likely to be positive
as negative (the two members of a pair are exchangeable):

- `sign_test`: how many differences are positive against how many are negative (zeros dropped), with
  the exact two-sided binomial p-value (Dixon & Mood 1946, "The statistical sign test").
- `sign_flip_test`: the mean difference against its value under every one of the 2^n ways of flipping
  the signs of the n differences (Fisher 1935, "The Design of Experiments", section 21). Exact up to
  `EXACT_MAX_CASES` cases, a Monte Carlo sample of `MONTE_CARLO_FLIPS` flips beyond (the p-value's
  standard error is then about 0.0015 near 0.05). Its confidence interval is the set of shifts the
  test does not reject (test inversion): its unit is the case, and with fewer than six cases no shift
  can be rejected at 5 %, so there is none. It is an interval for the differences' CENTRE OF SYMMETRY
  (the shift mu under which d - mu is symmetric about 0): the mean only when the differences are
  symmetric. On skewed differences it covers the mean less often than 95 % (``bench/coverage.py``:
  0.84 to 0.95 at n = 10-30, lowest on the most skewed); so does Student's t, and the bootstrap-t
  of the mean still falls below 0.93 at n = 10, so no interval of the mean is shown: the label says
  what this one covers.

Neither p-value can fall below 2 / 2^n (every difference positive, or every one negative): with n < 6
cases no paired test can reach 5 %, whatever the scores. `p_floor` is that bound, for the readings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

ALPHA = 0.05
#: Up to this many cases the sign-flip test goes through all 2^n flips (2^16 = 65,536, under 0.2 s
#: with its interval); beyond, it draws `MONTE_CARLO_FLIPS` of them.
EXACT_MAX_CASES = 16
MONTE_CARLO_FLIPS = 20_000
SEED = 0
#: Signs built at once (a block of rows of the sign matrix): about 16 MB of float64.
_BLOCK_CELLS = 1 << 21
#: Relative tolerance when comparing a flipped statistic with the observed one (float sums of the
#: same integers in another order must count as ties).
_TOLERANCE = 1e-12
_BISECTIONS = 50


@dataclass(frozen=True)
class SignTest:
    """``positive``/``negative``/``zero``: counts of differences; ``p``: two-sided exact binomial
    p-value over the ``positive + negative`` non-zero ones (1.0 when all are zero, None when n = 0)."""

    positive: int
    negative: int
    zero: int
    p: float | None


def _binomial_tail(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2), summed exactly in integers."""
    return sum(comb(n, i) for i in range(k + 1)) / 2 ** n


def sign_test(differences: Sequence[float]) -> SignTest:
    """Exact two-sided sign test of "positive and negative differences are equally likely".

    p = min(1, 2 · P(X <= min(n+, n-))) with X ~ Binomial(n+ + n-, 1/2); zeros are dropped
    (Dixon & Mood 1946). Same as ``scipy.stats.binomtest(n+, n+ + n-).pvalue``.

    >>> sign_test([2, 1, 0, 2, 1])
    SignTest(positive=4, negative=0, zero=1, p=0.125)
    """
    d = np.asarray(differences, dtype=float)
    positive, negative = int(np.sum(d > 0)), int(np.sum(d < 0))
    zero = int(d.size - positive - negative)
    if d.size == 0:
        return SignTest(0, 0, 0, None)
    m = positive + negative
    p = 1.0 if m == 0 else min(1.0, 2 * _binomial_tail(min(positive, negative), m))
    return SignTest(positive, negative, zero, p)


def p_floor(n: int) -> float:
    """The smallest two-sided p-value any sign or sign-flip test can give on ``n`` cases: 2 / 2^n."""
    return min(1.0, 2.0 / 2 ** n)


@dataclass(frozen=True)
class PairedTest:
    """The sign-flip test of n paired differences, and the interval it implies for their mean.

    ``mean``: mean difference (None when n = 0). ``p``: two-sided p-value of "no effect" (None when
    n = 0). ``low``/``high``: the ``confidence`` interval of the differences' centre of symmetry by
    test inversion (the mean when the differences are symmetric; module docstring), in the
    differences' unit, one case one draw; None when the test cannot reject any shift at this
    size (n < 6 for 95 %). ``method``: "exact" (all 2^n flips) or "monte_carlo" (``flips`` drawn).
    ``p_floor``: 2 / 2^n. ``equal``: every difference is the same value (then low == high: a
    zero-width interval that says the test rejects every other shift, not that the effect is known).
    """

    n: int
    mean: float | None
    p: float | None
    low: float | None
    high: float | None
    method: str
    flips: int
    p_floor: float
    positive: int
    zero: int
    negative: int
    confidence: float

    @property
    def equal(self) -> bool:
        return self.n > 0 and self.low is not None and self.low == self.high

    @property
    def concludes(self) -> bool:
        """The test rejects "no effect" at 1 - ``confidence``."""
        return self.p is not None and self.p <= 1 - self.confidence + 1e-12


def _flip_sums(d: np.ndarray, seed: int, resamples: int) -> tuple[np.ndarray, np.ndarray, str]:
    """For each sign vector s: (s · d, s · 1), over all 2^n vectors or ``resamples`` random ones.

    Exact: every n-bit number is one vector (bit i set: d_i flipped), in blocks of about
    `_BLOCK_CELLS` bits. Monte Carlo: flipping each of the c equal differences of value v with
    probability 1/2 flips a Binomial(c, 1/2) number of them, so one draw per distinct value is a
    draw of s (scores are whole points: a few values however many cases).
    """
    n = d.size
    if n > EXACT_MAX_CASES:
        values, sizes = np.unique(d, return_counts=True)
        flipped = np.random.default_rng(seed).binomial(sizes, 0.5, size=(resamples, values.size)).astype(float)
        return d.sum() - 2.0 * (flipped @ values), n - 2.0 * flipped.sum(axis=1), "monte_carlo"
    rows = max(1, _BLOCK_CELLS // n)
    sums, counts = [], []
    for start in range(0, 2 ** n, rows):
        codes = np.arange(start, min(start + rows, 2 ** n), dtype=np.int64)
        flipped = ((codes[:, None] >> np.arange(n)) & 1).astype(float)
        sums.append(d.sum() - 2.0 * (flipped @ d))
        counts.append(n - 2.0 * flipped.sum(axis=1))
    return np.concatenate(sums), np.concatenate(counts), "exact"


def _p_value(shift: float, d: np.ndarray, sums: np.ndarray, counts: np.ndarray, method: str) -> float:
    """Two-sided p of "the differences are symmetric about ``shift``": the share of flips whose
    |s · (d - shift)| reaches the observed |sum(d - shift)| (Monte Carlo: (1 + hits) / (1 + draws))."""
    observed = abs(d.sum() - shift * d.size)
    flipped = np.abs(sums - shift * counts)
    hits = int(np.sum(flipped >= observed - _TOLERANCE * max(observed, 1.0)))
    return hits / sums.size if method == "exact" else (1 + hits) / (1 + sums.size)


def _boundary(inside: float, outside: float, accepted) -> float:
    """Bisection between a shift the test accepts and one it rejects: the last accepted shift."""
    for _ in range(_BISECTIONS):
        middle = (inside + outside) / 2
        inside, outside = (middle, outside) if accepted(middle) else (inside, middle)
    return inside


def sign_flip_test(differences: Sequence[float], *, confidence: float = 1 - ALPHA, seed: int = SEED,
                   resamples: int = MONTE_CARLO_FLIPS) -> PairedTest:
    """Sign-flip (paired permutation) test of the mean difference, with its test-inversion interval
    for the differences' centre of symmetry.

    differences: shape (n,), one per case (B - A). p = #{s : |s · d| >= |sum d|} / 2^n over every
    s in {-1, +1}^n, two-sided (Fisher 1935); for n > `EXACT_MAX_CASES`, ``resamples`` random s from
    ``numpy.random.default_rng(seed)`` and p = (1 + hits) / (1 + resamples). Same p as
    ``scipy.stats.permutation_test((d,), np.mean, permutation_type="samples")``.

    Interval: the shifts mu for which the test on d - mu gives p > 1 - confidence, ends found by
    bisection between the mean (p = 1) and a shift beyond every difference (p = 2 / 2^n). None when
    2 / 2^n > 1 - confidence: no shift is rejected with so few cases. Raises ValueError on a
    non-finite difference.

    >>> t = sign_flip_test([2, 2])
    >>> (t.p, t.low, t.p_floor)
    (0.5, None, 0.5)
    """
    d = np.asarray(differences, dtype=float).ravel()
    if not np.all(np.isfinite(d)):
        raise ValueError("every difference must be a finite number")
    signs = sign_test(d)
    if d.size == 0:
        return PairedTest(0, None, None, None, None, "exact", 0, 1.0, 0, 0, 0, confidence)
    sums, counts, method = _flip_sums(d, seed, resamples)
    alpha = 1 - confidence
    mean = float(d.mean())
    p = _p_value(0.0, d, sums, counts, method)
    low = high = None
    if p_floor(d.size) <= alpha:
        def accepted(shift: float) -> bool:
            return _p_value(shift, d, sums, counts, method) > alpha
        reach = float(np.ptp(d)) + 1.0
        low_out, high_out = float(d.min()) - reach, float(d.max()) + reach
        if not accepted(low_out) and not accepted(high_out):
            low, high = _boundary(mean, low_out, accepted), _boundary(mean, high_out, accepted)
            if np.ptp(d) == 0:  # every difference equal: the interval is that one value
                low = high = mean
    return PairedTest(int(d.size), mean, float(p), low, high, method, int(sums.size), p_floor(d.size),
                      signs.positive, signs.zero, signs.negative, confidence)


def paired_code(test: PairedTest) -> str:
    """What the test allows one to say: "no_pairs", "all_zero" (every difference is 0), "positive" /
    "negative" (the test concludes, in the direction of the mean), "too_few" (2 / 2^n is above the
    level: no test can conclude at this size), "cannot_tell" (it could have, it did not)."""
    if test.n == 0:
        return "no_pairs"
    if test.positive == test.negative == 0:
        return "all_zero"
    if test.concludes:
        return "positive" if test.mean > 0 else "negative"
    if test.p_floor > 1 - test.confidence:
        return "too_few"
    return "cannot_tell"


#: What ``low``/``high`` of a `PairedTest` cover, as the reports name it.
INTERVAL_OF = "centre_of_symmetry"


def paired_values(test: PairedTest) -> dict:
    """The values a paired reading rests on (counts, mean, p, smallest possible p, interval and what it
    covers, method)."""
    return {"interval_of": INTERVAL_OF, "n": test.n, "mean": test.mean, "p": test.p, "p_floor": test.p_floor,
            "low": test.low,
            "high": test.high, "flips": test.flips, "method": test.method, "positive": test.positive,
            "zero": test.zero, "negative": test.negative}

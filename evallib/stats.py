"""Intervals and tests for a proportion k/n, shared by the pages.

Every function validates its counts up front (``ValueError`` with a message naming the value)
and returns plain floats. The distributions come from the standard library's ``NormalDist`` and
``scipy.special``, the functions behind ``scipy.stats.norm``, ``beta`` and ``binom``: importing
``scipy.stats`` costs a server about 0.4 s more, paid by the first participant who opens a page.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from scipy import special

DEFAULT_CONFIDENCE = 0.95

def _check_counts(k: int, n: int) -> None:
    if n <= 0:
        raise ValueError(f"the number of trials n must be positive, got n={n}")
    if k < 0 or k > n:
        raise ValueError(f"the number of successes k must be between 0 and n={n}, got k={k}")


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")


def _two_sided_z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(k: int, n: int, confidence: float = DEFAULT_CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for a proportion p = k/n: (lower, upper), both in [0, 1].

    With z the two-sided normal quantile of ``confidence`` (1.96 for 0.95):

        centre = (p + z²/(2n)) / (1 + z²/n)
        half   = z / (1 + z²/n) * sqrt(p(1 - p)/n + z²/(4n²))

    Unlike the Wald interval p ± z·sqrt(p(1-p)/n), it never leaves [0, 1] and stays informative
    at k = 0 or k = n, which matters for the small n of a workshop (36 responses).
    Raises ValueError when n <= 0, k is outside [0, n] or confidence is outside (0, 1).
    Source: Wilson (1927), JASA 22:209-212; same as statsmodels ``proportion_confint(method="wilson")``.

    >>> [round(x, 3) for x in wilson_interval(21, 36)]
    [0.422, 0.729]
    """
    _check_counts(k, n)
    _check_confidence(confidence)
    z = _two_sided_z(confidence)
    p = k / n
    denominator = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / denominator
    half_width = z / denominator * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return max(0.0, centre - half_width), min(1.0, centre + half_width)


def clopper_pearson_interval(
    k: int, n: int, confidence: float = DEFAULT_CONFIDENCE
) -> tuple[float, float]:
    """Clopper-Pearson ("exact") interval for a proportion k/n: (lower, upper).

    With alpha = 1 - confidence and B(q; a, b) the q-quantile of the Beta(a, b) distribution:

        lower = B(alpha/2; k, n - k + 1)      (0 when k = 0)
        upper = B(1 - alpha/2; k + 1, n - k)  (1 when k = n)

    It inverts two one-sided binomial tests, so its coverage is at least ``confidence``
    (conservative). Raises ValueError as ``wilson_interval``.
    Source: Clopper & Pearson (1934), Biometrika 26:404-413; same as statsmodels
    ``proportion_confint(method="beta")``.

    >>> [round(x, 3) for x in clopper_pearson_interval(0, 10)]
    [0.0, 0.308]
    """
    _check_counts(k, n)
    _check_confidence(confidence)
    alpha = 1 - confidence
    # special.betaincinv(a, b, q) is the q-quantile of Beta(a, b), as scipy.stats.beta.ppf.
    lower = 0.0 if k == 0 else float(special.betaincinv(k, n - k + 1, alpha / 2))
    upper = 1.0 if k == n else float(special.betaincinv(k + 1, n - k, 1 - alpha / 2))
    return lower, upper


def binomial_test_greater(k: int, n: int, p: float) -> float:
    """Exact one-sided binomial p-value: P(K >= k) for K ~ Binomial(n, p).

    Answers "is the success rate above p?" (for instance an accuracy above chance 1/k).
    Raises ValueError when the counts are invalid or p is outside [0, 1].
    Source: scipy.stats.binomtest(k, n, p, alternative="greater").

    >>> f"{binomial_test_greater(21, 36, 1 / 6):.1e}"
    '1.9e-08'
    """
    _check_counts(k, n)
    if not 0 <= p <= 1:
        raise ValueError(f"the null proportion p must be between 0 and 1, got {p}")
    # P(K >= k) = I_p(k, n - k + 1), the regularised incomplete beta function (Abramowitz & Stegun
    # 26.5.24): the route scipy.stats.binom.sf takes. special.bdtrc (Cephes) computes the same tail
    # but loses up to 14 % of relative precision below about 1e-250; P(K >= 0) = 1.
    return 1.0 if k == 0 else float(special.betainc(k, n - k + 1, p))


def exact_upper_after_zero(n: int, confidence: float = DEFAULT_CONFIDENCE) -> float:
    """Exact one-sided upper bound of a proportion after 0 events in n trials: 1 - (1 - confidence)^(1/n).

    It solves (1 - p)^n = 1 - confidence: the largest rate under which seeing no event in n trials
    still has probability 1 - confidence (the one-sided Clopper-Pearson bound at k = 0). The "rule of
    three", 3/n, approximates it at 95 % for large n only (-ln 0.05 = 2.996); for small n it
    overshoots, up to 300 % at n = 1, while this bound stays in [0, 1]: 0.95 at n = 1, 0.0295 at
    n = 100. Raises ValueError when n <= 0 or confidence is outside (0, 1).
    Source: Hanley & Lippman-Hand (1983), "If nothing goes wrong, is everything all right?",
    JAMA 249:1743-1745; same as scipy.stats.binomtest(0, n).proportion_ci(1 - 2·(1 - confidence)).high.

    >>> round(exact_upper_after_zero(60), 4), exact_upper_after_zero(1)
    (0.0487, 0.95)
    """
    if n <= 0:
        raise ValueError(f"the number of trials n must be positive, got n={n}")
    _check_confidence(confidence)
    return 1 - (1 - confidence) ** (1 / n)


def standard_error_proportion(p: float, n: int) -> float:
    """Standard error of an observed proportion: sqrt(p(1 - p)/n).

    Raises ValueError when n <= 0 or p is outside [0, 1]. Source: the binomial variance
    n·p(1 - p), divided by n².

    >>> round(standard_error_proportion(0.5, 100), 3)
    0.05
    """
    if n <= 0:
        raise ValueError(f"the number of trials n must be positive, got n={n}")
    if not 0 <= p <= 1:
        raise ValueError(f"the proportion p must be between 0 and 1, got {p}")
    return math.sqrt(p * (1 - p) / n)

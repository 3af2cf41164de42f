"""Before/after a description edit: McNemar's exact test on paired decisions, and what it can say.

The same queries are routed twice (before and after the edit), so the two accuracies are paired:
only the discordant queries carry information, b (right before, wrong after) and c (wrong before,
right after). Under "the edit changes nothing" each discordant query goes either way with
probability 1/2, so min(b, c) follows Binomial(b + c, 1/2):

    p = min(1, 2 * P(X <= min(b, c))),  X ~ Binomial(b + c, 1/2)      (p = 1 when b + c = 0)

Source: McNemar (1947), Psychometrika 12:153-157, exact (binomial) form; same as statsmodels
``mcnemar(table, exact=True)``. The pairing unit is the query (decisions collapsed with
`evallib.triggering.metrics.by_query`): repeated runs of one query are not independent pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scipy import stats

from evallib.readings import Reading
from evallib.triggering.metrics import RoutedDecision, by_query

#: Two-sided significance level of the reading.
ALPHA = 0.05


@dataclass(frozen=True)
class McNemarResult:
    """``b`` right before and wrong after, ``c`` wrong before and right after, over ``n`` paired queries."""

    b: int
    c: int
    n: int
    p_value: float

    @property
    def discordant(self) -> int:
        return self.b + self.c


def mcnemar_exact(before_correct: Iterable[bool], after_correct: Iterable[bool]) -> McNemarResult:
    """McNemar's exact test on two paired sequences of right/wrong (same length, same item order).

    Raises ValueError when the lengths differ.

    >>> r = mcnemar_exact([True] * 8 + [False] * 2, [True] * 2 + [False] * 8)
    >>> (r.b, r.c, round(r.p_value, 4))
    (6, 0, 0.0312)
    """
    before, after = list(before_correct), list(after_correct)
    if len(before) != len(after):
        raise ValueError(f"paired sequences differ in length: {len(before)} before, {len(after)} after")
    b = sum(x and not y for x, y in zip(before, after))
    c = sum(y and not x for x, y in zip(before, after))
    p = 1.0 if b + c == 0 else min(1.0, 2 * float(stats.binom.cdf(min(b, c), b + c, 0.5)))
    return McNemarResult(b, c, len(before), p)


def paired_correctness(before: Iterable[RoutedDecision], after: Iterable[RoutedDecision]
                       ) -> tuple[list[str], list[bool], list[bool]]:
    """(query ids, right before, right after) for the queries scored in both runs, in ``before``'s order.

    Each side is collapsed per query first (right only when every scored run is right).
    """
    after_by_id = {r.query_id: r for r in by_query(after) if r.decision.scored}
    pairs = [(r.query_id, r.correct, after_by_id[r.query_id].correct)
             for r in by_query(before) if r.decision.scored and r.query_id in after_by_id]
    return [p[0] for p in pairs], [p[1] for p in pairs], [p[2] for p in pairs]


def min_discordant_for_significance(alpha: float = ALPHA) -> int:
    """Fewest discordant queries for which the exact test can reach p < alpha (all going one way).

    With d discordant queries the smallest possible p is 2 * 0.5^d, so d must exceed log2(2 / alpha).

    >>> min_discordant_for_significance(0.05)
    6
    """
    d = 1
    while 2 * 0.5**d >= alpha:
        d += 1
    return d


def mcnemar_reading(result: McNemarResult, alpha: float = ALPHA) -> Reading:
    """What the test says, and what it cannot say, as a `Reading`.

    Codes: ``mcnemar_no_pairs`` (no query scored on both sides), ``mcnemar_no_change`` (no query
    changed: the test has nothing to weigh), ``mcnemar_too_few_changes`` (fewer discordant queries
    than the test needs to ever reach ``alpha``: it cannot conclude, whatever the direction),
    ``mcnemar_significant`` and ``mcnemar_not_significant``. Values always hold b, c, n, p_value,
    alpha and ``needed`` (`min_discordant_for_significance`); a non-significant result on few queries
    is not evidence that the edit is harmless.
    """
    values = {"b": result.b, "c": result.c, "n": result.n, "p_value": result.p_value, "alpha": alpha,
              "needed": min_discordant_for_significance(alpha)}
    if result.n == 0:
        return Reading("mcnemar_no_pairs", values)
    if result.discordant == 0:
        return Reading("mcnemar_no_change", values)
    if result.discordant < values["needed"]:
        return Reading("mcnemar_too_few_changes", values)
    if result.p_value < alpha:
        return Reading("mcnemar_significant", {**values, "better": "after" if result.c > result.b else "before"})
    return Reading("mcnemar_not_significant", values)

"""A reading: what a result means, as data.

Pages never phrase an interpretation themselves from raw numbers: a pure function of evallib looks at
the values and returns a `Reading`, a code naming the case ("tie", "single_item", "all_identical",
"above_chance"...) and the values the sentence rests on. The page translates ``code`` through its
catalogue with ``values`` as the placeholders, so each case can be tested on the values that trigger
it, and no sentence can state what the values contradict (DESIGN.md, "Readings as data").
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Reading:
    """An interpretation of a result: a ``code`` and the ``values`` it rests on.

    A plain dict keeps it picklable for ``st.cache_data``; treat ``values`` as read-only. Value
    conventions, so that a user interface can format them: ``int`` counts, ``float`` figures, names
    ending in ``share`` are proportions in [0, 1], names ending in ``band`` hold ``"<scale>.<band>"``,
    labels are text.

    >>> r = Reading("tie", {"pairs": ("a / b", "c / d"), "value": 0.5})
    >>> r.code, r.values["value"]
    ('tie', 0.5)
    """

    code: str
    values: dict[str, object] = field(default_factory=dict)


#: Below this, a p-value is reported as "< 0.001" rather than as a number nobody should read closely
#: (the pages' `ui.i18n.p_value` and the commands' `evallib.runs.sentences.p_value`).
SMALLEST_P_SHOWN = 0.001

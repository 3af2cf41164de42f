"""The i18n catalogue through which every UI string passes (French by default, English on a toggle).

Texts live in ``ui/texts/<part>.py`` as ``TEXTS = {"part.key": {"fr": ..., "en": ...}}``.
``t("collect.start", n=3)`` returns the text in the session's language, formatted with ``str.format``.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import streamlit as st

import ui.texts

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
LANGUAGE_KEY = "lang"


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """All texts of every module in ``ui/texts``, merged; a key defined twice raises ValueError."""
    merged: dict[str, dict[str, str]] = {}
    for info in pkgutil.iter_modules(ui.texts.__path__):
        module = importlib.import_module(f"ui.texts.{info.name}")
        for key, texts in module.TEXTS.items():
            if key in merged:
                raise ValueError(f"text key {key!r} defined twice (in ui/texts/{info.name}.py)")
            merged[key] = texts
    return merged


def language() -> str:
    """The language chosen in this browser session ("fr" or "en")."""
    lang = st.session_state.get(LANGUAGE_KEY, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


class _CommaDecimal(float):
    """A float that formats with a decimal comma, as French writes numbers (0,64 not 0.64)."""

    def __format__(self, spec: str) -> str:
        return format(float(self), spec).replace(".", ",")


class _Typeset(float):
    """A float placed in a sentence by `t`: the language's decimal mark and a minus sign ("−0,12")."""

    def __format__(self, spec: str) -> str:
        text = format(_CommaDecimal(self) if language() == "fr" else float(self), spec)
        return text if spec.startswith("+") else text.replace("-", MINUS)


MINUS = "\u2212"  # the minus sign of typeset text ("−0,12"), not a hyphen
# Thousands separator: French puts a narrow no-break space (250 000), English a comma (250,000).
THOUSANDS = {"fr": "\u202f", "en": ","}
# French puts a no-break space before % (67 %), English none (67%).
PERCENT_SPACE = {"fr": "\u00a0", "en": ""}
INTERVAL = {"fr": "[{low}\u00a0;\u00a0{high}]", "en": "[{low},\u00a0{high}]"}


def number(value: float | None, spec: str = ".2f") -> str:
    """``value`` formatted with ``spec`` in the session's language: decimal mark, minus sign, no "-0".

    ``None``, NaN and infinities read "undefined" (in the language). A spec with an explicit sign
    (``"+.2f"``) is for ``st.metric``'s delta, which finds the sign by an ASCII hyphen: it keeps one.
    """
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return t("format.undefined")
    value = float(value) + 0.0
    if "f" in spec and "," not in spec:  # a value that rounds to zero is written without a sign
        digits = int(spec.split(".")[-1].rstrip("f%") or 0) if "." in spec else 0
        value = round(value, digits) + 0.0
    text = format(_CommaDecimal(value) if language() == "fr" else value, spec)
    return text if spec.startswith("+") else text.replace("-", MINUS)


def integer(n: int) -> str:
    """A count with the language's thousands separator: "250 000" in French, "250,000" in English."""
    return f"{int(n):,}".replace(",", THOUSANDS[language()]).replace("-", MINUS)


def percent(share: float | None, digits: int = 0) -> str:
    """A proportion in [0, 1] as a percentage: "67 %" in French (no-break space), "67%" in English."""
    if share is None:
        return t("format.undefined")
    return number(100 * share, f".{digits}f") + PERCENT_SPACE[language()] + "%"


def signed(value: float, spec: str = ".2f") -> str:
    """A difference with its sign always written: "+0,12", "−0,12" (zero unsigned)."""
    text = number(value, spec)
    return text if text.startswith(MINUS) or float(value) == 0 or round(value, 10) == 0 else "+" + text


def interval(low: float | None, high: float | None, spec: str = ".2f") -> str:
    """An interval "[−0,10 ; 0,04]" (French) or "[−0.10, 0.04]"; "undefined" without bounds.

    No-break spaces on both sides of the separator: an interval never breaks across lines.
    """
    if low is None or high is None:
        return t("format.undefined")
    return INTERVAL[language()].format(low=number(low, spec), high=number(high, spec))


#: Below this, a p-value is reported as "< 0.001" rather than as a number nobody should read closely.
SMALLEST_P_SHOWN = 0.001


def p_value(p: float) -> str:
    """A p-value as reported in prose: three decimals, or "< 0.001" (decimal mark of the language)."""
    return f"< {number(SMALLEST_P_SHOWN, '.3f')}" if p < SMALLEST_P_SHOWN else number(p, ".3f")


def plural(key: str, n: int, **values: object) -> str:
    """``t(key + ".one")`` or ``t(key + ".other")`` by the count ``n`` (given to the text as ``n``).

    French treats 0 and 1 as singular ("0 case", "1 case"), English only 1.
    """
    one = n in (0, 1) if language() == "fr" else n == 1
    return t(f"{key}.{'one' if one else 'other'}", n=integer(n), **values)


def t(key: str, /, **values: object) -> str:
    """The text for ``key`` in the session's language, with ``values`` substituted.

    Floats are written with the language's decimal mark and a typeset minus sign. A missing key shows as ``⟦key⟧`` so that
    it is visible on the page and caught by the tests.
    """
    texts = catalogue().get(key)
    if texts is None:
        return f"⟦{key}⟧"
    lang = language()
    text = texts.get(lang) or texts[DEFAULT_LANGUAGE]
    values = {k: _Typeset(v) if isinstance(v, float) else v for k, v in values.items()}
    return text.format(**values) if values else text

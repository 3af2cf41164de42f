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


def number(value: float, spec: str = ".2f") -> str:
    """``value`` formatted with ``spec`` and the session language's decimal mark."""
    return format(_CommaDecimal(value) if language() == "fr" else float(value), spec)


#: Below this, a p-value is reported as "< 0.001" rather than as a number nobody should read closely.
SMALLEST_P_SHOWN = 0.001


def p_value(p: float) -> str:
    """A p-value as reported in prose: three decimals, or "< 0.001" (decimal mark of the language)."""
    return f"< {number(SMALLEST_P_SHOWN, '.3f')}" if p < SMALLEST_P_SHOWN else number(p, ".3f")


def t(key: str, **values: object) -> str:
    """The text for ``key`` in the session's language, with ``values`` substituted.

    Floats are written with the language's decimal mark. A missing key shows as ``⟦key⟧`` so that
    it is visible on the page and caught by the tests.
    """
    texts = catalogue().get(key)
    if texts is None:
        return f"⟦{key}⟧"
    lang = language()
    text = texts.get(lang) or texts[DEFAULT_LANGUAGE]
    if lang == "fr":
        values = {k: _CommaDecimal(v) if isinstance(v, float) else v for k, v in values.items()}
    return text.format(**values) if values else text

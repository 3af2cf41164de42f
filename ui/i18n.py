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


def t(key: str, **values: object) -> str:
    """The text for ``key`` in the session's language, with ``values`` substituted.

    A missing key shows as ``⟦key⟧`` so that it is visible on the page and caught by the tests.
    """
    texts = catalogue().get(key)
    if texts is None:
        return f"⟦{key}⟧"
    text = texts.get(language()) or texts[DEFAULT_LANGUAGE]
    return text.format(**values) if values else text

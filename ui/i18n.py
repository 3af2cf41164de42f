"""Every text of the app in the session's language: gettext catalogues, and Babel for numbers and times.

The texts live in gettext catalogues, one per language: ``ui/locale/<lang>/LC_MESSAGES/messages.po``.
A message id is a key (``"collect.progress"``), its ``msgstr`` the text with ``str.format`` fields
(``{n}``, ``{url}``); a text that counts something is a plural entry (``msgid_plural``) whose form is
chosen by the language's own rule (the catalogue's ``Plural-Forms``: French treats 0 and 1 as
singular, English only 1). Each catalogue is compiled to the ``.mo`` form once per process
(`babel.messages.mofile`) and read through `gettext`.

- ``t("collect.progress", done=3, total=9)``: ``gettext`` of the key, formatted; a float placed in a text is written
  with the language's decimal mark and a typeset minus sign.
- ``plural("room.rating.items", n)``: ``ngettext`` of the key by the count ``n``, formatted with ``n``;
  ``counted(key, n)`` for a key built at run time (a reading's code), plural or not.
- `number`, `integer`, `percent`, `signed`, `interval`, `p_value`, `clock`: figures through Babel's
  CLDR data for the catalogue's ``Language`` (decimal mark, grouping, percent sign and its space, times
  of day). Dates stay ISO 8601 (2015-04-26), as in the station files and the command line.

A language is a catalogue: the app offers every folder of ``ui/locale`` that holds one, French first
(the default), then English, then the others. ``EVALLIB_LOCALE_DIR`` points to another folder of
catalogues (a test adds a pseudo-locale that way).
"""

from __future__ import annotations

import datetime as dt
import gettext
import io
import os
from decimal import Decimal
from functools import cache
from pathlib import Path

import streamlit as st
from babel import Locale
from babel.dates import format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from evallib.readings import SMALLEST_P_SHOWN

DOMAIN = "messages"
LOCALE_DIR = Path(os.environ.get("EVALLIB_LOCALE_DIR") or Path(__file__).with_name("locale"))
DEFAULT_LANGUAGE = "fr"
LANGUAGE_KEY = "lang"
MINUS = "\u2212"  # the minus sign of typeset text ("−0,12"), not a hyphen


def _catalogue_file(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _languages() -> tuple[str, ...]:
    found = sorted(p.name for p in LOCALE_DIR.iterdir() if _catalogue_file(p.name).is_file())
    first = [lang for lang in (DEFAULT_LANGUAGE, "en") if lang in found]
    return tuple(first + [lang for lang in found if lang not in first])


#: The languages offered: one per catalogue found.
LANGUAGES = _languages()


@cache
def _read(lang: str):
    """The catalogue of ``lang`` as Babel reads it (`babel.messages.catalog.Catalog`)."""
    with _catalogue_file(lang).open("rb") as po:
        return read_po(po, domain=DOMAIN)


@cache
def _cldr(lang: str) -> Locale:
    """The locale whose CLDR data writes the figures of ``lang``: the catalogue's ``Language`` header
    ("en_GB" for our British English: 24-hour times), else the folder's name."""
    return _read(lang).locale or Locale.parse(lang)


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``lang``, falling back to French for a message it lacks."""
    compiled = io.BytesIO()
    write_mo(compiled, _read(lang))
    compiled.seek(0)
    found = gettext.GNUTranslations(compiled)
    if lang != DEFAULT_LANGUAGE:
        found.add_fallback(translations(DEFAULT_LANGUAGE))
    return found


@cache
def catalogue() -> dict[str, dict[str, str | tuple[str, ...]]]:
    """Every message: key -> {language: text}, a plural message's text being its forms (one, other...)."""
    merged: dict[str, dict[str, str | tuple[str, ...]]] = {}
    for lang in LANGUAGES:
        for message in _read(lang):
            if message.id:
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                text = tuple(message.string) if isinstance(message.string, tuple) else message.string
                merged.setdefault(key, {})[lang] = text
    return merged


def language_name(lang: str) -> str:
    """The language's own name, capitalised ("Français", "English"), from Babel's CLDR data."""
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def language() -> str:
    """The language chosen in this browser session (one of `LANGUAGES`)."""
    lang = st.session_state.get(LANGUAGE_KEY, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


class _Typeset(float):
    """A float placed in a text by `t`: formatted by `number` with the text's own spec (``{x:.2f}``; none:
    as Python writes it, "0.0" read "0,0" in French)."""

    def __format__(self, spec: str) -> str:
        return number(float(self), spec)


def _typeset(values: dict) -> dict:
    return {k: _Typeset(v) if isinstance(v, float) else v for k, v in values.items()}


def t(key: str, /, **values: object) -> str:
    """The text for ``key`` in the session's language (`gettext`), with ``values`` substituted.

    A message missing from every catalogue shows as ``⟦key⟧``, so that it is visible on the page and
    caught by the tests.
    """
    return text_in(language(), key, **values)


def plural(key: str, n: int, /, **values: object) -> str:
    """The text for ``key`` chosen by the count ``n`` (`ngettext`, the language's plural rule).

    The text gets ``n`` written as `integer` writes it, unless ``values`` names ``n`` itself.
    """
    return text_in(language(), key, n, **{"n": integer(n), **values})


def text_in(lang: str, key: str, count: int | None = None, /, **values: object) -> str:
    """`t` (no ``count``) or `plural` (``count`` chooses the form) in ``lang`` rather than the session's
    language: for a test that reads what a browser in ``lang`` shows. A plural's ``n`` is a value like any."""
    found = translations(lang)
    text = found.gettext(key) if count is None else found.ngettext(key, key, int(count))
    if text == key:
        return f"⟦{key}⟧"
    return text.format(**_typeset(values)) if values else text


def is_plural(key: str) -> bool:
    """Whether ``key`` is a plural message (its form chosen by a count)."""
    return isinstance(catalogue().get(key, {}).get(DEFAULT_LANGUAGE), tuple)


def counted(key: str, n: int | None, /, **values: object) -> str:
    """For a key built at run time (a reading's code): `plural` by ``n`` when the message is a plural one,
    `t` otherwise. A reading whose message counts names its count ``n``."""
    return plural(key, n, **values) if n is not None and is_plural(key) else t(key, **values)


def _undefined(value: float | None) -> bool:
    return value is None or value != value or value in (float("inf"), float("-inf"))


def number(value: float | None, spec: str = ".2f") -> str:
    """``value`` formatted with ``spec`` in the session's language: Babel's decimal mark, a minus sign, no "-0".

    Python rounds (``format(value, spec)``, as the CSV downloads do), Babel writes the result in the
    language. ``None``, NaN and infinities read "undefined" (in the language). A spec with an explicit
    sign (``"+.2f"``) is for ``st.metric``'s delta, which finds the sign by an ASCII hyphen: it keeps one.
    """
    if _undefined(value):
        return t("format.undefined")
    rounded = format(float(value) + 0.0, spec.lstrip("+"))
    if "e" in rounded:  # "1e-07": no decimal pattern for Babel to follow; the language's decimal mark all the same
        mantissa, exponent = rounded.split("e")
        text = format_decimal(Decimal(mantissa), format="0." + "#" * 16, locale=_cldr(language())) + "e" + exponent
        return text if spec.startswith("+") else text.replace("-", MINUS)
    exact = Decimal(rounded.replace(",", ""))
    if exact == 0:
        exact = abs(exact)  # a value that rounds to zero is written without a sign
    decimals = len(rounded.split(".")[1]) if "." in rounded else 0
    pattern = ("#,##0" if "," in spec else "0") + ("." + "0" * decimals if decimals else "")
    text = format_decimal(exact, format=pattern, locale=_cldr(language()))
    if spec.startswith("+"):
        return text if exact < 0 else "+" + text
    return text.replace("-", MINUS)


def integer(n: int) -> str:
    """A count with the language's grouping (Babel): "250 000" in French, "250,000" in English."""
    return format_decimal(int(n), locale=_cldr(language())).replace("-", MINUS)


def percent(share: float | None, digits: int = 0) -> str:
    """A proportion in [0, 1] as a percentage in the language (Babel): "67 %" in French, "67%" in English."""
    if _undefined(share):
        return t("format.undefined")
    exact = Decimal(format(100 * float(share) + 0.0, f".{digits}f")) / 100
    pattern = _cldr(language()).percent_formats[None].pattern
    if digits:
        last = pattern.rindex("0") + 1
        pattern = pattern[:last] + "." + "0" * digits + pattern[last:]
    return format_percent(abs(exact) if exact == 0 else exact, format=pattern,
                          locale=_cldr(language())).replace("-", MINUS)


def signed(value: float, spec: str = ".2f") -> str:
    """A difference with its sign always written: "+0,12", "−0,12" (zero unsigned)."""
    text = number(value, spec)
    return text if text.startswith(MINUS) or float(value) == 0 or round(value, 10) == 0 else "+" + text


def interval(low: float | None, high: float | None, spec: str = ".2f") -> str:
    """An interval "[−0,10 ; 0,04]" (French) or "[−0.10, 0.04]"; "undefined" without bounds.

    The brackets and the separator are the catalogue's (``format.interval``), with no-break spaces:
    an interval never breaks across lines.
    """
    if low is None or high is None:
        return t("format.undefined")
    return t("format.interval", low=number(low, spec), high=number(high, spec))


def p_value(p: float) -> str:
    """A p-value as reported in prose: three decimals, or "< 0.001" (decimal mark of the language)."""
    return f"< {number(SMALLEST_P_SHOWN, '.3f')}" if p < SMALLEST_P_SHOWN else number(p, ".3f")


def clock(moment: float | dt.datetime | None = None, seconds: bool = True) -> str:
    """A time of day in the language (Babel): "14:05:33" ("14:05" without seconds) in French and in our
    British English, "2:05:33 PM" in a catalogue declaring "Language: en_US".

    ``moment`` is a Unix time in seconds (local time zone), a datetime, or None for now.
    """
    when = (dt.datetime.now() if moment is None else moment if isinstance(moment, dt.datetime)
            else dt.datetime.fromtimestamp(moment))
    return format_time(when, "medium" if seconds else "short", locale=_cldr(language()))

"""The commands' readings as the English sentences the pages show, read from the page's own catalogue.

A page translates a reading (a code and its values) through the gettext catalogues; a command prints
the same English sentence, read from the English catalogue (``ui/locale/en``) with Babel, so that the
page and the terminal share one text and no Streamlit is loaded. A float placed in a sentence is
written with the sentence's own spec (``{top:.2f}``), an undefined one (None, NaN) as the page's
"undefined"; Markdown emphasis is dropped (a terminal shows it as asterisks). A message the catalogue
lacks is a KeyError, never the reading's id printed. Used by the kappa command
(`evallib.runs.kappa.sentences`), the persona command and the judge command's status names.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from evallib.readings import SMALLEST_P_SHOWN

#: The English catalogue, the pages' own: one text for the page and the terminal.
CATALOGUE = Path(__file__).resolve().parents[2] / "ui" / "locale" / "en" / "LC_MESSAGES" / "messages.po"


@cache
def _messages() -> dict[str, str | tuple[str, ...]]:
    with CATALOGUE.open("rb") as po:
        return {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_po(po) if m.id}


def text(key: str, n: int | None = None) -> str:
    """The English text of ``key``; a plural message takes its form from ``n`` (English: 1 is singular).
    Raises KeyError when the catalogue has no such message."""
    found = _messages().get(key)
    if not found:
        raise KeyError(f"no English text for {key!r} in {CATALOGUE}")
    if isinstance(found, tuple):
        return found[0 if n == 1 else 1]
    return found


def figure(value: float | None, spec: str = ".2f") -> str:
    """``value`` written with ``spec``, "undefined" when there is none (None or NaN), never "-0.00"."""
    if value is None or value != value:
        return text("format.undefined")
    written = format(float(value), spec)
    rounds_to_zero = written.startswith("-") and not any(digit in written for digit in "123456789")
    return written[1:] if rounds_to_zero else written


def p_value(p: float | None) -> str:
    """A p-value as the English page reports it in prose (`ui.i18n.p_value`): three decimals, or "< 0.001"."""
    if p is None or p != p:
        return text("format.undefined")
    return f"< {SMALLEST_P_SHOWN:.3f}" if p < SMALLEST_P_SHOWN else figure(p, ".3f")


class _Figure:
    """A float or an undefined value in a sentence: written by `figure` with the sentence's spec."""

    def __init__(self, value: float | None) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return figure(self.value, spec) if spec or self.value is None else str(self.value)


def say(key: str, values: dict, n: int | None = None) -> str:
    """The English sentence of ``key`` with ``values`` (floats and None written as figures, the rest as
    is), its plural form chosen by ``n``; without Markdown emphasis. Raises KeyError for a message the
    catalogue lacks or a value the sentence needs and nobody gave."""
    written = {name: _Figure(value) if value is None or isinstance(value, float) else value
               for name, value in values.items()}
    return text(key, n).format(**written).replace("**", "")

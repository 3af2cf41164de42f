"""Readings (``evallib`` reading codes and their values) turned into sentences of the session's language."""

from __future__ import annotations

from ui.i18n import counted, integer, number, percent, t
from ui.labels import md


def formatted(values: dict, *, bands: str) -> dict:
    """Reading values as text, by the conventions of ``evallib.readings.Reading``.

    Names ending in ``share`` are proportions (percentages), in ``band`` band keys (translated under
    ``bands``), ``scale`` an interpretation scale's key (translated under ``scale``); ints are counts (thousands separator), floats figures, text is a label (escaped).
    """
    out = {}
    for name, value in values.items():
        if name.endswith("share"):
            out[name] = percent(value)
        elif name.endswith("band"):
            out[name] = t(f"{bands}.{value}")
        elif name == "scale":
            out[name] = t(f"scale.{value}")
        elif isinstance(value, int) and not isinstance(value, bool):
            out[name] = integer(value)
        elif isinstance(value, str):
            out[name] = md(value)
        else:
            out[name] = number(value)
    return out


def say(prefix: str, reading, *, bands: str, **extra: object) -> str:
    """``t(f"{prefix}.{code}")`` with the reading's values formatted; ``extra`` adds or overrides values."""
    return counted(f"{prefix}.{reading.code}", reading.values.get("n"),
                   **{**formatted(reading.values, bands=bands), **extra})

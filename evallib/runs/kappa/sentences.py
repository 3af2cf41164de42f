"""The kappa command's readings as the English sentences the page shows, with their values.

The page translates a reading ``{"topic", "code", "values"}`` through the gettext catalogues
(``ui/readings.say``); the command line prints the same English sentence, read from the English
catalogue (`evallib.runs.sentences`), its values written as the English page writes them: shares as
percentages, band keys by their names, counts with a thousands separator, figures to two decimals,
an interval as [low, high]. The page's extra values (the raters' names, "12 items") come from the
run itself (``context``). Markdown emphasis is dropped: a terminal shows it as asterisks.
"""

from __future__ import annotations

from evallib.runs.sentences import figure, say, text

BANDS = "kappa.band"


def _written(name: str, value: object) -> str:
    """One value as the English page writes it (``ui.readings.formatted``'s conventions)."""
    if name.endswith("share"):
        return text("format.undefined") if value is None else f"{float(value):.0%}"
    if name.endswith("band"):
        return text(f"{BANDS}.{value}")
    if name == "scale":
        return text(f"scale.{value}")
    if isinstance(value, bool) or isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return figure(value)


def _items(n: int) -> str:
    return text("kappa.n_items", n).format(n=f"{n:,}")


def sentence(reading: dict, context: dict | None = None) -> str:
    """The English sentence of ``reading`` (``{"topic", "code", "values"}``, as in the kappa report).

    ``context``: ``names`` (the two raters of the pair), ``n`` (the pair's items) and ``half`` (the
    half-width planned for), when the reading needs them. Raises
    KeyError when the catalogue has no such message or the sentence needs a value nobody gave.
    """
    context = context or {}
    values = reading["values"]
    extra: dict[str, str] = {name: _written(name, value) for name, value in values.items()}
    if "low" in values and "high" in values:
        extra["ci"] = "undefined" if values["low"] is None or values["high"] is None else \
            f"[{figure(values['low'])}, {figure(values['high'])}]"
    names = context.get("names")
    if names:
        rater = values.get("rater", 0)
        extra.update(a=names[0], b=names[1], rater=names[rater], other=names[1 - rater])
    for count in ("a_count", "b_count"):
        if count in values:
            extra[count] = _items(values[count])
    if "step" in values:
        extra["step"] = format(values["step"], ".6g")
    if "n" in context and "n" not in values:
        extra["n"] = f"{context['n']:,}"
    if "half" in context:
        extra["half"] = format(context["half"], ".1f")
    if "value" in values:
        extra["value"] = figure(values["value"], ".3f" if reading["topic"] == "kappa.alpha" else ".2f")
    if "coverage_share" in values:
        extra["coverage"] = f"{values['coverage_share']:.1%}"
    return say(f"{reading['topic']}.{reading['code']}", extra, values.get("n"))


def _labels(labels: list, n_more: int) -> str:
    shown = ", ".join(text("kappa.quoted").format(label=label) for label in labels)
    return text("format.more", n_more).format(shown=shown, n=f"{n_more:,}") if n_more else shown


def error_sentence(error: dict, context: str = "") -> str:
    """The English sentence of an input error kept in the kappa report (``{"error": code, "details"}``),
    as the page shows it (``ui.ratings_input.input_error_text``).

    ``context`` names what needed numbers for a ``non_numeric`` error: ``weighted`` (weighted kappa) or
    ``level`` (an ordinal or interval level). Raises KeyError when the catalogue has no such message.
    """
    details = dict(error.get("details") or {})
    if "labels" in details:
        details["labels"] = _labels(details["labels"], details.pop("n_more", 0))
    code = error["error"]
    key = f"kappa.error.{code}_{context}" if code == "non_numeric" else f"kappa.error.{code}"
    return say(key, {k: _written(k, v) for k, v in details.items()}, details.get("n"))

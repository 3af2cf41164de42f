"""Delimited text as spreadsheets export it: the separator sniffed over every line, decimal commas read.

Shared by the ratings reader (`evallib.agreement.csv_input`) and the station reader
(`evallib.gnss.readers`), so that a file a French spreadsheet exports (``;`` between cells, ``7,5``
for seven and a half) is read the same way on every page. The separator is the one of ``,``, ``;``
and tab that splits every line into the same number (at least two) of cells; a file that two
separators read equally well is refused rather than guessed. Errors are raised as the caller's
`InputError` subclass, with a code and the figures of the message, never the csv module's English text.
"""

from __future__ import annotations

import csv
import io
import math

from evallib.errors import InputError

DELIMITERS = (",", ";", "\t")
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def decimal_number(text: str) -> float | None:
    """``text`` as a finite number, a decimal comma understood (``"7,5"`` is 7.5); None otherwise.

    A single comma and no point is a decimal mark; ``"1,234.5"``, ``"yes"``, ``"inf"`` and ``"nan"`` are None.
    """
    text = str(text).strip()
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def split_lines(text: str, delimiter: str, error: type[InputError] = InputError) -> list[tuple[int, list[str]]]:
    """Non-blank lines of ``text`` cut at ``delimiter``, as (line number from 1, stripped cells).

    Raises ``error`` with code ``csv_field_too_large`` or ``csv_malformed`` (details: line).
    """
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    lines = []
    try:
        for cells in reader:
            cells = [cell.strip() for cell in cells]
            if any(cells):
                lines.append((reader.line_num, cells))
    except csv.Error as exc:
        # The csv module's messages ("field larger than field limit") are English: keep the line only.
        code = "csv_field_too_large" if "field limit" in str(exc) else "csv_malformed"
        raise error(code, f"line {reader.line_num} is not valid CSV ({exc})", line=reader.line_num) from None
    return lines


def trimmed(cells: list[str]) -> list[str]:
    """``cells`` without the empty cells at the end of the line."""
    while cells and not cells[-1]:
        cells = cells[:-1]
    return cells


def fits(cells: list[str], width: int) -> bool:
    """The line has ``width`` columns, empty cells past the last column aside."""
    return len(cells) >= width and not any(cells[width:])


def _clean(cell: str, delimiter: str) -> bool:
    """A cell that holds no other separator, or only a decimal comma (``7,5`` read with ``;``)."""
    others = [d for d in DELIMITERS if d != delimiter and d in cell]
    return not others or (others == [","] and decimal_number(cell) is not None)


def choose_delimiter(text: str, error: type[InputError] = InputError) -> tuple[str, list[tuple[int, list[str]]]]:
    """The separator that reads every line of ``text`` with the same number (>= 2) of cells, and those lines.

    When several do, the one whose cells hold no other separator (a decimal comma aside) wins; when
    that does not settle it, ``error`` with code ``csv_ambiguous`` (details: separators). When none does,
    the most frequent separator on the first line (the caller's check then names the first ragged line).
    """
    first_line = text.lstrip().splitlines()[0] if text.strip() else ""
    fitting = []
    for delimiter in DELIMITERS:
        if delimiter not in first_line:  # one column: it cannot be the separator
            continue
        try:
            lines = split_lines(text, delimiter, error)
        except InputError:
            continue
        width = len(trimmed(lines[0][1])) if lines else 0
        if width >= 2 and all(fits(cells, width) for _, cells in lines):
            fitting.append((delimiter, lines))
    if len(fitting) == 1:
        return fitting[0]
    clean = [(delimiter, lines) for delimiter, lines in fitting
             if all(_clean(cell, delimiter) for _, cells in lines for cell in cells)]
    if len(clean) == 1:
        return clean[0]
    if fitting:
        separators = tuple(delimiter for delimiter, _ in fitting)
        raise error("csv_ambiguous", "the file reads as a table with either separator: "
                    + " or ".join(SEPARATOR_NAMES[d] for d in separators) + "; keep one separator and quote the cells",
                    separators=separators)
    delimiter = max(DELIMITERS, key=first_line.count)
    return delimiter, split_lines(text, delimiter, error)

"""Ratings from a CSV file: one column per rater, one row per item.

The separator is chosen over every line of the file, not the first one only, and decimal commas
(``7,5;8,5``) are understood; a file that two separators read equally well is refused rather than
guessed (`evallib.delimited`, shared with the GNSS station reader). Errors carry a code and the
figures of the message, never the csv module's English text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from evallib.agreement.ratings import AgreementInputError, Preset, as_number, is_missing
from evallib.delimited import choose_delimiter, fits, trimmed


@dataclass(frozen=True)
class RatingsTable:
    """Ratings read from a file: one column per rater, one row per item; None is a missing rating."""

    raters: tuple[str, ...]
    rows: tuple[tuple[str | None, ...], ...]   # shape (n_items, n_raters)
    delimiter: str = ","

    @cached_property
    def columns(self) -> tuple[tuple[str | None, ...], ...]:
        """Shape (n_raters, n_items), the layout of ``krippendorff_alpha``; built once per table."""
        return tuple(zip(*self.rows))

    def column(self, j: int) -> tuple[str | None, ...]:
        """The ratings of rater ``j``, one per item."""
        return self.columns[j]

    def by_rater(self) -> list[tuple[str | None, ...]]:
        """Shape (n_raters, n_items), the layout of ``krippendorff_alpha``."""
        return list(self.columns)


def _decode(data: bytes) -> str:
    if not data.strip():
        raise AgreementInputError("csv_empty", "the file is empty")
    if b"\x00" in data:
        raise AgreementInputError("csv_binary", "the file contains binary data (NUL bytes): is it a "
                                  "spreadsheet? Export it as CSV (UTF-8)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise AgreementInputError("csv_encoding", f"the file is not UTF-8 text (byte "
                                  f"0x{data[error.start]:02x} on line {line}); save it as CSV UTF-8",
                                  line=line) from None
    if not text.strip():
        raise AgreementInputError("csv_empty", "the file is empty")
    return text


def read_ratings_csv(data: bytes) -> RatingsTable:
    """Parse a UTF-8 CSV file: one column per rater, one row per item, a blank cell = missing.

    The separator (``,``, ``;`` or tab) is the one that splits every line into the same number of
    columns; between two that do, the one that leaves no other separator inside a cell (a decimal
    comma such as ``7,5`` is allowed inside a ``;`` or tab file). The first row holds the raters' names unless every cell of
    it is a number (then the raters are named R1, R2...). Blank lines are skipped; empty cells past
    the last column are ignored.
    Raises ``AgreementInputError`` with code ``csv_empty``, ``csv_binary`` (NUL bytes: a
    spreadsheet, not a CSV), ``csv_encoding`` (not UTF-8; gives the line), ``csv_malformed`` or
    ``csv_field_too_large`` (gives the line), ``csv_ambiguous`` (two separators fit; gives them),
    ``csv_one_column``, ``csv_no_rows`` or ``csv_ragged`` (gives the first line whose number of
    cells differs from the header, and both counts).
    """
    text = _decode(data)
    delimiter, lines = choose_delimiter(text, AgreementInputError)
    if not lines:
        raise AgreementInputError("csv_empty", "the file has no ratings, only separators")
    header = trimmed(lines[0][1])
    if len(header) < 2:
        raise AgreementInputError("csv_one_column", "the file has one column; it needs one column per "
                                  "rater (at least two), separated by commas or semicolons")
    has_names = not all(as_number(cell) is not None for cell in header)
    body = lines[1:] if has_names else lines
    if not body:
        raise AgreementInputError("csv_no_rows", "the file has a header but no ratings")
    width = len(header)
    ragged = next(((number, cells) for number, cells in body if not fits(cells, width)), None)
    if ragged is not None:
        number, cells = ragged
        found = len(trimmed(cells))
        raise AgreementInputError(
            "csv_ragged", f"line {number} has {found} cells but the file has {width} columns (leave a cell "
            "blank for a missing rating, keep its separator)", line=number, found=found, expected=width)
    rows = [tuple([cell or None for cell in cells[:width]]) for _, cells in body]
    raters = tuple(name or f"R{j + 1}" for j, name in enumerate(header)) if has_names else \
        tuple(f"R{j + 1}" for j in range(len(header)))
    return RatingsTable(raters=raters, rows=tuple(rows), delimiter=delimiter)


def ratings_to_csv(preset: Preset, raters: Sequence[str]) -> str:
    """A preset as CSV text in the layout ``read_ratings_csv`` reads (a blank cell = missing)."""
    lines = [",".join(raters)]
    for item in zip(*preset.ratings):
        lines.append(",".join("" if is_missing(x) else str(x) for x in item))
    return "\n".join(lines) + "\n"

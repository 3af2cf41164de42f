"""Ratings from a CSV file: one column per rater, one row per item.

The separator is chosen over every line of the file, not the first one only, and decimal commas
(``7,5;8,5``) are understood; a file that two separators read equally well is refused rather than
guessed (`evallib.delimited`, shared with the GNSS station reader). Errors carry a code and the
figures of the message, never the csv module's English text.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from evallib.agreement.ratings import AgreementInputError, Preset, as_number, is_missing
from evallib.delimited import DELIMITERS, choose_delimiter, fits, trimmed


@dataclass(frozen=True)
class RatingsTable:
    """Ratings read from a file: one column per rater, one row per item; None is a missing rating."""

    raters: tuple[str, ...]
    columns: tuple[tuple[str | None, ...], ...]   # shape (n_raters, n_items), the layout of ``krippendorff_alpha``
    delimiter: str = ","

    @property
    def n_items(self) -> int:
        return len(self.columns[0])

    @cached_property
    def matrix(self) -> np.ndarray:
        """The ratings as one object array of shape (n_raters, n_items), built once per table."""
        matrix = np.empty((len(self.columns), self.n_items), dtype=object)
        for j, column in enumerate(self.columns):
            matrix[j] = column
        return matrix

    @cached_property
    def rows(self) -> tuple[tuple[str | None, ...], ...]:
        """Shape (n_items, n_raters), the layout of the file and of ``fleiss_kappa``; built when asked."""
        return tuple(zip(*self.columns))

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


# The csv module refuses a field longer than this (its default field_size_limit); the fast reader
# leaves any file with a longer line to it, so that both read the same files.
_FIELD_LIMIT = csv.field_size_limit()
_STRIPPED = " \t\r\x0b\x0c\x1c\x1d\x1e\x1f"  # ASCII characters that str.strip removes besides \n


def _read_regular(text: str) -> RatingsTable | None:
    """The table of a regular file, read by pandas' C parser in one pass; None when the file is not regular.

    Regular: one separator only on the first line, every non-blank line with as many cells as the
    first, no line longer than the csv module's field limit, a header row and at least one row of
    ratings. Anything else (errors included) returns None and goes to the line-by-line reader,
    which reads the same regular files the same way (tested) and names the line of any problem.
    """
    head = text.lstrip()[:_FIELD_LIMIT + 2]  # the first line, without splitting the whole text
    first_line = head.splitlines()[0]
    if len(first_line) > _FIELD_LIMIT:
        return None
    candidates = [d for d in DELIMITERS if d in first_line]
    if len(candidates) != 1:
        return None
    delimiter = candidates[0]
    encoded = text.encode()
    if len(encoded) > _FIELD_LIMIT:  # a line's length in UTF-8 bytes is at least its length in characters
        ends = np.flatnonzero(np.frombuffer(encoded, dtype=np.uint8) == ord("\n"))
        if np.diff(ends, prepend=-1, append=len(encoded)).max() > _FIELD_LIMIT:
            return None
    try:
        frame = pd.read_csv(io.BytesIO(encoded), sep=delimiter, header=None, dtype=object, keep_default_na=False,
                            skip_blank_lines=True, engine="c", quotechar='"', doublequote=True)
    except (pd.errors.ParserError, ValueError):
        return None
    # The parser pads a short line with empty cells: count the separators outside quotes instead.
    # Quotes are taken only around whole cells ("pass","fail"), as spreadsheets and R write them.
    unquoted = text
    if '"' in text:
        quoted = re.compile(f'(?:^|(?<=[{delimiter}\n]))"[^"\n]*"(?=[{delimiter}\r\n]|$)', re.MULTILINE)
        unquoted, n_quoted = quoted.subn("", text)
        if 2 * n_quoted != text.count('"'):
            return None
    if unquoted.count(delimiter) != len(frame) * (frame.shape[1] - 1):
        return None
    cells = frame.to_numpy(dtype=object)
    if not text.isascii() or any(c in text for c in _STRIPPED):
        cells = np.column_stack([frame[c].str.strip().to_numpy(dtype=object) for c in frame.columns])
    filled = cells != ""
    cells = cells[filled.any(axis=1)]
    if len(cells) < 2:
        return None
    header = trimmed(list(cells[0]))
    width = len(header)
    has_names = not all(as_number(cell) is not None for cell in header)
    body = cells[1:] if has_names else cells
    if width < 2 or not len(body) or (body[:, width:] != "").any():
        return None
    matrix = body[:, :width].T.copy()  # (n_raters, n_items), the layout the statistics take
    matrix[matrix == ""] = None
    table = RatingsTable(raters=_rater_names(header, has_names), columns=tuple(tuple(row) for row in matrix.tolist()),
                         delimiter=delimiter)
    table.__dict__["matrix"] = matrix  # the cached property, already built
    return table


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
    return _read_regular(text) or _read_line_by_line(text)


def _read_line_by_line(text: str) -> RatingsTable:
    """``read_ratings_csv`` with the csv module, line by line: any file, errors naming the line."""
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
            "csv_ragged", f"line {number} has {found} cell{'' if found == 1 else 's'} but the file has {width} columns (leave a cell "
            "blank for a missing rating, keep its separator)", line=number, found=found, expected=width)
    rows = [tuple([cell or None for cell in cells[:width]]) for _, cells in body]
    return RatingsTable(raters=_rater_names(header, has_names), columns=tuple(zip(*rows)), delimiter=delimiter)


def _rater_names(header: list[str], has_names: bool) -> tuple[str, ...]:
    if has_names:
        return tuple(name or f"R{j + 1}" for j, name in enumerate(header))
    return tuple(f"R{j + 1}" for j in range(len(header)))


def ratings_to_csv(preset: Preset, raters: Sequence[str]) -> str:
    """A preset as CSV text in the layout ``read_ratings_csv`` reads (a blank cell = missing)."""
    lines = [",".join(raters)]
    for item in zip(*preset.ratings):
        lines.append(",".join("" if is_missing(x) else str(x) for x in item))
    return "\n".join(lines) + "\n"

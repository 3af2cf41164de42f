"""The judge evaluation's cases: requests to a cloud-infrastructure coding assistant, schema-validated.

Default: ``packs/fr/judging_cases.json`` (docs/judge.md#question), checked against
``data/schemas/judging_cases.schema.json`` on load and on upload. Errors are `CaseSetError`s whose
``details`` name the row (1-based) and the field, so a page can say "case 4, field difficulty".

The schema check and the JSON reading are the triggering page's (`evallib.triggering.data`): one
implementation of "name the row and the field" for every uploaded data set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evallib.errors import InputError
from evallib.triggering.data import DATA, _check_schema, read_json

DEFAULT_CASES = DATA / "judging_cases.json"
#: The output types a case may expect, as the generation template names them.
TYPES = ("Python", "JSON", "Regex")
DIFFICULTIES = ("easy", "medium", "hard")
#: Longest answer the length check accepts when a case sets no ``max_chars``: a code answer to one
#: of these requests fits in a screen or two; beyond that the assistant is padding or looping.
DEFAULT_MAX_CHARS = 4000
#: Fields that only a Regex case may carry.
REGEX_FIELDS = ("must_match", "must_not_match", "regex_mode")


class JudgeDataError(InputError):
    """Input of the judge evaluation that cannot be used; ``details`` name what was wrong."""


class CaseSetError(JudgeDataError):
    """The cases are not valid (codes: not_json, not_utf8, schema, duplicate_id, regex_field)."""


@dataclass(frozen=True)
class Case:
    """One request to the assistant.

    ``must_match`` / ``must_not_match``: examples a Regex answer must (not) match, in ``regex_mode``
    "full" (the whole example) or "search" (anywhere in it). ``max_chars``: the length limit.
    """

    id: str
    input: str
    type: str
    context: str
    difficulty: str
    must_match: tuple[str, ...] = ()
    must_not_match: tuple[str, ...] = ()
    regex_mode: str = "full"
    max_chars: int = DEFAULT_MAX_CHARS

    def to_dict(self) -> dict:
        data = {"id": self.id, "input": self.input, "type": self.type, "context": self.context,
                "difficulty": self.difficulty}
        if self.type == "Regex":
            data.update(must_match=list(self.must_match), must_not_match=list(self.must_not_match),
                        regex_mode=self.regex_mode)
        if self.max_chars != DEFAULT_MAX_CHARS:
            data["max_chars"] = self.max_chars
        return data


def parse_cases(data: object) -> tuple[Case, ...]:
    """Cases from parsed JSON (a file, an upload or the page's table).

    Expected: ``{"cases": [{"id", "input", "type", "context", "difficulty", ...}]}``. Raises
    `CaseSetError` with code ``schema`` (details ``row``, ``field``, ``rule``) ``duplicate_id`` or ``regex_field`` (examples on a case that is not Regex).
    """
    _check_schema(data, "judging_cases.schema.json", CaseSetError, "case")
    seen: dict[str, int] = {}
    cases = []
    for row, item in enumerate(data["cases"], start=1):
        if item["id"] in seen:
            raise CaseSetError("duplicate_id", f"case {row}: the id {item['id']!r} is already used by case "
                               f"{seen[item['id']]}", row=row, field="id", id=item["id"])
        seen[item["id"]] = row
        for field in REGEX_FIELDS:
            if field in item and item["type"] != "Regex":
                raise CaseSetError("regex_field", f"case {row}, field {field!r}: only a Regex case takes "
                                   "examples", row=row, field=field, type=item["type"])
        cases.append(Case(item["id"], item["input"].strip(), item["type"], item["context"].strip(),
                          item["difficulty"], tuple(item.get("must_match", ())),
                          tuple(item.get("must_not_match", ())), item.get("regex_mode", "full"),
                          item.get("max_chars", DEFAULT_MAX_CHARS)))
    return tuple(cases)


def load_cases(source: str | Path | bytes = DEFAULT_CASES) -> tuple[Case, ...]:
    """Read and validate cases (a path or uploaded bytes)."""
    return parse_cases(read_json(source, CaseSetError))


def cases_to_dict(cases: tuple[Case, ...]) -> dict:
    """The JSON form of a case set (for download), accepted back by `parse_cases`."""
    return {"cases": [c.to_dict() for c in cases]}

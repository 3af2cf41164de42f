"""The triggering evaluation's inputs: a skill catalogue and labelled queries, schema-validated.

Defaults: ``packs/fr/triggering_skills.json`` and ``packs/fr/triggering_queries.json`` (docs/trigger.md#question),
each checked against its JSON Schema in ``data/schemas/`` on load and on upload, then
against each other (every expected skill must exist). Errors are `TriggerDataError` subclasses whose
``details`` name the row (1-based) and the field, so a page can say "query 4, field expected".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from jsonschema import ValidationError

from evallib.errors import InputError
from evallib.packs.layout import FRENCH_DIR
from evallib.schemas import validator

DATA = FRENCH_DIR
DEFAULT_SKILLS = DATA / "triggering_skills.json"
DEFAULT_QUERIES = DATA / "triggering_queries.json"

#: The label of "no skill" in confusion matrices and decisions; reserved, so no skill may bear it.
NO_SKILL = "none"
#: Separators that `fold_name` treats as one: a model writes expense-report, Expense_Report or
#: "expense report" for the same tool.
_SEPARATORS = re.compile(r"[-_\s]+")
#: Longest schema message passed on, in characters (a line of a page or a terminal).
MAX_MESSAGE = 160


def fold_name(name: str) -> str:
    """A skill name as compared with a model's answer: trimmed, case-folded, ``-``/``_``/spaces as one ``-``.

    >>> fold_name("  Expense_Report ")
    'expense-report'
    >>> fold_name("leave -- balance calculator")
    'leave-balance-calculator'
    """
    return _SEPARATORS.sub("-", name.strip().casefold()).strip("-")


class TriggerDataError(InputError):
    """A skill catalogue or query set that cannot be used; ``details`` name the row and field."""


class SkillCatalogueError(TriggerDataError):
    """The skill catalogue is not valid (codes: not_json, not_utf8, schema, duplicate_name, names_fold_together,
    reserved_name)."""


class QuerySetError(TriggerDataError):
    """The labelled queries are not valid (codes: not_json, not_utf8, schema, duplicate_id, unknown_skill)."""


@dataclass(frozen=True)
class Skill:
    name: str
    description: str


@dataclass(frozen=True)
class SkillCatalogue:
    """The skills a model may activate, in display order."""

    skills: tuple[Skill, ...]
    setting: str = ""

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.skills]

    def with_description(self, name: str, description: str) -> "SkillCatalogue":
        """The same catalogue with one skill's description replaced (for before/after comparisons)."""
        if name not in self.names:
            raise KeyError(name)
        return replace(self, skills=tuple(Skill(s.name, description if s.name == name else s.description)
                                          for s in self.skills))

    def to_dict(self) -> dict:
        return {"setting": self.setting,
                "skills": [{"name": s.name, "description": s.description} for s in self.skills]}


@dataclass(frozen=True)
class LabelledQuery:
    """One query and the skill that must fire on it (``expected`` None: no skill must fire).

    ``near_miss_of`` names the skill whose vocabulary a negative shares on purpose; ``held_out``
    keeps it out of sight while descriptions are tuned.
    """

    id: str
    query: str
    expected: str | None
    held_out: bool = False
    near_miss_of: str | None = None
    language: str = ""
    register: str = ""
    explicit: bool | None = None

    def to_dict(self) -> dict:
        data = {"id": self.id, "query": self.query, "expected": self.expected, "held_out": self.held_out}
        optional = {"near_miss_of": self.near_miss_of, "language": self.language or None,
                    "register": self.register or None, "explicit": self.explicit}
        data.update({k: v for k, v in optional.items() if v is not None})
        return data


def _schema_error(error: ValidationError, error_cls: type[TriggerDataError], row_word: str) -> TriggerDataError:
    """The first schema violation as an error naming the row (1-based) and the field."""
    path = list(error.absolute_path)
    row = path[1] + 1 if len(path) > 1 and isinstance(path[1], int) else None
    field = next((str(p) for p in path[2:] if isinstance(p, str)), None)
    rule = str(error.validator)
    instance = error.instance if isinstance(error.instance, dict) else {}
    if rule == "required":
        field = next((name for name in error.validator_value if name not in instance), field)
        problem = "is missing"
    elif rule == "additionalProperties":
        known = set(error.schema.get("properties", {}))
        field = sorted(set(instance) - known)[0]
        problem = "is not an expected field"
    else:
        problem = _shortened(error.message)
    if field is None and row is None and path:
        field = str(path[0])
    where = [f"{row_word} {row}"] if row is not None else []
    where += [f"field {field!r}"] if field else []
    message = f"{', '.join(where)}: {problem}" if where else problem
    return error_cls("schema", message, row=row, field=field, rule=rule)


def _shortened(message: str) -> str:
    """jsonschema quotes the offending value whole (a 2,000-character description...): keep the start."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _check_schema(data: object, schema_name: str, error_cls: type[TriggerDataError], row_word: str) -> None:
    errors = sorted(validator(schema_name).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        raise _schema_error(errors[0], error_cls, row_word)


def parse_skills(data: object) -> SkillCatalogue:
    """Build a `SkillCatalogue` from parsed JSON (a file, an upload or the page's table).

    Expected: ``{"skills": [{"name", "description"}, ...], "setting"?}`` (see
    ``data/schemas/triggering_skills.schema.json``). Raises `SkillCatalogueError` with code
    ``schema`` (details ``row``, ``field``, ``rule``), ``duplicate_name`` or ``names_fold_together``
    (two names a model's answer could not tell apart, e.g. ``Expense_Report`` and ``expense-report``),
    or ``reserved_name`` (the name ``none`` stands for "no skill").
    """
    _check_schema(data, "triggering_skills.schema.json", SkillCatalogueError, "skill")
    skills = tuple(Skill(s["name"], s["description"].strip()) for s in data["skills"])
    folded: dict[str, int] = {}
    for row, skill in enumerate(skills, start=1):
        key = fold_name(skill.name)
        if key == NO_SKILL:
            raise SkillCatalogueError("reserved_name", f"skill {row}: the name {skill.name!r} is reserved for "
                                      "'no skill'", row=row, field="name", name=skill.name)
        if key in folded:
            first = skills[folded[key] - 1].name
            code = "duplicate_name" if first == skill.name else "names_fold_together"
            raise SkillCatalogueError(code, f"skill {row}: the name {skill.name!r} cannot be told apart from "
                                      f"skill {folded[key]} ({first!r})", row=row, field="name",
                                      name=skill.name, other=first, other_row=folded[key])
        folded[key] = row
    return SkillCatalogue(skills, str(data.get("setting", "")))


def parse_queries(data: object, catalogue: SkillCatalogue) -> tuple[LabelledQuery, ...]:
    """Labelled queries from parsed JSON, checked against the catalogue.

    Expected: ``{"queries": [{"id", "query", "expected": name | null, "held_out"?, ...}]}`` (see
    ``data/schemas/triggering_queries.schema.json``). Raises `QuerySetError` with code ``schema``
    (details ``row``, ``field``, ``rule``), ``duplicate_id`` or ``unknown_skill`` (``expected`` or
    ``near_miss_of`` names no skill of the catalogue).
    """
    _check_schema(data, "triggering_queries.schema.json", QuerySetError, "query")
    names = set(catalogue.names)
    seen: dict[str, int] = {}
    queries = []
    for row, item in enumerate(data["queries"], start=1):
        if item["id"] in seen:
            raise QuerySetError("duplicate_id", f"query {row}: the id {item['id']!r} is already used by "
                                f"query {seen[item['id']]}", row=row, field="id", id=item["id"])
        seen[item["id"]] = row
        for field in ("expected", "near_miss_of"):
            if item.get(field) is not None and item[field] not in names:
                raise QuerySetError("unknown_skill", f"query {row}, field {field!r}: {item[field]!r} is not a "
                                    "skill of the catalogue", row=row, field=field, name=item[field])
        queries.append(LabelledQuery(item["id"], item["query"].strip(), item["expected"],
                                     item.get("held_out", False), item.get("near_miss_of"),
                                     item.get("language", ""), item.get("register", ""), item.get("explicit")))
    return tuple(queries)


def read_json(source: str | Path | bytes, error_cls: type[TriggerDataError]) -> object:
    """Parse a file path or uploaded bytes; a syntax error raises ``error_cls`` code ``not_json`` with its line,
    bytes that are not UTF-8 code ``not_utf8``."""
    try:
        text = source.decode("utf-8-sig") if isinstance(source, bytes) else Path(source).read_text(encoding="utf-8-sig")
        return json.loads(text)
    except UnicodeDecodeError as exc:
        raise error_cls("not_utf8", f"not UTF-8 text: {exc.reason}") from exc
    except json.JSONDecodeError as exc:
        raise error_cls("not_json", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}",
                        line=exc.lineno) from exc


def load_skills(source: str | Path | bytes = DEFAULT_SKILLS) -> SkillCatalogue:
    """Read and validate a skill catalogue (a path or uploaded bytes)."""
    return parse_skills(read_json(source, SkillCatalogueError))


def load_queries(catalogue: SkillCatalogue, source: str | Path | bytes = DEFAULT_QUERIES) -> tuple[LabelledQuery, ...]:
    """Read and validate labelled queries (a path or uploaded bytes) against ``catalogue``."""
    return parse_queries(read_json(source, QuerySetError), catalogue)


def queries_to_dict(queries: tuple[LabelledQuery, ...]) -> dict:
    """The JSON form of a query set (for download), accepted back by `parse_queries`."""
    return {"queries": [q.to_dict() for q in queries]}

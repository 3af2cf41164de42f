"""The rubric of the model grader, as data: criteria scored from 0 to their maximum, total = their sum.

Default (docs/judge.md#rubric): FORMAT 0-3, VALIDITY 0-4, ADEQUACY 0-3, total 10, with descriptions written for
this app in ``packs/fr/judging_prompts.json``. The page edits it as a table; `parse_rubric` validates
what comes back (schema, then names the judge can write as distinct JSON keys).
"""

from __future__ import annotations

import json
from pathlib import Path
from dataclasses import dataclass

from evallib.judging.data import DATA, JudgeDataError
from evallib.triggering.data import _check_schema

DEFAULT_PROMPTS = DATA / "judging_prompts.json"
#: Keys under which the judge's total is read, in this order: the key the prompt asks for, then the
#: names a judge most often gives an overall grade when it drifts from the requested shape. Only when
#: ``total`` is absent is the next name read; any other name leaves the total missing (never guessed).
TOTAL_KEYS = ("total", "score", "overall")
#: Keys of the judge's JSON object besides the criteria: a criterion may not bear one of them.
RESERVED_NAMES = ("STRENGTHS", "WEAKNESSES", "REASONING", "SCORES", *(key.upper() for key in TOTAL_KEYS))


class RubricError(JudgeDataError):
    """The rubric is not valid (codes: schema, duplicate_name, reserved_name)."""


@dataclass(frozen=True)
class Criterion:
    """One criterion: its JSON key, the points it can give (0 to ``max_points``) and what it checks."""

    name: str
    max_points: int
    description: str


@dataclass(frozen=True)
class Rubric:
    """Criteria in the order the judge scores them."""

    criteria: tuple[Criterion, ...]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.criteria]

    @property
    def max_total(self) -> int:
        """Highest total: the sum of the criteria's maxima (10 for the default rubric)."""
        return sum(c.max_points for c in self.criteria)

    def criterion(self, name: str) -> Criterion | None:
        return next((c for c in self.criteria if c.name == name), None)

    def to_dict(self) -> dict:
        return {"criteria": [{"name": c.name, "max_points": c.max_points, "description": c.description}
                             for c in self.criteria]}


def parse_rubric(data: object) -> Rubric:
    """A `Rubric` from parsed JSON ``{"criteria": [{"name", "max_points", "description"}]}``.

    Raises `RubricError` with code ``schema`` (details ``row``, ``field``, ``rule``),
    ``duplicate_name`` or ``reserved_name`` (a name among `RESERVED_NAMES`). The schema allows only
    capitals, digits and ``_``, so two names never differ by case alone (the judge's keys are read
    without regard to case).
    """
    _check_schema(data, "judging_rubric.schema.json", RubricError, "criterion")
    criteria = tuple(Criterion(c["name"], c["max_points"], c["description"].strip()) for c in data["criteria"])
    seen: dict[str, int] = {}
    for row, criterion in enumerate(criteria, start=1):
        if criterion.name in RESERVED_NAMES:
            raise RubricError("reserved_name", f"criterion {row}: the name {criterion.name!r} is a key of the "
                              "judge's answer", row=row, field="name", name=criterion.name)
        if criterion.name in seen:
            raise RubricError("duplicate_name", f"criterion {row}: the name {criterion.name!r} is already used "
                              f"by criterion {seen[criterion.name]}", row=row, field="name", name=criterion.name)
        seen[criterion.name] = row
    return Rubric(criteria)


def default_prompts(path: str | Path = DEFAULT_PROMPTS) -> dict:
    """The templates and rubric as stored in a pack's ``judging_prompts.json`` (default: the built-in French pack's)."""
    return json.loads(Path(path).read_text(encoding="utf-8-sig"))


def default_rubric() -> Rubric:
    """The default rubric (FORMAT 0-3, VALIDITY 0-4, ADEQUACY 0-3)."""
    return parse_rubric(default_prompts()["rubric"])

"""The JSON schemas of the project's data files (``data/schemas/``), each compiled once per process."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

SCHEMAS = Path(__file__).resolve().parent.parent / "data" / "schemas"


@cache
def validator(schema_name: str) -> Draft202012Validator:
    """The validator of ``data/schemas/<schema_name>``, the schema itself checked first.

    Raises FileNotFoundError for an unknown name and ``jsonschema.SchemaError`` for a malformed schema.
    """
    schema = json.loads((SCHEMAS / schema_name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)

"""What an attempt submitted to a room stores, built by pure functions from a page's results.

An attempt is a JSON object validated against ``data/schemas/room_attempt.schema.json`` (``version``
2; an attempt of version 1, trigger only, still reads as it was stored). ``kind`` names the page and
selects the shape of ``inputs``, ``provenance``, ``items`` and ``figures``: "trigger" (here),
"persona" (`evallib.room.persona_attempt`), "judge" (`evallib.room.judge_attempt`). It keeps the participant's inputs, where its answers came from (model, live or recorded, runs,
mode: never a key nor an endpoint), the per-item outcomes the board pairs across attempts, its
figures with intervals and its reading codes. The board never recomputes an attempt's figures; it only
pairs the ``items``.

Trigger eval (`build_trigger_attempt`): the edited skill descriptions; accuracy, false activation
rate and recall over every scored decision (all runs) with their 95 % intervals, the **query** as the
unit (its runs one cluster, `evallib.cluster_rates`: the figures the trigger page shows), on the
visible queries and on the held-out ones apart; per item, one outcome per query (right only when
every run was right, `evallib.triggering.metrics.by_query`) for the board's paired test, and its
scored runs and right ones (``runs``, ``right``: the figure's clusters, `evallib.room.outcomes`); and
McNemar's exact test against the room's baseline descriptions on the same visible queries
(`evallib.triggering.comparison`). Held-out queries stay out of the comparison: the board uses them
to re-measure the winners (winner's curse).

Errors are `RoomAttemptError` (an `evallib.errors.InputError`): ``not_object``, ``not_json``,
``newer_version``, ``schema`` (``details``: path, rule), ``contains_key``, ``unknown_query``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence


from evallib.errors import InputError
from evallib.llm.redaction import KEY_LIKE, redact, strings
from evallib.schemas import validator
from evallib.triggering.comparison import mcnemar_exact, mcnemar_reading, paired_correctness
from evallib.triggering.data import LabelledQuery
from evallib.triggering.metrics import RoutedDecision, by_query, trigger_metrics

SCHEMA = "room_attempt.schema.json"
VERSION = 2
KINDS = ("trigger", "persona", "judge", "judge_code")
_TRIGGER_RATES = ("accuracy", "false_activation_rate", "recall")


class RoomAttemptError(InputError):
    """An attempt that cannot be stored; ``code`` and ``details`` name the problem (module docstring)."""


def validate_attempt(payload: object) -> dict:
    """A JSON-clean copy of ``payload`` once checked against the schema; raises `RoomAttemptError`.

    The version is checked before the schema so that an attempt from a newer app says so. A text
    holding a provider key is refused (``contains_key``); then every text is redacted
    (`evallib.llm.redaction.redact`: credentials of a URL, key-like query parameters, header values).
    """
    if not isinstance(payload, Mapping):
        raise RoomAttemptError("not_object", "an attempt must be a JSON object", got=type(payload).__name__)
    try:
        clean = json.loads(json.dumps(payload, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise RoomAttemptError("not_json", f"the attempt is not plain JSON: {error}") from error
    version = clean.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise RoomAttemptError("newer_version", f"the attempt has version {version}, this app reads up to {VERSION}",
                               version=version, supported=VERSION)
    error = next(iter(sorted(validator(SCHEMA).iter_errors(clean), key=lambda e: list(map(str, e.absolute_path)))), None)
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path)
        raise RoomAttemptError("schema", f"attempt, at {path or 'the top'}: {error.message[:160]}",
                               path=path, rule=str(error.validator))
    if any(KEY_LIKE.search(text) for text in strings(clean)):
        raise RoomAttemptError("contains_key", "the attempt holds what looks like an API key; it is never stored")
    return redact(clean)


def plain(value: object) -> object:
    """``value`` with numpy scalars, tuples and arrays turned into plain JSON values (for reading values)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        value = value.tolist() if hasattr(value, "tolist") else value
        return [plain(v) for v in value] if isinstance(value, list) else value
    return value


def reading_dicts(readings) -> list[dict]:
    """`Reading`s as stored: ``{"code", "values"}`` with plain values (None readings skipped)."""
    return [{"code": r.code, "values": plain(r.values)} for r in readings if r is not None]


def answer_provenance(result, default_model: str = "") -> dict:
    """Where one answer came from (an `evallib.llm.ChatResult` or None when nothing answered):
    ``source`` (live, cache, recording, none), ``origin`` (live or authored) and the ``model``."""
    if result is None:
        return {"source": "none", "origin": "", "model": default_model}
    return {"source": result.source, "origin": result.provenance, "model": result.model or default_model}


def _rates(rows: Sequence[RoutedDecision]) -> dict:
    metrics = trigger_metrics(rows)
    return {name: getattr(metrics, name).to_dict() for name in _TRIGGER_RATES}


def build_trigger_attempt(rows: Sequence[RoutedDecision], queries: Sequence[LabelledQuery],
                          descriptions: Mapping[str, str], *, model: str, source: str, runs: int, mode: str = "tools",
                          baseline_rows: Sequence[RoutedDecision] | None = None) -> dict:
    """The stored form of a trigger-eval attempt (module docstring), validated.

    ``rows``: the page's decisions with the edited ``descriptions`` (all runs); ``queries``: the
    labelled queries they answer (their ``held_out`` flag splits the figures); ``baseline_rows``: the
    decisions of the room's baseline descriptions on the same queries (``comparison`` is None without
    them). ``source`` is "live", "recorded" or "offline". Raises `RoomAttemptError` (``unknown_query``
    when a decision answers a query not in ``queries``).
    """
    held_out = {q.id: q.held_out for q in queries}
    unknown = sorted({r.query_id for r in rows} - set(held_out))
    if unknown:
        raise RoomAttemptError("unknown_query", f"decisions for queries not in the set: {unknown[:3]}", queries=unknown)
    per_query = by_query(rows)
    counts: dict[str, list[int]] = {}
    for r in rows:  # scored runs and right ones per query: the figure's clusters (`evallib.room.outcomes`)
        tally = counts.setdefault(r.query_id, [0, 0])
        tally[0] += r.correct
        tally[1] += r.decision.scored
    items = [{"id": r.query_id, "held_out": held_out[r.query_id],
              "correct": r.correct if r.decision.scored else None, "expected": r.expected,
              "obtained": r.decision.obtained, "status": r.decision.status,
              "right": counts[r.query_id][0], "runs": counts[r.query_id][1]} for r in per_query]
    visible = [r for r in per_query if not held_out[r.query_id]]
    # the figures count every run, the query as the unit of their intervals (as the page's tables)
    visible_runs = [r for r in rows if not held_out[r.query_id]]
    hidden_runs = [r for r in rows if held_out[r.query_id]]
    comparison, readings = None, []
    if baseline_rows is not None:
        base_visible = [r for r in baseline_rows if not held_out.get(r.query_id, False)]
        _, before, after = paired_correctness(base_visible, visible)
        result = mcnemar_exact(before, after)
        comparison = {"b": result.b, "c": result.c, "n": result.n, "p_value": result.p_value}
        reading = mcnemar_reading(result)
        readings.append({"code": reading.code, "values": dict(reading.values)})
    return validate_attempt({
        "version": VERSION, "kind": "trigger", "unit": "query",
        "inputs": {"descriptions": dict(descriptions)},
        "provenance": {"model": model, "source": source, "runs": int(runs), "mode": mode},
        "items": items, "figures": {"visible": _rates(visible_runs), "held_out": _rates(hidden_runs)},
        "comparison": comparison, "readings": readings})

"""One page's run as one JSON file: what the page's download writes, and ``python -m evallib <page> --out``.

The same schema for both (``data/schemas/run_bundle.schema.json``, ``format`` "evallib-run", ``version``
1), so that a CI report opens in the page and a page's download can be read by a script:

- ``page``: persona, trigger, judge, gnss or kappa; ``made_by``: "page" or "cli"; ``app_version``
  (`evallib.__version__`) and ``created_at`` (ISO 8601, UTC);
- ``inputs``: what the run was made of, as edited (the page's own shape; its loader validates it);
- ``requests``: each canonical request sent (``key``, optional ``label``, ``request``);
- ``answers``: one per request, with its ``provenance`` (``source`` live / cache / recording / none,
  ``origin`` live or authored, ``model``, ``recorded_at``) and ``text`` or ``error``;
- ``report``: the figures as the page's command reports them, ``readings`` as ``{"code", "values"}``.

Never a key, a URL with credentials or a path of this machine: `make_run_bundle` refuses them
(`evallib.llm.redaction.leak`). `read_run_bundle` checks a text before the page loads anything: size,
JSON, ours, the expected page, not from a newer version, the schema, one answer per request key.

Errors are `RunBundleError` (an `evallib.errors.InputError`) with ``code``: ``too_large`` (details:
size, limit), ``not_json``, ``not_object``, ``not_ours``, ``other_page`` (details: page, expected),
``newer_version`` (details: version, supported), ``schema`` (details: path), ``unknown_answer``
(details: key), ``leak`` (details: kind).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone

from evallib import __version__
from evallib.errors import InputError
from evallib.llm.redaction import leak, redact, redact_text
from evallib.schemas import validator

FORMAT = "evallib-run"
VERSION = 1
SCHEMA = "run_bundle.schema.json"
PAGES = ("persona", "trigger", "judge", "gnss", "kappa")
#: Largest bundle read, in bytes (the page's uploader allows as much).
MAX_BYTES = 50 * 1024 * 1024


class RunBundleError(InputError):
    """A bundle that cannot be written or loaded; ``code`` and ``details`` name why (module docstring)."""


def plain(value: object) -> object:
    """``value`` as plain JSON: numpy scalars and arrays, tuples and dataclass-free mappings converted."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def answer_entry(result, request_key: str, default_model: str = "") -> dict:
    """One ``answers`` entry from an `evallib.llm.ChatResult` (None: nothing answered this request).

    ``result`` keeps the whole result (tool calls, tokens, status) so that `answers_by_key` gives the
    page back exactly what it had; ``text`` and ``error`` repeat it for a reader of the file. Both go
    through `evallib.llm.redaction.redact`: an error that names the base URL keeps no credential of it.
    """
    if result is None:
        return {"request_key": request_key, "text": None, "error": None,
                "provenance": {"source": "none", "origin": "", "model": default_model}}
    return {"request_key": request_key, "text": redact_text(result.text) if result.text else result.text,
            "error": redact_text(result.error) or None,
            "finish_reason": result.finish_reason, "result": redact(result.to_dict()),
            "provenance": {"source": result.source, "origin": result.provenance or "",
                           "model": result.model or default_model, "recorded_at": result.recorded_on or None}}


def answers_by_key(bundle: Mapping) -> dict:
    """The bundle's answers as `evallib.llm.ChatResult` by request key (requests answered by nothing left out).

    Raises `RunBundleError` ``schema`` when a stored result does not read as a `ChatResult`.
    """
    from evallib.llm import ChatResult

    out = {}
    for index, answer in enumerate(bundle["answers"]):
        if "result" not in answer:
            continue
        try:
            out[answer["request_key"]] = ChatResult.from_dict(answer["result"])
        except (TypeError, ValueError) as error:
            raise RunBundleError("schema", f"bundle, at answers/{index}/result: {str(error)[:160]}",
                                 path=f"answers/{index}/result") from error
    return out


def _check(bundle: dict, expected_page: str | None) -> dict:
    version = bundle.get("version")
    if bundle.get("format") != FORMAT:
        raise RunBundleError("not_ours", "this file is not a run bundle of this app (no format \"evallib-run\")")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise RunBundleError("newer_version", f"the bundle has version {version}, this app reads up to {VERSION}",
                             version=version, supported=VERSION)
    page = bundle.get("page")
    if expected_page is not None and isinstance(page, str) and page != expected_page:
        raise RunBundleError("other_page", f"this bundle is a run of the {page!r} page, not {expected_page!r}",
                             page=page[:40], expected=expected_page)
    error = next(iter(sorted(validator(SCHEMA).iter_errors(bundle), key=lambda e: list(map(str, e.absolute_path)))),
                 None)
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path)
        raise RunBundleError("schema", f"bundle, at {path or 'the top'}: {error.message[:160]}", path=path)
    keys = {r["key"] for r in bundle["requests"]}
    for answer in bundle["answers"]:
        if answer["request_key"] not in keys:
            raise RunBundleError("unknown_answer", f"an answer refers to no request ({answer['request_key'][:16]})",
                                 key=answer["request_key"][:16])
    kind = leak(bundle)
    if kind is not None:
        raise RunBundleError("leak", f"the bundle holds what looks like a secret ({kind}); it is refused", kind=kind)
    return bundle


def make_run_bundle(page: str, *, inputs: Mapping, requests: Sequence[Mapping] = (), answers: Sequence[Mapping] = (),
                    report: Mapping, made_by: str = "page", created_at: datetime | None = None) -> dict:
    """A checked bundle (module docstring) from plain parts; raises `RunBundleError` (``schema``, ``leak``)."""
    when = (created_at or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
    try:
        bundle = json.loads(json.dumps({
            "format": FORMAT, "version": VERSION, "page": page, "app_version": __version__, "created_at": when,
            "made_by": made_by, "inputs": plain(inputs), "requests": plain(list(requests)),
            "answers": plain(list(answers)), "report": plain(report)}, allow_nan=False))
    except (TypeError, ValueError) as error:
        raise RunBundleError("schema", f"the run is not plain JSON: {error}", path="") from error
    return _check(bundle, page)


def dumps(bundle: Mapping) -> bytes:
    """The bundle as UTF-8 JSON text (indented, accents kept)."""
    return json.dumps(bundle, ensure_ascii=False, indent=1, allow_nan=False).encode("utf-8")


def read_run_bundle(raw: bytes | str, page: str | None = None) -> dict:
    """The bundle in ``raw`` once fully checked (module docstring); ``page``: the page that loads it.

    Raises `RunBundleError`; nothing is returned halfway.
    """
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise RunBundleError("too_large", f"the file has {size} bytes, at most {MAX_BYTES} are read",
                             size=size, limit=MAX_BYTES)
    try:
        data = json.loads(raw, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise RunBundleError("not_json", f"the file is not JSON: {str(error)[:160]}") from error
    if not isinstance(data, dict):
        raise RunBundleError("not_object", "a run bundle is a JSON object", got=type(data).__name__)
    return _check(data, page)

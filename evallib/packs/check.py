"""Every problem of a pack folder, each naming the file, the row and the field (docs/packs.md#checks).

`check_folder` never raises on bad content: it returns `PackProblem` values (a code, the values they
rest on, an English message), in file order, so the command line lists them all and a page words them.
The content files are checked by the pages' own parsers (`evallib.triggering.data`, `evallib.persona`,
`evallib.judging`, `evallib.gnss`) so that a pack that passes here loads on every page.
"""

from __future__ import annotations

import codecs
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

from evallib.errors import InputError
from evallib.packs.layout import (MANIFEST, MAX_FILE_BYTES, MAX_PACK_BYTES, PAGE_FILES, RECORDING_SETS, RECORDINGS,
                                  page_of)
from evallib.schemas import validator


@dataclass(frozen=True)
class PackProblem:
    """One thing wrong in a pack.

    Attributes:
        file: the file's path inside the pack (``triggering_queries.json``, ``recordings/trigger.jsonl``),
            or "" for the pack as a whole.
        code: no_manifest, not_json, not_utf8, schema, missing_file, unknown_file, duplicate_id,
            unknown_skill, invalid (a page's parser refused the file: ``reason`` holds its code),
            other_pack, bad_recording, too_large, pack_too_large, unsafe_path, not_a_pack, bad_zip,
            page_not_covered. ``details["reason"]`` tells the cases of one code apart: unknown_file
            (no_page, page_not_listed, not_a_recording_set), unsafe_path (leaves, link), bad_zip (not_zip,
            damaged, size), bad_recording (the `evallib.llm.recordings.RecordingProblem` code, its details
            alongside); duplicate_id names its ``item`` (query, case, example).
        message: the English sentence, without the file name.
        row: the 1-based row in the file's list (or line of a recording file), when there is one.
        field: the field, when there is one.
        details: the values the message names.
    """

    file: str
    code: str
    message: str
    row: int | None = None
    field: str | None = None
    details: dict = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        """``file: message``; ``file, field 'x': ...`` when the message starts with the field (no row)."""
        if not self.file:
            return self.message
        return f"{self.file}{', ' if self.message.startswith('field ') else ': '}{self.message}"


#: Python's words for a JSON syntax error said plainly; the others are kept, lower-cased.
_JSON_REASONS = {"Expecting value": "expecting a value", "Extra data": "more text after the JSON value",
                 "Unterminated string starting at": "a string that is never closed",
                 "Invalid control character at": "a control character (a tab, a line break) inside a string"}


def json_error_text(line: int, column: int, reason: str) -> str:
    """"not valid JSON (line 99, column 5: expecting a value)" from a `json.JSONDecodeError`'s
    ``lineno``, ``colno`` and ``msg``."""
    return f"not valid JSON (line {line}, column {column}: {_JSON_REASONS.get(reason, reason[:1].lower() + reason[1:])})"


def _from_input_error(file: str, exc: InputError) -> PackProblem:
    details = dict(exc.details)
    row = details.get("row", details.get("number"))
    return PackProblem(file, exc.code if exc.code in ("schema", "duplicate_id", "unknown_skill") else "invalid",
                       str(exc), row if isinstance(row, int) else None, details.get("field"),
                       {"reason": exc.code, **details})


def _schema_problems(file: str, data: object, schema: str, row_word: str) -> list[PackProblem]:
    """Every violation of ``schema``, each as a problem naming the row and the field."""
    from evallib.triggering.data import TriggerDataError, _schema_error

    errors = sorted(validator(schema).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [_from_input_error(file, _schema_error(e, TriggerDataError, row_word)) for e in errors]


def _read_json(root: Path, name: str) -> tuple[object | None, list[PackProblem]]:
    raw = (root / name).read_bytes()
    try:
        return json.loads(raw.decode("utf-8-sig")), []  # a byte order mark (Windows Notepad writes one) is fine
    except UnicodeDecodeError as exc:
        at = exc.start + (len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0)  # in the file's bytes
        return None, [PackProblem(name, "not_utf8", f"not UTF-8 text (byte {at})", details={"byte": at})]
    except json.JSONDecodeError as exc:
        return None, [PackProblem(name, "not_json", json_error_text(exc.lineno, exc.colno, exc.msg), row=exc.lineno,
                                  details={"line": exc.lineno, "column": exc.colno})]


def _duplicates(file: str, items: list, key: str, row_word: str) -> list[PackProblem]:
    seen: dict[str, int] = {}
    problems = []
    for row, item in enumerate(items, start=1):
        value = item.get(key) if isinstance(item, dict) else None
        if value is None:
            continue
        if value in seen:
            problems.append(PackProblem(file, "duplicate_id", f"{row_word} {row}, field {key!r}: {value!r} is already "
                                        f"used by {row_word} {seen[value]}", row, key,
                                        {"id": value, "other_row": seen[value], "item": row_word}))
        else:
            seen[value] = row
    return problems


def _built(file: str, build, *paths: Path) -> list[PackProblem]:
    """No problem when ``build(*paths)`` (a writer of authored recordings) accepts the file, else the one it raised."""
    try:
        build(*paths)
    except InputError as exc:
        return [_from_input_error(file, exc)]
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        return [PackProblem(file, "invalid", f"not the expected structure ({type(exc).__name__}: {exc})",
                            details={"reason": "structure"})]
    return []


def _check_trigger(root: Path, loaded: dict) -> list[PackProblem]:
    from evallib.triggering.data import TriggerDataError, parse_skills

    problems = []
    skills, queries = loaded.get("triggering_skills.json"), loaded.get("triggering_queries.json")
    names: set[str] | None = None
    if skills is not None:
        found = _schema_problems("triggering_skills.json", skills, "triggering_skills.schema.json", "skill")
        if not found:
            try:
                names = set(parse_skills(skills).names)
            except TriggerDataError as exc:
                found = [_from_input_error("triggering_skills.json", exc)]
        problems += found
    if queries is not None:
        found = _schema_problems("triggering_queries.json", queries, "triggering_queries.schema.json", "query")
        if not found:
            found = _duplicates("triggering_queries.json", queries["queries"], "id", "query")
            for row, item in enumerate(queries["queries"], start=1):
                for name in ("expected", "near_miss_of"):
                    if names is not None and item.get(name) is not None and item[name] not in names:
                        found.append(PackProblem("triggering_queries.json", "unknown_skill",
                                                 f"query {row}, field {name!r}: {item[name]!r} is not a skill of "
                                                 "triggering_skills.json", row, name, {"name": item[name]}))
        problems += found
    if "triggering_authored_decisions.json" in loaded and not problems:
        from evallib.triggering.authored import authored_recordings

        problems += _built("triggering_authored_decisions.json", authored_recordings,
                           root / "triggering_authored_decisions.json", root / "triggering_skills.json",
                           root / "triggering_queries.json")
    return problems


def _check_persona(root: Path, loaded: dict) -> list[PackProblem]:
    from evallib.persona.catalogue import CatalogueError, validate_catalogue

    problems = []
    if "personas.json" in loaded:
        try:
            validate_catalogue(loaded["personas.json"])
        except CatalogueError as exc:
            problems.append(_from_input_error("personas.json", exc))
    responses = loaded.get("persona_authored_responses.json")
    if responses is not None and not (isinstance(responses, list) and all(isinstance(r, dict) for r in responses)):
        problems.append(PackProblem("persona_authored_responses.json", "invalid",
                                    "expected a list of objects {assistant, probe_index, variant, text}",
                                    details={"reason": "structure"}))
    return problems


def _check_judge(root: Path, loaded: dict) -> list[PackProblem]:
    from evallib.judging.data import JudgeDataError, parse_cases
    from evallib.judging.rubric import parse_rubric
    from evallib.judging.templates import check_template
    from evallib.judging.wording import judge_wording

    problems = []
    prompts = loaded.get("judging_prompts.json")
    if prompts is not None:
        if not isinstance(prompts, dict) or not isinstance(prompts.get("templates"), dict):
            problems.append(PackProblem("judging_prompts.json", "invalid", "expected an object with 'templates' "
                                        "(A and B) and 'rubric'", details={"reason": "structure"}))
        else:
            for name in ("A", "B"):
                try:
                    check_template(prompts["templates"].get(name, ""), name)
                except JudgeDataError as exc:
                    problems.append(_from_input_error("judging_prompts.json", exc))
            problems += _schema_problems("judging_prompts.json", prompts.get("rubric"), "judging_rubric.schema.json",
                                         "criterion")
            if not problems:
                try:
                    parse_rubric(prompts["rubric"])
                except JudgeDataError as exc:
                    problems.append(_from_input_error("judging_prompts.json", exc))
            try:  # the optional "judge" object: the judge's sentences in the pack's language
                judge_wording(prompts)
            except JudgeDataError as exc:
                problems.append(_from_input_error("judging_prompts.json", exc))
    cases = loaded.get("judging_cases.json")
    if cases is not None:
        found = _schema_problems("judging_cases.json", cases, "judging_cases.schema.json", "case")
        if not found:
            found = _duplicates("judging_cases.json", cases["cases"], "id", "case")
        if not found:
            try:
                parse_cases(cases)
            except JudgeDataError as exc:
                found = [_from_input_error("judging_cases.json", exc)]
        problems += found
    return problems


def _check_kappa(root: Path, loaded: dict) -> list[PackProblem]:
    data = loaded.get("kappa_examples.json")
    if data is None:
        return []
    file = "kappa_examples.json"
    problems = _schema_problems(file, data, "kappa_examples.schema.json", "example")
    if problems:
        return problems
    problems = _duplicates(file, data["examples"], "key", "example")
    for row, example in enumerate(data["examples"], start=1):
        lengths = sorted({len(r) for r in example["ratings"]})
        if len(lengths) > 1:
            problems.append(PackProblem(file, "invalid", f"example {row}, field 'ratings': the raters rate "
                                        f"{' and '.join(map(str, lengths))} items (one length is needed)", row,
                                        "ratings", {"reason": "ragged", "lengths": lengths}))
    csv_key = data.get("csv_example")
    if csv_key is not None and csv_key not in {e["key"] for e in data["examples"]}:
        problems.append(PackProblem(file, "invalid", f"field 'csv_example': {csv_key!r} is not the key of an example",
                                    field="csv_example", details={"reason": "unknown_example", "key": csv_key}))
    return problems


def _check_gnss(root: Path, loaded: dict) -> list[PackProblem]:
    problems = []
    if "gnss_recorded_runs.json" in loaded:
        from evallib.gnss.repeated import load_recorded_runs

        try:
            load_recorded_runs(root / "gnss_recorded_runs.json")
        except InputError as exc:
            problems.append(_from_input_error("gnss_recorded_runs.json", exc))
    if "gnss_authored_answers.json" in loaded:
        from evallib.gnss.live import authored_recordings

        problems += _built("gnss_authored_answers.json", authored_recordings, root / "gnss_authored_answers.json")
    return problems


_PAGE_CHECKS = {"trigger": _check_trigger, "persona": _check_persona, "judge": _check_judge, "kappa": _check_kappa,
                "gnss": _check_gnss}


def _check_recordings(root: Path, pack_id: str | None) -> list[PackProblem]:
    from evallib.llm.recordings import Recordings

    folder = root / RECORDINGS
    if not folder.is_dir():
        return []
    problems = []
    sets = set(RECORDING_SETS.values())
    for path in sorted(folder.iterdir()):
        name = f"{RECORDINGS}/{path.name}"
        if path.suffix != ".jsonl" or path.stem not in sets:
            expected = ", ".join(sorted(s + ".jsonl" for s in sets))
            problems.append(PackProblem(name, "unknown_file", f"not a recording set (expected one of {expected})",
                                        details={"reason": "not_a_recording_set", "name": path.name,
                                                 "expected": expected}))
    store = Recordings(folder)
    problems += [PackProblem(f"{RECORDINGS}/{p.file}", "bad_recording",
                             json_error_text(p.line, p.details["column"], p.details["json_error"])
                             if p.code == "not_json" else f"line {p.line}: {p.message}", p.line,
                             p.details.get("field"), {"reason": p.code, **p.details}) for p in store.problems]
    if pack_id is not None:
        problems += _other_pack(store, pack_id, root)
    return problems


def _other_pack(store, pack_id: str, root: Path) -> list[PackProblem]:
    """One problem per set and other pack named in its lines' provenance (a copied file holds hundreds)."""
    found: dict[tuple[str, str], list] = {}
    for set_name in sorted(set(RECORDING_SETS.values())):
        for recording in store.in_set(set_name):
            other = recording.provenance.get("pack")
            if other is not None and other != pack_id:
                found.setdefault((set_name, other), []).append(recording)
    problems = []
    for (set_name, other), recordings in found.items():
        origins = {r.provenance["source"] for r in recordings}
        fixes = (["rebuild the authored ones from this pack's files with python -m evallib authored --pack "
                  f"{root}"] if "authored" in origins else []) + (
            ["record the live ones again with python -m evallib record all --pack "
             f"{root}"] if "live" in origins else [])
        problems.append(PackProblem(f"{RECORDINGS}/{set_name}.jsonl", "other_pack",
                                    f"{len(recordings)} recordings were made for the pack {other!r}, not {pack_id!r} "
                                    f"(copied from it, or this pack's id was changed since); {'; '.join(fixes)}",
                                    field="provenance.pack",
                                    details={"pack": other, "expected": pack_id, "count": len(recordings),
                                             "key": recordings[0].key}))
    return problems


def size_problems(root: Path) -> list[PackProblem]:
    """Files over `MAX_FILE_BYTES`, a pack over `MAX_PACK_BYTES`, and links (which could leave the pack)."""
    problems, total = [], 0
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_symlink():
            problems.append(PackProblem(name, "unsafe_path", "a link (a pack holds plain files only)",
                                        details={"reason": "link"}))
        elif path.is_file():
            size = path.stat().st_size
            total += size
            if size > MAX_FILE_BYTES:
                problems.append(PackProblem(name, "too_large", f"{size:,} bytes; a pack file may hold "
                                            f"{MAX_FILE_BYTES:,} at most", details={"size": size,
                                                                                    "limit": MAX_FILE_BYTES}))
    if total > MAX_PACK_BYTES:
        problems.append(PackProblem("", "pack_too_large", f"the pack holds {total:,} bytes; {MAX_PACK_BYTES:,} at most",
                                    details={"size": total, "limit": MAX_PACK_BYTES}))
    return problems


def check_folder(root: Path, *, content: bool = True) -> tuple[dict | None, list[PackProblem]]:
    """(the manifest or None, every problem) of the pack folder ``root``.

    ``content=False`` checks the sizes, the manifest, which files are there and that each reads as JSON,
    not the pages' content (their parsers load pandas and scipy): for the built-in packs that the app
    opens in every session's sidebar, whose content the test suite checks in full
    (``tests/evallib/packs/test_check.py``) and each page parses when it opens."""
    problems = size_problems(root)
    unreadable = {p.file for p in problems}
    if not (root / MANIFEST).is_file():
        return None, problems + [PackProblem(MANIFEST, "no_manifest", "missing: a pack starts with its manifest "
                                             "(docs/packs.md#manifest)")]
    if MANIFEST in unreadable:
        return None, problems
    manifest, found = _read_json(root, MANIFEST)
    if not found:
        found = _schema_problems(MANIFEST, manifest, "pack_manifest.schema.json", "page")
    problems += found
    if found:
        return None, problems
    pages = manifest["pages"]
    loaded: dict[str, object] = {}
    for path in sorted(p for p in root.iterdir() if p.is_file() and p.name != MANIFEST):
        page = page_of(path.name)
        if page is None or page not in pages:
            why = "no page reads it" if page is None else f"it belongs to the page {page!r}, not in the manifest's pages"
            problems.append(PackProblem(path.name, "unknown_file", f"not a file of this pack ({why})",
                                        details={"reason": "no_page" if page is None else "page_not_listed",
                                                 "page": page}))
        elif path.name not in unreadable:
            data, found = _read_json(root, path.name)
            problems += found
            if not found:
                loaded[path.name] = data
    for page in pages:
        required = PAGE_FILES[page][0]
        problems += [PackProblem(name, "missing_file", f"missing: the page {page!r} needs it", details={"page": page})
                     for name in required if not (root / name).is_file()]
        if content and all(name in loaded for name in required):
            problems += _PAGE_CHECKS[page](root, loaded)
    if content:
        problems += _check_recordings(root, manifest["id"])
    return manifest, problems

"""One persona audit run as data: answers -> report (figures and readings) -> run bundle, and back.

Shared by the persona page (its download and its "load a run") and by ``python -m evallib persona``,
so that a bundle written by either opens in the other (`evallib.runs.bundle`, page "persona"):

- ``inputs``: the catalogue as edited (assistants, system prompts, probes), the mode ("offline" or
  "live") and the grid: which request answers which assistant and probe;
- ``requests`` / ``answers``: every request as sent (model and options included) and its answer with
  its provenance (authored example, recorded live with model and date, live);
- ``report``: the audit's figures (`persona_report`) and its readings, ``{"topic", "code", "values"}``
  where ``topic`` is the page's catalogue prefix of the reading.

Loading (`run_from_bundle`) rebuilds the run and recomputes the report with the same functions; a bundle
whose stored figures differ from the recomputed ones (edited by hand) is refused, so a loaded bundle
shows exactly what was shown when it was made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from evallib import persona
from evallib.llm import ChatRequest, ChatResult
from evallib.llm.recordings import content_key
from evallib.persona import readings
from evallib.persona.catalogue import Catalogue, CatalogueError, ProbeRequest, validate_catalogue
from evallib.runs.replay import book_of
from evallib.runs.bundle import RunBundleError, answer_entry, make_run_bundle
from evallib.runs.figures import check_recomputed, finite

PAGE = "persona"
#: An assistant is measured with at least this many usable answers: leave-one-out holds one out and
#: needs another for its centroid (the page's rule, `evallib.persona.readings.unmeasured`).
MIN_USABLE = 2


@dataclass(frozen=True)
class PersonaRun:
    """A catalogue, its grid of requests as sent and their answers (None: not answered).

    ``cells`` and ``results`` are parallel; ``live`` is True for a run made against a live endpoint.
    """

    catalogue: Catalogue
    cells: tuple[ProbeRequest, ...]
    results: tuple[ChatResult | None, ...]
    live: bool = False

    @property
    def responses(self) -> dict:
        """The answers by (assistant, probe index), unanswered cells left out."""
        return {(c.assistant, c.probe_index): r for c, r in zip(self.cells, self.results) if r is not None}


def usable_counts(catalogue: Catalogue, responses: Mapping) -> dict:
    """Answers that are not errors, by assistant (the count the page's table shows)."""
    return {name: sum(1 for i in range(len(catalogue.probes))
                      if responses.get((name, i)) is not None and not responses[(name, i)].failed)
            for name in catalogue.names}


def usable(catalogue: Catalogue, responses: Mapping, names: Sequence[str]) -> tuple[tuple, tuple, tuple]:
    """Texts, labels and probe indices of every answer of ``names`` that is not an error."""
    cells = [(name, i) for name in names for i in range(len(catalogue.probes))
             if responses.get((name, i)) is not None and not responses[(name, i)].failed]
    return tuple(responses[c].text for c in cells), tuple(c[0] for c in cells), tuple(c[1] for c in cells)


def _reading(topic: str, reading: readings.Reading) -> dict:
    return {"topic": topic, "code": reading.code, "values": reading.values}


def _discriminability(result) -> dict:
    rec = result.recognition
    return {"classes": result.classes, "accuracy": result.accuracy, "n_correct": result.n_correct,
            "n_responses": result.n_responses, "chance": result.chance,
            "null_mean_accuracy": result.null_mean_accuracy, "confidence": result.confidence,
            "accuracy_interval": result.accuracy_interval, "interval_unit": "probe",
            "n_probes_answered": result.n_probes_answered, "permutation_p_value": result.permutation_p_value,
            "n_permutations": len(result.permutation_accuracies), "confusion": result.confusion,
            "undecided": result.undecided, "n_empty": result.n_empty,
            "recognition": {"correct": rec.correct, "total": rec.total, "rate": rec.rate},
            "mutual_confusions": [list(m) for m in result.mutual_confusions],
            "most_confused_pairs": [list(p) for p in result.most_confused_pairs],
            "accuracy_per_probe": result.accuracy_per_probe, "predictions": result.predictions}


def persona_report(catalogue: Catalogue, responses: Mapping, *, live: bool = False) -> tuple:
    """(audit or None, report): the figures and readings the page shows for these answers.

    ``responses``: `ChatResult` by (assistant, probe index). The report holds ``n_probes``,
    ``usable`` (answers by assistant), ``measured`` (assistants with at least `MIN_USABLE`),
    ``status`` ("measured", "too_few_assistants" or a `PersonaDataError` code), and when measured
    ``discriminability`` (accuracy with its interval over probes, p-value, confusion, recognition),
    ``jaccard`` (k x k) and ``ranks`` (prompt vs answer distances per pair, Spearman's rho and its
    Mantel p-value); ``readings`` in page order. Floats that are undefined (nan) are None.
    """
    counts = usable_counts(catalogue, responses)
    measured = [name for name in catalogue.names if counts[name] >= MIN_USABLE]
    found = []
    for name in catalogue.names:
        if name not in measured:
            cells = [responses.get((name, i)) for i in range(len(catalogue.probes))]
            unrecorded = sum(1 for r in cells if r is not None and r.error_kind == "missing_recording")
            found.append(_reading("persona.unmeasured", readings.unmeasured(name, counts[name], unrecorded,
                                                                            live=live)))
    report = {"n_probes": len(catalogue.probes), "usable": counts, "measured": measured,
              "status": "too_few_assistants", "readings": found}
    if len(measured) < 2:
        return None, finite(report)
    texts, labels, probes = usable(catalogue, responses, measured)
    found += [_reading("persona.identical", r) for r in readings.identical_answers(texts, labels, measured)]
    try:
        audit = persona.audit(texts, labels, probes, tuple(catalogue.prompt_of(n) for n in measured),
                              classes=tuple(measured), n_probes=len(catalogue.probes))
    except persona.PersonaDataError as error:
        report["status"] = error.code
        return None, finite(report)
    result, ranks = audit.discriminability, audit.ranks
    found.append(_reading("persona.jaccard", readings.closest_vocabularies(audit.jaccard, list(audit.classes))))
    found.append(_reading("persona.disc", readings.discrimination(result)))
    found.append(_reading("persona.interval_reading", readings.accuracy_interval(result)))
    if readings.undecided(result):
        found.append(_reading("persona", readings.undecided(result)))
    found += [_reading("persona.confusion", r) for r in readings.confusions(result)]
    found.append(_reading("persona.ex1", readings.pair_to_merge(result)))
    found.append(_reading("persona.ex2", readings.probes(result)))
    found += [_reading("persona.ranks", r) for r in readings.ranks(ranks)]
    table = ranks.table
    report |= {"status": "measured", "readings": found, "discriminability": _discriminability(result),
               "jaccard": audit.jaccard,
               "ranks": {"pairs": [{column: table[column].iloc[i] for column in table.columns}
                                   for i in range(len(table))],
                         "n_changed": ranks.n_changed, "spearman_rho": ranks.spearman_rho,
                         "mantel_p_value": ranks.mantel.p_value}}
    return audit, finite(report)


def make_bundle(run: PersonaRun, *, made_by: str = "page", created_at: datetime | None = None,
                extra: Mapping | None = None, report: Mapping | None = None) -> dict:
    """The run bundle of ``run`` (module docstring); raises `RunBundleError` as `make_run_bundle` does.

    ``extra``: more report fields (the command's gate, failures and exit code), kept as they are and
    not recomputed on loading. ``report``: `persona_report` of ``run`` when already computed.
    """
    keys = [cell.request.key() for cell in run.cells]
    inputs = {"catalogue": run.catalogue.to_dict(), "mode": "live" if run.live else "offline",
              "grid": [{"assistant": c.assistant, "probe_index": c.probe_index, "request_key": key}
                       for c, key in zip(run.cells, keys)]}
    unique = dict(zip(keys, zip(run.cells, run.results)))  # two identical prompts send one request
    requests = [{"key": key, "label": f"{cell.assistant} / probe {cell.probe_index + 1}",
                 "request": cell.request.to_dict()} for key, (cell, _) in unique.items()]
    answers = [answer_entry(result, key, cell.request.model) for key, (cell, result) in unique.items()]
    if report is None:
        _, report = persona_report(run.catalogue, run.responses, live=run.live)
    return make_run_bundle(PAGE, inputs=inputs, requests=requests, answers=answers,
                           report={**(extra or {}), **report}, made_by=made_by, created_at=created_at)


def _inputs_error(field: str, message: str) -> RunBundleError:
    return RunBundleError("inputs", f"bundle inputs, at {field}: {message[:160]}", field=field)


#: The JSON types of a request's options (the page shows them; a hand-edited bundle may hold anything).
_OPTION_TYPES = {"model": (str,), "temperature": (int, float, type(None)), "max_tokens": (int, type(None)),
                 "seed": (int, type(None)), "stop": (list,), "extra_body": (dict, type(None))}


def _request(entry: Mapping, index: int) -> ChatRequest:
    """A stored request read back, its options of their types and its key the one stored beside it."""
    data = entry["request"]
    wrong = [name for name, types in _OPTION_TYPES.items()
             if name in data and (isinstance(data[name], bool) or not isinstance(data[name], types))]
    try:
        request = None if wrong else ChatRequest.from_dict(data)
    except (TypeError, ValueError, KeyError) as error:
        wrong = [str(error)[:80]]
    if wrong or request.key() != entry["key"]:
        raise RunBundleError("requests", f"request {index + 1} does not read as the chat request of its key "
                             f"({', '.join(wrong) or 'another key'})", index=index)
    return request


def _grid(inputs: Mapping, catalogue: Catalogue, requests: dict, positions: dict) -> list[ProbeRequest]:
    grid = inputs.get("grid")
    if not isinstance(grid, list):
        raise _inputs_error("inputs/grid", "expected a list of {assistant, probe_index, request_key}")
    cells = []
    for index, cell in enumerate(grid):
        where = f"inputs/grid/{index}"
        if not isinstance(cell, dict):
            raise _inputs_error(where, "expected an object")
        name, probe, key = cell.get("assistant"), cell.get("probe_index"), cell.get("request_key")
        if name not in catalogue.names:
            raise _inputs_error(where, f"assistant {str(name)[:40]!r} is not in the catalogue")
        if not isinstance(probe, int) or isinstance(probe, bool) or not 0 <= probe < len(catalogue.probes):
            raise _inputs_error(where, f"probe_index must be 0 to {len(catalogue.probes) - 1}")
        if not isinstance(key, str) or key not in requests:
            raise _inputs_error(where, "request_key names no request of the bundle")
        built = ChatRequest.single("", catalogue.prompt_of(name), catalogue.probes[probe])
        if content_key(built) != content_key(requests[key]):
            raise RunBundleError("requests", f"request {positions[key] + 1} does not ask what its inputs build "
                                 f"(assistant {name!r}, probe {probe + 1})", index=positions[key])
        cells.append(ProbeRequest(name, probe, requests[key]))
    if len({(c.assistant, c.probe_index) for c in cells}) != len(cells):
        raise _inputs_error("inputs/grid", "a cell (assistant, probe) appears twice")
    return cells


def run_from_bundle(bundle: Mapping) -> PersonaRun:
    """The run a checked bundle (`evallib.runs.bundle.read_run_bundle`) holds, its report recomputed.

    Raises `RunBundleError` ``inputs`` (details: field) when the inputs are no valid catalogue and grid,
    ``requests`` (details: index, from 0) when a request does not read, is not the request of its key
    or does not ask what its cell of the catalogue builds (its system prompt and probe), ``schema`` when
    an answer does not read, or ``figures_differ`` (details: path) when a recomputed figure or reading
    is not the stored one (fields the command adds, such as its gate, are not recomputed).
    """
    inputs = bundle["inputs"]
    try:
        catalogue = validate_catalogue(inputs.get("catalogue"))
    except CatalogueError as error:
        raise _inputs_error("inputs/catalogue", str(error)) from error
    if inputs.get("mode") not in ("live", "offline"):
        raise _inputs_error("inputs/mode", "expected \"live\" or \"offline\"")
    requests = {entry["key"]: _request(entry, index) for index, entry in enumerate(bundle["requests"])}
    cells = _grid(inputs, catalogue, requests, {entry["key"]: i for i, entry in enumerate(bundle["requests"])})
    results = book_of(bundle).results
    run = PersonaRun(catalogue, tuple(cells), tuple(results.get(c.request.key()) for c in cells),
                     live=inputs["mode"] == "live")
    _, report = persona_report(catalogue, run.responses, live=run.live)
    check_recomputed(report, bundle["report"])
    return run


__all__ = ["MIN_USABLE", "PAGE", "PersonaRun", "make_bundle", "persona_report", "run_from_bundle", "usable",
           "usable_counts"]

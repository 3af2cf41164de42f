"""An LLM-as-a-judge attempt: the edited template and rubric, and how well the judge agrees with humans.

The figures are the judge page's own (`evallib.judging.analyses`, `evallib.judging.biases`):

- agreement with the human scores: Cohen's kappa with **quadratic weights** on the 0..max_total
  scale (`human_agreement`, as the page): the 0-10 totals are not binned, a near miss earns partial
  credit, a 2-point miss costs four times a 1-point one (Cohen 1968). Interval: the analytic 95 %
  interval (Fleiss, Cohen & Everitt 1969), the **case** as unit;
- the unscored share: cases whose grade could not be read, with a Clopper-Pearson 95 % interval
  (unit: the case);
- the position flip rate of the pairwise probe (`position_bias`), when it was run.

Per case (``items``), the board pairs two attempts by ``loss`` = (judge total - human score)², in
points²: the per-case disagreement that quadratic-weighted kappa penalises (its numerator is their
mean over the chance term), None when the judge gave no score or no human scored the case. Two
attempts are compared on the cases both have a loss for by the exact sign-flip test
(`evallib.paired`), in `evallib.room.board`.

Without human scores (none typed for the cases judged), the attempt is of kind "judge_code": it is
compared on what it has, the code graders. Per case, ``code_agrees`` says whether the judge's verdict
on validity (at least `evallib.judging.analyses.VALIDITY_PASS_SHARE` of the criterion's points) is
the code graders' (`evallib.judging.analyses.validity_agreement`'s pairs; None where the code
graders have no verdict or the judge gave no score); the board pairs two attempts on it by McNemar's
exact test. Every attempt keeps ``code_agrees``, and the pairwise probe's flip rate when it was run.

Held-out cases (winner's curse): `HELD_OUT_CASES` stay out of the visible figures; the board shows
the kappa measured on them beside the visible one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evallib.judging.analyses import human_agreement, validity_agreement
from evallib.judging.biases import position_bias
from evallib.judging.pipeline import CaseResult, PairwiseComparison
from evallib.judging.rubric import Rubric
from evallib.room.attempts import VERSION, answer_provenance, reading_dicts, validate_attempt
from evallib.stats import clopper_pearson_interval

#: Cases set aside for the winner's curse: the last case of each type in ``packs/fr/judging_cases.json``
#: (Python, JSON, Regex; all three "medium"), so the held-out part covers every kind of answer. Chosen
#: once, before any result was seen. Cases not in the set being judged are simply absent.
HELD_OUT_CASES = ("py-dynamodb-count", "json-lambda-trust", "regex-ipv4-cidr")


def _kappa_figure(results: Sequence[CaseResult], human: Mapping[str, int], rubric: Rubric):
    kappa, readings = human_agreement(results, dict(human), rubric)
    n = sum(r.grade.scored and r.case.id in human for r in results)
    if kappa is None or kappa.kappa is None:
        return {"value": None, "ci95": None, "n": n, "unit": "case"}, readings
    return {"value": float(kappa.kappa), "ci95": [float(kappa.ci_low), float(kappa.ci_high)], "n": n,
            "unit": "case"}, readings


def _unscored_figure(results: Sequence[CaseResult]) -> dict:
    k, n = sum(not r.grade.scored for r in results), len(results)
    if n == 0:
        return {"value": None, "ci95": None, "n": 0, "k": 0, "unit": "case"}
    low, high = clopper_pearson_interval(k, n)
    return {"value": k / n, "ci95": [float(low), float(high)], "n": n, "k": k, "unit": "case"}


def build_judge_attempt(results: Sequence[CaseResult], human: Mapping[str, int], rubric: Rubric, *, template: str,
                        template_name: str, generator: str, judge: str, source: str, blinding: bool = True,
                        comparisons: Sequence[PairwiseComparison] | None = None,
                        held_out_cases: Sequence[str] = HELD_OUT_CASES) -> dict:
    """The stored form of a judge attempt, validated.

    ``results``: the page's `CaseResult`s under the edited ``template`` and ``rubric``; ``human``:
    case id -> human total (0..rubric.max_total, as `parse_human_scores` returns); ``comparisons``:
    the pairwise probe's verdicts (None: not run, ``figures.position`` is None). ``source``: "live",
    "recorded" or "offline". The kind is "judge" when some case judged has a human score, else
    "judge_code" (see the module docstring). Raises `RoomAttemptError` on validation.
    """
    held = set(held_out_cases)
    agreement, _ = validity_agreement(results, rubric)
    agrees = {case: code == model for case, code, model in zip(agreement.case_ids, agreement.code, agreement.model)}
    visible = [r for r in results if r.case.id not in held]
    hidden = [r for r in results if r.case.id in held]
    items = []
    for r in results:
        score, truth = r.grade.score, human.get(r.case.id)
        call = r.grading or (r.calls[0] if r.calls else None)
        items.append({"id": r.case.id, "held_out": r.case.id in held, "score": score, "human": truth,
                      "loss": None if score is None or truth is None else float((score - truth) ** 2),
                      "code_agrees": agrees.get(r.case.id),
                      "status": r.grade.status, "text": r.response, "answer": answer_provenance(call, judge)})
    kappa, readings = _kappa_figure(visible, human, rubric)
    held_kappa, _ = _kappa_figure(hidden, human, rubric)
    position = None
    if comparisons is not None:
        bias, position_readings = position_bias(comparisons)
        position = {"flip_rate": bias.flip_rate, "flips": bias.flips, "compared": bias.compared}
        readings = [*readings, *position_readings]
    return validate_attempt({
        "version": VERSION, "kind": "judge" if any(r.case.id in human for r in results) else "judge_code",
        "unit": "case",
        "inputs": {"template": template, "template_name": template_name, "rubric": rubric.to_dict(),
                   "human": {k: int(v) for k, v in human.items()}},
        "provenance": {"generator": generator, "judge": judge, "source": source, "blinding": bool(blinding)},
        "items": items,
        "figures": {"visible": {"kappa": kappa, "unscored": _unscored_figure(visible)},
                    "held_out": {"kappa": held_kappa, "unscored": _unscored_figure(hidden)}, "position": position},
        "comparison": None, "readings": reading_dicts(readings)})

"""The rows each page's results tables download as (ui/downloads.py): values, codes, English keys.

A page shows its tables worded and rounded in the session's language; these functions build the same
tables from evallib's results as data, so that the file is the same whatever the language. Each
returns a list of rows (dicts, or dataclasses that `ui.downloads.records` turns into dicts).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from evallib.triggering.metrics import TriggerMetrics

# ------------------------------------------------------------------------------ trigger


def rate_sets(columns: Sequence[tuple[str, TriggerMetrics]], key: str = "set") -> list[dict]:
    """One row per metric set (``key``: its name or threshold): each rate with k, n, value, interval."""
    return [{key: name, **metrics.to_dict()} for name, metrics in columns]


def counts(counted: dict, key: str) -> list[dict]:
    """{code: count} as rows {key: code, "count": count}."""
    return [{key: code, "count": n} for code, n in counted.items()]


def routed_decisions(rows) -> list[dict]:
    """Each routing decision: query, run, expected skill, the decision (status, skill), right or not."""
    return [{"query_id": r.query_id, "run": r.run + 1, "query": r.query, "expected": r.expected,
             "status": r.decision.status, "obtained": r.decision.skill, "correct": r.correct,
             "input_tokens": r.input_tokens, "latency_s": r.latency_s} for r in rows]

# ------------------------------------------------------------------------------ judge


def judge_results(results) -> list[dict]:
    """One row per case: the grade (status, total, per criterion), the code checks, the injection probe."""
    return [{"case_id": r.case.id, "template": r.template_name, "type": r.case.type,
             "difficulty": r.case.difficulty, "status": r.grade.status, "score": r.grade.score,
             "graded_by": r.grade.by, "problem": r.grade.problem or None, "criteria": dict(r.grade.scores),
             "checks": {c.name: c.passed for c in r.checks}, "injection_flags": list(r.injection),
             "clean_score": r.clean_grade.score if r.clean_grade else None} for r in results]

# ------------------------------------------------------------------------------ GNSS


def gnss_cases(rows) -> list[dict]:
    """The per-case results of an agent: truth, estimate, verdicts (`CaseResult` without its English text)."""
    return [{k: v for k, v in vars(r).items() if k != "problem_text"} for r in rows]


def gnss_summary(table: pd.DataFrame) -> pd.DataFrame:
    """The pass/fail table of the runs, one row per case and a last row of passes."""
    return table.rename_axis("case").reset_index()


def velocity_comparison(rows_a, rows_b, comparison) -> list[dict]:
    """Per case: true velocity, both agents' estimates and |errors| (mm/yr)."""
    return [{"case": case, "true_velocity": a.true_velocity, "v2_velocity": a.estimated_velocity,
             "midas_velocity": b.estimated_velocity, "v2_error": ea, "midas_error": eb}
            for case, a, b, ea, eb in zip(comparison.case_ids, rows_a, rows_b, comparison.errors_a,
                                          comparison.errors_b)]

# ------------------------------------------------------------------------------ persona


def pair_values(names: Sequence[str], matrix: np.ndarray, column: str) -> list[dict]:
    """Each unordered pair of a symmetric matrix: {"a", "b", column: value}, in the matrix's order."""
    k = len(names)
    return [{"a": names[i], "b": names[j], column: float(matrix[i][j])} for i in range(k) for j in range(i + 1, k)]

# ------------------------------------------------------------------------------ kappa


def agreement_table(result) -> list[dict]:
    """The k x k table of a pair of raters: one row per label of rater 1, one column per label of rater 2."""
    labels = [str(c) for c in result.categories]
    return [{"rater_1": label, **{f"rater_2={other}": int(n) for other, n in zip(labels, row)}}
            for label, row in zip(labels, np.asarray(result.table))]


def pair_coefficients(report) -> list[dict]:
    """Every coefficient of the pair (``ag.PairReport``), one row each, with its interval where there is one."""
    result = report.result
    boot = report.bootstrap
    rows = [{"coefficient": f"kappa_{result.weights or 'unweighted'}", "value": result.kappa,
             "ci_low": boot.low if boot else result.ci_low, "ci_high": boot.high if boot else result.ci_high,
             "interval": "bootstrap_percentile" if boot else "analytic", "n_items": result.n},
            {"coefficient": "observed_agreement_p_o", "value": result.p_o, "n_items": result.n},
            {"coefficient": "chance_agreement_p_e", "value": result.p_e, "n_items": result.n},
            {"coefficient": "percent_agreement", "value": result.agreement, "n_items": result.n},
            {"coefficient": "scott_pi", "value": report.scott_pi, "n_items": result.n},
            {"coefficient": "pabak", "value": report.pabak, "n_items": result.n},
            {"coefficient": "gwet_ac1", "value": report.ac1, "n_items": result.n},
            {"coefficient": "krippendorff_alpha_nominal", "value": report.alpha, "n_items": result.n},
            {"coefficient": "prevalence_index", "value": report.prevalence, "n_items": result.n},
            {"coefficient": "bias_index", "value": report.bias, "n_items": result.n},
            {"coefficient": "items_needed", "value": report.items_needed}]
    rows += [{"coefficient": f"kappa_{w.weights or 'unweighted'}", "value": w.kappa, "ci_low": w.ci_low,
              "ci_high": w.ci_high, "interval": "analytic", "n_items": w.n}
             for w in report.weighted or () if w.weights != result.weights]
    return rows


def collected(catalogue, responses: dict) -> list[dict]:
    """Per assistant: answers usable, empty and failed among those collected ({(assistant, probe): ChatResult})."""
    rows = []
    for name in catalogue.names:
        got = [responses[(name, i)] for i in range(len(catalogue.probes)) if (name, i) in responses]
        rows.append({"assistant": name, "probes": len(catalogue.probes), "collected": len(got),
                     "usable": sum(not r.failed for r in got), "empty": sum(r.status == "empty" for r in got),
                     "failed": sum(r.failed for r in got)})
    return rows


def gnss_live_runs(graded) -> list[dict]:
    """Each live answer: case, run (from 1), its graded result, or the call's error when it gave none.

    ``graded``: per case, (case, [(repeat, chat result, `evallib.gnss.live.LiveRun`), ...]).
    """
    return [{"case_id": case.case_id, "run": repeat + 1, "graded": run.result is not None,
             **(gnss_cases([run.result])[0] if run.result is not None else {"error": run.error})}
            for case, triples in graded for repeat, _, run in triples]

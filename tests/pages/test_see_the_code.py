"""Every page shows the source of the functions that computed its results ("see the code", docs/README.md#take-home)."""

import inspect

import pytest

from evallib import text
from evallib.agreement import cohen_kappa
from evallib.cluster_rates import ClusteredRate, cluster_interval_arrays
from evallib.agreement.cohen import kappa_from_table
from evallib.gnss import agents, evaluation, midas, tolerances
from evallib.judging import analyses, biases, code_graders, grades, pipeline
from evallib.persona import leave_one_out_nearest_centroid
from evallib.stats import clopper_pearson_interval
from evallib.triggering import comparison, metrics, report, similarity
from ui.code_view import qualified_name, see_the_code, source_code
from ui.trigger.view import cached_report

SHOWN = {
    "trigger": (report.evaluate, metrics.trigger_metrics, ClusteredRate.of, cluster_interval_arrays, clopper_pearson_interval,
                similarity.similarity_scores, similarity.threshold_sweep, similarity.baseline_table,
                comparison.mcnemar_exact, comparison.paired_correctness),
    "judge": (pipeline.run_case, code_graders.grade_by_code, code_graders.regex_examples, grades.parse_grade,
              grades.validate, analyses.validity_agreement, biases.position_bias, biases.verbosity_effect,
              biases.self_preference, biases.injection_effect),
    "gnss": (agents.agent_v1, agents.agent_v2, agents.agent_midas, agents.fit_trajectory, midas.midas_velocity,
             evaluation.run_eval, tolerances.velocity_error_spread, tolerances.order_statistic_bounds,
             tolerances.tolerance_from_spread),
    "persona": (text.tokenize, text.jaccard, leave_one_out_nearest_centroid),
    "kappa": (cohen_kappa, kappa_from_table),
}


@pytest.mark.parametrize("page", list(SHOWN))
def test_each_metric_s_source_is_on_the_page(open_page, page):
    at = open_page(f"pages/{page}.py")
    assert not at.exception
    shown = "\n".join(block.value for block in at.code)
    missing = [qualified_name(f) for f in SHOWN[page] if inspect.getsource(f).rstrip() not in shown]
    assert missing == [], f"{page} does not show the code of {missing}"
    captions = " ".join(c.value for c in at.caption)
    assert all(f"`{qualified_name(f)}`" in captions for f in SHOWN[page]), "each expander names its functions"


def test_a_cached_function_shows_the_code_it_wraps():
    assert qualified_name(cached_report) == "ui.trigger.view.cached_report"
    assert "return evaluate(rows, catalogue, queries)" in source_code(cached_report)


def test_a_function_without_python_source_is_refused():
    with pytest.raises(TypeError):
        source_code(len)
    assert callable(see_the_code)

"""Every results table of every page has its CSV and JSON buttons (offline, default data, both languages)."""

import pytest

TABLES = {
    "trigger": ("trigger_statuses", "trigger_metrics", "trigger_held_out", "trigger_decisions", "trigger_tfidf_baseline"),
    "judge": ("judge_results",),
    "gnss": ("gnss_results_v1", "gnss_results_v2", "gnss_summary", "gnss_v2_midas", "gnss_midas_sigma",
             "gnss_repeated_runs", "gnss_live"),
    "persona": ("persona_collected", "persona_jaccard", "persona_distances"),
    "kappa": ("kappa_agreement_table", "kappa_coefficients"),
}


def _download_keys(at) -> set[str]:
    return {button.proto.id.rsplit("-", 1)[-1] for button in at.get("download_button")}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("page", list(TABLES))
def test_each_results_table_downloads_as_csv_and_json(open_page, page, lang):
    at = open_page(f"pages/{page}.py", lang)
    assert not at.exception
    expected = {f"download_{name}_{kind}" for name in TABLES[page] for kind in ("csv", "json")}
    assert expected <= _download_keys(at), f"missing on {page}: {sorted(expected - _download_keys(at))}"

"""A bundle whose stored figures are not those its inputs and answers give is refused in words, in both
languages, naming where (persona and kappa recompute their figures on loading: evallib.runs.figures)."""

import pytest
import streamlit

from evallib.runs.bundle import RunBundleError
from ui import run_bundles


@pytest.mark.parametrize("lang, words", [("fr", "modifié à la main"), ("en", "edited by hand")])
def test_figures_that_differ_are_named_in_words(lang, words, monkeypatch):
    monkeypatch.setattr(streamlit, "session_state", {"lang": lang})
    text = run_bundles.refusal(RunBundleError("figures_differ", "differ", path="report/pair/result/kappa"))
    assert words in text and "report/pair/result/kappa" in text and "figures_differ" not in text

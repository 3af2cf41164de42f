"""Labels that differ only by case: the kappa page says so and offers to fold them (a checkbox).

The reading and the folding are `evallib.agreement.case_variants`'; the figures below the checkbox are
recomputed on the folded labels, the same way `evallib.runs.kappa.bundle` does for a run bundle.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from evallib.agreement.case_variants import fold_case
from evallib.runs.kappa.bundle import Ratings, _case_reading
from ui.i18n import t
from ui.readings import say

FOLD_KEY = "kappa_fold_case"


@st.cache_data(show_spinner=False, max_entries=16)
def _reading(key: str, _labels_a: Sequence, _labels_b: Sequence):
    return _case_reading(Ratings(None, None, _labels_a, _labels_b), None)


@st.cache_data(show_spinner=False, max_entries=16)
def _folded(key: str, _by_rater: Sequence) -> list:
    return fold_case(_by_rater)


def case_folding(labels_a: Sequence, labels_b: Sequence, by_rater: Sequence, pair: tuple[int, int],
                 key: str) -> tuple[Sequence, Sequence, Sequence, str]:
    """``(labels_a, labels_b, by_rater, key)``, folded when the labels have case variants and the box is ticked.

    ``pair``: the indices of the two raters among ``by_rater``; ``key``: the ratings' cache key (the
    folded ratings get their own).
    """
    reading = _reading(key, labels_a, labels_b)
    if reading is None:
        return labels_a, labels_b, by_rater, key
    st.warning(say("kappa.case", reading, bands="kappa.band"))
    if not st.checkbox(t("kappa.case_fold"), persist_state="session", key=FOLD_KEY, help=t("kappa.case_fold_help")):
        return labels_a, labels_b, by_rater, key
    folded = _folded(key, by_rater)
    return folded[pair[0]], folded[pair[1]], folded, f"{key}:folded"

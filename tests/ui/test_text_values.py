"""A text's values may use any name, ``key`` included (GNSS schema problems name the key at fault)."""

import pytest
import streamlit as st

from ui.i18n import t


@pytest.mark.parametrize("lang, start", [("fr", "clé"), ("en", "missing key")])
def test_a_value_named_key_is_substituted_not_taken_for_the_texts_key(lang, start):
    st.session_state["lang"] = lang
    text = t("gnss.problem.missing_key", key="offset_day")
    assert text.startswith(start) and "offset_day" in text

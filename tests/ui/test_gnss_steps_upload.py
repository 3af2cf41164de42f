"""The GNSS page's steps file (ui/gnss/station.py): an uploaded file that holds nothing is named as such,
not taken for a missing upload. Before the fix a 0-byte steps file, uploaded, made the page say "Upload a
steps file, or choose another source" while the file sat in the widget."""

from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from ui.gnss.station import STEP_SOURCE_KEY, STEPS_KEY, _reference_steps

    st.session_state.setdefault(STEP_SOURCE_KEY, "file")
    st.session_state[STEPS_KEY] = st.session_state.get("test_steps_text")
    st.text(repr(_reference_steps("east")))


def _run(text):
    at = AppTest.from_function(_script, default_timeout=30)
    at.session_state["lang"] = "en"
    at.session_state["test_steps_text"] = text
    return at.run()


def test_an_empty_steps_file_is_named_empty_and_no_steps_file_asks_for_one():
    from ui.i18n import LANGUAGE_KEY, t
    import streamlit as st

    st.session_state[LANGUAGE_KEY] = "en"
    try:
        empty, missing, good = _run(""), _run(None), _run("2015-04-25\n")
        assert not empty.exception and not missing.exception and not good.exception
        assert [e.value for e in empty.error] == [t("gnss.steps_error.empty")]
        assert [i.value for i in empty.info] == []
        assert [i.value for i in missing.info] == [t("gnss.steps_needed")] and not missing.error
        assert good.text[0].value == "('file', (datetime.date(2015, 4, 25),))"
    finally:
        del st.session_state[LANGUAGE_KEY]

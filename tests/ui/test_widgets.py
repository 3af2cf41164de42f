"""`ui.widgets.translated_choice` keeps working whatever the browser sends while option names change.

Streamlit 1.67 keeps a keyed selectbox's value as the text shown and identifies the widget by its key
only: a browser that still holds an option's old text (the page changed the names meanwhile: a count
in them, the language) sends that text back, and Streamlit hands it over as a plain string. These
tests send such stale texts the way a browser does (docs/README.md#streamlit; trigger page: runs per query 2 -> 3 -> 1).
"""

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from ui.widgets import translated_choice

    n = st.number_input("runs", 1, 5, key="runs")
    pick = translated_choice(st.selectbox, "source", ("a", "b", None),
                             {"a": f"a · {n} runs", "b": f"b · {n} runs", None: f"none · {n} runs"},
                             state_key="pick")
    st.text(f"picked {pick}")


def _app() -> AppTest:
    at = AppTest.from_function(_script, default_timeout=30)
    at.session_state["lang"] = "en"
    return at.run()


def _states(at: AppTest, **labels) -> WidgetStates:
    """The widget states the browser would send, with the selectbox holding ``labels["select"]``."""
    states = at._tree.get_widget_states()
    for state in states.widgets:
        if state.id == at.selectbox[0].id and "select" in labels:
            state.string_value = labels["select"]
        if state.id == at.number_input[0].id and "runs" in labels:
            state.double_value = labels["runs"]
    return states


def _picked(at: AppTest) -> str:
    return at.text[0].value


def test_a_stale_label_sent_after_the_names_changed_keeps_the_choice():
    at = _app()
    at.selectbox[0].select_index(1).run()
    assert _picked(at) == "picked b"
    at.number_input[0].set_value(2).run()  # the names now say "2 runs"
    assert at.selectbox[0].options[at.selectbox[0].index] == "b · 2 runs"
    # The browser still shows "b · 1 runs" and sends it with the next change (before the fix: TypeError
    # in the widget's callback, the whole page replaced by the error).
    at._run(widget_state=_states(at, select="b · 1 runs", runs=3))
    assert not at.exception
    assert _picked(at) == "picked b"
    assert at.selectbox[0].options[at.selectbox[0].index] == "b · 3 runs"


def test_a_label_never_offered_leaves_the_remembered_choice():
    at = _app()
    at.selectbox[0].select_index(2).run()
    assert _picked(at) == "picked None"  # None is an option like the others, not "nothing chosen"
    at._run(widget_state=_states(at, select="no such option"))
    assert not at.exception
    assert _picked(at) == "picked None"


def test_the_choice_survives_a_language_switch_and_a_change_of_names():
    at = _app()
    at.selectbox[0].select_index(1).run()
    at.session_state["lang"] = "fr"
    at.run()
    assert _picked(at) == "picked b"
    at.number_input[0].set_value(4).run()
    assert _picked(at) == "picked b"
    at.selectbox[0].select_index(0).run()
    assert _picked(at) == "picked a"


def test_equal_names_stay_distinct_choices():
    def script():
        import streamlit as st

        from ui.widgets import translated_choice
        st.text(str(translated_choice(st.radio, "same", (1, 2), {1: "same", 2: "same"}, state_key="same")))

    at = AppTest.from_function(script, default_timeout=30).run()
    assert at.radio[0].options == ["same", "same (2)"]
    at.radio[0].set_value(1).run()
    assert at.text[0].value == "2"


def test_a_stale_label_that_names_an_option_again_picks_it():
    """Runs 1 -> 2 -> 1: the browser still holds "a · 1 runs", which the page offers again."""
    at = _app()
    at.selectbox[0].select_index(0).run()
    at.number_input[0].set_value(2).run()
    at.selectbox[0].select_index(1).run()  # b · 2 runs
    at._run(widget_state=_states(at, select="a · 1 runs", runs=1))
    assert not at.exception
    assert _picked(at) == "picked a"


def _script_reading_the_choice_first():
    import streamlit as st

    from ui.widgets import translated_choice

    st.text(f"before the widget: {st.session_state.get('pick')}")  # what app.py stores at a run's start
    translated_choice(st.selectbox, "source", ("a", "b"), {"a": "A", "b": "B"}, state_key="pick")


def test_a_click_is_resolved_into_the_choice_before_the_run_and_a_stale_label_too():
    at = AppTest.from_function(_script_reading_the_choice_first, default_timeout=30)
    at.session_state["lang"] = "en"
    at.run()
    assert at.text[0].value == "before the widget: None"  # nothing chosen yet
    at.selectbox[0].select_index(1).run()
    assert at.text[0].value == "before the widget: b"
    states = at._tree.get_widget_states()
    for state in states.widgets:
        if state.id == at.selectbox[0].id:
            state.string_value = "A"  # a label sent back as text: the rule of the widget's return value
    at._run(widget_state=states)
    assert not at.exception and at.text[0].value == "before the widget: a"

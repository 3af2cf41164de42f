"""Presentation mode (docs/README.md#presentation): turned on by ?present=1 or the sidebar's switch, kept
per session and in the URL; larger type, the high-contrast template in every figure builder, wrapping
tables. Off: as before."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui import figures
from ui.presentation import BASE_FONT_PX, PRESENT_KEY, SWITCH_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _app(lang: str = "fr", **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def _styles(at: AppTest) -> str:
    return " ".join(element.proto.body for element in at.get("html"))


def _figure_fonts(at: AppTest) -> list[float]:
    """Every explicit font size of the axes and legends of the page's plotly figures."""
    sizes = []
    for chart in at.get("plotly_chart"):
        layout = json.loads(chart.proto.spec)["layout"]
        for name, axis in layout.items():
            if name.startswith(("xaxis", "yaxis")):
                sizes += [axis["tickfont"]["size"], axis["title"]["font"]["size"]]
        sizes.append(layout["legend"]["font"]["size"])
    return sizes


def test_present_1_in_the_url_turns_it_on_and_it_outlives_page_and_language_switches():
    at = _app(present="1")
    assert at.session_state[PRESENT_KEY] and at.query_params["present"] == "1"
    assert f"font-size: {BASE_FONT_PX}px" in _styles(at)
    at.switch_page("pages/kappa.py").run()
    at.query_params.pop("present", None)  # a page switch may drop the URL's parameters: written again
    at.session_state["lang"] = "en"
    at.run()
    assert not at.exception and at.session_state[PRESENT_KEY]
    assert at.query_params["present"] == "1"
    fonts = _figure_fonts(at)
    assert fonts and min(fonts) >= 20


@pytest.mark.parametrize("value", ["0", "yes"])
def test_present_0_or_a_value_not_ours_leaves_it_off_and_the_url_clean(value):
    at = _app(present=value)
    assert not at.session_state[PRESENT_KEY] and "present" not in at.query_params
    assert f"font-size: {BASE_FONT_PX}px" not in _styles(at)


def test_the_switch_turns_it_on_and_off_and_the_url_follows():
    at = _app()
    assert not at.session_state[PRESENT_KEY] and "present" not in at.query_params
    # On 1.67 AppTest loses the entrypoint's widgets after the first run: a click is its new value.
    at.session_state[SWITCH_KEY] = True
    at.run()
    assert at.session_state[PRESENT_KEY] and at.query_params["present"] == "1"
    at.session_state[SWITCH_KEY] = False
    at.run()
    assert not at.session_state[PRESENT_KEY] and "present" not in at.query_params


def test_off_the_kappa_figures_keep_todays_16_px_and_no_template():
    at = _app()
    at.switch_page("pages/kappa.py").run()
    assert set(_figure_fonts(at)) == {figures.FONT_SIZE}
    assert all("template" not in json.loads(c.proto.spec)["layout"] or
               json.loads(c.proto.spec)["layout"]["template"] != figures.PRESENT_TEMPLATE for c in at.get("plotly_chart"))


# ------------------------------------------------------------------------------ the builders themselves

BUILT = {
    "heatmap": lambda: figures.heatmap(np.eye(3), list("abc"), list("abc"), title="t", x_title="x", y_title="y"),
    "bars": lambda: figures.bars(["a", "b"], [0.2, 0.6], title="t", texts=["1", "2"], reference=0.5,
                                 reference_label="chance"),
    "slope": lambda: figures.slope_chart(["a", "b"], [1, 2], [2, 1], title="t", left_title="l", right_title="r"),
    "grouped": lambda: figures.grouped_bars(["x", "y"], [("s1", [0.1, 0.2]), ("s2", [0.3, 0.4])], title="t",
                                            texts=[["1", "2"], ["3", "4"]]),
    "interval": lambda: figures.interval_bars(["a"], [0.5], [0.4], [0.6], title="t", texts=["n"]),
    "threshold": lambda: figures.threshold_lines([0.1, 0.2], [("acc", [0.5, 0.6])], title="t", x_title="x",
                                                 marked=[0.1]),
    "series": lambda: figures.time_series(pd.date_range("2020-01-01", periods=3).to_numpy(), [1.0, 2.0, 3.0],
                                          title="t", y_title="y", data_name="d", fitted=[1.0, 2.0, 3.0],
                                          fitted_name="f", markers=((pd.Timestamp("2020-01-02"), "m"),)),
    "histogram": lambda: figures.histogram_bars([0, 1, 2], [3, 4], title="t", x_title="x", y_title="y",
                                                references=((1.0, "median"),)),
    "rates": lambda: figures.rate_curves([0, 1], [("r", [0.1, 0.9])], title="t", x_title="x", marker=(0.5, "here")),
}


@pytest.fixture
def presenting():
    st.session_state[PRESENT_KEY] = True
    yield
    st.session_state[PRESENT_KEY] = False


@pytest.mark.parametrize("name", sorted(BUILT))
def test_every_builder_draws_in_the_high_contrast_template_with_text_of_20_px_at_least(name, presenting):
    fig = BUILT[name]()
    layout = fig.layout
    assert layout.template.layout.font.size == figures.PRESENT_FONT_SIZE  # the registered template
    assert layout.font.size >= 20 and layout.legend.font.size >= 20 and layout.title.font.size >= 20
    for axis in (layout.xaxis, layout.yaxis):
        assert axis.tickfont.size >= 20 and axis.title.font.size >= 20 and axis.tickfont.color == "#000000"
    assert all(note.font.size >= 20 for note in layout.annotations)
    assert all(t.textfont.size is None or t.textfont.size >= 19 for t in fig.data if hasattr(t, "textfont"))
    assert figures.MUTED not in fig.to_json()  # pale grey lines darkened


@pytest.mark.parametrize("name", sorted(BUILT))
def test_off_every_builder_draws_as_before(name):
    st.session_state[PRESENT_KEY] = False
    layout = BUILT[name]().layout
    assert layout.template.layout.font.size is None  # plotly's default template, as before
    assert layout.font.size == figures.FONT_SIZE and layout.xaxis.tickfont.size == figures.FONT_SIZE


def test_a_figure_cache_tells_the_modes_apart():
    st.session_state[PRESENT_KEY] = False
    normal = figures.figure_key()
    st.session_state[PRESENT_KEY] = True
    assert figures.figure_key() != normal
    st.session_state[PRESENT_KEY] = False


# ------------------------------------------------------------------------------ tables

def _tables_script(present: bool):
    import pandas as pd
    import streamlit as st

    from ui.tables import results_table, wrapped_table
    st.session_state["_presenting"] = present
    frame = pd.DataFrame({"name": ["**bold** [x](http://y)", "a_b"], "n": [1, 2]})
    results_table(frame, hide_index=True)
    wrapped_table(frame, hide_index=True)


@pytest.mark.parametrize("present", [False, True])
def test_a_wrapped_table_shows_text_as_typed_and_presentation_wraps_every_results_table(present):
    at = AppTest.from_function(_tables_script, args=(present,)).run()
    assert len(at.table) == (2 if present else 1) and len(at.dataframe) == (0 if present else 1)
    shown = at.table[-1].value
    # st.table reads cells as Markdown (streamlit 1.67): the escapes make them show as typed.
    assert list(shown["name"]) == [r"\*\*bold\*\* \[x\]\(http\://y\)", r"a\_b"] and list(shown["n"]) == [1, 2]

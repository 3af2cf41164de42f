"""Cached analyses and figures of the persona page, and the translation of its readings.

A warm rerun must cost little (docs/README.md#rerun-cost): the analyses are cached on their hashable
inputs, and figures are built once per data, texts, language and presentation mode.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from evallib import persona
from evallib.persona import readings
from ui.figures import bars, figure_key, heatmap, slope_chart
from evallib.text import common_opening
from ui.i18n import counted, p_value, t
from ui.labels import md

@st.cache_data(show_spinner=False, max_entries=64)
def cached_audit(texts: tuple, labels: tuple, probes: tuple, prompts: tuple, classes: tuple, n_probes: int):
    return persona.audit(texts, labels, probes, prompts, classes=classes, n_probes=n_probes)


@st.cache_data(show_spinner=False, max_entries=64)
def discriminability(texts: tuple, labels: tuple, probes: tuple, classes: tuple, n_probes: int):
    return persona.discriminability(texts, labels, probes, classes=classes, n_probes=n_probes)


@st.cache_data(show_spinner=False, max_entries=16)
def discriminability_vectors(vectors: tuple, labels: tuple, probes: tuple, classes: tuple, n_probes: int):
    return persona.discriminability_from_vectors(np.asarray(vectors), labels, probes, classes=classes,
                                                 n_probes=n_probes)


BUILDERS = {"heatmap": heatmap, "bars": bars, "slope": slope_chart}


# A resource cache, not a data cache: a pickled plotly figure is re-validated on every load, which
# costs more than building it. The figure is shared read-only (st.plotly_chart copies it).
@st.cache_resource(show_spinner=False, max_entries=128)
def _figure(builder: str, style: str, *args, **kwargs):
    """A figure built once per data, texts, language and presentation mode (``style``: `figure_key`)."""
    return BUILDERS[builder](*args, **kwargs)


def chart(container, builder: str, *args, key: str | None = None, **kwargs) -> None:
    container.plotly_chart(_figure(builder, figure_key(), *args, **kwargs), width="stretch", key=key)


def say(prefix: str, reading: readings.Reading, show=st.markdown) -> None:
    """Translate a reading: p-values in their reported form, every other value as is."""
    values = {k: p_value(v) if k in readings.P_VALUES else v for k, v in reading.values.items()}
    show(counted(f"{prefix}.{reading.code}", reading.values.get("n"), **values))


def confusion_chart(container, result, title: str, key: str | None = None) -> None:
    """The confusion matrix, with a column for the answers that got no prediction when there are any."""
    names = list(result.classes)
    matrix, columns = result.confusion, names
    if result.n_undecided:
        matrix, columns = np.column_stack([matrix, result.undecided]), names + [t("persona.no_prediction")]
    chart(container, "heatmap", matrix, columns, names, key=key, title=title, x_title=t("persona.predicted"),
           y_title=t("persona.true_author"), value_format=".0f", colorscale="Oranges")


#: Prompt cards per row: at 1280 px three columns keep about 40 characters a line, read at a glance.
PROMPT_COLUMNS = 3


def prompt_differences(catalogue) -> None:
    """What tells the system prompts apart: the opening they all share said once, then each one's own part
    side by side (the editor's cut column showed the same first words six times)."""
    names = list(catalogue.names)
    prompts = [catalogue.prompt_of(name) for name in names]
    opening = common_opening(prompts)
    st.markdown(f"**{t('persona.prompts_title')}**")
    if opening:
        st.caption(t("persona.prompts_opening", n=len(prompts), opening=md(opening.strip(), None)))
    for start in range(0, len(names), PROMPT_COLUMNS):
        for column, name, prompt in zip(st.columns(PROMPT_COLUMNS), names[start:start + PROMPT_COLUMNS],
                                        prompts[start:start + PROMPT_COLUMNS]):
            with column.container(border=True):
                st.markdown(f"**{md(name)}**")
                own = prompt[len(opening):].strip()
                st.markdown(md(own, None) if own else t("persona.prompt_only_opening"))

"""Widgets shared by the sidebar and the pages."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from ui.i18n import language, t

# Metrics per row: at 1280 px wide with the sidebar open (a common projector), three columns leave
# each value about 260 px, enough for an interval such as "[−0,10 ; −0,04]" at the metric font size.
METRICS_PER_ROW = 3


def translated_choice(widget: Callable, label: str, options: Sequence, names: Mapping, *, state_key: str,
                      **options_kw) -> object:
    """A radio or selectbox with translated option names whose choice survives language and page switches.

    Streamlit keeps such a widget's value as the text shown for the option, so translating the
    names loses the choice when the language changes. The widget is therefore keyed per language and
    the choice itself lives in ``st.session_state[state_key]`` (a plain value that tests may set).
    ``names`` are looked up now, not inside ``format_func``, which may run outside this session.

    Args:
        widget: ``st.radio`` or ``st.selectbox``.
        options: the underlying values; ``names[option]`` is what is shown.
        state_key: where the chosen value is kept.
    """
    if state_key not in st.session_state or st.session_state[state_key] not in options:
        st.session_state[state_key] = options[0]
    widget_key = f"_{state_key}_{language()}"

    # The widget chooses among positions, not values: an option value of None would read as
    # "nothing selected" to Streamlit.
    shown = [names[option] for option in options]

    def remember() -> None:
        st.session_state[state_key] = options[st.session_state[widget_key]]

    widget(label, range(len(options)), index=list(options).index(st.session_state[state_key]), key=widget_key,
           format_func=shown.__getitem__, on_change=remember, **options_kw)
    return st.session_state[state_key]


def translated_radio(state_key: str, label_key: str, options: Sequence, *, help: str | None = None) -> object:
    """A horizontal radio whose option names are the texts ``{label_key}.{option}`` (``none`` for None)."""
    names = {option: t(f"{label_key}.{option or 'none'}") for option in options}
    return translated_choice(st.radio, t(label_key), options, names, state_key=state_key, horizontal=True,
                             help=help)


def metric_rows(cells: Sequence[tuple], per_row: int = METRICS_PER_ROW) -> None:
    """``st.metric`` for each ``(label, value, help)``, ``per_row`` to a row so that none is cut off."""
    for start in range(0, len(cells), per_row):
        for column, (name, value, help_text) in zip(st.columns(per_row), cells[start:start + per_row]):
            column.metric(name, value, help=help_text)

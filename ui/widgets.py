"""Widgets shared by the sidebar and the pages."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from ui.i18n import language


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

"""Widgets shared by the sidebar and the pages."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from ui.i18n import language, t
from ui.shell import keep_for_browser

# Metrics per row: at 1280 px wide with the sidebar open (a common projector), three columns leave
# each value about 260 px, enough for an interval such as "[−0,10 ; −0,04]" at the metric font size.
METRICS_PER_ROW = 3


def translated_choice(widget: Callable, label: str, options: Sequence, names: Mapping, *, state_key: str,
                      **options_kw) -> object:
    """A radio or selectbox whose option names may change while the page runs, and whose choice survives.

    Streamlit 1.67 identifies a keyed radio or selectbox by its key alone and keeps its value as the
    text shown for the option. When the names change (a count in them, a recorded source appearing)
    the browser may still send the old text, which the new options do not hold: Streamlit then hands
    it over as that text, and a callback that read the widget's state as a position crashed the page
    (docs/README.md#streamlit). Hence:

    - the choice lives in ``st.session_state[state_key]`` (a plain value that tests may set), written
      from the widget's return value, and already by the widget's ``on_change`` with the same rule, so
      that it is known before the run and stored for the browser at once (`ui.browser_state`);
    - the widget is keyed per language, so a language switch starts it afresh from that choice
      (``names`` are translated);
    - a text the options do not hold makes Streamlit start the widget again at ``index``, the choice
      kept; a text they hold picks its option; anything else leaves the choice as it is.

    ``names`` are looked up now, not inside ``format_func``, which may run outside this session.

    Args:
        widget: ``st.radio`` or ``st.selectbox``.
        options: the underlying values (at least one); ``names[option]`` is what is shown.
        state_key: where the chosen value is kept.

    Returns:
        the chosen option, also in ``st.session_state[state_key]``.
    """
    options = list(options)
    remembered = st.session_state.get(state_key)
    if remembered not in options:
        remembered = options[0]
    # The widget chooses among positions, not values: an option value of None would read as "nothing
    # selected" to Streamlit. Two equal names would be one choice for Streamlit: they are numbered.
    shown = _distinct([str(names[option]) for option in options])
    widget_key = f"_{state_key}_{language()}"
    position = widget(label, range(len(options)), index=options.index(remembered), key=widget_key,
                      format_func=lambda i: shown[i] if isinstance(i, int) and 0 <= i < len(shown) else str(i),
                      on_change=_take_choice, args=(widget_key, state_key, options, shown), **options_kw)
    st.session_state[state_key] = remembered = _chosen(position, options, shown, remembered)
    keep_for_browser(state_key)
    return remembered


def _chosen(position: object, options: list, shown: list[str], remembered: object) -> object:
    """The option a translated widget's value picks (`translated_choice`), else ``remembered``."""
    if isinstance(position, str) and position in shown:  # a text the last run did not offer, this one does
        position = shown.index(position)
    if isinstance(position, int) and 0 <= position < len(options):
        return options[position]
    return remembered


def _take_choice(widget_key: str, state_key: str, options: list, shown: list[str]) -> None:
    """``on_change`` of a translated widget: its choice into ``state_key`` before the run starts, with the
    options and names the person saw."""
    state = st.session_state
    state[state_key] = _chosen(state.get(widget_key), options, shown, state.get(state_key))


def _distinct(names: list[str]) -> list[str]:
    """``names`` with each repeated one numbered ("x", "x (2)"), so that every name picks one option."""
    seen: dict[str, int] = {}
    distinct = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        distinct.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return distinct


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

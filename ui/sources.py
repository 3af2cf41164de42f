"""Offline: which recorded source a page replays (authored examples, or a model recorded live).

A page calls `recorded_source_choice` once, offline, with the requests it would send; the widget
offers the sources that hold answers to them (`Recordings.sources`) and remembers the choice for
that page's recording set. Every `ui.collection.collection_panel` of the page then replays its
requests as that source asked them (`RecordedSource.apply`: its model and options), so a page never
needs to know which model or options a recording was made with.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import streamlit as st

from evallib.llm import RecordedSource
from ui.i18n import t
from ui.models import recordings
from ui.widgets import translated_choice

#: Session-state key: the chosen source per recording set (a `RecordedSource`, or None).
CHOSEN_KEY = "_recorded_source"


def chosen_source(set_name: str, role: str = "") -> RecordedSource | None:
    """The source chosen offline for ``set_name`` (and ``role``) in this session (None: replay requests as built)."""
    return st.session_state.get(CHOSEN_KEY, {}).get((set_name, role) if role else set_name)


def recorded_source_choice(requests: Sequence, *, set_name: str, key: str, role: str = "",
                           label: str | None = None, forms: int = 1) -> RecordedSource | None:
    """Offer the recorded sources of ``requests`` and return the chosen one (None when there is none).

    Args:
        requests: the page's requests, built with any model (only what they ask matters).
        set_name: the page's recording set; its collection panels replay the chosen source.
        key: a widget key prefix unique on the page.
        role: when one page replays two sources of one set (a generator and its judge), the name of
            the role this choice fills; each role's choice is kept apart (`chosen_source`), and the
            collection panels (which replay one source per set) use the choice without a role.
        label: the widget's label (default: the generic "recorded source").
        forms: how many forms of each answer the page needs ``requests`` holds, of which a source
            records one (a judge's grading steered in plain text, JSON mode or a forced tool): the
            count shown is out of the answers needed, ``len(requests) // forms``, not every form asked.
    """
    sources = recordings().sources(requests)
    needed = len(requests) // forms
    chosen = None
    if not sources:
        st.warning(t("sources.none", total=needed))
    else:
        ids = [source.id for source in sources]
        names = dict(zip(ids, source_names(sources, needed)))
        picked = translated_choice(st.selectbox, label or t("sources.label"), ids, names, state_key=f"{key}_recorded_source",
                                   help=t("sources.help"))
        chosen = sources[ids.index(picked)]
    st.session_state.setdefault(CHOSEN_KEY, {})[(set_name, role) if role else set_name] = chosen
    return chosen


def source_names(sources: Sequence[RecordedSource], total: int) -> list[str]:
    """What the choice shows for each source, in the session's language (plain text, not Markdown).

    Sources of the same model and provider recorded with other options (e.g. reasoning on and off)
    are told apart by the options in which they differ.
    """
    names = []
    # Several authored example models (a strong and a light router...) are told apart by their model.
    authored_models = {source.model for source in sources if source.origin == "authored"}
    for source in sources:
        if source.origin == "authored":
            name = t("sources.authored", n=source.count, total=total)
            if len(authored_models) > 1:
                name = f"{source.model} · {name}"
        else:
            provider = t(f"sidebar.kind.{source.provider}") if source.provider else t("sources.provider_unknown")
            name = t("sources.live", model=source.model, provider=provider, dates=", ".join(source.dates) or "—",
                     n=source.count, total=total)
        differing = _differing_options(source, sources)
        names.append(f"{name} · {differing}" if differing else name)
    return names


def _differing_options(source: RecordedSource, sources: Sequence[RecordedSource]) -> str:
    twins = [s for s in sources if s is not source and (s.origin, s.kind, s.model, s.provider)
             == (source.origin, source.kind, source.model, source.provider)]
    options = source.options
    differing = sorted({name for twin in twins for name, value in twin.options.items() if options.get(name) != value})
    return ", ".join(f"{name}={json.dumps(options.get(name), ensure_ascii=False)}" for name in differing)

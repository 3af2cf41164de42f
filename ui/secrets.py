"""The one place that reads secrets: ``.streamlit/secrets.toml`` section ``[llm]``, then the environment.

With no secrets file at all, every ``st.secrets`` access raises (a FileNotFoundError subclass in
1.67: docs/README.md#streamlit); this helper turns that into "not set". Keys live in the ``[llm]`` section
because top-level entries are exported to the whole server's environment.
"""

from __future__ import annotations

import os

import streamlit as st
from streamlit.errors import StreamlitAPIException

SECTION = "llm"

#: secrets.toml key in [llm] -> environment variable read when the file does not set it.
ENVIRONMENT = {
    "openai_api_key": "OPENAI_API_KEY",
    "openai_base_url": "OPENAI_BASE_URL",
    "anthropic_api_key": "ANTHROPIC_API_KEY",
}


def setting(name: str) -> str:
    """The value of ``name`` from secrets.toml [llm], else its environment variable, else ""."""
    try:
        section = st.secrets.get(SECTION, {})
        value = section.get(name, "") if hasattr(section, "get") else ""
    except (FileNotFoundError, StreamlitAPIException, KeyError, ValueError, OSError):
        # No secrets file, or one that does not parse: fall back to the environment.
        value = ""
    if not value and name in ENVIRONMENT:
        value = os.environ.get(ENVIRONMENT[name], "")
    return str(value or "")

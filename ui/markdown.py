"""Text from outside (a server's error message, a model's answer) shown inside Markdown, as text."""

from __future__ import annotations

import re

#: The ASCII punctuation that Markdown, HTML or Streamlit's own additions ($ for LaTeX, :colour[...]
#: and :emoji: directives) may read as markup; CommonMark lets a backslash escape each of them.
_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:\"'=^])")


def literal(text: str) -> str:
    """``text`` escaped so that ``st.markdown``/``st.caption`` show it as typed.

    >>> literal("**x** [a](b) $y$")
    '\\\\*\\\\*x\\\\*\\\\* \\\\[a\\\\]\\\\(b\\\\) \\\\$y\\\\$'
    """
    return _PUNCTUATION.sub(r"\\\1", str(text))

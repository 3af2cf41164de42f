""""See the code": the source of the functions a page calls, shown under its results.

Pages pass the function objects they call (or that those call), never names: the code shown is the
code that ran, and a renamed or moved function breaks the page's import instead of the text.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import streamlit as st

from ui.i18n import t


def qualified_name(function: Callable) -> str:
    """``module.Qualified.name`` of a function (a cached or decorated one is named by what it wraps)."""
    function = inspect.unwrap(function)
    return f"{function.__module__}.{function.__qualname__}"


@functools.cache
def source_code(function: Callable) -> str:
    """The source of ``function`` (read once per server); a cached or decorated one shows what it wraps.

    Raises TypeError for an object that has no Python source (a builtin, a C function).
    """
    return inspect.getsource(inspect.unwrap(function))


def see_the_code(*functions: Callable, caption: str | None = None) -> None:
    """A collapsed "See the code" expander: which functions, an optional ``caption``, then each one's source."""
    with st.expander(t("common.see_code")):
        st.caption(t("code_view.functions", names=", ".join(f"`{qualified_name(f)}`" for f in functions)))
        if caption:
            st.caption(caption)
        for function in functions:
            st.code(source_code(function), language="python")

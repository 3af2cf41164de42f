"""A failed call worded in the session's language, from its code and values (never its English message).

`evallib.llm.errors.Failure` keeps what went wrong as data (``ChatResult.error_details``): a code and
the values the message rests on. Here each code becomes a sentence of the catalogue
(``failure.<code>`` in ``ui/locale``); the server's own text follows as a quotation, shown
verbatim (escaped, never translated: it is the server's, and searching for it finds its cause).
"""

from __future__ import annotations

from ui.i18n import integer, number, plural, t
from ui.markdown import literal

#: How many model ids a sentence names before "and N more".
MODELS_SHOWN = 6


def failure_text(details: dict, message: str = "") -> str:
    """The failure described by ``details`` (``{"code": ..., values...}``) as Markdown in the session's
    language, followed by the server's own text (or the exception's) quoted as typed.

    ``message`` is the English message of a result that has no ``details`` (kept by a session or a
    cache from before they existed): it is then quoted as a technical text under a translated line.
    """
    if not details.get("code"):
        return t("failure.undescribed") + " " + t("failure.technical", text=literal(message or "—"))
    values = {name: _value(name, value, details) for name, value in details.items()}
    text = t(f"failure.{details['code']}", **values)
    if details.get("server_text"):
        text += " " + t("failure.server_says", text=literal(details["server_text"]))
    if details.get("technical_text"):
        text += " " + t("failure.technical", text=literal(details["technical_text"]))
    return text


def recording_problem_text(problem) -> str:
    """A skipped recording line (`evallib.llm.recordings.RecordingProblem`) worded in the session's
    language, as Markdown: where it is, why it was skipped, Python's own text quoted when that is all
    there is."""
    values = {name: _value(name, value, problem.details) for name, value in problem.details.items()}
    text = t("recording_problem.where", file=literal(problem.file), line=integer(problem.line)) + " " \
        + t(f"recording_problem.{problem.code}", **values)
    if problem.details.get("technical_text"):
        text += " " + t("failure.technical", text=literal(problem.details["technical_text"]))
    return text


def models_offered(models: list[str], total: int | None = None) -> str:
    """Model ids as a Markdown list "a, b, c and N more" (escaped)."""
    total = len(models) if total is None else total
    shown = literal(", ".join(models[:MODELS_SHOWN]))
    return shown + (plural("collect.and_more", total - MODELS_SHOWN) if total > MODELS_SHOWN else "")


def _value(name: str, value, details: dict) -> str:
    """One value as a sentence shows it: numbers in the language's format, names and URLs escaped."""
    if name == "provider":
        return t(f"sidebar.kind.{value}")
    if name == "models":
        return models_offered(value, details.get("models_total"))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return literal(value)
    if name == "status":
        return str(value)  # an HTTP status is a code, not a quantity: no thousands separator
    return integer(value) if isinstance(value, int) else number(value, "g")

"""Generation prompt templates: the request to the assistant, built from a case.

A template is text with exactly the placeholders ``{context}``, ``{type}`` and ``{input}`` (seed
004), each at least once; a literal brace is written ``{{`` or ``}}`` as in ``str.format``. Anything
else inside braces (``{contexte}``, ``{}``, ``{input!r}``, ``{input:>9}``) is refused with a
`TemplateError` naming it, before any model is called.
"""

from __future__ import annotations

import string

from evallib.judging.data import Case, JudgeDataError
from evallib.judging.rubric import default_prompts

PLACEHOLDERS = ("context", "type", "input")
TEMPLATE_NAMES = ("A", "B")


class TemplateError(JudgeDataError):
    """A template that cannot be filled (codes: unknown_placeholder, missing_placeholder,
    format_spec, malformed); ``details`` name the placeholder and the template."""


def check_template(template: str, name: str = "A") -> None:
    """Raise `TemplateError` unless ``template`` uses exactly the three placeholders, plainly.

    >>> check_template("{context} / {type} / {input}")
    >>> try:
    ...     check_template("{contexte} {type} {input}")
    ... except TemplateError as exc:
    ...     print(exc.code, exc.details["placeholder"])
    unknown_placeholder contexte
    """
    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(template) if f is not None]
    except ValueError as exc:
        raise TemplateError("malformed", f"template {name}: {exc} (write a literal brace as {{{{ or }}}})",
                            template=name, reason=str(exc)) from None
    for field, spec, conversion in fields:
        if field not in PLACEHOLDERS:
            raise TemplateError("unknown_placeholder", f"template {name}: unknown placeholder {{{field}}}; use "
                                "{context}, {type} and {input}", template=name, placeholder=field)
        if spec or conversion:
            raise TemplateError("format_spec", f"template {name}: write {{{field}}} without a format or "
                                "conversion", template=name, placeholder=field)
    used = {f for f, _, _ in fields}
    for placeholder in PLACEHOLDERS:
        if placeholder not in used:
            raise TemplateError("missing_placeholder", f"template {name}: the placeholder {{{placeholder}}} is "
                                "missing", template=name, placeholder=placeholder)


def render(template: str, case: Case, name: str = "A") -> str:
    """The prompt of ``case`` under ``template`` (checked first; raises `TemplateError`)."""
    check_template(template, name)
    return template.format(context=case.context, type=case.type, input=case.input)


def default_templates() -> dict[str, str]:
    """Templates A and B as stored in ``packs/fr/judging_prompts.json``."""
    return dict(default_prompts()["templates"])

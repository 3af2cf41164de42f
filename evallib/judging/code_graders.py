"""Code graders: what code can decide about a response, decided by code (code first: docs/judge.md#code-graders).

- ``length``: the response is not empty and holds at most the case's ``max_chars`` characters.
- ``json_parses``: JSON cases; ``json.loads`` of the code.
- ``python_parses``: Python cases; ``ast.parse`` of the code (parsed only, NEVER executed).
- ``regex_compiles``: Regex cases; ``re.compile`` of the pattern.
- ``regex_examples``: Regex cases with examples; every ``must_match`` example matches and no
  ``must_not_match`` one does (``re.fullmatch`` or ``re.search`` after the case's ``regex_mode``).
  A model-written pattern can backtrack for hours on a short example, and Python's ``re`` cannot be
  interrupted, so the examples run in a child interpreter killed after `REGEX_TIMEOUT_S`.

The code is the first fenced block of the response when there is one, else its only inline code
span (`...`) when it has exactly one, else the whole response. `code_validity` is the code graders' verdict on validity (every
syntax and example check passed), compared with the judge's VALIDITY in ``analyses``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import threading
from dataclasses import dataclass

from evallib.judging.data import Case

#: Seconds the example matching of one pattern may take: the examples are a few dozen characters,
#: so a sound pattern answers in microseconds and one that takes seconds is backtracking.
REGEX_TIMEOUT_S = 3.0
#: One inline code span: `...` on one line.
_INLINE = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"```[ \t]*([\w+-]*)[ \t]*\n(.*?)(?:\n[ \t]*```|\Z)", re.DOTALL)
_MATCHER = """
import json, re, sys
data = json.load(sys.stdin)
pattern = re.compile(data["pattern"])
match = pattern.fullmatch if data["mode"] == "full" else pattern.search
json.dump({"missed": [e for e in data["must_match"] if not match(e)],
           "wrongly_matched": [e for e in data["must_not_match"] if match(e)]}, sys.stdout)
"""


@dataclass(frozen=True)
class Check:
    """One code check: ``passed`` True/False, or None when it does not apply; ``detail`` says why it failed."""

    name: str
    passed: bool | None
    detail: str = ""


def extract_code(response: str) -> str:
    """The code of a response: its first fenced block, else the text without enclosing backticks.

    >>> extract_code("Voici :\\n```json\\n{\\"a\\": 1}\\n```\\nFin.")
    '{"a": 1}'
    >>> extract_code("`^i-[0-9a-f]{8}$`")
    '^i-[0-9a-f]{8}$'
    >>> extract_code("Le motif : `^i-[0-9a-f]{8}$` (ancré).")
    '^i-[0-9a-f]{8}$'
    """
    fenced = _FENCE.search(response)
    if fenced:
        return fenced.group(2).strip("\n")
    inline = _INLINE.findall(response)
    return inline[0] if len(inline) == 1 else response.strip()


#: One ``ast.parse`` of ours at a time. CPython 3.11 counts the AST converter's recursion depth in state
#: that the interpreter's threads share, so a parse running at the same time in another thread (a case
#: graded beside it, or Streamlit parsing a page script) can fail with "SystemError: AST constructor
#: recursion depth mismatch" (CPython issue gh-106905). Seen once in a page test under load.
_AST_LOCK = threading.Lock()


def _parse(code: str) -> None:
    """``ast.parse(code)``, once more if another thread's parse upset the depth count (see `_AST_LOCK`)."""
    with _AST_LOCK:
        try:
            ast.parse(code)
        except SystemError:
            ast.parse(code)


def _syntax(case: Case, code: str) -> Check:
    if case.type == "JSON":
        try:
            json.loads(code)
        except json.JSONDecodeError as exc:
            return Check("json_parses", False, f"{exc.msg} (line {exc.lineno}, column {exc.colno})")
        return Check("json_parses", True)
    if case.type == "Python":
        try:
            _parse(code)
        except (SyntaxError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            return Check("python_parses", False, f"{getattr(exc, 'msg', exc)}" + (f" (line {line})" if line else ""))
        return Check("python_parses", True)
    try:
        re.compile(code)
    except (re.error, RecursionError, OverflowError) as exc:
        return Check("regex_compiles", False, str(exc))
    return Check("regex_compiles", True)


def regex_examples(case: Case, pattern: str, timeout_s: float = REGEX_TIMEOUT_S) -> Check:
    """Match the case's examples against ``pattern`` in a child interpreter (killed after ``timeout_s``)."""
    if not case.must_match and not case.must_not_match:
        return Check("regex_examples", None)
    payload = json.dumps({"pattern": pattern, "mode": case.regex_mode, "must_match": list(case.must_match),
                          "must_not_match": list(case.must_not_match)})
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _MATCHER], input=payload, capture_output=True,
                              text=True, timeout=timeout_s, check=True)
    except subprocess.TimeoutExpired:
        return Check("regex_examples", False, f"no answer within {timeout_s:g} s (catastrophic backtracking?)")
    except subprocess.CalledProcessError as exc:
        return Check("regex_examples", False, exc.stderr.strip().splitlines()[-1] if exc.stderr.strip() else "failed")
    outcome = json.loads(done.stdout)
    problems = [f"should match: {e!r}" for e in outcome["missed"]]
    problems += [f"should not match: {e!r}" for e in outcome["wrongly_matched"]]
    return Check("regex_examples", not problems, "; ".join(problems))


def grade_by_code(case: Case, response: str) -> tuple[Check, ...]:
    """Every code check of ``response`` to ``case``, in the order of the module docstring."""
    length = len(response)
    checks = [Check("length", 0 < len(response.strip()) and length <= case.max_chars,
                    "" if 0 < length <= case.max_chars else f"{length} characters (limit {case.max_chars})")]
    if not response.strip():
        return tuple(checks)
    code = extract_code(response)
    syntax = _syntax(case, code)
    checks.append(syntax)
    if case.type == "Regex":
        checks.append(regex_examples(case, code) if syntax.passed else Check("regex_examples", None))
    return tuple(checks)


def code_validity(checks: tuple[Check, ...]) -> bool | None:
    """Valid for code: every syntax and example check that applies passed (None: nothing to check)."""
    relevant = [c.passed for c in checks if c.name != "length" and c.passed is not None]
    return all(relevant) if relevant else None

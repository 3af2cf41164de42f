"""The items a room rates by hand (the kappa rated by the room): answers of the judge page's cases.

The instructor picks them on the Room page; they are stored in the room's settings under
`RATING_KEY` with this shape, which the kappa page's rating form reads::

    {"labels": ["pass", "fail"], "items": [{"id": "py-s3-inventory/A", "text": "..."}, ...]}

An item is one answer of the example assistant (a pack's ``judging_authored.json``, templates A and B; the room's
pack on the instructor's panel, ``packs/fr`` by default)
to one case of the same pack's ``judging_cases.json``; its text is the case's request, a blank line, then the
answer, so that a participant grades the answer against what was asked. Every template-A answer
comes first, then the template-B ones, so that a short set still covers every case. Blank answers
are left out (nothing to grade). Works offline: nothing is asked of a model.

Errors are `RatingSetError` (an `evallib.errors.InputError`) with ``code``: ``too_few_labels``
(fewer than two distinct labels), ``no_items``, ``duplicate_item`` (``details``: id).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from evallib.errors import InputError
from evallib.judging.authored import AUTHORED, _text, load_authored
from evallib.judging.data import DEFAULT_CASES, Case, load_cases
from evallib.judging.templates import TEMPLATE_NAMES
from evallib.room.storage import clean_text

RATING_KEY = "rating"
DEFAULT_LABELS = ("pass", "fail")
#: How many answers a room rates by default: about ten minutes of reading for a participant.
DEFAULT_ITEMS = 20


class RatingSetError(InputError):
    """A set of items or labels that a room cannot rate (codes in the module docstring)."""


def authored_answers(path: str | Path = AUTHORED) -> dict[tuple[str, str], str]:
    """(case id, template name) -> the example assistant's answer, from the judge page's authored file."""
    answers = {}
    for case_id, entry in load_authored(path)["cases"].items():
        for name, value in entry.get("responses", {}).items():
            answers[(case_id, name)] = _text(value)[0]
    return answers


def rating_items(cases: Sequence[Case], answers: Mapping[tuple[str, str], str], *, limit: int = DEFAULT_ITEMS,
                 templates: Sequence[str] = TEMPLATE_NAMES) -> list[dict]:
    """Up to ``limit`` items ``{"id": "<case id>/<template>", "text": request + blank line + answer}``.

    Order: every case's answer under the first template, then under the next (module docstring);
    a missing or blank answer is skipped.
    """
    items = []
    for name in templates:
        for case in cases:
            answer = answers.get((case.id, name), "")
            if answer.strip():
                items.append({"id": f"{case.id}/{name}", "text": f"{case.input}\n\n{answer.strip()}"})
    return items[:max(0, int(limit))]


def rating_settings(items: Sequence[Mapping], labels: Sequence[str] = DEFAULT_LABELS) -> dict:
    """The value stored under `RATING_KEY`: labels cleaned (`clean_text`, blanks and repeats dropped) and items checked.

    Raises `RatingSetError` (``too_few_labels``, ``no_items``, ``duplicate_item``).
    """
    kept = list(dict.fromkeys(label for label in (clean_text(x) for x in labels) if label))
    if len(kept) < 2:
        raise RatingSetError("too_few_labels", "a room rates with two labels or more", labels=kept)
    if not items:
        raise RatingSetError("no_items", "there is no item to rate")
    checked, seen = [], set()
    for item in items:
        item_id = clean_text(item["id"])
        if not item_id or item_id in seen:
            raise RatingSetError("duplicate_item", f"the item id {item_id!r} is blank or repeated", id=item_id)
        seen.add(item_id)
        checked.append({"id": item_id, "text": str(item["text"])})
    return {"labels": kept, "items": checked}


def default_rating_settings(limit: int = DEFAULT_ITEMS, labels: Sequence[str] = DEFAULT_LABELS) -> dict:
    """`rating_settings` of the default cases' authored answers (`rating_items`); raises as those."""
    return rating_settings(rating_items(load_cases(DEFAULT_CASES), authored_answers(), limit=limit), labels)


def room_rating(settings: Mapping) -> dict | None:
    """The rating set stored in a room's ``settings``, or None when there is none or it is malformed."""
    rating = settings.get(RATING_KEY) if isinstance(settings, Mapping) else None
    if not isinstance(rating, Mapping):
        return None
    labels, items = rating.get("labels"), rating.get("items")
    if not isinstance(labels, list) or not isinstance(items, list):
        return None
    if not all(isinstance(i, Mapping) and isinstance(i.get("id"), str) and isinstance(i.get("text"), str)
               for i in items):
        return None
    return {"labels": [str(label) for label in labels], "items": [dict(i) for i in items]}


@dataclass(frozen=True)
class TextBlock:
    """A part of an item's text: ``kind`` "text" (prose, shown as typed) or "code" (a fenced block's
    content, without its fences, shown in monospace), ``language`` the fence's tag ("" when none)."""

    kind: str
    content: str
    language: str = ""


#: A Markdown fence: three backticks or more (or tildes) and an optional language tag, on a line of its own.
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[ \t]*$")


def text_blocks(text: str) -> list[TextBlock]:
    """``text`` cut into prose and fenced code blocks, in order (blank prose between blocks left out).

    A fence closes on a line of the same character, at least as long; an unclosed fence runs to the end
    (an answer cut short still shows its code as code). No fence: one "text" block (none when blank).

    >>> [(b.kind, b.language, b.content) for b in text_blocks("Voici :\\n```python\\nprint(1)\\n```\\nFin.")]
    [('text', '', 'Voici :'), ('code', 'python', 'print(1)'), ('text', '', 'Fin.')]
    """
    blocks, lines, fence, language = [], [], None, ""

    def close(kind: str) -> None:
        content = "\n".join(lines)
        if kind == "code" or content.strip():
            blocks.append(TextBlock(kind, content.strip("\n") if kind == "code" else content.strip(), language))
        lines.clear()

    for line in str(text).split("\n"):
        match = _FENCE_LINE.match(line)
        if fence is None and match:
            close("text")
            fence, language = match.group(1), match.group(2)
        elif fence is not None and match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                and not match.group(2):
            close("code")
            fence, language = None, ""
        else:
            lines.append(line)
    close("text" if fence is None else "code")
    return blocks

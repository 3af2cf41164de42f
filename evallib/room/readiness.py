"""Whether a page's results can be submitted to a room, and the source an attempt names.

A page offers "Submit to the room" only when its attempt would rest on measured answers. Offline, an
edited prompt (description, system prompt, template, rubric, case) has no recorded answer: nothing
can be measured, and the page says so before any click rather than storing an attempt without items.
`submit_readiness` reads the counts a page already has into a `Reading` the page translates; the
button is enabled only on ``"ready"``.

`attempt_source` names where an attempt's answers came from, as the attempt schema
(``data/schemas/room_attempt.schema.json``) spells it: "live" (asked to a model now), "recorded"
(replayed from a model's live recording) or "offline" (replayed from the examples written by hand for
the demo, no model involved).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from evallib.readings import Reading

CODES = ("ready", "nothing_to_submit", "offline_unrecorded", "incomplete", "no_human", "human_unreadable")
TEMPLATE_CODES = ("no_template", "edited", "several_edited", "unedited")


def submit_readiness(*, total: int, answered: int, unrecorded: int, live: bool, human: int | None = None,
                     human_readable: bool = True) -> Reading:
    """Whether an attempt can be built from a page's answers; the first obstacle wins.

    Args:
        total: answers the attempt needs (requests, or cases for the judge), >= 0.
        answered: those the page has (an error counts as an answer: the attempt keeps it unscored).
        unrecorded: those the recordings do not hold (offline only: an edited input).
        live: whether the page asks a model now (live mode): then nothing is "unrecorded", only not
            collected yet.
        human: how many of the cases have a human score, when the attempt needs some (None: not needed;
            the judge page does not: without them its attempt is compared on the code graders).
        human_readable: False when human scores were typed but cannot be read (the page names the line):
            submitting would silently drop them.

    Returns a `Reading`: ``nothing_to_submit`` (total 0), ``offline_unrecorded`` (values ``n``,
    ``total``), ``incomplete`` (values ``answered``, ``total``), ``no_human`` (no human score, the
    judge's agreement cannot be measured), ``human_unreadable`` or ``ready`` (values ``total``).

    >>> submit_readiness(total=4, answered=3, unrecorded=1, live=False).code
    'offline_unrecorded'
    >>> submit_readiness(total=4, answered=4, unrecorded=0, live=True).code
    'ready'
    """
    if total <= 0:
        return Reading("nothing_to_submit", {})
    if unrecorded > 0 and not live:
        return Reading("offline_unrecorded", {"n": int(unrecorded), "total": int(total)})
    if answered < total:
        return Reading("incomplete", {"answered": int(answered), "total": int(total)})
    if human is not None and human <= 0:
        return Reading("no_human", {})
    if not human_readable:
        return Reading("human_unreadable", {})
    return Reading("ready", {"total": int(total)})


def submitted_template(run: Sequence[str], edited: Collection[str]) -> Reading:
    """Which of the judge page's templates its attempt submits by default: the one the participant edited.

    ``run``: the names of the templates with results, in the page's order; ``edited``: the names whose
    text differs from the shipped one. Codes: ``no_template`` (nothing run), ``edited`` (one edited
    template has results: that one), ``several_edited`` (more than one: the first; the page lets the
    participant choose, ``n`` of them), ``unedited`` (none of those run was edited: the first run).
    Values: ``name`` (the default), ``choices`` (the names to choose from, edited ones first when any).
    The "results shown" choice of the page plays no part.

    >>> submitted_template(["A", "B"], {"B"}).values["name"], submitted_template(["A", "B"], set()).code
    ('B', 'unedited')
    """
    if not run:
        return Reading("no_template", {"choices": []})
    changed = [name for name in run if name in edited]
    if len(changed) == 1:
        return Reading("edited", {"name": changed[0], "choices": changed})
    if changed:
        return Reading("several_edited", {"name": changed[0], "choices": changed, "n": len(changed)})
    return Reading("unedited", {"name": run[0], "choices": list(run)})


def attempt_source(live: bool, origins: Iterable[str]) -> str:
    """"live" when asked now; offline, "offline" when every replayed answer was ``authored`` (written by
    hand, `evallib.llm.RecordedSource.origin`), else "recorded" (some answer is a model's recording).

    >>> attempt_source(False, ["authored", "authored"]), attempt_source(False, ["live"]), attempt_source(True, [])
    ('offline', 'recorded', 'live')
    """
    if live:
        return "live"
    return "offline" if all(origin == "authored" for origin in origins) else "recorded"

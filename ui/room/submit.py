""""Submit to the room" on the trigger, persona and judge pages.

Shown only when this session joined a room (`ui.room.state.membership`); otherwise one line points
to the Room page. The attempt is built by evallib's builders from what the page already computed
(`evallib.room.attempts.build_trigger_attempt`, `...persona_attempt.build_persona_attempt`,
`...judge_attempt.build_judge_attempt`: they validate it and refuse anything that looks like a key)
and stored with `evallib.room.submissions.submit`. Whether the button is enabled is evallib's reading
(`evallib.room.readiness.submit_readiness`): offline, an edited input has no recorded answer, and
the page says so before any click.

Each submission has an idempotency key drawn when the attempt is built and kept with it
(`evallib.room.submissions`): the database stores it once, writes a pending row first, refuses an
attempt identical to one already stored ("already submitted as #N") and a second attempt of the kind
within 10 s (saying when the next is possible). A submission the room could not take (database
unavailable...) is kept in the session as it was built, with its key, under its page's kind and room
code; the button then sends that kept attempt again, so nothing is lost and nothing is doubled.
Success shows the attempt's number in the room. The click is handled by the button's callback, with
the values the page showed when the user clicked.

Below the button, read from the database (so after a reload or a restart of the server too): what
became of the last submission of this page's kind (received as #N, being received, or not received:
submit again) and the participant's attempts as stored (number, time, kind, which one counts on the
board), with a "count this one" choice per kind.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Collection, Mapping, Sequence

import streamlit as st

from evallib.errors import InputError
from evallib.readings import Reading
from evallib.room.attempts import build_trigger_attempt
from evallib.room.judge_attempt import build_judge_attempt
from evallib.room.persona_attempt import build_persona_attempt
from evallib.room.readiness import attempt_source, submit_readiness, submitted_template
from evallib.room.storage import RoomStorageError
from evallib.room.submissions import new_key, submit
from evallib.triggering.authored import TRIGGER_SET
from ui.packs import current_pack
from ui.i18n import clock, integer, t
from ui.labels import md
from ui.room.figure import page_line
from ui.room.messages import error_text
from ui.room.history import stored_panel
from ui.room.join import still_member
from ui.room.state import Membership, membership, room_store
from ui.sources import chosen_source
from ui.widgets import translated_choice

#: Session state: kind -> (room code, attempt, idempotency key) built but not stored yet (sent again on the next click).
PENDING = "room.submit.pending"
#: Session state: kind -> (room code, "success" or "error", text key or the room's error, values) of the last click.
OUTCOME = "room.submit.outcome"
#: Session state: kind -> (fingerprint of the page's results, attempt built from them): the attempt whose figure
#: the box shows is the one a click submits, built once per change of the results.
BUILT = "room.submit.built"


def fingerprint(*parts: object) -> str:
    """A digest of what an attempt is built from (their ``repr``): equal while the page's results are."""
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


def _memo(kind: str, key: str | None, build: Callable[[], dict]) -> Callable[[], dict]:
    """``build`` kept per panel (``kind``: its slot) in the session for the fingerprint ``key`` (None:
    built at each call)."""
    if key is None:
        return build

    def cached() -> dict:
        kept = st.session_state.get(BUILT, {}).get(kind)
        if kept is not None and kept[0] == key:
            return kept[1]
        payload = build()
        st.session_state.setdefault(BUILT, {})[kind] = (key, payload)
        return payload
    return cached


def _with_pack(build: Callable[[], dict]) -> Callable[[], dict]:
    """``build`` whose attempt names the pack it was made on (id, version, content hash: docs/packs.md#identity)."""
    def built() -> dict:
        payload = build()
        return {**payload, "provenance": {**payload["provenance"], "pack": current_pack().identity()}}
    return built


def _figure_line(build: Callable[[], dict]) -> None:
    """The attempt as the board will show it (`ui.room.figure.page_line`), or nothing when it cannot be built."""
    try:
        payload = build()
    except InputError:
        return  # the click says why (room_submit.build.*)
    st.markdown(page_line(payload))


#: Refusals that no retry can overcome (the room closed or forgot this participant, an identical attempt
#: already stored, too soon after the last one): nothing is kept.
FINAL = ("room_closed", "unknown_room", "unknown_participant", "duplicate_attempt", "too_soon")


def _pending(kind: str, code: str) -> tuple[dict, str] | None:
    kept = st.session_state.get(PENDING, {}).get(kind)
    return (kept[1], kept[2]) if kept is not None and kept[0] == code and len(kept) == 3 else None


def _refusal(kind: str, code: str, error: RoomStorageError) -> tuple:
    if error.code == "duplicate_attempt":
        return code, "error", "room_submit.duplicate", {"number": integer(int(error.details.get("number", 0)))}
    if error.code == "too_soon":
        retry_at = float(error.details.get("retry_at", time.time()))
        return code, "error", "room_submit.too_soon", {
            "time": clock(retry_at, seconds=True), "seconds": integer(int(error.details.get("seconds", 0))),
            "wait": integer(max(1, int(retry_at - time.time() + 0.999)))}
    return code, "error", error, {}


def _send(kind: str, joined: Membership, build: Callable[[], dict]) -> None:  # ``kind``: the panel's slot
    """The button's callback: send the kept attempt of this kind, else build one (with a new key); keep
    it with its key when the room could not take it."""
    outcome = st.session_state.setdefault(OUTCOME, {})
    kept = _pending(kind, joined.code)
    if kept is None:
        try:
            kept = (build(), new_key())
        except InputError as error:  # nothing to keep: these results cannot make an attempt
            known = error.code == "contains_key"
            outcome[kind] = (joined.code, "error", f"room_submit.build.{'contains_key' if known else 'other'}",
                             {"code": error.code})
            return
    payload, key = kept
    st.session_state.setdefault(PENDING, {})[kind] = (joined.code, payload, key)
    try:
        receipt = submit(room_store(), joined.code, joined.token, payload, key)
    except RoomStorageError as error:
        if error.code in FINAL:  # no later click can store it: nothing is kept, the message says why
            st.session_state.get(PENDING, {}).pop(kind, None)
        outcome[kind] = _refusal(kind, joined.code, error)
        return
    st.session_state.get(PENDING, {}).pop(kind, None)
    outcome[kind] = (joined.code, "success", "room_submit.stored",
                     {"code": joined.code, "number": integer(receipt.number)})


def _values(reading: Reading) -> dict:
    return {k: integer(v) if isinstance(v, int) else v for k, v in reading.values.items()}


def submit_panel(kind: str, readiness: Reading, build: Callable[[], dict], detail: str = "", *,
                 key: str | None = None, slot: str | None = None, label: str = "") -> None:
    """The room's box for one page: a hint when not joined; else the button (disabled with the reason
    unless ``readiness`` is "ready" or an attempt is kept), the kept attempt and the last outcome.

    ``kind``: the attempt's kind ("trigger", "persona", "judge" or "judge_code": its history and final
    choice); ``build``: makes the attempt (called on click only); ``detail``: one more line saying what
    is submitted (Markdown-safe); ``key``: a `fingerprint` of what ``build`` reads (the attempt is then
    built once per change, its figure shown before the click); ``slot``: the panel's own name when a
    page has two (default ``kind``); ``label``: the button's text naming what is submitted (default
    "Submit to the room").
    """
    slot = slot or kind
    build = _memo(slot, None if key is None else fingerprint(key, current_pack().content_hash), _with_pack(build))
    joined = membership()
    closed = False
    try:
        if joined is not None and not still_member(joined):  # removed by the instructor since: said here too
            joined = None
        closed = joined is not None and room_store().room(joined.code).closed
    except RoomStorageError:
        pass  # the database is down: the button says so when clicked, the attempt is kept
    if joined is None:
        st.caption(t("room_submit.join_hint"))
        return
    with st.container(border=True):
        st.markdown(f"**{t('room_submit.title')}**")
        st.caption(t("room_submit.joined", code=joined.code, name=md(joined.name, None)))
        if detail:
            st.caption(detail)
        kept = _pending(slot, joined.code) is not None
        if closed:  # said before any click: no attempt can be stored any more, a kept one included
            readiness, kept = Reading("room_closed", {"code": joined.code}), False
        enabled = kept or readiness.code == "ready"
        if readiness.code == "ready" and not kept and key is not None:
            _figure_line(build)
        st.button(t("room_submit.retry") if kept else (label or t("room_submit.button")), key=f"room_submit_{slot}",
                  type="primary", disabled=not enabled, on_click=_send, args=(slot, joined, build))
        if kept:
            st.warning(t("room_submit.pending"))
        elif not enabled:
            st.info(t(f"room_submit.blocked.{readiness.code}", **_values(readiness)))
        last = st.session_state.get(OUTCOME, {}).get(slot)
        if last is not None and last[0] == joined.code:
            text = error_text(last[2]) if isinstance(last[2], Exception) else t(last[2], **last[3])
            (st.success if last[1] == "success" else st.error)(text)
        stored_panel(kind, joined, said=last is not None and last[0] == joined.code)


# ---------------------------------------------------------------- the three pages

def submit_trigger(queries: Sequence, baseline_rows: Sequence, tried: tuple, *, model: str, runs: int, mode: str,
                   live: bool) -> None:
    """Trigger eval: ``tried`` = (catalogue, its decisions, answers without a recording) of the descriptions
    to submit (the edited ones, or the page's own when unedited); ``baseline_rows``: the page's decisions
    with its own descriptions, the comparison's baseline (McNemar exact, in the builder)."""
    catalogue, rows, missing = tried
    readiness = submit_readiness(total=len(queries) * runs, answered=len(rows), unrecorded=missing, live=live)
    source = None if live else chosen_source(TRIGGER_SET)

    def build() -> dict:
        return build_trigger_attempt(rows, queries, {s.name: s.description for s in catalogue.skills},
                                     model=source.model if source is not None else model,
                                     source=attempt_source(live, [source.origin] if source is not None else []),
                                     runs=runs, mode=mode, baseline_rows=baseline_rows)
    submit_panel("trigger", readiness, build,
                 key=fingerprint(rows, queries, catalogue, source, model, runs, mode, live, baseline_rows))


def submit_persona(catalogue, responses: Mapping, *, model: str, live: bool, set_name: str = "persona",
                   rewrite: tuple[str, str] | None = None) -> None:
    """Persona audit: the catalogue as edited and its answers keyed (assistant, probe index).

    ``rewrite``: (assistant, "own" or "suggested") when this is exercise 3's catalogue, with that
    assistant's prompt rewritten: its own panel, a button naming the rewrite, ``inputs.variant`` set."""
    cells = [responses.get((a, i)) for a in catalogue.names for i in range(len(catalogue.probes))]
    unrecorded = sum(r is not None and r.error_kind == "missing_recording" for r in cells)
    answers = {cell: r for cell, r in responses.items() if r is not None and r.error_kind != "missing_recording"}
    readiness = submit_readiness(total=len(cells), answered=len(answers), unrecorded=unrecorded, live=live)
    source = None if live else chosen_source(set_name)

    def build() -> dict:
        return build_persona_attempt(catalogue, answers, model=source.model if source is not None else model,
                                     source=attempt_source(live, [r.provenance for r in answers.values() if not r.failed]),
                                     variant=None if rewrite is None else
                                     {"exercise": "rewrite", "assistant": rewrite[0], "origin": rewrite[1]})
    key = fingerprint(catalogue, sorted(answers.items()), source, model, live, rewrite)
    if rewrite is None:
        submit_panel("persona", readiness, build, key=key)
    elif membership() is not None:  # not joined: the page's first panel already says how to join
        submit_panel("persona", readiness, build, key=key, slot="persona_rewrite",
                     label=t(f"room_submit.button_rewrite.{rewrite[1]}", name=md(rewrite[0], None)))


def submit_judge(configs: Mapping, runs: Mapping, edited: Collection[str], human: Mapping[str, int] | None,
                 comparisons, *, live: bool) -> None:
    """LLM as a judge: the results of the template the participant edited (`submitted_template`; a
    choice when that is not one template), with the human scores typed on the page when there are any
    (else the attempt is compared on the code graders: kind "judge_code"); ``human`` None: typed but
    unreadable. ``comparisons``: the pairwise probe's verdicts, run with the first template's judge."""
    choice = submitted_template([name for name in configs if any(r is not None for r in runs[name])], edited)
    if choice.code == "no_template":
        return
    template = choice.values["name"]
    if len(choice.values["choices"]) > 1 and membership() is not None:  # a choice only for a room
        template = translated_choice(st.radio, t("room_submit.judge_template"), tuple(choice.values["choices"]),
                                     {name: t("judge.template", name=name) for name in choice.values["choices"]},
                                     state_key="room_submit_judge_template", horizontal=True)
    config, outcomes = configs[template], runs[template]
    done = [r for r in outcomes if r is not None]
    results = [r for r in done if r.recorded]
    scores = dict(human or {})
    readiness = submit_readiness(total=len(outcomes), answered=len(results), unrecorded=len(done) - len(results),
                                 live=live, human_readable=human is not None)
    probes = list(comparisons) if comparisons and template == next(iter(configs)) else None
    kind = "judge" if any(r.case.id in scores for r in results) else "judge_code"

    def build() -> dict:
        origins = [call.provenance for r in results for call in r.calls if not call.failed]
        return build_judge_attempt(results, scores, config.rubric, template=config.template, template_name=template,
                                   generator=config.generator.model, judge=config.judge.model,
                                   source=attempt_source(live, origins), blinding=config.blinding, comparisons=probes)
    state = "edited" if template in edited else "unedited"
    submit_panel(kind, readiness, build, detail=t(f"room_submit.judge_detail.{kind}"), slot="judge",
                 label=t(f"room_submit.button_judge.{state}", name=md(template)),
                 key=fingerprint(config, template, results, human, probes, live))

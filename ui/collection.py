"""The collection widget: answers for a list of requests, kept in this session, collected on demand.

Answers are stored in ``st.session_state["answers"]`` under (request key, endpoint fingerprint), the
way the cache keys them: live, the fingerprint is the endpoint's (kind and base URL), so the answers
of one server are never shown as another's for the same model; offline it is "recordings", and the
request key names the recorded source (its model and options, see `ui.sources`). Thus:
- each answer is stored the moment it arrives (from the progress callback, on the script thread), so
  a click during a collection (language, any widget, another page) keeps every answer obtained, and
  only the missing ones are offered again;
- changing one assistant's prompt only leaves that assistant's requests to collect;
- "retry failed" sends only the requests whose answer is an error.
Offline, missing answers are looked up in the recordings at once (no network, no button); live,
the user starts the collection. Progress is drawn by the script thread from `collect`'s callback.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import streamlit as st

from evallib.llm import Progress, collect
from evallib.llm.retries import RETRY_AFTER_BUDGET_S
from evallib.llm.redaction import redact_url
from ui.browser_state import forget_answers, keep_answers, restore_answers
from ui.failures import failure_text, models_offered
from ui.i18n import plural, t
from ui.markdown import literal
from ui.models import model_list, page_provider, session_lane
from ui.settings import Settings, config_problem, current_settings
from ui.sources import chosen_source

ANSWERS_KEY = "answers"
#: Fingerprint of answers replayed offline (the request key already names the recorded source).
OFFLINE_FINGERPRINT = "recordings"


def stored_answers() -> dict:
    """This session's answers by (request key, endpoint fingerprint), with this browser's live answers
    stored before a restart of the server (`ui.browser_state`)."""
    answers = st.session_state.setdefault(ANSWERS_KEY, {})
    restore_answers(answers)
    return answers


def endpoint_fingerprint(settings: Settings) -> str:
    """Where answers come from in these settings: the live endpoint, or the recordings offline."""
    return settings.config.fingerprint() if settings.live else OFFLINE_FINGERPRINT


def _run(requests: Sequence, set_name: str, settings) -> None:
    lane = session_lane(settings) if settings.live else None
    provider = page_provider(set_name, settings, lane)
    fingerprint = endpoint_fingerprint(settings)
    answers = stored_answers()
    kept: set = set()  # live answers already written outside the process
    bar = st.progress(0.0, text=t("collect.starting", total=len(requests)))

    def keep(slot: tuple, result) -> None:
        answers[slot] = result
        if settings.live and slot not in kept:
            kept.add(slot)
            keep_answers([(slot, result)])

    def show(progress: Progress) -> None:
        # Kept first: drawing the bar is where Streamlit stops this run when the user clicks.
        if progress.last is not None:  # None on the periodic reports while requests wait
            keep((progress.last.request_key, fingerprint), progress.last)
        bar.progress(progress.done / progress.total, text=progress_text(progress))

    results = collect(list(requests), provider, settings.concurrency, on_progress=show, lane=lane)
    for request, result in zip(requests, results):
        keep((request.key(), fingerprint), result)
    bar.empty()
    st.rerun()  # redraw the page from the stored answers (buttons and counts above are now stale)


#: A Retry-After wait of at least this many seconds is named in the progress text: shorter waits
#: pass before anyone wonders why the bar stopped.
LONG_WAIT_S = 3.0


def progress_text(progress: Progress) -> str:
    """The progress bar's text: counts, elapsed time, retries so far, a long Retry-After wait, and the
    requests waiting for the model server while other participants' requests are answered."""
    text = t("collect.progress", done=progress.done, total=progress.total, elapsed=progress.elapsed_s,
             errors=progress.errors, retries=progress.retries)
    if progress.retry_wait_s >= LONG_WAIT_S:
        text += " · " + t("collect.retry_waiting", wait=math.ceil(progress.retry_wait_s))
    return text + queued_note(progress.queued_behind_others)


def queued_note(queued: int) -> str:
    """" · n request(s) waiting their turn...": what a progress bar adds while ``queued`` requests of its run
    wait for the shared endpoint behind other participants' (`evallib.llm.scheduler`); "" when none wait."""
    return " · " + plural("collect.queued_behind_others", queued) if queued else ""


def collection_panel(requests: Sequence, *, set_name: str, labels: Sequence[str], key: str) -> list:
    """Show the collection state of ``requests`` and return their answers (None where missing).

    Offline, the requests are replayed as the source chosen for ``set_name`` asked them
    (`ui.sources.recorded_source_choice`); without a chosen source, exactly as built.

    Args:
        requests: chat or embedding requests, in the order the page needs them.
        set_name: the recording set of this page (``<set_name>.jsonl`` in the recordings folders).
        labels: a human label per request (e.g. "style / probe 3"), used to name missing or failed ones.
        key: a widget key prefix unique on the page.
    """
    settings = current_settings()
    source = None if settings.live else chosen_source(set_name)
    if source is not None:
        requests = [source.apply(request) for request in requests]
    fingerprint = endpoint_fingerprint(settings)
    answers = stored_answers()
    slots = [(request.key(), fingerprint) for request in requests]
    missing = [r for r, slot in zip(requests, slots) if slot not in answers]
    if missing and not settings.live:
        _run(missing, set_name, settings)
        missing = []
    problem = config_problem(settings)
    if problem:
        st.warning(t(problem))
    elif settings.live:
        failed = [r for r, slot in zip(requests, slots) if slot in answers and answers[slot].failed]
        columns = st.columns(3)
        if columns[0].button(plural("collect.start", len(missing)), key=f"{key}_collect",
                             disabled=not missing, type="primary"):
            _run(missing, set_name, settings)
        if columns[1].button(plural("collect.retry", len(failed)), key=f"{key}_retry", disabled=not failed):
            _run(failed, set_name, settings)
        if columns[2].button(t("collect.forget"), key=f"{key}_forget", help=t("collect.forget_help")):
            for slot in slots:
                answers.pop(slot, None)
            forget_answers(slots)
            st.rerun()
    results = [answers.get(slot) for slot in slots]
    answers_summary(results, labels)
    return results


def answers_summary(results: Sequence, labels: Sequence[str]) -> None:
    """Counts by source and status of ``results`` (None: missing), and the problems grouped by kind."""
    present = [r for r in results if r is not None]
    if not present:
        st.info(t("collect.nothing_yet", n=len(results)))
        return
    answered = [r for r in present if not r.failed]
    sources = Counter(source_text(r) for r in answered)
    statuses = Counter("unrecorded" if unrecorded(r) else r.status for r in present)
    summary = t("collect.summary", n=len(answered), total=len(results),
                sources=", ".join(f"{s} {c}" for s, c in sorted(sources.items())) or "—",
                ok=statuses.get("ok", 0), empty=statuses.get("empty", 0),
                truncated=statuses.get("truncated", 0), errors=statuses.get("error", 0))
    if statuses.get("unrecorded"):
        summary += " · " + plural("collect.summary_unrecorded", statuses["unrecorded"])
    st.caption(summary)
    authored = sum(source_label(r) == "authored" for r in answered)
    if authored:
        st.info(plural("collect.authored_notice", authored))
    fallbacks = [r for r in present if r.fallback_error]
    if fallbacks:
        first = fallbacks[0]
        error = failure_text(first.error_details, first.fallback_error)
        st.warning(plural("collect.fallback", len(fallbacks), error=error))
    _problems(results, labels)


#: How many request labels a group of identical problems names before "and N more".
LABELS_SHOWN = 6


def _problems(results: Sequence, labels: Sequence[str]) -> None:
    """Failed, empty and cut answers, grouped by what went wrong (one line per kind, not per request)."""
    groups: dict[tuple, list[str]] = {}
    first: dict[tuple, object] = {}
    for label, result in zip(labels, results):
        if result is not None and result.status != "ok":
            group = (result.status, result.error_kind or "")
            groups.setdefault(group, []).append(label)
            first.setdefault(group, result)
    if not groups:
        return
    # A request the chosen recording never answered is not a failure to retry: it is said plainly
    # (and named below), not drawn as a red error box on the projector.
    not_recorded = len(groups.get(("error", "missing_recording"), []))
    failures = sum(len(v) for (status, _), v in groups.items() if status == "error") - not_recorded
    if failures:
        kinds = ", ".join(t(f"error_kind.{kind}") for (status, kind) in groups
                          if status == "error" and kind != "missing_recording")
        st.error(plural("collect.failed", failures, kinds=kinds))
    if not_recorded:
        st.info(plural("collect.unrecorded", not_recorded))
    with st.expander(plural("collect.problems", sum(len(v) for v in groups.values())), expanded=bool(failures)):
        for group, names in groups.items():
            example = first[group]
            shown = ", ".join(names[:LABELS_SHOWN])
            more = plural("collect.and_more", len(names) - LABELS_SHOWN) if len(names) > LABELS_SHOWN else ""
            kind = f" · {t('error_kind.' + example.error_kind)}" if example.error_kind else ""
            head = t("status.unrecorded") if unrecorded(example) else f"{t('status.' + example.status)}{kind}"
            st.markdown(f"- **{head}** ({len(names)}) — {shown}{more}")
            if example.failed:  # what happened, with the server's own text, then what to do
                st.caption(failure_text(example.error_details, example.error))
            st.markdown(_advice(example))


#: Error kinds whose advice needs no value beyond the base URL and the Retry-After budget.
PLAIN_ADVICE = ("auth", "connection", "timeout", "rate_limit", "server", "prefill_unsupported",
                "malformed", "missing_recording", "unexpected")


def _advice(result) -> str:
    """What to do about a failed, empty or cut answer, in the session's language (Markdown)."""
    if result.status in ("empty", "truncated"):
        return t(f"advice.{result.status}")
    settings = current_settings()
    details = result.error_details
    if details.get("code") in ("not_found_v1", "embeddings_unsupported"):
        return t(f"advice.{details['code']}", suggestion=literal(details.get("suggestion", "")))
    if result.error_kind == "bad_request":
        advice = t("advice.bad_request")
        problem = model_list(settings)[1] if settings.live else None
        if problem:
            advice += " " + t("advice.sidebar_check_failed", kind=t(f"error_kind.{problem.kind}"),
                              reason=failure_text(problem.result_details()))
        return advice
    if result.error_kind == "model_not_found":
        models = details.get("models") or (model_list(settings)[0] if settings.live else [])
        if not models:
            return t("advice.model_not_found_unlisted", model=literal(result.model))
        return t("advice.model_not_found", model=literal(result.model),
                 models=models_offered(models, details.get("models_total")))
    if result.error_kind in PLAIN_ADVICE:
        return t(f"advice.{result.error_kind}", url=literal(redact_url(settings.config.base_url) or "—"),
                 budget=RETRY_AFTER_BUDGET_S)
    return t("advice.not_found")


def unrecorded(result) -> bool:
    """An answer the replayed recordings never held: not recorded, which is not a failed call."""
    return result.error_kind == "missing_recording"


def source_label(result) -> str:
    """"authored" for hand-written recordings, else the result's source (live, cache, recording)."""
    if result.source == "recording" and result.provenance == "authored":
        return "authored"
    return result.source


BADGE_COLOURS = {"live": "green", "cache": "blue", "recording": "violet", "authored": "orange"}


def source_text(result) -> str:
    """Where an answer came from, in words: "authored", "recorded live on DATE", "live", "cache"."""
    label = source_label(result)
    return t("badge.recording_on", date=result.recorded_on) if label == "recording" and result.recorded_on \
        else t(f"badge.{label}")


def source_badge(result) -> str:
    """Markdown badge naming where an answer came from (with its date when recorded live)."""
    return f":{BADGE_COLOURS[source_label(result)]}-badge[{source_text(result)}]"

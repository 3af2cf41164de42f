"""The instructor's panel of the Room page: open, manage and close a room, pick the answers to rate,
open or hide an attempt, export and import the room.

Every action calls the store with this session's credential (`ui.room.state.instructor_credential`:
the token typed here, else the standing of this browser, remembered in the database once it gave the
right token); the store checks it each time (`RoomStore.check_instructor`), so a participant who
forged the panel's widget state (the managed room, a button press) is refused: the panel's contents
are drawn only after the credential passed the store's check in this very run. The managed room is
kept with the browser's standing, so that after a restart its Room page shows the board at once.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from evallib.errors import InputError
from evallib.judging.data import load_cases
from evallib.room.addresses import join_url, reachable_url
from evallib.room.browsers import (forget_instructor, instructor_standing, remember_instructor, remove_participant,
                                   removed_participants)
from evallib.room.bundle import export_room, import_bundle
from evallib.room.history import hide_participant
from evallib.room.models import MIX_KEY, mix_models
from evallib.room.rating_set import (DEFAULT_ITEMS, DEFAULT_LABELS, RATING_KEY, authored_answers, rating_items,
                                     rating_settings, room_rating)
from evallib.room.storage import RoomStorageError, normalise_code
from ui.i18n import integer, plural, t
from ui.labels import md, name_list
from ui.room.messages import error_text
from ui.room.board import refresh_seconds
from ui.room.endpoint import endpoint_panel
from ui.packs import pack_file
from ui.room.pack import pack_panel
from ui.room.history import kind_label
from ui.room.qr import network_ip, qr_png
from ui.browser import browser_key
from ui.room.state import INSTRUCTOR, instructor_credential, room_store

MANAGED = "room.managed"
KEPT = "room.instructor_kept"  # (browser key, managed room) last written to the browser's standing
NOTICE = "room.instructor_notice"
EXPORT = "room.export"
ROOM_ERRORS = (RoomStorageError, InputError)


def _counts(participants: int, attempts: int) -> dict:
    return {"participants": plural("room.instructor.participants", participants),
            "attempts": plural("room.instructor.attempts", attempts)}


@st.cache_data(show_spinner=False, max_entries=8)
def _rateable_of(limit: int, cases: str, authored: str) -> list[dict]:
    return rating_items(load_cases(cases), authored_answers(authored), limit=limit)


def _rateable(limit: int) -> list[dict]:
    """The judge page's authored answers of the room's pack (the session's, `ui.packs`) as rating items,
    read once per count and pack."""
    return _rateable_of(limit, str(pack_file("judging_cases.json")), str(pack_file("judging_authored.json")))


def _action(function):
    """A button's callback: runs ``function(store, credential, *args)`` with this session's credential.

    Callbacks run once, before the script (a button read inline would lose its click to the rerun
    of `ui.shell.require_navigation`). The outcome is kept under `NOTICE`: a text on success, the
    error's wording otherwise; the panel shows it in the run that follows.
    """
    def callback(*args):
        try:
            done = function(room_store(), instructor_credential(), *args)
        except ROOM_ERRORS as error:
            st.session_state[NOTICE] = ("error", error_text(error))
        else:
            if done:
                st.session_state[NOTICE] = ("success", done)
    return callback


@_action
def _open(store, token: str) -> str:
    room = store.open_room(token, st.session_state.get("room.new_title", ""),
                           {RATING_KEY: rating_settings(_rateable(DEFAULT_ITEMS), DEFAULT_LABELS)})
    st.session_state[MANAGED] = room.code
    st.session_state.pop(EXPORT, None)
    return t("room.instructor.opened", code=room.code)


@_action
def _manage(store, token: str) -> str:
    store.check_instructor(token)
    room = store.room(normalise_code(st.session_state.get("room.manage_code", "")))
    st.session_state[MANAGED] = room.code
    st.session_state.pop(EXPORT, None)
    return ""


@_action
def _close(store, token: str, code: str) -> str:
    store.close_room(code, token)
    return t("room.instructor.closed", code=code)


@_action
def _rate_these(store, token: str, code: str) -> str:
    count = int(st.session_state.get("room.rating_count") or DEFAULT_ITEMS)
    labels = str(st.session_state.get("room.rating_labels", ""))
    chosen = rating_settings(_rateable(count), labels.split(","))
    store.check_instructor(token)
    settings = store.room(code).settings
    store.update_settings(code, token, {**settings, RATING_KEY: chosen})
    return t("room.rating.applied", items=plural("room.rating.items", len(chosen["items"])))


@_action
def _mix_models(store, token: str, code: str) -> str:
    """The board compares models together (the toggle on) or within each model (off): a room setting."""
    mixed = bool(st.session_state.get("room.mix_models"))
    store.check_instructor(token)
    store.update_settings(code, token, {**store.room(code).settings, MIX_KEY: mixed})
    return (t("room.models.mixed_done") if mixed else t("room.models.within_done"))


@_action
def _hide(store, token: str, code: str, attempt_id: int, hidden: bool, number: int) -> str:
    store.hide_attempt(code, token, attempt_id, hidden=hidden)
    return (t("room.attempts.hidden_done", number=integer(number)) if hidden
            else t("room.attempts.shown_done", number=integer(number)))


@_action
def _remove(store, token, code: str, participant_id: int) -> str:
    return t("room.remove.done", name=md(remove_participant(store, token, code, participant_id), None))


def _sign_out() -> None:
    key = browser_key()
    try:
        if key:
            forget_instructor(room_store(), key)
    except ROOM_ERRORS as error:
        st.session_state[NOTICE] = ("error", error_text(error))
        return
    for name in (INSTRUCTOR, MANAGED, KEPT, EXPORT):
        st.session_state.pop(name, None)
    st.session_state[NOTICE] = ("info", t("room.instructor.signed_out"))


def _remember(store, credential, code: str | None) -> None:
    """Keep this browser's standing and managed room in the database (written when they change)."""
    key = browser_key()
    if key and st.session_state.get(KEPT) != (key, code):
        remember_instructor(store, key, credential, code)
        st.session_state[KEPT] = (key, code)


@_action
def _export(store, token: str, code: str) -> str:
    bundle = export_room(store, code, token)
    st.session_state[EXPORT] = (code, json.dumps(bundle, ensure_ascii=False, indent=1).encode("utf-8"))
    return ""


@_action
def _import(store, token: str) -> str:
    upload = st.session_state.get("room.import_file")
    if upload is None:
        st.session_state[NOTICE] = ("warning", t("room.bundle.no_file"))
        return ""
    room = import_bundle(store, token, upload.getvalue())
    st.session_state[MANAGED] = room.code
    st.session_state.pop(EXPORT, None)
    counts = _counts(len(store.participants(room.code)), len(store.attempts(room.code, include_hidden=True)))
    return t("room.bundle.imported", code=room.code, **counts)


def instructor_panel() -> str | None:
    """The panel (in an expander); returns the managed room's code once the credential passed the store's check."""
    credential = instructor_credential()
    recognised = bool(credential) and not isinstance(credential, str)
    with st.expander(t("room.instructor.title"), expanded=bool(credential)):
        if recognised:
            columns = st.columns([3, 1], vertical_alignment="center")
            columns[0].caption(t("room.instructor.recognised"))
            columns[1].button(t("room.instructor.sign_out"), key="room.sign_out", on_click=_sign_out)
        else:
            st.text_input(t("room.instructor.token"), type="password", persist_state="session", key=INSTRUCTOR,
                          help=t("room.instructor.token_help"))
        notice = st.session_state.pop(NOTICE, None)
        if notice is not None:
            getattr(st, notice[0])(notice[1])
        if not credential:
            st.caption(t("room.instructor.need_token"))
            return None
        columns = st.columns(2, vertical_alignment="bottom")
        columns[0].text_input(t("room.instructor.new_title"),
                              persist_state="session", key="room.new_title", max_chars=200)
        columns[1].button(t("room.instructor.open"), key="room.open", type="primary", on_click=_open)
        columns = st.columns(2, vertical_alignment="bottom")
        columns[0].text_input(t("room.instructor.manage_code"),
                              persist_state="session", key="room.manage_code", max_chars=20)
        columns[1].button(t("room.instructor.manage"), key="room.manage", on_click=_manage)
        _import_part()
        code = st.session_state.get(MANAGED)
        try:
            store = room_store()
            if recognised and not code:  # a new session of this browser: the room it managed before
                code = st.session_state[MANAGED] = instructor_standing(store, credential.key)[1]
            store.check_instructor(credential)
            _remember(store, credential, code)
            if not code:
                return None
            room = store.room(code)
        except ROOM_ERRORS as error:
            if code:  # without a managed room, the refused action already said why
                st.error(error_text(error))
            return None
        # Who joined and what they submitted change while the instructor watches: refreshed with the board.
        st.fragment(_activity, run_every=refresh_seconds())(code)
        if not room.closed:
            st.button(t("room.instructor.close"), key="room.close", on_click=_close, args=(code,))
        st.session_state["room.mix_models"] = mix_models(room.settings)  # the room's setting, as stored
        st.toggle(t("room.models.mix"), persist_state="session", key="room.mix_models", help=t("room.models.mix_help"),
                  on_change=_mix_models, args=(code,))
        if not room.closed:
            endpoint_panel(code)
            pack_panel(code)
        _rating_items(room)
        _export_part(code)
    return code


def join_card(code: str) -> None:
    """The room's code, join link and QR code, large, for the projector."""
    url, note = reachable_url(join_url(st.context.url, st.context.headers.get("host"), code), network_ip())
    columns = st.columns([1, 1])
    with columns[0]:
        st.header(t("room.instructor.code_big", code=code))
        st.markdown(t("room.instructor.join_url", url=md(url, None)))
        st.code(url, language=None)
        if note:
            st.caption(t(f"room.instructor.link_{note}"))
    with columns[1]:
        png, width = qr_png(url)
        st.image(png, width=width, caption=t("room.instructor.qr_caption", code=code),
                 output_format="PNG")  # at its own size, lossless: no rescaling, no JPEG blur


def _rating_items(room) -> None:
    st.subheader(t("room.rating.title"))
    current = room_rating(room.settings)
    if current is None:
        st.caption(t("room.rating.none"))
    else:
        st.markdown(t("room.rating.current", items=plural("room.rating.items", len(current["items"])),
                      labels=name_list(current["labels"])))
    available = len(_rateable(1000))
    if available == 0:  # a pack without judge cases and answers to rate (a custom pack may have none)
        st.caption(t("room.rating.nothing"))
        return
    columns = st.columns([1, 2, 1], vertical_alignment="bottom")
    columns[0].number_input(t("room.rating.count"), min_value=1, max_value=available,
                            value=min(DEFAULT_ITEMS, available), step=1,
                            persist_state="session", key="room.rating_count")
    columns[1].text_input(t("room.rating.labels"), value=", ".join(DEFAULT_LABELS),
                          persist_state="session", key="room.rating_labels")
    columns[2].button(t("room.rating.apply"), key="room.rating_apply", on_click=_rate_these, args=(room.code,))
    if current is not None:
        with st.expander(t("room.rating.preview")):
            for item in current["items"]:
                st.caption(md(item["id"], None))
                st.code(item["text"], language=None, wrap_lines=True)


def _activity(code: str) -> None:
    """The managed room's state, participants and attempts (to open or hide), read afresh at each refresh."""
    notice = st.session_state.pop(NOTICE, None)  # an action from here (hide) reruns this part only
    if notice is not None:
        getattr(st, notice[0])(notice[1])
    try:
        store = room_store()
        room = store.room(code)
        people = store.participants(code)
        gone = removed_participants(store, code)
        attempts = store.attempts(code, include_hidden=True)
    except ROOM_ERRORS as error:
        st.error(error_text(error))
        return
    state = (t("room.instructor.state_closed") if room.closed else t("room.instructor.state_open"))
    st.markdown(t("room.instructor.managing", code=room.code, title=md(room.title or "—", 60), state=state,
                  **_counts(len(people), len(attempts))))
    if people:
        removed_mark = t("room.remove.removed")
        st.caption(name_list([f"{p.name} ({removed_mark})" if p.id in gone else p.name for p in people], 12))
        _removal(code, [p for p in people if p.id not in gone])
    _attempts(code, attempts)
    _hide_everyone(code, people, attempts)


@_action
def _hide_all(store, token: str, code: str, participant, hidden: bool) -> str:
    """Hide (or show again) every attempt of one participant at once; the notice says how many."""
    changed = hide_participant(store, code, token, participant.id, hidden)
    done = "room.attempts.all_hidden_done" if hidden else "room.attempts.all_shown_done"
    return t(done, n=integer(changed), participant=md(participant.name, 40))


def _hide_everyone(code: str, people, attempts) -> None:
    """Pick a participant who submitted, and hide (or show again) all their attempts at once."""
    counts: dict[int, list[int]] = {}
    for attempt in attempts:
        counts.setdefault(attempt.participant_id, [0, 0])[attempt.hidden] += 1
    by_label = {t("room.attempts.participant_option", participant=p.name, shown=integer(counts[p.id][0]),
                  hidden=integer(counts[p.id][1])): p for p in people if p.id in counts}  # names are unique
    if not by_label:
        return
    person = by_label.get(st.selectbox(t("room.attempts.pick_participant"), list(by_label),
                                       persist_state="session", key="room.participant_pick"))
    if person is None:
        return
    shown, hidden = counts[person.id]
    columns = st.columns(2)
    columns[0].button(t("room.attempts.hide_all"), key="room.participant_hide", disabled=not shown,
                      on_click=_hide_all, args=(code, person, True))
    columns[1].button(t("room.attempts.show_all"), key="room.participant_show", disabled=not hidden,
                      on_click=_hide_all, args=(code, person, False))


def _removal(code: str, present) -> None:
    """Pick a participant and remove them from the room (`evallib.room.browsers.remove_participant`)."""
    if not present:
        return
    by_label = {f"{p.name} (#{p.id})": p for p in present}
    columns = st.columns([3, 1], vertical_alignment="bottom")
    picked = by_label.get(columns[0].selectbox(t("room.remove.pick"), list(by_label), index=None,
                                               persist_state="session", key="room.remove_pick",
                                               help=t("room.remove.help")))
    columns[1].button(t("room.remove.button"), key="room.remove", disabled=picked is None, on_click=_remove,
                      args=(code, picked.id if picked else 0))


def _attempt_option(attempt) -> str:
    return t("room.attempts.option", number=integer(attempt.number),
             kind=kind_label(attempt.kind, attempt.payload.get("inputs", {}).get("variant")),
             participant=attempt.participant)


def _attempts(code: str, attempts) -> None:
    st.subheader(t("room.attempts.title"))
    if not attempts:
        st.caption(t("room.attempts.none"))
        return
    by_label = {_attempt_option(a): a for a in attempts}  # labels hold the number: one per attempt
    attempt = by_label.get(st.selectbox(t("room.attempts.pick"), list(by_label),
                                        persist_state="session", key="room.attempt_pick"))
    if attempt is None:
        return
    if attempt.hidden:
        st.caption(t("room.attempts.is_hidden"))
    st.button((t("room.attempts.show") if attempt.hidden else t("room.attempts.hide")), key="room.attempt_hide",
              on_click=_hide, args=(code, attempt.id, not attempt.hidden, attempt.number))
    show_attempt(attempt.payload)


def _texts(value, path: str = ""):
    """(path, text) of every text leaf of an attempt's inputs; other leaves as (path, JSON)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _texts(inner, f"{path} / {key}" if path else str(key))
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        for i, inner in enumerate(value, start=1):
            yield from _texts(inner, f"{path} / {i}")
    elif isinstance(value, str):
        yield path, value
    else:
        yield path, json.dumps(value, ensure_ascii=False)


def show_attempt(payload: dict) -> None:
    """An attempt's inputs, provenance, figures and answers, every text shown as text (never Markdown)."""
    st.markdown(f"**{t('room.attempts.inputs')}**")
    for path, text in _texts(payload.get("inputs", {})):
        st.caption(md(path, None))
        st.code(text, language=None, wrap_lines=True)
    st.markdown(f"**{t('room.attempts.provenance')}**")
    st.json(payload.get("provenance", {}), expanded=False)
    st.markdown(f"**{t('room.attempts.figures')}**")
    st.json(payload.get("figures", {}), expanded=False)
    items = payload.get("items", [])
    st.markdown(f"**{t('room.attempts.answers', n=integer(len(items)))}**")
    rows = [{t("room.attempts.item"): str(item.get("id", "")),
             t("room.col.held_out"): t("room.yes") if item.get("held_out") else t("room.no"),
             t("room.attempts.outcome"): json.dumps(item.get("correct", item.get("loss"))),
             t("room.attempts.text"): str(item.get("text", item.get("obtained", "")))} for item in items]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _export_part(code: str) -> None:
    st.subheader(t("room.bundle.export_title"))
    st.button(t("room.bundle.prepare"), key="room.export_prepare", on_click=_export, args=(code,))
    prepared = st.session_state.get(EXPORT)
    if prepared and prepared[0] == code:
        st.download_button(t("room.bundle.download", code=code), data=prepared[1], file_name=f"room-{code}.json",
                           mime="application/json", on_click="ignore", key="room.export_download")


def _import_part() -> None:
    columns = st.columns([3, 1], vertical_alignment="bottom")
    columns[0].file_uploader(t("room.bundle.upload"), type=["json"], key="room.import_file")
    columns[1].button(t("room.bundle.import"), key="room.import", on_click=_import)

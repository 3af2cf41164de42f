"""The session's workshop pack (docs/packs.md#app): chosen in the sidebar, set by the room, or its language's.

Which pack a page reads, first match wins: the pack the instructor set for the room the session is in
(`room_pack_path`, read from the room's database, so it holds on join, reload and restart), the pack
chosen in the sidebar (a built-in pack, one of the folder named by ``EVALLIB_PACKS``, an uploaded zip),
else the built-in pack of the session's language (``en`` when present, else ``fr``). Packs are opened
(and checked) once per server process and reopened when a file of theirs changes. A page the pack does
not cover reads the built-in pack of the pack's language (`pack_file`).

When the pack a page reads changes, `pack_changed` says so once, so that the page starts its editors
again from the new content.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from evallib.packs.layout import FRENCH_DIR, MAX_PACK_BYTES
from evallib.packs.loader import Pack, PackError, builtin_packs, default_pack_id, environment_packs, extract_zip, open_pack
from evallib.llm.recordings import RecordingProblem
from ui.failures import recording_problem_text
from ui.i18n import integer, language, plural, t
from ui.labels import md
from ui.markdown import literal

#: Session key of the pack chosen in the sidebar (a folder or a zip's path, as text); absent: the default.
CHOICE_KEY = "pack_choice"
#: Session key of the last problem met opening a pack: (source, [PackProblem]).
PROBLEM_KEY = "pack_problem"
#: Session key prefix of the pack hash each page last started its editors from.
APPLIED_PREFIX = "_pack_applied_"
#: Session key of the sidebar's uploader (the widget's file).
UPLOAD_KEY = "pack_upload"
#: Session key of the folder of the pack this session uploaded last: offered in the sidebar's list from then on.
UPLOADED_KEY = "pack_uploaded"
#: Session key of the title of the pack just uploaded, for the sidebar's note (until another choice).
UPLOAD_NOTE_KEY = "pack_upload_note"
#: Session key of the sidebar's list of packs.
SELECT_KEY = "_pack_select"
#: The uploader's limit, in the MB it shows ("50MB per file"): the pack's, not the server's 200 MB. The browser
#: counts a MB as 2**20 bytes: a zip of 50,000,001 to 52,428,800 bytes is refused by `extract_zip`, named.
UPLOAD_LIMIT_MB = MAX_PACK_BYTES // 1_000_000


def _signature(path: Path) -> tuple:
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files if p.exists())


@st.cache_resource(show_spinner=False, max_entries=32)
def _opened(path: str, signature: tuple) -> Pack | PackError:
    # a built-in pack's content is checked by the test suite: the sidebar loads no page parser for it
    builtin = Path(path).resolve() in {p.resolve() for p in builtin_packs().values()}
    try:
        return open_pack(Path(path), content=not builtin)
    except PackError as exc:
        return exc


def open_cached(path: str | Path) -> Pack:
    """The checked pack at ``path`` (shared by every session). Raises `PackError`."""
    opened = _opened(str(path), _signature(Path(path)))
    if isinstance(opened, PackError):
        raise opened
    return opened


def _room_path() -> str | None:
    from ui.room.pack import room_pack_path  # the room module imports this one for its panel

    return room_pack_path()


def current_pack() -> Pack:
    """The pack this session's pages read (see the module docstring); never raises.

    A pack that cannot be opened leaves its problem in ``st.session_state[PROBLEM_KEY]`` and the
    session falls back to its language's built-in pack.
    """
    for source in (_room_path(), st.session_state.get(CHOICE_KEY)):
        if source:
            try:
                return open_cached(source)
            except PackError as exc:
                st.session_state[PROBLEM_KEY] = (source, exc.problems)
    return open_cached(builtin_packs()[default_pack_id(language())])


def pack_file(name: str) -> Path:
    """The current pack's content file ``name``; when the pack lacks it, the built-in pack's of the pack's
    language (the French one's when that has none either)."""
    pack = current_pack()
    fallback = builtin_packs().get(default_pack_id(pack.language), FRENCH_DIR) / name
    return pack.file(name) or (fallback if fallback.is_file() else FRENCH_DIR / name)


def pack_changed(page: str) -> bool:
    """True once after the pack the pages read has changed since the page's last run in this session.

    The first run of a page in a session is not a change: edits restored after a restart stay."""
    key, digest = APPLIED_PREFIX + page, current_pack().content_hash
    changed = key in st.session_state and st.session_state[key] != digest
    st.session_state[key] = digest
    return changed


def _options() -> dict[str, str]:
    """Label -> path of the packs offered in the sidebar: built-in ones, then those of ``EVALLIB_PACKS``."""
    options = {}
    for pack_id, path in builtin_packs().items():
        options[t("packs.builtin", id=pack_id)] = str(path)
    for path in environment_packs():
        options[t("packs.folder", name=path.name)] = str(path)
    return options


def session_options() -> dict[str, str]:
    """Label -> folder of the packs this session may choose, in the sidebar or for its room: those of
    `_options`, then the pack it uploaded (extracted on the server, where every participant's page finds
    it) and the pack it chose, when they are others and open."""
    options = _options()
    for path in (st.session_state.get(UPLOADED_KEY), st.session_state.get(CHOICE_KEY)):
        if path and path not in options.values():
            try:
                options[t("packs.uploaded", title=open_cached(path).title)] = path
            except PackError:
                pass
    return options


def _on_upload() -> None:
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None:  # the file removed from the uploader: the pack stays offered, its note goes
        st.session_state.pop(UPLOAD_NOTE_KEY, None)
        return
    accept_upload(upload.name, upload.getvalue())


def accept_upload(name: str, data: bytes) -> None:
    """Make the pack of the zip ``data`` (the file ``name``) this session's pack, offered in the sidebar's list
    from then on with a note naming it; a bad zip leaves its problems in ``st.session_state[PROBLEM_KEY]``
    and the session's pack as it was."""
    try:
        root = extract_zip(data, name)
        pack = open_cached(root)
    except PackError as exc:
        st.session_state[PROBLEM_KEY] = (name, exc.problems)
        st.session_state.pop(UPLOAD_NOTE_KEY, None)
        return
    st.session_state[CHOICE_KEY] = st.session_state[UPLOADED_KEY] = str(root)
    st.session_state[UPLOAD_NOTE_KEY] = pack.title
    st.session_state.pop(PROBLEM_KEY, None)


def _on_choice() -> None:
    st.session_state[CHOICE_KEY] = session_options().get(st.session_state[SELECT_KEY])
    st.session_state.pop(PROBLEM_KEY, None)
    st.session_state.pop(UPLOAD_NOTE_KEY, None)


def pack_sidebar() -> None:
    """The pack picker of the sidebar (inside ``st.sidebar``): the room's pack, shown, or a choice and an upload.

    The list shows the pack the pages read, whichever way it was chosen (an upload included)."""
    if _room_path():
        pack = current_pack()
        st.caption(t("packs.room_pack", title=pack.title, id=pack.id, version=pack.version))
        return
    pack = current_pack()
    options = session_options()
    current = next((label for label, path in options.items() if Path(path) == pack.root), None)
    if current is None:  # not offered (cannot happen unless a pack changed meanwhile): offered by its title
        current = t("packs.uploaded", title=pack.title)
        options[current] = str(pack.root)
    if st.session_state.get(SELECT_KEY) != current:  # an upload (or a fallback) changed the pack: the list follows
        st.session_state[SELECT_KEY] = current
    st.selectbox(t("packs.choose"), list(options), key=SELECT_KEY, on_change=_on_choice, persist_state="session",
                 help=t("packs.choose_help"))
    st.file_uploader(t("packs.upload"), type=["zip"], key=UPLOAD_KEY, on_change=_on_upload,
                     max_upload_size=UPLOAD_LIMIT_MB)
    if st.session_state.get(UPLOAD_NOTE_KEY) and Path(st.session_state.get(UPLOADED_KEY, "")) == pack.root:
        st.success(t("packs.upload_done", title=md(st.session_state[UPLOAD_NOTE_KEY], None)))
    show_problem()


def show_problem() -> None:
    """The last pack problem of this session, each line naming the file, the row and the field."""
    problem = st.session_state.get(PROBLEM_KEY)
    if problem:
        source, problems = problem
        st.error(plural("packs.problems", len(problems), source=Path(source).name) + "\n\n" + "\n".join(
            f"- {problem_text(p)}" for p in problems[:20]))


#: The detail whose value picks the sentence of a code that has several cases (``packs.problem.<code>.<value>``).
PROBLEM_CASES = {"unknown_file": "reason", "unsafe_path": "reason", "bad_zip": "reason", "duplicate_id": "item"}


def problem_text(problem) -> str:
    """One `evallib.packs.check.PackProblem` in the session's language, as Markdown, each thing said once: the
    file, then what is wrong, from the problem's code and values (``packs.problem.<code>``, or
    ``packs.problem.<code>.<case>``, see `PROBLEM_CASES`). The codes schema, invalid and other_pack carry a page
    parser's English message (the row, the field, why): their sentence names the kind of problem and quotes it
    once. A recording line is worded as the home page words it (`ui.failures.recording_problem_text`)."""
    details = problem.details
    if problem.code == "bad_recording":
        return recording_problem_text(RecordingProblem(problem.file, problem.row, details["reason"], details,
                                                       problem.message))
    key = f"packs.problem.{problem.code}"
    if problem.code in PROBLEM_CASES:
        key += f".{details.get(PROBLEM_CASES[problem.code])}"
    values = {name: integer(value) if isinstance(value, int) and not isinstance(value, bool) else literal(value)
              for name, value in {**details, "row": problem.row, "field": problem.field}.items()}
    text = t(key, **values, file=literal(problem.file) if problem.file else t("packs.whole_pack"),
             detail=literal(problem.message))
    if details.get("technical_text"):
        text += " " + t("failure.technical", text=literal(details["technical_text"]))
    return text

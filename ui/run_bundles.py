"""A page's run to take home and to load back: "Download this run (JSON)" and "Load a run" (docs/README.md#take-home).

One call per page, next to its other downloads::

    run_bundle_controls("trigger", make_bundle, load)

- ``make_bundle()`` returns the page's run bundle (`evallib.runs.bundle.make_run_bundle`, made_by "page");
  it runs when the user clicks (no cost on a page view). ``inputs`` (optional) are checked on every run
  for a key or a local path typed into them: the button is then replaced by the reason.
- ``load(bundle)`` receives a bundle already checked by `evallib.runs.bundle.read_run_bundle` for this
  page, checks the rest (its inputs, its requests) and returns what the page needs to show it again;
  it raises `RunBundleError` or `InputError` BEFORE changing anything, and then sets the page's own
  inputs (editors, sliders) in ``st.session_state``. Its return value is kept here: `loaded(page)`
  gives it back on every run until the user closes the loaded run (`close_loaded`).

A file that cannot be loaded (another page's, cut short, edited into nonsense, from a newer version)
is named in the session's language from the error's code and details, and nothing is loaded: the
page's state stays as it was. Loading runs in the uploader's callback, before the page is drawn.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

import streamlit as st

from evallib.errors import InputError
from evallib.llm.redaction import leak
from evallib.runs.bundle import MAX_BYTES, PAGES, RunBundleError, dumps, read_run_bundle
from ui.i18n import t
from ui.labels import md

#: Session state: per page, ``{"value": what load returned, "name": file name, "bundle": header fields}``.
LOADED_KEY = "_run_bundle_loaded"
#: Session state: per page, the last refusal in words ("" once a file loads).
ERROR_KEY = "_run_bundle_error"
#: Session state: the pages whose loaded run an edit closed, not yet said.
CLOSED_KEY = "_run_bundle_closed"
#: Session state: per page, a counter in the uploader's key (a new key empties the uploader).
VERSION_KEY = "_run_bundle_upload_version"
#: Reading codes of `evallib.runs.bundle.RunBundleError` worded by this module's texts.
CODES = ("too_large", "not_json", "not_object", "not_ours", "other_page", "newer_version", "schema",
         "unknown_answer", "leak", "inputs", "requests", "answers", "figures_differ")


def loaded(page: str):
    """What ``load`` returned for the run loaded on ``page`` (None: the page shows its own run)."""
    entry = st.session_state.get(LOADED_KEY, {}).get(page)
    return None if entry is None else entry["value"]


def close_loaded(page: str, edited: bool = False) -> None:
    """Stop showing the loaded run on ``page`` (the inputs it set stay as the page's inputs); ``edited``:
    because an input was edited, which the controls then say once (after any rerun of the page)."""
    if st.session_state.get(LOADED_KEY, {}).pop(page, None) is not None and edited:
        st.session_state.setdefault(CLOSED_KEY, set()).add(page)


def refusal(error: InputError) -> str:
    """Why a file was refused, in the session's language, from the error's code and details."""
    details = {k: v for k, v in error.details.items() if isinstance(v, (str, int, float))}
    if isinstance(error, RunBundleError) and error.code in CODES:
        if error.code == "other_page":
            page = str(details.get("page", ""))
            details["page"] = t(f"{page}.nav") if page in PAGES else page
        if error.code == "requests" and isinstance(details.get("index"), int):
            details["index"] += 1  # counted from 1 for a reader
        if error.code == "leak":
            details["kind"] = t(f"run_bundles.leak.{details.get('kind')}") \
                if details.get("kind") in ("key", "url_credentials", "local_path") else details.get("kind", "")
        return t(f"run_bundles.error.{error.code}", **{k: details.get(k, "") for k in ("size", "limit", "page",
                                                                                        "version", "supported",
                                                                                        "path", "key", "kind",
                                                                                        "field", "index")})
    return t("run_bundles.error.other", code=error.code)


def load_file(page: str, name: str, raw: bytes, load: Callable[[dict], object]) -> bool:
    """Check ``raw`` as a run of ``page`` and load it; False (with the refusal kept) when refused."""
    try:
        bundle = read_run_bundle(raw, page)
        value = load(bundle)
    except InputError as error:
        st.session_state.setdefault(ERROR_KEY, {})[page] = t("run_bundles.refused", file=md(name),
                                                             reason=refusal(error))
        return False
    header = {k: bundle[k] for k in ("made_by", "created_at", "app_version")}
    st.session_state.setdefault(LOADED_KEY, {})[page] = {"value": value, "name": name, "bundle": header}
    st.session_state.setdefault(ERROR_KEY, {})[page] = ""
    return True


def _on_upload(page: str, key: str, load: Callable[[dict], object]) -> None:
    upload = st.session_state.get(key)
    if upload is None:
        return
    load_file(page, upload.name, upload.getvalue(), load)
    versions = st.session_state.setdefault(VERSION_KEY, {})
    versions[page] = versions.get(page, 0) + 1  # empty the uploader: the same file can be loaded again


def _file(make_bundle: Callable[[], dict]) -> bytes:
    """The bundle's bytes, built on click; a refusal found only then (a secret in an answer) is written in
    the file's place as ``{"error": code, "message": ...}``, which no page loads."""
    try:
        return dumps(make_bundle())
    except InputError as error:
        return json.dumps({"error": error.code, "message": str(error)}).encode("utf-8")


def run_bundle_controls(page: str, make_bundle: Callable[[], dict], load: Callable[[dict], object],
                        inputs: Mapping | None = None, container=st, found: str | None = None) -> None:
    """The download button of this run and the uploader of a run (module docstring); ``inputs``: what the
    user typed, checked for a key or a local path on every run (cheap), so that the button is not offered;
    ``found``: the kind of secret already found in inputs too large to scan on every run (an uploaded
    file, scanned once per upload: `ui.ratings_input.Upload.secret`), left out of ``inputs``."""
    row = container.container(horizontal=True, gap="small", vertical_alignment="bottom")
    kind = found or (leak(inputs) if inputs is not None else None)
    if kind is not None:
        row.warning(t("run_bundles.cannot_write", reason=refusal(RunBundleError("leak", "", kind=kind))))
    else:
        row.download_button(t("run_bundles.download"), data=lambda: _file(make_bundle), file_name=f"{page}-run.json",
                            mime="application/json", on_click="ignore", key=f"run_bundle_download_{page}",
                            icon=":material/download:", help=t("run_bundles.download_help"))
    key = f"run_bundle_upload_{page}_{st.session_state.get(VERSION_KEY, {}).get(page, 0)}"
    row.file_uploader(t("run_bundles.upload"), type=["json"], key=key, on_change=_on_upload,
                      args=(page, key, load), help=t("run_bundles.upload_help"), max_upload_size=MAX_BYTES // 2**20)
    problem = st.session_state.get(ERROR_KEY, {}).get(page)
    if problem:
        container.error(problem)
    if page in st.session_state.get(CLOSED_KEY, set()):
        st.session_state[CLOSED_KEY].discard(page)
        container.info(t("run_bundles.closed_by_edit"))
    entry = st.session_state.get(LOADED_KEY, {}).get(page)
    if entry is not None:
        header = entry["bundle"]
        container.info(t("run_bundles.showing", file=md(entry["name"]), date=header["created_at"][:10],
                         by=t(f"run_bundles.made_by.{header['made_by']}"), version=header["app_version"]))
        container.button(t("run_bundles.close"), key=f"run_bundle_close_{page}", on_click=close_loaded, args=(page,))

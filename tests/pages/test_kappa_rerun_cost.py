"""The kappa page's rerun cost: what depends only on the uploaded file runs once per upload
(docs/README.md#rerun-cost: a rerun with a 1,000,000-item file took 14.7x a home page rerun, growing
with the size, because the run bundle's secret check decoded and scanned the whole file on every rerun).
Counted, not timed."""

from __future__ import annotations

import evallib.llm.redaction as redaction
from tests.pages.test_kappa_page import open_page, upload
from ui.i18n import catalogue

#: A rater name found only in the uploaded file: a scanned string holding it is the file's text.
MARKER = "rater_only_in_this_file"
CSV = f"judge_a,{MARKER}\npass,pass\nfail,pass\npass,fail\nfail,fail\npass,pass\n".encode()


def _count_file_scans(monkeypatch) -> list[int]:
    """Patch the secret scanner's walk over strings: one entry per scanned string holding the file."""
    scans, walk, inside = [], redaction.strings, []

    def counting(value):
        if inside:  # the walk's own recursion: counted by the outer call
            yield from walk(value)
            return
        inside.append(True)
        try:
            for text in walk(value):
                if MARKER in text and "\n" in text:
                    scans.append(len(text))
                yield text
        finally:
            inside.pop()

    monkeypatch.setattr(redaction, "strings", counting)
    return scans


def test_the_uploaded_file_is_scanned_for_secrets_once_whatever_the_reruns(monkeypatch):
    scans = _count_file_scans(monkeypatch)
    at = upload(open_page("en"), "ratings.csv", CSV)
    for _ in range(3):
        at.run()
    at.session_state["lang"] = "fr"
    at.run()
    assert not at.exception
    assert at.get("download_button") and any(b.proto.id for b in at.get("download_button"))
    assert len(scans) == 1, f"the file's text was scanned {len(scans)} times over 5 runs"


def test_a_key_in_the_file_still_withholds_the_run_on_every_rerun():
    at = upload(open_page("en"), "keys.csv", b"a,b\nsk-abcdefghijklmnopqrstuvwx,pass\nfail,pass\npass,pass\n")
    refused = catalogue()["run_bundles.cannot_write"]["en"].split("{")[0].strip()
    for _ in range(2):
        at.run()
        assert not at.exception
        assert any(refused in w.value for w in at.warning), [w.value for w in at.warning]
        assert not [b for b in at.get("download_button") if "run_bundle_download_kappa" in b.proto.id]

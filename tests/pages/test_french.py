"""French mode has no English of ours (docs/README.md#readings): not in the catalogue, not in what the pages show,
including the messages that pass a field name or a line number through from evallib.

English may remain where it is data or code: names and texts the user typed, model answers, the GNSS spec
(in English on purpose, its caption says so), source code shown on request, and `literal` spans in code font.
"""

import json
import re

import pytest

from tests.pages.shown_tables import results_tables
from ui.i18n import catalogue

#: English words of ours that French never uses ("or", "file", "note", "a" and "on" are French words too).
ENGLISH = {"the", "and", "of", "with", "is", "are", "line", "field", "from", "this", "that", "which", "must",
           "should", "expected", "required", "missing", "only", "row", "column", "value", "error", "not",
           "undefined", "unknown", "empty", "invalid", "please", "were", "has", "have", "None", "True", "False"}
#: Elements that show data or code rather than our sentences.
DATA_ELEMENTS = ("code", "text")


def english_words(text: str) -> set[str]:
    """English words of ours in ``text``, outside code spans and placeholders; "None" only as Python writes it."""
    prose = re.sub(r"`[^`]*`|\{[^}]*\}", " ", text)
    words = set(re.findall(r"[A-Za-zÀ-ÿ]+", prose.replace("\\", "")))
    return {w for w in words if w in ("None", "True", "False") or (w.lower() in ENGLISH and w not in ("None",))}


def shown(at) -> list[str]:
    """Every sentence, title, label and column title a participant reads on the page."""
    texts = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        texts += [e.value for e in at.get(kind)]
    texts += [m.label for m in at.metric] + [str(m.value) for m in at.metric]
    texts += [str(c) for table in results_tables(at) for c in table.columns]
    return texts


def test_the_french_catalogue_holds_no_english_word_of_ours():
    found = {key: english_words(" ".join(texts["fr"]) if isinstance(texts["fr"], tuple) else texts["fr"])
             for key, texts in catalogue().items()}  # a plural message: every form
    assert not {key: words for key, words in found.items() if words}


def test_the_scan_finds_what_it_looks_for():
    assert english_words("champ « expected » : ligne None") == {"expected", "None"}
    assert english_words("la valeur `expected` est notée, ou none si aucun") == set()


def _french_page_without_english(at) -> None:
    assert not at.exception
    leaks = {text: english_words(text) for text in shown(at)}
    assert not {text: words for text, words in leaks.items() if words}


@pytest.mark.parametrize("page", ["home", "persona", "kappa", "trigger", "judge", "gnss"])
def test_each_page_opens_in_french_without_english_of_ours(open_page, page):
    _french_page_without_english(open_page(f"pages/{page}.py", "fr"))


def _upload(at, key: str, name: str, data: bytes):
    at.file_uploader(key=key).set_value((name, data, "application/octet-stream")).run()
    return at


def test_a_query_file_that_is_not_utf8_is_not_said_to_fail_on_line_none(open_page):
    at = _upload(open_page("pages/trigger.py"), "trigger_upload_queries", "requetes.json", b"\xff\xfe{\"queries\": []}")
    [message] = [e.value for e in list(at.error) + list(at.warning) if "requetes" in e.value]
    assert "UTF-8" in message and "None" not in message and "ligne" not in message
    _french_page_without_english(at)


def test_a_query_with_a_wrong_expected_skill_names_the_column_as_the_editor_titles_it(open_page):
    from evallib.triggering.data import DEFAULT_QUERIES
    data = json.loads(DEFAULT_QUERIES.read_text(encoding="utf-8"))
    data["queries"][2]["expected"] = "skill-inconnu"
    at = _upload(open_page("pages/trigger.py"), "trigger_upload_queries", "q.json", json.dumps(data).encode())
    [message] = [e.value.replace("\xa0", " ") for e in list(at.error) + list(at.warning) if "q.json" in e.value]
    assert "requête 3, champ « attendu »" in message and "expected" not in message
    data["queries"][2] = {k: v for k, v in data["queries"][2].items() if k != "query"}
    at = _upload(open_page("pages/trigger.py"), "trigger_upload_queries", "q.json", json.dumps(data).encode())
    [message] = [e.value.replace("\xa0", " ") for e in list(at.error) + list(at.warning) if "q.json" in e.value]
    assert "champ « requête » : manquant" in message
    _french_page_without_english(at)


def test_a_case_file_with_a_schema_error_names_the_column_in_french(open_page):
    from evallib.judging.data import load_cases
    cases = json.loads(load_cases.__defaults__[0].read_text(encoding="utf-8"))
    cases["cases"][0]["difficulty"] = "extrême"
    at = _upload(open_page("pages/judge.py"), "judge_cases_upload", "cas.json", json.dumps(cases).encode())
    [message] = [e.value.replace("\xa0", " ") for e in at.error if "cas" in e.value]
    assert "champ Difficulté" in message and "difficulty" not in message
    _french_page_without_english(at)


def test_a_persona_file_that_is_not_utf8_ends_its_sentence_once(open_page):
    at = _upload(open_page("pages/persona.py"), "persona_upload", "cat.json", b"\xff\xfe{}")
    messages = [e.value for e in list(at.error) + list(at.warning) if "UTF-8" in e.value]
    assert messages and not any(".." in m for m in messages)

"""The gettext catalogues: every message translated in every language, plurals chosen by a count, no
bracketed plural left, every key the code names present, and a third language that needs only a catalogue."""

import json
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from ui.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, catalogue, t

ROOT = Path(__file__).resolve().parents[2]
#: A noun or adjective with a bracketed plural ending: "réponse(s)", "retry(ies)", "notée(s)".
BRACKETED_PLURAL = re.compile(r"\w\((?:s|e|es|x|ies)\)")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _read(lang: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        return read_po(po, locale=lang)


def _used_keys(function: str) -> list[tuple[str, str]]:
    """(file, key) for every literal key of a ``function(key, ...)`` call, as ``pybabel extract -k function`` finds them."""
    found = []
    for folder, pattern in (("pages", "**.py"), ("ui", "**.py"), (".", "app.py")):
        for name, _, key, _, _ in extract_from_dir(ROOT / folder, method_map=[(pattern, "python")],
                                                   keywords={function: None}, comment_tags=()):
            found.append((f"{folder}/{name}", key))
    return found


def test_there_are_two_catalogues_at_least_french_first():
    assert LANGUAGES[:2] == ("fr", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_in_each_catalogue_with_the_same_placeholders(lang):
    reference, here = _read("en"), _read(lang)
    assert here.plural_forms == Catalog(locale=lang).plural_forms  # the language's own rule (Babel's table)
    problems = []
    for message in reference:
        if not message.id:
            continue
        mine = here.get(message.id)
        if mine is None:
            problems.append(f"{message.id}: missing")
            continue
        forms = mine.string if isinstance(mine.string, tuple) else (mine.string,)
        if mine.fuzzy or not all(form.strip() for form in forms):
            problems.append(f"{message.id}: untranslated or fuzzy")
        if isinstance(mine.id, tuple) != isinstance(message.id, tuple) or len(forms) != (here.num_plurals
                                                                                      if isinstance(mine.id, tuple) else 1):
            problems.append(f"{message.id}: not the same kind of message (plural or not) or not every plural form")
        english = message.string if isinstance(message.string, tuple) else (message.string,)
        if {f for form in forms for f in _fields(form)} - {"n"} != {f for form in english for f in _fields(form)} - {"n"}:
            problems.append(f"{message.id}: placeholders differ from English")
    extra = [m.id for m in here if m.id and reference.get(m.id) is None]
    assert problems == [] and extra == []


def test_every_plural_message_is_chosen_by_a_count_and_every_other_message_is_not():
    """A plural message goes through ``plural(key, n)`` (ngettext), its "other" form shows the count
    ``{n}``; a text asked with ``t`` is never a plural message (its count would not choose the form)."""
    plural_ids = {key for key, texts in catalogue().items() if isinstance(texts["en"], tuple)}
    assert len(plural_ids) >= 20
    wrong = [(where, key) for where, key in _used_keys("t") if key in plural_ids]
    wrong += [(where, key) for where, key in _used_keys("plural") if key not in plural_ids]
    for key in plural_ids:
        for lang in LANGUAGES:
            if "{n}" not in catalogue()[key][lang][-1]:
                wrong.append((lang, key))
    assert wrong == []


def test_every_literal_key_used_in_the_code_is_in_the_catalogue():
    used = _used_keys("t") + _used_keys("plural")
    assert len(used) > 800
    missing = [(where, key) for where, key in used if key not in catalogue()]
    assert missing == []


def test_no_text_fakes_a_plural_with_brackets():
    """"0 participant(s)", "réponse(s)": a text that counts is a plural message, its form chosen by ngettext."""
    bad = [(key, lang) for key, texts in catalogue().items() for lang, text in texts.items()
           for form in (text if isinstance(text, tuple) else (text,)) if BRACKETED_PLURAL.search(form)]
    assert bad == []


def test_a_text_may_take_a_value_named_key():
    """A GNSS answer with an unexpected field is described with {key} (before: TypeError on the page)."""
    assert "confidence" in t("gnss.problem.unexpected_key", key="confidence")


def _pseudo(text: str) -> str:
    """English made recognisable and longer, placeholders and markdown markers kept: "⟦Ŝéé ţĥé ćóðé⟧"."""
    accents = str.maketrans("aceinosuyACEINOSUY", "áçéîñøšüýÁÇÉÎÑØŠÜÝ")
    parts = re.split(r"(\{[^{}]*\}|\*\*|`[^`]*`|\[[^\]]*\]\([^)]*\)|https?://\S+)", text)
    return "⟪" + "".join(p if i % 2 else p.translate(accents) for i, p in enumerate(parts)) + "⟫"


PSEUDO_RUN = """
import json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=60)
at.session_state["lang"] = "de"
at.run()
print(json.dumps({"exceptions": [e.value for e in at.exception], "titles": [h.value for h in at.title],
                  "markdown": [m.value for m in at.markdown], "radios": [r.options for r in at.sidebar.radio]}))
import streamlit as st
from ui.i18n import number, percent
st.session_state["lang"] = "de"
print(json.dumps([number(1234.5, ",.1f"), percent(0.25)]))
"""


def test_a_third_language_needs_only_a_new_catalogue(tmp_path):
    """A pseudo-German catalogue written from the English one, and nothing else: the app offers it by its
    own name, shows its texts and writes numbers as German does (Babel's CLDR data for "de")."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale)
    english, pseudo = _read("en"), Catalog(locale="de", domain=DOMAIN)
    for message in english:
        if message.id:
            forms = message.string if isinstance(message.string, tuple) else None
            pseudo.add(message.id, tuple(_pseudo(f) for f in forms) if forms else _pseudo(message.string))
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (locale / "de" / "LC_MESSAGES" / f"{DOMAIN}.po").open("wb") as po:
        write_po(po, pseudo)
    done = subprocess.run([sys.executable, "-c", PSEUDO_RUN], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "EVALLIB_LOCALE_DIR": str(locale)})
    assert done.returncode == 0, done.stderr[-3000:]
    *_, page, figures = done.stdout.strip().splitlines()
    shown = json.loads(page)
    assert json.loads(figures) == ["1.234,5", "25\u00a0%"]
    assert shown["exceptions"] == []
    assert shown["titles"] == [_pseudo(english.get("home.title").string)]
    assert ["Français", "English", "Deutsch"] in [options for options in shown["radios"]]
    assert all(text.startswith("⟪") for text in shown["markdown"] if text.strip() and not text.startswith("<"))

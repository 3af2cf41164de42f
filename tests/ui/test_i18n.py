"""Every UI string has a French and an English text with the same placeholders, and every key used exists."""

import re
import string
from pathlib import Path

from ui.i18n import LANGUAGES, catalogue, t

ROOT = Path(__file__).resolve().parents[2]
USED_KEY = re.compile(r"""\bt\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_text_exists_in_both_languages_with_the_same_placeholders():
    problems = []
    for key, texts in catalogue().items():
        if set(texts) != set(LANGUAGES):
            problems.append(f"{key}: languages {sorted(texts)}")
        elif _fields(texts["fr"]) != _fields(texts["en"]):
            problems.append(f"{key}: placeholders differ")
        elif not all(texts[lang].strip() for lang in LANGUAGES):
            problems.append(f"{key}: empty text")
    assert problems == []


def test_every_literal_key_used_in_the_code_is_in_the_catalogue():
    known = catalogue()
    missing = []
    for path in [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py")]:
        for key in USED_KEY.findall(path.read_text(encoding="utf-8")):
            if key not in known:
                missing.append(f"{path.name}: {key}")
    assert missing == []


def test_a_text_may_take_a_value_named_key():
    """A GNSS answer with an unexpected field is described with {key} (before: TypeError on the page)."""
    assert "confidence" in t("gnss.problem.unexpected_key", key="confidence")

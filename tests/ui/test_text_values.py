"""A text's values may use any name, ``key`` included (GNSS schema problems name the key at fault)."""

from ui.i18n import t


def test_a_value_named_key_is_substituted_not_taken_for_the_texts_key():
    text = t("gnss.problem.missing_key", key="offset_day")
    assert text.startswith("clé") and "offset_day" in text and text.endswith("absente")

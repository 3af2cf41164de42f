"""What a browser in a given language shows for a message: the browser tests' one way to read the catalogues."""

from ui.i18n import is_plural, text_in


def text(key: str, lang: str = "fr", **values) -> str:
    """The text of ``key`` in ``lang``, formatted with ``values``; a plural message's form chosen by the value ``n``."""
    return text_in(lang, key, values["n"] if is_plural(key) else None, **values)

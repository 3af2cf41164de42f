"""Texts of the shared formatters (ui/i18n.py, ui/labels.py)."""

TEXTS = {
    "format.undefined": {"fr": "non défini", "en": "undefined"},
    # A list of names cut short: "a, b, c et 4 997 autres".
    "format.more.one": {"fr": "{shown} et {n} autre", "en": "{shown} and {n} more"},
    "format.more.other": {"fr": "{shown} et {n} autres", "en": "{shown} and {n} more"},
}

"""Texts of the "see the code" expanders (ui/code_view.py)."""

TEXTS = {
    "code_view.functions": {"fr": "Le code qui a calculé ces résultats : {names}.",
                            "en": "The code that computed these results: {names}."},
}

"""Texts shared by the app shell, the sidebar and every page."""

TEXTS = {
    "common.language": {"fr": "Langue", "en": "Language"},
    "home.nav": {"fr": "Accueil", "en": "Home"},
    "home.title": {"fr": "Atelier d'évaluation des LLM", "en": "LLM evaluation workshop"},
}

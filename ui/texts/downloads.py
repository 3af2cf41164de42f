"""Texts of the results downloads (ui/downloads.py)."""

TEXTS = {
    "downloads.csv": {"fr": "CSV", "en": "CSV"},
    "downloads.json": {"fr": "JSON", "en": "JSON"},
    "downloads.csv_help": {
        "fr": "Ce tableau en CSV (UTF-8) : les valeurs elles-mêmes, nombres avec un point décimal et en précision "
              "complète, codes plutôt que libellés traduits, pour un tableur ou un script.",
        "en": "This table as CSV (UTF-8): the values themselves, numbers with a decimal point and at full "
              "precision, codes rather than translated labels, for a spreadsheet or a script."},
    "downloads.json_help": {
        "fr": "Ce tableau en JSON : les mêmes valeurs, intervalles et listes gardés imbriqués.",
        "en": "This table as JSON: the same values, intervals and lists kept nested."},
    "downloads.kappa_table": {"fr": "Le tableau de contingence :", "en": "The contingency table:"},
    "downloads.kappa_coefficients": {"fr": "Tous les coefficients de la paire :", "en": "Every coefficient of the pair:"},
}

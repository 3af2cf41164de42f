"""Texts of the run bundles: download this run, load a run (ui/run_bundles.py)."""

TEXTS = {
    "run_bundles.download": {"fr": "Télécharger ce run (JSON)", "en": "Download this run (JSON)"},
    "run_bundles.download_help": {
        "fr": "Tout ce run dans un seul fichier : les entrées telles que modifiées, les requêtes, les réponses avec "
              "leur provenance, les chiffres et les lectures, la version de l'application. Jamais de clé ni de "
              "chemin de cette machine. Le fichier se recharge dans cette page, ici ou sur une autre machine.",
        "en": "This whole run in one file: the inputs as edited, the requests, the answers with their provenance, "
              "the figures and readings, the app version. Never a key nor a path of this machine. The file loads "
              "back into this page, here or on another machine."},
    "run_bundles.upload": {"fr": "Charger un run", "en": "Load a run"},
    "run_bundles.upload_help": {
        "fr": "Un fichier téléchargé par le bouton « Télécharger ce run » de cette page, ou écrit par sa commande "
              "(`python -m evallib … --out`). La page montre alors ce run, hors ligne, tel qu'il était.",
        "en": "A file downloaded with this page's \"Download this run\" button, or written by its command "
              "(`python -m evallib … --out`). The page then shows that run, offline, as it was."},
    "run_bundles.showing": {
        "fr": "Cette page montre le run chargé depuis {file} (fait par {by} le {date}, version {version} de "
              "l'application) : ses entrées et ses réponses, les chiffres recalculés.",
        "en": "This page shows the run loaded from {file} (made by {by} on {date}, app version {version}): its "
              "inputs and its answers, the figures computed again."},
    "run_bundles.made_by.page": {"fr": "la page", "en": "the page"},
    "run_bundles.made_by.cli": {"fr": "la ligne de commande", "en": "the command line"},
    "run_bundles.close": {"fr": "Fermer le run chargé", "en": "Close the loaded run"},
    "run_bundles.closed_by_edit": {
        "fr": "Les entrées ont été modifiées : le run chargé est fermé, la page reprend ses propres réponses.",
        "en": "The inputs were edited: the loaded run is closed, the page goes back to its own answers."},
    "run_bundles.refused": {
        "fr": "Le fichier {file} n'a pas été chargé : {reason} Rien n'a changé sur la page.",
        "en": "The file {file} was not loaded: {reason} Nothing changed on the page."},
    "run_bundles.cannot_write": {
        "fr": "Ce run ne peut pas être téléchargé : {reason}",
        "en": "This run cannot be downloaded: {reason}"},
    "run_bundles.error.too_large": {
        "fr": "il fait {size} octets, au plus {limit} sont lus.",
        "en": "it has {size} bytes, at most {limit} are read."},
    "run_bundles.error.not_json": {
        "fr": "ce n'est pas du JSON (fichier tronqué ou modifié ?).",
        "en": "it is not JSON (a cut or edited file?)."},
    "run_bundles.error.not_object": {
        "fr": "un run est un objet JSON, ce fichier n'en est pas un.",
        "en": "a run is a JSON object, this file is not one."},
    "run_bundles.error.not_ours": {
        "fr": "ce n'est pas un run de cette application (pas de format « evallib-run »).",
        "en": "it is not a run of this app (no \"evallib-run\" format)."},
    "run_bundles.error.other_page": {
        "fr": "c'est un run de la page {page}, chargez-le dans cette page-là.",
        "en": "it is a run of the {page} page; load it into that page."},
    "run_bundles.error.newer_version": {
        "fr": "il a été écrit au format {version}, cette version de l'application lit jusqu'au format {supported}. "
              "Mettez l'application à jour.",
        "en": "it was written in format {version}, this version of the app reads up to format {supported}. "
              "Update the app."},
    "run_bundles.error.schema": {
        "fr": "son contenu ne suit pas le format d'un run, à l'endroit « {path} ».",
        "en": "its content does not follow the format of a run, at \"{path}\"."},
    "run_bundles.error.unknown_answer": {
        "fr": "une réponse renvoie à une requête absente du fichier ({key}).",
        "en": "an answer refers to a request missing from the file ({key})."},
    "run_bundles.error.leak": {
        "fr": "il contient ce qui ressemble à {kind} ; il est refusé.",
        "en": "it holds what looks like {kind}; it is refused."},
    "run_bundles.leak.key": {"fr": "une clé d'API", "en": "an API key"},
    "run_bundles.leak.url_credentials": {"fr": "une adresse qui porte un identifiant, un jeton ou un mot de passe",
                                         "en": "an address carrying a user name, a token or a password"},
    "run_bundles.leak.local_path": {"fr": "un chemin de cette machine", "en": "a path of this machine"},
    "run_bundles.error.inputs": {
        "fr": "ses entrées ne forment pas un run valide de cette page (champ « {field} »).",
        "en": "its inputs are not a valid run of this page (field \"{field}\")."},
    "run_bundles.error.requests": {
        "fr": "la requête n° {index} ne demande pas ce que ses entrées construisent (fichier modifié ?).",
        "en": "request number {index} does not ask what its inputs build (an edited file?)."},
    "run_bundles.error.answers": {
        "fr": "ses réponses ne se lisent pas comme des réponses de cette page.",
        "en": "its answers do not read as answers of this page."},
    "run_bundles.error.figures_differ": {
        "fr": "ses chiffres ne sont pas ceux que donnent ses entrées et ses réponses (à « {path} ») : a-t-il été "
              "modifié à la main ?",
        "en": "its figures are not those its inputs and answers give (at \"{path}\"): was it edited by hand?"},
    "run_bundles.error.other": {
        "fr": "il n'est pas utilisable ici (code « {code} »).",
        "en": "it cannot be used here (code \"{code}\")."},
}

"""Texts of the room's endpoint (ui/room/endpoint.py): the instructor's form and the participant's switch."""

from ui.texts.kappa import french_spacing

TEXTS = {
    "room_endpoint.title": {"fr": "Modèle de la salle", "en": "The room's model"},
    "room_endpoint.intro": {
        "fr": "Un serveur de modèle pour toute la salle : chaque participant passe en direct par lui d'un seul "
              "interrupteur, sans rien taper. La clé reste sur le serveur de l'application : elle n'est jamais "
              "envoyée à un navigateur, ni gardée dans un essai ou un export.",
        "en": "One model server for the whole room: each participant goes live through it with one switch, "
              "typing nothing. The key stays on the app's server: it is never sent to a browser, nor kept in "
              "an attempt or an export."},
    "room_endpoint.key": {"fr": "Clé d'API", "en": "API key"},
    "room_endpoint.key_help": {
        "fr": "Laissée vide : la clé déjà enregistrée est gardée (elle n'est jamais réaffichée).",
        "en": "Left empty: the key already stored is kept (it is never shown again)."},
    "room_endpoint.save": {"fr": "Enregistrer le modèle de la salle", "en": "Save the room's model"},
    "room_endpoint.clear": {"fr": "Retirer le modèle de la salle", "en": "Remove the room's model"},
    "room_endpoint.saved": {
        "fr": "Modèle de la salle enregistré : les participants peuvent l'utiliser.",
        "en": "The room's model is saved: participants can use it."},
    "room_endpoint.cleared": {"fr": "Modèle de la salle retiré.", "en": "The room's model is removed."},
    "room_endpoint.current": {
        "fr": "En service : {model} sur {url} ({key}).", "en": "In use: {model} at {url} ({key})."},
    "room_endpoint.key_set": {"fr": "clé enregistrée", "en": "key stored"},
    "room_endpoint.no_key": {"fr": "sans clé", "en": "no key"},
    "room_endpoint.bad.kind": {"fr": "Choisissez le type de serveur.", "en": "Choose the kind of server."},
    "room_endpoint.bad.base_url": {
        "fr": "L'URL de base doit commencer par http:// ou https:// suivi d'un hôte (identifiant:mot-de-passe@ "
              "accepté), par exemple http://localhost:11434/v1.",
        "en": "The base URL must start with http:// or https:// and a host (user:password@ accepted), e.g. "
              "http://localhost:11434/v1."},
    "room_endpoint.bad.model": {"fr": "Indiquez le modèle.", "en": "Name the model."},
    "room_endpoint.switch": {"fr": "Utiliser le modèle de la salle", "en": "Use the room's model"},
    "room_endpoint.switch_help": {
        "fr": "En direct par le serveur que l'animateur a choisi pour la salle, à tour de rôle avec les autres "
              "participants. Rien à taper ; sa clé reste sur le serveur.",
        "en": "Live through the server the instructor chose for the room, taking turns with the other "
              "participants. Nothing to type; its key stays on the server."},
    "room_endpoint.in_use": {
        "fr": "En direct : {model} sur {url} ({kind}).", "en": "Live: {model} at {url} ({kind})."},
}

for _texts in TEXTS.values():
    _texts["fr"] = french_spacing(_texts["fr"])

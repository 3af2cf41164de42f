"""Texts of the shared sidebar."""

TEXTS = {
    "sidebar.mode": {"fr": "Source des réponses", "en": "Where answers come from"},
    "sidebar.mode_help": {
        "fr": "Hors ligne : réponses enregistrées, sans réseau. En direct : un vrai modèle. "
              "En direct + enregistrer : chaque nouvelle réponse rejoint les enregistrements.",
        "en": "Offline: recorded answers, no network. Live: a real model. "
              "Live + record: every new answer is added to the recordings.",
    },
    "sidebar.mode.offline": {"fr": "Hors ligne (enregistrements)", "en": "Offline (recordings)"},
    "sidebar.mode.live": {"fr": "En direct", "en": "Live"},
    "sidebar.mode.live_record": {"fr": "En direct + enregistrer", "en": "Live + record"},
    "sidebar.offline_note": {
        "fr": "Aucun appel réseau : chaque page rejoue les réponses du dossier recordings/.",
        "en": "No network calls: every page replays the answers stored in recordings/.",
    },
    "sidebar.kind": {"fr": "Fournisseur", "en": "Provider"},
    "sidebar.kind.openai": {"fr": "Compatible OpenAI", "en": "OpenAI-compatible"},
    "sidebar.kind_help": {"fr": "Compatible OpenAI : Ollama, vLLM, llama.cpp ou une API hébergée.",
                          "en": "OpenAI-compatible: Ollama, vLLM, llama.cpp or a hosted API."},
    "sidebar.kind.anthropic": {"fr": "Anthropic", "en": "Anthropic"},
    "sidebar.base_url": {"fr": "URL de base", "en": "Base URL"},
    "sidebar.base_url_help": {
        "fr": "Ollama : http://localhost:11434/v1 · vLLM : http://localhost:8000/v1 · "
              "llama.cpp : http://localhost:8080/v1 · l'API OpenAI hébergée : https://api.openai.com/v1.",
        "en": "Ollama: http://localhost:11434/v1 · vLLM: http://localhost:8000/v1 · "
              "llama.cpp: http://localhost:8080/v1 · the hosted OpenAI API: https://api.openai.com/v1.",
    },
    "sidebar.base_url_help_anthropic": {
        "fr": "Vide : l'API hébergée d'Anthropic. Un proxy qui sert /v1/messages (LiteLLM, par exemple "
              "http://localhost:4000) : son adresse, avec ou sans /v1.",
        "en": "Empty: Anthropic's hosted API. A proxy serving /v1/messages (LiteLLM, e.g. "
              "http://localhost:4000): its address, with or without /v1.",
    },
    "sidebar.no_base_url": {
        "fr": "Tapez l'URL de base de votre serveur de modèle, par exemple http://localhost:11434/v1 (Ollama) ; "
              "pour l'API OpenAI hébergée : https://api.openai.com/v1.",
        "en": "Type the base URL of your model server, e.g. http://localhost:11434/v1 (Ollama); for the hosted "
              "OpenAI API: https://api.openai.com/v1.",
    },
    "sidebar.bad_url": {
        "fr": "L'URL de base doit commencer par http:// ou https:// suivi d'un hôte, par exemple "
              "http://localhost:11434/v1.",
        "en": "The base URL must start with http:// or https:// and a host, e.g. http://localhost:11434/v1.",
    },
    "sidebar.api_key": {"fr": "Clé d'API", "en": "API key"},
    "sidebar.api_key_help": {
        "fr": "Gardée pour cette session du navigateur seulement : jamais écrite sur disque, "
              "ni dans un enregistrement, ni montrée dans un message. Un serveur local n'en demande pas.",
        "en": "Kept for this browser session only: never written to disk or to a recording, "
              "never shown in a message. A local server needs none.",
    },
    "sidebar.key_asked_again": {
        "fr": "Vos réglages sont revenus après le redémarrage du serveur, mais pas la clé d'API : elle n'est "
              "jamais écrite nulle part, seule cette session la garde. Saisissez-la de nouveau.",
        "en": "Your settings came back after the server restarted, but not the API key: it is never written "
              "anywhere, only this session holds it. Please type it again.",
    },
    "sidebar.model": {"fr": "Modèle", "en": "Model"},
    "sidebar.model_free_help": {
        "fr": "Le nom exact du modèle, par exemple llama3.2 pour Ollama.",
        "en": "The exact model name, e.g. llama3.2 for Ollama.",
    },
    "sidebar.model_placeholder": {"fr": "Choisissez un modèle", "en": "Choose a model"},
    "sidebar.models_unavailable": {
        "fr": "Vérification de la clé et du modèle : la liste des modèles n'a pas pu être lue ({kind}). "
              "{reason} Vérifiez la clé et l'URL, ou saisissez le nom à la main.",
        "en": "Key and model check: the model list could not be read ({kind}). {reason} Check the key and "
              "the URL, or type the name.",
    },
    "sidebar.prefill": {"fr": "Le modèle accepte un début de réponse imposé (prefill)",
                        "en": "The model accepts an assistant prefill"},
    "sidebar.prefill_help": {
        "fr": "Les modèles Claude récents le refusent (erreur 400) : désactivez, la page passe alors "
              "par un outil imposé.",
        "en": "Recent Claude models refuse it (HTTP 400): turn it off and pages use a forced tool instead.",
    },
    "sidebar.concurrency": {"fr": "Requêtes simultanées", "en": "Concurrent requests"},
    "sidebar.concurrency_help": {
        "fr": "Baissez-la si le serveur renvoie des erreurs 429 (trop de requêtes).",
        "en": "Lower it if the server answers 429 (too many requests).",
    },
    "sidebar.timeout": {"fr": "Délai maximal par requête (s)", "en": "Timeout per request (s)"},
    "sidebar.use_cache": {"fr": "Réutiliser les réponses déjà obtenues", "en": "Reuse answers already obtained"},
    "sidebar.use_cache_help": {
        "fr": "Une requête identique (même modèle, mêmes messages, mêmes paramètres, même numéro de "
              "répétition) reçoit la réponse gardée en cache au lieu d'un nouvel appel.",
        "en": "An identical request (same model, messages, parameters and repeat index) gets the "
              "cached answer instead of a new call.",
    },
    "sidebar.present": {"fr": "Mode présentation", "en": "Presentation mode"},
    "sidebar.present_help": {
        "fr": "Pour un vidéoprojecteur : texte et graphiques agrandis, couleurs contrastées, tableaux "
              "qui passent à la ligne au lieu de défiler, barre latérale repliée. L'adresse garde ?present=1 : "
              "un rechargement de la page reste dans ce mode.",
        "en": "For a projector: larger text and figures, high-contrast colours, tables that wrap instead of "
              "scrolling, sidebar folded. The address keeps ?present=1, so reloading the page stays in this mode.",
    },
}

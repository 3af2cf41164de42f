"""Texts of the collection widget, source badges, statuses and error kinds."""

TEXTS = {
    "collect.starting": {"fr": "Envoi de {total} requêtes…", "en": "Sending {total} requests…"},
    "collect.progress": {
        "fr": "{done}/{total} réponses · {elapsed:.1f} s · {errors} erreur(s) · {retries} nouvelle(s) tentative(s)",
        "en": "{done}/{total} answers · {elapsed:.1f} s · {errors} error(s) · {retries} retry(ies)",
    },
    "collect.retry_waiting": {
        "fr": "le serveur limite le débit : une nouvelle tentative attend encore {wait} s",
        "en": "the server is rate-limiting: a retry is waiting {wait} s more",
    },
    "collect.no_model": {"fr": "Choisissez un modèle dans la barre latérale pour collecter en direct.",
                         "en": "Choose a model in the sidebar to collect live."},
    "collect.start": {"fr": "Collecter {n} réponse(s) manquante(s)", "en": "Collect {n} missing answer(s)"},
    "collect.retry": {"fr": "Relancer {n} échec(s)", "en": "Retry {n} failed"},
    "collect.forget": {"fr": "Oublier ces réponses", "en": "Forget these answers"},
    "collect.forget_help": {
        "fr": "Efface les réponses de cette page pour cette session (le cache et les enregistrements restent).",
        "en": "Clears this page's answers for this session (the cache and the recordings stay).",
    },
    "collect.nothing_yet": {"fr": "Aucune des {n} réponses n'est encore collectée.",
                            "en": "None of the {n} answers has been collected yet."},
    "collect.summary": {
        "fr": "{n}/{total} réponses · provenance : {sources} · {ok} correctes, {empty} vides, "
              "{truncated} tronquées, {errors} en erreur",
        "en": "{n}/{total} answers · source: {sources} · {ok} ok, {empty} empty, {truncated} truncated, "
              "{errors} errors",
    },
    "collect.authored_notice": {
        "fr": "{n} réponse(s) sont des exemples rédigés à la main pour la démonstration (« rédigé »), "
              "pas des sorties d'un modèle. Passez en direct pour mesurer un vrai modèle.",
        "en": "{n} answer(s) are examples written by hand for the demo (\"authored\"), not model output. "
              "Go live to measure a real model.",
    },
    "collect.fallback": {
        "fr": "{n} appel(s) en direct ont échoué : la réponse enregistrée est affichée à la place. "
              "Premier échec : {error}",
        "en": "{n} live call(s) failed: the recorded answer is shown instead. First error: {error}",
    },
    "collect.failed": {"fr": "{n} requête(s) en échec ({kinds}) : le détail est ci-dessous.",
                       "en": "{n} request(s) failed ({kinds}): details below."},
    "collect.unrecorded": {"fr": "{n} requête(s) sans réponse enregistrée pour cette source : elles sont nommées "
                                 "ci-dessous et laissées hors des mesures (le mode en direct peut les poser).",
                           "en": "{n} request(s) have no recorded answer in this source: they are named below "
                                 "and left out of the measures (Live mode can ask them)."},
    "collect.and_more": {"fr": " et {n} autre(s)", "en": " and {n} more"},
    "collect.problems": {"fr": "{n} réponse(s) à examiner", "en": "{n} answer(s) to look at"},
    "advice.empty": {
        "fr": "Le modèle n'a rendu aucun texte : s'il réfléchit avant de répondre, coupez la réflexion ou "
              "augmentez max_tokens.",
        "en": "The model returned no text: if it reasons before answering, disable reasoning or raise max_tokens.",
    },
    "advice.truncated": {"fr": "Réponse coupée à max_tokens : augmentez max_tokens (ou coupez la réflexion).",
                         "en": "Answer cut at max_tokens: raise max_tokens (or disable reasoning)."},
    "advice.auth": {"fr": "Saisissez une clé valide dans la barre latérale (ou OPENAI_API_KEY / ANTHROPIC_API_KEY).",
                    "en": "Enter a valid key in the sidebar (or OPENAI_API_KEY / ANTHROPIC_API_KEY)."},
    "advice.connection": {
        "fr": "Aucun serveur ne répond à {url}. Démarrez-le (ollama serve, ou vllm serve <modèle>) ou "
              "vérifiez l'URL de base (Ollama : http://localhost:11434/v1, vLLM : http://localhost:8000/v1).",
        "en": "No server answers at {url}. Start it (ollama serve, or vllm serve <model>) or check the base URL "
              "(Ollama: http://localhost:11434/v1, vLLM: http://localhost:8000/v1).",
    },
    "advice.timeout": {
        "fr": "Pas de réponse dans le délai : le modèle charge peut-être. Relancez les échecs, allongez le délai "
              "ou baissez le nombre de requêtes simultanées.",
        "en": "No answer in time: the model may be loading. Retry the failures, raise the timeout or lower "
              "the number of concurrent requests.",
    },
    "advice.rate_limit": {
        "fr": "Le serveur refuse encore (429) après les nouvelles tentatives, ou demande d'attendre plus de "
              "{budget:g} s : baissez les requêtes simultanées, attendez une minute, puis relancez les échecs.",
        "en": "The server still refuses (429) after the retries, or asks to wait more than {budget:g} s: lower "
              "the concurrent requests, wait a minute, then retry the failures.",
    },
    "advice.server": {"fr": "Le serveur a échoué, pas votre requête : relancez les échecs dans un moment.",
                      "en": "The server failed, not your request: retry the failures in a moment."},
    "advice.bad_request": {
        "fr": "Le serveur a refusé la requête (son message est ci-dessus). Causes possibles, de la plus probable "
              "à la moins probable : 1) la clé est refusée par un proxy (LiteLLM répond 400 et non 401 à une "
              "mauvaise clé) ; 2) le modèle n'existe pas sur ce serveur ; 3) le modèle refuse un paramètre "
              "(température, outils, extra_body…).",
        "en": "The server refused the request (its message is above). Possible causes, most likely first: "
              "1) the key is refused by a proxy (LiteLLM answers a wrong key with 400, not 401); 2) the model "
              "does not exist on this server; 3) the model refuses a parameter (temperature, tools, extra_body…).",
    },
    "advice.sidebar_check_failed": {
        "fr": "La vérification de la clé et du modèle dans la barre latérale a échoué aussi ({kind}) : la clé "
              "est la première chose à vérifier. {reason}",
        "en": "The sidebar's key and model check failed too ({kind}): check the key first. {reason}",
    },
    "advice.model_not_found": {
        "fr": "Le modèle {model} n'existe pas sur ce serveur. Modèles proposés : {models}.",
        "en": "The model {model} does not exist on this server. Models offered: {models}.",
    },
    "advice.model_not_found_unlisted": {
        "fr": "Le modèle {model} n'existe pas sur ce serveur : vérifiez son nom (Ollama : ollama list).",
        "en": "The model {model} does not exist on this server: check its name (Ollama: ollama list).",
    },
    "advice.prefill_unsupported": {
        "fr": "Ce modèle refuse un début de réponse imposé : désactivez le prefill dans la barre latérale.",
        "en": "This model refuses an assistant prefill: turn prefill off in the sidebar.",
    },
    "advice.malformed": {
        "fr": "La réponse n'est pas le JSON attendu : est-ce bien un serveur compatible OpenAI ? Vérifiez l'URL "
              "de base et le fournisseur.",
        "en": "The answer is not the expected JSON: is this an OpenAI-compatible server? Check the base URL "
              "and the provider.",
    },
    "advice.missing_recording": {
        "fr": "Aucune réponse enregistrée pour cette requête : passez en mode en direct pour la collecter.",
        "en": "No recorded answer for this request: switch to live mode to collect it.",
    },
    "advice.unexpected": {"fr": "Erreur inattendue : le détail technique suit.",
                          "en": "Unexpected error: the technical detail follows."},
    "failure.prefill_configured": {
        "fr": "Le modèle {model} est réglé comme refusant un début de réponse imposé (prefill).",
        "en": "The model {model} is set as refusing an assistant prefill.",
    },
    "failure.embeddings_unsupported": {
        "fr": "Le fournisseur {provider} n'offre pas de plongements (embeddings).",
        "en": "The provider {provider} offers no embeddings endpoint.",
    },
    "failure.timeout": {"fr": "Pas de réponse de {url} en {timeout_s} s.",
                        "en": "No answer from {url} within {timeout_s} s."},
    "failure.connection": {"fr": "Aucun serveur ne répond à {url}.", "en": "No server answered at {url}."},
    "failure.connection_refused": {
        "fr": "Aucun serveur ne répond à {url} : la connexion est refusée (rien n'écoute à cette adresse).",
        "en": "No server answered at {url}: the connection was refused (nothing listens there).",
    },
    "failure.bad_request_no_key": {
        "fr": "Le serveur {url} a refusé la requête (HTTP {status}), et aucune clé d'API n'a été donnée (un "
              "proxy qui en demande une répond ainsi).",
        "en": "HTTP {status} from {url}, and no API key was given (a proxy that needs one answers so).",
    },
    "failure.auth_missing": {
        "fr": "Le serveur {url} demande une clé d'API, et aucune n'a été donnée (HTTP {status}).",
        "en": "The server at {url} asks for an API key, and none was given (HTTP {status}).",
    },
    "failure.auth": {"fr": "Le serveur {url} refuse la clé d'API (HTTP {status}).",
                     "en": "The server at {url} rejected the API key (HTTP {status})."},
    "failure.timeout_status": {
        "fr": "Le serveur {url} indique que le modèle n'a pas répondu à temps (HTTP {status}).",
        "en": "The server at {url} says the model did not answer in time (HTTP {status}).",
    },
    "failure.rate_limit": {
        "fr": "Le serveur {url} limite encore le débit après {retries} nouvelle(s) tentative(s) (HTTP 429).",
        "en": "Still rate-limited by {url} after {retries} retries (HTTP 429).",
    },
    "failure.rate_limit_wait_refused": {
        "fr": "Le serveur {url} limite le débit (HTTP 429) et demande d'attendre {wait_s} s, plus qu'une "
              "requête ne peut attendre.",
        "en": "Rate-limited by {url} (HTTP 429): the server asked to wait {wait_s} s, longer than a request "
              "may wait.",
    },
    "failure.prefill_refused": {"fr": "Le modèle {model} refuse un début de réponse imposé (HTTP {status}).",
                                "en": "The model {model} refuses an assistant prefill (HTTP {status})."},
    "failure.model_not_found": {"fr": "Le modèle {model} est introuvable sur {url} (HTTP {status}).",
                                "en": "Model {model} not found at {url} (HTTP {status})."},
    "failure.not_found_v1": {"fr": "Rien n'a été trouvé à {url} (HTTP 404).",
                             "en": "Nothing found at {url} (HTTP 404)."},
    "failure.not_found": {"fr": "Rien n'a été trouvé à {url} (HTTP 404).",
                          "en": "Nothing found at {url} (HTTP 404)."},
    "failure.bad_request": {"fr": "Le serveur {url} a refusé la requête (HTTP {status}).",
                            "en": "HTTP {status} from {url}: the server refused the request."},
    "failure.gateway": {
        "fr": "Un proxy à {url} a répondu à la place du serveur de modèle, qui ne répond pas "
              "(HTTP {status}).",
        "en": "A proxy at {url} answered for the model server behind it, which did not answer "
              "(HTTP {status}).",
    },
    "failure.server": {"fr": "Erreur du serveur {url} (HTTP {status}).",
                       "en": "Server error at {url} (HTTP {status})."},
    "failure.malformed_no_choices": {
        "fr": "La réponse de {url} n'a pas pu être lue : elle ne contient aucun choix (« choices »).",
        "en": "The answer from {url} could not be read: it has no choices.",
    },
    "failure.malformed_vector_count": {
        "fr": "La réponse de {url} n'a pas pu être lue : {vectors} vecteur(s) pour {texts} texte(s).",
        "en": "The answer from {url} could not be read: {vectors} vector(s) for {texts} text(s).",
    },
    "failure.malformed": {"fr": "La réponse de {url} n'a pas pu être lue ({exception}).",
                          "en": "The answer from {url} could not be read ({exception})."},
    "failure.not_openai_api": {"fr": "{url} répond, mais pas comme une API compatible OpenAI.",
                               "en": "{url} answers, but not as an OpenAI-compatible API."},
    "failure.not_anthropic_api": {"fr": "{url} répond, mais pas comme l'API Messages d'Anthropic.",
                                  "en": "{url} answers, but not as the Anthropic Messages API."},
    "failure.unexpected_status": {"fr": "Le serveur {url} répond HTTP {status}, un cas imprévu.",
                                  "en": "HTTP {status} from {url}, an unforeseen case."},
    "failure.unexpected": {"fr": "Erreur inattendue ({exception}).", "en": "Unexpected error ({exception})."},
    "failure.missing_recording": {"fr": "Aucun enregistrement pour cette requête ({request}).",
                                  "en": "No recording for this request ({request})."},
    "failure.undescribed": {"fr": "Échec obtenu avant que les erreurs soient décrites en français.",
                            "en": "A failure obtained before errors were described in both languages."},
    "failure.server_says": {"fr": "Le serveur répond : « {text} »", "en": "The server says: \"{text}\""},
    "failure.technical": {"fr": "Texte technique (en anglais) : « {text} »",
                          "en": "Technical text: \"{text}\""},
    "recording_problem.where": {"fr": "{file}, ligne {line} :", "en": "{file}, line {line}:"},
    "recording_problem.not_json": {"fr": "ce n'est pas du JSON valide (colonne {column}).",
                                   "en": "this is not valid JSON (column {column})."},
    "recording_problem.missing_field": {"fr": "le champ « {field} » manque.",
                                        "en": "the field \"{field}\" is missing."},
    "recording_problem.key_mismatch": {
        "fr": "la clé ne correspond pas à la requête (modifiée à la main ?).",
        "en": "the key does not match the request (edited by hand?).",
    },
    "recording_problem.bad_provenance": {
        "fr": "la provenance « {source} » est inconnue (attendu : live ou authored).",
        "en": "the provenance \"{source}\" is unknown (expected: live or authored).",
    },
    "recording_problem.bad_value": {"fr": "une valeur est illisible ({exception}).",
                                    "en": "a value cannot be read ({exception})."},
    "advice.not_found_v1": {
        "fr": "Les serveurs compatibles OpenAI sont en général sous /v1 : essayez {suggestion}.",
        "en": "OpenAI-compatible servers usually live under /v1: try {suggestion}.",
    },
    "advice.not_found": {"fr": "Vérifiez l'URL de base dans la barre latérale.",
                         "en": "Check the base URL in the sidebar."},
    "advice.embeddings_unsupported": {
        "fr": "Pour les plongements, choisissez un serveur compatible OpenAI (par exemple Ollama).",
        "en": "For embeddings, choose an OpenAI-compatible server (e.g. Ollama).",
    },
    "badge.live": {"fr": "direct", "en": "live"},
    "badge.cache": {"fr": "cache", "en": "cache"},
    "badge.recording": {"fr": "enregistré", "en": "recorded"},
    "badge.authored": {"fr": "rédigé", "en": "authored"},
    "badge.recording_on": {"fr": "enregistré en direct le {date}", "en": "recorded live on {date}"},
    "sources.label": {"fr": "Réponses rejouées", "en": "Answers replayed"},
    "sources.help": {
        "fr": "Hors ligne, la page rejoue des réponses enregistrées : les exemples rédigés à la main, ou un "
              "modèle enregistré en direct (« En direct + enregistrer », ou python -m evallib record).",
        "en": "Offline, the page replays recorded answers: the examples written by hand, or a model recorded "
              "live (\"Live + record\", or python -m evallib record).",
    },
    "sources.authored": {"fr": "Exemples rédigés à la main · {n}/{total} réponses",
                         "en": "Examples written by hand · {n}/{total} answers"},
    "sources.live": {"fr": "{model} · {provider} · enregistré en direct le {dates} · {n}/{total} réponses",
                     "en": "{model} · {provider} · recorded live on {dates} · {n}/{total} answers"},
    "sources.provider_unknown": {"fr": "fournisseur non noté", "en": "provider not noted"},
    "sources.none": {
        "fr": "Aucun enregistrement ne répond à ces {total} requêtes : passez en direct pour les collecter.",
        "en": "No recording answers these {total} requests: go live to collect them.",
    },
    "status.ok": {"fr": "correcte", "en": "ok"},
    "status.empty": {"fr": "vide", "en": "empty"},
    "status.truncated": {"fr": "tronquée", "en": "truncated"},
    "status.error": {"fr": "erreur", "en": "error"},
    "status.unrecorded": {"fr": "non enregistrée", "en": "not recorded"},
    "collect.summary_unrecorded": {"fr": "{n} non enregistrée(s)", "en": "{n} not recorded"},
    "error_kind.auth": {"fr": "clé absente ou refusée", "en": "key missing or rejected"},
    "error_kind.model_not_found": {"fr": "modèle introuvable", "en": "model not found"},
    "error_kind.not_found": {"fr": "adresse introuvable", "en": "URL not found"},
    "error_kind.connection": {"fr": "serveur injoignable", "en": "no server"},
    "error_kind.timeout": {"fr": "délai dépassé", "en": "timeout"},
    "error_kind.rate_limit": {"fr": "trop de requêtes (429)", "en": "rate limited (429)"},
    "error_kind.server": {"fr": "erreur du serveur", "en": "server error"},
    "error_kind.bad_request": {"fr": "requête refusée", "en": "request refused"},
    "error_kind.prefill_unsupported": {"fr": "prefill refusé", "en": "prefill refused"},
    "error_kind.malformed": {"fr": "réponse illisible", "en": "unreadable answer"},
    "error_kind.missing_recording": {"fr": "pas d'enregistrement", "en": "no recording"},
    "error_kind.unexpected": {"fr": "erreur inattendue", "en": "unexpected error"},
    "collect.queued_behind_others": {
        "fr": "{n} requête(s) attendent leur tour : le serveur de modèle répond d'abord à d'autres participants",
        "en": "{n} request(s) waiting their turn: the model server is answering other participants first",
    },
    "collect.bad_endpoint_limit": {
        "fr": "La variable d'environnement EVALLIB_ENDPOINT_CONCURRENCY doit être un nombre entier de requêtes, "
              "au moins 1 : corrigez-la puis relancez le serveur de l'application.",
        "en": "The environment variable EVALLIB_ENDPOINT_CONCURRENCY must be a whole number of requests, at "
              "least 1: correct it, then restart the app's server.",
    },
}

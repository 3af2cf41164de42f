"""Texts shared by the app shell and the home page."""

TEXTS = {
    "common.language": {"fr": "Langue", "en": "Language"},
    "common.see_code": {"fr": "Voir le code", "en": "See the code"},
    "home.nav": {"fr": "Accueil", "en": "Home"},
    "home.title": {"fr": "Atelier d'évaluation des LLM", "en": "LLM evaluation workshop"},
    "home.intro": {
        "fr": "Un système à base de LLM promet quelque chose : des assistants qui se distinguent, un juge "
              "qui note juste, deux correcteurs qui s'accordent. Chaque page de cet atelier transforme "
              "une de ces promesses en **mesure** : on essaie d'autres prompts, on collecte les réponses, "
              "et l'on regarde les chiffres, avec leur incertitude, avant de conclure.",
        "en": "An LLM system makes a promise: assistants that really differ, a judge that grades fairly, "
              "two raters who agree. Each page of this workshop turns one such promise into a "
              "**measurement**: try other prompts, collect the answers, and read the figures, with their "
              "uncertainty, before drawing a conclusion.",
    },
    "home.pages": {"fr": "Les pages", "en": "The pages"},
    "home.pages_list": {
        "fr": "- **Audit de personas** : des assistants aux prompts système différents répondent-ils "
              "vraiment différemment ? On cherche à retrouver l'auteur de chaque réponse.\n"
              "- **Accord entre correcteurs (kappa)** : deux correcteurs, humains ou modèles, "
              "s'accordent-ils plus que le hasard ne le voudrait ?\n"
              "- **LLM juge** : le code tranche ce qu'il peut, un modèle note le reste ; ses échecs et ses biais "
              "sont mesurés.\n"
              "- **Déclenchement des skills** : chaque skill d'un assistant s'active-t-il quand il faut, et "
              "seulement alors ?\n"
              "- **Agent GNSS** : construire l'évaluation (spécification, cas synthétiques, tolérances) avant "
              "de croire un agent qui estime une vitesse et des sauts.\n"
              "- **Salle** : en atelier, chacun soumet son essai ; un tableau projeté les compare par un test "
              "apparié et montre la malédiction du vainqueur.",
        "en": "- **Persona audit**: do assistants with different system prompts really answer "
              "differently? We try to find the author of each answer.\n"
              "- **Agreement between raters (kappa)**: do two raters, human or model, agree more than "
              "chance alone would make them?\n"
              "- **LLM as a judge**: code decides what it can, a model grades the rest; its failures and biases "
              "are measured.\n"
              "- **Skill triggering**: does each skill of an assistant fire when it should, and only then?\n"
              "- **GNSS agent**: build the evaluation (specification, synthetic cases, tolerances) before "
              "trusting an agent that estimates a velocity and offsets.\n"
              "- **Room**: in a workshop, everyone submits an attempt; a projected board compares them by a "
              "paired test and shows the winner's curse.",
    },
    "home.sources": {"fr": "D'où viennent les réponses", "en": "Where the answers come from"},
    "home.offline_mode": {
        "fr": "Mode **hors ligne** : les pages rejouent, sans réseau, les {n} réponses enregistrées (celles "
              "livrées dans `recordings/` et celles enregistrées sur cette machine) ; chaque page propose "
              "les sources enregistrées : exemples rédigés, ou modèle enregistré en direct. Passez en direct "
              "dans la barre latérale pour interroger un vrai modèle (Ollama, vLLM, llama.cpp, API hébergée, "
              "Anthropic).",
        "en": "**Offline** mode: pages replay, with no network, the {n} recorded answers (those shipped in "
              "`recordings/` and those recorded on this machine); each page offers the recorded sources: "
              "authored examples, or a model recorded live. Switch to live in the sidebar to query a real "
              "model (Ollama, vLLM, llama.cpp, hosted API, Anthropic).",
    },
    "home.live_mode": {
        "fr": "Mode **en direct** : modèle `{model}` sur `{url}`.",
        "en": "**Live** mode: model `{model}` at `{url}`.",
    },
    "home.badges": {
        "fr": "Chaque réponse porte sa provenance : **direct** (appel au modèle), **cache** (déjà "
              "obtenue), **enregistré** (rejouée depuis un enregistrement réel) ou **rédigé** (exemple "
              "écrit à la main pour la démonstration, pas une sortie de modèle).",
        "en": "Every answer carries its source: **live** (a model call), **cache** (already obtained), "
              "**recorded** (replayed from a real recording) or **authored** (an example written by "
              "hand for the demo, not model output).",
    },
    "home.recording_problems": {
        "fr": "{n} ligne(s) d'enregistrement illisibles ont été ignorées ; la première : {first}",
        "en": "{n} unreadable recording line(s) were skipped; the first: {first}",
    },
}

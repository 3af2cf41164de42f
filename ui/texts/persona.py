"""Texts of the persona audit page."""

TEXTS = {
    "persona.nav": {"fr": "Audit de personas", "en": "Persona audit"},
    "persona.title": {"fr": "Audit de personas : des assistants vraiment différents ?",
                      "en": "Persona audit: do the assistants really differ?"},
    "persona.intro": {
        "fr": "Une plateforme de chat permet de déclarer autant d'assistants qu'on veut, chacun avec son "
              "prompt système. Mais un prompt n'est qu'une intention : la spécialisation, elle, se voit dans "
              "les **réponses**. On fait répondre chaque assistant aux mêmes questions ambiguës, puis on "
              "cherche si l'on peut retrouver l'auteur d'une réponse à partir des autres.",
        "en": "A chat platform lets you declare as many assistants as you like, each with its own system "
              "prompt. But a prompt is only an intention: specialisation shows in the **answers**. Every "
              "assistant answers the same ambiguous questions, then we check whether the author of an answer "
              "can be found from the other answers.",
    },
    "persona.catalogue_title": {"fr": "1. Le catalogue", "en": "1. The catalogue"},
    "persona.assistants": {"fr": "Assistants (nom, rôle, prompt système)", "en": "Assistants (name, role, system prompt)"},
    "persona.probes": {"fr": "Questions posées à chaque assistant (sondes)",
                       "en": "Questions put to every assistant (probes)"},
    "persona.col_name": {"fr": "Nom", "en": "Name"},
    "persona.col_role": {"fr": "Rôle", "en": "Role"},
    "persona.col_prompt": {"fr": "Prompt système", "en": "System prompt"},
    "persona.col_probe": {"fr": "Sonde", "en": "Probe"},
    "persona.reset": {"fr": "Revenir au catalogue par défaut", "en": "Back to the default catalogue"},
    "persona.upload": {"fr": "Charger un catalogue (JSON)", "en": "Load a catalogue (JSON)"},
    "persona.download": {"fr": "Télécharger ce catalogue (JSON)", "en": "Download this catalogue (JSON)"},
    "persona.upload_not_utf8": {"fr": "le fichier n'est pas du texte UTF-8 : enregistrez-le en UTF-8 et rechargez-le",
                                "en": "the file is not UTF-8 text: save it as UTF-8 and load it again"},
    "persona.upload_refused": {"fr": "Fichier refusé : {reason}. Le catalogue affiché est conservé.",
                               "en": "File refused: {reason}. The catalogue shown is kept."},
    "persona.invalid": {"fr": "Catalogue incomplet : {error}. Corrigez le tableau ; rien de ce qui a été collecté n'est perdu.",
                        "en": "Catalogue incomplete: {error}. Fix the table; nothing collected is lost."},
    "persona.error.not_json": {"fr": "ce n'est pas du JSON valide (erreur ligne {line})",
                               "en": "this is not valid JSON (error on line {line})"},
    "persona.error.not_object": {"fr": "le JSON doit être un objet avec les clés `assistants` et `probes`",
                                 "en": "the JSON must be an object with the keys `assistants` and `probes`"},
    "persona.error.no_assistants_list": {"fr": "`assistants` doit être une liste d'objets (`name`, `system_prompt`)",
                                         "en": "`assistants` must be a list of objects (`name`, `system_prompt`)"},
    "persona.error.no_probes_list": {"fr": "`probes` doit être une liste de questions",
                                     "en": "`probes` must be a list of questions"},
    "persona.error.assistant_not_object": {"fr": "l'assistant n° {number} n'est pas un objet (`name`, `system_prompt`)",
                                           "en": "assistant no. {number} is not an object (`name`, `system_prompt`)"},
    "persona.error.empty_name": {"fr": "l'assistant n° {number} n'a pas de nom",
                                 "en": "assistant no. {number} has no name"},
    "persona.error.bad_name": {
        "fr": "le nom de l'assistant n° {number} ne peut contenir que des lettres, des chiffres, des espaces "
              "et les signes ' . - _ (40 caractères au plus)",
        "en": "the name of assistant no. {number} may only hold letters, digits, spaces and the signs ' . - _ "
              "(40 characters at most)",
    },
    "persona.error.empty_prompt": {"fr": "l'assistant « {name} » n'a pas de prompt système",
                                   "en": "assistant \"{name}\" has no system prompt"},
    "persona.error.duplicate_names": {"fr": "nom(s) en double : {names}", "en": "duplicate name(s): {names}"},
    "persona.error.too_few_assistants": {
        "fr": "il faut au moins deux assistants pour les comparer (il y en a {count})",
        "en": "at least two assistants are needed to compare them (there are {count})",
    },
    "persona.error.empty_probe": {"fr": "la sonde n° {number} est vide", "en": "probe no. {number} is empty"},
    "persona.error.no_probes": {"fr": "il faut au moins une sonde", "en": "at least one probe is needed"},
    "persona.disable_reasoning": {"fr": "Couper la phase de réflexion (enable_thinking: false)",
                                  "en": "Disable reasoning (enable_thinking: false)"},
    "persona.disable_reasoning_help": {
        "fr": "Envoie chat_template_kwargs aux serveurs qui l'acceptent (vLLM, modèles Qwen) : on mesure la "
              "voix de l'assistant, pas son brouillon, et la réflexion peut vider la réponse.",
        "en": "Sends chat_template_kwargs to servers that accept it (vLLM, Qwen models): we measure the "
              "assistant's voice, not its draft, and reasoning can leave the answer empty.",
    },
    "persona.collect_title": {"fr": "2. La collecte", "en": "2. Collection"},
    "persona.assistant": {"fr": "Assistant", "en": "Assistant"},
    "persona.collected": {"fr": "Réponses collectées", "en": "Answers collected"},
    "persona.empty": {"fr": "dont vides", "en": "of which empty"},
    "persona.read_title": {"fr": "3. Lire d'abord", "en": "3. Read first"},
    "persona.assistant_a": {"fr": "Assistant de gauche", "en": "Left assistant"},
    "persona.assistant_b": {"fr": "Assistant de droite", "en": "Right assistant"},
    "persona.probe": {"fr": "Sonde", "en": "Probe"},
    "persona.no_response": {"fr": "Pas de réponse collectée pour cette case.", "en": "No answer collected for this cell."},
    "persona.empty_response": {"fr": "*(réponse vide)*", "en": "*(empty answer)*"},
    "persona.jaccard_title": {"fr": "4. La mesure naïve : le recouvrement des vocabulaires",
                              "en": "4. The naive measure: vocabulary overlap"},
    "persona.jaccard_intro": {
        "fr": "Indice de Jaccard entre les vocabulaires de deux assistants (mots en minuscules, lettres "
              "accentuées comprises, plus de deux lettres, mots vides retirés) : taille de l'intersection "
              "divisée par celle de l'union. 1 = mêmes mots, 0 = aucun mot commun.",
        "en": "Jaccard index between two assistants' vocabularies (lower-case words, accented letters "
              "included, more than two letters, stop words removed): size of the intersection over size of "
              "the union. 1 = same words, 0 = no word in common.",
    },
    "persona.jaccard_figure": {"fr": "Recouvrement des vocabulaires (Jaccard)", "en": "Vocabulary overlap (Jaccard)"},
    "persona.closest_pairs": {"fr": "Paires, de la plus proche à la plus éloignée", "en": "Pairs, closest first"},
    "persona.pair": {"fr": "Paire", "en": "Pair"},
    "persona.disc_title": {"fr": "5. La mesure honnête : retrouver l'auteur", "en": "5. The honest measure: find the author"},
    "persona.disc_intro": {
        "fr": "Chaque réponse devient un vecteur TF-IDF. Pour chaque réponse, on calcule le centre de chaque "
              "assistant **sans cette réponse** (leave-one-out), puis on l'attribue au centre le plus proche "
              "(cosinus). Sans ce retrait, chaque réponse tirerait son propre centre vers elle. Et cette "
              "mesure a un repère : tirer un auteur au hasard réussit une fois sur k.",
        "en": "Each answer becomes a TF-IDF vector. For each answer, every assistant's centre is computed "
              "**without that answer** (leave-one-out), and the answer goes to the nearest centre (cosine). "
              "Without that removal, each answer would pull its own centre towards itself. And this measure "
              "has a reference point: drawing an author at random succeeds once in k.",
    },
    "persona.accuracy": {"fr": "Exactitude", "en": "Accuracy"},
    "persona.accuracy_help": {"fr": "{correct} réponses sur {n} attribuées à leur véritable auteur.",
                              "en": "{correct} of {n} answers assigned to their true author."},
    "persona.chance": {"fr": "Hasard (1/k)", "en": "Chance (1/k)"},
    "persona.chance_help": {"fr": "{k} assistants : un tirage au hasard trouve l'auteur une fois sur {k}.",
                            "en": "{k} assistants: a random draw finds the author once in {k}."},
    "persona.interval_value": {"fr": "[{low:.2f} ; {high:.2f}]", "en": "[{low:.2f}, {high:.2f}]"},
    "persona.p_permutation": {"fr": "p (permutations)", "en": "p (permutations)"},
    "persona.p_permutation_help": {
        "fr": "On mélange {n_perm} fois les auteurs entre les réponses d'une même sonde et l'on refait toute la "
              "mesure : part des mélanges qui font au moins aussi bien.",
        "en": "Authors are shuffled {n_perm} times among the answers to the same probe and the whole measure "
              "is redone: share of the shuffles that do at least as well.",
    },
    "persona.confusion_figure": {"fr": "Matrice de confusion", "en": "Confusion matrix"},
    "persona.predicted": {"fr": "auteur retrouvé", "en": "predicted author"},
    "persona.true_author": {"fr": "auteur réel", "en": "true author"},
    "persona.recognition_figure": {"fr": "Reconnaissance par assistant", "en": "Recognition per assistant"},
    "persona.ex1_title": {"fr": "6. Exercice 1 : la paire à fusionner", "en": "6. Exercise 1: the pair to merge"},
    "persona.ex2_title": {"fr": "7. Exercice 2 : la sonde qui sépare", "en": "7. Exercise 2: the probe that separates"},
    "persona.ex2_figure": {"fr": "Exactitude par sonde", "en": "Accuracy per probe"},
    "persona.ex3_title": {"fr": "8. Exercice 3 : réparer la redondance", "en": "8. Exercise 3: fix the redundancy"},
    "persona.ex3_intro": {
        "fr": "Réécrivez le prompt d'un assistant sans le supprimer ni changer son domaine : trouvez ce qu'il "
              "apporte que son voisin n'apporte pas. Seules ses réponses sont collectées à nouveau ; "
              "on compare avant et après.",
        "en": "Rewrite one assistant's prompt without removing it or changing its field: find what it brings "
              "that its neighbour does not. Only its answers are collected again; before and after are compared.",
    },
    "persona.ex3_assistant": {"fr": "Assistant à réécrire", "en": "Assistant to rewrite"},
    "persona.ex3_prompt": {"fr": "Nouveau prompt système", "en": "New system prompt"},
    "persona.ex3_offline_recorded": {
        "fr": "Hors ligne, la réécriture n'a de réponses que si elle a été enregistrée avec le modèle choisi "
              "(en direct + enregistrer) ; sinon, passez en mode en direct.",
        "en": "Offline, the rewrite has answers only if it was recorded with the chosen model (Live + record); "
              "otherwise switch to Live mode.",
    },
    "persona.ex3_offline_example": {
        "fr": "Hors ligne, seul l'exemple de réécriture proposé a des réponses enregistrées (rédigées pour la "
              "démonstration). Un autre texte demande le mode en direct.",
        "en": "Offline, only the suggested rewrite has recorded answers (written for the demo). Any other text "
              "needs live mode.",
    },
    "persona.ex3_empty": {"fr": "Le nouveau prompt est vide.", "en": "The new prompt is empty."},
    "persona.ex3_unchanged": {"fr": "Le prompt n'a pas changé : modifiez-le pour mesurer l'effet.",
                              "en": "The prompt is unchanged: edit it to measure the effect."},
    "persona.ex3_no_recording": {
        "fr": "Ce prompt n'a pas de réponses enregistrées : passez en mode en direct pour les collecter, ou "
              "reprenez l'exemple de réécriture proposé.",
        "en": "This prompt has no recorded answers: switch to live mode to collect them, or go back to the "
              "suggested rewrite.",
    },
    "persona.ex3_waiting": {"fr": "Les réponses du nouveau prompt ne sont pas toutes là : la comparaison attend.",
                            "en": "Not every answer to the new prompt is here yet: the comparison waits."},
    "persona.before": {"fr": "avant", "en": "before"},
    "persona.after": {"fr": "après", "en": "after"},
    "persona.ranks_title": {"fr": "9. Les prompts ne sont pas les réponses", "en": "9. Prompts are not answers"},
    "persona.ranks_intro": {
        "fr": "Distance entre prompts : 1 − Jaccard de leurs vocabulaires. Distance entre réponses : 1 − cosinus "
              "des centres TF-IDF normalisés. Si relire les prompts suffisait, les deux classements des paires "
              "coïncideraient.",
        "en": "Distance between prompts: 1 − Jaccard of their vocabularies. Distance between answers: 1 − cosine "
              "of the normalised TF-IDF centres. If reading the prompts were enough, the two rankings of pairs "
              "would agree.",
    },
    "persona.d_prompts": {"fr": "d(prompts)", "en": "d(prompts)"},
    "persona.d_responses": {"fr": "d(réponses)", "en": "d(answers)"},
    "persona.ranks_table": {"fr": "Tableau des distances et des rangs", "en": "Table of distances and ranks"},
    "persona.ranks": {"fr": "Rangs", "en": "Ranks"},
    "persona.slope_figure": {"fr": "Rang de chaque paire : prompts → réponses (1 = la plus éloignée)",
                             "en": "Rank of each pair: prompts → answers (1 = most distant)"},
    "persona.rank_prompts": {"fr": "selon les prompts", "en": "by prompts"},
    "persona.rank_responses": {"fr": "selon les réponses", "en": "by answers"},
    "persona.semantic_title": {"fr": "10. Variante sémantique : des embeddings au lieu des mots",
                               "en": "10. Semantic variant: embeddings instead of words"},
    "persona.semantic_intro": {
        "fr": "TF-IDF voit des mots, pas du sens. Le même protocole (leave-one-out, centre le plus proche) peut "
              "tourner sur les embeddings que renvoie le point d'accès /embeddings du serveur.",
        "en": "TF-IDF sees words, not meaning. The same protocol (leave-one-out, nearest centre) can run on the "
              "embeddings returned by the server's /embeddings endpoint.",
    },
    "persona.semantic_offline": {"fr": "Disponible en mode en direct, avec un modèle d'embeddings (par exemple nomic-embed-text sur Ollama).",
                                 "en": "Available in live mode, with an embedding model (e.g. nomic-embed-text on Ollama)."},
    "persona.semantic_needs_openai": {"fr": "Anthropic n'offre pas d'embeddings : choisissez un serveur compatible OpenAI.",
                                      "en": "Anthropic offers no embeddings: choose an OpenAI-compatible server."},
    "persona.embedding_model": {"fr": "Modèle d'embeddings", "en": "Embedding model"},
    "persona.embedding_label": {"fr": "embeddings de {n} réponses", "en": "embeddings of {n} answers"},
    "persona.embeddings": {"fr": "embeddings", "en": "embeddings"},
    "persona.collect_params": {
        "fr": "{n} requêtes (chaque assistant × chaque sonde), température {temperature:.1f}, seed {seed}, "
              "{max_tokens} tokens au plus.",
        "en": "{n} requests (every assistant × every probe), temperature {temperature:.1f}, seed {seed}, at most "
              "{max_tokens} tokens.",
    },
    "persona.seed_not_sent": {
        "fr": "L'API d'Anthropic ne prend pas de seed : il n'est pas envoyé, et deux collectes peuvent différer.",
        "en": "Anthropic's API takes no seed: it is not sent, and two collections may differ.",
    },
    "persona.read_intro.paraphrase_pair": {
        "fr": "Avant tout chiffre, lisez deux réponses côte à côte. Par défaut : l'assistant « {a} » et « {b} », "
              "sa paraphrase. Passé l'ouverture commune à tous les prompts, leurs vocabulaires se recouvrent à "
              "{overlap:.2f} (indice de Jaccard ; 0 = aucun mot en commun).",
        "en": "Before any figure, read two answers side by side. By default: the \"{a}\" assistant and \"{b}\", its "
              "paraphrase. Past the opening all the prompts share, their vocabularies overlap at {overlap:.2f} "
              "(Jaccard index; 0 = no word in common).",
    },
    "persona.read_intro.any_pair": {
        "fr": "Avant tout chiffre, lisez deux réponses côte à côte : choisissez deux assistants et une sonde.",
        "en": "Before any figure, read two answers side by side: pick two assistants and a probe.",
    },
    "persona.identical.all_identical": {
        "fr": "Les {n} réponses collectées sont toutes identiques : aucune mesure ne peut distinguer les "
              "assistants, et aucune paire ne ressort plus qu'une autre.",
        "en": "All {n} collected answers are identical: no measure can tell the assistants apart, and no pair "
              "stands out from another.",
    },
    "persona.identical.assistant_identical": {
        "fr": "Les {n} réponses de « {name} » sont toutes identiques : il répond la même chose quelle que soit la "
              "question.",
        "en": "All {n} answers of \"{name}\" are identical: it says the same thing whatever the question.",
    },
    "persona.jaccard.closest": {
        "fr": "La paire la plus proche est **{a} / {b}**, à {top:.2f} ; les autres paires vont de {low:.2f} à "
              "{high:.2f}. La mesure sait donc **classer**. Mais {top:.2f}, est-ce beaucoup ?",
        "en": "The closest pair is **{a} / {b}**, at {top:.2f}; the other pairs range from {low:.2f} to {high:.2f}. "
              "So the measure can **rank**. But is {top:.2f} a lot?",
    },
    "persona.jaccard.closest_tie": {
        "fr": "{n_tied} paires sont ex æquo en tête, à {top:.2f} : {pairs}. Aucune n'est « la plus proche ». Les "
              "autres paires vont de {low:.2f} à {high:.2f}.",
        "en": "{n_tied} pairs tie at the top, at {top:.2f}: {pairs}. None is \"the closest\". The other pairs range "
              "from {low:.2f} to {high:.2f}.",
    },
    "persona.jaccard.all_equal": {
        "fr": "Les {n} paires ont toutes le même indice ({top:.2f}) : la mesure ne classe rien.",
        "en": "All {n} pairs have the same index ({top:.2f}): the measure ranks nothing.",
    },
    "persona.jaccard.single_pair": {
        "fr": "Une seule paire, **{a} / {b}**, à {top:.2f} : il n'y a rien à classer.",
        "en": "A single pair, **{a} / {b}**, at {top:.2f}: there is nothing to rank.",
    },
    "persona.jaccard_caveat": {
        "fr": "Rien ici ne dit si un indice est élevé : il n'existe pas de valeur de référence (« voici ce que "
              "donnent deux assistants sans rapport »), et un seuil choisi en regardant ces chiffres serait choisi "
              "pour se donner raison. Surtout, des vocabulaires qui se recouvrent ne disent pas que deux "
              "assistants sont **interchangeables**.",
        "en": "Nothing here says whether an index is high: there is no reference value (\"this is what two "
              "unrelated assistants give\"), and a threshold chosen while looking at these figures would be chosen "
              "to prove ourselves right. Above all, overlapping vocabularies do not say that two assistants are "
              "**interchangeable**.",
    },
    "persona.null_mean": {"fr": "Attendu sans signal", "en": "Expected without signal"},
    "persona.null_mean_help": {
        "fr": "Exactitude moyenne de ce même protocole quand on mélange les auteurs entre les réponses d'une même "
              "sonde. Elle peut être sous 1/k : retirer une réponse prive son auteur de cette sonde.",
        "en": "Mean accuracy of this very protocol when authors are shuffled among the answers to one probe. It "
              "can sit below 1/k: holding an answer out deprives its author of that probe.",
    },
    "persona.interval": {"fr": "Intervalle à 95 % (sondes)", "en": "95% interval (probes)"},
    "persona.interval_help": {
        "fr": "Bootstrap sur les sondes : on retire au sort les sondes (avec remise), pas les réponses, car les "
              "réponses à une même question ne sont pas indépendantes. Le classifieur n'est pas réentraîné.",
        "en": "Bootstrap over probes: the probes are redrawn (with replacement), not the answers, because the "
              "answers to one question are not independent. The classifier is not refitted.",
    },
    "persona.interval_reading.bootstrap": {
        "fr": "Intervalle à 95 % obtenu en retirant au sort les {n_probes} sondes : de {low:.2f} à {high:.2f}.",
        "en": "95% interval from redrawing the {n_probes} probes: from {low:.2f} to {high:.2f}.",
    },
    "persona.interval_reading.zero_width": {
        "fr": "Les {n_probes} sondes donnent toutes la même exactitude ({accuracy:.2f}) : l'intervalle a une "
              "largeur nulle, ce qui ne dit rien de la précision (ce n'est pas une certitude).",
        "en": "All {n_probes} probes give the same accuracy ({accuracy:.2f}): the interval has zero width, which "
              "says nothing about precision (it is not certainty).",
    },
    "persona.interval_reading.single_probe": {
        "fr": "Une seule sonde : rien à retirer au sort, l'intervalle ne dit rien. Ajoutez des sondes.",
        "en": "A single probe: nothing to redraw, the interval says nothing. Add probes.",
    },
    "persona.disc.signal": {
        "fr": "{correct} réponses sur {n} retrouvent leur auteur : exactitude **{accuracy:.2f}**, contre "
              "{chance:.2f} pour un tirage au hasard et {null_mean:.2f} en moyenne pour ce protocole quand les "
              "auteurs sont mélangés. Sur {n_perm} mélanges, la part qui fait aussi bien est {p_perm} : sous "
              "{level:.2f}, les assistants laissent une signature. Un score global moyenne ce qui marche et ce "
              "qui ne marche pas : lisez la matrice.",
        "en": "{correct} of {n} answers find their author: accuracy **{accuracy:.2f}**, against {chance:.2f} for a "
              "random draw and {null_mean:.2f} on average for this protocol when authors are shuffled. Of {n_perm} "
              "shuffles, the share doing as well is {p_perm}: below {level:.2f}, the assistants leave a signature. "
              "An overall score averages what works and what does not: read the matrix.",
    },
    "persona.disc.no_signal": {
        "fr": "{correct} réponses sur {n} retrouvent leur auteur : exactitude **{accuracy:.2f}**, contre "
              "{chance:.2f} pour un tirage au hasard et {null_mean:.2f} en moyenne pour ce protocole quand les "
              "auteurs sont mélangés. Sur {n_perm} mélanges, la part qui fait aussi bien est {p_perm} : pas sous "
              "{level:.2f}, rien ne montre que les assistants se distinguent.",
        "en": "{correct} of {n} answers find their author: accuracy **{accuracy:.2f}**, against {chance:.2f} for a "
              "random draw and {null_mean:.2f} on average for this protocol when authors are shuffled. Of {n_perm} "
              "shuffles, the share doing as well is {p_perm}: not below {level:.2f}, nothing shows that the "
              "assistants differ.",
    },
    "persona.disc.no_null": {
        "fr": "{correct} réponses sur {n} retrouvent leur auteur : exactitude **{accuracy:.2f}**, contre "
              "{chance:.2f} pour un tirage au hasard. Sans permutations, aucun test ne dit si l'écart dépasse "
              "le hasard.",
        "en": "{correct} of {n} answers find their author: accuracy **{accuracy:.2f}**, against {chance:.2f} for a "
              "random draw. Without permutations, no test says whether the gap exceeds chance.",
    },
    "persona.disc.no_prediction": {
        "fr": "Aucune des {n} réponses n'a pu être attribuée : elles sont vides ou à égale distance de tous les "
              "assistants. Toutes comptent comme erreurs ; il n'y a rien à lire dans la matrice.",
        "en": "None of the {n} answers could be assigned: they are empty or equally close to every assistant. All "
              "count as errors; there is nothing to read in the matrix.",
    },
    "persona.undecided": {
        "fr": "{n} réponse(s) sans auteur retrouvé ({n_empty} vide(s), {n_tied} à égale distance de plusieurs "
              "assistants) : elles comptent comme erreurs (colonne « aucun » de la matrice).",
        "en": "{n} answer(s) without a predicted author ({n_empty} empty, {n_tied} equally close to several "
              "assistants): they count as errors (\"none\" column of the matrix).",
    },
    "persona.no_prediction": {"fr": "aucun", "en": "none"},
    "persona.confusion.mutual_redundancy": {
        "fr": "**Confusion mutuelle : {a} ↔ {b}.** {ab} réponse(s) de {a} attribuée(s) à {b}, et {ba} de {b} "
              "à {a}. Ce n'est pas une simple proximité : le classifieur les prend l'un pour l'autre, signature "
              "d'une redondance (deux étiquettes, peut-être un seul assistant).",
        "en": "**Mutual confusion: {a} ↔ {b}.** {ab} answer(s) of {a} assigned to {b}, and {ba} of {b} to {a}. "
              "This is not mere closeness: the classifier takes one for the other, the signature of redundancy "
              "(two labels, perhaps one assistant).",
    },
    "persona.confusion.mutual_swap": {
        "fr": "Échange isolé : {a} ↔ {b} ({ab} et {ba} réponse(s)). Si peu d'échanges arrivent aussi entre "
              "assistants distincts : ce n'est pas une preuve de redondance.",
        "en": "Isolated swap: {a} ↔ {b} ({ab} and {ba} answer(s)). So few swaps also happen between distinct "
              "assistants: this is no evidence of redundancy.",
    },
    "persona.confusion.no_mutual": {
        "fr": "Aucune confusion mutuelle : aucun couple d'assistants ne s'échange ses réponses.",
        "en": "No mutual confusion: no pair of assistants swaps answers.",
    },
    "persona.confusion.no_prediction": {
        "fr": "Aucune réponse attribuée : l'absence de confusion ne dit rien ici.",
        "en": "No answer assigned: the absence of confusion says nothing here.",
    },
    "persona.ex1.pair": {
        "fr": "La paire la plus confondue, dans les deux sens, est **{a} / {b}** avec **{count}** confusions. "
              "C'est elle qu'on propose de fusionner, ou de réécrire.",
        "en": "The most confused pair, both directions counted, is **{a} / {b}** with **{count}** confusions. "
              "That is the pair to merge, or to rewrite.",
    },
    "persona.ex1.pair_weak": {
        "fr": "La paire la plus confondue, dans les deux sens, est **{a} / {b}**, mais avec {count} confusion(s) "
              "seulement ({ab} dans un sens, {ba} dans l'autre) : trop peu pour parler de redondance. Rien à "
              "fusionner sur cette base.",
        "en": "The most confused pair, both directions counted, is **{a} / {b}**, but with only {count} "
              "confusion(s) ({ab} one way, {ba} the other): too few to speak of redundancy. Nothing to merge on "
              "this basis.",
    },
    "persona.ex1.tie": {
        "fr": "{n_tied} paires sont ex æquo avec {count} confusion(s) chacune : {pairs}. Aucune ne se détache : "
              "pas de paire à fusionner sur cette seule base.",
        "en": "{n_tied} pairs tie with {count} confusion(s) each: {pairs}. None stands out: no pair to merge on "
              "this basis alone.",
    },
    "persona.ex1.none": {"fr": "Aucune confusion : il n'y a pas de paire à fusionner.",
                         "en": "No confusion at all: there is no pair to merge."},
    "persona.ex1.no_prediction": {
        "fr": "Aucune des {n} réponses n'a été attribuée : on ne peut désigner aucune paire.",
        "en": "None of the {n} answers was assigned: no pair can be named.",
    },
    "persona.ex2.best_worst": {
        "fr": "Meilleure sonde : n° {best_ids} ({best:.2f}), à garder si l'on réduit le protocole. Pire sonde : "
              "n° {worst_ids} ({worst:.2f}), à réécrire. Avec une réponse par assistant et par sonde, un seul "
              "écart déplace ces chiffres d'un cran.",
        "en": "Best probe: no. {best_ids} ({best:.2f}), the one to keep if the protocol must shrink. Worst probe: "
              "no. {worst_ids} ({worst:.2f}), the one to rewrite. With one answer per assistant and probe, a "
              "single miss moves these figures a full step.",
    },
    "persona.ex2.best_worst_tied": {
        "fr": "En tête, ex æquo ou seule : sonde(s) n° {best_ids} ({best:.2f}). En bas : sonde(s) n° {worst_ids} "
              "({worst:.2f}). Des ex æquo ne désignent pas « la » meilleure ou « la » pire sonde.",
        "en": "At the top, tied or alone: probe(s) no. {best_ids} ({best:.2f}). At the bottom: probe(s) no. "
              "{worst_ids} ({worst:.2f}). Ties name no single best or worst probe.",
    },
    "persona.ex2.flat": {
        "fr": "Toutes les sondes obtiennent la même exactitude ({best:.2f}) : aucune ne sépare mieux qu'une autre.",
        "en": "Every probe has the same accuracy ({best:.2f}): none separates better than another.",
    },
    "persona.ex2.single_probe": {
        "fr": "Une seule sonde a des réponses ({best:.2f}) : il n'y a rien à comparer.",
        "en": "Only one probe has answers ({best:.2f}): there is nothing to compare.",
    },
    "persona.ex2.no_probe": {"fr": "Aucune sonde n'a de réponses.", "en": "No probe has answers."},
    "persona.ex3_restore": {"fr": "Reprendre la réécriture proposée", "en": "Restore the suggested rewrite"},
    "persona.ex3.fixed": {
        "fr": "La confusion {a} / {b} a disparu ({before} → 0) et l'exactitude passe de {acc_before:.2f} à "
              "{acc_after:.2f}.",
        "en": "The {a} / {b} confusion is gone ({before} → 0) and accuracy goes from {acc_before:.2f} to "
              "{acc_after:.2f}.",
    },
    "persona.ex3.reduced": {
        "fr": "La confusion {a} / {b} a reculé ({before} → {after}) sans disparaître, et l'exactitude passe de "
              "{acc_before:.2f} à {acc_after:.2f}.",
        "en": "The {a} / {b} confusion fell ({before} → {after}) without vanishing, and accuracy goes from "
              "{acc_before:.2f} to {acc_after:.2f}.",
    },
    "persona.ex3.moved": {
        "fr": "L'exactitude a monté ({acc_before:.2f} → {acc_after:.2f}), mais la case {a} / {b} n'a pas reculé "
              "({before} → {after} confusions) : le gain vient d'ailleurs. Relisez toute la matrice.",
        "en": "Accuracy rose ({acc_before:.2f} → {acc_after:.2f}), but the {a} / {b} cell did not fall ({before} → "
              "{after} confusions): the gain comes from elsewhere. Read the whole matrix.",
    },
    "persona.ex3.gain": {
        "fr": "L'exactitude passe de {acc_before:.2f} à {acc_after:.2f}.",
        "en": "Accuracy goes from {acc_before:.2f} to {acc_after:.2f}.",
    },
    "persona.ex3.no_gain": {
        "fr": "Pas de progrès : exactitude {acc_before:.2f} → {acc_after:.2f}. Si aucune réécriture n'y arrive, "
              "cet assistant n'a peut-être pas de raison d'exister à part.",
        "en": "No gain: accuracy {acc_before:.2f} → {acc_after:.2f}. If no rewrite manages it, this assistant may "
              "have no reason to exist on its own.",
    },
    "persona.ranks.distances_constant": {
        "fr": "Les {n} paires sont à égalité dans au moins un des classements : un classement fait "
              "d'égalités ne dit rien de l'ordre des paires, on ne compare donc pas les rangs.",
        "en": "All {n} pairs are tied in at least one of the rankings: a ranking made of ties says "
              "nothing about the order of the pairs, so the ranks are not compared.",
    },
    "persona.ranks.ranks_agree": {
        "fr": "Les {n} paires gardent le même rang d'un classement à l'autre, et le test de Mantel le confirme "
              "(p = {p} sur {n_perm} permutations) : ici, les prompts annoncent bien l'écart entre les réponses.",
        "en": "All {n} pairs keep their rank from one ranking to the other, and the Mantel test confirms it "
              "(p = {p} over {n_perm} permutations): here the prompts do foretell how the answers differ.",
    },
    "persona.ranks.ranks_agree_too_few": {
        "fr": "Les {n} paire(s) gardent le même rang, mais {k} assistants ne suffisent pas pour conclure : on ne "
              "peut les permuter que de {n_perm} façons ({k}!), donc p ne descend jamais sous 1/{n_perm}, au-dessus "
              "de 5 %. Un accord parfait à cette taille peut venir du hasard ; il faut au moins 4 assistants.",
        "en": "The {n} pair(s) keep their rank, but {k} assistants are not enough to conclude: they can be "
              "permuted in only {n_perm} ways ({k}!), so p never falls below 1/{n_perm}, above 5%. A perfect match "
              "at this size can come from chance; at least 4 assistants are needed.",
    },
    "persona.ranks.ranks_agree_not_shown": {
        "fr": "Les {n} paires gardent le même rang, mais le test de Mantel ne permet pas de conclure (p = {p} sur "
              "{n_perm} permutations) : on ne peut pas dire que les prompts annoncent l'écart entre les réponses.",
        "en": "All {n} pairs keep their rank, but the Mantel test does not conclude (p = {p} over {n_perm} "
              "permutations): we cannot say the prompts foretell how the answers differ.",
    },
    "persona.ranks.no_rho": {
        "fr": "{changed} paires sur {n} changent de rang. La corrélation de Spearman demande au moins trois "
              "paires et des distances qui varient.",
        "en": "{changed} of {n} pairs change rank. Spearman's correlation needs at least three pairs and "
              "distances that vary.",
    },
    "persona.ranks.mantel_exact": {
        "fr": "{changed} paires sur {n} changent de rang. Corrélation de Spearman entre les deux distances : "
              "ρ = {rho:.2f}. Test de Mantel exact (les paires partagent des assistants : on permute les "
              "assistants, pas les paires, sur les {n_perm} permutations possibles) : p = {p}.",
        "en": "{changed} of {n} pairs change rank. Spearman correlation between the two distances: ρ = {rho:.2f}. "
              "Exact Mantel test (pairs share assistants: the assistants are permuted, not the pairs, over all "
              "{n_perm} permutations): p = {p}.",
    },
    "persona.ranks.mantel_sampled": {
        "fr": "{changed} paires sur {n} changent de rang. Corrélation de Spearman entre les deux distances : "
              "ρ = {rho:.2f}. Test de Mantel sur {n_perm} permutations des assistants tirées au hasard (trop "
              "d'assistants pour toutes les parcourir) : p = {p}.",
        "en": "{changed} of {n} pairs change rank. Spearman correlation between the two distances: ρ = {rho:.2f}. "
              "Mantel test over {n_perm} random permutations of the assistants (too many assistants to go through "
              "them all): p = {p}.",
    },
    "persona.ranks.mantel_too_few": {
        "fr": "{changed} paires sur {n} changent de rang. Corrélation de Spearman entre les deux distances : "
              "ρ = {rho:.2f}, p = {p}. Avec {k} assistants, il n'y a que {n_perm} permutations ({k}!) : p ne "
              "descend jamais sous 1/{n_perm}, au-dessus de 5 %, et le test ne peut pas conclure à cette taille.",
        "en": "{changed} of {n} pairs change rank. Spearman correlation between the two distances: ρ = {rho:.2f}, "
              "p = {p}. With {k} assistants there are only {n_perm} permutations ({k}!): p never falls below "
              "1/{n_perm}, above 5%, and the test cannot conclude at this size.",
    },
    "persona.ranks.closest_unlike_prompts": {
        "fr": "Les réponses les plus proches sont celles de **{a} / {b}** (distance {dr:.2f}), alors que leurs "
              "prompts sont à {dp:.2f}, au rang {rp} sur {n}. On n'audite pas un catalogue en relisant les "
              "prompts : il faut faire parler les assistants.",
        "en": "The closest answers are those of **{a} / {b}** (distance {dr:.2f}), while their prompts are at "
              "{dp:.2f}, rank {rp} of {n}. A catalogue is not audited by reading its prompts: the assistants "
              "must be made to talk.",
    },
    "persona.ranks.closest_as_prompts": {
        "fr": "Les réponses les plus proches sont celles de **{a} / {b}** (distance {dr:.2f}), qui ont aussi les "
              "prompts les plus proches ({dp:.2f}).",
        "en": "The closest answers are those of **{a} / {b}** (distance {dr:.2f}), which also have the closest "
              "prompts ({dp:.2f}).",
    },
    "persona.ranks.closest_tie": {
        "fr": "{n_tied} paires ont des réponses à la même distance minimale ({dr:.2f}) : {pairs}. Aucune n'est "
              "« la plus proche ».",
        "en": "{n_tied} pairs have answers at the same smallest distance ({dr:.2f}): {pairs}. None is \"the "
              "closest\".",
    },
    "persona.unmeasured.needs_recording": {
        "fr": "« {name} » n'est pas mesuré : ses {n} requêtes n'ont pas d'enregistrement. Les enregistrements sont "
              "retrouvés par le texte exact du prompt, et un prompt modifié ou nouveau n'en a pas. Ses réponses "
              "demandent le mode en direct (ou un enregistrement de ce prompt). Les autres assistants sont "
              "mesurés sans lui.",
        "en": "\"{name}\" is not measured: its {n} requests have no recording. Recordings are found by the exact "
              "prompt text, and an edited or new prompt has none. Its answers need live mode (or a recording of "
              "this prompt). The other assistants are measured without it.",
    },
    "persona.restore_prompt": {"fr": "Reprendre le prompt d'origine de « {name} »",
                               "en": "Restore the original prompt of \"{name}\""},
    "persona.unmeasured.too_few_answers": {
        "fr": "« {name} » n'est pas mesuré : {n} réponse(s) utilisable(s), il en faut au moins deux (l'une est mise "
              "de côté, les autres font son centre). Les autres assistants sont mesurés sans lui.",
        "en": "\"{name}\" is not measured: {n} usable answer(s), at least two are needed (one is held out, the "
              "others make its centre). The other assistants are measured without it.",
    },
    "persona.no_measure_yet": {
        "fr": "Pas encore de mesure : il faut au moins deux assistants avec deux réponses chacun (il y en a {n}).",
        "en": "No measure yet: at least two assistants with two answers each are needed (there are {n}).",
    },
    "persona.data_error.all_empty": {
        "fr": "Mesure impossible : toutes les réponses sont vides (aucun mot de trois lettres ou plus hors mots "
              "vides), il n'y a aucun vocabulaire à comparer.",
        "en": "Cannot measure: every answer is empty (no word of three letters or more outside stop words), there "
              "is no vocabulary to compare.",
    },
    "persona.data_error.too_few_responses": {
        "fr": "Mesure impossible : un assistant a moins de deux réponses utilisables.",
        "en": "Cannot measure: an assistant has fewer than two usable answers.",
    },
    "persona.data_error.invalid": {
        "fr": "Mesure impossible : ces réponses ne peuvent pas être comparées telles quelles.",
        "en": "Cannot measure: these answers cannot be compared as they are.",
    },
    "persona.limits": {
        "fr": "Ce que la mesure ne dit pas : une exactitude élevée veut dire que les assistants sont "
              "distinguables, pas qu'ils sont bons. Elle dépend du modèle et des sondes ; avec {n_probes} "
              "sonde(s), l'incertitude est large.",
        "en": "What the measure does not say: high accuracy means the assistants can be told apart, not that "
              "they are good. It depends on the model and the probes; with {n_probes} probe(s), uncertainty is "
              "wide.",
    },
    "persona.prompts_title": {"fr": "Ce qui distingue les prompts", "en": "What tells the prompts apart"},
    "persona.prompts_opening": {"fr": "Les {n} prompts commencent tous par : « {opening} » Voici la suite de chacun.",
                                "en": "All {n} prompts open with: \"{opening}\" Here is what follows in each."},
    "persona.prompt_only_opening": {"fr": "(rien d'autre que l'ouverture commune)",
                                    "en": "(nothing but the shared opening)"},
    "persona.room_held_out": {
        "fr": "Ces chiffres portent sur les {n} sondes. Dans une salle, le tableau met la sonde {probe} de côté : "
              "il classe sur les {visible} autres et mesure à nouveau sur la sonde {probe} (voir la boîte « Soumettre "
              "à la salle »).",
        "en": "These figures cover all {n} probes. In a room, the board holds probe {probe} out: it ranks on the "
              "{visible} others and measures again on probe {probe} (see the “Submit to the room” box)."},
}

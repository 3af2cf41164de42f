"""Texts of the Trigger eval page (pages/trigger.py). Figures are placeholders filled from computed values.

French texts are written with ordinary spaces; `french_spacing` puts the no-break spaces French
typography wants before : ; ? ! % » and after «.
"""

from ui.texts.kappa import french_spacing

_RATE_UNDEFINED = {
    "accuracy": ("indéfinie : aucune décision notée", "undefined: no scored decision"),
    "precision": ("indéfinie : aucune activation", "undefined: no activation"),
    "recall": ("indéfini : aucune requête positive", "undefined: no positive query"),
    "false_activation_rate": ("indéfini : aucune requête négative", "undefined: no negative query"),
}

TEXTS = {
    # ---------------------------------------------------------------- page, data
    "trigger.nav": {"fr": "Déclenchement des skills", "en": "Skill triggering"},
    "trigger.title": {"fr": "Déclenchement : chaque skill s'active-t-il quand il faut, et seulement alors ?",
                      "en": "Triggering: does each skill fire when it should, and only then?"},
    "trigger.intro": {
        "fr": "Un assistant d'entreprise dispose de plusieurs **skills** (outils) décrits en une phrase ou deux. "
              "Au premier tour, le modèle lit ces descriptions et décide d'en activer un, ou aucun. On mesure "
              "cette décision sur des requêtes étiquetées : celles qui doivent déclencher un skill précis, et "
              "des **quasi-homonymes** qui partagent son vocabulaire mais ne doivent rien déclencher.",
        "en": "A workplace assistant has several **skills** (tools), each described in a sentence or two. On the "
              "first turn, the model reads these descriptions and decides to activate one, or none. We measure "
              "that decision on labelled queries: those that must fire a given skill, and **near-homonyms** "
              "that share its vocabulary but must fire nothing."},
    "trigger.data_title": {"fr": "Skills et requêtes", "en": "Skills and queries"},
    "trigger.skills": {"fr": "Catalogue des skills (nom et description, modifiables)",
                       "en": "Skill catalogue (name and description, editable)"},
    "trigger.queries": {"fr": "Requêtes étiquetées", "en": "Labelled queries"},
    "trigger.queries_help": {
        "fr": "« attendu » : le skill qui doit s'activer, ou none si aucun ne doit s'activer. Cochez « mise "
              "de côté » pour les requêtes que personne ne regarde pendant qu'on retouche les descriptions : "
              "elles vérifient ensuite qu'une description n'a pas été ajustée aux seules requêtes visibles.",
        "en": "\"expected\": the skill that must fire, or none when no skill must fire. Tick \"held out\" for "
              "the queries nobody looks at while descriptions are edited: they check afterwards that a "
              "description was not tuned to the visible queries only."},
    "trigger.col_name": {"fr": "nom", "en": "name"},
    "trigger.col_description": {"fr": "description", "en": "description"},
    "trigger.col_id": {"fr": "id", "en": "id"},
    "trigger.col_query": {"fr": "requête", "en": "query"},
    "trigger.col_expected": {"fr": "attendu", "en": "expected"},
    "trigger.col_held_out": {"fr": "mise de côté", "en": "held out"},
    "trigger.reset": {"fr": "Revenir aux données d'origine", "en": "Back to the original data"},
    "trigger.download_skills": {"fr": "Télécharger les skills (JSON)", "en": "Download the skills (JSON)"},
    "trigger.download_queries": {"fr": "Télécharger les requêtes (JSON)", "en": "Download the queries (JSON)"},
    "trigger.upload_skills": {"fr": "Charger des skills (JSON)", "en": "Load skills (JSON)"},
    "trigger.upload_queries": {"fr": "Charger des requêtes (JSON)", "en": "Load queries (JSON)"},
    "trigger.upload_refused": {"fr": "Fichier « {file} » refusé : {reason}", "en": "File \"{file}\" refused: {reason}"},
    "trigger.invalid": {"fr": "Les données ne sont pas utilisables : {error}", "en": "The data cannot be used: {error}"},
    "trigger.where.skill": {"fr": "skill {row}", "en": "skill {row}"},
    "trigger.where.query": {"fr": "requête {row}", "en": "query {row}"},
    "trigger.where.file": {"fr": "le fichier", "en": "the file"},
    "trigger.where.field": {"fr": ", champ « {field} »", "en": ", field \"{field}\""},
    "trigger.error.schema": {"fr": "{where}{field} : {problem}.", "en": "{where}{field}: {problem}."},
    "trigger.rule.required": {"fr": "manquant", "en": "missing"},
    "trigger.rule.additionalProperties": {"fr": "champ inconnu", "en": "not an expected field"},
    "trigger.rule.type": {"fr": "type de valeur inattendu", "en": "unexpected type of value"},
    "trigger.rule.minLength": {"fr": "vide", "en": "empty"},
    "trigger.rule.maxLength": {"fr": "trop long (une description tient en moins de 1 024 caractères)",
                               "en": "too long (a description stays under 1,024 characters)"},
    "trigger.rule.pattern": {"fr": "caractères non permis (lettres, chiffres, - et _)",
                             "en": "characters not allowed (letters, digits, - and _)"},
    "trigger.rule.enum": {"fr": "valeur non prévue", "en": "value not allowed"},
    "trigger.rule.minItems": {"fr": "liste trop courte", "en": "list too short"},
    "trigger.rule.maxItems": {"fr": "liste trop longue", "en": "list too long"},
    "trigger.rule.other": {"fr": "valeur refusée ({rule})", "en": "value refused ({rule})"},
    "trigger.error.not_json": {"fr": "ce n'est pas du JSON valide (ligne {line}).",
                               "en": "this is not valid JSON (line {line})."},
    "trigger.error.duplicate_name": {"fr": "skill {row}, champ « nom » : le nom « {name} » est déjà pris par le skill {other_row}.",
                                     "en": "skill {row}, field \"name\": the name \"{name}\" is already used by skill {other_row}."},
    "trigger.error.names_fold_together": {
        "fr": "skill {row}, champ « nom » : « {name} » ne se distingue pas de « {other} » (skill {other_row}) "
              "une fois la casse, les tirets et les espaces ignorés.",
        "en": "skill {row}, field \"name\": \"{name}\" cannot be told apart from \"{other}\" (skill {other_row}) "
              "once case, dashes and spaces are ignored."},
    "trigger.error.reserved_name": {"fr": "skill {row}, champ « nom » : « {name} » est réservé (il veut dire « aucun skill »).",
                                    "en": "skill {row}, field \"name\": \"{name}\" is reserved (it means \"no skill\")."},
    "trigger.error.duplicate_id": {"fr": "requête {row}, champ « id » : l'identifiant « {id} » est déjà utilisé.",
                                   "en": "query {row}, field \"id\": the id \"{id}\" is already used."},
    "trigger.error.unknown_skill": {"fr": "requête {row}, champ « {field} » : « {name} » n'est pas un skill du catalogue.",
                                    "en": "query {row}, field \"{field}\": \"{name}\" is not a skill of the catalogue."},
    # ---------------------------------------------------------------- collection
    "trigger.collect_title": {"fr": "Décisions du modèle", "en": "The model's decisions"},
    "trigger.runs": {"fr": "Passages par requête", "en": "Runs per query"},
    "trigger.runs_help": {
        "fr": "Chaque requête est envoyée ce nombre de fois : on voit si la décision change d'un passage à l'autre.",
        "en": "Each query is sent this many times: we see whether the decision changes from one run to the next."},
    "trigger.mode": {"fr": "Façon de demander", "en": "How to ask"},
    "trigger.mode.tools": {"fr": "Appel d'outils", "en": "Tool calling"},
    "trigger.mode.json": {"fr": "Réponse JSON", "en": "JSON answer"},
    "trigger.mode_help": {
        "fr": "Appel d'outils : un outil par skill, le modèle choisit librement. Réponse JSON : pour les serveurs "
              "sans appel d'outils, le catalogue est dans le prompt et le modèle répond {\"skill\": nom ou null}.",
        "en": "Tool calling: one tool per skill, the model chooses freely. JSON answer: for servers without tool "
              "calling, the catalogue is in the prompt and the model answers {\"skill\": name or null}."},
    "trigger.replaying": {"fr": "Modèle rejoué : {model}", "en": "Model replayed: {model}"},
    "trigger.cell_label": {"fr": "{id} / passage {run}", "en": "{id} / run {run}"},
    "trigger.missing_offline": {
        "fr": "{n} requêtes n'ont pas d'enregistrement (description modifiée, autre nombre de passages ?) : "
              "non enregistrées, ce ne sont pas des erreurs ; elles restent hors des statuts et des métriques. "
              "Revenez aux données d'origine ou passez en mode direct.",
        "en": "{n} requests have no recording (a description changed, another number of runs?): not recorded, "
              "which is not an error; they stay out of the statuses and the metrics. Go back to the original "
              "data or switch to live mode."},
    "trigger.nothing_yet": {"fr": "Aucune décision pour l'instant.", "en": "No decision yet."},
    "trigger.status": {"fr": "Statut", "en": "Status"},
    "trigger.count": {"fr": "Nombre", "en": "Count"},
    "trigger.status.skill": {"fr": "un skill du catalogue", "en": "a skill of the catalogue"},
    "trigger.status.none": {"fr": "aucun skill (none)", "en": "no skill (none)"},
    "trigger.status.invalid_name": {"fr": "nom inconnu (activation fautive)", "en": "unknown name (false activation)"},
    "trigger.status.empty": {"fr": "réponse vide", "en": "empty answer"},
    "trigger.status.error": {"fr": "erreur", "en": "error"},
    "trigger.statuses_caption": {
        "fr": "Les {empty} réponses vides et {errors} erreurs ne sont jamais comptées comme un « none » "
              "correct : elles restent hors des métriques.",
        "en": "The {empty} empty answers and {errors} errors are never counted as a correct \"none\": they stay "
              "out of the metrics."},
    # ---------------------------------------------------------------- metrics
    "trigger.metrics_title": {"fr": "Métriques", "en": "Metrics"},
    "trigger.rate.accuracy": {"fr": "exactitude", "en": "accuracy"},
    "trigger.rate.precision": {"fr": "précision", "en": "precision"},
    "trigger.rate.recall": {"fr": "rappel", "en": "recall"},
    "trigger.rate.false_activation_rate": {"fr": "activations à tort (négatifs)", "en": "false activations (negatives)"},
    "trigger.rate.n": {"fr": "décisions notées", "en": "scored decisions"},
    "trigger.scored_of": {"fr": "{n} sur {total}", "en": "{n} of {total}"},
    **{f"trigger.undefined.{name}": {"fr": fr, "en": en} for name, (fr, en) in _RATE_UNDEFINED.items()},
    "trigger.reading.no_decisions": {"fr": "Aucune requête n'a été posée.", "en": "No query was asked."},
    "trigger.reading.all_errored": {
        "fr": "Les {total} réponses sont vides ({empty}) ou en erreur ({errors}) : aucune métrique n'est définie.",
        "en": "All {total} answers are empty ({empty}) or errors ({errors}): no metric is defined."},
    "trigger.reading.perfect_score": {
        "fr": "Score parfait sur {n} décisions. Zéro erreur ne prouve pas un taux d'erreur nul : à 95 %, la "
              "borne exacte 1 − 0,05^(1/n) le limite à {query_exact_upper} en comptant les {queries} requêtes, "
              "l'unité de mesure, car les passages répétés d'une requête ne sont pas indépendants (par "
              "décision, elle dirait {exact_upper}). Un score parfait dit souvent que les requêtes sont trop "
              "faciles : ajoutez des quasi-homonymes.",
        "en": "Perfect score on {n} decisions. Zero errors do not prove a zero error rate: at 95%, the exact "
              "bound 1 − 0.05^(1/n) limits it to {query_exact_upper} counting the {queries} queries, the unit "
              "of measurement, since repeated runs of one query are not independent (per decision it would "
              "say {exact_upper}). A perfect score often says the queries are too easy: add near-homonyms."},
    "trigger.reading.all_none": {
        "fr": "Rien ne s'est jamais activé, alors que {positives} décisions attendaient un skill : rappel nul, "
              "et aucune activation à tort pour de mauvaises raisons.",
        "en": "Nothing ever fired although {positives} decisions expected a skill: zero recall, and no false "
              "activation for the wrong reason."},
    "trigger.reading.precision_undefined": {
        "fr": "Aucune activation : la précision est indéfinie (ni 0 ni 1).",
        "en": "No activation: precision is undefined (neither 0 nor 1)."},
    "trigger.reading.always_activates": {
        "fr": "Chaque décision active un skill, y compris sur les {negatives} négatifs ({false_activations} "
              "activations à tort) : un rappel élevé ne vaut rien ici.",
        "en": "Every decision fires a skill, negatives included ({false_activations} false activations on "
              "{negatives}): a high recall is worth nothing here."},
    "trigger.reading.no_positive": {"fr": "Aucune requête positive : le rappel est indéfini.",
                                    "en": "No positive query: recall is undefined."},
    "trigger.reading.no_negative": {
        "fr": "Aucune requête négative : le taux d'activations à tort est indéfini. Ajoutez des quasi-homonymes.",
        "en": "No negative query: the false activation rate is undefined. Add near-homonyms."},
    "trigger.reading.invalid_names": {
        "fr": "Le modèle a nommé un skill qui n'existe pas ({count} fois) : ces activations comptent comme fautives.",
        "en": "Skills that do not exist were named by the model: {count} decision(s), counted as false activations."},
    "trigger.reading.inconsistent_queries": {
        "fr": "{count} requêtes sur {queries} ont reçu des décisions différentes selon le passage : {listed}{more}.",
        "en": "{count} of {queries} queries got different decisions from one run to the next: {listed}{more}."},
    "trigger.and_more": {"fr": " et {n} autres", "en": " and {n} more"},
    "trigger.held_out_title": {"fr": "Requêtes visibles et mises de côté", "en": "Visible and held-out queries"},
    "trigger.held_out_intro": {
        "fr": "{held} requêtes sont mises de côté, {visible} sont visibles. Si une description retouchée fait "
              "mieux sur les visibles mais pas sur les mises de côté, elle a été ajustée à ces requêtes-là.",
        "en": "{held} queries are held out, {visible} are visible. If an edited description does better on the "
              "visible ones but not on the held-out ones, it was tuned to those queries."},
    "trigger.visible": {"fr": "visibles", "en": "visible"},
    "trigger.held_out": {"fr": "mises de côté", "en": "held out"},
    "trigger.mean_tokens": {"fr": "Jetons d'entrée par décision", "en": "Input tokens per decision"},
    "trigger.mean_tokens_help": {"fr": "Moyenne sur les réponses qui donnent ce nombre.",
                                 "en": "Mean over the answers that report it."},
    "trigger.duration": {"fr": "Durée totale (modèle)", "en": "Total duration (model)"},
    "trigger.duration_help": {"fr": "Somme des durées des appels, telles que mesurées (ou enregistrées).",
                              "en": "Sum of the calls' durations, as measured (or recorded)."},
    "trigger.seconds": {"fr": "{s} s", "en": "{s} s"},
    "trigger.not_reported": {"fr": "non mesuré", "en": "not measured"},
    "trigger.gate.gate_pass": {
        "fr": "Porte d'intégration continue : **passe** (exactitude {accuracy}, minimum {min_accuracy}).",
        "en": "Continuous-integration gate: **pass** (accuracy {accuracy}, minimum {min_accuracy})."},
    "trigger.gate.gate_below_min": {
        "fr": "Porte d'intégration continue : **échoue** (exactitude {accuracy}, sous le minimum {min_accuracy}).",
        "en": "Continuous-integration gate: **fails** (accuracy {accuracy}, under the minimum {min_accuracy})."},
    "trigger.gate.gate_unusable_over_limit": {
        "fr": "Porte d'intégration continue : **échoue** : {unusable_rate} de réponses vides ou en erreur, "
              "au-delà de {max_unusable_rate}.",
        "en": "Continuous-integration gate: **fails**: {unusable_rate} of empty or errored answers, beyond "
              "{max_unusable_rate}."},
    "trigger.gate.gate_all_errored": {"fr": "Porte d'intégration continue : **échoue** (aucune décision lisible).",
                                      "en": "Continuous-integration gate: **fails** (no readable decision)."},
    "trigger.gate.gate_no_decisions": {"fr": "Porte d'intégration continue : **échoue** (aucune décision).",
                                       "en": "Continuous-integration gate: **fails** (no decision)."},
    # ---------------------------------------------------------------- errors
    "trigger.errors_title": {"fr": "Où le routage se trompe", "en": "Where routing goes wrong"},
    "trigger.confusion_figure": {"fr": "Attendu (lignes) et obtenu (colonnes)", "en": "Expected (rows) and obtained (columns)"},
    "trigger.obtained": {"fr": "obtenu", "en": "obtained"},
    "trigger.expected": {"fr": "attendu", "en": "expected"},
    "trigger.routed.nothing_routed": {
        "fr": "Rien n'a été routé : aucune des {total} réponses n'est une décision ({empty} vides, {errors} en "
              "erreur). On ne peut donc rien dire des erreurs de routage.",
        "en": "Nothing was routed: none of the {total} answers is a decision ({empty} empty, {errors} failed). So "
              "nothing can be said about routing errors."},
    "trigger.routed.no_routing_error": {"fr": "Aucune erreur de routage sur {n} décisions.",
                                        "en": "No routing error in {n} decisions."},
    "trigger.routed.routing_errors": {"fr": "{count} décisions fausses sur {n} :", "en": "{count} wrong decisions out of {n}:"},
    "trigger.answers_from": {"fr": "Réponses : {badges}", "en": "Answers: {badges}"},
    "trigger.more_errors": {"fr": "{n} autres", "en": "{n} more"},
    "trigger.misroute": {"fr": "attendu {expected} -> obtenu {obtained} : {query} (passage {run})",
                         "en": "expected {expected} -> got {obtained}: {query} (run {run})"},
    # ---------------------------------------------------------------- baseline
    "trigger.baseline_title": {"fr": "Sans modèle : la similarité des mots", "en": "Without a model: word similarity"},
    "trigger.baseline_intro": {
        "fr": "Référence naïve : le cosinus TF-IDF entre la requête et chaque description. Le skill le plus "
              "proche s'active si son score atteint le seuil, sinon aucun. Un modèle qui ne fait pas mieux "
              "ne fait que compter les mots communs.",
        "en": "Naive baseline: the TF-IDF cosine between the query and each description. The closest skill "
              "fires if its score reaches the threshold, else none. A model that does no better only counts "
              "shared words."},
    "trigger.embeddings_title": {"fr": "Avec des plongements (embeddings)", "en": "With embeddings"},
    "trigger.embeddings_live_only": {
        "fr": "Hors ligne, la référence est calculée en TF-IDF seulement. En mode direct sur un serveur "
              "compatible OpenAI, la même référence est aussi calculée sur des plongements (embeddings), qui "
              "rapprochent des mots différents de même sens.",
        "en": "Offline, the baseline is computed with TF-IDF only. In live mode on an OpenAI-compatible server, "
              "the same baseline is also computed on embeddings, which bring together different words of the "
              "same meaning."},
    "trigger.embedding_model": {"fr": "Modèle de plongements (embeddings)", "en": "Embedding model"},
    "trigger.embedding_label": {"fr": "plongements de {n} textes", "en": "embeddings of {n} texts"},
    "trigger.embedding_mismatch": {
        "fr": "Le serveur n'a pas rendu un vecteur de même taille pour chacun des {n} textes : référence "
              "sur plongements impossible.",
        "en": "The server did not return one vector of the same size for each of the {n} texts: no baseline "
              "on embeddings."},
    "trigger.computing": {"fr": "Calcul de la référence…", "en": "Computing the baseline…"},
    "trigger.at_threshold": {"fr": "seuil {threshold}", "en": "threshold {threshold}"},
    "trigger.sweep_figure": {"fr": "Les quatre taux selon le seuil (pointillés : les seuils du tableau)",
                             "en": "The four rates by threshold (dotted: the table's thresholds)"},
    "trigger.threshold": {"fr": "seuil de similarité", "en": "similarity threshold"},
    "trigger.sweep.sweep_undefined": {"fr": "Aucune exactitude définie : pas de requête.",
                                      "en": "No accuracy defined: no query."},
    "trigger.sweep.sweep_best": {"fr": "Meilleure exactitude de la référence : {accuracy}, au seuil {threshold}.",
                                 "en": "Best accuracy of the baseline: {accuracy}, at threshold {threshold}."},
    "trigger.sweep.sweep_tie": {
        "fr": "Meilleure exactitude de la référence : {accuracy}, atteinte par {count} seuils de {low} à {high} : "
              "aucun n'est « le » bon seuil.",
        "en": "Best accuracy of the baseline: {accuracy}, reached by {count} thresholds from {low} to {high}: "
              "none is \"the\" right threshold."},
    # ---------------------------------------------------------------- before / after
    "trigger.edit_title": {"fr": "Avant et après une description retouchée", "en": "Before and after an edited description"},
    "trigger.edit_intro": {
        "fr": "Réécrivez la description d'un skill : les mêmes requêtes sont reposées et les deux séries de "
              "métriques (par requête) sont comparées par le test exact de McNemar, qui ne regarde que les "
              "requêtes dont la décision a changé.",
        "en": "Rewrite one skill's description: the same queries are asked again and the two sets of metrics "
              "(per query) are compared with McNemar's exact test, which only looks at the queries whose "
              "decision changed."},
    "trigger.edit_power": {
        "fr": "Ce qu'il peut dire sur {n} requêtes : même si toutes les requêtes changées vont dans le même sens, "
              "il en faut au moins {needed} pour que p passe sous {alpha}. En dessous, « pas de différence "
              "établie » ne veut pas dire « sans effet ». Et ce qu'il établit ne vaut que pour ces requêtes-là.",
        "en": "What it can say on {n} queries: even if every changed query goes the same way, it takes at least "
              "{needed} of them for p to fall under {alpha}. Below that, \"no difference established\" does not "
              "mean \"no effect\". And what it establishes holds for these queries only."},
    "trigger.edit_skill": {"fr": "Skill à retoucher", "en": "Skill to edit"},
    "trigger.edit_description": {"fr": "Nouvelle description", "en": "New description"},
    "trigger.edit_use_example": {"fr": "Essayer la retouche proposée", "en": "Try the suggested rewrite"},
    "trigger.edit_example_help": {
        "fr": "Hors ligne, seule cette retouche a des décisions enregistrées (rédigées à la main) : elle place "
              "l'exclusion des actions en tête de la description.",
        "en": "Offline, only this rewrite has recorded decisions (written by hand): it puts the exclusion of "
              "actions at the start of the description."},
    "trigger.edit_unchanged": {"fr": "Modifiez la description pour comparer.", "en": "Change the description to compare."},
    "trigger.edit_offline": {
        "fr": "Hors ligne, la description retouchée n'a pas d'enregistrement ({n} requêtes) : essayez la retouche "
              "proposée, ou passez en mode direct pour reposer les requêtes.",
        "en": "Offline, the edited description has no recording ({n} requests): try the suggested rewrite, or "
              "switch to live mode to ask the queries again."},
    "trigger.side.before": {"fr": "avant", "en": "before"},
    "trigger.side.after": {"fr": "après", "en": "after"},
    "trigger.mcnemar.mcnemar_no_pairs": {"fr": "Aucune requête notée des deux côtés : pas de comparaison.",
                                         "en": "No query scored on both sides: no comparison."},
    "trigger.mcnemar.mcnemar_no_change": {
        "fr": "Aucune des {n} requêtes n'a changé de verdict : le test n'a rien à peser.",
        "en": "None of the {n} queries changed verdict: the test has nothing to weigh."},
    "trigger.mcnemar.mcnemar_too_few_changes": {
        "fr": "{b} requêtes se dégradent, {c} s'améliorent (p = {p_value}). Avec moins de {needed} requêtes "
              "changées, ce test ne peut jamais conclure au seuil {alpha}, quel que soit le sens : ce n'est pas "
              "la preuve que la retouche est sans effet.",
        "en": "{b} queries got worse, {c} got better (p = {p_value}). With fewer than {needed} changed queries, "
              "this test can never conclude at the {alpha} level, whichever the direction: it is no proof that "
              "the edit has no effect."},
    "trigger.mcnemar.mcnemar_significant": {
        "fr": "{b} requêtes se dégradent, {c} s'améliorent : p = {p_value} < {alpha}, la version {better} "
              "est meilleure sur ces {n} requêtes (et sur ces requêtes-là seulement).",
        "en": "{b} queries got worse, {c} got better: p = {p_value} < {alpha}, the {better} version is better "
              "on these {n} queries (and on these queries only)."},
    "trigger.mcnemar.mcnemar_not_significant": {
        "fr": "{b} requêtes se dégradent, {c} s'améliorent : p = {p_value}, pas de différence établie sur {n} "
              "requêtes. Cela ne montre pas que la retouche est sans effet : ce test n'établit un écart que "
              "si au moins {needed} requêtes de plus changent dans un sens que dans l'autre.",
        "en": "{b} queries got worse, {c} got better: p = {p_value}, no difference established on {n} queries. "
              "That does not show the edit has no effect: this test only establishes a gap when at least "
              "{needed} more queries change one way than the other."},
    # ---------------------------------------------------------------- command line
    "trigger.cli_title": {"fr": "En ligne de commande et en intégration continue",
                          "en": "From the command line and in continuous integration"},
    "trigger.cli_intro": {
        "fr": "La même mesure tourne en ligne de commande : elle écrit `triggering-<modèle>.json` et sort en "
              "code 1 sous le seuil (`TRIGGER_MIN_ACCURACY`, 0,85 par défaut), 2 quand rien n'a pu être mesuré "
              "(usage, données, clé, modèle, serveur, délai `--timeout`), les causes groupées dans le rapport. "
              "Un exemple de workflow GitHub Actions est dans `docs/trigger-gate-workflow.yml`.",
        "en": "The same measure runs from the command line: it writes `triggering-<model>.json` and exits with "
              "code 1 under the threshold (`TRIGGER_MIN_ACCURACY`, 0.85 by default), 2 when the run could not be "
              "measured (usage, data, key, model, server, `--timeout`), with the causes grouped in the report. An "
              "example GitHub Actions workflow is in `docs/trigger-gate-workflow.yml`."},
    "trigger.limits": {
        "fr": "Limites : {n} requêtes écrites pour l'atelier, premier tour seulement (on mesure si le skill "
              "s'active, pas ce qu'il fait ensuite). Les exemples hors ligne sont rédigés à la main, pas mesurés.",
        "en": "Limits: {n} queries written for the workshop, first turn only (we measure whether the skill fires, "
              "not what it does next). The offline examples are written by hand, not measured."},
    # field names in messages: the columns of the editor as the page titles them (trigger.col_*)
    "trigger.col_near_miss_of": {"fr": "proche de", "en": "near miss of"},
    "trigger.col_language": {"fr": "langue", "en": "language"},
    "trigger.col_register": {"fr": "registre", "en": "register"},
    "trigger.col_explicit": {"fr": "explicite", "en": "explicit"},
    "trigger.col_skills": {"fr": "skills", "en": "skills"},
    "trigger.col_queries": {"fr": "requêtes", "en": "queries"},
    "trigger.error.not_utf8": {"fr": "le fichier n'est pas du texte UTF-8 : enregistrez-le en UTF-8.",
                               "en": "the file is not UTF-8 text: save it as UTF-8."},
    # ---------------------------------------------------------------- intervals with the query as the unit
    "trigger.metrics_intro_clustered": {
        "fr": "Chaque taux avec son intervalle de confiance à 95 %, dont l'**unité est la requête** : les "
              "passages d'une même requête forment un seul groupe, car un modèle qui se trompe sur une requête "
              "se trompe souvent à chaque passage. L'intervalle « par décision », qui compte chaque passage "
              "comme un essai indépendant (Clopper-Pearson), est donné à côté : plus étroit dès qu'il y a "
              "plusieurs passages, il surestime ce que l'on sait. Avec un seul passage, les deux coïncident.",
        "en": "Each rate with its 95% confidence interval, whose **unit is the query**: the runs of one query "
              "form a single cluster, since a model that gets a query wrong often gets it wrong on every run. "
              "The \"per decision\" interval, which counts each run as an independent trial (Clopper-Pearson), "
              "is shown beside it: narrower as soon as there are several runs, it overstates what we know. "
              "With one run, the two coincide."},
    "trigger.col.rate": {"fr": "{title} : taux, IC 95 % par requête", "en": "{title}: rate, 95% CI per query"},
    "trigger.col.per_decision": {"fr": "{title} : IC 95 % par décision", "en": "{title}: 95% CI per decision"},
    "trigger.all": {"fr": "toutes les requêtes", "en": "all queries"},
    "trigger.cluster.clustered_undefined": {"fr": "Aucune décision notée : pas d'intervalle.",
                                            "en": "No scored decision: no interval."},
    "trigger.cluster.clustered_one_item": {
        "fr": "Une seule requête : ses {n} passages ne disent rien des autres requêtes, l'intervalle "
              "({low_share} à {high_share}) couvre presque tout.",
        "en": "A single query: its {n} runs say nothing of other queries, so the interval ({low_share} to "
              "{high_share}) covers almost everything."},
    "trigger.cluster.clustered_one_run_each": {
        "fr": "Un passage par requête : l'intervalle de l'exactitude ({low_share} à {high_share}) est celui de "
              "Clopper-Pearson sur les {items} requêtes.",
        "en": "One run per query: the accuracy interval ({low_share} to {high_share}) is Clopper-Pearson's "
              "over the {items} queries."},
    "trigger.cluster.clustered_unanimous": {
        "fr": "Les {n} passages des {items} requêtes donnent tous le même verdict : rien ne dit s'ils sont "
              "indépendants, donc chaque requête compte une fois ({low_share} à {high_share} ; par décision, "
              "{decision_low_share} à {decision_high_share}).",
        "en": "All {n} runs of the {items} queries give the same verdict: nothing tells whether they are "
              "independent, so each query counts once ({low_share} to {high_share}; per decision, "
              "{decision_low_share} to {decision_high_share})."},
    "trigger.cluster.clustered_correlated": {
        "fr": "Les passages d'une même requête se ressemblent : les {n} décisions des {items} requêtes "
              "valent environ {effective} décisions indépendantes. Exactitude de {low_share} à {high_share} "
              "(unité : la requête), contre {decision_low_share} à {decision_high_share} si chaque passage "
              "comptait comme un essai indépendant.",
        "en": "Runs of one query resemble each other: the {n} decisions of the {items} queries are worth "
              "about {effective} independent decisions. Accuracy from {low_share} to {high_share} (unit: the "
              "query), against {decision_low_share} to {decision_high_share} if each run counted as an "
              "independent trial."},
    "trigger.cluster.clustered_as_independent": {
        "fr": "Les passages varient autant que des essais indépendants : les deux intervalles de l'exactitude "
              "coïncident ({low_share} à {high_share}).",
        "en": "The runs vary as much as independent trials: the two accuracy intervals coincide ({low_share} "
              "to {high_share})."},
    "trigger.sweep.sweep_tie_split": {
        "fr": "Meilleure exactitude de la référence : {accuracy}, atteinte par {count} seuils en plusieurs "
              "plages séparées par des seuils moins bons : {ranges}{more}. Aucun n'est « le » bon seuil.",
        "en": "Best accuracy of the baseline: {accuracy}, reached by {count} thresholds in several ranges "
              "separated by thresholds that score lower: {ranges}{more}. None is \"the\" right threshold."},
    "trigger.sweep.range": {"fr": "{low} à {high}", "en": "{low} to {high}"},
    "trigger.sweep.range_separator": {"fr": " ; ", "en": ", "},
    "trigger.sweep.ranges_more": {"fr": " et {n} autres plages", "en": " and {n} more ranges"},
    "trigger.gate_interval": {
        "fr": "Intervalle à 95 % de l'exactitude (unité : la requête) : {low} à {high}.",
        "en": "95% interval of the accuracy (unit: the query): {low} to {high}."},
}

for _texts in TEXTS.values():
    _texts["fr"] = french_spacing(_texts["fr"])

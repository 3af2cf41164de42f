"""Texts of the LLM-as-judge page (pages/judge.py). Figures are placeholders filled from computed values.

French typography as on the Kappa page (`ui.texts.kappa.french_spacing`).
"""

from ui.texts.kappa import french_spacing

_STATUSES = {
    "scored": ("noté", "scored", "Note valide : la seule qui entre dans les moyennes.",
               "A valid grade: the only kind that enters the means."),
    "unparseable": ("illisible", "unparseable", "Pas d'objet JSON lisible, ou un champ manquant ou mal typé.",
                    "No readable JSON object, or a field missing or of the wrong type."),
    "out_of_range": ("hors barème", "out of range", "Un critère hors de ses bornes.", "A criterion outside its range."),
    "inconsistent": ("incohérent", "inconsistent", "Le total n'est pas la somme des critères.",
                     "The total is not the sum of the criteria."),
    "truncated": ("tronqué", "truncated", "Réponse du juge coupée (limite de jetons).",
                  "The judge's reply was cut (token limit)."),
    "empty": ("vide", "empty", "Le juge n'a rien répondu.", "The judge returned nothing."),
    "error": ("erreur", "error", "L'appel a échoué, ou il n'y avait pas de réponse à noter.",
              "The call failed, or there was no response to grade."),
}

_PROBLEMS = {
    "no_object": ("aucun objet JSON dans la réponse", "no JSON object in the reply"),
    "invalid_json": ("JSON invalide", "invalid JSON"),
    "missing_field": ("un champ manque", "a field is missing"),
    "not_integer": ("une note n'est pas un entier", "a score is not an integer"),
    "not_text": ("un commentaire n'est pas du texte", "a comment is not text"),
    "out_of_range": ("une note sort de son barème", "a score is out of its range"),
    "total_mismatch": ("le total n'est pas la somme des critères", "the total is not the sum of the criteria"),
    "cut": ("coupée par la limite de jetons", "cut by the token limit"),
    "unclosed_object": ("objet JSON non refermé", "unclosed JSON object"),
    "empty_reply": ("réponse vide", "empty reply"),
    "call_failed": ("l'appel au juge a échoué", "the call to the judge failed"),
    "generation_failed": ("la génération a échoué", "the generation failed"),
    "empty_response": ("réponse vide notée 0 par le code", "empty response scored 0 by code"),
    "copied_from_response": ("le juge n'a fait que recopier la note écrite dans la réponse",
                             "the judge only repeated the grade written in the response"),
    "ambiguous_field": ("un champ figure deux fois avec deux valeurs", "a field appears twice with two values"),
}

_FLAGS = {
    "ignore_instructions": ("ordre d'ignorer les consignes", "order to ignore instructions"),
    "addresses_grader": ("s'adresse au correcteur", "addresses the grader"),
    "asks_for_score": ("réclame une note", "asks for a score"),
    "embedded_grade": ("note JSON toute faite", "ready-made JSON grade"),
    "fence_tag": ("imite les balises", "imitates the tags"),
}

_CHECKS = {
    "length": ("Longueur", "Length"), "json_parses": ("JSON lisible", "JSON parses"),
    "python_parses": ("Python analysable", "Python parses"), "regex_compiles": ("Regex compile", "Regex compiles"),
    "regex_examples": ("Exemples regex", "Regex examples"),
}

_RULES = {
    "required": ("est obligatoire", "is required"), "enum": ("n'est pas une valeur permise", "is not an allowed value"),
    "minLength": ("est vide", "is empty"), "type": ("n'a pas le bon type", "has the wrong type"),
    "additionalProperties": ("n'est pas un champ attendu", "is not an expected field"),
    "minimum": ("est trop petit", "is too small"), "maximum": ("est trop grand", "is too large"),
    "minItems": ("est vide", "is empty"), "pattern": ("n'a pas la forme attendue", "does not have the expected form"),
}

TEXTS = {
    "judge.nav": {"fr": "LLM juge", "en": "LLM as a judge"},
    "judge.title": {"fr": "Un LLM comme juge : le code d'abord, le modèle pour le reste",
                    "en": "An LLM as a judge: code first, the model for the rest"},
    "judge.intro": {
        "fr": "Un assistant de code répond à des demandes d'une équipe cloud. Ce que le code peut trancher "
              "(le JSON se lit-il ? le Python s'analyse-t-il ? la regex compile-t-elle et reconnaît-elle ses "
              "exemples ?) est tranché par le code. Un second modèle, le **juge**, note le reste avec une grille. "
              "La page montre aussi où le juge échoue (notes illisibles, totaux faux, réponses coupées) et ses "
              "biais (ordre, longueur, injection, préférence pour lui-même).",
        "en": "A coding assistant answers a cloud team's requests. What code can decide (does the JSON parse? does "
              "the Python parse? does the regex compile and match its examples?) is decided by code. A second "
              "model, the **judge**, grades the rest with a rubric. The page also shows where the judge fails "
              "(unreadable grades, wrong totals, cut replies) and its biases (order, length, injection, "
              "preference for itself)."},
    "judge.data_title": {"fr": "Données et consignes", "en": "Data and prompts"},
    "judge.cases_title": {"fr": "Les demandes (modifiables)", "en": "The requests (editable)"},
    "judge.cases_help": {
        "fr": "Une ligne par demande. Pour une regex, séparez les exemples par « {separator} ».",
        "en": "One row per request. For a regex, separate the examples with “{separator}”."},
    "judge.cases_upload": {"fr": "Remplacer par un fichier JSON", "en": "Replace with a JSON file"},
    "judge.cases_download": {"fr": "Télécharger (JSON)", "en": "Download (JSON)"},
    "judge.upload_failed": {"fr": "Le fichier {name} n'a pas été chargé.", "en": "The file {name} was not loaded."},
    "judge.no_cases": {"fr": "Ajoutez au moins une demande.", "en": "Add at least one request."},
    "judge.templates_title": {"fr": "Les gabarits de génération A et B", "en": "Generation templates A and B"},
    "judge.template": {"fr": "Gabarit {name}", "en": "Template {name}"},
    "judge.template_help": {
        "fr": "Avec exactement {context}, {type} et {input}. Une accolade littérale s'écrit {{ ou }}.",
        "en": "With exactly {context}, {type} and {input}. Write a literal brace as {{ or }}."},
    "judge.rubric_title": {"fr": "La grille du juge (modifiable)", "en": "The judge's rubric (editable)"},
    "judge.rubric_total": {"fr": "Total sur {total} points : la somme des critères.",
                           "en": "Total out of {total} points: the sum of the criteria."},
    "judge.fix_inputs": {"fr": "Corrigez les données ou les consignes ci-dessus pour lancer l'évaluation.",
                         "en": "Fix the data or prompts above to run the evaluation."},
    "judge.column.id": {"fr": "Demande", "en": "Request"},
    "judge.column.type": {"fr": "Type", "en": "Type"},
    "judge.column.difficulty": {"fr": "Difficulté", "en": "Difficulty"},
    "judge.column.input": {"fr": "Demande (texte)", "en": "Request (text)"},
    "judge.column.context": {"fr": "Contexte", "en": "Context"},
    "judge.column.must_match": {"fr": "Doit reconnaître", "en": "Must match"},
    "judge.column.must_not_match": {"fr": "Ne doit pas reconnaître", "en": "Must not match"},
    "judge.column.regex_mode": {"fr": "Mode regex", "en": "Regex mode"},
    "judge.column.criterion": {"fr": "Critère", "en": "Criterion"},
    "judge.column.max_points": {"fr": "Points max", "en": "Max points"},
    "judge.column.description": {"fr": "Ce qu'il vérifie", "en": "What it checks"},
    "judge.column.status": {"fr": "Statut", "en": "Status"},
    "judge.column.score": {"fr": "Note", "en": "Score"},
    "judge.column.injection": {"fr": "Injection", "en": "Injection"},
    "judge.column.clean_score": {"fr": "Note sans l'injection", "en": "Score without the injection"},
    "judge.error.schema_case": {"fr": "Demande {row}, champ {field} : {rule}.",
                                "en": "Request {row}, field {field}: {rule}."},
    "judge.error.schema_criterion": {"fr": "Critère {row}, champ {field} : {rule}.",
                                     "en": "Criterion {row}, field {field}: {rule}."},
    "judge.error.schema_file": {"fr": "Champ {field} : {rule}.", "en": "Field {field}: {rule}."},
    "judge.error.not_json": {"fr": "Ce n'est pas du JSON valide (ligne {line}).",
                             "en": "This is not valid JSON (line {line})."},
    "judge.error.duplicate_id": {"fr": "Demande {row} : l'identifiant {id} est déjà pris.",
                                 "en": "Request {row}: the id {id} is already used."},
    "judge.error.regex_field": {"fr": "Demande {row} : seule une demande Regex prend des exemples ({field}).",
                                "en": "Request {row}: only a Regex request takes examples ({field})."},
    "judge.error.max_chars": {"fr": "La longueur maximale doit être un nombre entier.",
                              "en": "The maximum length must be a whole number."},
    "judge.error.unknown_placeholder": {
        "fr": "Gabarit {template} : le champ {{{placeholder}}} est inconnu ; utilisez {{context}}, {{type}} et {{input}}.",
        "en": "Template {template}: unknown placeholder {{{placeholder}}}; use {{context}}, {{type}} and {{input}}."},
    "judge.error.missing_placeholder": {"fr": "Gabarit {template} : le champ {{{placeholder}}} manque.",
                                        "en": "Template {template}: the placeholder {{{placeholder}}} is missing."},
    "judge.error.format_spec": {"fr": "Gabarit {template} : écrivez {{{placeholder}}} sans format ni conversion.",
                                "en": "Template {template}: write {{{placeholder}}} without a format or conversion."},
    "judge.error.malformed": {
        "fr": "Gabarit {template} : accolade mal placée (une accolade littérale s'écrit {{{{ ou }}}}).",
        "en": "Template {template}: a misplaced brace (write a literal brace as {{{{ or }}}})."},
    "judge.error.duplicate_name": {"fr": "Critère {row} : le nom {name} est déjà pris.",
                                   "en": "Criterion {row}: the name {name} is already used."},
    "judge.error.reserved_name": {"fr": "Critère {row} : le nom {name} est une clé de la réponse du juge.",
                                  "en": "Criterion {row}: the name {name} is a key of the judge's answer."},
    # ---------------------------------------------------------------- run
    "judge.run_title": {"fr": "Générer puis juger", "en": "Generate, then judge"},
    "judge.offline_intro": {
        "fr": "Hors ligne, la page rejoue des réponses enregistrées : choisissez le générateur, puis le juge "
              "qui a noté ses réponses.",
        "en": "Offline, the page replays recorded answers: choose the generator, then the judge that graded "
              "its responses."},
    "judge.source_generator": {"fr": "Générateur rejoué", "en": "Generator replayed"},
    "judge.source_judge": {"fr": "Juge rejoué", "en": "Judge replayed"},
    "judge.judge_model": {"fr": "Modèle juge", "en": "Judge model"},
    "judge.judge_model_help": {"fr": "Vide : le modèle de la barre latérale (il se jugera lui-même).",
                               "en": "Empty: the sidebar's model (it will judge itself)."},
    "judge.json_mode": {"fr": "Le serveur accepte response_format (JSON)",
                        "en": "The server accepts response_format (JSON)"},
    "judge.json_mode_help": {"fr": "Sinon, la note est extraite du texte du juge.",
                             "en": "Otherwise the grade is extracted from the judge's text."},
    "judge.blinding_toggle": {"fr": "Masquer les présentations avant de noter", "en": "Blind self-introductions before grading"},
    "judge.blinding_help": {
        "fr": "Retire les lignes où la réponse dit quel modèle l'a écrite, pour que le juge ne le sache pas.",
        "en": "Removes the lines where the response says which model wrote it, so the judge does not know."},
    "judge.run_params": {
        "fr": "Générateur {generator} · juge {judge} · {n} demandes × gabarits A et B · température {temperature} · "
              "{max_tokens} jetons max par appel · les deux appels d'une demande s'enchaînent dès que la réponse arrive.",
        "en": "Generator {generator} · judge {judge} · {n} requests × templates A and B · temperature {temperature} · "
              "{max_tokens} tokens max per call · a request's two calls are chained as soon as its answer arrives."},
    "judge.no_temperature": {"fr": "non envoyée", "en": "not sent"},
    "judge.run": {"fr": "Lancer ({n} chaînes)", "en": "Run ({n} chains)"},
    "judge.run_probes": {"fr": "Lancer les sondes de biais ({n})", "en": "Run the bias probes ({n})"},
    "judge.replaying": {"fr": "Relecture des enregistrements…", "en": "Replaying the recordings…"},
    "judge.progress_start": {"fr": "0/{total} chaînes", "en": "0/{total} chains"},
    "judge.progress": {"fr": "{done}/{total} chaînes · {unscored} non notées · {elapsed:.0f} s",
                       "en": "{done}/{total} chains · {unscored} unscored · {elapsed:.0f} s"},
    "judge.nothing_yet": {"fr": "Aucune des {n} demandes n'a encore été jugée.", "en": "None of the {n} requests has been judged yet."},
    "judge.partial": {"fr": "{done} demandes sur {total} jugées : les analyses portent sur elles.",
                      "en": "{done} of {total} requests judged: the analyses cover them."},
    # ---------------------------------------------------------------- grades
    "judge.grades_title": {"fr": "Les notes", "en": "The grades"},
    "judge.template_shown": {"fr": "Résultats affichés", "en": "Results shown"},
    "judge.ab_needs_both": {"fr": "La comparaison A contre B demande les deux gabarits : corrigez celui qui est signalé plus haut.",
                            "en": "The A vs B comparison needs both templates: fix the one flagged above."},
    "judge.unscored_title": {"fr": "Notes écartées ({n}) et texte brut du juge",
                             "en": "Grades left out ({n}) and the judge's raw text"},
    "judge.unscored_case": {"fr": "**{case}** · {status} · {problem}", "en": "**{case}** · {status} · {problem}"},
    "judge.no_raw": {"fr": "(pas de texte)", "en": "(no text)"},
    "judge.checks_caption": {
        "fr": "✓ réussi · ✗ échoué · — sans objet. Le Python est analysé (ast), jamais exécuté.",
        "en": "✓ passed · ✗ failed · — not applicable. Python is parsed (ast), never executed."},
    "judge.responses_title": {"fr": "Lire une demande, sa réponse et la note brute",
                              "en": "Read a request, its response and the raw grade"},
    "judge.request_caption": {"fr": "Demande", "en": "Request"},
    "judge.response_caption": {"fr": "Réponse de l'assistant", "en": "Assistant's response"},
    "judge.judge_caption": {"fr": "Texte brut du juge", "en": "Judge's raw text"},
    "judge.empty_response": {"fr": "(réponse vide)", "en": "(empty response)"},
    # ---------------------------------------------------------------- analyses
    "judge.analyses_title": {"fr": "Analyses", "en": "Analyses"},
    "judge.means_title": {"fr": "Note moyenne, avec n et intervalle de confiance à 95 %",
                          "en": "Mean score, with n and a 95% confidence interval"},
    "judge.means_by_type": {"fr": "Par type de sortie", "en": "By output type"},
    "judge.means_by_difficulty": {"fr": "Par difficulté", "en": "By difficulty"},
    "judge.mean_n": {"fr": "{mean} (n = {n})", "en": "{mean} (n = {n})"},
    "judge.group_ci": {"fr": "{group} : IC {ci}, {n} notées sur {cases}", "en": "{group}: CI {ci}, {n} scored of {cases}"},
    "judge.score_axis": {"fr": "Note", "en": "Score"},
    "judge.points_axis": {"fr": "Points", "en": "Points"},
    "judge.cases_word": {"fr": "Demandes", "en": "Requests"},
    "judge.distribution_title": {"fr": "Répartition des notes", "en": "Score distribution"},
    "judge.criteria_title": {"fr": "Moyenne par critère", "en": "Mean per criterion"},
    "judge.criterion_text": {"fr": "{mean} / {max}", "en": "{mean} / {max}"},
    "judge.weakest_title": {"fr": "Les trois demandes les plus faibles", "en": "The three weakest requests"},
    "judge.weak_case": {"fr": "**{case}** · {score} points · noté par {by}", "en": "**{case}** · {score} points · scored by {by}"},
    "judge.by.judge": {"fr": "le juge", "en": "the judge"},
    "judge.by.code": {"fr": "le code", "en": "code"},
    "judge.no_weaknesses": {"fr": "(le juge n'a pas écrit de faiblesse)", "en": "(the judge wrote no weakness)"},
    "judge.key.type": {"fr": "type", "en": "type"},
    "judge.key.difficulty": {"fr": "difficulté", "en": "difficulty"},
    "judge.difficulty.easy": {"fr": "facile", "en": "easy"},
    "judge.difficulty.medium": {"fr": "moyenne", "en": "medium"},
    "judge.difficulty.hard": {"fr": "difficile", "en": "hard"},
    "judge.validity_title": {"fr": "Validité : le code contre le juge", "en": "Validity: code against the judge"},
    "judge.validity_intro": {
        "fr": "Pour chaque réponse notée par le juge et vérifiable par le code, deux verdicts : valide (1) ou "
              "non (0). Le juge dit « valide » quand il donne au moins {share} des points de VALIDITY.",
        "en": "For each response graded by the judge that code can check, two verdicts: valid (1) or not (0). "
              "The judge says “valid” when it gives at least {share} of the VALIDITY points."},
    "judge.send_to_kappa": {"fr": "Étudier ces verdicts sur la page Kappa", "en": "Study these verdicts on the Kappa page"},
    "judge.send_to_kappa_help": {"fr": "Évaluateur A : le code ; évaluateur B : le juge.",
                                 "en": "Rater A: code; rater B: the judge."},
    "judge.sent_back": {"fr": "Verdicts copiés sur la page Kappa : évaluateur A le code, évaluateur B le juge.",
                        "en": "Verdicts copied to the Kappa page: rater A is code, rater B the judge."},
    "judge.human_title": {"fr": "Notes humaines contre le juge", "en": "Human scores against the judge"},
    "judge.human_intro": {
        "fr": "Une ligne par demande : « identifiant,note » (note entière de 0 à {max}). Le kappa pondéré "
              "(quadratique) compte moins un écart d'un point qu'un écart de trois.",
        "en": "One line per request: “id,score” (a whole score from 0 to {max}). The weighted (quadratic) kappa "
              "counts a one-point gap less than a three-point gap."},
    "judge.human_typed": {"fr": "Notes saisies", "en": "Typed scores"},
    "judge.human_upload": {"fr": "Ou un fichier CSV", "en": "Or a CSV file"},
    "judge.human_template": {"fr": "Modèle de fichier", "en": "File template"},
    "judge.human_not_text": {"fr": "Le fichier {name} n'est pas du texte UTF-8.", "en": "The file {name} is not UTF-8 text."},
    "judge.human_error.bad_line": {"fr": "Ligne {line} : attendu « identifiant,note ».", "en": "Line {line}: expected “id,score”."},
    "judge.human_error.unknown_case": {"fr": "Ligne {line} : aucune demande {case}.", "en": "Line {line}: no request {case}."},
    "judge.human_error.duplicate": {"fr": "Ligne {line} : la demande {case} est notée deux fois.",
                                    "en": "Line {line}: request {case} is scored twice."},
    "judge.human_error.not_integer": {"fr": "Ligne {line} : {value} n'est pas un nombre entier.",
                                      "en": "Line {line}: {value} is not a whole number."},
    "judge.human_error.out_of_range": {"fr": "Ligne {line} : {value} est hors de l'échelle 0–{max}.",
                                       "en": "Line {line}: {value} is outside 0–{max}."},
    "judge.ab_title": {"fr": "Gabarit A contre gabarit B, sur les mêmes demandes",
                       "en": "Template A against template B, on the same requests"},
    "judge.ab_figure": {"fr": "Écart de note B − A par demande", "en": "Score difference B − A per request"},
    "judge.ab_excluded": {"fr": "{n} demandes écartées : pas notées sous les deux gabarits.",
                          "en": "{n} requests left out: not scored under both templates."},
    "judge.wins_value": {"fr": "{b} / {ties} / {a}", "en": "{b} / {ties} / {a}"},
    "judge.injection_title": {"fr": "Injection : des réponses qui parlent au correcteur",
                              "en": "Injection: responses that talk to the grader"},
    "judge.probes_title": {"fr": "Les biais du juge", "en": "The judge's biases"},
    "judge.probes_intro": {
        "fr": "Sondes : le juge compare A et B dans les deux ordres (un désaccord devient une égalité), et note "
              "une copie rallongée d'une réponse. Hors ligne, seules les demandes enregistrées sont sondées.",
        "en": "Probes: the judge compares A and B in both orders (a disagreement becomes a tie), and grades a "
              "padded copy of a response. Offline, only the recorded requests are probed."},
    "judge.biases_title": {"fr": "Ordre, longueur, masquage, préférence pour soi",
                           "en": "Order, length, blinding, self-preference"},
    "judge.self_preference_none": {"fr": "Générateur {generator} et juge {judge} : deux modèles différents.",
                                   "en": "Generator {generator} and judge {judge}: two different models."},
    "judge.position_title": {"fr": "Position (A puis B, B puis A)", "en": "Position (A then B, B then A)"},
    "judge.verbosity_title": {"fr": "Longueur (copie rallongée)", "en": "Verbosity (padded copy)"},
    "judge.blinding_title": {"fr": "Masquage", "en": "Blinding"},
    "judge.changes_value": {"fr": "↑ {up} · = {same} · ↓ {down}", "en": "↑ {up} · = {same} · ↓ {down}"},
    "judge.cost_title": {"fr": "Coût et temps", "en": "Cost and time"},
    "judge.no_tokens": {"fr": "Les exemples rédigés n'ont ni jetons ni latence : rien n'est inventé.",
                        "en": "Authored examples have no tokens or latency: nothing is invented."},
    "judge.cli_title": {"fr": "En ligne de commande", "en": "From the command line"},
    "judge.cli_intro": {
        "fr": "`record judge` enregistre les réponses d'un vrai modèle (elles apparaissent ensuite hors ligne) ; "
              "`judge` rejoue toute la chaîne, écrit un rapport JSON et sort en 1 sous une moyenne minimale ou "
              "au-delà d'une part de notes écartées (pour bloquer un changement de gabarit en CI), en 2 quand "
              "les appels au modèle n'ont pas abouti (clé, modèle, serveur, délai), causes groupées dans le rapport.",
        "en": "`record judge` records a real model's answers (they then appear offline); `judge` runs the whole "
              "pipeline, writes a JSON report and exits 1 below a minimum mean or above a share of unscored "
              "grades (to gate a template change in CI), 2 when the model calls failed (key, model, server, "
              "timeout), with the causes grouped in the report."},
    # ---------------------------------------------------------------- metrics
    "judge.metric.pairs": {"fr": "Paires", "en": "Pairs"},
    "judge.metric.agreement": {"fr": "Accord", "en": "Agreement"},
    "judge.metric.kappa": {"fr": "Kappa de Cohen", "en": "Cohen's kappa"},
    "judge.metric.kappa_help": {"fr": "L'accord au-delà du hasard : 0 hasard, 1 parfait.",
                                "en": "Agreement beyond chance: 0 chance, 1 perfect."},
    "judge.metric.weighted_kappa": {"fr": "Kappa pondéré", "en": "Weighted kappa"},
    "judge.metric.weighted_kappa_help": {"fr": "Poids quadratiques sur l'échelle 0 à total.",
                                         "en": "Quadratic weights on the 0 to total scale."},
    "judge.metric.ci": {"fr": "IC à 95 %", "en": "95% CI"},
    "judge.metric.mean_difference": {"fr": "Écart moyen B − A", "en": "Mean difference B − A"},
    "judge.metric.mean_difference_help": {"fr": "En points, sur les demandes notées sous A et sous B.",
                                          "en": "In points, over the requests scored under A and under B."},
    "judge.metric.wins": {"fr": "B gagne / égalité / A gagne", "en": "B wins / ties / A wins"},
    "judge.metric.wins_help": {"fr": "Compté demande par demande.", "en": "Counted request by request."},
    "judge.metric.flip_rate": {"fr": "Verdicts qui changent avec l'ordre", "en": "Verdicts that flip with the order"},
    "judge.metric.mean_change": {"fr": "Écart moyen (rallongée − originale)", "en": "Mean change (padded − original)"},
    "judge.metric.changes": {"fr": "Notes en hausse / égales / en baisse", "en": "Scores up / same / down"},
    "judge.metric.calls": {"fr": "Appels", "en": "Calls"},
    "judge.metric.calls_help": {"fr": "Génération et notation (2 par demande), plus les sondes.",
                                "en": "Generation and grading (2 per request), plus the probes."},
    "judge.metric.input_tokens": {"fr": "Jetons en entrée", "en": "Input tokens"},
    "judge.metric.output_tokens": {"fr": "Jetons en sortie", "en": "Output tokens"},
    "judge.metric.latency": {"fr": "Latence cumulée", "en": "Total latency"},
    "judge.metric.latency_help": {"fr": "Somme des durées d'appel (en parallèle, l'attente réelle est plus courte).",
                                  "en": "Sum of call durations (in parallel, the real wait is shorter)."},
    # ---------------------------------------------------------------- readings
    "judge.reading.no_cases": {"fr": "Aucune demande jugée.", "en": "No request judged."},
    "judge.reading.all_unscored": {
        "fr": "Aucune des {total} notes n'est valide : pas de moyenne, lisez le texte brut du juge ci-dessous.",
        "en": "None of the {total} grades is valid: no mean; read the judge's raw text below."},
    "judge.reading.some_unscored": {
        "fr": "{count} notes sur {total} ({share}) sont écartées : les moyennes portent sur les autres, sans note "
              "par défaut.",
        "en": "{count} of {total} grades ({share}) are left out: the means cover the others, with no default score."},
    "judge.reading.empty_scored_by_code": {"fr": "{count} réponses vides notées 0 par le code, sans appeler le juge : {cases}.",
                                           "en": "{count} empty responses scored 0 by code, without calling the judge: {cases}."},
    "judge.reading.group_all_unscored": {"fr": "{dimension} {group} : aucune des {cases} notes n'est valide.",
                                         "en": "{dimension} {group}: none of its {cases} grades is valid."},
    "judge.reading.single_case_group": {
        "fr": "{dimension} {group} : une seule demande notée ({mean}), pas d'intervalle possible.",
        "en": "{dimension} {group}: a single scored request ({mean}), no interval possible."},
    "judge.reading.zero_width_interval": {
        "fr": "{dimension} {group} : les {n} notes sont identiques ({mean}) ; l'intervalle de largeur nulle ne dit pas "
              "que la moyenne est connue exactement.",
        "en": "{dimension} {group}: all {n} scores are equal ({mean}); a zero-width interval does not mean the mean "
              "is known exactly."},
    "judge.reading.weakest_none": {"fr": "Aucune note valide : pas de demandes les plus faibles.",
                                   "en": "No valid grade: no weakest requests."},
    "judge.reading.weakest_tie": {
        "fr": "{tied} demandes sont à égalité à {score} points pour {places} place(s) : les {shown} sont montrées, "
              "en choisir serait arbitraire.",
        "en": "{tied} requests tie at {score} points for {places} place(s): all {shown} are shown, picking some "
              "would be arbitrary."},
    "judge.reading.no_validity_criterion": {"fr": "La grille n'a pas de critère {criterion} : pas de comparaison.",
                                            "en": "The rubric has no {criterion} criterion: no comparison."},
    "judge.reading.validity_too_few": {"fr": "{n} paire(s) seulement : il en faut au moins deux.",
                                       "en": "Only {n} pair(s): at least two are needed."},
    "judge.reading.validity_kappa": {
        "fr": "Sur {n} réponses, le code et le juge s'accordent sur la validité avec κ = {kappa} (IC [{low} ; {high}]).",
        "en": "On {n} responses, code and the judge agree on validity with κ = {kappa} (CI [{low}, {high}])."},
    "judge.reading.validity_kappa_undefined": {
        "fr": "Le code et le juge disent toujours la même chose, toujours le même verdict : κ n'est pas défini.",
        "en": "Code and the judge always give the same single verdict: κ is undefined."},
    "judge.reading.validity_constant_rater": {
        "fr": "L'un des deux (code ou juge) rend toujours le même verdict : κ = {kappa} ne mesure pas un accord.",
        "en": "One of the two (code or judge) always gives the same verdict: κ = {kappa} does not measure agreement."},
    "judge.reading.human_too_few": {"fr": "{n} demande(s) notée(s) par les deux : il en faut au moins deux.",
                                    "en": "{n} request(s) scored by both: at least two are needed."},
    "judge.reading.human_kappa": {
        "fr": "Sur {n} demandes, juge et humain : κ pondéré = {kappa} (IC [{low} ; {high}]).",
        "en": "On {n} requests, judge and human: weighted κ = {kappa} (CI [{low}, {high}])."},
    "judge.reading.human_kappa_undefined": {"fr": "Juge et humain donnent tous deux une seule et même note : κ n'est pas défini.",
                                            "en": "Judge and human both give one and the same score: κ is undefined."},
    "judge.reading.human_constant_rater": {"fr": "L'un des deux donne toujours la même note : κ = {kappa} ne mesure pas un accord.",
                                           "en": "One of the two always gives the same score: κ = {kappa} does not measure agreement."},
    "judge.reading.ab_too_few": {
        "fr": "{n} demande(s) notée(s) sous les deux gabarits : trop peu pour conclure. Avec {n}, même si B gagnait "
              "partout, le plus petit p possible serait {p_floor}, au-dessus de 0,05 ; il faut au moins 6 demandes "
              "(B gagne {wins_b}, égalités {ties}, A gagne {wins_a}).",
        "en": "{n} request(s) scored under both templates: too few to conclude. With {n}, even if B won every one, "
              "the smallest possible p would be {p_floor}, above 0.05; at least 6 requests are needed (B wins "
              "{wins_b}, ties {ties}, A wins {wins_a})."},
    "judge.reading.ab_no_pairs": {"fr": "Aucune demande notée sous les deux gabarits : rien à comparer.",
                                  "en": "No request scored under both templates: nothing to compare."},
    "judge.reading.ab_cannot_tell": {
        "fr": "On ne peut pas départager A et B : {mean} point d'écart moyen sur {n} demandes, p = {p} ({test}) ; "
              "B gagne {wins_b}, égalités {ties}, A gagne {wins_a}.",
        "en": "A and B cannot be told apart: a mean difference of {mean} points over {n} requests, p = {p} "
              "({test}); B wins {wins_b}, ties {ties}, A wins {wins_a}."},
    "judge.reading.ab_equal_differences": {
        "fr": "Les {n} écarts valent tous {difference} : l'intervalle a une largeur nulle. Cela ne veut pas dire "
              "que l'écart est connu exactement, seulement que ces {n} demandes ont toutes bougé d'autant.",
        "en": "All {n} differences equal {difference}: the interval has zero width. That does not mean the "
              "difference is known exactly, only that these {n} requests all moved by the same amount."},
    "judge.reading.ab_all_ties": {"fr": "Les {n} demandes ont la même note sous A et sous B.",
                                  "en": "All {n} requests have the same score under A and B."},
    "judge.reading.ab_b_better": {
        "fr": "B fait mieux : +{mean} point en moyenne sur {n} demandes, p = {p} ({test}) ; IC à 95 % "
              "{ci} pour le centre de symétrie des écarts (leur moyenne s'ils sont symétriques), l'unité "
              "étant la demande.",
        "en": "B does better: +{mean} points on average over {n} requests, p = {p} ({test}); 95% CI "
              "{ci} for the differences' centre of symmetry (their mean if they are symmetric), the unit "
              "being the request."},
    "judge.reading.ab_a_better": {
        "fr": "A fait mieux : {mean} point en moyenne sur {n} demandes, p = {p} ({test}) ; IC à 95 % "
              "{ci} pour le centre de symétrie des écarts (leur moyenne s'ils sont symétriques), l'unité "
              "étant la demande.",
        "en": "A does better: {mean} points on average over {n} requests, p = {p} ({test}); 95% CI "
              "{ci} for the differences' centre of symmetry (their mean if they are symmetric), the unit "
              "being the request."},
    "judge.reading.position_favours_first": {
        "fr": "Le juge favorise la réponse montrée en premier : sur {n} comparaisons, {positive} penchent vers la "
              "première place et {negative} vers la seconde, p = {p} ({test}).",
        "en": "The judge favours the response shown first: of {n} comparisons, {positive} lean to the first slot "
              "and {negative} to the second, p = {p} ({test})."},
    "judge.reading.position_favours_second": {
        "fr": "Le juge favorise la réponse montrée en second : sur {n} comparaisons, {negative} penchent vers la "
              "seconde place et {positive} vers la première, p = {p} ({test}).",
        "en": "The judge favours the response shown second: of {n} comparisons, {negative} lean to the second "
              "slot and {positive} to the first, p = {p} ({test})."},
    "judge.reading.position_too_few": {
        "fr": "{n} comparaison(s) : trop peu pour dire si une place est favorisée ({positive} vers la première, "
              "{negative} vers la seconde). Avec {n}, le plus petit p possible est {p_floor}, au-dessus de 0,05.",
        "en": "{n} comparison(s): too few to tell whether a slot is favoured ({positive} lean to the first, "
              "{negative} to the second). With {n}, the smallest possible p is {p_floor}, above 0.05."},
    "judge.reading.position_cannot_tell": {
        "fr": "On ne peut pas dire qu'une place est favorisée : {positive} comparaisons penchent vers la première, "
              "{negative} vers la seconde, sur {n}, p = {p} ({test}).",
        "en": "No slot can be said to be favoured: {positive} comparisons lean to the first, {negative} to the "
              "second, of {n}, p = {p} ({test})."},
    "judge.reading.pairwise_none": {"fr": "Aucune comparaison A/B lue ({unread} illisibles).",
                                    "en": "No A/B comparison read ({unread} unreadable)."},
    "judge.reading.position_flips": {
        "fr": "Le verdict change avec l'ordre dans {flips} comparaisons sur {compared} ({flip_rate}) ; la réponse "
              "montrée en premier gagne {first_wins} verdicts sur {verdicts}. Un désaccord compte comme une égalité.",
        "en": "The verdict flips with the order in {flips} of {compared} comparisons ({flip_rate}); the response "
              "shown first wins {first_wins} of {verdicts} verdicts. A disagreement counts as a tie."},
    "judge.reading.position_consistent": {
        "fr": "Sur {compared} comparaisons, le verdict ne change pas avec l'ordre.",
        "en": "Over {compared} comparisons, the verdict does not change with the order."},
    "judge.reading.identical_tied": {"fr": "{count} paire(s) de réponses identiques : égalité posée par le code.",
                                     "en": "{count} pair(s) of identical responses: a tie set by code."},
    "judge.reading.pairwise_unread": {"fr": "{count} comparaison(s) dont un verdict est illisible, écartée(s).",
                                      "en": "{count} comparison(s) with an unreadable verdict, left out."},
    "judge.reading.verbosity_none": {"fr": "Aucune copie rallongée notée ({unread} illisibles).",
                                     "en": "No padded copy scored ({unread} unreadable)."},
    "judge.reading.verbosity_no_effect": {"fr": "Rallonger les {n} réponses n'a changé aucune note.",
                                          "en": "Padding the {n} responses changed no score."},
    "judge.reading.verbosity_inflates": {
        "fr": "Rallonger fait monter la note : +{mean} point en moyenne sur {n} réponses, p = {p} ({test}) ; "
              "IC à 95 % {ci} pour le centre de symétrie des écarts (leur moyenne s'ils sont symétriques), "
              "l'unité étant la réponse.",
        "en": "Padding raises the score: +{mean} points on average over {n} responses, p = {p} ({test}); 95% CI "
              "{ci} for the differences' centre of symmetry (their mean if they are symmetric), the unit "
              "being the response."},
    "judge.reading.verbosity_deflates": {
        "fr": "Rallonger fait baisser la note : {mean} point en moyenne sur {n} réponses, p = {p} ({test}) ; "
              "IC à 95 % {ci} pour le centre de symétrie des écarts (leur moyenne s'ils sont symétriques), "
              "l'unité étant la réponse.",
        "en": "Padding lowers the score: {mean} points on average over {n} responses, p = {p} ({test}); 95% CI "
              "{ci} for the differences' centre of symmetry (their mean if they are symmetric), the unit "
              "being the response."},
    "judge.reading.verbosity_unclear": {
        "fr": "Effet de la longueur incertain : {up} en hausse, {same} égales, {down} en baisse sur {n} réponses, "
              "p = {p} ({test}).",
        "en": "Effect of length unclear: {up} up, {same} same, {down} down over {n} responses, p = {p} ({test})."},
    "judge.reading.verbosity_too_few": {
        "fr": "{n} réponse(s) rallongée(s) notée(s) : trop peu pour conclure ({up} en hausse, {same} égales, {down} "
              "en baisse). Avec {n}, le plus petit p possible est {p_floor}, au-dessus de 0,05 ; il en faut au moins 6.",
        "en": "{n} padded response(s) scored: too few to conclude ({up} up, {same} same, {down} down). With {n}, "
              "the smallest possible p is {p_floor}, above 0.05; at least 6 are needed."},
    "judge.reading.verbosity_ceiling": {
        "fr": "Aucune note n'a bougé, mais chaque réponse ({n} en tout) avait déjà la note maximale ({max}) : "
              "rallonger ne pouvait pas la faire monter. Ce plafond ne dit pas si la longueur séduit le juge.",
        "en": "No score moved, but every response ({n} in all) already had the top score ({max}): padding could "
              "not raise it. This ceiling cannot tell whether length sways the judge."},
    "judge.reading.verbosity_floor": {
        "fr": "Aucune note n'a bougé, mais chaque réponse ({n} en tout) était à 0, le bas de l'échelle : une note "
              "qui ne peut pas descendre plus bas ne dit pas si la longueur change le jugement.",
        "en": "No score moved, but every response ({n} in all) was at 0, the bottom of the scale: a score that "
              "cannot go lower cannot tell whether length changes the judgement."},
    "judge.reading.verbosity_at_bound": {
        "fr": "Notes inchangées à une borne : {ceiling} au maximum ({max}), {floor} à 0, sur {same} inchangées ; à "
              "ces bornes, une note ne pouvait bouger que dans un sens.",
        "en": "Unchanged scores at a bound: {ceiling} at the top ({max}), {floor} at 0, of {same} unchanged; at "
              "those bounds a score could move one way only."},
    "judge.reading.self_preference_same_model": {
        "fr": "Attention : le juge ({judge}) note ses propres réponses ; les juges tendent à se préférer.",
        "en": "Caution: the judge ({judge}) grades its own responses; judges tend to favour themselves."},
    "judge.reading.self_preference_same_family": {
        "fr": "Attention : générateur ({generator}) et juge ({judge}) sont de la même famille ; le juge peut la préférer.",
        "en": "Caution: generator ({generator}) and judge ({judge}) are of the same family; the judge may favour it."},
    "judge.reading.no_injection": {"fr": "Aucune réponse ne s'adresse au correcteur.",
                                   "en": "No response addresses the grader."},
    "judge.reading.injection_moved": {
        "fr": "{case} ({flags}) : {score} points avec l'injection, {clean_score} sans ; la note a bougé de {moved}.",
        "en": "{case} ({flags}): {score} points with the injection, {clean_score} without; the score moved by {moved}."},
    "judge.reading.injection_held": {
        "fr": "{case} ({flags}) : {score} points avec ou sans l'injection ; le juge ne s'est pas laissé faire.",
        "en": "{case} ({flags}): {score} points with or without the injection; the judge held."},
    "judge.reading.injection_ceiling": {
        "fr": "{case} ({flags}) : {score} points avec ou sans l'injection, soit la note maximale : elle ne pouvait "
              "pas monter, on ne peut donc pas dire si le juge a résisté.",
        "en": "{case} ({flags}): {score} points with or without the injection, the top score: it could not go "
              "up, so we cannot tell whether the judge held."},
    "judge.reading.injection_floor": {
        "fr": "{case} ({flags}) : 0 point avec ou sans l'injection, le bas de l'échelle : une note bloquée à une "
              "borne ne montre pas si le juge a résisté.",
        "en": "{case} ({flags}): 0 points with or without the injection, the bottom of the scale: a score stuck "
              "at a bound does not show whether the judge held."},
    "judge.reading.blinding_removed": {
        "fr": "Réponses qui disaient quel modèle les a écrites : {n} sur {total} ; ces lignes ont été retirées "
              "avant la note.",
        "en": "Responses that said which model wrote them: {n} of {total}; those lines were removed before "
              "grading."},
    "judge.reading.blinding_erased": {
        "fr": "{count} réponse(s) ne disaient rien d'autre que le nom du modèle ({cases}) : le masquage les aurait "
              "vidées. Le juge les a notées telles quelles, jamais vides, et elles sont écartées des sondes de biais.",
        "en": "{count} response(s) said nothing but the model's name ({cases}): blinding would have emptied them. "
              "The judge graded them as written, never empty, and they are left out of the bias probes."},
    "judge.paired_test.exact": {"fr": "test exact par inversion des signes, sur les {flips} combinaisons",
                                "en": "exact sign-flip test, over all {flips} flips"},
    "judge.paired_test.monte_carlo": {"fr": "test par inversion des signes, sur {flips} tirages au hasard",
                                      "en": "sign-flip test, over {flips} random flips"},
    "judge.metric.ci_case": {"fr": "IC à 95 % (unité : la demande)", "en": "95% CI (unit: the request)"},
    "judge.metric.ci_case_help": {
        "fr": "Les écarts moyens que le test exact ne rejette pas. Aucun sous 6 demandes : à cette taille, aucun "
              "test ne peut conclure.",
        "en": "The mean differences the exact test does not reject. None below 6 requests: at that size no test "
              "can conclude."},
    "judge.metric.p_exact": {"fr": "p (test exact)", "en": "p (exact test)"},
    "judge.zero_width": {"fr": "largeur nulle", "en": "zero width"},
    "judge.zero_width_ci": {"fr": "de largeur nulle", "en": "of zero width"},
    "judge.reading.injection_unscored": {
        "fr": "{case} ({flags}) : l'une des deux notes (avec, sans l'injection) est écartée ; on ne peut pas dire "
              "si la note a bougé.",
        "en": "{case} ({flags}): one of the two grades (with, without the injection) is left out; we cannot tell "
              "whether the score moved."},
    "judge.keys_read": {
        "fr": "Le juge écrit la note de chaque critère sous le nom du critère et son total sous {total} ; les "
              "clés sont lues sans tenir compte des majuscules, des espaces autour ni des caractères invisibles. "
              "Sans {total}, le total est lu sous {others}, dans cet ordre ; tout autre nom est un total manquant.",
        "en": "The judge writes each criterion's score under the criterion's name and its total under {total}; "
              "keys are read without regard to case, surrounding spaces or invisible characters. Without "
              "{total}, the total is read under {others}, in that order; any other name is a missing total."},
    "judge.reading.injection_copied": {
        "fr": "{case} ({flags}) : le juge a obéi, il n'a fait que recopier la note écrite dans la réponse "
              "({score} points) ; sans l'injection, il donne {clean_score} : la note a bougé de {moved}.",
        "en": "{case} ({flags}): the judge obeyed, only repeating the grade written in the response ({score} "
              "points); without the injection it gives {clean_score}: the score moved by {moved}."},
    "judge.template_unrecorded": {
        "fr": "Gabarit {name} : aucune réponse enregistrée pour ce texte ; il faut l'exécuter en direct pour voir "
              "ses résultats. Ceux de l'autre gabarit restent affichés.",
        "en": "Template {name}: no recorded answer for this text; run it live to see its results. The other "
              "template's results still show."},
    "judge.unrecorded": {
        "fr": "{n} demande(s) sans réponse enregistrée pour cette source, laissée(s) de côté : non enregistrée(s), "
              "ce ne sont pas des erreurs ({cases}).",
        "en": "{n} request(s) without a recorded answer for this source, left out: not recorded, which is not an "
              "error ({cases})."},
    "judge.error.not_utf8": {"fr": "Le fichier n'est pas du texte UTF-8 : enregistrez-le en UTF-8.",
                             "en": "The file is not UTF-8 text: save it as UTF-8."},
    "judge.room_held_out": {
        "fr": "Ce kappa porte sur tous les cas notés. Dans une salle, le tableau met {held} cas de côté ({cases}) : il "
              "classe sur les autres et mesure à nouveau sur ceux-là (voir la boîte « Soumettre à la salle »).",
        "en": "This kappa covers every scored case. In a room, the board holds {held} cases out ({cases}): it ranks on "
              "the others and measures again on those (see the “Submit to the room” box)."},
    "judge.answers_from": {"fr": "Réponses et notes : {badges}", "en": "Responses and grades: {badges}"},
}

for _key, (fr, en, help_fr, help_en) in _STATUSES.items():
    TEXTS[f"judge.status.{_key}"] = {"fr": fr, "en": en}
    TEXTS[f"judge.status_help.{_key}"] = {"fr": help_fr, "en": help_en}
for _group, table in (("problem", _PROBLEMS), ("flag", _FLAGS), ("check", _CHECKS), ("rule", _RULES)):
    for _key, (fr, en) in table.items():
        TEXTS[f"judge.{_group}.{_key}"] = {"fr": fr, "en": en}

for _texts in TEXTS.values():
    _texts["fr"] = french_spacing(_texts["fr"])

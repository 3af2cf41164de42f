"""Texts of the GNSS agent evaluation page (docs/gnss.md)."""

_CASES = {
    "clean_10yr_no_offset": ("10 ans, propre, sans saut", "10 years, clean, no offset"),
    "clean_10yr_offset_25": ("10 ans, propre, saut de 25 mm", "10 years, clean, 25 mm offset"),
    "seasonal_8_no_offset": ("saisonnier fort (8 mm), sans saut", "strong seasonal (8 mm), no offset"),
    "seasonal_8_offset_20": ("saisonnier fort, saut de 20 mm", "strong seasonal, 20 mm offset"),
    "low_snr_no_offset": ("bruit fort, sans saut", "low SNR, no offset"),
    "low_snr_offset_25": ("bruit fort, saut de 25 mm", "low SNR, 25 mm offset"),
    "small_offset_8": ("petit saut (8 mm)", "small offset (8 mm)"),
    "very_small_offset_4": ("très petit saut (4 mm)", "very small offset (4 mm)"),
    "short_2yr_no_offset": ("2 ans, sans saut", "2 years, no offset"),
    "short_2yr_offset_25": ("2 ans, saut de 25 mm", "2 years, 25 mm offset"),
    "short_seasonal_no_offset": ("2 ans, saisonnier, sans saut", "2 years, seasonal, no offset"),
    "negative_velocity_late_offset": ("vitesse négative, saut tardif", "negative velocity, late offset"),
}

_COLUMNS = {
    "case": ("Cas", "Case"), "description": ("Description", "Description"), "years": ("Années", "Years"),
    "true_velocity": ("Vitesse vraie", "True velocity"),
    "estimated_velocity": ("Vitesse estimée", "Est. velocity"),
    "tolerance": ("Tolérance", "Tolerance"), "true_offset": ("Saut vrai", "True offset"),
    "true_day": ("Jour vrai", "True day"), "flagged_day": ("Jour signalé", "Flagged day"),
    "velocity_ok": ("Vitesse", "Velocity"), "offset_ok": ("Saut", "Offset"), "passed": ("Réussi", "Passed"),
    "problems": ("Réponse invalide", "Invalid answer"), "v2_velocity": ("v2 (mm/an)", "v2 (mm/yr)"),
    "midas_velocity": ("MIDAS (mm/an)", "MIDAS (mm/yr)"), "v2_error": ("|erreur| v2", "|error| v2"),
    "midas_error": ("|erreur| MIDAS", "|error| MIDAS"), "passes": ("Réussites", "Passes"),
    "rate": ("Taux", "Rate"), "standard_error": ("Erreur type", "Standard error"),
    "wilson": ("Wilson (95 %)", "Wilson (95%)"), "flaw": ("Défaut planté", "Planted flaw"),
    "errors": ("Appels ratés", "Failed calls"), "malformed": ("Mal formées", "Malformed"),
    "velocity_wrong": ("Vitesse fausse", "Velocity off"), "agent": ("Agent", "Agent"),
    "offset_date": ("Date du saut", "Offset date"), "sigma": ("σ MIDAS", "MIDAS σ"),
    # agents graded against the reference on a real station (docs/gnss.md#grades)
    "graded_agent": ("Agent noté", "Graded agent"), "verdict": ("Verdict", "Verdict"), "agent_offset": ("Saut de l'agent", "Agent's offset"),
    "reference_offset": ("Saut référence", "Ref. offset"),
    "offset_tolerance": ("Tol. saut (mm)", "Offset tol. (mm)"),
    "reference_velocity": ("Vitesse réf.", "Ref. velocity"),
    "velocity_tolerance": ("Tol. vit. mm/an", "Vel. tol. mm/yr"),
    "failures": ("Échecs", "Failures"),
}

TEXTS = {
    **{f"gnss.case.{code}": {"fr": fr, "en": en} for code, (fr, en) in _CASES.items()},
    **{f"gnss.col.{code}": {"fr": fr, "en": en} for code, (fr, en) in _COLUMNS.items()},
    "gnss.nav": {"fr": "Agent GNSS", "en": "GNSS agent"},
    "gnss.title": {"fr": "Évaluer un agent GNSS avant de lui faire confiance",
                   "en": "Evaluate a GNSS agent before trusting it"},
    "gnss.intro": {
        "fr": "Un agent lit une série GNSS journalière (une composante du déplacement, en mm) et doit rendre la "
              "**vitesse séculaire** et signaler un éventuel **saut cosismique**. Avant de croire ses réponses, on "
              "construit l'évaluation : une spécification écrite, des cas synthétiques dont on connaît la vérité, "
              "un correcteur qui ne plante jamais, des tolérances tirées de la physique et non choisies au jugé.",
        "en": "An agent reads a daily GNSS series (one displacement component, in mm) and must return the **secular "
              "velocity** and flag any **coseismic offset**. Before believing its answers we build the evaluation: a "
              "written specification, synthetic cases whose truth we know, a grader that never crashes, and "
              "tolerances drawn from the physics rather than picked by eye.",
    },
    "gnss.computing": {"fr": "Calcul en cours…", "en": "Computing…"},
    # spec
    "gnss.spec_title": {"fr": "1. La spécification v1", "en": "1. Specification v1"},
    "gnss.spec_intro": {
        "fr": "Voici le texte exact que reçoit un agent : entrées, schéma de sortie, tolérances. Modifiez les "
              "tolérances : le texte et toutes les notes ci-dessous suivent.",
        "en": "This is the exact text an agent receives: inputs, output schema, tolerances. Edit the tolerances: "
              "the text and every grade below follow.",
    },
    "gnss.velocity_tol": {"fr": "Tolérance sur la vitesse (mm/an)", "en": "Velocity tolerance (mm/yr)"},
    "gnss.velocity_tol_help": {"fr": "Écart maximal entre la vitesse rendue et la vraie.",
                               "en": "Largest gap between the returned and the true velocity."},
    "gnss.day_tol": {"fr": "Tolérance sur le jour du saut (jours)", "en": "Offset-day tolerance (days)"},
    "gnss.day_tol_help": {"fr": "Écart maximal entre le jour signalé et le vrai, quand un saut existe et est signalé.",
                          "en": "Largest gap between the flagged and the true day, when an offset exists and is "
                                "flagged."},
    "gnss.spec_english": {"fr": "Le texte de la spécification reste en anglais : c'est ce que lit le modèle.",
                          "en": "The specification stays in English: it is what the model reads."},
    # agents
    "gnss.agents_title": {"fr": "2. Deux agents de référence", "en": "2. Two reference agents"},
    "gnss.agents_intro": {
        "fr": "- **Agent v1**, l'analyste pressé : une droite pour la vitesse, et le plus grand écart entre les "
              "moyennes de 30 jours avant et après chaque jour ; saut signalé au-dessus d'un seuil fixe.\n"
              "- **Agent v2** : moindres carrés sur tendance + annuel + semi-annuel + une marche au jour détecté ; "
              "saut signalé si l'amplitude ajustée de la marche dépasse le seuil.",
        "en": "- **Agent v1**, the hurried analyst: a straight line for the velocity, and the largest gap between the "
              "30-day means before and after each day; an offset is flagged above a fixed threshold.\n"
              "- **Agent v2**: least squares on trend + annual + semi-annual + a step at the detected day; an offset "
              "is flagged when the fitted step amplitude exceeds the threshold.",
    },
    "gnss.v1_threshold": {"fr": "Seuil de saut de v1 (mm)", "en": "v1 jump threshold (mm)"},
    "gnss.v1_threshold_help": {"fr": "12 mm dans le support de cours (`docs/gnss.md#agents`).",
                              "en": "12 mm in the course material (`docs/gnss.md#agents`)."},
    "gnss.v2_threshold": {"fr": "Seuil de marche de v2 (mm)", "en": "v2 step threshold (mm)"},
    "gnss.v2_threshold_help": {"fr": "6 mm dans le support de cours (`docs/gnss.md#agents`).",
                              "en": "6 mm in the course material (`docs/gnss.md#agents`)."},
    "gnss.agent.v1": {"fr": "Agent v1", "en": "Agent v1"},
    "gnss.agent.v2": {"fr": "Agent v2", "en": "Agent v2"},
    "gnss.agent.midas": {"fr": "MIDAS", "en": "MIDAS"},
    # results
    "gnss.results_header": {"fr": "3. Résultats cas par cas", "en": "3. Results case by case"},
    "gnss.results_title.v1": {"fr": "Agent v1, spécification v1", "en": "Agent v1, spec v1"},
    "gnss.units_caption": {"fr": "Vitesses, tolérances et σ en mm/an, sauts en mm.",
                           "en": "Velocities, tolerances and σ in mm/yr, offsets in mm."},
    "gnss.results_title.v1_alarm": {"fr": "Agent v1 au seuil {threshold}, spécification v1",
                                    "en": "Agent v1 at a {threshold} threshold, spec v1"},
    "gnss.alarm.alarm_at_default": {
        "fr": "À {threshold_mm}, l'agent v1 signale déjà un saut sur des cas qui n'en ont pas ({cases}) : "
              "toutes les classes d'échec du support de cours sont dans le tableau ci-dessus.",
        "en": "At {threshold_mm}, agent v1 already flags an offset on cases that have none ({cases}): every "
              "failure class of the course material is in the table above.",
    },
    "gnss.alarm.alarm_below": {
        "fr": "Au seuil choisi ({default_mm} ; par défaut celui du support de cours), l'agent v1 ne fait aucune "
              "fausse alarme avec notre générateur ({default_passes}/{n} réussis). En relançant v1 sur les {n} cas à des seuils "
              "décroissants, la première fausse alarme apparaît à {threshold_mm} ({cases}) : c'est le compromis "
              "du seuil, qui attrape les petits sauts en abaissant le seuil mais prend alors le bruit pour un "
              "saut. Le tableau ci-dessous montre v1 à ce seuil ({passes}/{n} réussis), avec ses classes "
              "d'échec lues dans le tableau.",
        "en": "At the chosen threshold ({default_mm}; the course material's by default), agent v1 raises no false "
              "alarm with our generator ({default_passes}/{n} pass). Re-running v1 on the {n} cases at decreasing thresholds, "
              "the first false alarm appears at {threshold_mm} ({cases}): that is the threshold's trade-off, "
              "a lower threshold catches small offsets but then takes noise for an offset. The table below "
              "shows v1 at that threshold ({passes}/{n} pass), with its failure classes read from the table.",
    },
    "gnss.alarm.alarm_never": {
        "fr": "Aucun seuil essayé ne fait faire de fausse alarme à l'agent v1 sur les cas (seuil choisi : "
              "{default_mm}).",
        "en": "No threshold tried makes agent v1 raise a false alarm on the cases (chosen threshold: {default_mm}).",
    },
    "gnss.results_title.v2": {"fr": "Agent v2, spécification v2", "en": "Agent v2, spec v2"},
    "gnss.passes": {"fr": "Cas réussis", "en": "Cases passed"},
    "gnss.no_offset": {"fr": "aucun", "en": "none"},
    "gnss.failure.failure_malformed": {
        "fr": "**Réponses mal formées** ({count}) : {cases}. Le garde-fou du schéma les note comme échecs.",
        "en": "**Malformed answers** ({count}): {cases}. The schema guard scores them as failures.",
    },
    "gnss.failure.failure_unmodelled_offset": {
        "fr": "**Vitesse fausse car le saut n'est pas modélisé** ({count}) : {cases} (sauts de {offsets_mm} mm). "
              "Une droite tirée à travers une marche absorbe la marche dans la pente.",
        "en": "**Velocity wrong because the offset is not modelled** ({count}): {cases} (offsets of {offsets_mm} mm). "
              "A straight line through a step absorbs the step into its slope.",
    },
    "gnss.failure.failure_small_offset_missed": {
        "fr": "**Sauts manqués** ({count}) : {cases} (sauts de {offsets_mm} mm, le plus grand manqué : "
              "{largest_missed_mm} mm). Sous le seuil, un saut vrai passe pour du bruit.",
        "en": "**Offsets missed** ({count}): {cases} (offsets of {offsets_mm} mm, the largest missed: "
              "{largest_missed_mm} mm). Below the threshold a true offset passes for noise.",
    },
    "gnss.failure.failure_false_alarm": {
        "fr": "**Fausses alarmes** ({count}) : {cases}. Un saut est signalé là où il n'y en a pas : le bruit "
              "(scintillement, saisonnier) a dépassé le seuil.",
        "en": "**False alarms** ({count}): {cases}. An offset is flagged where there is none: the noise (flicker, "
              "seasonal) crossed the threshold.",
    },
    "gnss.failure.failure_short_record": {
        "fr": "**Séries courtes** ({count}) : {cases} ({n_years} ans). Sur deux ans, le bruit de scintillement et "
              "le saisonnier déplacent la pente plus que la tolérance ne l'admet.",
        "en": "**Short records** ({count}): {cases} ({n_years} years). Over two years flicker noise and the seasonal "
              "signal move the slope more than the tolerance allows.",
    },
    "gnss.failure.failure_other": {
        "fr": "**Autres échecs** ({count}) : {cases} (par exemple un jour de saut trop loin du vrai).",
        "en": "**Other failures** ({count}): {cases} (for instance an offset day too far from the truth).",
    },
    "gnss.failure.all_passed": {"fr": "Les {n} cas sont réussis.", "en": "All {n} cases pass."},
    # threshold trade-off
    "gnss.trade_off_title": {"fr": "Le seuil de v1 : fausses alarmes contre sauts manqués",
                             "en": "v1's threshold: false alarms against missed offsets"},
    "gnss.trade_off_intro": {
        "fr": "Sur des réalisations neuves du cas propre de 10 ans, sans saut puis avec une marche de 8 mm, la "
              "part des séries où le plus grand écart brut dépasse chaque seuil. Déplacez le seuil de v1 ci-dessus "
              "et regardez quelle classe d'échec apparaît dans le tableau.",
        "en": "On fresh realisations of the clean 10-year case, without an offset then with an 8 mm step, the "
              "share of series whose largest raw jump exceeds each threshold. Move v1's threshold above and watch "
              "which failure class appears in the table.",
    },
    "gnss.trade_off_figure": {"fr": "Règle du saut brut sur {n} réalisations",
                              "en": "Raw-jump rule over {n} realisations"},
    "gnss.false_alarm_rate": {"fr": "fausses alarmes (sans saut)", "en": "false alarms (no offset)"},
    "gnss.detection_rate": {"fr": "détections (saut de {step} mm)", "en": "detections ({step} mm offset)"},
    "gnss.threshold_mm": {"fr": "seuil (mm)", "en": "threshold (mm)"},
    "gnss.current_threshold": {"fr": "seuil choisi", "en": "chosen threshold"},
    "gnss.threshold.threshold_clean": {
        "fr": "À {threshold_mm} mm : aucune fausse alarme sur {n} séries sans saut, et {detection_share} des sauts "
              "de {step_mm} mm détectés. Sur ces {n} séries, le plus bas seuil essayé sans fausse alarme est "
              "{quiet_from_mm} mm.",
        "en": "At {threshold_mm} mm: no false alarm on {n} offset-free series, and {detection_share} of the "
              "{step_mm} mm offsets detected. On these {n} series, the lowest threshold tried without a false alarm is "
              "{quiet_from_mm} mm.",
    },
    "gnss.threshold.threshold_false_alarms": {
        "fr": "À {threshold_mm} mm : tous les sauts de {step_mm} mm sont détectés, mais {false_alarm_share} des {n} "
              "séries sans saut déclenchent une fausse alarme.",
        "en": "At {threshold_mm} mm: every {step_mm} mm offset is detected, but {false_alarm_share} of the {n} "
              "offset-free series raise a false alarm.",
    },
    "gnss.threshold.threshold_misses": {
        "fr": "À {threshold_mm} mm : aucune fausse alarme sur {n} séries sans saut, mais seuls {detection_share} "
              "des sauts de {step_mm} mm sont détectés. Sur ces {n} séries, le plus bas seuil essayé sans "
              "fausse alarme est {quiet_from_mm} mm.",
        "en": "At {threshold_mm} mm: no false alarm on {n} offset-free series, but only {detection_share} of the "
              "{step_mm} mm offsets are detected. On these {n} series, the lowest threshold tried without a "
              "false alarm is {quiet_from_mm} mm.",
    },
    "gnss.threshold.threshold_both": {
        "fr": "À {threshold_mm} mm : {false_alarm_share} de fausses alarmes sur {n} séries sans saut et seulement "
              "{detection_share} des sauts de {step_mm} mm détectés. Aucun seuil ne sépare bien les deux.",
        "en": "At {threshold_mm} mm: {false_alarm_share} false alarms on {n} offset-free series and only "
              "{detection_share} of the {step_mm} mm offsets detected. No threshold separates them well.",
    },
    # plots
    "gnss.plots_title": {"fr": "4. Quatre cas sous les yeux", "en": "4. Four cases to look at"},
    "gnss.plots_intro": {
        "fr": "Les points sont la série que voit l'agent ; la courbe est l'ajustement final de v2 ; la ligne "
              "pointillée rouge marque le jour vrai du saut.",
        "en": "The dots are the series the agent sees; the curve is v2's final fit; the red dashed line marks the "
              "true offset day.",
    },
    "gnss.show_residuals": {"fr": "Afficher les résidus de v2", "en": "Show v2's residuals"},
    "gnss.true_offset_marker": {"fr": "saut vrai", "en": "true offset"},
    "gnss.equipment_marker": {"fr": "changement d'antenne", "en": "antenna change"},
    "gnss.v2_step_marker": {"fr": "marche de v2", "en": "v2's step"},
    "gnss.residual_mm": {"fr": "résidu (mm)", "en": "residual (mm)"},
    "gnss.residuals": {"fr": "résidus", "en": "residuals"},
    "gnss.disp_mm": {"fr": "déplacement (mm)", "en": "displacement (mm)"},
    "gnss.observed": {"fr": "observé", "en": "observed"},
    "gnss.v2_fit": {"fr": "ajustement v2", "en": "v2 fit"},
    # tolerances
    "gnss.tolerance_title": {"fr": "5. Des tolérances tirées des réalisations",
                             "en": "5. Tolerances from realisations"},
    "gnss.spread_metric": {"fr": "Erreur de vitesse de v2 à {years} ans", "en": "v2's velocity error at {years} years"},
    "gnss.spread_help": {"fr": "{n} réalisations, graines {first} à {last}, en mm/an.",
                         "en": "{n} realisations, seeds {first} to {last}, in mm/yr."},
    "gnss.spread_figure": {"fr": "|erreur de vitesse| de v2 à {years} ans",
                           "en": "v2's |velocity error| at {years} years"},
    "gnss.abs_error": {"fr": "|erreur| (mm/an)", "en": "|error| (mm/yr)"},
    "gnss.realisations": {"fr": "réalisations", "en": "realisations"},
    "gnss.median": {"fr": "médiane", "en": "median"},
    "gnss.p95": {"fr": "p95", "en": "p95"},
    "gnss.tolerance_line": {"fr": "tolérance", "en": "tolerance"},
    "gnss.spread.tolerance_unreachable": {
        "fr": "À {n_years} ans, le 95e centile ({p95} mm/an) dépasse la tolérance de {tolerance} mm/an : "
              "{share_outside} des séries sans défaut échouent. La spécification demande ce que les données ne "
              "peuvent pas donner.",
        "en": "At {n_years} years the 95th percentile ({p95} mm/yr) exceeds the {tolerance} mm/yr tolerance: "
              "{share_outside} of flawless series fail. The spec asks for what the data cannot give.",
    },
    "gnss.spread.tolerance_comfortable": {
        "fr": "À {n_years} ans, le 95e centile ({p95} mm/an) reste sous la moitié de la tolérance de {tolerance} "
              "mm/an : la tolérance est confortable.",
        "en": "At {n_years} years the 95th percentile ({p95} mm/yr) stays under half the {tolerance} mm/yr "
              "tolerance: the tolerance is comfortable.",
    },
    "gnss.spread.tolerance_tight": {
        "fr": "À {n_years} ans, le 95e centile ({p95} mm/an) est sous la tolérance de {tolerance} mm/an mais au-delà "
              "de sa moitié : la tolérance est serrée ({share_outside} des séries hors tolérance).",
        "en": "At {n_years} years the 95th percentile ({p95} mm/yr) is under the {tolerance} mm/yr tolerance but "
              "beyond half of it: the tolerance is tight ({share_outside} of series outside).",
    },
    "gnss.spec_v3_title": {"fr": "Spécification v3 : tolérances selon la durée",
                           "en": "Spec v3: tolerances by record length"},
    "gnss.summary_title": {"fr": "Bilan", "en": "Summary"},
    "gnss.run.v1_v1": {"fr": "v1 / spéc. v1", "en": "v1 / spec v1"},
    "gnss.run.v2_v2": {"fr": "v2 / spéc. v2", "en": "v2 / spec v2"},
    "gnss.run.v2_v3": {"fr": "v2 / spéc. v3", "en": "v2 / spec v3"},
    "gnss.passes_row": {"fr": "Réussis", "en": "Passed"},
    "gnss.summary_caption": {
        "fr": "Seuils : v1 à {v1} mm, v2 à {v2} mm ; spécifications v1 et v2 avec les tolérances du support de cours"
              " (`docs/gnss.md#spec`).",
        "en": "Thresholds: v1 at {v1} mm, v2 at {v2} mm; specs v1 and v2 with the course material's tolerances"
              " (`docs/gnss.md#spec`).",
    },
    "gnss.held_out": {"fr": "Contrôle final : v2 / spéc. v3 sur graines neuves",
                      "en": "Final check: v2 / spec v3 on fresh seeds"},
    "gnss.held_out_help": {
        "fr": "Les douze plans de cas rejoués avec des graines jamais vues ni pour l'évaluation ni pour les "
              "tolérances : une tolérance réglée sur les cas eux-mêmes échouerait ici.",
        "en": "The twelve case designs replayed with seeds used neither for the evaluation nor for the tolerances: a "
              "tolerance tuned on the cases themselves would fail here.",
    },
    # MIDAS
    "gnss.midas_title": {"fr": "6. Un troisième estimateur : MIDAS", "en": "6. A third estimator: MIDAS"},
    "gnss.midas_intro": {
        "fr": "MIDAS (Blewitt et al., 2016) prend la médiane des pentes entre paires de jours distants d'un an, "
              "en écartant les paires qui enjambent le saut détecté par v2 : robuste aux sauts et au saisonnier.",
        "en": "MIDAS (Blewitt et al., 2016) takes the median of the slopes between pairs of days one year apart, "
              "dropping pairs that span v2's detected offset: robust to offsets and to the seasonal signal.",
    },
    "gnss.midas_passes": {"fr": "MIDAS, cas réussis (spéc. v2)", "en": "MIDAS, cases passed (spec v2)"},
    "gnss.comparison.velocity_comparison": {
        "fr": "Sur {n} cas, {a} est plus proche de la vérité {a_closer} fois, {b} {b_closer} fois (égalités : {ties}) ; "
              "erreur médiane : {median_a} mm/an pour {a}, {median_b} mm/an pour {b}.",
        "en": "Over {n} cases, {a} is closer to the truth {a_closer} times, {b} {b_closer} times ({ties} ties); "
              "median error: {median_a} mm/yr for {a}, {median_b} mm/yr for {b}.",
    },
    "gnss.detector_margin": {
        "fr": "Le détecteur de saut des agents compare des moyennes de {window} mesures et ne cherche pas dans les "
              "{margin} premières et dernières mesures : un saut plus près d'un bord lui échappe, même si la note "
              "« grand saut » ci-dessus le voit.",
        "en": "The agents' jump detector compares means of {window} epochs and does not search the first and last "
              "{margin} epochs: an offset closer to an end escapes it, even when the \"large jump\" note above sees "
              "it.",
    },
    # repeated runs
    "gnss.repeated_title": {"fr": "7. Un agent échantillonné : des taux, pas des verdicts",
                            "en": "7. A sampled agent: rates, not verdicts"},
    "gnss.repeated_intro": {
        "fr": "Un modèle échantillonné ne répond pas deux fois pareil. Voici les notes enregistrées dans le support "
              "de cours (`docs/gnss.md#repeated`) d'un agent relecteur lancé cinq fois sur six analyses où un défaut "
              "a été planté : par cas, un taux de réussite, son erreur type binomiale et son intervalle de Wilson.",
        "en": "A sampled model does not answer the same way twice. Here are the course material's recorded grades "
              "(`docs/gnss.md#repeated`) of a reviewing agent run five times on six analyses with a planted flaw: "
              "per case, a pass rate, its binomial standard error and its Wilson interval.",
    },
    # The planted flaws of the recorded runs (data/gnss_recorded_runs.json), by case id.
    "gnss.flaw.P01": {"fr": "fuite : normalisation ajustée avant la séparation", "en": "leakage: scaler fit before split"},
    "gnss.flaw.P02": {"fr": "seuil réglé sur la partie test", "en": "threshold tuned on the test split"},
    "gnss.flaw.P03": {"fr": "aucun défaut planté : cas négatif", "en": "no planted flaw: negative case"},
    "gnss.flaw.P04": {"fr": "une seule graine, dispersion non rapportée", "en": "single seed, no spread reported"},
    "gnss.flaw.P05": {"fr": "unités d'un axe décalées de 10^3 dans une figure", "en": "axis units off by 10^3 in figure"},
    "gnss.flaw.P06": {"fr": "citation inventée dans l'état de l'art", "en": "fabricated citation in related work"},
    "gnss.rate.rate_unanimous_few_runs": {
        "fr": "{what} : {passes}/{runs} ; l'erreur type vaut 0, mais l'intervalle de Wilson va de {low} à {high} : "
              "l'unanimité sur si peu d'essais ne prouve pas un taux de 0 ou 1.",
        "en": "{what}: {passes}/{runs}; the standard error is 0, yet the Wilson interval runs from {low} to {high}: "
              "unanimity over so few runs does not prove a rate of 0 or 1.",
    },
    "gnss.rate.rate_undecided": {
        "fr": "{what} : {passes}/{runs} ; l'intervalle de Wilson ({low} à {high}) contient 0,5 : un seul essai "
              "aurait été un pile ou face.",
        "en": "{what}: {passes}/{runs}; the Wilson interval ({low} to {high}) contains 0.5: a single run would "
              "have been a coin toss.",
    },
    "gnss.rate.rate_mostly_pass": {
        "fr": "{what} : {passes}/{runs} ; l'intervalle de Wilson ({low} à {high}) est au-dessus de 0,5.",
        "en": "{what}: {passes}/{runs}; the Wilson interval ({low} to {high}) lies above 0.5.",
    },
    "gnss.rate.rate_mostly_fail": {
        "fr": "{what} : {passes}/{runs} ; l'intervalle de Wilson ({low} à {high}) est en dessous de 0,5.",
        "en": "{what}: {passes}/{runs}; the Wilson interval ({low} to {high}) lies below 0.5.",
    },
    "gnss.calculator_title": {"fr": "Combien d'essais pour départager deux agents ?",
                              "en": "How many runs to tell two agents apart?"},
    "gnss.p1": {"fr": "Taux de réussite de l'agent A", "en": "Pass rate of agent A"},
    "gnss.p2": {"fr": "Taux de réussite de l'agent B", "en": "Pass rate of agent B"},
    "gnss.calculator_equal": {"fr": "Les deux taux sont égaux : aucun nombre d'essais ne les sépare.",
                              "en": "The two rates are equal: no number of runs separates them."},
    "gnss.runs_needed": {"fr": "Essais nécessaires par agent", "en": "Runs needed per agent"},
    "gnss.runs_needed_help": {
        "fr": "Test bilatéral à 5 %, puissance 80 %, approximation normale (Fleiss, Levin et Paik 2003, éq. 4.14).",
        "en": "Two-sided test at 5%, 80% power, normal approximation (Fleiss, Levin & Paik 2003, eq. 4.14).",
    },
    "gnss.calculator_reading": {
        "fr": "Pour distinguer {p1} de {p2} avec un test à 5 % et une puissance de 80 %, il faut {runs} essais par "
              "agent.",
        "en": "Telling {p1} from {p2} with a 5% test and 80% power takes {runs} runs per agent.",
    },
    # live agent
    "gnss.live_title": {"fr": "8. Un vrai modèle comme agent", "en": "8. A real model as the agent"},
    "gnss.live_intro": {
        "fr": "Un modèle de texte reçoit la spécification v1 et les moyennes de 30 jours de la série (environ 120 "
              "nombres pour 10 ans). Sa réponse est lue comme des données (JSON seulement, jamais exécutée) puis "
              "passe par le même garde-fou et le même correcteur que les agents de référence.",
        "en": "A text model receives spec v1 and the 30-day means of the series (about 120 numbers for 10 years). "
              "Its answer is read as data (JSON only, never executed) and goes through the same guard and grader as "
              "the reference agents.",
    },
    "gnss.live_opt_in": {"fr": "Lancer l'agent en direct", "en": "Run the live agent"},
    "gnss.live_opt_in_help": {"fr": "Envoie 12 requêtes par essai au modèle choisi dans la barre latérale.",
                              "en": "Sends 12 requests per run to the model chosen in the sidebar."},
    "gnss.live_runs": {"fr": "Essais par cas", "en": "Runs per case"},
    "gnss.live_offline_runs": {"fr": "Hors ligne : {runs} essais par cas, comme enregistrés.",
                               "en": "Offline: {runs} runs per case, as recorded."},
    "gnss.live_authored": {
        "fr": "Ces réponses sont des **exemples rédigés à la main**, pas des sorties d'un modèle : ils montrent "
              "comment des violations du schéma et des vitesses fausses sont notées.",
        "en": "These answers are **examples written by hand**, not a model's output: they show how schema "
              "violations and wrong velocities are scored.",
    },
    "gnss.live_prompt": {"fr": "Voir la requête envoyée (cas C01)", "en": "See the request sent (case C01)"},
    "gnss.live_label": {"fr": "{case} · essai {run}", "en": "{case} · run {run}"},
    "gnss.live_errors": {
        "fr": "Appels sans réponse : {n} sur {total} ; ils ne sont pas notés (voir le détail ci-dessus).",
        "en": "Calls without an answer: {n} out of {total}; they are not graded (see the details above).",
    },
    "gnss.live_nothing_graded": {"fr": "Aucune réponse à noter pour l'instant.", "en": "No answer to grade yet."},
    "gnss.live_answers": {"fr": "Lire les réponses du modèle", "en": "Read the model's answers"},
    "gnss.live_run": {"fr": "**Essai {run}**", "en": "**Run {run}**"},
    "gnss.live_run_error": {"fr": "L'appel a échoué : pas de réponse.", "en": "The call failed: no answer."},
    "gnss.live_graded": {"fr": "Vitesse : {velocity} · saut : {offset} · cas : {passed}",
                         "en": "Velocity: {velocity} · offset: {offset} · case: {passed}"},
    "gnss.ok.True": {"fr": "juste", "en": "right"},
    "gnss.ok.False": {"fr": "faux", "en": "wrong"},
    "gnss.problem.not_a_dict": {"fr": "pas un objet JSON (reçu : {type})", "en": "not a JSON object (got {type})"},
    "gnss.problem.missing_key": {"fr": "clé « {key} » absente", "en": "missing key '{key}'"},
    "gnss.problem.unexpected_key": {"fr": "clé « {key} » en trop", "en": "unexpected key '{key}'"},
    "gnss.problem.wrong_type": {"fr": "« {key} » a le type {type}", "en": "'{key}' has type {type}"},
    "gnss.problem.not_finite": {"fr": "« {key} » n'est pas un nombre fini", "en": "'{key}' is not a finite number"},
    "gnss.problem.offset_day_missing": {"fr": "saut signalé sans jour", "en": "offset flagged without a day"},
    "gnss.problem.agent_error": {"fr": "l'agent a levé une erreur", "en": "the agent raised an error"},
    # station upload
    "gnss.upload_title": {"fr": "9. Une vraie station", "en": "9. A real station"},
    "gnss.upload_intro": {
        "fr": "Déposez une série journalière réelle : CSV (`date`, déplacement en mm), `.tenv3` du Nevada Geodetic "
              "Laboratory, `.pos` EarthScope/PBO ou `.neu` du SIO. Les trois agents l'estiment ; il n'y a pas de "
              "vérité, seulement des estimations à comparer.",
        "en": "Upload a real daily series: a CSV (`date`, displacement in mm), a Nevada Geodetic Laboratory "
              "`.tenv3`, an EarthScope/PBO `.pos` or an SIO `.neu`. The three agents estimate it; there is no truth, "
              "only estimates to compare.",
    },
    "gnss.upload_label": {"fr": "Fichier de série GNSS", "en": "GNSS series file"},
    "gnss.upload_help": {"fr": "Le format est lu dans l'extension du fichier.",
                         "en": "The format is read from the file's extension."},
    "gnss.component": {"fr": "Composante", "en": "Component"},
    "gnss.component.east": {"fr": "est", "en": "east"},
    "gnss.component.north": {"fr": "nord", "en": "north"},
    "gnss.component.up": {"fr": "verticale", "en": "up"},
    "gnss.csv_component": {"fr": "CSV : la colonne « {column} » est lue ; le choix de composante ne s'applique pas.",
                           "en": "CSV: column '{column}' is read; the component choice does not apply."},
    "gnss.upload_too_large": {"fr": "Fichier trop gros (plus de {mb} Mo).", "en": "File too large (over {mb} MB)."},
    "gnss.station_read": {
        "fr": "Station **{station}** : {days} jours du {first} au {last} ({years} ans).",
        "en": "Station **{station}**: {days} days from {first} to {last} ({years} years).",
    },
    "gnss.station_no_truth": {
        "fr": "Sur une vraie station, la vérité n'est pas connue : la référence est une estimation construite sans "
              "les agents évalués. Un échec dit qu'un agent s'en écarte au-delà de la tolérance : un saut, un "
              "transitoire ou un changement d'équipement à examiner.",
        "en": "On a real station the truth is not known: the reference is an estimate built without the agents "
              "under evaluation. A failure says an agent departs from it beyond the tolerance: an offset, a "
              "transient or an equipment change worth examining.",
    },
    "gnss.station_figure": {"fr": "Composante {component} et ajustement de v2",
                            "en": "{component} component and v2's fit"},
    "gnss.station.rows_unsorted": {"fr": "Les lignes n'étaient pas dans l'ordre des dates : elles ont été triées.",
                                   "en": "The rows were not in date order: they were sorted."},
    "gnss.station.duplicates_dropped": {"fr": "Jours en double : {count} ; seule la première ligne de chaque jour est gardée.",
                                        "en": "Duplicated days: {count}; only the first line of each day is kept."},
    "gnss.station.gaps": {"fr": "Jours manquants : {missing_days} ({share} de la période).",
                          "en": "Missing days: {missing_days} ({share} of the span)."},
    "gnss.station.equipment_changes": {
        "fr": "Changements de hauteur d'antenne le {dates} : un saut à ces dates peut venir de l'équipement, pas "
              "du sol.",
        "en": "Antenna height changes on {dates}: an offset at those dates may come from the equipment, not the "
              "ground.",
    },
    "gnss.station.large_jump": {
        "fr": "Grand saut d'un jour à l'autre le {date} : {size_mm} mm ({sigmas} sigmas robustes). Séisme, "
              "équipement ou valeur aberrante ?",
        "en": "Large day-to-day jump on {date}: {size_mm} mm ({sigmas} robust sigmas). An earthquake, equipment or "
              "an outlier?",
    },
    "gnss.station.record_too_short_for_velocity": {
        "fr": "Série de {years} ans : sous {min_years} ans, le saisonnier biaise la vitesse.",
        "en": "A {years}-year record: under {min_years} years the seasonal signal biases the velocity.",
    },
    "gnss.file_line": {"fr": "ligne {line} : ", "en": "line {line}: "},
    "gnss.file_error.bad_line": {"fr": "Fichier illisible, {where}nombre de colonnes inattendu.",
                                 "en": "Unreadable file, {where}unexpected number of columns."},
    "gnss.file_error.bad_value": {"fr": "Fichier illisible, {where}une valeur n'est ni une date ni un nombre valide.",
                                  "en": "Unreadable file, {where}a value is not a valid date or number."},
    "gnss.file_error.empty": {"fr": "Fichier illisible : aucune ligne de données.",
                              "en": "Unreadable file: no data line."},
    "gnss.file_error.no_header": {"fr": "Fichier illisible, {where}l'en-tête attendu est absent.",
                                  "en": "Unreadable file, {where}the expected header is missing."},
    "gnss.file_error.too_few_rows": {"fr": "Trop peu de jours distincts (il en faut au moins {min_days}).",
                                     "en": "Too few distinct days (at least {min_days} are needed)."},
    "gnss.file_error.unknown_column": {"fr": "Fichier illisible, {where}une colonne attendue manque.",
                                       "en": "Unreadable file, {where}an expected column is missing."},
    "gnss.file_error.unknown_format": {"fr": "Format « {format} » inconnu.", "en": "Unknown format '{format}'."},
    "gnss.file_layout.csv": {"fr": "Un CSV attend un en-tête `date,disp_mm` (ou `date;disp_mm`, décimales à virgule "
                                   "admises) puis une date ISO et des mm par ligne.",
                             "en": "A CSV needs a `date,disp_mm` header (or `date;disp_mm`, decimal commas allowed), "
                                   "then an ISO date and mm on each line."},
    "gnss.file_layout.tenv3": {
        "fr": "Un `.tenv3` commence par la ligne d'en-tête `site YYMMMDD yyyy.yyyy __MJD …` puis une époque par ligne.",
        "en": "A `.tenv3` starts with the header line `site YYMMMDD yyyy.yyyy __MJD …` then one epoch per line.",
    },
    "gnss.file_layout.pos": {
        "fr": "Un `.pos` a une ligne de colonnes commençant par `*YYYYMMDD HHMMSS` puis une époque par ligne.",
        "en": "A `.pos` has a column line starting `*YYYYMMDD HHMMSS` then one epoch per line.",
    },
    "gnss.file_layout.neu": {
        "fr": "Un `.neu` a des lignes `année-décimale année jour N E U [sN sE sU]` en mètres (commentaires `#`).",
        "en": "A `.neu` has lines `decimal-year year day-of-year N E U [sN sE sU]` in metres (`#` comments).",
    },
    "gnss.file_layout.any": {"fr": "Formats acceptés : .csv, .tenv3, .pos, .neu.",
                             "en": "Accepted formats: .csv, .tenv3, .pos, .neu."},
    "gnss.cli": {
        "fr": "En ligne de commande : `python -m evallib gnss --summary` (tableau, `--json`, code de sortie 1 sous "
              "`--min-passes`, 2 quand rien n'a pu être mesuré), `python -m evallib gnss --live MODÈLE` pour un "
              "modèle en direct, `python -m evallib gnss --file station.tenv3` pour une vraie station, et "
              "`python -m evallib record gnss --model …` pour enregistrer les réponses d'un modèle.",
        "en": "From the command line: `python -m evallib gnss --summary` (table, `--json`, exit code 1 below "
              "`--min-passes`, 2 when nothing could be measured), `python -m evallib gnss --live MODEL` for a live "
              "model, `python -m evallib gnss --file station.tenv3` for a real station, and "
              "`python -m evallib record gnss --model …` to record a model's answers.",
    },
    # where the first false alarm comes: the cases (section 3) beside the series of the trade-off curve
    "gnss.first_alarm.cases_sooner": {
        "fr": "Les cas donnent l'alarme plus tôt : en abaissant le seuil, la première fausse alarme vient à {cases_mm} "
              "sur les {n_cases} cas ({cases}), mais seulement à {series_mm} sur les {n_series} séries de la courbe, "
              "toutes du plan propre de 10 ans.",
        "en": "The cases raise the alarm sooner: lowering the threshold, the first false alarm comes at {cases_mm} on the "
              "{n_cases} cases ({cases}), but only at {series_mm} on the curve's {n_series} series, all of the clean "
              "10-year design.",
    },
    "gnss.first_alarm.series_sooner": {
        "fr": "En abaissant le seuil, la première fausse alarme vient à {series_mm} sur les {n_series} séries de la "
              "courbe, et seulement à {cases_mm} sur les {n_cases} cas ({cases}).",
        "en": "Lowering the threshold, the first false alarm comes at {series_mm} on the curve's {n_series} series, "
              "and only at {cases_mm} on the {n_cases} cases ({cases}).",
    },
    "gnss.first_alarm.same_threshold": {
        "fr": "En abaissant le seuil, la première fausse alarme vient au même seuil, {cases_mm}, sur les {n_cases} "
              "cas ({cases}) et sur les {n_series} séries de la courbe.",
        "en": "Lowering the threshold, the first false alarm comes at the same threshold, {cases_mm}, on the "
              "{n_cases} cases ({cases}) and on the curve's {n_series} series.",
    },
    "gnss.first_alarm.cases_never": {
        "fr": "Aucun seuil essayé ne fait de fausse alarme sur les cas ; sur les {n_series} séries de la courbe, la "
              "première vient à {series_mm}.",
        "en": "No threshold tried raises a false alarm on the cases; on the curve's {n_series} series the first "
              "comes at {series_mm}.",
    },
    "gnss.first_alarm.series_never": {
        "fr": "Aucun seuil essayé ne fait de fausse alarme sur les {n_series} séries de la courbe ; sur les "
              "{n_cases} cas, la première vient à {cases_mm} ({cases}).",
        "en": "No threshold tried raises a false alarm on the curve's {n_series} series; on the {n_cases} cases "
              "the first comes at {cases_mm} ({cases}).",
    },
    "gnss.first_alarm.never": {
        "fr": "Aucun seuil essayé ne fait de fausse alarme, ni sur les cas ni sur les {n_series} séries de la courbe.",
        "en": "No threshold tried raises a false alarm, neither on the cases nor on the curve's {n_series} series.",
    },
    # a CSV's separator, sniffed as the kappa page sniffs it (evallib.delimited)
    "gnss.file_error.csv_ambiguous": {
        "fr": "Fichier illisible : deux séparateurs (virgule, point-virgule ou tabulation) le découpent aussi bien "
              "l'un que l'autre ; gardez-en un seul.",
        "en": "Unreadable file: two separators (comma, semicolon or tab) split it equally well; keep only one.",
    },
    "gnss.file_error.csv_malformed": {"fr": "Fichier illisible, {where}ce n'est pas du CSV valide (guillemets ?).",
                                      "en": "Unreadable file, {where}not valid CSV (quotes?)."},
    "gnss.file_error.csv_field_too_large": {
        "fr": "Fichier illisible, {where}une case est démesurément longue (un guillemet jamais fermé ?).",
        "en": "Unreadable file, {where}a cell is far too long (a quote never closed?).",
    },
    "gnss.upload_kept": {"fr": "Fichier gardé depuis votre dernier passage : {name} (déposez-en un autre pour le "
                               "remplacer).",
                         "en": "File kept from your last visit: {name} (drop another one to replace it)."},
    "gnss.upload_forget": {"fr": "Oublier ce fichier", "en": "Forget this file"},
    # pass rates over several cases: the case as the unit (docs/gnss.md#repeated)
    "gnss.rate.rate_unanimous": {
        "fr": "{what} : {passes}/{runs} ; l'erreur type vaut 0 et l'intervalle de Wilson ({low} à {high}) est "
              "étroit, mais il n'atteint pas un taux de exactement 0 ou 1.",
        "en": "{what}: {passes}/{runs}; the standard error is 0 and the Wilson interval ({low} to {high}) is narrow, "
              "yet it does not reach a rate of exactly 0 or 1.",
    },
    "gnss.overall_title": {"fr": "Tous cas confondus : l'unité est le cas", "en": "All cases together: the case is the unit"},
    "gnss.overall": {
        "fr": "Taux de réussite sur {items} cas et {n} essais : {rate}, intervalle à 95 % {ci} (unité : le cas, "
              "car un agent qui échoue sur un cas échoue souvent à chaque essai) ; {decision_ci} si chaque essai "
              "comptait comme indépendant.",
        "en": "Pass rate over {items} cases and {n} runs: {rate}, 95% interval {ci} (unit: the case, since an agent "
              "that fails a case often fails it on every run); {decision_ci} if each run counted as independent.",
    },
    "gnss.cluster.clustered_undefined": {"fr": "Aucun essai noté : pas de taux.", "en": "No graded run: no rate."},
    "gnss.cluster.clustered_one_item": {
        "fr": "Un seul cas : ses {n} essais ne disent rien des autres cas.",
        "en": "A single case: its {n} runs say nothing of the other cases."},
    "gnss.cluster.clustered_one_run_each": {
        "fr": "Un essai par cas : l'intervalle est celui de Clopper-Pearson sur les {items} cas.",
        "en": "One run per case: the interval is Clopper-Pearson's over the {items} cases."},
    "gnss.cluster.clustered_unanimous": {
        "fr": "Les {n} essais donnent tous le même verdict : rien ne dit s'ils sont indépendants, donc chaque cas "
              "compte une fois.",
        "en": "All {n} runs give the same verdict: nothing tells whether they are independent, so each case "
              "counts once."},
    "gnss.cluster.clustered_correlated": {
        "fr": "Les essais d'un même cas se ressemblent : les {n} essais valent environ {effective} essais "
              "indépendants, d'où l'intervalle plus large.",
        "en": "Runs of one case resemble each other: the {n} runs are worth about {effective} independent runs, "
              "hence the wider interval."},
    "gnss.cluster.clustered_as_independent": {
        "fr": "Les essais varient autant que des essais indépendants : les deux intervalles coïncident.",
        "en": "The runs vary as much as independent runs: the two intervals coincide."},
    # real stations (gaps, outliers, MIDAS's pairs), dated offsets (docs/gnss.md#stations)
    "gnss.offset_on": {"fr": "{date} ({size} mm)", "en": "{date} ({size} mm)"},
    "gnss.station.outlier": {
        "fr": "Mesure isolée le {date} : {size_mm} mm hors de la ligne, puis retour dès la mesure suivante. C'est une "
              "valeur aberrante, pas un saut.",
        "en": "One epoch off on {date}: {size_mm} mm off the line, then back at the next epoch. That is an outlier, "
              "not an offset.",
    },
    "gnss.station.jump_across_gap": {
        "fr": "Entre le {gap_from} et le {gap_to} ({missing_days} jours sans données), la position a changé de "
              "{size_mm} mm. C'est une lacune, pas un saut qu'on puisse dater : le déplacement a pu se produire "
              "n'importe quel jour de la lacune.",
        "en": "Between {gap_from} and {gap_to} ({missing_days} days without data) the position changed by {size_mm} "
              "mm. That is a gap, not an offset one can date: the motion may have happened on any day inside it.",
    },
    "gnss.station.agents_gaps": {
        "fr": "Lacunes : v1 et v2 ajustent leurs droites sur les dates, une lacune n'y est qu'un intervalle sans "
              "mesure. Leur détecteur de saut compare des moyennes de {window} mesures, pas de {window} jours : à "
              "travers la plus longue lacune ({longest_gap_days}, du {gap_from} au {gap_to}), une fenêtre "
              "couvre plus de temps.",
        "en": "Gaps: v1 and v2 fit their lines on the dates, where a gap is only a stretch without data. Their jump "
              "detector compares means of {window} epochs, not {window} days: across the longest gap "
              "({longest_gap_days}, {gap_from} to {gap_to}) a window spans more time.",
    },
    "gnss.station.midas_pairs": {
        "fr": "MIDAS : {pairs} paires de jours (dans les deux sens du temps), {kept} gardées après l'élagage à "
              "2 sigmas. {exact_pairs} relient deux jours distants d'un an ; {gap_pairs} relient un jour dont le "
              "jour un an plus tard manque au jour suivant encore libre (jusqu'à {longest_pair_years} ans d'écart).",
        "en": "MIDAS: {pairs} pairs of days (in both time directions), {kept} kept after the 2-sigma trim. "
              "{exact_pairs} join two days one year apart; {gap_pairs} join a day whose day one year later is "
              "missing to the next unused day (up to {longest_pair_years} years apart).",
    },
    "gnss.station.midas_pairs_steps": {
        "fr": "MIDAS : {pairs} paires de jours (dans les deux sens du temps), {kept} gardées après l'élagage à "
              "2 sigmas. {exact_pairs} relient deux jours distants d'un an ; {gap_pairs} relient un jour dont le "
              "jour un an plus tard manque au jour suivant encore libre (jusqu'à {longest_pair_years} ans d'écart). "
              "Aucune paire ne franchit les sauts connus ({steps}).",
        "en": "MIDAS: {pairs} pairs of days (in both time directions), {kept} kept after the 2-sigma trim. "
              "{exact_pairs} join two days one year apart; {gap_pairs} join a day whose day one year later is "
              "missing to the next unused day (up to {longest_pair_years} years apart). No pair spans the known "
              "steps ({steps}).",
    },
    "gnss.station.midas_too_few_epochs": {
        "fr": "MIDAS demande au moins {min_epochs} mesures ; la série en a {epochs} : pas de vitesse.",
        "en": "MIDAS needs at least {min_epochs} epochs; the record has {epochs}: no velocity.",
    },
    "gnss.station.midas_too_short": {
        "fr": "La série couvre {years} an : MIDAS demande {min_days} jours pour trouver deux jours distants d'un "
              "an. Aucune paire, donc pas de vitesse MIDAS.",
        "en": "The record spans {years} years: MIDAS needs {min_days} days to find two days one year apart. No "
              "pair, so no MIDAS velocity.",
    },
    "gnss.station.midas_excluded_by_steps": {
        "fr": "MIDAS trouvait {pairs_without_steps} paires de jours distants d'un an, mais les sauts connus "
              "({steps}) les coupent : il en reste {pairs}, moins que les {min_pairs} qu'il demande. Pas de vitesse.",
        "en": "MIDAS found {pairs_without_steps} pairs of days one year apart, but the known steps ({steps}) cut "
              "across them: {pairs} remain, fewer than the {min_pairs} it needs. No velocity.",
    },
    "gnss.station.midas_too_few_pairs": {
        "fr": "Les lacunes ne laissent à MIDAS que {pairs} paires de jours, moins que les {min_pairs} qu'il "
              "demande : pas de vitesse.",
        "en": "The gaps leave MIDAS {pairs} pairs of days, fewer than the {min_pairs} it needs: no velocity.",
    },
    "gnss.station.jump_in_margin": {
        "fr": "Le saut de {size_mm} mm du {date} tombe dans les {margin} dernières ou premières mesures, où le "
              "détecteur des agents ne cherche pas : leur saut ne le désigne pas. Une droite ajustée saut retiré "
              "donne {line_velocity_mm_yr} mm/an, et leurs vitesses en restent proches (le saut n'en fait pas la "
              "moitié).",
        "en": "The {size_mm} mm jump on {date} lies within {margin} epochs of an end of the record, where the "
              "agents' detector does not look: their offset does not point to it. A straight line fitted with the "
              "jump removed gives {line_velocity_mm_yr} mm/yr, and their velocities stay close to it (the jump "
              "makes up less than half of them).",
    },
    # tolerances bounded from order statistics, on designs with offsets (docs/gnss.md#tolerances)
    "gnss.tolerance_intro.bounded": {
        "fr": "Quelle erreur de vitesse l'agent v2 fait-il sur des séries comme celles des cas ? On le lance sur "
              "{n} séries neuves par durée, qui reprennent tour à tour les cas de cette durée, sauts compris "
              "(graines distinctes des cas évalués), à 10 ans puis à 2 ans. La tolérance est la borne supérieure à "
              "95 % du 95e centile de l'erreur, lue sur les statistiques d'ordre, arrondie au 0,5 mm/an supérieur "
              "et jamais sous celle de la spécification v1. Cette borne n'existe qu'à partir de {min_trials} "
              "réalisations : avec moins, même la plus grande erreur observée ne borne pas le 95e centile.",
        "en": "What velocity error does agent v2 make on series like the cases? We run it on {n} fresh series per "
              "length, taking the cases of that length in turn, offsets included (seeds disjoint from the "
              "evaluated cases), at 10 years then at 2 years. The tolerance is the 95 % upper bound of the 95th "
              "percentile of the error, read from the order statistics, rounded up to 0.5 mm/yr and never below "
              "spec v1's. That bound exists only from {min_trials} realisations on: with fewer, not even the "
              "largest error seen bounds the 95th percentile.",
    },
    "gnss.spread_value.bounded": {"fr": "p95 {p95} mm/an", "en": "p95 {p95} mm/yr"},
    "gnss.spread_caption.bounded": {
        "fr": "Médiane {median} mm/an ; intervalle de confiance bilatéral à 95 % du 95e centile : {interval} "
              "(unité : la réalisation).",
        "en": "Median {median} mm/yr; two-sided 95 % confidence interval of the 95th percentile: {interval} "
              "(unit: the realisation)."},
    "gnss.spread_help.bounded": {
        "fr": "{n} réalisations des cas {designs}, graines {first} à {last}, en mm/an. Entre crochets : "
              "l'intervalle de confiance à 95 % du 95e centile tiré des statistiques d'ordre (unité : la "
              "réalisation).",
        "en": "{n} realisations of cases {designs}, seeds {first} to {last}, in mm/yr. In brackets: the 95 % "
              "confidence interval of the 95th percentile from the order statistics (unit: the realisation).",
    },
    "gnss.derived_tolerance.bounded": {
        "fr": "Tolérance dérivée : {tolerance} mm/an. La borne supérieure unilatérale à 95 % du 95e centile vaut "
              "{upper} mm/an (la {rank}e plus petite des {n} erreurs ; unilatérale, elle est plus basse que le haut "
              "de l'intervalle bilatéral) ; arrondie au 0,5 mm/an supérieur, elle donne {rounded} mm/an.",
        "en": "Derived tolerance: {tolerance} mm/yr. The one-sided 95 % upper bound of the 95th percentile is "
              "{upper} mm/yr (the error of rank {rank} of {n} from the smallest; one-sided, it sits below the top "
              "of the two-sided interval); rounded up to 0.5 mm/yr it gives {rounded} mm/yr.",
    },
    "gnss.derived_tolerance.floored": {
        "fr": "Tolérance dérivée : {tolerance} mm/an. La borne supérieure unilatérale à 95 % du 95e centile vaut "
              "{upper} mm/an (la {rank}e plus petite des {n} erreurs ; unilatérale, elle est plus basse que le haut "
              "de l'intervalle bilatéral) ; arrondie au 0,5 mm/an supérieur, elle donne {rounded} mm/an, sous la "
              "tolérance de la spécification v1 : on garde celle-ci.",
        "en": "Derived tolerance: {tolerance} mm/yr. The one-sided 95 % upper bound of the 95th percentile is "
              "{upper} mm/yr (the error of rank {rank} of {n} from the smallest; one-sided, it sits below the top "
              "of the two-sided interval); rounded up to 0.5 mm/yr it gives {rounded} mm/yr, below spec v1's "
              "tolerance, which is kept.",
    },
    # MIDAS's published sigma against the simulated scatter (docs/gnss.md#midas-sigma)
    "gnss.col.realisations": {"fr": "Réalisations", "en": "Realisations"},
    "gnss.col.sigma_published": {"fr": "σ publié", "en": "Published σ"},
    "gnss.col.sigma_unscaled": {"fr": "σ sans le 3", "en": "σ without the 3"},
    "gnss.col.scatter": {"fr": "Dispersion", "en": "Scatter"},
    "gnss.col.scatter_interval": {"fr": "Dispersion, 95 %", "en": "Scatter, 95%"},
    "gnss.midas_sigma_title": {"fr": "L'incertitude de MIDAS tient-elle ?", "en": "Does MIDAS's uncertainty hold?"},
    "gnss.midas_sigma_intro": {
        "fr": "MIDAS publie une incertitude σ_v = 3·√(π/2)·σ/√(n/4) : σ est la dispersion robuste (1,4826 × "
              "l'écart absolu médian) des pentes gardées, n le nombre de paires gardées (chaque mesure entre dans "
              "quatre paires, d'où n/4 paires indépendantes), et 3 un facteur empirique des auteurs pour le bruit "
              "de scintillation. Ici, la page simule des séries sans saut avec le bruit des cas (blanc et "
              "scintillation, saisonnier), passe MIDAS sur chacune et compare la médiane du σ publié à l'écart "
              "type réel des vitesses obtenues.",
        "en": "MIDAS publishes an uncertainty σ_v = 3·√(π/2)·σ/√(n/4): σ is the robust scatter (1.4826 × the "
              "median absolute deviation) of the kept slopes, n the number of kept pairs (each position enters "
              "four pairs, hence n/4 independent pairs), and 3 an empirical factor of the authors for flicker "
              "noise. Here the page simulates offset-free series with the cases' noise (white and flicker, "
              "seasonal), runs MIDAS on each and compares the median published σ with the true standard deviation "
              "of the velocities it gives.",
    },
    "gnss.midas_sigma_caption": {
        "fr": "En mm/an. σ publié : médiane sur les réalisations. Dispersion : écart type des vitesses MIDAS, avec "
              "son intervalle à 95 % (khi-deux ; unité : la réalisation).",
        "en": "In mm/yr. Published σ: median over the realisations. Scatter: standard deviation of the MIDAS "
              "velocities, with its 95% interval (chi-square; unit: the realisation).",
    },
    "gnss.midas_sigma.midas_sigma_realistic": {
        "fr": "À {years} ans, le σ publié ({sigma} mm/an) tombe dans l'intervalle de la dispersion simulée "
              "{scatter_low} à {scatter_high} mm/an, sur {n} réalisations : il décrit bien l'incertitude.",
        "en": "At {years} years, the published σ ({sigma} mm/yr) lies inside the simulated scatter's interval, "
              "{scatter_low} to {scatter_high} mm/yr, over {n} realisations: it describes the uncertainty well.",
    },
    "gnss.midas_sigma.midas_sigma_conservative": {
        "fr": "À {years} ans, le σ publié ({sigma} mm/an) dépasse la dispersion simulée ({scatter} mm/an, "
              "intervalle {scatter_low} à {scatter_high}, {n} réalisations) : {ratio} fois plus grand, il est "
              "prudent.",
        "en": "At {years} years, the published σ ({sigma} mm/yr) exceeds the simulated scatter ({scatter} mm/yr, "
              "interval {scatter_low} to {scatter_high}, {n} realisations): {ratio} times larger, it is cautious.",
    },
    "gnss.midas_sigma.midas_sigma_optimistic": {
        "fr": "À {years} ans, le σ publié ({sigma} mm/an) reste sous la dispersion simulée ({scatter} mm/an, "
              "intervalle {scatter_low} à {scatter_high}, {n} réalisations) : {ratio} fois la dispersion, il "
              "promet plus de précision que MIDAS n'en donne.",
        "en": "At {years} years, the published σ ({sigma} mm/yr) stays below the simulated scatter ({scatter} "
              "mm/yr, interval {scatter_low} to {scatter_high}, {n} realisations): {ratio} times the scatter, it "
              "promises more precision than MIDAS delivers.",
    },
    "gnss.live_run_unrecorded": {"fr": "Non enregistré : la source choisie n'a pas de réponse pour cet essai.",
                                 "en": "Not recorded: the chosen source has no answer for this run."},
    "gnss.progress.read": {"fr": "Lecture du fichier…", "en": "Reading the file…"},
    "gnss.progress.agents": {"fr": "Estimations des trois agents…", "en": "The three agents' estimates…"},
    "gnss.progress.figure": {"fr": "Préparation de la figure…", "en": "Preparing the figure…"},
    "gnss.points_shown": {
        "fr": "La figure montre {shown} des {total} jours : le plus bas et le plus haut de chaque tranche de "
              "jours consécutifs, pour que les sauts restent visibles. Les estimations utilisent tous les jours.",
        "en": "The figure shows {shown} of the {total} days: the lowest and highest of each run of consecutive "
              "days, so that jumps stay visible. The estimates use every day.",
    },
    # the reference never leans on the agents under test (docs/gnss.md#reference)
    "gnss.agent.reference": {"fr": "Référence (MIDAS, sauts mesurés dans les données)",
                             "en": "Reference (MIDAS, offsets measured in the data)"},
    "gnss.step_source": {"fr": "Sauts de la référence", "en": "The reference's steps"},
    "gnss.step_source.detected": {"fr": "Détectés par le lecteur", "en": "Detected by the reader"},
    "gnss.step_source.file": {"fr": "Fichier de sauts", "en": "Steps file"},
    "gnss.step_source.none": {"fr": "Aucun", "en": "None"},
    "gnss.step_source_help": {
        "fr": "La référence ne prend jamais les sauts d'un agent évalué. Détectés : les changements d'antenne du "
              "fichier et le grand saut d'un jour à l'autre que le lecteur signale ; fichier : vos dates ; aucun : "
              "MIDAS sans saut.",
        "en": "The reference never takes an evaluated agent's steps. Detected: the file's antenna changes and the "
              "large day-to-day jump the reader reports; file: your dates; none: MIDAS without steps.",
    },
    "gnss.steps_upload_label": {"fr": "Fichier de sauts (.txt)", "en": "Steps file (.txt)"},
    "gnss.steps_upload_help": {
        "fr": "Une date AAAA-MM-JJ par ligne (le premier jour après le saut), suivie si besoin d'une composante "
              "(east, north ou up) ; les lignes qui commencent par # sont ignorées.",
        "en": "One date YYYY-MM-DD a line (the first day after the step), optionally followed by a component "
              "(east, north or up); lines starting with # are ignored.",
    },
    "gnss.steps_needed": {"fr": "Déposez un fichier de sauts, ou choisissez une autre source.",
                          "en": "Upload a steps file, or choose another source."},
    "gnss.steps_error.bad_date": {"fr": "Fichier de sauts, ligne {line} : « {text} » n'est pas une date AAAA-MM-JJ.",
                                  "en": "Steps file, line {line}: '{text}' is not a date YYYY-MM-DD."},
    "gnss.steps_error.bad_component": {
        "fr": "Fichier de sauts, ligne {line} : « {text} » n'est pas une composante (east, north ou up).",
        "en": "Steps file, line {line}: '{text}' is not a component (east, north or up)."},
    "gnss.steps_error.extra_field": {
        "fr": "Fichier de sauts, ligne {line} : « {text} » contient plus qu'une date et une composante.",
        "en": "Steps file, line {line}: '{text}' holds more than a date and a component."},
    "gnss.steps_error.empty": {"fr": "Le fichier de sauts ne contient aucune date.",
                               "en": "The steps file holds no date."},
    "gnss.steps_error.too_many_lines": {"fr": "Le fichier de sauts dépasse {limit} lignes.",
                                        "en": "The steps file has more than {limit} lines."},
    "gnss.reference_method": {
        "fr": "La référence mesure chaque saut sur les données de part et d'autre : une droite sur les {window} "
              "jours avant, une autre sur les {window} jours après, chacune avec sa pente, et le saut est leur "
              "écart au moment du saut (le saut de Heaviside d'un modèle de trajectoire, Bevis & Brown 2014, ajusté "
              "localement). Un saut demande {min_epochs} mesures de chaque côté ; à travers une lacune, ce n'est "
              "pas un saut. Sa vitesse est celle de MIDAS avec ces sauts seulement.",
        "en": "The reference measures each step on the data either side: a line over the {window} days before, "
              "another over the {window} days after, each with its own rate, and the step is their difference at "
              "the step time (the Heaviside step of a trajectory model, Bevis & Brown 2014, fitted locally). A step "
              "needs {min_epochs} epochs on each side; across a gap it is no step. Its velocity is MIDAS's with "
              "those steps only.",
    },
    "gnss.station.step_is_gap": {
        "fr": "Le saut du {date} tombe dans une lacune ({missing_days} jours sans données, du {gap_from} au "
              "{gap_to}) : c'est une lacune, pas un saut ; la référence ne le mesure pas et MIDAS ne le saute pas.",
        "en": "The step on {date} falls in a gap ({missing_days} days without data, {gap_from} to {gap_to}): that "
              "is a gap, not a step; the reference does not size it and MIDAS does not skip it.",
    },
    "gnss.station.step_too_few_epochs": {
        "fr": "Le saut du {date} a {before} mesures avant et {after} après dans une fenêtre de {window_days} "
              "jours, moins que les {min_epochs} demandées de chaque côté : MIDAS le saute, mais sa taille n'est "
              "pas mesurée.",
        "en": "The step on {date} has {before} epochs before and {after} after within a {window_days}-day window, "
              "fewer than the {min_epochs} needed on each side: MIDAS skips it, but its size is not measured.",
    },
    "gnss.station.step_outside_record": {
        "fr": "Le saut du {date} tombe hors de la série ({first} – {last}) : il est ignoré.",
        "en": "The step on {date} falls outside the record ({first} to {last}): it is ignored.",
    },
    "gnss.station.jump_in_margin_absorbed": {
        "fr": "Le saut de {size_mm} mm du {date} tombe dans les {margin} dernières ou premières mesures, où le "
              "détecteur des agents ne cherche pas. Il domine pourtant la vitesse de {agents} : une droite ajustée "
              "saut retiré donne {line_velocity_mm_yr} mm/an, et le saut fait plus de la moitié de leur vitesse.",
        "en": "The {size_mm} mm jump on {date} lies within {margin} epochs of an end of the record, where the "
              "agents' detector does not look. It still dominates the velocity of {agents}: a straight line "
              "fitted with the jump removed gives {line_velocity_mm_yr} mm/yr, and the jump makes up more than "
              "half of their velocity.",
    },
    "gnss.station.station_agent_passes": {
        "fr": "{agent} s'accorde avec la référence (saut, et vitesse quand la référence en donne une).",
        "en": "{agent} agrees with the reference (offset, and velocity when the reference gives one).",
    },
    "gnss.station.station_agent_fails": {"fr": "{agent} échoue face à la référence : {failures}.",
                                         "en": "{agent} fails against the reference: {failures}."},
    "gnss.station_failure.offset_missed": {"fr": "saut de référence non signalé", "en": "reference offset missed"},
    "gnss.station_failure.offset_spurious": {"fr": "saut signalé là où la référence n'en a pas",
                                             "en": "offset flagged where the reference has none"},
    "gnss.station_failure.offset_date": {"fr": "saut mal daté", "en": "offset wrongly dated"},
    "gnss.station_failure.offset_sign": {"fr": "saut de signe opposé", "en": "offset of the opposite sign"},
    "gnss.station_failure.offset_size": {"fr": "taille du saut hors tolérance", "en": "offset size beyond tolerance"},
    "gnss.station_failure.velocity_off": {"fr": "vitesse hors tolérance", "en": "velocity beyond tolerance"},
    "gnss.velocity_unchecked": {"fr": "non notée (pas de vitesse MIDAS)", "en": "not graded (no MIDAS velocity)"},
    "gnss.verdict.pass": {"fr": "réussi", "en": "pass"},
    "gnss.verdict.fail": {"fr": "échec", "en": "fail"},
    "gnss.gap_days.one": {"fr": "{n} jour", "en": "{n} day"},
    "gnss.gap_days.other": {"fr": "{n} jours", "en": "{n} days"},
    "gnss.agents_both": {"fr": "{a} et {b}", "en": "{a} and {b}"},
}

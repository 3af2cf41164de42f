"""Texts of the Kappa page (pages/kappa.py). Figures are placeholders filled from computed values.

French typography: the French texts are written with ordinary spaces and ``french_spacing`` turns
the space before : ; ? ! % and » and after « into a no-break space, so that no punctuation mark
starts a line on the projector and the rule holds for every text, including new ones.
"""

import re

NBSP = "\u00a0"
# A space before : ; ? ! » or % (but not a plotly placeholder such as %{y}), or after «.
_BEFORE = re.compile(r" (?=[:;?!»]|%(?!\{))")
_AFTER = re.compile(r"(?<=«) ")


def french_spacing(text: str) -> str:
    """``text`` with no-break spaces where French typography wants them."""
    return _AFTER.sub(NBSP, _BEFORE.sub(NBSP, text))


TEXTS = {
    # ---------------------------------------------------------------- page, data
    "kappa.nav": {"fr": "Accord (kappa)", "en": "Agreement (kappa)"},
    "kappa.title": {"fr": "Accord entre évaluateurs : le kappa de Cohen",
                    "en": "Agreement between raters: Cohen's kappa"},
    "kappa.intro": {
        "fr": "Une grille ne peut servir de notateur que si deux personnes qui l'appliquent à la même "
              "sortie rendent les mêmes verdicts. Le pourcentage d'accord ne le prouve pas : quand "
              "presque tout passe, deux évaluateurs tombent d'accord par simple hasard. Le **kappa de "
              "Cohen** retire la part d'accord que le hasard produirait à lui seul. Collez les verdicts "
              "de deux évaluateurs, chargez un CSV, ou partez d'un exemple.",
        "en": "A rubric can act as a grader only if two people applying it to the same output reach the "
              "same verdicts. Percent agreement does not show that: when nearly everything passes, two "
              "raters agree by sheer chance. **Cohen's kappa** removes the share of agreement that "
              "chance alone would produce. Paste two raters' verdicts, load a CSV, or start from an "
              "example."},
    "kappa.data_title": {"fr": "Données", "en": "Data"},
    "kappa.source": {"fr": "Origine des notes", "en": "Ratings from"},
    "kappa.source.typed": {"fr": "Saisie ou copier-coller (deux évaluateurs)", "en": "Typed or pasted (two raters)"},
    "kappa.source.csv": {"fr": "Fichier CSV (deux évaluateurs ou plus)", "en": "CSV file (two or more raters)"},
    # Button labels: short enough for three buttons side by side at 1280 px with the sidebar open.
    "kappa.preset.rubric_pair": {"fr": "Cours : grille de 12 contrôles", "en": "Course: 12-check rubric"},
    "kappa.preset.lenient_pair": {"fr": "Cours : deux évaluateurs indulgents", "en": "Course: two lenient raters"},
    "kappa.preset.judge_scores": {"fr": "Deux juges, notes de 0 à 10", "en": "Two judges, scores from 0 to 10"},
    "kappa.preset.rubric_pair.source": {
        "fr": "Source : texte du cours, section « Noter sans vérité calculable ». Deux évaluateurs "
              "appliquent la même grille de 12 contrôles à une relecture rédigée par une IA "
              "(1 = critère satisfait).",
        "en": "Source: the course text, section on grading without a computable truth. Two raters apply "
              "the same 12-check rubric to one AI-written review (1 = criterion met)."},
    "kappa.preset.lenient_pair.source": {
        "fr": "Source : même section du cours. Deux évaluateurs indulgents, qui valident presque tout.",
        "en": "Source: same section of the course. Two lenient raters who pass almost everything."},
    "kappa.preset.judge_scores.source": {
        "fr": "Exemple rédigé pour l'atelier, pas des mesures : deux juges LLM notent les mêmes 15 "
              "réponses de 0 à 10. Ils donnent rarement la même note, mais s'écartent rarement de plus "
              "d'un point.",
        "en": "Example written for the workshop, not measured data: two LLM judges score the same 15 "
              "answers from 0 to 10. They rarely give the same score, but rarely differ by more than "
              "one point."},
    "kappa.rater_a": {"fr": "Évaluateur A", "en": "Rater A"},
    "kappa.rater_b": {"fr": "Évaluateur B", "en": "Rater B"},
    "kappa.typed_help": {
        "fr": "Une étiquette par ligne, ou toutes sur une ligne séparées par des virgules, des "
              "points-virgules ou des tabulations (une ligne copiée d'un tableur). Les espaces ne "
              "séparent pas : une étiquette peut en contenir (très bien). Une entrée vide est une note "
              "manquante, et l'item est alors écarté. Une virgule ou un point-virgule en fin de ligne "
              "est ignoré : pour une dernière note manquante, écrivez « 1, 0, , ». Les étiquettes sont "
              "des nombres ou des mots (oui, non) ; un nombre à virgule (7,5) s'écrit seul sur sa "
              "ligne, ou entre points-virgules ou tabulations (7,5 ; 8).",
        "en": "One label per line, or all on one line separated by commas, semicolons or tabs (a row "
              "copied from a spreadsheet). Spaces do not separate: a label may contain them (very "
              "good). An empty entry is a missing rating, and that item is then left out. A comma or "
              "semicolon at the end of the line is ignored: for a missing last rating, write “1, 0, ,”. "
              "Labels are numbers or words (yes, no); write decimals with a point (7.5)."},
    "kappa.count": {"fr": "Étiquettes : {n}", "en": "Labels: {n}"},
    "kappa.csv_upload": {"fr": "Fichier CSV", "en": "CSV file"},
    "kappa.csv_help": {
        "fr": "Une colonne par évaluateur, une ligne par item ; la première ligne donne les noms des "
              "évaluateurs. Séparateur : virgule, point-virgule ou tabulation, reconnu sur toutes les "
              "lignes ; avec le point-virgule, les nombres à virgule (7,5) sont lus comme des nombres. Une "
              "case vide est une note manquante. Encodage UTF-8 (dans Excel : « CSV UTF-8 »).",
        "en": "One column per rater, one row per item; the first row gives the raters' names. Separator: "
              "comma, semicolon or tab, recognised over every line; with semicolons, decimal commas (7,5) "
              "read as numbers. An empty cell is a missing rating. UTF-8 encoding (in Excel: "
              "“CSV UTF-8”)."},
    "kappa.csv_example_caption": {
        "fr": "Pas de fichier sous la main ? Exemple rédigé pour l'atelier : trois juges notent 12 "
              "réponses de 0 à 10, deux notes manquent.",
        "en": "No file at hand? An example written for the workshop: three judges score 12 answers from "
              "0 to 10, with two scores missing."},
    "kappa.csv_use_example": {"fr": "Utiliser l'exemple", "en": "Use the example"},
    "kappa.csv_download_example": {"fr": "Télécharger l'exemple", "en": "Download the example"},
    "kappa.csv_waiting": {"fr": "Déposez un fichier CSV, ou utilisez l'exemple.",
                          "en": "Drop a CSV file, or use the example."},
    "kappa.csv_file": {"fr": "Fichier « {name} » :", "en": "File “{name}”:"},
    "kappa.csv_loaded": {"fr": "« {name} » : {items} items, {raters} évaluateurs ({names}).",
                         "en": "“{name}”: {items} items, {raters} raters ({names})."},

    # ---------------------------------------------------------------- options
    "kappa.weights": {"fr": "Pondération du kappa", "en": "Kappa weighting"},
    "kappa.weights.none": {"fr": "aucune", "en": "none"},
    "kappa.weights.linear": {"fr": "linéaire", "en": "linear"},
    "kappa.weights.quadratic": {"fr": "quadratique", "en": "quadratic"},
    "kappa.weights_help": {
        "fr": "Pour des notes ordonnées (un juge qui note de 0 à 10), un point d'écart n'est pas un "
              "désaccord complet. La pondération linéaire accorde un crédit partiel qui décroît avec "
              "l'écart ; la quadratique pénalise surtout les grands écarts. Exige des étiquettes "
              "numériques.",
        "en": "For ordered scores (a judge scoring from 0 to 10), one point apart is not a full "
              "disagreement. Linear weighting gives partial credit that falls with the gap; quadratic "
              "weighting mostly penalises large gaps. Needs numeric labels."},
    "kappa.ci_method": {"fr": "Intervalle de confiance à 95 %", "en": "95% confidence interval"},
    "kappa.ci_method.analytic": {"fr": "analytique", "en": "analytic"},
    "kappa.ci_method.bootstrap": {"fr": "bootstrap", "en": "bootstrap"},
    "kappa.ci_method_help": {
        "fr": "Petits échantillons (par défaut) : Donner & Eliasziw sur deux étiquettes, bootstrap-t sur plus ; "
              "tient son niveau sur une trentaine d'items. "
              "Analytique : formule de grand échantillon (κ ± 1,96 × erreur type), instantanée mais "
              "approximative sur quelques dizaines d'items. Bootstrap : les items sont rééchantillonnés "
              "{n_boot} fois et l'on garde les quantiles 2,5 % et 97,5 % de κ.",
        "en": "Small samples (default): Donner & Eliasziw on two labels, bootstrap-t on more; holds its level "
              "on about thirty items. Analytic: large-sample formula (κ ± 1.96 standard errors), instant but rough on a few "
              "dozen items. Bootstrap: the items are resampled {n_boot} times and the 2.5% and 97.5% "
              "quantiles of κ are kept."},

    # ---------------------------------------------------------------- two raters: headline
    "kappa.pair_title": {"fr": "Deux évaluateurs : {a} et {b}", "en": "Two raters: {a} and {b}"},
    "kappa.metric.agreement": {"fr": "Accord brut", "en": "Percent agreement"},
    "kappa.metric.agreement_help": {
        "fr": "Part des items où les deux évaluateurs donnent exactement la même étiquette.",
        "en": "Share of items on which both raters give exactly the same label."},
    "kappa.metric.p_o": {"fr": "p_o, accord observé", "en": "p_o, observed agreement"},
    "kappa.metric.p_o_weighted": {"fr": "p_o pondéré", "en": "Weighted p_o"},
    "kappa.metric.p_o_help": {
        "fr": "L'accord brut exprimé en proportion ; avec une pondération, les quasi-accords comptent "
              "en partie.",
        "en": "Percent agreement as a proportion; with weighting, near misses count in part."},
    "kappa.metric.p_e": {"fr": "p_e, accord dû au hasard", "en": "p_e, chance agreement"},
    "kappa.metric.p_e_weighted": {"fr": "p_e pondéré", "en": "Weighted p_e"},
    "kappa.metric.p_e_help": {
        "fr": "L'accord qu'atteindraient deux évaluateurs indépendants employant chaque étiquette aussi "
              "souvent que ceux-ci : somme, sur les étiquettes, du produit de leurs parts.",
        "en": "The agreement two independent raters would reach if they used each label as often as "
              "these two: the sum over labels of the product of their shares."},
    "kappa.metric.kappa_plain": {"fr": "κ de Cohen", "en": "Cohen's κ"},
    "kappa.metric.kappa_linear": {"fr": "κ pondéré (linéaire)", "en": "Weighted κ (linear)"},
    "kappa.metric.kappa_quadratic": {"fr": "κ pondéré (quadratique)", "en": "Weighted κ (quadratic)"},
    "kappa.metric.kappa_help": {
        "fr": "κ = (p_o − p_e) / (1 − p_e) : la part de l'accord possible au-delà du hasard qui est "
              "réellement atteinte. 1 = accord parfait, 0 = ce que donne le hasard, négatif = pire que "
              "le hasard.",
        "en": "κ = (p_o − p_e) / (1 − p_e): the share of the agreement possible beyond chance that is "
              "actually reached. 1 = perfect agreement, 0 = what chance gives, negative = worse than "
              "chance."},
    "kappa.metric.ci_analytic": {"fr": "IC à 95 % (analytique)", "en": "95% CI (analytic)"},
    "kappa.metric.ci_analytic_help": {
        "fr": "Intervalle de confiance à 95 % : κ ± 1,96 × erreur type de grand échantillon.",
        "en": "95% confidence interval: κ ± 1.96 × large-sample standard error."},
    "kappa.metric.ci_bootstrap": {"fr": "IC à 95 % (bootstrap)", "en": "95% CI (bootstrap)"},
    "kappa.metric.ci_bootstrap_help": {
        "fr": "Intervalle de confiance à 95 % : quantiles 2,5 % et 97,5 % du coefficient sur des "
              "rééchantillonnages des items.",
        "en": "95% confidence interval: the 2.5% and 97.5% quantiles of the coefficient over resamples "
              "of the items."},
    # An interval never breaks across lines: no-break spaces on both sides of the separator.
    "kappa.ci_analytic_caption": {
        "fr": "Intervalle analytique : κ ± 1,96 × erreur type de grand échantillon (ici {se}, formule "
              "de Fleiss, Cohen & Everitt 1969), borné à [−1 ; 1].",
        "en": "Analytic interval: κ ± 1.96 × large-sample standard error (here {se}, formula of "
              "Fleiss, Cohen & Everitt 1969), clipped to [−1, 1]."},
    # Chosen by the number of items (LARGE_SAMPLE_ITEMS in pages/kappa.py).
    "kappa.ci_size.small": {
        "fr": "Sur {n} items seulement, cette approximation est grossière : préférez l'intervalle pour "
              "petits échantillons, le choix par défaut.",
        "en": "On only {n} items this approximation is rough: prefer the small-samples interval, the default."},
    "kappa.ci_size.large": {
        "fr": "Sur {n} items, l'approximation de grand échantillon est en général fiable.",
        "en": "On {n} items the large-sample approximation is usually reliable."},
    "kappa.dropped": {
        "fr": "Items écartés faute d'une des deux notes : {dropped}. Les calculs portent sur {n} items.",
        "en": "Items left out for lack of one of the two ratings: {dropped}. The figures use {n} items."},
    "kappa.degenerate.both_constant": {
        "fr": "κ n'est pas défini : les deux évaluateurs ont donné « {label} » à tous les items. "
              "L'accord dû au hasard vaut alors p_e = 1, et (p_o − p_e) / (1 − p_e) divise par zéro. "
              "L'accord observé est de {agreement_share}, mais ces données ne disent pas si les évaluateurs "
              "sauraient distinguer des items : ajoutez des items dont le verdict attendu diffère.",
        "en": "κ is undefined: both raters gave “{label}” to every item. Chance agreement is then "
              "p_e = 1, and (p_o − p_e) / (1 − p_e) divides by zero. Observed agreement is "
              "{agreement_share}, but these data cannot show whether the raters would tell items apart: add "
              "items whose expected verdict differs."},
    "kappa.degenerate.constant_rater": {
        "fr": "κ = 0 par construction : {rater} a donné « {label} » à tous les items. L'accord dû au "
              "hasard est alors égal à l'accord observé (p_e = p_o = {p}), quoi que fasse {other}. "
              "L'accord brut ({agreement_share}) mesure seulement la fréquence à laquelle {other} dit aussi "
              "« {label} » ; {rater} ne distingue aucun item d'un autre et n'apporte donc aucune "
              "information. Pas d'intervalle de confiance : κ vaut 0 pour tout tableau où un évaluateur "
              "est constant.",
        "en": "κ = 0 by construction: {rater} gave “{label}” to every item. Chance agreement then "
              "equals observed agreement (p_e = p_o = {p}), whatever {other} does. Percent agreement "
              "({agreement_share}) only measures how often {other} also says “{label}”; {rater} tells no item "
              "from another and so carries no information. No confidence interval: κ is 0 for every "
              "table in which one rater is constant."},
    "kappa.degenerate.both_constant_apart": {
        "fr": "κ = 0 par construction : {a} a donné « {label_a} » à tous les items et {b} « {label_b} » "
              "à tous. Avec deux évaluateurs constants, l'accord observé est exactement celui du hasard "
              "(p_o = p_e) : ces données ne disent rien de la grille.",
        "en": "κ = 0 by construction: {a} gave “{label_a}” to every item and {b} gave “{label_b}” to "
              "every item. With two constant raters, observed agreement is exactly chance agreement "
              "(p_o = p_e): these data say nothing about the rubric."},

    # ---------------------------------------------------------------- figures
    "kappa.quoted": {"fr": "« {label} »", "en": "“{label}”"},
    "kappa.computing": {"fr": "Calcul en cours…", "en": "Computing…"},
    "kappa.n_items.one": {"fr": "{n} item", "en": "{n} item"},
    "kappa.n_items.other": {"fr": "{n} items", "en": "{n} items"},
    "kappa.separator.comma": {"fr": "virgule", "en": "comma"},
    "kappa.separator.semicolon": {"fr": "point-virgule", "en": "semicolon"},
    "kappa.separator.tab": {"fr": "tabulation", "en": "tab"},

    # ---------------------------------------------------------------- intervals: what they can say
    "kappa.ci_bootstrap_caption": {
        "fr": "Intervalle bootstrap percentile : {n_boot} rééchantillonnages des {n} items (graine {seed}).",
        "en": "Percentile bootstrap interval: {n_boot} resamples of the {n} items (seed {seed})."},
    "kappa.bootstrap_over_items": {"fr": "Intervalle : bootstrap percentile sur les items.",
                                   "en": "Interval: percentile bootstrap over items."},
    "kappa.ci_flag.usable": {"fr": "Tirages utilisables : {n_valid} sur {n_boot}.",
                             "en": "Usable resamples: {n_valid} of {n_boot}."},
    "kappa.ci_flag.many_undefined": {
        "fr": "**Attention** : le coefficient n'est pas défini dans {n_undefined} tirages sur {n_boot} "
              "({undefined_share}), ceux où une seule étiquette apparaît ; l'intervalle ne décrit que les "
              "autres et sous-estime l'incertitude.",
        "en": "**Caution**: the coefficient is undefined in {n_undefined} of {n_boot} resamples "
              "({undefined_share}), those in which a single label occurs; the interval describes only the "
              "others and understates the uncertainty."},
    "kappa.ci_flag.on_bound": {
        "fr": "**Attention** : l'estimation ({estimate}) est sur une borne de l'intervalle, ou hors de "
              "lui : la distribution des tirages est très dissymétrique (beaucoup de tirages donnent "
              "exactement la même valeur), et l'intervalle percentile est alors peu fiable.",
        "en": "**Caution**: the estimate ({estimate}) sits on a bound of the interval, or outside it: the "
              "resampled values are very lopsided (many resamples give exactly the same value), and the "
              "percentile interval is then unreliable."},
    "kappa.ci.zero_width_analytic": {
        "fr": "L'intervalle analytique {ci} a une largeur nulle : ce n'est pas une certitude, mais la "
              "formule de grand échantillon qui donne une erreur type nulle quand tous les items sont en "
              "accord (ou tous en désaccord). Sur {n} items, cet intervalle ne dit rien.",
        "en": "The analytic interval {ci} has zero width: this is not certainty but the large-sample "
              "formula, whose standard error is zero when every item agrees (or every item disagrees). On "
              "{n} items this interval says nothing."},
    "kappa.ci.zero_width_resamples": {
        "fr": "L'intervalle bootstrap {ci} a une largeur nulle : tous les tirages utilisables donnent la "
              "même valeur, parce que {n} items ne laissent presque aucune variation possible. Cet "
              "intervalle ne dit rien ; notez davantage d'items.",
        "en": "The bootstrap interval {ci} has zero width: every usable resample gives the same value, "
              "because {n} items leave almost no room to vary. This interval says nothing; rate more "
              "items."},
    "kappa.ci.undefined": {"fr": "Pas d'intervalle : le coefficient n'est défini dans presque aucun tirage.",
                           "en": "No interval: the coefficient is defined in almost no resample."},
    "kappa.ci_exact": {
        "fr": "Intervalle exact (Clopper-Pearson sur l'accord des {n} items, marges observées) : κ dans {ci}.",
        "en": "Exact interval (Clopper-Pearson on the agreement of the {n} items, observed marginals): κ "
              "in {ci}."},

    # ---------------------------------------------------------------- alpha beside kappa
    "kappa.alpha_vs_kappa.small_sample": {
        "fr": "Pourquoi α ({alpha}) diffère de κ ({kappa}) : α corrige pour la petite taille de "
              "l'échantillon. Son désaccord attendu compte les paires parmi les {n_values} notes sans "
              "remise, d'où α = π + (1 − π)/(2n) avec π de Scott = {pi} ; l'écart fond quand n grandit.",
        "en": "Why α ({alpha}) differs from κ ({kappa}): α corrects for the small sample. Its expected "
              "disagreement counts pairs among the {n_values} ratings without replacement, hence "
              "α = π + (1 − π)/(2n) with Scott's π = {pi}; the gap vanishes as n grows."},
    "kappa.alpha_vs_kappa.marginals": {
        "fr": "Pourquoi κ ({kappa}) diffère de α ({alpha}) : le hasard de κ emploie les parts propres à "
              "chaque évaluateur, celui de α (comme le π de Scott, {pi}) les parts mises en commun ; "
              "l'écart mesure combien les deux évaluateurs emploient différemment les étiquettes.",
        "en": "Why κ ({kappa}) differs from α ({alpha}): κ's chance term uses each rater's own shares, "
              "α's (like Scott's π, {pi}) the pooled shares; the gap shows how differently the two raters "
              "use the labels."},
    "kappa.alpha_vs_kappa.both": {
        "fr": "Pourquoi α ({alpha}) diffère de κ ({kappa}) : deux effets. Le hasard de α emploie les parts "
              "mises en commun des deux évaluateurs (comme le π de Scott, {pi}), celui de κ les parts "
              "propres à chacun ; et α corrige pour la petite taille de l'échantillon ({n_values} notes).",
        "en": "Why α ({alpha}) differs from κ ({kappa}): two effects. α's chance term uses the two raters' "
              "pooled shares (like Scott's π, {pi}), κ's each rater's own shares; and α corrects for the "
              "small sample ({n_values} ratings)."},
    "kappa.chance.chance_tie": {
        "fr": "Avec ces marges, le hasard seul donnerait déjà **p_e = {p_e}** d'accord. Le kappa ne "
              "compte que ce qui dépasse ce niveau : ({p_o} − {p_e}) / (1 − {p_e}) = **{kappa}**.",
        "en": "With these marginals, chance alone would already give **p_e = {p_e}** agreement. Kappa "
              "only counts what goes beyond that level: ({p_o} − {p_e}) / (1 − {p_e}) = **{kappa}**."},
    "kappa.prevalence.high_fail": {
        "fr": "**Prévalence élevée ({index})** : les évaluateurs s'accordent surtout sur « {label} », le "
              "verdict d'échec (tous deux l'ont donné sur {both_share} des items). Quand une étiquette "
              "domine, p_e approche 1 et un accord brut élevé peut aller avec un κ faible : c'est le "
              "paradoxe du kappa (Feinstein & Cicchetti 1990). Ici, une grille presque jamais satisfaite.",
        "en": "**High prevalence ({index})**: the raters mostly agree on “{label}”, the fail verdict (both "
              "gave it on {both_share} of the items). When one label dominates, p_e approaches 1 and high "
              "percent agreement can go with a low κ: the kappa paradox (Feinstein & Cicchetti 1990). Here, "
              "a rubric that is almost never met."},
    "kappa.prevalence.high": {
        "fr": "**Prévalence élevée ({index})** : les évaluateurs s'accordent surtout sur « {label} » (tous "
              "deux l'ont donné sur {both_share} des items). Quand une étiquette domine, p_e approche 1 et "
              "un accord brut élevé peut aller avec un κ faible : c'est le paradoxe du kappa (Feinstein & "
              "Cicchetti 1990). Les items ne mettent guère les évaluateurs à l'épreuve sur l'autre étiquette.",
        "en": "**High prevalence ({index})**: the raters mostly agree on “{label}” (both gave it on "
              "{both_share} of the items). When one label dominates, p_e approaches 1 and high percent "
              "agreement can go with a low κ: the kappa paradox (Feinstein & Cicchetti 1990). The items "
              "hardly test the raters on the other label."},
    "kappa.prevalence.tie": {
        "fr": "**Prévalence nulle ({index})** : les évaluateurs s'accordent aussi souvent sur chacune des "
              "deux étiquettes ; la prévalence ne tire pas κ vers le bas.",
        "en": "**Zero prevalence ({index})**: the raters agree equally often on each of the two labels; "
              "prevalence does not drag κ down."},
    "kappa.bias.low_counts": {
        "fr": "**Biais faible ({index})** : {a} et {b} emploient les étiquettes presque aussi souvent "
              "l'un que l'autre ({a_count} contre {b_count} pour « {label} »).",
        "en": "**Low bias ({index})**: {a} and {b} use the labels about equally often ({a_count} against "
              "{b_count} for “{label}”)."},

    "kappa.heatmap_title": {"fr": "Tableau de contingence (diagonale = accords)",
                            "en": "Contingency table (diagonal = agreements)"},
    "kappa.heatmap_hover": {"fr": "{a} : %{{customdata[0]}}<br>{b} : %{{customdata[1]}}<br>items : %{{text}}",
                            "en": "{a}: %{{customdata[0]}}<br>{b}: %{{customdata[1]}}<br>items: %{{text}}"},
    "kappa.marginals_title": {"fr": "Marges : part des items par étiquette",
                              "en": "Marginals: share of items per label"},
    "kappa.label": {"fr": "Étiquette", "en": "Label"},

    # ---------------------------------------------------------------- reading
    "kappa.reading_title": {"fr": "Lecture", "en": "Reading the value"},
    "kappa.reading_value": {
        "fr": "**κ = {kappa}** : accord « {landis_koch} » selon Landis & Koch (1977), « {fleiss} » "
              "selon Fleiss (1981).",
        "en": "**κ = {kappa}**: “{landis_koch}” agreement on the Landis & Koch (1977) scale, "
              "“{fleiss}” on Fleiss' (1981)."},
    "kappa.ci.bands": {
        "fr": "L'intervalle à 95 % {ci} s'étend de « {low_band} » à « {high_band} » sur l'échelle de Landis & "
              "Koch : avec {n} items, les données ne permettent pas de choisir une bande.",
        "en": "The 95% interval {ci} runs from “{low_band}” to “{high_band}” on the Landis & Koch scale: with "
              "{n} items, the data cannot pick a band."},
    "kappa.ci.one_band": {
        "fr": "L'intervalle à 95 % {ci} reste dans la bande « {band} » de Landis & Koch.",
        "en": "The 95% interval {ci} stays within the Landis & Koch band “{band}”."},
    "kappa.reading_caveat": {
        "fr": "Ces bandes sont des repères, que Landis & Koch qualifiaient eux-mêmes d'arbitraires, pas "
              "des seuils statistiques ; elles ignorent le nombre de catégories et la prévalence, qui "
              "font varier κ (voir plus bas). Nommez l'échelle employée et donnez toujours l'accord "
              "brut à côté de κ.",
        "en": "These bands are benchmarks, which Landis & Koch themselves called arbitrary, not "
              "statistical thresholds; they ignore the number of categories and the prevalence, both of "
              "which move κ (see below). Name the scale you use and always give percent agreement "
              "beside κ."},
    "kappa.band.landis_koch.poor": {"fr": "pire que le hasard", "en": "poor"},
    "kappa.band.landis_koch.slight": {"fr": "très faible", "en": "slight"},
    "kappa.band.landis_koch.fair": {"fr": "faible", "en": "fair"},
    "kappa.band.landis_koch.moderate": {"fr": "modéré", "en": "moderate"},
    "kappa.band.landis_koch.substantial": {"fr": "fort", "en": "substantial"},
    "kappa.band.landis_koch.almost_perfect": {"fr": "presque parfait", "en": "almost perfect"},
    "kappa.band.fleiss.poor": {"fr": "médiocre", "en": "poor"},
    "kappa.band.fleiss.fair_to_good": {"fr": "passable à bon", "en": "fair to good"},
    "kappa.band.fleiss.excellent": {"fr": "excellent", "en": "excellent"},
    "kappa.band.krippendorff.discard": {"fr": "insuffisant, données à écarter", "en": "too low, discard the data"},
    "kappa.band.krippendorff.tentative": {"fr": "conclusions provisoires seulement",
                                          "en": "tentative conclusions only"},
    "kappa.band.krippendorff.reliable": {"fr": "fiable", "en": "reliable"},

    # ---------------------------------------------------------------- paradox
    "kappa.paradox_title": {"fr": "Pourquoi l'accord brut trompe : prévalence et biais",
                            "en": "Why percent agreement misleads: prevalence and bias"},
    "kappa.metric.scott_pi": {"fr": "π de Scott", "en": "Scott's π"},
    "kappa.metric.scott_pi_help": {
        "fr": "Comme κ, mais le hasard se calcule avec les parts mises en commun des deux évaluateurs "
              "(Scott 1955).",
        "en": "Like κ, but chance is computed from the two raters' pooled shares (Scott 1955)."},
    "kappa.metric.pabak_help": {
        "fr": "Kappa ajusté pour la prévalence et le biais : le hasard est fixé à 1/k pour k étiquettes, "
              "soit (k·p_o − 1)/(k − 1) (Byrt, Bishop & Carlin 1993). Ce n'est qu'un changement "
              "d'échelle de l'accord brut.",
        "en": "Prevalence- and bias-adjusted kappa: chance is fixed at 1/k for k labels, i.e. "
              "(k·p_o − 1)/(k − 1) (Byrt, Bishop & Carlin 1993). It is only percent agreement on "
              "another scale."},
    "kappa.metric.ac1": {"fr": "AC1 de Gwet", "en": "Gwet's AC1"},
    "kappa.metric.ac1_help": {
        "fr": "Coefficient de Gwet (2008) : son modèle du hasard donne un p_e faible quand une étiquette "
              "domine, si bien qu'il reste élevé là où κ s'effondre.",
        "en": "Gwet's (2008) coefficient: its chance model gives a low p_e when one label dominates, "
              "so it stays high where κ collapses."},
    "kappa.metric.alpha_nominal": {"fr": "α de Krippendorff (nominal)", "en": "Krippendorff's α (nominal)"},
    "kappa.metric.alpha_help": {
        "fr": "1 − désaccord observé / désaccord attendu par hasard, sur toutes les paires de notes "
              "d'un même item ; accepte les notes manquantes et plus de deux évaluateurs "
              "(Krippendorff 2011).",
        "en": "1 − observed disagreement / disagreement expected by chance, over all pairs of ratings "
              "of the same item; accepts missing ratings and more than two raters (Krippendorff 2011)."},
    "kappa.chance.chance": {
        "fr": "Avec ces marges, le hasard seul donnerait déjà **p_e = {p_e}** d'accord : {a} met "
              "« {label} » sur {a_share} des items, {b} sur {b_share}. Le kappa ne compte que ce qui "
              "dépasse ce niveau : ({p_o} − {p_e}) / (1 − {p_e}) = **{kappa}**.",
        "en": "With these marginals, chance alone would already give **p_e = {p_e}** agreement: {a} "
              "puts “{label}” on {a_share} of the items, {b} on {b_share}. Kappa only counts what goes "
              "beyond that level: ({p_o} − {p_e}) / (1 − {p_e}) = **{kappa}**."},
    "kappa.metric.prevalence": {"fr": "Indice de prévalence", "en": "Prevalence index"},
    "kappa.metric.prevalence_help": {
        "fr": "|p₁₁ − p₀₀| : écart entre la part des items où les deux donnent la seconde étiquette et "
              "celle où les deux donnent la première (Byrt, Bishop & Carlin 1993). Proche de 1 : une "
              "étiquette domine.",
        "en": "|p₁₁ − p₀₀|: the gap between the share of items where both give the second label and the "
              "share where both give the first (Byrt, Bishop & Carlin 1993). Near 1: one label "
              "dominates."},
    "kappa.metric.bias": {"fr": "Indice de biais", "en": "Bias index"},
    "kappa.metric.bias_help": {
        "fr": "|p₁₀ − p₀₁| : à quel point les deux évaluateurs emploient différemment les étiquettes. "
              "0 : chacun emploie chaque étiquette aussi souvent que l'autre.",
        "en": "|p₁₀ − p₀₁|: how differently the two raters use the labels. 0: each label is used "
              "equally often by both."},
    "kappa.prevalence.high_pass": {
        "fr": "**Prévalence élevée ({index})** : les évaluateurs s'accordent surtout sur « {label} », "
              "le verdict de réussite (tous deux l'ont donné sur {both_share} des items). Quand une étiquette domine, p_e approche 1 "
              "et il ne reste presque rien au-delà du hasard : un accord brut élevé peut aller avec un κ "
              "faible, voire nul. C'est le paradoxe du kappa (Feinstein & Cicchetti 1990). Il signale "
              "une grille presque toujours satisfaite, qui ne met pas les évaluateurs à l'épreuve.",
        "en": "**High prevalence ({index})**: the raters mostly agree on “{label}”, the pass verdict (both "
              "gave it on {both_share} of the items). When one label dominates, p_e approaches 1 and little is left "
              "beyond chance: high percent agreement can go with a low or even zero κ. This is the "
              "kappa paradox (Feinstein & Cicchetti 1990). It points to a rubric that is nearly always "
              "met and so never puts the raters to the test."},
    "kappa.prevalence.low": {
        "fr": "**Prévalence modérée ({index})** : aucune étiquette n'écrase l'autre (« {label} » donnée "
              "par les deux sur {both_share} des items) ; la prévalence ne tire pas κ vers le bas.",
        "en": "**Moderate prevalence ({index})**: neither label swamps the other (“{label}” given by "
              "both on {both_share} of the items); prevalence does not drag κ down."},
    "kappa.bias.high": {
        "fr": "**Biais marqué ({index})** : {a} donne « {label} » sur {a_share} des items, {b} sur "
              "{b_share}. L'un des deux est plus sévère ; leurs désaccords vont surtout dans un sens, "
              "signe d'un critère que chacun lit à sa façon. À prévalence égale, un biais fait "
              "paradoxalement monter κ.",
        "en": "**Marked bias ({index})**: {a} gives “{label}” on {a_share} of the items, {b} on "
              "{b_share}. One is stricter than the other; their disagreements mostly go one way, a sign "
              "of a criterion each reads in their own way. For a given prevalence, bias paradoxically "
              "raises κ."},
    "kappa.bias.none": {
        "fr": "**Aucun biais ({index})** : {a} et {b} donnent « {label} » exactement aussi souvent l'un "
              "que l'autre ({a_share} des items chacun).",
        "en": "**No bias ({index})**: {a} and {b} give “{label}” exactly as often as each other "
              "({a_share} of the items each)."},
    "kappa.bias.low": {
        "fr": "**Biais faible ({index})** : {a} et {b} emploient les étiquettes presque aussi souvent "
              "l'un que l'autre ({a_share} contre {b_share} pour « {label} »).",
        "en": "**Low bias ({index})**: {a} and {b} use the labels about equally often ({a_share} against "
              "{b_share} for “{label}”)."},
    "kappa.paradox_not_binary": {
        "fr": "Les indices de prévalence et de biais sont définis pour deux étiquettes ; ces notes en "
              "comptent {k}.",
        "en": "The prevalence and bias indices are defined for two labels; these ratings have {k}."},
    "kappa.paradox_alternatives": {
        "fr": "À côté de κ = {kappa} : **PABAK = {pabak}** fixe le hasard à 1/{k}, ce qui revient à "
              "redire l'accord brut ({agreement}) sur une autre échelle ; **AC1 = {ac1}** emploie un "
              "modèle du hasard que la prévalence ne gonfle pas. Donnez-les à côté de κ, pas à sa "
              "place : κ répond à « font-ils mieux que le hasard, avec ces marges ? », eux à « à quel "
              "point sont-ils d'accord ? ».",
        "en": "Beside κ = {kappa}: **PABAK = {pabak}** fixes chance at 1/{k}, which restates percent "
              "agreement ({agreement}) on another scale; **AC1 = {ac1}** uses a chance model that "
              "prevalence does not inflate. Report them beside κ, not instead of it: κ answers “do they "
              "beat chance, given these marginals?”, they answer “how much do they agree?”."},

    # ---------------------------------------------------------------- weighted kappa
    "kappa.weighted_title": {"fr": "Notes ordonnées : kappa pondéré", "en": "Ordered scores: weighted kappa"},
    "kappa.weighted_ci": {"fr": "IC à 95 % (analytique) : {ci}", "en": "95% CI (analytic): {ci}"},
    "kappa.weighted.weighted_credit": {
        "fr": "Les notes observées vont de {low} à {high}. Deux notes distantes de {step} reçoivent un "
              "crédit de {linear} en pondération linéaire et de {quadratic} en quadratique (1 pour un "
              "accord exact, 0 entre les deux extrêmes). Plus les désaccords sont petits, plus les "
              "versions pondérées s'éloignent du κ non pondéré : choisissez selon ce que coûte un écart "
              "dans votre usage, et dites lequel vous rapportez.",
        "en": "The observed scores run from {low} to {high}. Two scores {step} apart earn a credit of "
              "{linear} with linear weights and {quadratic} with quadratic ones (1 for an exact match, "
              "0 between the two extremes). The smaller the disagreements, the further the weighted "
              "versions move from the unweighted κ: choose by what a gap costs in your use, and say "
              "which one you report."},
    "kappa.weighted_values_not_ranks": {
        "fr": "Les poids suivent les valeurs des notes (écart ÷ étendue). scikit-learn et statsmodels "
              "pondèrent par le rang des notes présentes : les deux coïncident quand chaque note entre "
              "le minimum et le maximum est employée, pas sinon.",
        "en": "The weights follow the score values (gap ÷ range). scikit-learn and statsmodels weight by "
              "the rank of the scores present: the two agree when every score between the minimum and "
              "the maximum is used, not otherwise."},

    # ---------------------------------------------------------------- sample size
    "kappa.items_title": {"fr": "Combien d'items faut-il ?", "en": "How many items are needed?"},
    "kappa.metric.items_needed": {"fr": "Items pour un IC à ±{half}", "en": "Items for a ±{half} CI"},
    "kappa.size.needed": {
        "fr": "Aujourd'hui : {n} items, demi-largeur de l'intervalle analytique ±{half_now}. Si les "
              "évaluateurs gardent les mêmes proportions, la demi-largeur décroît comme 1/√n : il faut "
              "environ **{needed} items** pour ±{half}. Approximation tirée de l'erreur type de grand "
              "échantillon de ce pilote ; lisez-la comme un ordre de grandeur.",
        "en": "Today: {n} items, analytic interval half-width ±{half_now}. If the raters keep the same "
              "proportions, the half-width shrinks as 1/√n: about **{needed} items** are needed for "
              "±{half}. An approximation from this pilot's large-sample standard error; read it as an "
              "order of magnitude."},
    "kappa.size.enough_large": {
        "fr": "Aujourd'hui : {n} items, demi-largeur de l'intervalle analytique ±{half_now}, déjà sous "
              "±{half} (la formule dirait {needed} items). Avec autant d'items, l'approximation de grand "
              "échantillon est en général fiable.",
        "en": "Today: {n} items, analytic interval half-width ±{half_now}, already below ±{half} (the "
              "formula would say {needed} items). With this many items the large-sample approximation is "
              "usually reliable."},
    "kappa.size.enough_small": {
        "fr": "Aujourd'hui : {n} items, demi-largeur de l'intervalle analytique ±{half_now}, déjà sous "
              "±{half} (la formule dirait {needed} items). Avec si peu d'items, l'approximation de grand "
              "échantillon est fragile : vérifiez avec l'intervalle bootstrap.",
        "en": "Today: {n} items, analytic interval half-width ±{half_now}, already below ±{half} (the "
              "formula would say {needed} items). With so few items the large-sample approximation is "
              "fragile: check with the bootstrap interval."},
    "kappa.size.none_constant": {
        "fr": "Impossible de planifier à partir de ces données : un évaluateur est constant, κ vaut 0 "
              "quels que soient les items et son erreur type est nulle. Notez d'abord une dizaine d'items "
              "dont les verdicts attendus varient.",
        "en": "No planning is possible from these data: one rater is constant, so κ is 0 whatever the "
              "items and its standard error is zero. First rate a dozen items whose expected verdicts "
              "vary."},
    "kappa.size.none_perfect": {
        "fr": "Impossible de planifier à partir de ces données : les {n} items sont tous en accord, "
              "l'erreur type de grand échantillon est nulle et la formule n'a aucune variance à "
              "extrapoler. Ce n'est pas une précision parfaite : sur {n} items, un accord parfait reste "
              "compatible avec un κ bien plus bas (voir la borne exacte plus haut).",
        "en": "No planning is possible from these data: all {n} items agree, so the large-sample standard "
              "error is zero and the formula has no variance to scale up. This is not perfect precision: "
              "on {n} items, perfect agreement is compatible with a much lower κ (see the exact bound "
              "above)."},
    "kappa.size.none_opposite": {
        "fr": "Impossible de planifier à partir de ces données : les {n} items sont tous en désaccord, "
              "l'erreur type de grand échantillon est nulle et la formule n'a aucune variance à "
              "extrapoler. Sur si peu d'items, ce désaccord complet peut être un hasard (voir la borne "
              "exacte plus haut).",
        "en": "No planning is possible from these data: all {n} items disagree, so the large-sample "
              "standard error is zero and the formula has no variance to scale up. On so few items this "
              "complete disagreement may be chance (see the exact bound above)."},
    "kappa.size.none_zero_se": {
        "fr": "Impossible de planifier à partir de ces données : l'erreur type est nulle (accord parfait "
              "ou évaluateur constant), la formule n'a aucune variance à extrapoler. Notez d'abord une "
              "dizaine d'items dont les verdicts attendus varient.",
        "en": "No planning is possible from these data: the standard error is zero (perfect agreement or "
              "a constant rater), so the formula has no variance to scale up. First rate a dozen items "
              "whose expected verdicts vary."},

    # ---------------------------------------------------------------- several raters
    "kappa.multi_title": {"fr": "{m} évaluateurs : Fleiss et Krippendorff",
                          "en": "{m} raters: Fleiss and Krippendorff"},
    "kappa.multi_title_two": {"fr": "Fleiss et Krippendorff sur les deux évaluateurs",
                              "en": "Fleiss and Krippendorff on the two raters"},
    "kappa.multi_two_raters": {
        "fr": "Avec deux évaluateurs, le κ de Fleiss est égal au π de Scott. Chargez un CSV de trois "
              "colonnes ou plus pour comparer davantage d'évaluateurs.",
        "en": "With two raters, Fleiss' κ equals Scott's π. Load a CSV with three or more columns to "
              "compare more raters."},
    "kappa.level": {"fr": "Niveau de mesure pour α", "en": "Level of measurement for α"},
    "kappa.level.nominal": {"fr": "nominal", "en": "nominal"},
    "kappa.level.ordinal": {"fr": "ordinal", "en": "ordinal"},
    "kappa.level.interval": {"fr": "intervalle", "en": "interval"},
    "kappa.level_help": {
        "fr": "Nominal : seules les notes identiques s'accordent. Ordinal : un écart compte selon le "
              "nombre de notes observées entre les deux valeurs. Intervalle : un écart compte selon la "
              "différence des valeurs, au carré. Ordinal et intervalle exigent des nombres.",
        "en": "Nominal: only identical ratings agree. Ordinal: a gap counts by how many observed "
              "ratings lie between the two values. Interval: a gap counts by the squared difference of "
              "the values. Ordinal and interval need numbers."},
    "kappa.metric.fleiss": {"fr": "κ de Fleiss", "en": "Fleiss' κ"},
    "kappa.metric.fleiss_help": {
        "fr": "Accord moyen entre paires d'évaluateurs sur un item, corrigé du hasard par la part globale "
              "de chaque étiquette (Fleiss 1971). Étiquettes nominales ; seuls les items notés par tous "
              "comptent.",
        "en": "Mean agreement between pairs of raters on an item, corrected for chance with each label's "
              "overall share (Fleiss 1971). Nominal labels; only items rated by everyone count."},
    "kappa.fleiss_caption": {"fr": "{n} items notés par les {m} évaluateurs.",
                             "en": "{n} items rated by all {m} raters."},
    "kappa.fleiss_caption_two": {"fr": "{n} items notés par les deux évaluateurs.",
                                 "en": "{n} items rated by both raters."},
    "kappa.fleiss_dropped": {"fr": "Items écartés pour une note manquante : {dropped}.",
                             "en": "Items left out for a missing rating: {dropped}."},
    "kappa.fleiss.band": {"fr": "κ de Fleiss = {value} : « {band} » selon Landis & Koch (1977).",
                             "en": "Fleiss' κ = {value}: “{band}” on the Landis & Koch (1977) scale."},
    "kappa.metric.alpha": {"fr": "α de Krippendorff ({level})", "en": "Krippendorff's α ({level})"},
    "kappa.alpha_caption": {"fr": "{n} items notés au moins deux fois ({values} notes en tout).",
                            "en": "{n} items rated at least twice ({values} ratings in all)."},
    "kappa.alpha_dropped": {"fr": "Items notés moins de deux fois, qui ne comptent pas : {dropped}.",
                            "en": "Items rated fewer than twice, which do not count: {dropped}."},
    "kappa.alpha.band": {
        "fr": "α = {value} : « {band} » selon Krippendorff (2004), qui demande α ≥ 0,800 pour se fier "
              "aux données et tolère 0,667 pour des conclusions provisoires.",
        "en": "α = {value}: “{band}” by Krippendorff's (2004) standard, which asks for α ≥ 0.800 to rely "
              "on the data and tolerates 0.667 for tentative conclusions."},
    "kappa.fleiss.undefined": {
        "fr": "κ de Fleiss non défini : toutes les notes sont identiques, l'accord dû au hasard vaut 1.",
        "en": "Fleiss' κ is undefined: every rating is the same, so chance agreement is 1."},
    "kappa.alpha.undefined": {
        "fr": "α non défini : toutes les notes comparables ont la même valeur, le désaccord attendu par "
              "hasard est nul.",
        "en": "α is undefined: every comparable rating has the same value, so the disagreement expected "
              "by chance is zero."},

    # ---------------------------------------------------------------- code
    "kappa.code_caption": {
        "fr": "La fonction qui calcule κ sur cette page (evallib/agreement/cohen.py), suivie de ses "
              "auxiliaires : le tableau de contingence (chaque évaluateur est factorisé une fois, seules "
              "les étiquettes distinctes sont lues comme nombres ou comme texte, puis un seul comptage "
              "bincount remplit le tableau), le calcul depuis ce tableau, la formule, puis l'erreur type. "
              "Aucune boucle Python ne parcourt les items : un million de notes se compte en une fraction "
              "de seconde (comparaison avec scikit-learn dans bench/agreement.py).",
        "en": "The function that computes κ on this page (evallib/agreement/cohen.py), followed by its "
              "helpers: the contingency table (each rater is factorised once, only the distinct labels are "
              "read as numbers or text, then a single bincount fills the table), the computation from that "
              "table, the formula, then the standard error. No Python loop runs over the items: a million "
              "ratings are counted in a fraction of a second (compared with scikit-learn in "
              "bench/agreement.py)."},

    # ---------------------------------------------------------------- input problems
    "kappa.error.empty": {"fr": "Saisissez ou collez les étiquettes des deux évaluateurs, ou choisissez un exemple.",
                          "en": "Type or paste the two raters' labels, or pick an example."},
    "kappa.error.lengths_differ": {
        "fr": "Les deux listes n'ont pas la même longueur : {n1} étiquettes pour le premier évaluateur, "
              "{n2} pour le second. Il faut une entrée par item et par évaluateur ; laissez une entrée "
              "vide pour une note manquante.",
        "en": "The two lists differ in length: {n1} labels for the first rater, {n2} for the second. "
              "Each item needs one entry per rater; leave an entry empty for a missing rating."},
    "kappa.error.no_complete_item": {
        "fr": "Aucun des {n_items} items n'a assez de notes pour comparer des évaluateurs.",
        "en": "None of the {n_items} items has enough ratings to compare raters."},
    "kappa.error.single_item": {
        "fr": "Un seul item a assez de notes pour être comparé : l'accord se mesure sur au moins deux "
              "items, et en pratique sur plusieurs dizaines.",
        "en": "Only one item has enough ratings to be compared: agreement needs at least two items, and "
              "in practice several dozen."},
    "kappa.error.non_numeric_weighted": {
        "fr": "Le kappa pondéré compare des écarts entre notes : il faut des nombres. Ces étiquettes "
              "n'en sont pas : {labels}. Choisissez la pondération « aucune », ou notez avec des nombres.",
        "en": "Weighted kappa compares gaps between scores, so it needs numbers. These labels are not "
              "numbers: {labels}. Choose the “none” weighting, or rate with numbers."},
    "kappa.error.non_numeric_level": {
        "fr": "Les niveaux ordinal et intervalle comparent des écarts entre valeurs : il faut des "
              "nombres. Ces étiquettes n'en sont pas : {labels}. Choisissez le niveau nominal.",
        "en": "The ordinal and interval levels compare gaps between values, so they need numbers. These "
              "labels are not numbers: {labels}. Choose the nominal level."},
    "kappa.error.not_finite": {
        "fr": "Calcul impossible : les étiquettes vont de {low} à {high}, des nombres trop éloignés pour "
              "le calcul en virgule flottante (le carré de leur écart dépasse le plus grand nombre "
              "représentable). Divisez toutes les notes par une même constante : les coefficients "
              "d'accord n'en dépendent pas.",
        "en": "Cannot compute: the labels run from {low} to {high}, numbers too far apart for "
              "floating-point arithmetic (the square of their gap exceeds the largest number that can "
              "be represented). Divide every score by the same constant: agreement coefficients do not "
              "depend on it."},
    "kappa.error.too_few_raters": {"fr": "Il faut au moins deux évaluateurs ; il y en a {n_raters}.",
                                   "en": "At least two raters are needed; there are {n_raters}."},
    "kappa.error.ragged": {"fr": "Les lignes n'ont pas toutes le même nombre d'entrées ({widths}).",
                           "en": "The rows do not all have the same number of entries ({widths})."},
    "kappa.error.csv_empty": {"fr": "le fichier est vide.", "en": "the file is empty."},
    "kappa.error.csv_binary": {
        "fr": "ce n'est pas un fichier texte (il contient des octets nuls) : sans doute un classeur. "
              "Exportez-le en « CSV UTF-8 ».",
        "en": "this is not a text file (it contains NUL bytes): probably a spreadsheet. Export it as "
              "“CSV UTF-8”."},
    "kappa.error.csv_encoding": {
        "fr": "le fichier n'est pas en UTF-8 (premier caractère illisible à la ligne {line}). Dans "
              "Excel, enregistrez-le au format « CSV UTF-8 (délimité par des virgules) ».",
        "en": "the file is not UTF-8 (first unreadable character on line {line}). In Excel, save it as "
              "“CSV UTF-8 (Comma delimited)”."},
    "kappa.error.csv_one_column": {
        "fr": "une seule colonne trouvée. Il faut une colonne par évaluateur (au moins deux), séparées "
              "par des virgules, des points-virgules ou des tabulations.",
        "en": "only one column was found. The file needs one column per rater (at least two), separated "
              "by commas, semicolons or tabs."},
    "kappa.error.csv_no_rows": {"fr": "le fichier a une ligne d'en-tête mais aucune note.",
                                "en": "the file has a header row but no ratings."},
    "kappa.error.csv_malformed": {
        "fr": "le fichier n'est pas un CSV valide (ligne {line}) : vérifiez les guillemets.",
        "en": "the file is not valid CSV (line {line}): check the quotes."},
    "kappa.error.csv_field_too_large": {
        "fr": "une case de la ligne {line} est démesurément longue, sans doute un guillemet ouvert et "
              "jamais fermé. Vérifiez les guillemets de cette ligne.",
        "en": "a cell on line {line} is far too long, probably a quote opened and never closed. Check the "
              "quotes on that line."},
    "kappa.error.csv_ambiguous": {
        "fr": "le fichier se lit comme un tableau avec plusieurs séparateurs ({separators}) : impossible "
              "de savoir lequel est le bon. Gardez un seul séparateur, ou mettez entre guillemets les "
              "cases qui contiennent l'autre.",
        "en": "the file reads as a table with several separators ({separators}): there is no telling "
              "which is meant. Keep one separator, or quote the cells that contain the other."},
    "kappa.error.csv_ragged.one": {
        "fr": "la ligne {line} compte {n} case alors que le fichier a {expected} colonnes. Pour une "
              "note manquante, laissez la case vide mais gardez son séparateur (par exemple « 1,,0 »).",
        "en": "line {line} has {n} cell but the file has {expected} columns. For a missing rating, "
              "leave the cell empty but keep its separator (for example “1,,0”)."},
    "kappa.error.csv_ragged.other": {
        "fr": "la ligne {line} compte {n} cases alors que le fichier a {expected} colonnes. Pour une "
              "note manquante, laissez la case vide mais gardez son séparateur (par exemple « 1,,0 »).",
        "en": "line {line} has {n} cells but the file has {expected} columns. For a missing rating, "
              "leave the cell empty but keep its separator (for example “1,,0”)."},
    "kappa.size.none_opposite_many": {
        "fr": "Impossible de planifier à partir de ces données : les {n} items sont tous en désaccord, "
              "l'erreur type de grand échantillon est nulle et la formule n'a aucune variance à "
              "extrapoler. Sur {n} items, un désaccord complet n'est pas un hasard : les deux évaluateurs "
              "inversent systématiquement leurs étiquettes.",
        "en": "No planning is possible from these data: all {n} items disagree, so the large-sample "
              "standard error is zero and the formula has no variance to scale up. On {n} items, complete "
              "disagreement is no accident: the two raters systematically swap their labels."},
    # ------------------------------------------------------- small-sample interval (docs/kappa.md#small-sample)
    "kappa.ci_method.small_sample": {"fr": "petits échantillons (par défaut)", "en": "small samples (default)"},
    "kappa.metric.ci_small_sample": {"fr": "IC à 95 % (petits échantillons)", "en": "95% CI (small samples)"},
    "kappa.metric.ci_small_sample_help": {
        "fr": "Intervalle de confiance à 95 % qui tient son niveau sur une trentaine d'items : sur deux "
              "étiquettes, l'intervalle d'ajustement de Donner & Eliasziw (1992) ; sur plus, le bootstrap-t "
              "(bootstrap studentisé) sur les items. Voir bench/coverage.py.",
        "en": "95% confidence interval that holds its level on about thirty items: on two labels, the "
              "goodness-of-fit interval of Donner & Eliasziw (1992); on more, the bootstrap-t (studentised "
              "bootstrap) over items. See bench/coverage.py."},
    "kappa.ci_small.goodness_of_fit": {
        "fr": "Intervalle d'ajustement (Donner & Eliasziw 1992) sur {n} items : les valeurs de κ dont le "
              "modèle à corrélation commune (les deux évaluateurs donnent chaque étiquette aussi souvent) "
              "s'ajuste aux comptes au seuil de 5 % (χ² à 1 degré de liberté). Il est centré sur {centre}, "
              "le π de Scott.",
        "en": "Goodness-of-fit interval (Donner & Eliasziw 1992) on {n} items: the values of κ for which the "
              "common-correlation model (both raters give each label equally often) fits the counts at the "
              "5% level (χ² with 1 degree of freedom). It is centred on {centre}, Scott's π."},
    "kappa.ci_small.goodness_of_fit_pi": {
        "fr": "Les deux évaluateurs n'emploient pas les étiquettes aussi souvent : le centre de l'intervalle "
              "(π = {pi}) diffère de κ = {kappa}, et le modèle ne tient qu'approximativement.",
        "en": "The two raters do not use the labels equally often: the interval's centre (π = {pi}) differs "
              "from κ = {kappa}, and the model holds only approximately."},
    "kappa.ci_small.studentised_bootstrap": {
        "fr": "Intervalle bootstrap-t sur {n} items : l'écart κ* − κ de chaque rééchantillonnage est divisé "
              "par son erreur type, et ce sont les quantiles de ce rapport qui donnent les bornes "
              "(Efron & Tibshirani 1993, ch. 12). Tirages utilisables : {n_valid} sur {n_boot}.",
        "en": "Bootstrap-t interval on {n} items: each resample's gap κ* − κ is divided by its standard "
              "error, and the quantiles of that ratio give the bounds (Efron & Tibshirani 1993, ch. 12). "
              "Usable resamples: {n_valid} of {n_boot}."},
    "kappa.ci_small.constant_rater_pooled": {
        "fr": "L'intervalle d'ajustement de Donner & Eliasziw, qui regroupe les étiquettes des deux "
              "évaluateurs (π de Scott = {pi}), donne tout de même {ci} : un évaluateur constant peut "
              "venir du hasard quand une étiquette domine.",
        "en": "The goodness-of-fit interval of Donner & Eliasziw, which pools both raters' labels (Scott's "
              "π = {pi}), still gives {ci}: a constant rater can come from chance when one label dominates."},
    "kappa.case.case_variants": {
        "fr": "Des étiquettes ne diffèrent que par la casse : {labels}. Elles comptent comme {k} catégories "
              "au lieu de {k_folded}, et chaque écart de majuscule compte comme un désaccord : κ = {kappa} "
              "ainsi, {kappa_folded} une fois fusionnées.",
        "en": "Some labels differ only by case: {labels}. They count as {k} categories instead of {k_folded}, "
              "and each difference of capitals counts as a disagreement: κ = {kappa} as they are, "
              "{kappa_folded} once merged."},
    "kappa.case.case_variants_undefined": {
        "fr": "Des étiquettes ne diffèrent que par la casse : {labels}. Elles comptent comme {k} catégories "
              "au lieu de {k_folded}.",
        "en": "Some labels differ only by case: {labels}. They count as {k} categories instead of {k_folded}."},
    "kappa.case_fold": {"fr": "Fusionner les étiquettes qui ne diffèrent que par la casse",
                        "en": "Merge labels that differ only by case"},
    "kappa.case_fold_help": {
        "fr": "Chaque groupe prend son orthographe la plus fréquente, pour tous les évaluateurs ; tous les "
              "chiffres de la page sont recalculés. Laissez décoché si la casse a un sens (« A » et « a » "
              "comme deux notes).",
        "en": "Each group takes its most frequent spelling, for every rater; every figure of the page is "
              "recomputed. Leave unticked if case carries meaning (“A” and “a” as two grades)."},
    "kappa.measured.measured": {
        "fr": "Couverture mesurée (bench/coverage.py) : sur {cells} cas simulés de moins de 50 items, cet "
              "intervalle a contenu le vrai κ dans au moins {coverage} des {replications} tirages (le pire "
              "cas : {bench_n} items, {n_labels} étiquettes).",
        "en": "Measured coverage (bench/coverage.py): in {cells} simulated cases of fewer than 50 items, this "
              "interval held the true κ in at least {coverage} of {replications} draws (the worst case: "
              "{bench_n} items, {n_labels} labels)."},
    "kappa.measured.measured_below": {
        "fr": "**Attention**, couverture mesurée (bench/coverage.py) : sur {cells} cas simulés de moins de "
              "50 items, cet intervalle à 95 % n'a contenu le vrai κ que dans {coverage} des {replications} "
              "tirages dans le pire cas ({bench_n} items, {n_labels} étiquettes), sous les {target_share} "
              "visés : il est trop étroit sur si peu d'items.",
        "en": "**Caution**, measured coverage (bench/coverage.py): in {cells} simulated cases of fewer than "
              "50 items, this 95% interval held the true κ in only {coverage} of {replications} draws in the "
              "worst case ({bench_n} items, {n_labels} labels), below the {target_share} aimed at: it is too "
              "narrow on so few items."},
}

for _texts in TEXTS.values():
    _texts["fr"] = french_spacing(_texts["fr"])

"""Texts of "Submit to the room" (ui/room/submit.py) and of the room's ratings on the kappa page (ui/room/rating.py)."""

TEXTS = {
    # ------------------------------------------------------------------ submitting an attempt
    "room_submit.join_hint": {
        "fr": "Pour soumettre ce résultat à une salle d'atelier, rejoignez-la d'abord sur la page « Salle ».",
        "en": "To submit this result to a workshop room, join the room first on the “Room” page."},
    "room_submit.title": {"fr": "Soumettre à la salle", "en": "Submit to the room"},
    "room_submit.joined": {
        "fr": "Salle {code}, sous le nom {name}. Ce qui part : vos entrées, les réponses mesurées (avec leur "
              "provenance) et les chiffres de cette page. Jamais de clé.",
        "en": "Room {code}, as {name}. What is sent: your inputs, the answers measured (with where they came "
              "from) and this page's figures. Never a key."},
    "room_submit.button": {"fr": "Soumettre à la salle", "en": "Submit to the room"},
    "room_submit.retry": {"fr": "Renvoyer l'essai gardé", "en": "Send the kept attempt again"},
    "room_submit.pending": {
        "fr": "Un essai n'a pas pu être enregistré : il est gardé dans cette session, tel qu'il était "
              "au moment du clic, et le bouton le renvoie.",
        "en": "An attempt could not be stored: it is kept in this session, as it was when you clicked, and the "
              "button sends it again."},
    "room_submit.stored": {
        "fr": "Essai n° {number} enregistré dans la salle {code}.",
        "en": "Attempt #{number} stored in room {code}."},
    "room_submit.stored_unnumbered": {
        "fr": "Essai enregistré dans la salle {code} (son numéro n'a pas pu être relu).",
        "en": "Attempt stored in room {code} (its number could not be read back)."},
    "room_submit.duplicate": {
        "fr": "Déjà soumis sous le n° {number} : cet essai lui est identique (mêmes entrées, mêmes réponses). "
              "Changez quelque chose avant de soumettre à nouveau.",
        "en": "Already submitted as #{number}: this attempt is identical to it (same inputs, same answers). "
              "Change something before submitting again."},
    "room_submit.too_soon": {
        "fr": "Un essai par page toutes les {seconds} s : le prochain sera possible à {time} (dans {wait} s).",
        "en": "One attempt per page every {seconds} s: the next one is possible at {time} (in {wait} s)."},
    # what became of the last submission, read from the room's database (ui/room/history.py)
    "room_submit.status.stored": {
        "fr": "Votre soumission de {time} a bien été reçue : essai n° {number}.",
        "en": "Your submission of {time} was received: attempt #{number}."},
    "room_submit.status.in_flight": {
        "fr": "Votre soumission de {time} est en cours de réception…",
        "en": "Your submission of {time} is being received…"},
    "room_submit.status.missing": {
        "fr": "Votre soumission de {time} n'a pas été reçue : soumettez-la à nouveau.",
        "en": "Your submission of {time} was not received: submit again."},
    "room_submit.history.title": {"fr": "Vos essais enregistrés", "en": "Your attempts as stored"},
    "room_submit.history.none": {"fr": "Aucun essai enregistré pour l'instant.", "en": "No attempt stored yet."},
    "room_submit.history.number": {"fr": "N°", "en": "No."},
    "room_submit.history.time": {"fr": "Heure", "en": "Time"},
    "room_submit.history.kind": {"fr": "Page", "en": "Page"},
    "room_submit.history.board": {"fr": "Au tableau", "en": "On the board"},
    "room_submit.history.counts": {"fr": "compte (le dernier)", "en": "counts (the latest)"},
    "room_submit.history.final": {"fr": "compte (votre choix)", "en": "counts (your choice)"},
    "room_submit.history.hidden": {"fr": "masqué par l'animateur", "en": "hidden by the instructor"},
    "room_submit.history.older": {"fr": "dans l'historique seulement", "en": "in your history only"},
    "room_submit.final.label": {"fr": "L'essai « {kind} » qui compte au tableau",
                                "en": "The {kind} attempt that counts on the board"},
    "room_submit.final.latest": {"fr": "Le dernier (automatique)", "en": "The latest (automatic)"},
    "room_submit.final.option": {"fr": "n° {number} — {time}", "en": "#{number} — {time}"},
    "room_submit.judge_template": {"fr": "Modèle de consigne soumis", "en": "Template submitted"},
    # why the button is disabled (evallib.room.readiness.submit_readiness)
    "room_submit.blocked.nothing_to_submit": {
        "fr": "Rien à soumettre : cette page n'attend aucune réponse.",
        "en": "Nothing to submit: this page expects no answer."},
    "room_submit.blocked.offline_unrecorded": {
        "fr": "Hors ligne, réponses nécessaires sans enregistrement : {n} sur {total}. Ces entrées modifiées "
              "n'ont pas de réponses à mesurer, donc rien à soumettre. En salle, passez en direct vers le "
              "serveur de l'animateur, ou notez à la main sur la page Kappa.",
        "en": "Offline, answers needed without a recording: {n} of {total}. These edited inputs have no "
              "answers to measure, so there is nothing to submit. In a room, go live against the "
              "instructor's server, or rate by hand on the Kappa page."},
    "room_submit.blocked.incomplete": {
        "fr": "Réponses obtenues : {answered} sur {total}. Obtenez les autres avant de soumettre.",
        "en": "Answers so far: {answered} of {total}. Get the others before submitting."},
    "room_submit.blocked.no_human": {
        "fr": "Aucun score humain saisi : l'accord du juge avec les humains ne peut pas être mesuré. Saisissez "
              "les scores humains dans l'analyse ci-dessus, puis soumettez.",
        "en": "No human score entered: the judge's agreement with humans cannot be measured. Enter the human "
              "scores in the analysis above, then submit."},
    "room_submit.blocked.human_unreadable": {
        "fr": "Les scores humains saisis ne se lisent pas (voir l'erreur ci-dessus, qui nomme la ligne) : "
              "corrigez-les, puis soumettez.",
        "en": "The human scores given cannot be read (see the error above, which names the line): correct "
              "them, then submit."},
    # an attempt that could not be built (evallib InputError codes)
    "room_submit.build.contains_key": {
        "fr": "Cet essai contient ce qui ressemble à une clé d'API : il n'est jamais envoyé. Retirez la "
              "clé des entrées.",
        "en": "This attempt holds what looks like an API key: it is never sent. Remove the key from the inputs."},
    "room_submit.build.other": {
        "fr": "L'essai n'a pas pu être construit à partir de ces résultats ({code}) : rien n'a été envoyé.",
        "en": "The attempt could not be built from these results ({code}): nothing was sent."},
    # ------------------------------------------------------------------ the kappa rated by the room
    "room_submit.rating_title": {"fr": "Kappa noté par la salle", "en": "Kappa rated by the room"},
    "room_submit.rating_intro": {
        "fr": "Salle {code} : l'animateur a choisi les éléments ci-dessous. Donnez une étiquette à chacun ; "
              "chaque réponse est enregistrée aussitôt, et le tableau de la salle mesure l'accord entre les "
              "participants à mesure que les notes arrivent. Aucun modèle n'intervient.",
        "en": "Room {code}: the instructor chose the items below. Give each one a label; every answer is "
              "stored at once, and the room's board measures the agreement between participants as ratings "
              "arrive. No model is involved."},
    "room_submit.rating_none": {
        "fr": "La salle {code} n'a pas encore d'éléments à noter.",
        "en": "Room {code} has no items to rate yet."},
    "room_submit.rating_item": {"fr": "Élément {i} : {id}", "en": "Item {i}: {id}"},
    "room_submit.rating_label": {"fr": "Votre note", "en": "Your rating"},
    "room_submit.rating_count": {
        "fr": "Éléments notés : {rated} sur {total}.",
        "en": "Items rated: {rated} of {total}."},
    "room_submit.rating_final": {
        "fr": "Cette note n'a pas été enregistrée et ne peut plus l'être.",
        "en": "This rating was not stored and can no longer be."},
    "room_submit.rating_pending": {
        "fr": "Notes pas encore enregistrées : {n}. Elles sont gardées ici et renvoyées au prochain clic.",
        "en": "Ratings not stored yet: {n}. They are kept here and sent again on the next click."},
    "room_submit.rating_unreadable": {
        "fr": "La salle ne peut pas être lue pour l'instant ; vos notes déjà données sont gardées.",
        "en": "The room cannot be read right now; the ratings you gave are kept."},
    # ------------------------------------------------------------------ what each button submits (docs/room.md#submissions)
    "room_submit.button_rewrite.own": {"fr": "Soumettre votre réécriture de {name} à la salle",
                                       "en": "Submit your rewrite of {name} to the room"},
    "room_submit.button_rewrite.suggested": {"fr": "Soumettre la réécriture proposée de {name} à la salle",
                                             "en": "Submit the suggested rewrite of {name} to the room"},
    "room_submit.judge_template": {"fr": "Gabarit soumis à la salle", "en": "Template submitted to the room"},
    "room_submit.button_judge.edited": {"fr": "Soumettre le gabarit {name} (modifié) à la salle",
                                        "en": "Submit template {name} (edited) to the room"},
    "room_submit.button_judge.unedited": {"fr": "Soumettre le gabarit {name} (non modifié) à la salle",
                                          "en": "Submit template {name} (unedited) to the room"},
    "room_submit.judge_detail.judge": {
        "fr": "Comparé aux autres essais sur l'écart entre les notes du juge et vos scores humains (kappa pondéré).",
        "en": "Compared with the other attempts on the gap between the judge's totals and your human scores "
              "(weighted kappa)."},
    "room_submit.judge_detail.judge_code": {
        "fr": "Sans scores humains : comparé aux autres essais sur l'accord du juge avec les correcteurs de code "
              "(validité), au tableau « LLM juge (code) ». Saisissez des scores humains pour l'autre tableau.",
        "en": "Without human scores: compared with the other attempts on the judge's agreement with the code "
              "graders (validity), on the “LLM judge (code)” board. Enter human scores for the other board."},
    "room_submit.blocked.human_unreadable": {
        "fr": "Les scores humains saisis ne peuvent pas être lus (voir le message ci-dessus) : corrigez-les ou "
              "videz le champ pour soumettre sans eux.",
        "en": "The human scores entered cannot be read (see the message above): fix them, or empty the field to "
              "submit without them."},
    "room_submit.blocked.room_closed": {
        "fr": "La salle {code} est fermée : elle ne reçoit plus d'essai.",
        "en": "Room {code} is closed: it takes no more attempts."},
    "room_submit.history.hidden_notice": {
        "fr": "L'animateur a masqué votre essai n° {number} : il n'est plus au tableau (il reste dans votre "
              "historique).",
        "en": "The instructor hid your attempt #{number}: it is off the board (it stays in your history)."},
    "room_submit.rating_closed": {
        "fr": "La salle {code} est fermée : elle ne reçoit plus de note. Vos notes déjà données restent comptées.",
        "en": "Room {code} is closed: it takes no more ratings. The ratings you gave still count."},
}

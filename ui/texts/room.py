"""Texts of the Room page (pages/room.py, ui/room/): joining, the instructor's panel, the board.

Figures are placeholders filled from computed values (reading values formatted by ``ui.i18n``).
French typography as on the Kappa page (`ui.texts.kappa.french_spacing`).
"""

from ui.texts.kappa import french_spacing

TEXTS = {
    # ---------------------------------------------------------------- page
    "room.nav": {"fr": "Salle", "en": "Room"},
    "room.title": {"fr": "La salle : les essais de chacun, comparés honnêtement",
                   "en": "The room: everyone's attempts, compared fairly"},
    "room.intro": {
        "fr": "Chacun rejoint la salle avec son code et un nom, modifie les entrées d'une page (déclenchement, "
              "personas, LLM juge) puis soumet son essai ; sur la page kappa, la salle note les mêmes réponses. "
              "Le tableau se met à jour tout seul et ne désigne un gagnant que si un test apparié le permet.",
        "en": "Everyone joins the room with its code and a name, edits a page's inputs (trigger, persona, LLM "
              "judge) and submits the attempt; on the kappa page, the room rates the same answers. The board "
              "refreshes by itself and names a winner only when a paired test allows it."},
    "room.store_down": {
        "fr": "La base de données de la salle est indisponible : {reason}. Rien n'a été enregistré ; "
              "la page réessaie au prochain clic.",
        "en": "The room's database is unavailable: {reason}. Nothing was stored; the page tries again on the "
              "next click."},
    # ---------------------------------------------------------------- joining
    "room.join.title": {"fr": "Rejoindre une salle", "en": "Join a room"},
    "room.join.code": {"fr": "Code de la salle", "en": "Room code"},
    "room.join.name": {"fr": "Votre nom (affiché au tableau)", "en": "Your name (shown on the board)"},
    "room.join.button": {"fr": "Rejoindre", "en": "Join"},
    "room.join.joined": {"fr": "Vous avez rejoint la salle {code} sous le nom « {name} ».",
                         "en": "You joined room {code} as “{name}”."},
    "room.join.renamed": {"fr": "Le nom « {typed} » était déjà pris : vous avez rejoint la salle {code} sous le nom "
                                "« {name} ».",
                          "en": "The name “{typed}” was taken: you joined room {code} as “{name}”."},
    "room.join.shortened": {
        "fr": "Un nom compte au plus {limit} caractères (le vôtre en avait {typed_length}) : vous avez rejoint la "
              "salle {code} sous le nom raccourci « {name} ».",
        "en": "A name has at most {limit} characters (yours had {typed_length}): you joined room {code} under the "
              "shortened name “{name}”."},
    "room.join.shortened_renamed": {
        "fr": "Un nom compte au plus {limit} caractères (le vôtre en avait {typed_length}) et le nom raccourci était "
              "déjà pris : vous avez rejoint la salle {code} sous le nom « {name} ».",
        "en": "A name has at most {limit} characters (yours had {typed_length}) and the shortened name was taken: "
              "you joined room {code} as “{name}”."},
    "room.join.back": {"fr": "Vous revoilà dans la salle {code} sous le nom « {name} », avec vos essais et vos notes.",
                       "en": "Welcome back to room {code} as “{name}”, with your attempts and ratings."},
    "room.join.member": {"fr": "Vous êtes dans la salle {code} ({title}) sous le nom « {name} ».",
                         "en": "You are in room {code} ({title}) as “{name}”."},
    "room.join.untitled": {"fr": "sans titre", "en": "untitled"},
    "room.join.leave": {"fr": "Quitter la salle", "en": "Leave the room"},
    "room.join.left": {"fr": "Vous avez quitté la salle {code}.", "en": "You left room {code}."},
    "room.join.next": {
        "fr": "Ensuite : modifiez les entrées d'une page et soumettez votre essai, ou notez les réponses "
              "sur la page kappa.",
        "en": "Next: edit a page's inputs and submit your attempt, or rate the answers on the kappa page."},
    "room.join.gone": {"fr": "La salle {code} n'existe plus ou vous n'en faites plus partie : rejoignez-la à nouveau.",
                       "en": "Room {code} no longer exists or no longer has you: join it again."},
    "room.join.removed": {
        "fr": "L'animateur vous a retiré de la salle {code}. Vous pouvez la rejoindre à nouveau sous un autre nom.",
        "en": "The instructor removed you from room {code}. You may join it again under a new name."},
    # ---------------------------------------------------------------- instructor
    "room.instructor.title": {"fr": "Animateur", "en": "Instructor"},
    "room.instructor.token": {"fr": "Jeton d'animateur", "en": "Instructor token"},
    "room.instructor.token_help": {
        "fr": "Affiché dans la console du serveur à son premier démarrage (puis gardé avec les données des salles ; "
              "« python -m evallib room token » en tire un nouveau), ou lu dans .streamlit/secrets.toml "
              "([room] instructor_token) ou la variable EVALLIB_ROOM_INSTRUCTOR_TOKEN. Ce navigateur sera "
              "ensuite reconnu sans le jeton.",
        "en": "Printed in the server's console at its first start (then kept with the room data; "
              "`python -m evallib room token` draws a new one), or read from .streamlit/secrets.toml "
              "([room] instructor_token) or the EVALLIB_ROOM_INSTRUCTOR_TOKEN variable. This browser is then "
              "recognised without the token."},
    "room.instructor.recognised": {
        "fr": "Ce navigateur est reconnu comme celui de l'animateur (il a donné le jeton).",
        "en": "This browser is recognised as the instructor's (it gave the token)."},
    "room.instructor.sign_out": {"fr": "Se déconnecter", "en": "Sign out"},
    "room.instructor.signed_out": {"fr": "Ce navigateur n'est plus celui de l'animateur : le jeton sera redemandé.",
                                   "en": "This browser is no longer the instructor's: the token will be asked again."},
    "room.remove.pick": {"fr": "Participant à retirer de la salle", "en": "Participant to remove from the room"},
    "room.remove.button": {"fr": "Retirer de la salle", "en": "Remove from the room"},
    "room.remove.help": {
        "fr": "Son navigateur n'est plus membre ; ses essais restent stockés mais sont masqués du tableau "
              "(vous pouvez les réafficher un par un). Il peut rejoindre à nouveau sous un autre nom.",
        "en": "Their browser is no longer a member; their attempts stay stored but are hidden from the board "
              "(you can show them again one by one). They may join again under a new name."},
    "room.remove.done": {"fr": "« {name} » a été retiré de la salle.", "en": "“{name}” was removed from the room."},
    "room.remove.removed": {"fr": "retiré", "en": "removed"},
    "room.instructor.need_token": {"fr": "Saisissez le jeton d'animateur pour ouvrir ou gérer une salle.",
                                   "en": "Type the instructor token to open or manage a room."},
    "room.instructor.new_title": {"fr": "Titre de la nouvelle salle", "en": "Title of the new room"},
    "room.instructor.open": {"fr": "Ouvrir une salle", "en": "Open a room"},
    "room.instructor.opened": {"fr": "Salle {code} ouverte.", "en": "Room {code} opened."},
    "room.instructor.manage_code": {"fr": "Gérer une salle existante (code)", "en": "Manage an existing room (code)"},
    "room.instructor.manage": {"fr": "Gérer cette salle", "en": "Manage this room"},
    "room.instructor.managing": {"fr": "Salle gérée : {code} — {title} ({state}), {participants}, {attempts}.",
                                 "en": "Managed room: {code} — {title} ({state}), {participants}, {attempts}."},
    "room.instructor.state_open": {"fr": "ouverte", "en": "open"},
    "room.instructor.state_closed": {"fr": "fermée", "en": "closed"},
    "room.instructor.participants.one": {"fr": "{n} participant", "en": "{n} participant"},
    "room.instructor.participants.other": {"fr": "{n} participants", "en": "{n} participants"},
    "room.instructor.attempts.one": {"fr": "{n} essai", "en": "{n} attempt"},
    "room.instructor.attempts.other": {"fr": "{n} essais", "en": "{n} attempts"},
    "room.instructor.close": {"fr": "Fermer la salle", "en": "Close the room"},
    "room.instructor.closed": {"fr": "Salle {code} fermée : plus d'arrivée, d'essai ni de note.",
                               "en": "Room {code} closed: no more joins, attempts or ratings."},
    "room.instructor.link_network": {
        "fr": "Cette page est ouverte sur « localhost », que seul ce poste atteint : le lien et le QR code "
              "donnent son adresse sur le réseau.",
        "en": "This page is open on 'localhost', which only this machine reaches: the link and the QR code give "
              "its address on the network instead."},
    "room.instructor.link_loopback": {
        "fr": "Cette page est ouverte sur « localhost », que seul ce poste atteint, et son adresse sur le réseau "
              "est inconnue : ouvrez l'application par cette adresse pour que le lien serve aux participants.",
        "en": "This page is open on 'localhost', which only this machine reaches, and its network address is "
              "unknown: open the app by that address so that the link works for the participants."},
    "room.instructor.join_url": {"fr": "Pour rejoindre : {url}", "en": "To join: {url}"},
    "room.instructor.code_big": {"fr": "Code : {code}", "en": "Code: {code}"},
    "room.instructor.qr_caption": {"fr": "Scannez pour rejoindre la salle {code}",
                                   "en": "Scan to join room {code}"},
    # rating items
    "room.rating.title": {"fr": "Réponses que la salle note (kappa)", "en": "Answers the room rates (kappa)"},
    "room.rating.current": {"fr": "La salle note {items} avec les étiquettes {labels}.",
                            "en": "The room rates {items} with the labels {labels}."},
    "room.rating.none": {"fr": "Aucune réponse à noter n'est choisie pour cette salle.",
                         "en": "No answers to rate are chosen for this room."},
    "room.rating.items.one": {"fr": "{n} réponse", "en": "{n} answer"},
    "room.rating.items.other": {"fr": "{n} réponses", "en": "{n} answers"},
    "room.rating.count": {"fr": "Nombre de réponses du LLM juge à noter", "en": "Number of LLM-judge answers to rate"},
    "room.rating.labels": {"fr": "Étiquettes, séparées par des virgules", "en": "Labels, separated by commas"},
    "room.rating.apply": {"fr": "Faire noter ces réponses", "en": "Have these answers rated"},
    "room.rating.applied": {"fr": "La salle notera {items}.", "en": "The room will rate {items}."},
    "room.rating.preview": {"fr": "Voir les réponses à noter", "en": "See the answers to rate"},
    "room.rating_error.too_few_labels": {"fr": "Il faut au moins deux étiquettes différentes.",
                                         "en": "At least two different labels are needed."},
    "room.rating_error.no_items": {"fr": "Aucune réponse à noter.", "en": "No answer to rate."},
    "room.rating_error.duplicate_item": {"fr": "La réponse {id} figure deux fois.",
                                         "en": "The answer {id} appears twice."},
    # attempts
    "room.attempts.title": {"fr": "Essais de la salle", "en": "The room's attempts"},
    "room.attempts.none": {"fr": "Aucun essai soumis pour l'instant.", "en": "No attempt submitted yet."},
    "room.attempts.pick": {"fr": "Ouvrir un essai", "en": "Open an attempt"},
    "room.attempts.option": {"fr": "n° {number} — {kind} — {participant}",
                             "en": "#{number} — {kind} — {participant}"},
    "room.attempts.is_hidden": {"fr": "Cet essai est masqué : il n'est pas au tableau.",
                                "en": "This attempt is hidden: it is not on the board."},
    "room.attempts.hide": {"fr": "Masquer cet essai", "en": "Hide this attempt"},
    "room.attempts.show": {"fr": "Réafficher cet essai", "en": "Show this attempt again"},
    "room.attempts.hidden_done": {"fr": "Essai n° {number} masqué : il n'est plus au tableau.",
                                  "en": "Attempt #{number} hidden: it is off the board."},
    "room.attempts.shown_done": {"fr": "Essai n° {number} réaffiché.", "en": "Attempt #{number} shown again."},
    "room.attempts.pick_participant": {"fr": "Tous les essais d'une personne", "en": "All of one person's attempts"},
    "room.attempts.participant_option": {"fr": "{participant} — visibles : {shown}, masqués : {hidden}",
                                         "en": "{participant} — shown: {shown}, hidden: {hidden}"},
    "room.attempts.hide_all": {"fr": "Masquer tous ses essais", "en": "Hide all their attempts"},
    "room.attempts.show_all": {"fr": "Réafficher tous ses essais", "en": "Show all their attempts again"},
    "room.attempts.all_hidden_done": {"fr": "Essais de {participant} masqués : {n}. Plus rien de cette personne au tableau.",
                                      "en": "Attempts of {participant} hidden: {n}. Nothing of theirs is on the board."},
    "room.attempts.all_shown_done": {"fr": "Essais de {participant} réaffichés : {n}.",
                                     "en": "Attempts of {participant} shown again: {n}."},
    "room.attempts.inputs": {"fr": "Entrées", "en": "Inputs"},
    "room.attempts.provenance": {"fr": "Provenance des réponses", "en": "Where the answers came from"},
    "room.attempts.answers": {"fr": "Réponses mesurées ({n})", "en": "Answers measured ({n})"},
    "room.attempts.figures": {"fr": "Chiffres enregistrés", "en": "Stored figures"},
    "room.attempts.item": {"fr": "Élément", "en": "Item"},
    "room.attempts.outcome": {"fr": "Résultat", "en": "Outcome"},
    "room.attempts.text": {"fr": "Réponse", "en": "Answer"},
    # export / import
    "room.bundle.export_title": {"fr": "Exporter la salle", "en": "Export the room"},
    "room.bundle.prepare": {"fr": "Préparer l'export de la salle", "en": "Prepare the room's export"},
    "room.bundle.download": {"fr": "Télécharger la salle {code} (JSON)", "en": "Download room {code} (JSON)"},
    "room.bundle.upload": {"fr": "Salle exportée à importer (JSON)", "en": "Exported room to import (JSON)"},
    "room.bundle.import": {"fr": "Importer cette salle", "en": "Import this room"},
    "room.bundle.no_file": {"fr": "Choisissez d'abord un fichier.", "en": "Choose a file first."},
    "room.bundle.imported": {
        "fr": "Salle importée sous le code {code} : {participants}, {attempts}. Elle est maintenant la salle gérée.",
        "en": "Room imported under the code {code}: {participants}, {attempts}. It is now the managed room."},
    "room.bundle_error.not_json": {"fr": "Ce fichier n'est pas du JSON, ou il est tronqué. Rien n'a été chargé.",
                                   "en": "This file is not JSON, or it is cut short. Nothing was loaded."},
    "room.bundle_error.not_ours": {
        "fr": "Ce fichier n'est pas une salle exportée par cette application. Rien n'a été chargé.",
        "en": "This file is not a room exported by this app. Nothing was loaded."},
    "room.bundle_error.newer_version": {
        "fr": "Cette salle a été exportée par une version plus récente (format {version}, cette application lit "
              "jusqu'au {supported}). Rien n'a été chargé.",
        "en": "This room was exported by a newer version (format {version}, this app reads up to {supported}). "
              "Nothing was loaded."},
    "room.bundle_error.schema": {"fr": "Le fichier ne suit pas le format attendu, à l'endroit « {path} ». "
                                       "Rien n'a été chargé.",
                                 "en": "The file does not follow the expected format, at “{path}”. "
                                       "Nothing was loaded."},
    "room.bundle_error.invalid_attempt": {"fr": "L'essai n° {number} du fichier n'est pas valide. Rien n'a été chargé.",
                                          "en": "Attempt #{number} of the file is not valid. Nothing was loaded."},
    "room.bundle_error.inconsistent": {
        "fr": "Le fichier se contredit ({what}). Rien n'a été chargé.",
        "en": "The file contradicts itself ({what}). Nothing was loaded."},
    "room.bundle_top": {"fr": "la racine", "en": "the top"},
    "room.bundle_what.participant_id": {"fr": "un participant inconnu ou en double",
                                        "en": "an unknown or repeated participant"},
    "room.bundle_what.name": {"fr": "deux participants du même nom, ou un nom vide",
                              "en": "two participants with one name, or a blank name"},
    "room.bundle_what.number": {"fr": "deux essais du même numéro", "en": "two attempts with one number"},
    "room.bundle_what.rating": {"fr": "une note vide ou donnée deux fois",
                                "en": "a blank rating, or one given twice"},
    # ---------------------------------------------------------------- storage errors
    "room.error.unavailable": {
        "fr": "La base de données de la salle est occupée ou injoignable : rien n'a été enregistré. Réessayez.",
        "en": "The room's database is busy or unreachable: nothing was stored. Try again."},
    "room.error.unknown_room": {"fr": "Aucune salle n'a le code « {room} ».", "en": "No room has the code “{room}”."},
    "room.error.room_closed": {"fr": "La salle {room} est fermée.", "en": "Room {room} is closed."},
    "room.error.bad_token": {"fr": "Jeton d'animateur incorrect : action refusée.",
                             "en": "Wrong instructor token: action refused."},
    "room.error.unknown_participant": {"fr": "Ce navigateur n'a pas rejoint cette salle.",
                                       "en": "This browser has not joined this room."},
    "room.error.empty_name": {"fr": "Saisissez un nom pour rejoindre la salle.", "en": "Type a name to join the room."},
    "room.error.unknown_attempt": {"fr": "Cette salle n'a pas l'essai {attempt}.",
                                   "en": "This room has no attempt {attempt}."},
    "room.error.invalid_attempt": {"fr": "Cet essai n'est pas valide et n'a pas été enregistré.",
                                   "en": "This attempt is not valid and was not stored."},
    "room.error.duplicate_attempt": {"fr": "Déjà soumis sous le n° {number} : cet essai lui est identique.",
                                     "en": "Already submitted as #{number}: this attempt is identical to it."},
    "room.error.too_soon": {"fr": "Un essai par page toutes les {seconds} s : attendez un peu avant le suivant.",
                            "en": "One attempt per page every {seconds} s: wait a little before the next one."},
    "room.error.empty_label": {"fr": "La note est vide.", "en": "The rating is empty."},
    "room.error.secrets_unreadable": {
        "fr": "Le fichier .streamlit/secrets.toml est illisible ([room] instructor_token doit être du texte) : "
              "la salle ne peut pas démarrer.",
        "en": "The file .streamlit/secrets.toml cannot be read ([room] instructor_token must be text): the room "
              "cannot start."},
    # ---------------------------------------------------------------- the board
    "room.board.title": {"fr": "Tableau de la salle {code}", "en": "Board of room {code}"},
    "room.board.none": {"fr": "Le tableau s'affiche ici une fois une salle rejointe (ou ouverte par l'animateur).",
                        "en": "The board shows here once a room is joined (or opened by the instructor)."},
    "room.board.updated": {"fr": "Mis à jour à {time} ; se rafraîchit toutes les {seconds} s.",
                           "en": "Updated at {time}; refreshes every {seconds} s."},
    "room.board.refresh": {"fr": "Rafraîchir le tableau toutes les (secondes)", "en": "Refresh the board every (seconds)"},
    "room.board.retry": {"fr": "Nouvel essai au prochain rafraîchissement.", "en": "Trying again at the next refresh."},
    "room.board.empty": {"fr": "Aucun essai au tableau pour l'instant.", "en": "No attempt on the board yet."},
    "room.board.downloads": {"fr": "Télécharger les tableaux du classement (données à l'instant du clic)",
                             "en": "Download the board's tables (data as of the click)"},
    "room.board.download_ranking": {"fr": "Classement ({kind})", "en": "Ranking ({kind})"},
    "room.board.download_curse": {"fr": "Malédiction du vainqueur ({kind})", "en": "Winner's curse ({kind})"},
    # ---------------------------------------------------------------- the board's liveness banner (ui/room/liveness.py)
    # Shown by a script in the browser when the server is gone; {time} is the board's last refresh.
    "room.live.down": {
        "fr": "Tableau figé depuis {time} : le serveur ne répond plus. Les chiffres affichés datent de {time}.",
        "en": "Board not live since {time}: the server does not answer. The figures shown are from {time}."},
    "room.live.stalled": {
        "fr": "Tableau figé depuis {time} : aucun rafraîchissement reçu, reconnexion en cours…",
        "en": "Board not live since {time}: no refresh has arrived, reconnecting…"},
    "room.live.back": {"fr": "Le tableau est de nouveau en direct (mis à jour à {time}).",
                       "en": "The board is live again (updated at {time})."},
    "room.kind.trigger": {"fr": "Déclenchement des skills — exactitude sur les requêtes visibles",
                          "en": "Skill triggering — accuracy on the visible queries"},
    "room.kind.persona": {"fr": "Audit de personas — exactitude (leave-one-out) sur les sondes visibles",
                          "en": "Persona audit — leave-one-out accuracy on the visible probes"},
    "room.kind.judge": {"fr": "LLM juge — kappa pondéré avec les notes humaines sur les cas visibles",
                        "en": "LLM judge — weighted kappa with the human scores on the visible cases"},
    "room.kind_short.trigger": {"fr": "déclenchement", "en": "trigger"},
    "room.kind_short.persona": {"fr": "personas", "en": "persona"},
    "room.kind_short.judge": {"fr": "LLM juge", "en": "LLM judge"},
    "room.test.mcnemar_exact": {"fr": "le test exact de McNemar", "en": "McNemar's exact test"},
    "room.test.sign_flip_exact": {"fr": "le test exact de permutation des signes (pertes appariées)",
                                  "en": "the exact sign-flip test (paired losses)"},
    "room.unit.query": {"fr": "requête", "en": "query"},
    "room.unit.response": {"fr": "réponse", "en": "response"},
    "room.unit.case": {"fr": "cas", "en": "case"},
    "room.unit.probe": {"fr": "sonde", "en": "probe"},
    "room.unit.item": {"fr": "élément", "en": "item"},
    "room.board.method": {
        "fr": "Chaque essai est comparé au meilleur par {test}, sur les mêmes éléments (unité : {unit}) ; "
              "correction de Holm sur toutes les paires d'essais ({pairs}), α = {alpha}. Intervalles à 95 %, "
              "unité : {interval_unit}.",
        "en": "Each attempt is compared with the best by {test}, on the same items (unit: {unit}); Holm's "
              "correction over every pair of attempts ({pairs}), α = {alpha}. 95% intervals, unit: {interval_unit}."},
    "room.board.method_single": {"fr": "Intervalle à 95 %, unité : {interval_unit}.",
                                 "en": "95% interval, unit: {interval_unit}."},
    "room.board.figure.trigger": {"fr": "exactitude", "en": "accuracy"},
    "room.board.figure.persona": {"fr": "exactitude", "en": "accuracy"},
    "room.board.figure.judge": {"fr": "kappa pondéré", "en": "weighted kappa"},
    "room.col.rank": {"fr": "Rang", "en": "Rank"},
    "room.col.attempt": {"fr": "Essai", "en": "Attempt"},
    "room.col.participant": {"fr": "Participant", "en": "Participant"},
    "room.col.figure": {"fr": "Valeur", "en": "Value"},
    "room.col.interval": {"fr": "Intervalle à 95 %", "en": "95% interval"},
    "room.col.n.trigger": {"fr": "Requêtes", "en": "Queries"},
    "room.col.n.persona": {"fr": "Réponses", "en": "Answers"},
    "room.col.n.judge": {"fr": "Cas notés", "en": "Cases scored"},
    "room.col.p": {"fr": "p contre le meilleur", "en": "p vs the best"},
    "room.col.p_holm": {"fr": "p (Holm)", "en": "p (Holm)"},
    "room.col.tied": {"fr": "Indiscernable du meilleur", "en": "Cannot be told from the best"},
    "room.col.visible": {"fr": "Sur les éléments visibles", "en": "On the visible items"},
    "room.col.held_out": {"fr": "Sur les éléments mis de côté", "en": "On the held-out items"},
    "room.col.reading": {"fr": "Lecture", "en": "Reading"},
    "room.col.rated": {"fr": "Notés", "en": "Rated"},
    "room.col.compared": {"fr": "Avec une majorité", "en": "With a majority"},
    "room.col.disagreements": {"fr": "Désaccords", "en": "Disagreements"},
    "room.col.share": {"fr": "Part de désaccord", "en": "Disagreement share"},
    "room.yes": {"fr": "oui", "en": "yes"},
    "room.no": {"fr": "non", "en": "no"},
    "room.best": {"fr": "meilleur", "en": "best"},
    "room.curse.title": {"fr": "Malédiction du vainqueur : les premiers mesurés à nouveau sur des éléments mis de côté",
                         "en": "Winner's curse: the top attempts measured again on held-out items"},
    "room.curse.why": {
        "fr": "Avec de nombreux essais, le meilleur score est gonflé par la chance. Les éléments mis de côté n'ont "
              "servi à aucun classement : leur chiffre est l'estimation honnête.",
        "en": "With many attempts, the best score is inflated by luck. The held-out items were used for no "
              "ranking: their figure is the honest estimate."},
    # board readings (evallib.room.board)
    "room.reading.board_empty": {"fr": "Aucun essai de ce type.", "en": "No attempt of this kind."},
    "room.reading.board_no_items": {
        "fr": "Aucun élément visible n'a été noté dans ces essais ({attempts}) : rien à comparer.",
        "en": "No visible item was scored in these attempts ({attempts}): nothing to compare."},
    "room.reading.board_single": {"fr": "Un seul essai (n° {best}) : rien à comparer encore.",
                                  "en": "A single attempt (#{best}): nothing to compare yet."},
    "room.reading.board_all_tied": {
        "fr": "Les données ne distinguent aucun essai du meilleur (n° {best}) : pas de gagnant net (essais : "
              "{attempts} ; éléments : {items}).",
        "en": "The data cannot tell any attempt from the best (#{best}): no clear winner (attempts: {attempts}; "
              "items: {items})."},
    "room.reading.board_separated": {
        "fr": "Indiscernables du meilleur (n° {best}), lui compris : {tied} sur {attempts} ; les autres font "
              "significativement moins bien après correction de Holm.",
        "en": "Cannot be told from the best (#{best}), itself included: {tied} of {attempts}; the others do "
              "significantly worse after Holm's correction."},
    "room.reading.board_too_few_items": {
        "fr": "Tous indiscernables, mais aucun écart ne pouvait être significatif (éléments : {items} ; paires "
              "comparées : {pairs}) : il faudrait au moins {needed} éléments.",
        "en": "All tied, but no difference could have been significant (items: {items}; pairs compared: {pairs}): "
              "at least {needed} items would be needed."},
    # the kappa rated by the room (evallib.room.ratings)
    "room.kappa.title": {"fr": "Kappa noté par la salle", "en": "Kappa rated by the room"},
    "room.kappa.fleiss": {"fr": "Kappa de Fleiss", "en": "Fleiss' kappa"},
    "room.kappa.alpha": {"fr": "Alpha de Krippendorff", "en": "Krippendorff's alpha"},
    "room.kappa.interval": {"fr": "IC 95 % {interval} (réponses : {n} ; bootstrap, unité : réponse)",
                            "en": "95% CI {interval} (answers: {n}; bootstrap, unit: answer)"},
    "room.kappa.who": {"fr": "Qui s'écarte le plus de la majorité des autres", "en": "Who departs most from the others' majority"},
    "room.note.too_few_raters": {"fr": "il faut au moins deux participants", "en": "at least two participants needed"},
    "room.note.empty": {"fr": "aucune note pour l'instant", "en": "no rating yet"},
    "room.note.no_complete_item": {"fr": "aucune réponse notée par tous pour l'instant",
                                   "en": "no answer rated by everyone yet"},
    "room.note.single_item": {"fr": "une seule réponse utilisable pour l'instant", "en": "a single usable answer so far"},
    "room.note.both_raters_constant": {"fr": "tout le monde a donné la même étiquette partout",
                                       "en": "everyone gave the same label everywhere"},
    "room.note.no_variation": {"fr": "une seule étiquette utilisée : rien à départager",
                               "en": "a single label used: nothing to tell apart"},
    "room.note.other": {"fr": "pas encore calculable", "en": "not computable yet"},
    "room.reading.room_ratings_waiting": {
        "fr": "En attente de notes ({raters} ; réponses notées par au moins deux : {pairable_items}).",
        "en": "Waiting for ratings ({raters}; answers rated by at least two: {pairable_items})."},
    "room.reading.room_ratings_ready": {
        "fr": "{raters} ; réponses notées par tous : {complete_items} sur {items} ; par au moins deux : "
              "{pairable_items}.",
        "en": "{raters}; answers rated by everyone: {complete_items} of {items}; by at least two: "
              "{pairable_items}."},
    "room.reading.room_majority_none": {"fr": "Pas encore de majorité à laquelle comparer chacun.",
                                        "en": "No majority yet to compare each participant with."},
    "room.reading.room_majority_all_agree": {"fr": "Chacun suit la majorité des autres sur toutes les réponses comparées.",
                                             "en": "Everyone follows the others' majority on every compared answer."},
    "room.reading.room_majority_tie": {
        "fr": "Plusieurs participants s'écartent autant de la majorité ({share}) : {participants}.",
        "en": "Several participants depart as much from the majority ({share}): {participants}."},
    "room.reading.room_majority_outlier": {
        "fr": "{participant} s'écarte le plus de la majorité des autres (désaccords : {disagreements} ; "
              "réponses comparées : {compared} ; {share}).",
        "en": "{participant} departs most from the others' majority (disagreements: {disagreements}; "
              "answers compared: {compared}; {share})."},
    # one figure, one unit (ui/room/figure.py, evallib.room.figures); boards within a model (evallib.room.models)
    "room.figure.text": {"fr": "{value} {interval}, {basis}", "en": "{value} {interval}, {basis}"},
    "room.figure.basis": {"fr": "{observed} sur {units}", "en": "{observed} over {units}"},
    "room.figure.page": {
        "fr": "Sur le tableau de la salle, cet essai figurera ainsi ({figure}, intervalle à 95 %, unité : "
              "{unit}) — partie visible : {visible} ; mise de côté : {held_out}.",
        "en": "On the room's board, this attempt will show ({figure}, 95% interval, unit: {unit}) — visible "
              "part: {visible}; held out: {held_out}."},
    "room.observed.decision.one": {"fr": "{k}/{n} décision juste", "en": "{k}/{n} right decision"},
    "room.observed.decision.other": {"fr": "{k}/{n} décisions justes", "en": "{k}/{n} right decisions"},
    "room.observed.response.one": {"fr": "{k}/{n} réponse reconnue", "en": "{k}/{n} answer recognised"},
    "room.observed.response.other": {"fr": "{k}/{n} réponses reconnues", "en": "{k}/{n} answers recognised"},
    "room.observed.case.one": {"fr": "{k}/{n} cas", "en": "{k}/{n} case"},
    "room.observed.case.other": {"fr": "{k}/{n} cas", "en": "{k}/{n} cases"},
    "room.observed.item.one": {"fr": "{k}/{n} élément juste", "en": "{k}/{n} right item"},
    "room.observed.item.other": {"fr": "{k}/{n} éléments justes", "en": "{k}/{n} right items"},
    "room.units.query.one": {"fr": "{n} requête", "en": "{n} query"},
    "room.units.query.other": {"fr": "{n} requêtes", "en": "{n} queries"},
    "room.units.probe.one": {"fr": "{n} sonde", "en": "{n} probe"},
    "room.units.probe.other": {"fr": "{n} sondes", "en": "{n} probes"},
    "room.units.case.one": {"fr": "{n} cas", "en": "{n} case"},
    "room.units.case.other": {"fr": "{n} cas", "en": "{n} cases"},
    "room.units.item.one": {"fr": "{n} élément", "en": "{n} item"},
    "room.units.item.other": {"fr": "{n} éléments", "en": "{n} items"},
    "room.col.basis": {"fr": "Mesuré sur", "en": "Measured on"},
    "room.col.model": {"fr": "Modèle", "en": "Model"},
    "room.model.unknown": {"fr": "non indiqué", "en": "not stated"},
    "room.reading.scope_within_model": {"fr": "Essais comparés au sein du modèle {model}.",
                                        "en": "Attempts compared within model {model}."},
    "room.reading.scope_model_unknown": {
        "fr": "Essais qui n'indiquent pas leur modèle, comparés entre eux.",
        "en": "Attempts that do not state their model, compared with one another."},
    "room.reading.scope_mixed": {
        "fr": "Modèles mélangés à la demande de l'animateur ({count}) : {models}. Un écart peut venir du modèle "
              "autant que du prompt.",
        "en": "Models mixed at the instructor's request ({count}): {models}. A gap may come from the model as "
              "much as from the prompt."},
    "room.models.mix": {"fr": "Comparer ensemble des essais de modèles différents",
                        "en": "Compare attempts of different models together"},
    "room.models.mix_help": {
        "fr": "Désactivé (par défaut), le tableau compare les essais au sein de chaque modèle.",
        "en": "Off (the default), the board compares attempts within each model."},
    "room.models.mixed_done": {"fr": "Le tableau compare désormais les modèles ensemble.",
                               "en": "The board now compares models together."},
    "room.models.within_done": {"fr": "Le tableau compare désormais au sein de chaque modèle.",
                                "en": "The board now compares within each model."},
    # ------------------------------------------------------------------ a judge without human scores (docs/room.md)
    "room.kind.judge_code": {
        "fr": "LLM juge sans notes humaines — accord avec les correcteurs de code (validité) sur les cas visibles",
        "en": "LLM judge without human scores — agreement with the code graders (validity) on the visible cases"},
    "room.kind_short.judge_code": {"fr": "LLM juge (code)", "en": "LLM judge (code)"},
    "room.board.figure.judge_code": {"fr": "accord avec le code", "en": "agreement with the code"},
    "room.col.n.judge_code": {"fr": "Cas comparés", "en": "Cases compared"},
    "room.variant.rewrite": {"fr": "{kind} · réécriture de {assistant}", "en": "{kind} · rewrite of {assistant}"},
    "room.join.closed": {"fr": "La salle {code} est fermée : on ne peut plus la rejoindre.",
                         "en": "Room {code} is closed: it can no longer be joined."},
    "room.join.member_closed": {
        "fr": "La salle {code} est fermée : elle ne reçoit plus d'essai ni de note ; le tableau reste visible.",
        "en": "Room {code} is closed: it takes no more attempts nor ratings; the board stays on view."},
    # the winner's curse quantified and rank uncertainty (evallib.room.winners_curse, evallib.room.ranks)
    "room.uncertainty.measure.trigger": {"fr": "Mesure : part de requêtes justes (unité : la requête).",
                                         "en": "Measure: share of queries right (unit: the query)."},
    "room.uncertainty.measure.persona": {"fr": "Mesure : part de réponses attribuées au bon assistant (unité : la réponse).",
                                         "en": "Measure: share of answers assigned to the right assistant (unit: the answer)."},
    "room.uncertainty.measure.judge": {
        "fr": "Mesure : écart au carré entre la note du juge et la note humaine, en moyenne par cas (plus bas, "
              "mieux ; « hisser » veut dire ici faire baisser cet écart).",
        "en": "Measure: squared gap between the judge's score and the human score, averaged per case (lower is "
              "better; \"lift\" here means lowering that gap)."},
    "room.uncertainty.curse_method": {
        "fr": "Chance seule : chaque essai reçoit, sur chaque élément, un résultat tiré parmi ceux que la salle a "
              "obtenus sur cet élément (même niveau pour tous), {draws} fois ; on mesure de combien le meilleur "
              "dépasse alors la moyenne.",
        "en": "Luck alone: each attempt gets, on each item, an outcome drawn from those the room obtained on that "
              "item (everyone equally good), {draws} times; we measure how far the best then lies above the mean."},
    "room.uncertainty.ranks_method": {
        "fr": "Rangs : {draws} rééchantillonnages des éléments (éléments : {items} ; appariés : les mêmes pour "
              "tous les essais), intervalle à 95 % des rangs obtenus. Meilleur possible : comparaisons multiples avec le meilleur (Hsu).",
        "en": "Ranks: {draws} resamples of the items (items: {items}; paired: the same for every attempt), 95% "
              "interval of the ranks obtained. Possible best: multiple comparisons with the best (Hsu)."},
    "room.col.rank_interval": {"fr": "Rang (IC 95 %)", "en": "Rank (95% CI)"},
    "room.reading.curse_single": {
        "fr": "Un seul essai (n° {attempt}) : rien n'a été choisi, donc pas de malédiction du vainqueur.",
        "en": "A single attempt (#{attempt}): nothing was chosen, so no winner's curse."},
    "room.reading.curse_no_spread": {
        "fr": "Tous les résultats visibles sont identiques : la chance ne hisse aucun des {attempts} essais.",
        "en": "Every visible outcome is the same: luck lifts none of the {attempts} attempts."},
    "room.reading.curse_likely_inflated": {
        "fr": "Le meilleur (n° {attempt}, {visible}) est probablement gonflé par la chance : entre {attempts} essais "
              "de même niveau sur ces éléments, la chance seule hisse le meilleur de {inflation} en moyenne "
              "(jusqu'à {luck_high} dans {luck_share} des tirages), et son avance sur la moyenne des essais n'est "
              "que de {lead}.",
        "en": "The best (#{attempt}, {visible}) is likely inflated by luck: among {attempts} attempts of equal skill "
              "on these items, luck alone lifts the best by {inflation} on average (up to {luck_high} in "
              "{luck_share} of draws), and its lead over the attempts' mean is only {lead}."},
    "room.reading.curse_beyond_luck": {
        "fr": "L'avance du meilleur (n° {attempt}, {visible}) sur la moyenne des essais, {lead}, dépasse ce que la "
              "chance seule donne dans {luck_share} des tirages entre {attempts} essais de même niveau ({luck_high}) : "
              "une part en est réelle ; la chance en ajoute environ {inflation}.",
        "en": "The best's lead (#{attempt}, {visible}) over the attempts' mean, {lead}, exceeds what luck alone gives "
              "in {luck_share} of draws among {attempts} attempts of equal skill ({luck_high}): part of it is real; "
              "luck adds about {inflation}."},
    "room.reading.curse_heldout_none": {"fr": "{visible} visible ; aucun élément mis de côté noté : rien pour vérifier",
                                        "en": "{visible} visible; no held-out item scored: nothing to check with"},
    "room.reading.curse_no_gap": {
        "fr": "{visible} visible, {held_out} sur {held_out_n} éléments mis de côté ; la chance ne hisse pas ce "
              "rang : pas d'écart à vérifier",
        "en": "{visible} visible, {held_out} on {held_out_n} held-out items; luck does not lift this rank: no gap "
              "to check"},
    "room.reading.curse_heldout_lower": {
        "fr": "{visible} visible, {held_out} sur {held_out_n} éléments mis de côté : une baisse de {drop}, nette au "
              "seuil unilatéral de {level_share} ; le score visible devait à la chance",
        "en": "{visible} visible, {held_out} on {held_out_n} held-out items: a drop of {drop}, clear at the one-sided "
              "{level_share} level; the visible score owed to luck"},
    "room.reading.curse_heldout_too_small": {
        "fr": "{visible} visible, {held_out} sur {held_out_n} éléments mis de côté ; la chance seule ajoute environ "
              "{inflation}, mais ces éléments ne repèrent ({power_share} des fois) qu'une baisse d'au moins "
              "{detectable} : trop peu pour vérifier, ni confirmé ni démenti",
        "en": "{visible} visible, {held_out} on {held_out_n} held-out items; luck alone adds about {inflation}, but "
              "these items only catch ({power_share} of the time) a drop of {detectable} or more: too few to check, "
              "neither confirmed nor refuted"},
    "room.reading.curse_consistent": {
        "fr": "cohérent : {visible} visible, {held_out} sur {held_out_n} éléments mis de côté ; ils auraient repéré "
              "({power_share} des fois) une baisse de {detectable}, la chance en donne {inflation}, et ils n'en "
              "montrent pas",
        "en": "consistent: {visible} visible, {held_out} on {held_out_n} held-out items; they would have caught "
              "({power_share} of the time) a drop of {detectable}, luck gives {inflation}, and they show none"},
    "room.reading.ranks_no_items": {"fr": "Aucun élément visible noté : pas encore de rang.",
                                    "en": "No visible item scored: no rank yet."},
    "room.reading.ranks_single": {"fr": "Un seul essai (n° {best}) : premier faute d'autres.",
                                  "en": "A single attempt (#{best}): first for want of others."},
    "room.reading.ranks_best_separated": {
        "fr": "Le n° {best} est le meilleur : c'est le seul essai qui puisse l'être (essais comparés : {attempts} ; "
              "confiance {confidence_share}, valable bien que le meilleur soit choisi sur ces mêmes données, "
              "éléments : {items}).",
        "en": "#{best} is the best: the only attempt that could be (attempts compared: {attempts}; confidence "
              "{confidence_share}, valid although the best is picked on these same data, items: {items})."},
    "room.reading.ranks_top_tied": {
        "fr": "Le meilleur est parmi ces {size} essais sur {attempts} : {possible} (confiance {confidence_share}, "
              "valable après le choix du meilleur). Les deux premiers, n° {best} et n° {second}, ont le même score : "
              "aucun nombre d'éléments ne les départagerait à écart nul.",
        "en": "The best is among these {size} of {attempts} attempts: {possible} (confidence {confidence_share}, "
              "valid after picking the best). The top two, #{best} and #{second}, have the same score: no number "
              "of items would separate them at a zero difference."},
    "room.reading.ranks_best_among": {
        "fr": "Le meilleur est parmi ces {size} essais sur {attempts} : {possible} (confiance {confidence_share}, "
              "valable après le choix du meilleur). Pour départager les deux premiers, n° {best} et n° {second} "
              "(écart {difference}), il faudrait environ {needed} éléments ({power_share} de chances, "
              "approximation normale des différences appariées par élément).",
        "en": "The best is among these {size} of {attempts} attempts: {possible} (confidence {confidence_share}, "
              "valid after picking the best). To separate the top two, #{best} and #{second} (difference "
              "{difference}), it would take about {needed} items ({power_share} chance, normal approximation of "
              "the paired per-item differences)."},
}

for _texts in TEXTS.values():
    _texts["fr"] = french_spacing(_texts["fr"])

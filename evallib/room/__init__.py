"""A workshop room: participants submit attempts, the board compares them fairly (docs/room.md).

Pure Python, no Streamlit; the Room page and the board draw what these modules compute. Modules:

- ``storage``: rooms, participants, attempts and ratings in a database through SQLAlchemy Core
  (a SQLite file by default, PostgreSQL when ``EVALLIB_DATABASE_URL`` is set); `RoomStore`.
- ``attempts``: what an attempt stores (version 2, ``kind`` trigger / persona / judge / judge_code), its JSON
  Schema and the trigger attempt (`build_trigger_attempt`, `validate_attempt`);
  ``persona_attempt`` (`build_persona_attempt`, held-out probe) and ``judge_attempt``
  (`build_judge_attempt`, held-out cases; "judge_code" when no human score was typed) build the others.
- ``board``: each attempt against the best by its kind's paired test (McNemar exact on right/wrong
  items, exact sign-flip on per-case losses), Holm's correction over all pairs, the group the data
  cannot tell apart from the best, and the winner's curse on held-out items (`build_board`,
  `build_boards` for a room with several kinds).
- ``figures``: an attempt's figure as its page and the board show it (`attempt_figure`: one function,
  the field's unit per kind); ``models``: boards within one model unless the room mixes them
  (`model_boards`, `attempt_model`).
- ``winners_curse``: each top attempt's true score estimated after selection from the room's own data
  (``selection``: Andrews, Kitagawa & McCloskey's hybrid inference on winners), the luck in its visible
  score, beside the held-out score and the smallest drop the held-out items detect.
- ``ranks``: 95 % rank sets, marginal per attempt (simultaneous max-|t| intervals on the paired differences,
  bootstrap over items), the attempts that could be the best (those whose set holds 1) and the items it would
  take to separate the top two.
- ``ratings``: the kappa rated by the room, Fleiss' kappa and Krippendorff's alpha across participants
  (`room_agreement`).
- ``bundle``: a whole room as one JSON bundle, exported and imported in one transaction.
- ``instructor``: where the instructor token comes from (secrets, environment, or drawn at start).
- ``endpoint``: the room's live model endpoint, set by the instructor, its key kept on the server.
"""

"""A workshop room: participants submit attempts, the board compares them fairly (issue 15).

Pure Python, no Streamlit; the Room page and the board draw what these modules compute. Modules:

- ``storage``: rooms, participants, attempts and ratings in a database through SQLAlchemy Core
  (a SQLite file by default, PostgreSQL when ``EVALLIB_DATABASE_URL`` is set); `RoomStore`.
- ``attempts``: what an attempt stores, built by pure functions from a page's results, and its
  JSON Schema (`build_trigger_attempt`, `validate_attempt`).
- ``board``: each attempt against the best by the paired test, Holm's correction, the group the data
  cannot tell apart from the best, and the winner's curse on held-out items (`build_board`).
- ``ratings``: the kappa rated by the room, Fleiss' kappa and Krippendorff's alpha across participants
  (`room_agreement`).
- ``bundle``: a whole room as one JSON bundle, exported and imported in one transaction.
- ``instructor``: where the instructor token comes from (secrets, environment, or drawn at start).
"""

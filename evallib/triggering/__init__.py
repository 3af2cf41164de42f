"""Does each skill fire when it should, and only then? (docs/trigger.md)

Modules, in the order of the data flow:

- ``data``: the skill catalogue and the labelled queries, JSON-Schema-validated (`load_skills`, `load_queries`).
- ``routing``: the first-turn requests that let a model activate one skill or none (`build_requests`).
- ``decisions``: what an answer decided (`parse_decision`: skill, none, invalid_name, empty, error).
- ``metrics``: accuracy, precision, recall, false activation rate with Clopper-Pearson intervals,
  confusion, misroutes, consistency; ``report`` assembles them (`evaluate`) for the page and the CLI.
- ``readings``: what a result means, as `evallib.readings.Reading`.
- ``similarity``: the TF-IDF baseline without a model and its vectorised threshold sweep.
- ``comparison``: McNemar's exact test before/after a description edit.
- ``gate``: the CI gate; ``authored``: the offline examples. The ``trigger`` command and the run bundle
  are a run of this page: `evallib.runs.trigger`.
"""

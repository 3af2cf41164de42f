"""GNSS agent evaluation (docs/gnss.md): synthetic truth, spec and grader, reference agents,
tolerances from realisations, repeated runs, the live agent's request and parser, and file readers.

Modules: `synthetic` (the generator), `cases` (the twelve cases), `spec` (spec as data, schema guard,
grader), `agents` (v1, v2, MIDAS), `evaluation` (results table, failure groups), `tolerances`
(spreads and spec v3), `repeated` (pass rates of sampled runs), `live` (request, parser, authored
recordings), `readers` (CSV, .tenv3, .pos, .neu), `station` and `station_grades` (a real station's series). The
``gnss`` command and the run bundle are a run of this page: `evallib.runs.gnss`.
"""

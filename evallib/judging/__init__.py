"""LLM as a judge: code graders first, a model grader for the rest, its failures and biases measured
(docs/judge.md).

Modules, in the order of the data flow:

- ``data``: the cases (requests to a cloud-infrastructure coding assistant), schema-validated.
- ``templates`` and ``rubric``: the generation templates A/B and the rubric, as validated data.
- ``judge_prompt``: the grading and pairwise prompts, the fence, blinding and the padded copy.
- ``requests``: the generation, grading and pairwise requests for both provider paths.
- ``code_graders``: JSON, Python (ast, never executed), regex and length checks.
- ``grades``: the judge's answer read and validated into a `Grade` with a status.
- ``injection``: responses that talk to the grader, flagged and cleaned.
- ``pipeline``: each case chained generate -> code graders -> judge, concurrently, with progress.
- ``analyses`` and ``biases``: figures and readings (`evallib.readings.Reading`).
- ``report``: the JSON report and the CI gate; ``authored``: the offline recordings. The ``judge``
  command and the run bundle are a run of this page: `evallib.runs.judge`.
"""

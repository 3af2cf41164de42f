"""Benchmark of the persona audit's leave-one-out nearest centroid, ratios measured in one run.

Run: ``.venv/bin/python bench/persona.py`` (or ``make bench``). Synthetic responses (pseudo-words,
each assistant with its own topic words, each probe with its own words, a shared pool) go through
``tfidf_matrix`` like real ones. Targets (docs/README.md#performance): the vectorised leave-one-out at least 50x
faster than the per-row reference loop of the notebook at 600 responses (20 assistants x 30
probes), and under 2 s at 5,000 responses (50 assistants x 100 probes). A warm rerun of the
persona page (offline, 36 recorded answers) at most 10x a warm rerun of the home page, both under
AppTest in the same run. AppTest recompiles the page script on every run, which a server does not:
the ratio is, if anything, pessimistic.

Every measurement is a function returning table rows; ``MEASUREMENTS`` lists them in the order
they run. To add one (e.g. the page's warm AppTest rerun beside an empty page), write a function
returning ``Row``s and append it to ``MEASUREMENTS``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evallib.persona import leave_one_out_nearest_centroid, leave_one_out_reference  # noqa: E402
from evallib.text import tfidf_matrix  # noqa: E402

SEED = 20
WORDS_PER_RESPONSE = 120
TOPIC_WORDS_PER_ASSISTANT = 60
WORDS_PER_PROBE = 20
SHARED_POOL_SIZE = 2000
# Shares of a response's words: the assistant's topic, the probe's words, the shared pool. Chosen
# so that the 600-response case is hard (accuracy about 0.5), not a trivially separable one.
WORD_MIX = (0.07, 0.2, 0.73)

SMALL = (20, 30)  # assistants, probes: 600 responses, the reference loop runs here
LARGE = (50, 100)  # 5,000 responses: vectorised only
RATIO_TARGET = 50.0
LARGE_TARGET_S = 2.0
PAGE_RERUN_TARGET = 10.0  # persona page rerun / home page rerun
REFERENCE_REPEATS = 3
VECTORISED_REPEATS = 7


class Row(NamedTuple):
    measure: str
    responses: int
    assistants: int
    seconds: float
    note: str = ""


def pseudo_words(n: int, rng: np.random.Generator) -> list[str]:
    """n distinct lower-case letter strings of 4 to 9 letters (never French stop words)."""
    letters = np.array(list("bcdfghjklmnpqrstvwxzaeiouéè"))
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(letters, size=rng.integers(4, 10))))
    return sorted(words)


def synthetic_responses(n_assistants: int, n_probes: int, seed: int = SEED):
    """Texts and labels of n_assistants x n_probes synthetic responses."""
    rng = np.random.default_rng(seed)
    n_topic = n_assistants * TOPIC_WORDS_PER_ASSISTANT
    n_probe = n_probes * WORDS_PER_PROBE
    words = np.array(pseudo_words(n_topic + n_probe + SHARED_POOL_SIZE, rng))
    topics = words[:n_topic].reshape(n_assistants, -1)
    probes = words[n_topic : n_topic + n_probe].reshape(n_probes, -1)
    shared = words[n_topic + n_probe :]
    zipf = 1 / np.arange(1, SHARED_POOL_SIZE + 1)
    zipf /= zipf.sum()
    n_topic_words, n_probe_words, n_shared_words = (
        int(share * WORDS_PER_RESPONSE) for share in WORD_MIX
    )
    texts, labels = [], []
    for a in range(n_assistants):
        for p in range(n_probes):
            tokens = np.concatenate(
                [
                    rng.choice(topics[a], size=n_topic_words),
                    rng.choice(probes[p], size=n_probe_words),
                    rng.choice(shared, size=n_shared_words, p=zipf),
                ]
            )
            texts.append(" ".join(tokens))
            labels.append(f"assistant{a:02d}")
    return texts, labels


def best_time(function: Callable[[], object], repeats: int) -> float:
    """Best wall time in seconds (time.perf_counter) over ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def measure_ratio_at_600() -> list[Row]:
    """Vectorised vs per-row reference at 20 assistants x 30 probes, same matrix."""
    texts, labels = synthetic_responses(*SMALL)
    X, terms = tfidf_matrix(texts)
    dense = X.toarray()
    vectorised = leave_one_out_nearest_centroid(X, labels)
    reference = leave_one_out_reference(dense, labels)
    agree = "identical predictions" if vectorised == reference else "PREDICTIONS DIFFER"
    accuracy = np.mean([p == t for p, t in zip(vectorised, labels)])
    t_reference = best_time(lambda: leave_one_out_reference(dense, labels), REFERENCE_REPEATS)
    t_sparse = best_time(lambda: leave_one_out_nearest_centroid(X, labels), VECTORISED_REPEATS)
    t_dense = best_time(lambda: leave_one_out_nearest_centroid(dense, labels), VECTORISED_REPEATS)
    n, k = len(labels), SMALL[0]
    return [
        Row("reference loop (dense)", n, k, t_reference,
            f"{len(terms)} terms, accuracy {accuracy:.2f}, {agree}"),
        Row("vectorised (sparse CSR)", n, k, t_sparse, f"{t_reference / t_sparse:.0f}x faster"),
        Row("vectorised (dense)", n, k, t_dense, f"{t_reference / t_dense:.0f}x faster"),
    ]


def measure_large() -> list[Row]:
    """Vectorised leave-one-out at 50 assistants x 100 probes (the TF-IDF build timed apart)."""
    texts, labels = synthetic_responses(*LARGE)
    start = time.perf_counter()
    X, terms = tfidf_matrix(texts)
    t_tfidf = time.perf_counter() - start
    t_loo = best_time(lambda: leave_one_out_nearest_centroid(X, labels), REFERENCE_REPEATS)
    n, k = len(labels), LARGE[0]
    return [
        Row("tfidf_matrix (once)", n, k, t_tfidf, f"{len(terms)} terms, {X.nnz} non-zeros"),
        Row("vectorised (sparse CSR)", n, k, t_loo, f"target < {LARGE_TARGET_S:.0f} s"),
    ]


PAGE_REPEATS = 15


def _warm_app(page: str | None):
    """An AppTest of the app (offline recordings) on ``page`` (None: home), after a first cold run."""
    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parent.parent
    app = AppTest.from_file(str(root / "app.py"), default_timeout=120)
    app.run()
    if page is not None:
        app.switch_page(page).run()
    app.run()
    if app.exception:
        raise RuntimeError(f"{page or 'home'} raised: {app.exception[0].value}")
    return app


def measure_page_rerun() -> list[Row]:
    """Warm rerun of the persona page (36 recorded answers) beside the home page as baseline.

    The two reruns alternate, PAGE_REPEATS times each, and the best of each is kept: on a shared
    machine a burst of load then slows both sides alike instead of one.
    """
    home, page = _warm_app(None), _warm_app("pages/persona.py")
    home_times, page_times = [], []
    for _ in range(PAGE_REPEATS):
        home_times.append(best_time(home.run, 1))
        page_times.append(best_time(page.run, 1))
    baseline, persona = min(home_times), min(page_times)
    return [
        Row("home page rerun (AppTest)", 0, 0, baseline, "baseline: shell, sidebar, no analysis"),
        Row("persona page rerun", 36, 6, persona,
            f"{persona / baseline:.1f}x the baseline (target <= {PAGE_RERUN_TARGET:.0f}x)"),
    ]


MEASUREMENTS: list[Callable[[], list[Row]]] = [measure_ratio_at_600, measure_large, measure_page_rerun]


def print_table(rows: list[Row]) -> None:
    print(f"{'measure':<26} {'responses':>9} {'assistants':>10} {'seconds':>10}  note")
    for row in rows:
        print(
            f"{row.measure:<26} {row.responses:>9} {row.assistants:>10} {row.seconds:>10.4f}  {row.note}"
        )


def targets_met(rows: list[Row]) -> bool:
    """Ratio >= RATIO_TARGET at 600 responses, < LARGE_TARGET_S at 5,000, page rerun <= PAGE_RERUN_TARGET."""
    small = {r.measure: r.seconds for r in rows if r.responses == SMALL[0] * SMALL[1]}
    large = {r.measure: r.seconds for r in rows if r.responses == LARGE[0] * LARGE[1]}
    pages = {r.measure: r.seconds for r in rows if "rerun" in r.measure}
    ratio = small["reference loop (dense)"] / small["vectorised (sparse CSR)"]
    page_ratio = pages["persona page rerun"] / pages["home page rerun (AppTest)"]
    return ratio >= RATIO_TARGET and large["vectorised (sparse CSR)"] < LARGE_TARGET_S and page_ratio <= PAGE_RERUN_TARGET


def main() -> int:
    rows = [row for measurement in MEASUREMENTS for row in measurement()]
    print("leave-one-out nearest centroid, best of "
          f"{REFERENCE_REPEATS} (reference, large) / {VECTORISED_REPEATS} (vectorised, 600) runs")
    print_table(rows)
    ok = targets_met(rows)
    print(f"\ntargets (>= {RATIO_TARGET:.0f}x at 600 responses, < {LARGE_TARGET_S:.0f} s at 5,000, "
          f"persona rerun <= {PAGE_RERUN_TARGET:.0f}x home): "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

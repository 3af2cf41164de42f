"""Benchmark of the GNSS page's computations, ratios measured side by side in one run.

Run: ``.venv/bin/python bench/gnss.py`` (or ``make bench``). Targets (docs/README.md#performance):

- the jump detector on cumulative sums (`largest_jump`) at least 20x faster than the per-day loop of
  docs/gnss.md#agents (`largest_jump_loop`) on a 10-year and a 20-year daily series, with equal results;
- the whole 12-case evaluation of agents v1 and v2 (spec v1, v2 and v3) plus the tolerance derivation
  over 100 realisations (50 per record length) and the held-out check, in about the time of a page
  rerun (printed side by side with the page's own first run and warm rerun, measured through AppTest);
- flicker noise for a 20-year daily series in milliseconds: FFT convolution of the fractional filter,
  printed next to the same filter applied sample by sample by `scipy.signal.lfilter` (direct form).
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

import numpy as np
from scipy.signal import lfilter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evallib.gnss.agents import largest_jump, largest_jump_loop  # noqa: E402
from evallib.gnss.synthetic import DAYS_PER_YEAR, flicker_noise, fractional_filter, gnss_series  # noqa: E402
from evallib.gnss.tolerances import seed_summary  # noqa: E402

JUMP_RATIO_TARGET = 20.0
#: A Streamlit rerun of the page: the same 1-second budget as the other pages' benches.
RERUN_BUDGET_S = 1.0
#: Flicker noise of a 20-year daily series "in milliseconds".
FLICKER_BUDGET_S = 0.05
REPEATS = 5


def best_time(function, repeats: int = REPEATS) -> float:
    """Best wall time in seconds over ``repeats`` calls."""
    return min(timeit.repeat(function, number=1, repeat=repeats))


def measure_jumps() -> tuple[list[str], bool]:
    lines, ok = [], True
    for years in (10, 20):
        series = gnss_series(n_years=years, velocity_mm_yr=12, eq_day=1500, coseismic_mm=8, seed=7)
        d = series.observed["disp_mm"].to_numpy()
        fast, slow = largest_jump(d), largest_jump_loop(d)
        equal = fast.index == slow.index and np.isclose(fast.size_mm, slow.size_mm, rtol=0, atol=1e-9)
        t_fast, t_slow = best_time(lambda: largest_jump(d)), best_time(lambda: largest_jump_loop(d), 3)
        ratio = t_slow / t_fast
        ok &= equal and ratio >= JUMP_RATIO_TARGET
        lines.append(f"jump detector, {years:>2} yr   loop {t_slow * 1e3:8.2f} ms  cumsum {t_fast * 1e3:6.3f} ms  "
                     f"ratio {ratio:6.0f}x  day {fast.index} / {slow.index}, results {'equal' if equal else 'DIFFER'}")
    return lines, ok


def measure_evaluation() -> tuple[list[str], bool]:
    """`seed_summary`: v1/spec v1, v2/spec v2, spec v3 from 2 x 50 realisations, v2/spec v3, held-out check."""
    summary = seed_summary()
    seconds = best_time(seed_summary, 3)
    passes = summary.table.loc["passes"].tolist()
    return [f"whole evaluation        {seconds:8.3f} s   (12 cases x 3 runs + 100 realisations + 12 held-out; page "
            f"rerun budget {RERUN_BUDGET_S:.0f} s: {seconds / RERUN_BUDGET_S:.0%} of it); passes v1/v1 {passes[0]}, "
            f"v2/v2 {passes[1]}, v2/v3 {passes[2]}, held-out {summary.held_out_passes}/{summary.held_out_total}"], \
        seconds <= RERUN_BUDGET_S


def measure_page() -> tuple[list[str], bool]:
    """The page itself through Streamlit's AppTest, offline: the first run (every cache cold) and a warm
    rerun (what a click costs), printed beside the evaluation it caches."""
    import os
    import tempfile

    from streamlit.testing.v1 import AppTest

    os.environ.setdefault("EVALLIB_LOCAL_RECORDINGS", tempfile.mkdtemp())
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.run()
    cold = timeit.timeit(lambda: app.switch_page("pages/gnss.py").run(), number=1)
    warm = best_time(app.run, 3)
    return [f"page (AppTest, offline) first run {cold:6.2f} s   warm rerun {warm:6.3f} s "
            f"(budget {RERUN_BUDGET_S:.0f} s)"], warm <= RERUN_BUDGET_S and not app.exception


def measure_flicker() -> tuple[list[str], bool]:
    n = int(round(20 * DAYS_PER_YEAR))
    t_fft = best_time(lambda: flicker_noise(n, 4.0, np.random.default_rng(1)))
    white = np.random.default_rng(1).standard_normal(2 * n)
    t_direct = best_time(lambda: lfilter(fractional_filter(2 * n), [1.0], white), 1)
    return [f"flicker noise, 20 yr    FFT {t_fft * 1e3:8.2f} ms   direct lfilter {t_direct * 1e3:8.1f} ms   "
            f"ratio {t_direct / t_fft:5.0f}x  (budget {FLICKER_BUDGET_S * 1e3:.0f} ms)"], t_fft <= FLICKER_BUDGET_S


def main() -> int:
    results = [measure_jumps(), measure_evaluation(), measure_page(), measure_flicker()]
    for lines, _ in results:
        print("\n".join(lines))
    ok = all(met for _, met in results)
    print(f"\ntargets (jump detector >= {JUMP_RATIO_TARGET:.0f}x with equal results, evaluation < "
          f"{RERUN_BUDGET_S:.0f} s, warm page rerun < {RERUN_BUDGET_S:.0f} s, flicker < {FLICKER_BUDGET_S * 1e3:.0f} ms): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

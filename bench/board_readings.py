"""What the board reads in simulated rooms: the winner's curse and who could be best.

Methods: docs/room.md#winners-curse and docs/room.md#ranks.

Run: ``.venv/bin/python bench/board_readings.py`` (1,000 rooms per scenario, ``--rooms N``; ``--quick``
for 100). Each room is 30 trigger attempts on the same queries, every answer an independent draw
right with the attempt's true accuracy, built as attempts and passed through `build_board` as the
board does (the same seeds for the old and new readings: side by side in one run).

**A. Thirty attempts of equal skill 0.80** (30 visible and 8 held-out queries; 200 and 50):

- share of rooms where the best is flagged ``curse_likely_inflated`` (target >= 90 %);
- the mean estimated inflation of the best (`evallib.room.winners_curse`, from the room's own data)
  against its true inflation (its visible score minus 0.80), their ratio (target within 25 %);
- share of rooms whose best reads "consistent": today's reading (the visible figure inside the
  held-out Clopper-Pearson interval, ``held_out_agrees``, removed from the board by this change and
  reproduced here as `old_consistent`) against the new ``curse_consistent``;
- false "better" calls: today, Holm over all pairs calls the best significantly better than every other
  attempt / than at least one; new, the set that could be the best holds one attempt (target <= 5 %),
  and (for the record) the share of rooms whose set leaves out some attempt and the mean share of
  attempts left out (each is as good as the best: multiple comparisons with the best only promise that
  the set holds *a* best, here about 95 % of the time for any one attempt; see `evallib.room.ranks`).

**B. One attempt truly better** (0.95 against 29 at 0.80; 30 and 100 visible queries, 8 held out):
share of rooms where it is ranked first; where it is *separated* (today: Holm finds it significantly
better than all 29 others; new: it alone could be the best); where the new set keeps it (coverage);
the mean size of the set; the median of "items needed" when the top two are not separated.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: small matrices gain nothing from threads
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from evallib.room.board import build_board  # noqa: E402

ATTEMPTS = 30
SKILL = 0.80
BETTER = 0.95


def room(rng: np.random.Generator, skills: np.ndarray, visible: int, held_out: int) -> list:
    """One simulated room: attempts as the board reads them (trigger payloads, one outcome per query)."""
    right = rng.random((len(skills), visible + held_out)) < skills[:, None]
    ids = [f"q{j}" for j in range(visible + held_out)]
    return [SimpleNamespace(number=i + 1, participant=f"P{i + 1}", payload={
        "kind": "trigger", "unit": "query",
        "items": [{"id": ids[j], "held_out": j >= visible, "correct": bool(right[i, j])} for j in range(len(ids))]})
        for i in range(len(skills))]


def old_consistent(row) -> bool:
    """Today's held-out reading ``held_out_agrees``: the visible figure inside the held-out 95 % interval."""
    held = row.held_out
    return held.defined and row.visible.defined and held.low <= row.visible.value <= held.high


def equal_skill(rng, rooms: int, visible: int, held_out: int) -> dict:
    flagged, estimated, true, old, new, holm_all, holm_any, one_best, left_out, share_out = ([] for _ in range(10))
    skills = np.full(ATTEMPTS, SKILL)
    for _ in range(rooms):
        board = build_board(room(rng, skills, visible, held_out))
        best = board.curse[0]
        flagged.append(best.luck.code == "curse_likely_inflated")
        estimated.append(best.inflation)
        true.append(best.visible - SKILL)
        old.append(old_consistent(board.winners_curse[0]))
        new.append(best.reading.code == "curse_consistent")
        worse = [not r.tied_with_best for r in board.rows[1:]]
        holm_all.append(all(worse))
        holm_any.append(any(worse))
        one_best.append(len(board.ranks.possible_best) == 1)
        left_out.append(len(board.ranks.possible_best) < ATTEMPTS)
        share_out.append(1 - len(board.ranks.possible_best) / ATTEMPTS)
    return {"flagged": np.mean(flagged), "estimated": np.mean(estimated), "true": np.mean(true),
            "old": np.mean(old), "new": np.mean(new), "holm_all": np.mean(holm_all), "holm_any": np.mean(holm_any),
            "one_best": np.mean(one_best), "left_out": np.mean(left_out),
            "share_out": np.mean(share_out)}


def one_better(rng, rooms: int, visible: int, held_out: int) -> dict:
    first, old, new, kept, size, needed = ([] for _ in range(6))
    skills = np.array([BETTER] + [SKILL] * (ATTEMPTS - 1))
    for _ in range(rooms):
        board = build_board(room(rng, skills, visible, held_out))
        top = board.rows[0].number == 1
        first.append(top)
        old.append(top and all(not r.tied_with_best for r in board.rows[1:]))
        possible = board.ranks.possible_best
        new.append(possible == (0,))
        kept.append(0 in possible)
        size.append(len(possible))
        if board.ranks.needed is not None:
            needed.append(board.ranks.needed)
    return {"first": np.mean(first), "old": np.mean(old), "new": np.mean(new), "kept": np.mean(kept),
            "size": np.mean(size), "needed": float(np.median(needed)) if needed else float("nan")}


def percent(x: float) -> str:
    return f"{100 * x:5.1f} %"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="100 rooms per scenario")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)
    rooms = 100 if args.quick else args.rooms
    rng = np.random.default_rng(args.seed)
    started, cpu = time.perf_counter(), time.process_time()
    print(f"{rooms} rooms per scenario, {ATTEMPTS} attempts; the board's readings (build_board)\n")
    print(f"A. {ATTEMPTS} attempts of equal skill {SKILL}")
    header = (f"{'visible/held-out':>17} | {'flagged inflated':>16} | {'est. inflation':>14} | {'true inflation':>14} | "
              f"{'ratio':>5} | {'consistent old':>14} | {'consistent new':>14}")
    print(header)
    print("-" * len(header))
    results = {}
    for visible, held in ((30, 8), (200, 50)):
        r = results[visible] = equal_skill(rng, rooms, visible, held)
        print(f"{f'{visible}/{held}':>17} | {percent(r['flagged']):>16} | {r['estimated']:14.3f} | {r['true']:14.3f} | "
              f"{r['estimated'] / r['true']:5.2f} | {percent(r['old']):>14} | {percent(r['new']):>14}")
    print("\nFalse 'better' calls under equal skill (share of rooms)")
    header = (f"{'visible':>7} | {'Holm: best > all others':>23} | {'Holm: best > some':>17} | "
              f"{'new: one possible best':>22} | {'new: set leaves one out':>23} | {'attempts left out':>17}")
    print(header)
    print("-" * len(header))
    for visible, r in results.items():
        print(f"{visible:>7} | {percent(r['holm_all']):>23} | {percent(r['holm_any']):>17} | "
              f"{percent(r['one_best']):>22} | {percent(r['left_out']):>23} | {percent(r['share_out']):>17}")
    print(f"\nB. One attempt at {BETTER} against {ATTEMPTS - 1} at {SKILL}: is it separated?")
    header = (f"{'visible':>7} | {'ranked first':>12} | {'Holm all pairs':>14} | {'new: alone best':>15} | "
              f"{'new: kept in set':>16} | {'set size':>8} | {'items needed (median)':>21}")
    print(header)
    print("-" * len(header))
    for visible in (30, 100):
        r = one_better(rng, rooms, visible, 8)
        print(f"{visible:>7} | {percent(r['first']):>12} | {percent(r['old']):>14} | {percent(r['new']):>15} | "
              f"{percent(r['kept']):>16} | {r['size']:8.1f} | {r['needed']:21.0f}")
    print(f"\n{time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU (one core)")


if __name__ == "__main__":
    main()

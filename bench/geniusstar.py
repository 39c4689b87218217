"""Genius Star: one roll after grounding, per-roll medians under assumptions, the sweep,
against a plain Python Algorithm X on the same rolls.

Targets: one roll in under 5 ms of solve time after grounding; the 165,888-roll sweep
in under 3 minutes on 2 cores (run ``aspuzzles sweep geniusstar``; its figure is quoted
in the README, as it takes minutes).
"""

from __future__ import annotations

import random
import time

from tests.oracles import geniusstar_algx

from aspuzzles import solve
from aspuzzles.driver import Session
from aspuzzles.kit.dice import DiceRoll as StarInstance
from aspuzzles.puzzles.geniusstar import PUZZLE

from common import median, table

SAMPLE = 1000


def run() -> None:
    single = solve("geniusstar", "1 10 16 29 33 38 39")
    print(
        f"Reference roll, fresh grounding: ground {single.stats['ground_time'] * 1000:.1f} ms,"
        f" solve {single.stats['solve_time'] * 1000:.1f} ms.\n"
    )
    rolls = random.Random(1).sample(PUZZLE.all_rolls(), SAMPLE)
    rows = []
    for configuration in ("frumpy", "auto"):
        started = time.perf_counter()
        session = Session(
            PUZZLE, StarInstance(()), clingo_args=[f"--configuration={configuration}"]
        )
        ground = time.perf_counter() - started
        times, solvable = [], 0
        for roll in rolls:
            variant = StarInstance(roll)
            t0 = time.perf_counter()
            solvable += session.first(variant, PUZZLE.sweep().assumptions(variant)) is not None
            times.append(time.perf_counter() - t0)
        rows.append(
            [
                f"clingo --configuration={configuration} (one grounding)",
                ground,
                median(times),
                max(times),
                sum(times),
                solvable,
            ]
        )
    times, solvable = [], 0
    for roll in rolls:
        t0 = time.perf_counter()
        solvable += geniusstar_algx.first_tiling(roll) is not None
        times.append(time.perf_counter() - t0)
    rows.append(
        ["Python Algorithm X (baseline)", 0.0, median(times), max(times), sum(times), solvable]
    )
    print(f"{SAMPLE} random rolls, first tiling each (clingo: solve, decode and check):\n")
    table(["solver", "grounding", "median per roll", "slowest roll", "total", "solvable"], rows)

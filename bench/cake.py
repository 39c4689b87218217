"""Cake: enumerate the seed's 67 partitions; first solutions of large cakes, against a
naive encoding (a label per cell) and a plain Python search, in one run.

Targets: all 67 seed partitions in under 0.2 s in-process; a first solution of 10x10 to
12x12 cakes with 5-20 pieces in seconds.
"""

from __future__ import annotations

import cake_baseline
from aspuzzles import solve

from common import ROOT, best_of, limited, ratio, seconds, table

LIMIT = 30.0
NAIVE = ROOT / "bench" / "encodings" / "cake_naive.lp"
CAKES = [
    "gen-8x8-8-pieces-3-kinds",
    "gen-10x10-20-pieces-3-kinds",
    "gen-10x10-5-pieces-2-kinds",
    "gen-12x12-24-pieces-3-kinds",
    "gen-12x12-16-pieces-2-kinds",
    "hard-12x12-12-pieces-4-kinds",
    "unsolvable-12x12-36-pieces",
]


def asp_time(name: str, encoding=None) -> float | None:
    result = solve("cake", name, timeout=LIMIT, encoding=encoding)
    return None if result.status == "timeout" else result.stats["total_time"]


def run() -> None:
    enumerate_time, result = best_of(5, lambda: solve("cake", "seed-7th-guest", models=0))
    count_time, counted = best_of(5, lambda: solve("cake", "seed-7th-guest", count=True))
    base_time, base_count = best_of(
        1, lambda: cake_baseline.count(list(result.solution.instance.grid), 6)
    )
    print(
        f"Seed cake: {len(result.solutions)} partitions enumerated, decoded and checked in "
        f"{enumerate_time * 1000:.1f} ms; counted ({counted.count}) in "
        f"{count_time * 1000:.1f} ms; plain Python search counts {base_count} in "
        f"{base_time * 1000:.1f} ms (best of 5 / 1, in-process).\n"
    )
    rows = []
    for name in CAKES:
        path = ROOT / "instances" / "cake" / f"{name}.txt"
        instance = solve.__globals__["load_instance"](
            solve.__globals__["get_puzzle"]("cake"), path
        )[0]
        ours = asp_time(name)
        naive = asp_time(name, NAIVE)
        python, _ = limited(LIMIT, lambda i=instance: cake_baseline.first(list(i.grid), i.pieces))
        rows.append(
            [
                name,
                seconds(ours, LIMIT),
                seconds(naive, LIMIT),
                seconds(python, LIMIT),
                ratio(naive, ours, LIMIT),
                ratio(python, ours, LIMIT),
            ]
        )
    print(f"First solution (or proof of none), wall time in-process, limit {LIMIT:g} s each:\n")
    table(["cake", "aspuzzles", "naive encoding", "Python search", "vs naive", "vs Python"], rows)

"""Cake: enumerate the seed's 67 partitions; first solutions of large cakes, against a
naive encoding (a label per cell) and a plain Python search, in one run; and cakes the
generator makes beyond the shipped ones, against the previous heuristic.

Targets: all 67 seed partitions in under 0.2 s in-process; a first solution of 10x10 to
12x12 cakes with 5-20 pieces in seconds.
"""

from __future__ import annotations

import argparse

import cake_baseline
from aspuzzles import load_instance, solve, solve_instance
from aspuzzles.registry import get_puzzle

from common import ROOT, best_of, limited, ratio, seconds, table

LIMIT = 30.0
NAIVE = ROOT / "bench" / "encodings" / "cake_naive.lp"
PIECE_BY_PIECE = ROOT / "bench" / "encodings" / "cake_piece_by_piece.lp"
#: (size, pieces, kinds) of generated cakes, two seeds each: pieces of 16-32 cells,
#: where deciding a piece's cells in no particular order stalled.
GENERATED = [("12x12", 8, 3), ("12x12", 12, 4), ("14x14", 14, 3), ("16x16", 8, 3), ("16x16", 16, 4)]
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
        instance = load_instance(get_puzzle("cake"), path)[0]
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
    generated_cakes()


def generated_cakes() -> None:
    """First solutions of cakes made by `aspuzzles generate cake`, with the shipped
    heuristic and the one before it (pieces root by root only), and the Python search."""
    game, rows = get_puzzle("cake"), []
    for size, pieces, kinds in GENERATED:
        for seed in (1, 2):
            args = argparse.Namespace(size=size, pieces=pieces, kinds=kinds, seed=seed)
            instance = game.parse(game.generate(args), "generated")
            name = f"{size} {pieces} pieces {kinds} kinds s{seed}"
            times = []
            for encoding in (None, PIECE_BY_PIECE):
                result = solve_instance(game, instance, name, timeout=LIMIT, encoding=encoding)
                times.append(None if result.status == "timeout" else result.stats["total_time"])
            grid = list(instance.grid)
            python, _ = limited(LIMIT, lambda g=grid, k=instance.pieces: cake_baseline.first(g, k))
            rows.append([name, *(seconds(t, LIMIT) for t in times), seconds(python, LIMIT)])
    print(
        f"\nGenerated cakes (`aspuzzles generate cake --size S --pieces K --kinds T --seed N`), "
        f"first solution, limit {LIMIT:g} s each:\n"
    )
    table(["cake", "aspuzzles", "pieces root by root only", "Python search"], rows)

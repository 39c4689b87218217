"""Cake: enumerate the seed's 67 partitions; first solutions of large cakes, against a
naive encoding (a label per cell) and a plain Python search, in one run; and cakes the
generator makes beyond the shipped ones, with pieces named by their first cells (the
default below a million candidates) against numbered pieces; and cakes whose
toppings lie at random (`generate cake --random`), where the default race of clasp's
restart policies is compared with each policy alone.

Targets: all 67 seed partitions in under 0.2 s in-process; a first solution of 10x10 to
12x12 cakes with 5-20 pieces in seconds.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from tests.oracles import cake_baseline

import aspuzzles.puzzles.cake as cake_module
from aspuzzles import load_instance, solve, solve_instance
from aspuzzles.registry import get_puzzle

from common import ROOT, best_of, limited, ratio, seconds, table

LIMIT = 30.0
NAIVE = ROOT / "bench" / "encodings" / "cake_naive.lp"
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


#: (size, pieces, kinds) of random cakes, three seeds each: the shapes where random
#: cakes took more than 20 s in the 2026-11-23 (e6f50a9) sample of 24.
RANDOM = [("10x10", 10, 3), ("12x12", 8, 4), ("12x12", 12, 3), ("12x12", 16, 4), ("16x16", 16, 4)]
#: The searches of the random-cake table: the default race, and each entrant alone.
SEARCHES = {
    "race (default)": {},
    "default restarts alone": {"portfolio": False},
    "Luby restarts alone": {"portfolio": False, "clingo_args": ["--restarts=L,128"]},
}


def asp_time(name: str, encoding=None) -> float | None:
    # The comparison encodings run as they were measured before the race: alone.
    result = solve("cake", name, timeout=LIMIT, encoding=encoding, portfolio=encoding is None)
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
    """First solutions of cakes made by `aspuzzles generate cake`, with each naming of
    the pieces the encoding takes (first cells, numbers), and the Python search."""
    game, rows = get_puzzle("cake"), []
    for size, pieces, kinds in GENERATED:
        for seed in (1, 2):
            args = argparse.Namespace(
                size=size, pieces=pieces, kinds=kinds, seed=seed, random=False
            )
            instance = game.parse(game.generate(args), "generated")
            name = f"{size} {pieces} pieces {kinds} kinds s{seed}"
            times = []
            for named in ("first_cell", "number"):
                with named_as(named):
                    result = solve_instance(game, instance, name, timeout=LIMIT)
                times.append(None if result.status == "timeout" else result.stats["total_time"])
            grid = list(instance.grid)
            python, _ = limited(LIMIT, lambda g=grid, k=instance.pieces: cake_baseline.first(g, k))
            rows.append([name, *(seconds(t, LIMIT) for t in times), seconds(python, LIMIT)])
    print(
        f"\nGenerated cakes (`aspuzzles generate cake --size S --pieces K --kinds T --seed N`), "
        f"first solution, limit {LIMIT:g} s each:\n"
    )
    table(["cake", "first cells (default)", "numbered", "Python search"], rows)
    random_cakes()


@contextmanager
def named_as(naming: str) -> Iterator[None]:
    """Solve with the pieces named one way, whatever the cake's size would choose."""
    saved = cake_module.naming
    cake_module.naming = lambda _instance: naming
    try:
        yield
    finally:
        cake_module.naming = saved


def random_cakes() -> None:
    """Cakes with toppings strewn at random: some have no solution, and search times
    are heavy-tailed, which is what racing two restart policies is for."""
    game, rows = get_puzzle("cake"), []
    answered = dict.fromkeys(SEARCHES, 0)
    for size, pieces, kinds in RANDOM:
        for seed in (1, 2, 3):
            args = argparse.Namespace(size=size, pieces=pieces, kinds=kinds, seed=seed, random=True)
            instance = game.parse(game.generate(args), "random")
            name = f"{size} {pieces} pieces {kinds} kinds s{seed}"
            row, outcome = [name], "-"
            for search, options in SEARCHES.items():
                result = solve_instance(game, instance, name, timeout=LIMIT, **options)
                if result.status == "timeout":
                    row.append(seconds(None, LIMIT))
                    continue
                answered[search] += 1
                outcome = "solved" if result.status == "solved" else "none"
                row.append(seconds(result.stats["total_time"], LIMIT))
            rows.append([name, outcome, *row[1:]])
    print(
        "\nRandom cakes (`aspuzzles generate cake --size S --pieces K --kinds T --seed N "
        f"--random`), first solution or proof of none, limit {LIMIT:g} s each:\n"
    )
    table(["cake", "answer", *SEARCHES], rows)
    total = 3 * len(RANDOM)
    print("\nAnswered: " + ", ".join(f"{search} {n} of {total}" for search, n in answered.items()))

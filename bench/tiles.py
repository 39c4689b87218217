"""Tiles: the seed's 3x3, counting against plain backtracking, framed e2 boards, the
hardest of them again with hint pieces, and score mode.

Targets: the seed's 3x3 in under 20 ms in-process; counting all solutions of a 4x4 with
4 kinds and a 5x5 with 6 kinds faster than a plain Python backtracking search; framed
8x8 and 10x10 boards with a dozen colours solved in seconds.
"""

from __future__ import annotations

import random

from tests.oracles import tiles_baseline

from aspuzzles import load_instance, solve, solve_instance
from aspuzzles.puzzles.tiles import PUZZLE
from aspuzzles.puzzles.tiles.generate import planted_tiles
from aspuzzles.registry import get_puzzle

from common import ROOT, SHARED_DATA, best_of, limited, ratio, seconds, table

LIMIT = 60.0
HINT_LIMIT = 30.0
SCORE_LIMIT = 30.0
#: The shipped boards of the larger-board and score-mode tables.
SHIPPED_LARGE = [
    ROOT / "instances" / "tiles" / f"{n}.txt"
    for n in (
        "gen-e2-8x8-12-kinds",
        "gen-e2-8x8-4-border-12-inner",
        "gen-e2-10x10-16-kinds",
        "gen-animal-10x10-24-kinds",
    )
]
#: The 10x10 boards of bench/data that no setting solves in 60 s, as generated:
#: (name, inner colours, frame colours, seed).
HINTED = [
    ("e2-10x10-12-colours-seed11", 12, 0, 11),
    ("e2-10x10-4-border-12-inner-seed1", 12, 4, 1),
    ("e2-10x10-5-border-17-inner-seed1", 17, 5, 1),
]


def run() -> None:
    seed_time, seed = best_of(10, lambda: solve("tiles", "seed-big-cats-3x3"))
    unique_time, _ = best_of(10, lambda: solve("tiles", "seed-big-cats-3x3", unique=True))
    print(
        f"Seed 3x3: first solution {seed_time * 1000:.1f} ms, uniqueness up to rotation "
        f"{unique_time * 1000:.1f} ms (in-process, best of 10, parsing and checking "
        f"included; clingo's own time {seed.stats['clingo_total_time'] * 1000:.1f} ms).\n"
    )
    rows = []
    for name in [
        "seed-big-cats-3x3",
        "gen-animal-4x4-4-kinds",
        "gen-animal-5x5-6-kinds",
        "gen-e2-4x4-4-kinds",
        "gen-e2-5x5-6-kinds",
        "gen-e2-6x6-8-kinds",
    ]:
        instance = load_instance(get_puzzle("tiles"), name)[0]
        asp_time, result = best_of(1, lambda n=name: solve("tiles", n, count=True, timeout=LIMIT))
        ours = asp_time if result.complete else None
        python, raw = limited(LIMIT, lambda i=instance: tiles_baseline.count_raw(i))
        rows.append(
            [
                name,
                result.count,
                result.count_details.get("count_raw", "-"),
                seconds(ours, LIMIT),
                raw if raw is not None else "-",
                seconds(python, LIMIT),
                ratio(python, ours, LIMIT),
            ]
        )
    print(f"Counting every solution (limit {LIMIT:g} s):\n")
    table(
        [
            "board",
            "count",
            "count_raw",
            "aspuzzles",
            "baseline raw",
            "Python backtracking",
            "speed-up",
        ],
        rows,
    )
    rows = []
    boards = list(SHIPPED_LARGE)
    boards += [ROOT / "bench" / "data" / f"e2-10x10-12-colours-seed{s}.txt" for s in (1, 11)]
    # Eternity II's own way: separate colours along the frame (4 + 12 and 5 + 17).
    boards += [
        ROOT / "bench" / "data" / f"e2-10x10-{n}-seed1.txt"
        for n in ("4-border-12-inner", "5-border-17-inner")
    ]
    boards += sorted((SHARED_DATA / "tiles").glob("*.txt"))
    for path in boards:
        result = solve("tiles", path, timeout=LIMIT)
        rows.append(
            [
                path.name,
                result.status,
                seconds(None if result.status == "timeout" else result.stats["total_time"], LIMIT),
                result.stats.get("conflicts", "-"),
            ]
        )
    print(f"\nFirst solution of larger boards (limit {LIMIT:g} s):\n")
    table(["board", "status", "time", "conflicts"], rows)
    hinted_boards()
    score_mode()


def hinted_boards() -> None:
    """The same hard boards with 1, 3 and 5 of their planted tiles given as hints
    (``aspuzzles generate tiles ... --fix N``: the tiles are unchanged), as Eternity II
    gives its centre piece and four clue pieces."""
    rows = []
    for name, kinds, border_kinds, seed in HINTED:
        row = [name]
        for fixed in (1, 3, 5):
            board = planted_tiles("e2", 10, 10, kinds, random.Random(seed), border_kinds, fixed)
            result = solve_instance(PUZZLE, board, timeout=HINT_LIMIT)
            solved = result.status == "solved"
            row.append(seconds(result.stats["total_time"] if solved else None, HINT_LIMIT))
        rows.append(row)
    print(f"\nThe same boards with hint pieces, first solution (limit {HINT_LIMIT:g} s):\n")
    table(["board", "1 hint", "3 hints", "5 hints"], rows)


def score_mode() -> None:
    """``--score`` (as few mismatched edges as possible): boards with a perfect placement,
    which the exact search's shortcuts find, and real boards without a known one, where
    the best placement found by the limit is what counts."""
    boards = list(SHIPPED_LARGE)
    boards.append(ROOT / "bench" / "data" / "e2-10x10-12-colours-seed1.txt")
    boards += [SHARED_DATA / "tiles" / n for n in ("meta10_10x10_e2.txt", "brendan8_8x8_e2.txt")]
    rows = []
    for path in boards:
        if not path.exists():
            continue
        result = solve("tiles", path, timeout=SCORE_LIMIT, options={"score": True})
        shared = load_instance(PUZZLE, path)[0].shared_edges
        rows.append(
            [
                path.name,
                result.status,
                "-" if result.cost is None else result.cost[0],
                "yes" if result.optimal else "no",
                "-" if result.cost is None else f"{shared - result.cost[0]} of {shared}",
                seconds(result.stats["total_time"] if result.optimal else None, SCORE_LIMIT),
            ]
        )
    print(f"\nScore mode, best placement (limit {SCORE_LIMIT:g} s):\n")
    table(["board", "status", "mismatches", "optimal", "matching edges", "time"], rows)

"""The census and the counting sweep (``make bench ARGS=census``): throughput on a
spread sample of units, and the time the whole census would take at that rate on 2
cores and on 8, 64 and 512 workers, beside the published Genius Square figures.

A sample is one ``--shard`` of the units (every N-th unit, so dense and sparse parts of
the range are both in it); the projection scales the sample's time by the placements it
covered. Results go to a fresh store in a temporary folder.
"""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path

from aspuzzles.census import census, census_space
from aspuzzles.registry import get_puzzle
from aspuzzles.sweep import sweep

#: The published figures (CatchemAL/genius-square, 2023 laptop).
PUBLISHED = (
    "published (CatchemAL/genius-square): every roll solved in 1.8 s (Python), 0.1 s (Rust); "
    "every roll counted in 26 min (Python), 25 s (Rust); fewest / most / median "
    "tilings a roll 11 / 22,317 / 1,340"
)
JOBS = 2


def _census_row(
    puzzle: str, shard: tuple[int, int], folder: Path, count: bool = False, limit: int | None = None
) -> None:
    game = get_puzzle(puzzle)
    space = census_space(game, {})[1]
    started = time.perf_counter()
    summary = census(
        game,
        {},
        folder / f"{puzzle}-{count}.sqlite",
        count=count,
        shard=shard,
        limit=limit,
        jobs=JOBS,
        progress=False,
    )
    seconds = time.perf_counter() - started
    share = summary.placements / math.comb(space.cells, space.chosen)
    per_core = summary.classes / seconds / JOBS
    whole = seconds * JOBS / share  # core-seconds for the whole census
    print(
        f"| {puzzle}{' --count' if count else ''} | {shard[0]}/{shard[1]} "
        f"({summary.units_done} units) | {summary.classes:,} "
        f"({summary.unsolvable:,} unsolvable) | {seconds:.1f} s | {per_core:.0f} classes/s "
        f"| {whole / 2 / 60:.0f} min | {whole / 8 / 60:.0f} min | {whole / 64 / 60:.1f} min "
        f"| {whole / 512:.0f} s |"
    )


def run() -> None:
    print(PUBLISHED)
    print()
    print(f"census on {JOBS} local worker processes; projections scale by placements covered")
    print()
    print("| puzzle | shard | classes | time | per core | 2 cores | 8 workers | 64 | 512 |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        _census_row("geniussquare", (500, 1000), Path(folder))
        _census_row("geniusstar", (500, 1000), Path(folder))
        _census_row("geniussquare", (500, 1000), Path(folder), count=True)
        _census_row("geniusstar", (500, 1000), Path(folder), count=True, limit=8)
        print()
        _square_sweeps(Path(folder))


def _square_sweeps(folder: Path) -> None:
    """The Genius Square's whole sweeps: one tiling for every roll, every roll's count,
    and the count with one roll per symmetry class (written for both rolls of the
    class). Goals and the Rust engine's times are those measured on this machine on
    2026-11-29 (issue #70: CatchemAL/genius-square's engine, whole commands); these
    times are in-process, the interpreter's start not included."""
    game = get_puzzle("geniussquare")
    print("| sweep geniussquare | rolls | time | goal | Rust engine here | summary |")
    print("|---|---|---|---|---|---|")
    for options, goal, published in (
        ({}, "1.0 s", "0.98 s"),
        ({"count": True}, "142 s (aim 100 s)", "142 s"),
        ({"count": True, "reduce": True}, "50 s", "-"),
    ):
        started = time.perf_counter()
        summary = sweep(
            game, options, folder / f"sweep-{len(options)}.tsv", jobs=JOBS, progress=False
        )
        seconds = time.perf_counter() - started
        shown = "; ".join(line.split(":")[0] for line in summary.extremes()) or (
            f"{summary.solvable:,} solvable"
        )
        flags = " ".join(f"--{name}" for name in options)
        print(
            f"| {flags or '(one tiling each)'} | {summary.total:,} | {seconds:.1f} s | {goal} "
            f"| {published} | {shown} |"
        )

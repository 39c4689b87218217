"""Small boards answered in Python before clingo starts, against clingo's own search.

Cakes up to 100 cells (one answer), tiles boards up to 4x4 (one answer and the count)
and single dice rolls (one answer) are searched in Python first with the shipped
encoding (``Strategy.answer``, ``Strategy.count``). Each shipped instance is solved in
the Python API both ways, the second with the puzzle's Python search switched off (as
for an edited encoding), medians of ``ROUNDS`` calls after one to warm up; the
verdicts must agree.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aspuzzles
from aspuzzles.kit.dice import DiceStrategy
from aspuzzles.puzzles.cake import CakeStrategy
from aspuzzles.puzzles.tiles.search import TilesStrategy

from common import ROOT, table

ROUNDS = 5
#: Boards whose clingo search alone takes seconds are left out of the table.
SKIPPED = ("hard-", "12x12", "10x10", "3x5")


def _median(call: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds, the median of ``ROUNDS`` calls after one to warm up, and its result."""
    result = call()
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def _off(strategy: type, slot: str) -> Callable[[], None]:
    """Switch the strategy's Python search off; the returned call switches it back."""
    kept = getattr(strategy, slot)
    setattr(strategy, slot, lambda self, *_args, **_kwargs: None)
    return lambda: setattr(strategy, slot, kept)


def _row(puzzle: str, instance: str, strategy: type, slot: str, **ask: Any) -> list[Any]:
    def solve() -> Any:
        return aspuzzles.solve(puzzle, instance, statistics=False, **ask)

    ours, answered = _median(solve)
    back = _off(strategy, slot)
    try:
        alone, by_clingo = _median(solve)
    finally:
        back()
    assert (answered.status, answered.count) == (by_clingo.status, by_clingo.count), instance
    in_python = "python_search_time" in answered.stats
    what = "count" if ask.get("count") else "answer"
    figure = f"count {answered.count}" if ask.get("count") else answered.status
    return [
        f"{puzzle} {instance} ({what})",
        figure,
        "yes" if in_python else "no",
        ours,
        alone,
        f"{ours / alone:.2f}x",
    ]


def _shipped(puzzle: str, largest_cells: int) -> list[str]:
    names = []
    for path in sorted((ROOT / "instances" / puzzle).glob("*.txt")):
        if any(part in path.stem for part in SKIPPED):
            continue
        parsed = aspuzzles.load(puzzle, path.stem).parsed
        cells = _cells(parsed)
        if cells <= largest_cells:
            names.append(path.stem)
    return names


def _cells(parsed: Any) -> int:
    if hasattr(parsed, "lattice"):
        return len(parsed.lattice)
    return parsed.rows * parsed.cols


def run() -> None:
    load_before = os.getloadavg()[0]
    rows = [_row("cake", name, CakeStrategy, "answer") for name in _shipped("cake", 100)]
    for name in _shipped("tiles", 16):
        rows.append(_row("tiles", name, TilesStrategy, "answer"))
        rows.append(_row("tiles", name, TilesStrategy, "count", count=True))
    for puzzle in ("geniusstar", "geniussquare"):
        rows.append(
            _row(
                puzzle,
                Path(aspuzzles.get_puzzle(puzzle).default_instance).stem,
                DiceStrategy,
                "answer",
            )
        )
    print(
        f"In-process medians of {ROUNDS}; load average {load_before:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after ({os.cpu_count()} cores)."
    )
    table(["instance", "verdict", "in Python", "aspuzzles", "clingo alone", "ratio"], rows)


if __name__ == "__main__":
    run()

"""Breadth-first search over board states in plain Python (the benchmark baseline).

Level by level from the start board: every legal move of every board, equal boards
merged, dead boards (a class that can no longer clear) dropped. The first level that
holds the empty board is the minimum. It is the puzzle module's `breadth_first` on its
simulator, so it plays by exactly the same rules as the checker.
"""

from __future__ import annotations

from aspuzzles.puzzles.capture.model import Board, Move
from aspuzzles.puzzles.capture.plans import breadth_first


def shortest(board: Board) -> list[Move] | None:
    """A shortest move list that clears ``board``; ``None`` if none exists: the puzzle
    module's breadth-first search with every board of each depth kept (the quick plan
    of the search from above is the same loop cut to a beam)."""
    plan = breadth_first(board)
    return None if plan is None else list(plan)


if __name__ == "__main__":  # python tests/oracles/capture_baseline.py BOARD...
    import sys
    import time

    from aspuzzles.puzzles.capture.formats import parse_capture

    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as handle:
            start = parse_capture(handle.read(), name).board
        began = time.perf_counter()
        moves = shortest(start)
        took = time.perf_counter() - began
        print(name, None if moves is None else len(moves), f"{took:.2f}s", flush=True)

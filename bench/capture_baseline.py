"""Breadth-first search over board states in plain Python (the benchmark baseline).

Level by level from the start board: every legal move of every board, equal boards
merged, dead boards (a class that can no longer clear) dropped. The first level that
holds the empty board is the minimum. It uses the puzzle module's simulator, so it
plays by exactly the same rules as the checker.
"""

from __future__ import annotations

from aspuzzles.puzzles.capture import (
    EMPTY,
    SIZE,
    Board,
    Move,
    dead_reason,
    legal_moves,
    settle,
    swapped,
)

EMPTY_BOARD = EMPTY * SIZE * SIZE


def shortest(board: Board, max_moves: int = 64) -> list[Move] | None:
    """A shortest move list that clears ``board``; ``None`` if none exists."""
    if board == EMPTY_BOARD:
        return []
    if dead_reason(board):
        return None
    frontier: dict[Board, tuple[Move, ...]] = {board: ()}
    seen = {board}
    for _ in range(max_moves):
        following: dict[Board, tuple[Move, ...]] = {}
        for state, path in frontier.items():
            for move in legal_moves(state):
                after = settle(swapped(state, move)).board  # legal: no need to ask again
                if after == EMPTY_BOARD:
                    return [*path, move]
                if after in seen or dead_reason(after):
                    continue
                seen.add(after)
                following[after] = (*path, move)
        if not following:
            return None
        frontier = following
    return None


if __name__ == "__main__":  # python bench/capture_baseline.py BOARD...
    import sys
    import time

    from aspuzzles.puzzles.capture import parse_capture

    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as handle:
            start = parse_capture(handle.read(), name).board
        began = time.perf_counter()
        moves = shortest(start)
        took = time.perf_counter() - began
        print(name, None if moves is None else len(moves), f"{took:.2f}s", flush=True)

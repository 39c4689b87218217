"""Undead boards solved by CP-SAT through PyPI's ``multi-puzzle-solver``, timed in its
own process: the peer ``bench/peers.py`` compares aspuzzles against.

Runs in the peers' environment (``make bench-peers`` makes ``.venv-peers``), never in
aspuzzles' own. Reads a JSON list of boards from standard input, each ``{"grid": [rows
of ".", "/", "\\\\" or a given "G", "V", "Z"], "clues": [clockwise from the top-left
corner, null for none], "totals": {"G": n, "V": n, "Z": n}}``, and prints a JSON list
with each board's median time (model built, solutions enumerated up to two, as a
uniqueness verdict needs: ``solve_and_print`` would enumerate them all) and its number
of solutions (1 or 2).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import numpy as np
from puzzle_solver.core.utils import get_pos
from puzzle_solver.core.utils_ortools import SingleSolution, generic_solve_all
from puzzle_solver.puzzles.undead import undead

MONSTERS = {"G": undead.Monster.GHOST, "V": undead.Monster.VAMPIRE, "Z": undead.Monster.ZOMBIE}


def board_of(spec: dict) -> undead.Board:
    rows = spec["grid"]
    height, width = len(rows), len(rows[0])
    cells = np.array([[{"/": "//", "\\": "\\"}.get(c, " ") for c in row] for row in rows])
    clues = [-1 if clue is None else clue for clue in spec["clues"]]
    sides = {
        "top": np.array(clues[:width]),
        "right": np.array(clues[width : width + height]),
        "bottom": np.array(clues[width + height : 2 * width + height][::-1]),
        "left": np.array(clues[2 * width + height :][::-1]),
    }
    totals = {MONSTERS[kind]: count for kind, count in spec["totals"].items()}
    board = undead.Board(board=cells, sides=sides, monster_count=totals)
    # The library takes no given monsters: each is fixed here, on its own variables.
    for row, line in enumerate(rows):
        for col, content in enumerate(line):
            if content in MONSTERS:
                board.model.Add(board.model_vars[(get_pos(x=col, y=row), MONSTERS[content])] == 1)
    return board


def solutions_of(board: undead.Board) -> int:
    """Solutions up to two, read as ``solve_and_print`` reads them."""

    def read(board: undead.Board, solver: object) -> SingleSolution:
        chosen = {key for key, var in board.model_vars.items() if solver.BooleanValue(var)}
        return SingleSolution(assignment={pos: monster.name[0] for pos, monster in chosen})

    return len(generic_solve_all(board, read, max_solutions=2, verbose=False))


def main() -> None:
    boards, repeat = json.load(sys.stdin), int(sys.argv[1]) if len(sys.argv) > 1 else 5
    results = []
    for spec in boards:
        times, solutions = [], 0
        for _ in range(repeat):
            started = time.perf_counter()
            solutions = solutions_of(board_of(spec))
            times.append(time.perf_counter() - started)
        results.append({"median": statistics.median(times), "solutions": solutions})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()

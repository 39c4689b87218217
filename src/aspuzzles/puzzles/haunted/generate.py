"""Making new boards: random mirrors and monsters, clues traced from them, made unique by
giving monsters where two answers differ, and clues dropped on request.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from clingo import Function, Number

from ...driver import Session, solve_instance
from ...puzzle import Puzzle
from .model import KINDS, HauntedInstance
from .sight import clues_of

#: How many conflicts a uniqueness proof may take while ``--sparse`` drops clues.
SPARSE_CONFLICTS = 2000


def without_spare_clues(
    puzzle: Puzzle[HauntedInstance, Any], instance: HauntedInstance, rng: random.Random
) -> HauntedInstance:
    """The puzzle with every clue left out (in random order) whose absence keeps the
    answer unique. The clues are facts, not assumptions, so each trial solves afresh.
    With few clues left a uniqueness proof can take long, so each trial stops after
    ``SPARSE_CONFLICTS`` conflicts and then keeps its clue: a limit on conflicts, not on
    time, so that a seed makes the same puzzle on every machine."""
    clues = list(instance.clues)
    lines = [line for line, clue in enumerate(clues) if clue is not None]
    rng.shuffle(lines)
    for line in lines:
        kept, clues[line] = clues[line], None
        trial = replace(instance, clues=tuple(clues))
        limit = (f"--solve-limit={SPARSE_CONFLICTS}",)
        if solve_instance(puzzle, trial, unique=True, clingo_args=limit).verdict != "unique":
            clues[line] = kept
    return replace(instance, clues=tuple(clues))


def generate_unique(
    puzzle: Puzzle[HauntedInstance, Any],
    width: int,
    height: int,
    rng: random.Random,
    mirror_share: float,
) -> tuple[HauntedInstance, tuple[str, ...]]:
    """A random board with clues from the tracer, made unique by giving monsters;
    returns it with the planted (and only) solution.

    Each round asks the solver for two solutions; while there are two, the monster of
    the planted board at a cell where they differ is given, which removes at least one
    of them. The planted board always stays a solution, so this ends. A last pass then
    removes each given that uniqueness does not need, as Tatham's generators do.
    """
    cells = [
        "/" if draw < mirror_share / 2 else "\\" if draw < mirror_share else rng.choice("GVZ")
        for draw in (rng.random() for _ in range(width * height))
    ]
    planted = tuple("".join(cells[row * width : (row + 1) * width]) for row in range(height))
    totals = {letter: "".join(planted).count(letter) for letter in "GVZ"}
    clues = clues_of(planted)
    givens = [["." if cell in KINDS else cell for cell in row] for row in planted]

    def board() -> HauntedInstance:
        return HauntedInstance(width, height, totals, tuple("".join(r) for r in givens), clues)

    # One grounding for the whole search: givens are assumptions on monster/3 atoms.
    grounding = Session(puzzle, board())

    def solutions() -> list[tuple[str, ...]]:
        assumed = [
            (Function("monster", [Number(r + 1), Number(c + 1), Function(KINDS[kind])]), True)
            for r, row in enumerate(givens)
            for c, kind in enumerate(row)
            if kind in KINDS
        ]
        return [s.data.grid for s in grounding.solutions(board(), assumed, models=2)]

    while len(found := solutions()) > 1:
        other = next(grid for grid in found if grid != planted)
        row, col = next(
            (r, c) for r in range(height) for c in range(width) if other[r][c] != planted[r][c]
        )
        givens[row][col] = planted[row][col]
    # Then drop every given that uniqueness does not need (in random order).
    given_cells = [(r, c) for r in range(height) for c in range(width) if givens[r][c] in KINDS]
    rng.shuffle(given_cells)
    for row, col in given_cells:
        givens[row][col] = "."
        if len(solutions()) > 1:
            givens[row][col] = planted[row][col]
    return board(), planted

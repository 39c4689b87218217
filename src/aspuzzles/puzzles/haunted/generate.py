"""Making new boards: random mirrors and monsters, clues traced from them, made unique
and graded without giving any monster (a cell that stays open, or that needs more
reasoning than asked, becomes a mirror and the clues are traced again), or, with
``--givens``, made unique by giving monsters where two answers differ; clues dropped
on request.
"""

from __future__ import annotations

import random
from typing import Any

from clingo import Function, Number

from ...errors import InputError
from ...generating import grounded_once, judged
from ...puzzle import Puzzle
from .model import DIFFICULTIES, KINDS, NORMAL_TRIALS, HauntedInstance
from .sight import clues_of, trace
from .sight import entry as line_entry

#: The deepest reasoning a difficulty's grading tries (the difficulties: ``model``).
DEEPEST = {"easy": "propagation", "normal": "trial", "tricky": "trial", "hard": "search"}
#: Random boards tried before giving up, mirrors added to one before it is dropped, and
#: open cells tried for one repair.
ATTEMPTS = 200
REPAIRS_PER_CELL = 0.5
TRIES_PER_REPAIR = 4

#: How many conflicts a uniqueness proof may take while ``--sparse`` drops clues, and
#: in each round of ``--givens`` (giving monsters, then dropping those uniqueness does
#: not need): a proof that takes longer keeps its clue or given (on a 20x20 board,
#: some take seconds each).
PROOF_CONFLICTS = 2000


def without_spare_clues(
    puzzle: Puzzle[HauntedInstance, Any], instance: HauntedInstance, rng: random.Random
) -> HauntedInstance:
    """The puzzle with every clue left out (in random order) whose absence keeps the
    answer unique. The clues are facts, not assumptions, so each trial solves afresh.
    With few clues left a uniqueness proof can take long, so each trial stops after
    ``PROOF_CONFLICTS`` conflicts and then keeps its clue: a limit on conflicts, not on
    time, so that a seed makes the same puzzle on every machine."""
    clues = list(instance.clues)
    lines = [line for line, clue in enumerate(clues) if clue is not None]
    rng.shuffle(lines)
    for line in lines:
        kept, clues[line] = clues[line], None
        trial = instance._replace(clues=tuple(clues))
        # One thread: two threads' conflicts add up in an order no seed repeats.
        limit = (f"--solve-limit={PROOF_CONFLICTS}", "--parallel-mode=1")
        if judged(puzzle, trial, unique=True, clingo_args=limit).verdict != "unique":
            clues[line] = kept
    return instance._replace(clues=tuple(clues))


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
    of them; a round that finds neither a second solution nor a proof of none within
    ``PROOF_CONFLICTS`` conflicts gives a monster at random. The planted board always
    stays a solution, so this ends with a proof of uniqueness. A last pass then
    removes each given that uniqueness does not need, as Tatham's generators do, where
    it can prove so within ``PROOF_CONFLICTS`` conflicts (a large board keeps a few
    givens more, and is made in seconds, not minutes).
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
    grounding = grounded_once(puzzle, board())

    def solutions() -> list[tuple[str, ...]] | None:
        """The board's solutions, up to two (None: PROOF_CONFLICTS ran out first)."""
        assumed = [
            (Function("monster", [Number(r + 1), Number(c + 1), Function(KINDS[kind])]), True)
            for r, row in enumerate(givens)
            for c, kind in enumerate(row)
            if kind in KINDS
        ]
        found, complete = grounding.search(board(), assumed, 2, PROOF_CONFLICTS)
        return [s.data.grid for s in found] if complete else None

    while (found := solutions()) is None or len(found) > 1:
        if found is None:  # no second answer nor proof soon: any open cell is given
            row, col = rng.choice(
                [(r, c) for r in range(height) for c in range(width) if givens[r][c] == "."]
            )
        else:
            other = next(grid for grid in found if grid != planted)
            row, col = next(
                (r, c) for r in range(height) for c in range(width) if other[r][c] != planted[r][c]
            )
        givens[row][col] = planted[row][col]
    # Then drop every given that uniqueness does not need (in random order), where the
    # proof that it is not needed is found within PROOF_CONFLICTS conflicts.
    given_cells = [(r, c) for r in range(height) for c in range(width) if givens[r][c] in KINDS]
    rng.shuffle(given_cells)
    for row, col in given_cells:
        givens[row][col] = "."
        found = solutions()
        if found is None or len(found) > 1:
            givens[row][col] = planted[row][col]
    return board(), planted


# --------------------------------------------------------------- graded, no givens
def degenerate(grid: tuple[str, ...]) -> str | None:
    """Why a planted board would make a poor puzzle, or None: a kind absent (its total
    says nothing), or a line of sight that crosses no monster cell (a clue that says
    nothing). Such boards are not offered."""
    cells = "".join(grid)
    for letter in "GVZ":
        if letter not in cells:
            return f"no {KINDS[letter]}"
    height, width = len(grid), len(grid[0])
    for line in range(2 * (width + height)):
        if not trace(grid, line):
            return f"line {line} crosses no monster cell"
    return None


def _with_sight(grid: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """The board with every line of sight given a monster cell: a line that crosses
    none has its first mirror replaced by a monster (which may bend other lines, so
    it repeats; every step removes a mirror, so it ends)."""
    height, width = len(grid), len(grid[0])
    while True:
        empty = next((n for n in range(2 * (width + height)) if not trace(grid, n)), None)
        if empty is None:
            return grid
        (row, col), _ = line_entry(width, height, empty)
        line = grid[row]
        grid = (*grid[:row], line[:col] + rng.choice("GVZ") + line[col + 1 :], *grid[row + 1 :])


def clued(grid: tuple[str, ...]) -> HauntedInstance:
    """The puzzle of a planted board: its mirrors, totals and every clue; no monster."""
    totals = {letter: "".join(grid).count(letter) for letter in "GVZ"}
    blank = tuple("".join("." if cell in KINDS else cell for cell in row) for row in grid)
    return HauntedInstance(len(grid[0]), len(grid), totals, blank, clues_of(grid))


def generate_graded(
    puzzle: Puzzle[HauntedInstance, Any],
    width: int,
    height: int,
    rng: random.Random,
    mirror_share: float,
    difficulty: str,
) -> tuple[HauntedInstance, tuple[str, ...]]:
    """A puzzle with no given monster, unique, that grades exactly at ``difficulty``.

    A random board is graded step by step (``hinting.grade_steps``); the grading stops
    at the first step beyond the difficulty, or where no step decides the cells left
    (a second solution). One of the cells still open there becomes a mirror, the clues
    are traced again, and the board is graded afresh. A repair that makes the board
    easier than asked is undone and another open cell tried; a board that cannot be
    brought to the difficulty is dropped for a new one. Only the random draws and the
    solver's deterministic steps decide, so a seed gives the same puzzle on every
    machine (no time limits)."""
    repairs = max(4, int(REPAIRS_PER_CELL * width * height))
    for _ in range(ATTEMPTS):
        grid = _with_sight(random_board(width, height, rng, mirror_share), rng)
        if degenerate(grid) is not None:
            continue
        verdict, open_cells = _judge(puzzle, grid, difficulty)
        for _ in range(repairs):
            if verdict != "harder":
                break
            verdict, grid, open_cells = _repaired(puzzle, grid, open_cells, difficulty, rng)
        if verdict == "match":
            return clued(grid), grid
    raise InputError(
        f"no {difficulty} {width}x{height} puzzle found in {ATTEMPTS} boards "
        "(try another size, seed or --mirrors)"
    )


def _repaired(
    puzzle: Puzzle[HauntedInstance, Any],
    grid: tuple[str, ...],
    open_cells: list[tuple[int, int]],
    difficulty: str,
    rng: random.Random,
) -> tuple[str, tuple[str, ...], list[tuple[int, int]]]:
    """The board with one open cell made a mirror: the first, in random order, that
    does not make it easier than asked nor degenerate; ``easier`` if none does."""
    cells = list(open_cells)
    rng.shuffle(cells)
    for cell in cells[:TRIES_PER_REPAIR]:
        trial = _with_sight(_with_mirror(grid, cell, rng), rng)
        if degenerate(trial) is not None:
            continue
        verdict, still_open = _judge(puzzle, trial, difficulty)
        if verdict != "easier":
            return verdict, trial, still_open
    return "easier", grid, []


def random_board(width: int, height: int, rng: random.Random, share: float) -> tuple[str, ...]:
    """A solved board drawn at random: each cell a mirror with chance ``share`` (either
    way alike), else a monster of a kind drawn alike; ``clued`` makes its puzzle."""
    cells = [
        "/" if draw < share / 2 else "\\" if draw < share else rng.choice("GVZ")
        for draw in (rng.random() for _ in range(width * height))
    ]
    return tuple("".join(cells[row * width : (row + 1) * width]) for row in range(height))


def _with_mirror(
    grid: tuple[str, ...], cell: tuple[int, int], rng: random.Random
) -> tuple[str, ...]:
    row, col = cell
    line = grid[row]
    return (*grid[:row], line[:col] + rng.choice("/\\") + line[col + 1 :], *grid[row + 1 :])


def _judge(
    puzzle: Puzzle[HauntedInstance, Any], grid: tuple[str, ...], difficulty: str
) -> tuple[str, list[tuple[int, int]]]:
    """``match``, ``easier`` or ``harder``; for ``harder``, the cells still open
    where the grading stopped (beyond the difficulty, or a second solution)."""
    from ...hinting import BEYOND, OPEN, grade_steps  # loaded only to generate

    trials = searches = 0
    stopped: list[tuple[int, int]] = []
    for level, entry in grade_steps(puzzle, clued(grid), deepest=DEEPEST[difficulty]):
        cell = (entry.arguments[0].number - 1, entry.arguments[1].number - 1)
        if level in (OPEN, BEYOND):
            stopped.append(cell)
            continue
        trials += level == "trial"
        searches += level == "search"
        beyond = (difficulty == "normal" and trials > NORMAL_TRIALS) or (
            difficulty == "tricky" and searches
        )
        if beyond:
            return "harder", [cell]
    if stopped:
        return "harder", sorted(set(stopped))
    if difficulty == "hard" and not searches:
        return "easier", []
    if difficulty == "tricky" and trials <= NORMAL_TRIALS:
        return "easier", []
    if difficulty == "normal" and not trials:
        return "easier", []
    return "match", []


__all__ = ["DIFFICULTIES", "generate_graded", "generate_unique", "without_spare_clues"]

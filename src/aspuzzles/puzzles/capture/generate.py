"""Planted boards: a cleared board played backwards, so that a plan of N moves exists."""

from __future__ import annotations

import random

from ...errors import InputError
from .model import DIRECTIONS, EMPTY, FLAMING, SIZE, SKULL, Board, Move
from .rules import columns_of, fall, from_columns, illegal_reason, move_between, play, runs, swapped


def unplay(board: Board, kinds: str, rng: random.Random) -> Board | None:
    """A settled board one move before ``board``: insert a run of three, then undo a
    swap that completes it. ``None`` when the random attempt does not check out."""
    columns = columns_of(board)
    kind = rng.choice(kinds)
    if rng.random() < 0.5:  # a horizontal run at one height in three columns
        first = rng.randrange(SIZE - 2)
        height = rng.randint(0, min(len(columns[first + k]) for k in range(3)))
        for k in range(3):
            columns[first + k].insert(height, kind)
    else:  # a vertical run inside one column
        col = rng.randrange(SIZE)
        height = rng.randint(0, len(columns[col]))
        columns[col][height:height] = [kind] * 3
    if any(len(stack) > SIZE for stack in columns):
        return None
    with_run = from_columns(columns)
    cells = [cell for run in runs(with_run) for cell in run if with_run[cell] == kind]
    if not cells:
        return None
    cell = rng.choice(cells)
    direction = rng.choice(list(DIRECTIONS))
    row, col = divmod(cell, SIZE)
    undo = swapped(with_run, Move(row, col, direction))
    if undo is None or undo != fall(undo) or runs(undo):
        return None
    redo = move_between(Move(row, col, direction).target, (row, col))
    if illegal_reason(undo, redo) is not None or play(undo, redo).board != board:
        return None
    return undo


def planted_board(moves: int, kinds: str, rng: random.Random, tries: int = 2000) -> Board:
    """A board that ``moves`` moves clear (maybe fewer do): built backwards from the
    empty board, one undone move at a time, each checked forwards by the simulator."""
    board = EMPTY * (SIZE * SIZE)
    for _ in range(moves):
        for _ in range(tries):
            earlier = unplay(board, kinds, rng)
            if earlier is not None:
                board = earlier
                break
        else:
            raise InputError(f"could not plant {moves} moves on an 8x8 board; try fewer")
    return board


def with_flaming_skulls(board: Board, count: int, rng: random.Random) -> Board:
    """Turn ``count`` skulls (as many as there are) into flaming skulls."""
    skulls = [cell for cell, tile in enumerate(board) if tile == SKULL]
    cells = list(board)
    for cell in rng.sample(skulls, min(count, len(skulls))):
        cells[cell] = FLAMING
    return "".join(cells)

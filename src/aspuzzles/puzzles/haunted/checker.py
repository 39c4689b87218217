"""The independent checker: every rule walked afresh on a filled board, sharing no code
with the facts the encoding is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import KINDS, MIRRORS, HauntedInstance


def check_board(instance: HauntedInstance, board: Sequence[str]) -> list[str]:
    """The rules, checked on a filled board by walking every line of sight afresh."""
    if len(board) != instance.height or any(len(row) != instance.width for row in board):
        return [f"board is not {instance.width}x{instance.height}"]
    problems = _cell_problems(instance, board)
    for letter, total in instance.totals.items():
        placed = sum(row.count(letter) for row in board)
        if placed != total:
            problems.append(f"{placed} {KINDS[letter]}s placed, {total} required")
    if problems:
        return problems
    for line, clue in enumerate(instance.clues):
        seen = _count_seen(board, line)
        if clue is not None and seen != clue:
            problems.append(f"line {line + 1} sees {seen} monsters, its clue says {clue}")
    return problems


def _cell_problems(instance: HauntedInstance, board: Sequence[str]) -> list[str]:
    """Mirrors stay, given monsters stay, every other cell holds a monster."""
    problems = []
    for row, (given_row, filled_row) in enumerate(zip(instance.grid, board, strict=True)):
        for col, (given, filled) in enumerate(zip(given_row, filled_row, strict=True)):
            if (given in MIRRORS or filled in MIRRORS) and given != filled:
                problems.append(f"cell ({row + 1},{col + 1}) changes a mirror")
            elif given in KINDS and filled != given:
                problems.append(f"cell ({row + 1},{col + 1}) must hold the given {given}")
            elif given == "." and filled not in KINDS:
                problems.append(f"cell ({row + 1},{col + 1}) holds no monster")
    return problems


def _count_seen(board: Sequence[str], line: int) -> int:
    """Walk one line of sight, counting what is visible at each step."""
    height, width = len(board), len(board[0])
    turn = {
        ("/", "D"): "L",
        ("/", "U"): "R",
        ("/", "L"): "D",
        ("/", "R"): "U",
        ("\\", "D"): "R",
        ("\\", "U"): "L",
        ("\\", "L"): "U",
        ("\\", "R"): "D",
    }
    step = {"D": (1, 0), "U": (-1, 0), "L": (0, -1), "R": (0, 1)}
    edge = 0
    for edge, length in enumerate((width, height, width, height)):  # noqa: B007
        if line < length:
            break
        line -= length
    index = line
    heading = "DLUR"[edge]
    row, col = [
        (0, index),
        (index, width - 1),
        (height - 1, width - 1 - index),
        (height - 1 - index, 0),
    ][edge]
    behind_mirror, seen = False, 0
    while 0 <= row < height and 0 <= col < width:
        content = board[row][col]
        if content in MIRRORS:
            heading, behind_mirror = turn[content, heading], True
        elif content == "Z" or (content == "G") == behind_mirror:
            seen += 1
        d_row, d_col = step[heading]
        row, col = row + d_row, col + d_col
    return seen

"""Lines of sight: traced once in Python (ASP is bad at that) and handed to the encoding as
``crossings(Line,Row,Col,Side,Times)`` facts, with the places clues stand at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from .model import DOWN, LEFT, MIRRORS, RIGHT, UP


def entry(width: int, height: int, line: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where line ``line`` (clue index) enters the grid, and its direction."""
    if line < width:
        return (0, line), DOWN
    line -= width
    if line < height:
        return (line, width - 1), LEFT
    line -= height
    if line < width:
        return (height - 1, width - 1 - line), UP
    line -= width
    return (height - 1 - line, 0), RIGHT


def line_entering(
    width: int, height: int, cell: tuple[int, int], direction: tuple[int, int]
) -> int:
    """The line (clue index) that enters the grid at border cell ``cell`` heading in
    ``direction``: ``entry`` read backwards."""
    row, col = cell
    if direction == DOWN:
        return col
    if direction == LEFT:
        return width + row
    if direction == UP:
        return width + height + width - 1 - col
    return 2 * width + height + height - 1 - row


def opposite(grid: Sequence[str], line: int) -> int:
    """The line running along ``line``'s path the other way: the one entering where
    ``line`` leaves (a mirror turns a line by 90 degrees, never back, so it is never
    ``line`` itself)."""
    *_, (row, col, (d_row, d_col)) = walk(grid, line)
    return line_entering(len(grid[0]), len(grid), (row, col), (-d_row, -d_col))


def opposite_pairs(grid: Sequence[str]) -> list[tuple[int, int]]:
    """Every path's two lines (the lower first, in the lower's order), each path
    walked once."""
    pairs: list[tuple[int, int]] = []
    paired: set[int] = set()
    for line in range(2 * (len(grid) + len(grid[0]))):
        if line not in paired:
            other = opposite(grid, line)
            paired.add(other)
            pairs.append((line, other))
    return pairs


def reflect(direction: tuple[int, int], mirror: str) -> tuple[int, int]:
    """The direction after a two-sided mirror: ``/`` swaps and negates, ``\\`` swaps."""
    d_row, d_col = direction
    return (-d_col, -d_row) if mirror == "/" else (d_col, d_row)


def walk(grid: Sequence[str], line: int) -> Iterator[tuple[int, int, tuple[int, int]]]:
    """Every cell a line passes, mirrors included, in order: (row, col, the direction
    it leaves the cell in)."""
    height, width = len(grid), len(grid[0])
    (row, col), direction = entry(width, height, line)
    while 0 <= row < height and 0 <= col < width:
        if grid[row][col] in MIRRORS:
            direction = reflect(direction, grid[row][col])
        yield row, col, direction
        row, col = row + direction[0], col + direction[1]


def trace(grid: Sequence[str], line: int) -> list[tuple[int, int, bool]]:
    """Every crossing of a monster cell by a line: (row, col, after a mirror?)."""
    crossings = []
    mirrored = False
    for row, col, _ in walk(grid, line):
        if grid[row][col] in MIRRORS:
            mirrored = True
        else:
            crossings.append((row, col, mirrored))
    return crossings


def path(grid: Sequence[str], line: int) -> list[tuple[float, float]]:
    """Line ``line`` as drawn: from the board's edge at its clue, through the centre of
    every cell it passes (mirrors included), to the edge where it leaves; (row, col)
    of each point, a cell's centre at (row + 0.5, col + 0.5)."""
    (row, col), (in_row, in_col) = entry(len(grid[0]), len(grid), line)
    passed = list(walk(grid, line))
    last_row, last_col, (out_row, out_col) = passed[-1]
    return [
        (row + 0.5 - in_row / 2, col + 0.5 - in_col / 2),
        *((row + 0.5, col + 0.5) for row, col, _ in passed),
        (last_row + 0.5 + out_row / 2, last_col + 0.5 + out_col / 2),
    ]


def crossings(grid: Sequence[str], line: int) -> Mapping[tuple[int, int, str], int]:
    """How often a line crosses each cell ``before`` and ``after`` its first mirror.
    A board's facts and its feasibility check both ask for every clue's line, so the
    answer for a board held as a tuple is kept (the last ``KEPT_LINES`` asked)."""
    if isinstance(grid, tuple):
        return _kept_crossings(grid, line)
    return _crossings(grid, line)


#: Lines whose crossings ``crossings`` keeps: every line of a few hundred boards.
KEPT_LINES = 4096


def _crossings(grid: Sequence[str], line: int) -> Mapping[tuple[int, int, str], int]:
    """(Read-only, as the answer may be shared.)"""
    return MappingProxyType(
        Counter(
            (row, col, "after" if mirrored else "before")
            for row, col, mirrored in trace(grid, line)
        )
    )


_kept_crossings = lru_cache(maxsize=KEPT_LINES)(_crossings)


#: Who is seen at a crossing before and after the line's first mirror.
VISIBLE = {"before": "VZ", "after": "GZ"}


def clues_of(grid: Sequence[str]) -> tuple[int, ...]:
    """The clues a fully filled grid shows (used by the generator): with no cell left
    to fill, the fewest and the most a line can see are what it sees."""
    height, width = len(grid), len(grid[0])
    return tuple(sight_range(grid, line)[0] for line in range(2 * (width + height)))


def sight_range(grid: Sequence[str], line: int) -> tuple[int, int]:
    """The fewest and the most monsters a line can see on a puzzle's grid: the given
    monsters it sees count towards both, a cell still to fill only towards the most."""
    fewest = most = 0
    for (row, col, side), times in crossings(grid, line).items():
        cell = grid[row][col]
        if cell == ".":
            most += times
        elif cell in VISIBLE[side]:
            fewest, most = fewest + times, most + times
    return fewest, most


def clue_place(width: int, height: int, line: int) -> str:
    """Where clue ``line`` (clockwise from the top-left corner) stands on the board:
    told by where its line of sight enters (``entry``)."""
    (row, col), direction = entry(width, height, line)
    return {
        DOWN: f"top of column {col + 1}",
        LEFT: f"right of row {row + 1}",
        UP: f"bottom of column {col + 1}",
        RIGHT: f"left of row {row + 1}",
    }[direction]

"""Haunted's board and answer, and the alphabet they are written in."""

from __future__ import annotations

from typing import NamedTuple

KINDS = {"G": "ghost", "V": "vampire", "Z": "zombie"}


LETTER = {name: letter for letter, name in KINDS.items()}


MIRRORS = "/\\"


MAX_SIDE = 64
#: The difficulties of ``generate --difficulty``, easiest first, as ``grade`` measures
#: them: ``easy`` is solved by propagation alone; ``normal`` needs at most
#: ``NORMAL_TRIALS`` failed trials and ``tricky`` more, neither any search; ``hard``
#: needs search. (Tatham's Normal puzzles grade with 0-2 failed trials but for six of
#: 24, most of his Tricky ones with 3-8 or search: see docs/haunted.md.)
DIFFICULTIES = ("easy", "normal", "tricky", "hard")
NORMAL_TRIALS = 2


# Direction vectors (row step, column step).
DOWN, UP, LEFT, RIGHT = (1, 0), (-1, 0), (0, -1), (0, 1)


class HauntedInstance(NamedTuple):
    """A board: ``grid`` rows of ``.`` (unknown monster), ``/``, ``\\`` or a given
    ``G``/``V``/``Z``; ``totals`` per kind letter; ``clues`` clockwise from the
    top-left corner (top edge left to right, right edge top to bottom, bottom edge right
    to left, left edge bottom to top), ``None`` where a board picture gives no clue."""

    width: int
    height: int
    totals: dict[str, int]
    grid: tuple[str, ...]
    clues: tuple[int | None, ...]

    def cells(self) -> list[tuple[int, int]]:
        """Monster cells (0-based), row-major."""
        return [
            (row, col)
            for row in range(self.height)
            for col in range(self.width)
            if self.grid[row][col] not in MIRRORS
        ]


class HauntedSolution(NamedTuple):
    """The board with every monster cell filled: rows of ``G V Z / \\``."""

    grid: tuple[str, ...]

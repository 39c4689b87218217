"""Planted boards: a random placement cut into tiles, shuffled and turned."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .model import COLOUR_STYLES, FRAME, HALVES, Fix, TilesInstance, partner, rotate

if TYPE_CHECKING:
    import random


def planted_tiles(
    style: str,
    rows: int,
    cols: int,
    kinds: int,
    rng: random.Random,
    border_kinds: int = 0,
    fixed: int = 0,
) -> TilesInstance:
    """A board with at least one solution: random edges cut into tiles, then each tile
    turned at random and the tiles shuffled; ``fixed`` of them, at random, are then
    given as hint pieces on their planted cells in their planted turns.

    With `border_kinds` (e2 only) the edges that run along the frame, between two
    neighbouring border cells, take colours 1..border_kinds and every other edge one of
    the `kinds` colours after them: Eternity II and its clue puzzles are built that way,
    so their border tiles form a ring puzzle of its own.
    """

    def random_edge(along_frame: bool = False) -> tuple[str, str]:
        """(value on the first side, value on the second side) of one shared edge."""
        if style in COLOUR_STYLES:
            if along_frame and border_kinds:
                colour = str(rng.randint(1, border_kinds))
            else:
                colour = str(border_kinds + rng.randint(1, kinds))
            return colour, colour
        kind = rng.randrange(kinds)
        animal = ANIMALS[kind] if kind < len(ANIMALS) else f"beast{kind}"
        value = f"{animal}_{rng.choice(HALVES)}"
        return value, partner(style, value)

    def outer() -> str:
        return FRAME if style == "e2" else random_edge()[0]  # free sides: anything

    grid = [[[""] * 4 for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if r == 0:
                grid[r][c][0] = outer()
            if c == 0:
                grid[r][c][3] = outer()
            if c + 1 < cols:
                grid[r][c][1], grid[r][c + 1][3] = random_edge(r in (0, rows - 1))
            else:
                grid[r][c][1] = outer()
            if r + 1 < rows:
                grid[r][c][2], grid[r + 1][c][0] = random_edge(c in (0, cols - 1))
            else:
                grid[r][c][2] = outer()
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    turned = [(cell, rng.randrange(4)) for cell in cells]  # (where it was cut, its turn)
    rng.shuffle(turned)
    tiles = tuple(rotate(grid[r][c], turns) for (r, c), turns in turned)
    fixes = _planted_fixes(turned, fixed, rng) if fixed else ()
    return TilesInstance(style, rows, cols, tiles, fixed=fixes)


def _planted_fixes(
    turned: Sequence[tuple[tuple[int, int], int]], count: int, rng: random.Random
) -> tuple[Fix, ...]:
    """``count`` tiles, drawn at random, fixed where they were cut and turned back to
    how they lay there (``turned[i]`` is tile i+1's 0-based cell and the turn it got)."""
    fixes = []
    for index in rng.sample(range(len(turned)), count):
        (row, col), turns = turned[index]
        fixes.append(Fix(row + 1, col + 1, index + 1, (4 - turns) % 4))
    return tuple(sorted(fixes))


ANIMALS = (
    "lion",
    "tiger",
    "cheetah",
    "panther",
    "puma",
    "lynx",
    "jaguar",
    "ocelot",
    "leopard",
    "serval",
    "caracal",
    "cougar",
)

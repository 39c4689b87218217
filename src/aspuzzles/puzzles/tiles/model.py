"""Tiles, boards and placements, and what makes two edges match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

SIDES = ("top", "right", "bottom", "left")


#: The two halves of an animal picture, by the names puzzle makers give them. A kind
#: uses one pair (a lion is cut into head and tail, or into top and bottom); an edge
#: matches the other half of its pair.
HALF_PAIRS = (("head", "tail"), ("top", "bottom"), ("front", "back"), ("upper", "lower"))


OTHER_HALF = {one: other for pair in HALF_PAIRS for one, other in (pair, pair[::-1])}


HALVES = HALF_PAIRS[0]  # what the generator writes


STYLES = ("animal", "e2", "unframed")


#: The styles whose edges are colour numbers that match when equal.
COLOUR_STYLES = ("e2", "unframed")


FRAME = "0"


#: The style of a bare list whose colours are letters while it is read; it becomes
#: ``e2`` once the frame's letter is known.
LETTERS = "letters"


#: The style of a bare list of numbers while it is read; once every tile is read it
#: becomes ``e2`` (with a 0: the grey frame), ``unframed`` (without a 0) or, when some
#: number is negative, ``animal`` (n meets -n: heads and tails written as signs).
NUMBERS = "numbers"


class Fix(NamedTuple):
    """A hint piece: tile ``tile`` stands on the 1-based cell (row, col), turned
    ``turns`` clockwise quarter turns (Eternity II fixes its centre piece so)."""

    row: int
    col: int
    tile: int
    turns: int


class TilesInstance(NamedTuple):
    """Tiles as listed (top, right, bottom, left), ids 1.. in file order."""

    style: str
    rows: int
    cols: int
    tiles: tuple[tuple[str, str, str, str], ...]
    #: Break the whole-board rotation symmetry (one solution per class); off = raw.
    symmetry_breaking: bool = True
    #: Hint pieces whose cell and turn are given (``fix ROW COL TILE TURNS`` lines).
    fixed: tuple[Fix, ...] = ()
    #: Score mode (``--score``): shared edges may mismatch, as few as possible.
    scored: bool = False

    @property
    def framed(self) -> bool:
        """Whether grey edges (colour 0) must line the border, and only it (e2)."""
        return self.style == "e2"

    @property
    def shared_edges(self) -> int:
        """Edges between two cells: what Eternity II's contests score."""
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    @property
    def board_rotations(self) -> int:
        """Rotations of the whole board that map it onto itself (4 square, 2 else)."""
        return 4 if self.square else 2


class TilesSolution(NamedTuple):
    """``placement[row][col] = (tile id, clockwise quarter turns)``."""

    placement: tuple[tuple[tuple[int, int], ...], ...]
    #: In score mode, the shared edges that the answer set says mismatch, as
    #: ``(row, col, "right" | "bottom")``; the checker recounts them.
    mismatched: tuple[tuple[int, int, str], ...] | None = None


Side = TypeVar("Side")


def rotate(tile: Sequence[Side], turns: int) -> tuple[Side, Side, Side, Side]:
    """The tile after ``turns`` clockwise quarter turns: side d shows edge (d - r) % 4
    (edges, or anything told side by side, such as which sides are grey)."""
    return tuple(tile[(side - turns) % 4] for side in range(4))  # type: ignore[return-value]


def distinct_rotations(tile: Sequence[str]) -> list[int]:
    """Turns giving different edge sequences (a symmetric tile has fewer than 4)."""
    seen, kept = set(), []
    for turns in range(4):
        if (edges := rotate(tile, turns)) not in seen:
            seen.add(edges)
            kept.append(turns)
    return kept


def partner(style: str, edge: str) -> str:
    """The edge value that matches ``edge`` across a shared side."""
    if style in COLOUR_STYLES:
        return edge
    kind, half = edge.rsplit("_", 1)
    return f"{kind}_{OTHER_HALF[half]}"


def matches(style: str, one: str, other: str) -> bool:
    return partner(style, one) == other


def shown_turn(tile: Sequence[str], turns: int) -> int:
    """The turn among ``distinct_rotations`` that shows the same picture as ``turns``
    (a ``1 2 1 2`` tile turned twice looks as it does unturned)."""
    return next(t for t in distinct_rotations(tile) if rotate(tile, t) == rotate(tile, turns))


Placement = list[list[tuple[int, int]]]

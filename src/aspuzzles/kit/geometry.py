"""Grid geometry shared by puzzles: square grids in reading order.

Kept apart from any puzzle so that the encodings receive adjacency as facts and the
checkers walk the same lattice without depending on each other's code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

Cell = tuple[int, int]

#: Orthogonal steps (row, column): up, right, down, left (clockwise from the top).
ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


class SquareGrid:
    """A rows x cols grid; cells are (row, col) pairs, numbered in reading order."""

    __slots__ = ("cols", "rows")

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols

    def __len__(self) -> int:
        return self.rows * self.cols

    def cells(self) -> Iterator[Cell]:
        for row in range(self.rows):
            for col in range(self.cols):
                yield row, col

    def index(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(index, self.cols)

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Orthogonal neighbours inside the grid."""
        for d_row, d_col in ORTHOGONAL:
            other = (cell[0] + d_row, cell[1] + d_col)
            if self.contains(other):
                yield other

    def distances_from(
        self, starts: Iterable[Cell], allowed: Callable[[Cell], bool], limit: int
    ) -> dict[Cell, int]:
        """Breadth-first step counts, up to ``limit``, from the nearest of ``starts``
        through cells that are ``allowed``."""
        seen = dict.fromkeys(starts, 0)
        queue = deque(seen)
        while queue:
            cell = queue.popleft()
            if seen[cell] == limit:
                continue
            for other in self.neighbours(cell):
                if other not in seen and allowed(other):
                    seen[other] = seen[cell] + 1
                    queue.append(other)
        return seen


def is_connected(cells: Iterable[Cell]) -> bool:
    """Whether a set of cells is orthogonally connected (the empty set is not)."""
    remaining = set(cells)
    if not remaining:
        return False
    stack = [remaining.pop()]
    while stack:
        row, col = stack.pop()
        for d_row, d_col in ORTHOGONAL:
            other = (row + d_row, col + d_col)
            if other in remaining:
                remaining.remove(other)
                stack.append(other)
    return not remaining


# ----------------------------------------------------------------- triangular grid
#: The three side directions of a triangle, after the Genius Star seed: X (\\), Y (/), Z (-).
DIRECTIONS = ("X", "Y", "Z")


def is_up(cell: Cell) -> bool:
    """Triangles (row, col) point up when row + col is even (the lattice's convention)."""
    return (cell[0] + cell[1]) % 2 == 0


def reflect(cell: Cell, direction: str) -> Cell:
    """The triangle across the side parallel to ``direction``.

    Upward: Z is the cell below, X the right neighbour, Y the left one; downward: Z is
    the cell above, X the left neighbour, Y the right one.
    """
    row, col = cell
    up = is_up(cell)
    if direction == "Z":
        return (row + 1, col) if up else (row - 1, col)
    if direction == "X":
        return (row, col + 1) if up else (row, col - 1)
    return (row, col - 1) if up else (row, col + 1)


def walk(start: Cell, path: Iterable[str]) -> Cell:
    """Follow a path of reflections from a cell."""
    cell = start
    for direction in path:
        cell = reflect(cell, direction)
    return cell


# ----------------------------------------------------------------- square steps
#: Compass steps on a square grid (row, column).
COMPASS: dict[str, Cell] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def square_walk(start: Cell, path: Iterable[str]) -> Cell:
    """Follow compass steps from a cell."""
    row, col = start
    for direction in path:
        d_row, d_col = COMPASS[direction]
        row, col = row + d_row, col + d_col
    return row, col


def square_symmetries() -> list[dict[str, str]]:
    """The 8 symmetries of the square grid as renamings of N, E, S, W."""
    turn = {"N": "E", "E": "S", "S": "W", "W": "N"}
    mirror = {"N": "N", "S": "S", "E": "W", "W": "E"}
    found = []
    for flip in (False, True):
        for turns in range(4):
            mapping = {}
            for direction in "NESW":
                image = mirror[direction] if flip else direction
                for _ in range(turns):
                    image = turn[image]
                mapping[direction] = image
            found.append(mapping)
    return found

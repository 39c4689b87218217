"""Grid geometry shared by puzzles: square grids in reading order.

Kept apart from any puzzle so that the encodings receive adjacency as facts and the
checkers walk the same lattice without depending on each other's code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

Cell = tuple[int, int]

#: Orthogonal steps (row, column): up, right, down, left (clockwise from the top).
ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


@dataclass(frozen=True)
class SquareGrid:
    """A rows x cols grid; cells are (row, col) pairs, numbered in reading order."""

    rows: int
    cols: int

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

    def distances(self, start: Cell, allowed: Callable[[Cell], bool]) -> dict[Cell, int]:
        """Breadth-first step counts from ``start`` through cells that are ``allowed``."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
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

"""Small cakes cut in Python before clingo starts: a first partition, or the proof of none.

The seed's 6x5 cake is cut by a plain depth-first search in about a millisecond, where
loading and grounding the encoding take several. The lowest cell no piece holds yet
must be the first cell of the next piece; the search grows every connected set of the
piece's size from it (Redelmeier's way: each set once), keeping within every
topping's quota, and goes on from each, cutting a branch as soon as the uncut cells
fall into a region whose size is no multiple of the piece size. Pieces are met in the
reading order of their first cells, which is how the encoding names them (by first
cell or by number, ``naming``), so the partition is the encoding's one answer set for
it, decoded and checked like clingo's. Like every search that restates the rules, it
serves the shipped encoding only (``Strategy.answer``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ...strategy import Undecided

#: The largest cake cut here: past it clingo's propagation serves better.
MOST_CELLS = 100
#: Cells added to pieces before the search gives the cake to clingo (some tens of
#: milliseconds; bench/NOTES-cake.md).
MOST_STEPS = 10_000
#: Steps between looks at the clock and the bound.
CLOCK_EVERY = 1024


def first_partition(grid: tuple[str, ...], pieces: int, deadline: float) -> list[list[int]] | None:
    """The pieces (cell numbers in reading order) of the first partition found, or None
    when there is none; ``Undecided`` past ``MOST_CELLS``, ``MOST_STEPS`` or
    ``deadline`` (a ``time.perf_counter()`` value)."""
    if len(grid) * len(grid[0]) > MOST_CELLS:
        raise Undecided
    return _Cutter(grid, pieces, deadline).cut()


class _Cutter:
    def __init__(self, grid: tuple[str, ...], pieces: int, deadline: float) -> None:
        rows, cols = len(grid), len(grid[0])
        self.cells = rows * cols
        self.size = self.cells // pieces
        self.topping = [grid[n // cols][n % cols] for n in range(self.cells)]
        self.quota = {t: self.topping.count(t) // pieces for t in set(self.topping)}
        self.neighbours = [_neighbours(n, rows, cols) for n in range(self.cells)]
        self.owner = [-1] * self.cells
        self.pieces: list[list[int]] = []
        self.deadline = deadline
        self.steps = 0

    def cut(self) -> list[list[int]] | None:
        return self.pieces if self._next_piece(0) else None

    def _next_piece(self, lowest: int) -> bool:
        """Whether the cells from ``lowest`` on that no piece holds can be cut."""
        while lowest < self.cells and self.owner[lowest] >= 0:
            lowest += 1
        if lowest == self.cells:
            return True
        number = len(self.pieces)
        for piece in self._pieces_from(lowest):
            for cell in piece:
                self.owner[cell] = number
            self.pieces.append(list(piece))
            if self._regions_divide() and self._next_piece(lowest + 1):
                return True
            self.pieces.pop()
            for cell in piece:
                self.owner[cell] = -1
        return False

    def _pieces_from(self, first: int) -> Iterator[list[int]]:
        """Every connected set of uncut cells of the piece size holding ``first`` and
        within the quotas (each once: a cell left untried at one level is never added
        deeper down it)."""
        counts = dict.fromkeys(self.quota, 0)
        counts[self.topping[first]] = 1
        members = [first]
        untried = [n for n in self.neighbours[first] if self.owner[n] < 0]
        seen = {first, *untried}
        yield from self._grow(members, counts, untried, seen)

    def _grow(
        self, members: list[int], counts: dict[str, int], untried: list[int], seen: set[int]
    ) -> Iterator[list[int]]:
        if len(members) == self.size:
            yield members
            return
        untried = list(untried)
        while untried:
            cell = untried.pop()
            topping = self.topping[cell]
            if counts[topping] == self.quota[topping]:
                continue
            self._step()
            fresh = [n for n in self.neighbours[cell] if self.owner[n] < 0 and n not in seen]
            members.append(cell)
            counts[topping] += 1
            yield from self._grow(members, counts, untried + fresh, seen | set(fresh))
            counts[topping] -= 1
            members.pop()

    def _regions_divide(self) -> bool:
        """Whether every region of uncut cells has a multiple of the piece size."""
        visited = [False] * self.cells
        for start in range(self.cells):
            if self.owner[start] >= 0 or visited[start]:
                continue
            visited[start], stack, area = True, [start], 0
            while stack:
                cell = stack.pop()
                area += 1
                for other in self.neighbours[cell]:
                    if self.owner[other] < 0 and not visited[other]:
                        visited[other] = True
                        stack.append(other)
            if area % self.size:
                return False
        return True

    def _step(self) -> None:
        self.steps += 1
        if self.steps % CLOCK_EVERY == 0 and (
            self.steps > MOST_STEPS or time.perf_counter() > self.deadline
        ):
            raise Undecided


def _neighbours(cell: int, rows: int, cols: int) -> list[int]:
    row, col = divmod(cell, cols)
    found = []
    if row > 0:
        found.append(cell - cols)
    if col > 0:
        found.append(cell - 1)
    if col + 1 < cols:
        found.append(cell + 1)
    if row + 1 < rows:
        found.append(cell + cols)
    return found

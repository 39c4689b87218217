"""Small boards searched in Python before clingo starts: counted, or a first placement.

A 3x3 board is searched through by a plain depth-first search in about a millisecond,
where loading, grounding and solving the encoding take several. The search goes
through what the shipped encoding's answer sets are, from the same inputs as its
facts: each tile's distinct turns and the cells where each may stand
(``turns_and_cells``, which also places fixed pieces and keeps grey edges on the
border), every shared side matched, no grey edge inside the board. With symmetry
breaking on, the encoding keeps one placement of each class of whole-board rotations:
where it does so by limiting one tile's turns (``anchor/2``), the search limits them
too; where it does so by a tile's cell, every class has ``class_size`` members (see
``symmetry``), so a count of every placement is divided by it (a count that does not
divide is left to clingo), and a first placement is left to clingo. Like every search
that restates the rules, it serves the shipped encoding only (``Strategy.count`` and
``Strategy.answer``).
"""

from __future__ import annotations

import time

from ...strategy import Undecided
from .model import FRAME, TilesInstance, partner
from .placements import turns_and_cells
from .symmetry import symmetry_break

#: The largest board searched here: past it a search may take long, and clingo's
#: propagation serves better than this search's plain edge checks.
MOST_CELLS = 16
#: The largest board counted here: on 4x4 boards clingo counts some boards sooner
#: (bench/NOTES-tiles.md), and a count has no quick first answer to gain.
MOST_COUNTED_CELLS = 12
#: Placements tried before the search gives the board to clingo: about a tenth of a
#: second, past the count of any 3x4 board shipped (bench/NOTES-tiles.md).
MOST_STEPS = 500_000
#: Placements tried between looks at the clock and the bound.
CLOCK_EVERY = 1024

#: A candidate for a cell: (the tile's bit, the edge its right neighbour must show on
#: the left, the edge the tile below must show on top, the tile's id, its turn).
Candidate = tuple[int, str, str, int, int]
#: A tile placed: (row, column, tile id, turn), as the encoding's ``place/4``.
Placed = tuple[int, int, int, int]


class _Found(Exception):
    """The first placement, found: it ends the search at once."""

    def __init__(self, placement: list[Placed]) -> None:
        super().__init__()
        self.placement = placement


def count_placements(instance: TilesInstance, deadline: float) -> int | None:
    """How many answer sets the shipped encoding has for this board, or None: scored
    boards (every placement counts), boards past ``MOST_COUNTED_CELLS`` or a search past
    ``MOST_STEPS`` or ``deadline`` (a ``time.perf_counter()`` value) are clingo's."""
    if instance.rows * instance.cols > MOST_COUNTED_CELLS:
        return None
    try:
        _check_searched_here(instance)
        anchor, members = _anchor(instance)
        found = _Search(instance, anchor, deadline).count()
    except Undecided:
        return None
    return found // members if found % members == 0 else None


def first_placement(instance: TilesInstance, deadline: float) -> list[Placed] | None:
    """The first placement in reading order that the encoding has as an answer, or None
    when it has none; ``Undecided`` where clingo must search (see ``count_placements``,
    and boards whose symmetry is broken by a tile's cell)."""
    _check_searched_here(instance)
    anchor, members = _anchor(instance)
    if members != 1:
        raise Undecided
    try:
        _Search(instance, anchor, deadline).count(first=True)
    except _Found as found:
        return found.placement
    return None


def _check_searched_here(instance: TilesInstance) -> None:
    cells = instance.rows * instance.cols
    if instance.scored or not 1 < cells <= MOST_CELLS or len(instance.tiles) != cells:
        raise Undecided


def _anchor(instance: TilesInstance) -> tuple[tuple[int, int] | None, int]:
    """The tile whose turns the encoding limits (and the limit), if it does, and how
    many placements a count must be divided by to count the classes kept."""
    if not instance.symmetry_breaking:
        return None, 1
    kept = symmetry_break(instance)
    return (kept.anchor, 1) if kept.anchor is not None else (None, kept.class_size)


class _Search:
    """Cells filled in reading order, each with a turned tile not used yet that may
    stand there and matches the neighbours to the left and above: the candidates of a
    cell are indexed by the edges they show on those two sides."""

    def __init__(
        self, instance: TilesInstance, anchor: tuple[int, int] | None, deadline: float
    ) -> None:
        self.rows, self.cols = instance.rows, instance.cols
        self.deadline = deadline
        self.steps = 0
        self.full = (1 << len(instance.tiles)) - 1
        self.placed: list[Placed] = []
        shown = {edge: partner(instance.style, edge) for tile in instance.tiles for edge in tile}
        frame = FRAME if instance.framed else None
        self.index: list[dict[tuple[str | None, str | None], list[Candidate]]] = [
            {} for _ in range(self.rows * self.cols)
        ]
        for tile_id in range(1, len(instance.tiles) + 1):
            for turns, (top, right, bottom, left), cells in turns_and_cells(instance, tile_id):
                if anchor is not None and tile_id == anchor[0] and turns >= anchor[1]:
                    continue  # anchor(T,K): the tile takes a turn below K
                for row, col in cells:
                    if frame is not None and (
                        (right == frame and col < self.cols)
                        or (bottom == frame and row < self.rows)
                    ):
                        continue  # a grey edge facing another tile
                    key = (left if col > 1 else None, top if row > 1 else None)
                    at = (row - 1) * self.cols + col - 1
                    candidate = (1 << (tile_id - 1), shown[right], shown[bottom], tile_id, turns)
                    self.index[at].setdefault(key, []).append(candidate)

    def count(self, first: bool = False) -> int:
        """Every placement counted, or (``first``) the first one raised as ``_Found``."""
        return self._fill(0, 0, None, [None] * self.cols, first)

    def _fill(
        self, at: int, used: int, left: str | None, above: list[str | None], first: bool
    ) -> int:
        """Placements of cells ``at`` on: ``left`` is the edge the cell must show on
        the left, ``above[col]`` the edge the cell in that column must show on top."""
        if used == self.full:
            if first:
                raise _Found(list(self.placed))
            return 1
        row, col = divmod(at, self.cols)
        found = 0
        for bit, right, bottom, tile_id, turns in self.index[at].get((left, above[col]), ()):
            if used & bit:
                continue
            self.steps += 1
            if self.steps % CLOCK_EVERY == 0:
                self._look_at_the_clock()
            kept = above[col]
            above[col] = bottom
            self.placed.append((row + 1, col + 1, tile_id, turns))
            after = right if col + 1 < self.cols else None
            found += self._fill(at + 1, used | bit, after, above, first)
            self.placed.pop()
            above[col] = kept
        return found

    def _look_at_the_clock(self) -> None:
        if self.steps > MOST_STEPS or time.perf_counter() > self.deadline:
            raise Undecided

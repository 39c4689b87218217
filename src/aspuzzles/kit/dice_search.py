"""A plain search for the tilings of a roll: the sweeps' and the census's first try,
and their count, where the encoding is the shipped one.

Most rolls have hundreds of tilings, and a depth-first search that always covers the
lowest free cell finds one after a few dozen steps, in a fraction of clasp's time per
solve call on the sweep's grounding. Being code that restates the rules (pieces cover
the free cells exactly, each shape as often as the box has it), it is off for an
edited encoding, whose rules may differ. A tiling it finds is checked like clingo's.
A roll solved on its own that it finds nothing for is left to clingo, which proves
it; a sweep's or census's many rolls searched compiled in one call (``firsts``) take
the compiled search's "none" after it went through every placement (clingo's verdict,
as the tests check on both puzzles), and clingo searches only what it gave up on.

Where numba is installed (the ``fast`` extra) the search runs compiled
(:mod:`.dice_kernel`): it then searches far longer before it hands a roll to clingo,
and it counts a roll's tilings too (a count of none is left to clingo). In plain
Python it gives up after ``STEPS`` placements and counts nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache, cached_property
from typing import Any, NamedTuple

from . import dice_native

#: Placements laid in Python before the search gives up and leaves the roll to clingo:
#: 91% of the square's rolls and 62% of the star's are tiled within 300, in 0.2-0.4 ms a
#: roll, and the rest cost clingo no more than before (bench/NOTES-geniusstar.md).
STEPS = 300
#: The same bound for the compiled search (bench/NOTES-geniusstar.md).
COMPILED_STEPS = 20_000
#: A count's bound, far past any roll's (a dense Genius Square roll lays about 70,000
#: placements, in milliseconds): past it the roll is counted by clingo, whose search
#: a time limit or Ctrl-C stops.
COUNT_STEPS = 100_000_000
#: The compiled count's memo (:mod:`.dice_kernel`), slots of 16 bytes: 16 MB a shape
#: table (its pages taken as they are first written), kept for the process, so that
#: the rolls a sweep counts one after another share the states they have in common;
#: a quarter of it counts a random roll as fast, not the sweep (bench/NOTES-geniusstar.md).
MEMO_SLOTS = 1 << 20


@cache
def compiled() -> Any:
    """The compiled search's module, or None without numba (asked once a process;
    numba is loaded only when a sweep first asks, as loading it takes a second)."""
    try:
        from . import dice_kernel
    except ImportError:
        return None
    return dice_kernel


class Move(NamedTuple):
    """One placement: its shape, its number in the shape's table, its cells as a mask (a
    tuple: a board's thousand placements are made when a roll is first searched, and a
    frozen dataclass takes four times as long to make)."""

    shape: str
    placement: int
    mask: int


class Tiled(NamedTuple):
    """First tilings of many rolls, a row a roll: whether one was ``found``, or there
    is ``none`` (the search went through every placement, or the free cells are not
    the pieces' area; neither: the search gave up, and the roll is left to clingo),
    and each piece's cells (``masks``, cell ``n`` as bit ``n - 1``; 0 in a row not
    found) and shape (``shapes``, an index into ``names``), numpy arrays of a row per
    roll and a column per piece."""

    found: Any
    none: Any
    masks: Any
    shapes: Any
    names: tuple[str, ...]


class TilingSearch:
    """The placements of a shape table, grouped by their lowest cell, searched for an
    exact cover of a roll's free cells. ``adjacent`` gives each cell's neighbours (cells
    numbered from 1), with which the compiled search sees cells walled in."""

    def __init__(
        self,
        table: Mapping[str, tuple[Sequence[frozenset[int]], int]],
        cells: int,
        adjacent: Mapping[int, Iterable[int]],
    ) -> None:
        self.shapes = list(table)
        self.counts = {shape: count for shape, (_, count) in table.items()}
        self.sizes = {
            shape: len(placed[0]) if placed else 0 for shape, (placed, _) in table.items()
        }
        self.area = sum(self.sizes[shape] * count for shape, count in self.counts.items())
        self.cells = cells
        self.adjacent = adjacent
        self.by_lowest: list[list[Move]] = [[] for _ in range(cells + 1)]
        for shape, (placements, _) in table.items():
            for index, placed in enumerate(placements):
                mask = sum(1 << (cell - 1) for cell in placed)
                self.by_lowest[min(placed)].append(Move(shape, index, mask))
        # Large pieces first: the small ones fill what is left at the end, where a large
        # one left for last rarely fits. A shape's placements stand together, so that
        # the compiled search passes over a shape none of which is left in one step.
        rank = {shape: (-self.sizes[shape], n) for n, shape in enumerate(self.shapes)}
        for moves in self.by_lowest:
            moves.sort(key=lambda move: rank[move.shape])
        self.moves = [move for moves in self.by_lowest for move in moves]

    @property
    def kernel(self) -> Any:
        """The compiled search, loaded when first asked (None without numba)."""
        return compiled()

    def _compiled(self) -> Any:
        """The search to run compiled: the build made ahead of time where there is one
        (no compiler to load), else numba's; None without either."""
        return dice_native.native() or self.kernel

    def free_cells(self, blocked: Sequence[int]) -> int | None:
        """The cells not ``blocked``, as a mask; None where their number is not the
        pieces' area (no tiling, which clingo is left to prove)."""
        free = (1 << self.cells) - 1
        for cell in blocked:
            free &= ~(1 << (cell - 1))
        return free if free.bit_count() == self.area else None

    def first(self, blocked: Sequence[int], steps: int | None = None) -> list[Move] | None:
        """Placements covering every cell not ``blocked`` exactly, or None: none found
        within ``steps`` placements laid (which proves nothing)."""
        searched = self._compiled_firsts([blocked], steps)
        if searched is None:
            return self.first_in_python(blocked, steps)
        answers, chosen = searched
        return [self.moves[move] for move in chosen[0].tolist()] if answers[0] > 0 else None

    def firsts(self, rolls: Sequence[Sequence[int]], steps: int | None = None) -> Tiled | None:
        """``first`` for many rolls in one call into the compiled search (None without
        numba): a sweep's chunk of rolls costs one call, and its tilings come back as
        arrays that are checked all at once (:mod:`.dice_bulk`), never as Python
        objects."""
        searched = self._compiled_firsts(rolls, steps)
        if searched is None:
            return None
        answers, chosen = searched
        found = answers > 0
        masks, shapes = self._table[1][chosen], self._table[2][chosen]
        masks[~found] = 0
        return Tiled(found, answers == 0, masks, shapes, tuple(self.shapes))

    def _compiled_firsts(
        self, rolls: Sequence[Sequence[int]], steps: int | None
    ) -> tuple[Any, Any] | None:
        """``dice_native.first_tilings`` of the rolls, by the build made ahead of time
        where there is one (no compiler to load), else numba's; None without numba. A
        roll whose free cells are not the pieces' area is asked as 0 (answered: none)."""
        compiled = self._compiled()
        if compiled is None:
            return None
        frees = [self.free_cells(blocked) or 0 for blocked in rolls]
        budget = COMPILED_STEPS if steps is None else steps
        return dice_native.first_tilings(compiled, frees, self._left, self._table, budget)

    def first_in_python(
        self, blocked: Sequence[int], steps: int | None = None
    ) -> list[Move] | None:
        """``first`` in plain Python whether numba is there or not: one roll solved on
        its own is answered sooner than numba loads."""
        free = self.free_cells(blocked)
        if free is None:
            return None
        return self._first_in_python(free, STEPS if steps is None else steps)

    def count(self, blocked: Sequence[int], steps: int = COUNT_STEPS, most: int = 0) -> int | None:
        """How many tilings the cells not ``blocked`` have (up to ``most``, if not 0),
        where the compiled search counts them within ``steps`` placements; None
        otherwise (no numba, a count of none, or the bound reached), for clingo to
        count."""
        free = self.free_cells(blocked)
        compiled = self._compiled()
        if free is None or compiled is None:
            return None
        found = dice_native.count_tilings(compiled, free, self._left, self._table, steps, most)
        return found if found > 0 else None

    @cached_property
    def _left(self) -> list[int]:
        return [self.counts[shape] for shape in self.shapes]

    @cached_property
    def _table(self) -> tuple[Any, ...]:
        """The compiled search's placement table (see :mod:`.dice_kernel`)."""
        moves = self.moves
        starts = [0] * (self.cells + 1)
        for cell in range(1, self.cells + 1):  # the placements of bit b: by_lowest[b + 1]
            starts[cell] = starts[cell - 1] + len(self.by_lowest[cell])
        skips = list(range(1, len(moves) + 1))
        for at in range(len(moves) - 2, -1, -1):
            if _group(moves[at + 1]) == _group(moves[at]):
                skips[at] = skips[at + 1]
        rims, rim_cells = [0], []
        for move in moves:
            inside = {bit + 1 for bit in range(self.cells) if move.mask >> bit & 1}
            rim_cells += sorted(
                {o - 1 for n in inside for o in self.adjacent[n]} - {n - 1 for n in inside}
            )
            rims.append(len(rim_cells))
        neighbours = [sum(1 << (o - 1) for o in self.adjacent[n]) for n in range(1, self.cells + 1)]
        radix = [1]  # the pieces left as a number: each shape a digit, 0 up to its count
        for shape in self.shapes:
            radix.append(radix[-1] * (self.counts[shape] + 1))
        # A memo key is the free cells with that number above them, in a signed word.
        fits = self.cells + (radix[-1] - 1).bit_length() <= 62
        return dice_native.placement_table(
            starts,
            [move.mask for move in moves],
            [self.shapes.index(move.shape) for move in moves],
            skips,
            rims,
            rim_cells,
            neighbours,
            [self.sizes[shape] for shape in self.shapes],
            radix,
            MEMO_SLOTS if fits else 1,
        )

    def _first_in_python(self, free: int, steps: int) -> list[Move] | None:
        left = dict(self.counts)
        chosen: list[Move] = []
        budget = [steps]

        def cover(free: int) -> bool:
            if not free:
                return True
            lowest = (free & -free).bit_length()
            for move in self.by_lowest[lowest]:
                if left[move.shape] and move.mask & free == move.mask:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return False
                    left[move.shape] -= 1
                    chosen.append(move)
                    if cover(free ^ move.mask):
                        return True
                    chosen.pop()
                    left[move.shape] += 1
            return False

        return chosen if cover(free) else None


def _group(move: Move) -> tuple[str, int]:
    """The placements the compiled search passes over together: a shape's at a cell."""
    return move.shape, move.mask & -move.mask

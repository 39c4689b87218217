"""A plain search in Python for one tiling of a roll: the sweeps' and the census's
first try, where the encoding is the shipped one.

Most rolls have hundreds of tilings, and a depth-first search that always covers the
lowest free cell finds one after a few dozen steps, in a fraction of clasp's time per
solve call on the sweep's grounding. It only finds: the tiling it finds is decoded and
checked like clingo's, and where it finds none within its step bound (an untileable
placement, a hard one) clingo searches and proves. Being Python that restates the rules
(pieces cover the free cells exactly, each shape as often as the box has it), it is
off for an edited encoding, whose rules may differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: Placements tried before the search gives up and leaves the roll to clingo: 91% of the
#: square's rolls and 62% of the star's are tiled within 300, in 0.2-0.4 ms a roll, and the
#: rest cost clingo no more than before (bench/NOTES-geniusstar.md).
STEPS = 300


@dataclass(frozen=True)
class Move:
    """One placement: its shape, its index in the shape's table, its cells as a mask."""

    shape: str
    index: int
    mask: int


class TilingSearch:
    """The placements of a shape table, grouped by their lowest cell, searched for an
    exact cover of a roll's free cells."""

    def __init__(
        self, table: Mapping[str, tuple[Sequence[frozenset[int]], int]], cells: int
    ) -> None:
        self.counts = {shape: count for shape, (_, count) in table.items()}
        self.area = sum(len(placed[0]) * count for placed, count in table.values() if placed)
        self.cells = cells
        self.by_lowest: list[list[Move]] = [[] for _ in range(cells + 1)]
        for shape, (placements, _) in table.items():
            for index, placed in enumerate(placements):
                mask = sum(1 << (cell - 1) for cell in placed)
                self.by_lowest[min(placed)].append(Move(shape, index, mask))
        # Large pieces first: the small ones fill what is left at the end, where a large
        # one left for last rarely fits.
        for moves in self.by_lowest:
            moves.sort(key=lambda move: -move.mask.bit_count())

    def first(self, blocked: Sequence[int], steps: int = STEPS) -> list[Move] | None:
        """Placements covering every cell not ``blocked`` exactly, or None: none found
        within ``steps`` placements tried (which proves nothing)."""
        free = (1 << self.cells) - 1
        for cell in blocked:
            free &= ~(1 << (cell - 1))
        if free.bit_count() != self.area:
            return None
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

"""Checking a sweep's tilings all at once, over arrays (numpy, present with the
``fast`` extra that the compiled search needs).

Why: a sweep checks every roll's tiling, and one at a time, as Python objects, that
cost more than finding them (a Genius Square sweep of 62,208 rolls spent 1.1 s
decoding and 1.8 s checking tilings the compiled search found in 0.8 s). Here a
chunk's tilings are checked together, as machine words.

Still independent of the search: the checker is told only each piece's cells and the
name of its shape, and knows the pieces from the puzzle's own description. Which cell
sets a piece may cover is settled once per process by the puzzle's one-piece checker
(``DiceTiling.is_shape``, which compares shapes on the open lattice, not through the
search's placement table); the rest is asked of every row at once: no piece outside
the board, none on a blocked cell, no two overlapping, every free cell covered, and
the box's pieces, each as often as the box has it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

#: What a row's answer can be, in the order they are asked (a row gets the first).
FINE, OUTSIDE, COVERED, OVERLAP, GAP, SHAPE, COUNT = range(7)
PROBLEMS = {
    OUTSIDE: "a piece lies outside the board",
    COVERED: "a piece covers a blocked cell",
    OVERLAP: "two pieces overlap",
    GAP: "free cells are left uncovered",
    SHAPE: "a piece is not the shape it is named",
    COUNT: "the pieces used are not the box's",
}


def popcount(words: Any) -> Any:
    """The number of set bits of each word of an int64 array."""
    unsigned = np.ascontiguousarray(words).view(np.uint64)
    if hasattr(np, "bitwise_count"):  # numpy 2
        return np.bitwise_count(unsigned).astype(np.int64)
    bits = np.unpackbits(unsigned.view(np.uint8).reshape(*unsigned.shape, 8), axis=-1)
    return bits.sum(axis=-1, dtype=np.int64)


class BulkChecker:
    """The rules of a tiling, asked of many rolls at once.

    ``cells``: the board's cells, numbered from 1; ``box``: each piece's name and how
    many of it the box holds; ``covers``: every set of cells each piece may cover (its
    placements, each already checked to be that shape)."""

    def __init__(
        self, cells: int, box: Mapping[str, int], covers: Mapping[str, Iterable[frozenset[int]]]
    ) -> None:
        self.board = (1 << cells) - 1
        self.names = list(box)
        self.box = np.array([box[name] for name in self.names], np.int64)
        kinds = len(self.names) + 1  # a piece's shape, kept beside its cells in one word
        keys = [
            mask_of(placed) * kinds + kind
            for kind, name in enumerate(self.names)
            for placed in covers.get(name, ())
        ]
        self.kinds = kinds
        self.allowed = np.unique(np.array(keys, np.int64))

    def check(self, blocked: Any, found: Any, masks: Any, shapes: Any, names: Sequence[str]) -> Any:
        """Each row's first problem (``FINE``: none; rows not ``found`` are not asked).
        ``blocked``: each roll's blocked cells as a mask; ``masks`` and ``shapes``: a
        row per roll, a column per piece (its cells, and its shape as an index into
        ``names``); a column of mask 0 is no piece."""
        blocked = np.asarray(blocked, np.int64)
        masks = np.asarray(masks, np.int64)
        laid = masks != 0
        union = np.bitwise_or.reduce(masks, axis=1)
        outside = ((masks & ~self.board) != 0).any(axis=1)
        covered = (union & blocked) != 0
        overlap = popcount(masks).sum(axis=1) != popcount(union)
        gap = (union | blocked) != self.board
        kind = self._kinds(names)[np.asarray(shapes, np.int64)]
        keys = masks * self.kinds + kind
        at = np.minimum(np.searchsorted(self.allowed, keys), len(self.allowed) - 1)
        wrong_shape = (laid & (self.allowed[at] != keys)).any(axis=1)
        used = np.stack([(laid & (kind == n)).sum(axis=1) for n in range(len(self.names))], axis=1)
        count = (used != self.box).any(axis=1)
        problems = np.select(
            [outside, covered, overlap, gap, wrong_shape, count],
            [OUTSIDE, COVERED, OVERLAP, GAP, SHAPE, COUNT],
            FINE,
        )
        return np.where(np.asarray(found, bool), problems, FINE)

    def _kinds(self, names: Sequence[str]) -> Any:
        """The answer's shape names as the checker's numbers (one no piece has for a
        name the box does not hold)."""
        return np.array(
            [self.names.index(n) if n in self.names else len(self.names) for n in names],
            np.int64,
        )


def mask_of(cells: Iterable[int]) -> int:
    """Cells (numbered from 1) as a mask: cell ``n`` is bit ``n - 1``."""
    return sum(1 << (cell - 1) for cell in cells)

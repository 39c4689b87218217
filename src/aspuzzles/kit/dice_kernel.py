"""The tiling search of :mod:`.dice_search`, compiled by numba (the ``fast`` extra).

Why compiled: a sweep or a census asks this search hundreds of thousands of times, and
counting a roll's tilings walks through every one of them (up to 22,317 on a Genius
Square roll, with some thirty placements tried for each). In Python a placement tried
costs about a microsecond; compiled, the masks are machine words and a placement
tried costs a few nanoseconds, so a roll is tiled in microseconds and counted in
milliseconds.

The layout (:class:`.dice_search.TilingSearch` builds it): cells are bits of an
``int64`` (cell ``n`` is bit ``n - 1``; 48 cells at most here, well inside the sign
bit). The placements are grouped by their lowest cell (those of cell bit ``b`` are
``starts[b]`` up to ``starts[b + 1]``), and within a cell by shape, each with its cells'
``masks``, its ``shapes`` (an index into ``left``, how many of each shape are still in
the box), ``skips`` (where the next shape's placements start), and its rim: the cells
beside it (``rim_cells[rims[p]:rims[p + 1]]``), each with its ``neighbours`` as a mask;
``sizes`` gives each shape's number of cells.

The search always covers the lowest free cell, so each tiling is met exactly once,
whatever order its pieces could be laid in; twins (a shape in the box twice) are one
shape with a count of two, so swapping them is not a new tiling, as in the encoding.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import compiled

_CACHE = compiled.CACHE  # numba's cache folder is chosen before numba is imported

from numba import njit  # noqa: E402

#: What ``search`` answers when its step budget ran out before it could say.
UNDECIDED = -1


@njit(cache=_CACHE)
def _walled_in(free, neighbours):
    """How many free cells have no free neighbour."""
    walled = 0
    for cell in range(neighbours.shape[0]):
        if (free >> cell) & 1 and neighbours[cell] & free == 0:
            walled += 1
    return walled


@njit(cache=_CACHE)
def _one_cell_pieces(left, sizes):
    """How many pieces of one cell are left: a walled-in cell can take nothing else."""
    pieces = 0
    for shape in range(left.shape[0]):
        if sizes[shape] == 1:
            pieces += left[shape]
    return pieces


@njit(cache=_CACHE)
def search(  # noqa: C901
    free,
    left,
    starts,
    masks,
    shapes,
    skips,
    rims,
    rim_cells,
    neighbours,
    sizes,
    chosen,
    most,
    steps,
):
    """The number of tilings of the ``free`` cells by the pieces ``left`` (each
    placement laid counts a step; past ``steps`` the answer is ``UNDECIDED``). With
    ``most`` (0: no bound) the search stops at that many tilings (a census counting
    up to a cap); at ``most`` 1, at the first, with its placements left in ``chosen``,
    in the order laid. ``left`` is changed: pass a copy.
    The free cells must add up to the pieces' area (the caller checks)."""
    if free == 0:
        return 1
    walled = _walled_in(free, neighbours)
    if walled and walled > _one_cell_pieces(left, sizes):
        return 0  # the blockers wall in more cells than there are pieces of one cell
    pieces = chosen.shape[0]
    frees = np.empty(pieces + 1, np.int64)
    lows = np.empty(pieces + 1, np.int64)
    nexts = np.empty(pieces + 1, np.int64)
    low = 0
    while not (free >> low) & 1:
        low += 1
    frees[0], lows[0], nexts[0] = free, low, starts[low]
    depth, count = 0, 0
    while True:
        move = nexts[depth]
        if move == starts[lows[depth] + 1]:  # every placement of this cell tried
            if depth == 0:
                return count
            depth -= 1
            left[shapes[chosen[depth]]] += 1
            continue
        nexts[depth] = move + 1
        shape = shapes[move]
        if left[shape] == 0:  # none of this shape left: on to the next shape
            nexts[depth] = skips[move]
            continue
        mask = masks[move]
        here = frees[depth]
        if (mask & here) != mask:
            continue
        steps -= 1
        if steps < 0:
            return UNDECIDED
        rest = here ^ mask
        chosen[depth] = move
        if rest == 0:  # the area matched, so every piece is laid
            count += 1
            if count == most:
                return count
            continue
        left[shape] -= 1
        # A free cell that the placement walls in can take only a piece of one cell:
        # more such cells than those pieces left, and nothing fits.
        walled = 0
        for rim in range(rims[move], rims[move + 1]):
            cell = rim_cells[rim]
            if (rest >> cell) & 1 and neighbours[cell] & rest == 0:
                walled += 1
        if walled and walled > _one_cell_pieces(left, sizes):
            left[shape] += 1
            continue
        depth += 1
        low = lows[depth - 1]
        while not (rest >> low) & 1:
            low += 1
        frees[depth], lows[depth], nexts[depth] = rest, low, starts[low]


#: ``search`` as Python code calls it (numba's dispatcher is typed as taking no arguments).
_search: Any = search


def placement_table(
    starts: list[int],
    masks: list[int],
    shapes: list[int],
    skips: list[int],
    rims: list[int],
    rim_cells: list[int],
    neighbours: list[int],
    sizes: list[int],
) -> tuple[object, ...]:
    """The arguments of ``search`` that describe the placements, as its arrays."""
    arrays = (starts, masks, shapes, skips, rims, rim_cells, neighbours, sizes)
    return tuple(np.array(values, np.int64) for values in arrays)


def first_tiling(free: int, left: list[int], table: tuple[object, ...], steps: int) -> list[int]:
    """The placements of the first tiling found (indices into the table), or none."""
    chosen = np.empty(sum(left), np.int64)
    found = _search(free, np.array(left, np.int64), *table, chosen, 1, steps)
    return chosen.tolist() if found > 0 else []


def tilings(
    free: int, left: list[int], table: tuple[object, ...], steps: int, most: int = 0
) -> int:
    """How many tilings there are (up to ``most``, if not 0), or ``UNDECIDED``."""
    chosen = np.empty(sum(left), np.int64)
    return int(_search(free, np.array(left, np.int64), *table, chosen, most, steps))

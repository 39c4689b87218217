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

A count remembers what it has counted (``memo``, kept from one call to the next): the
tilings of what is left after a placement depend only on the free cells and the
pieces left, not on how the cells before were covered (a domino and a bar of four
cover a row of six in two orders), nor on the roll, as a blocked cell is only a cell
not free. So each (free cells, pieces left) counted to the end is kept in a table
indexed by a hash of its key, the free cells' mask with the pieces left above it as a
number (``radix`` gives each shape's place value; ``radix[-1]`` is their product); a
slot holds the last key to land there, its count and the placements laid for it, so a
state met again costs one look-up. The steps a remembered count took are charged
again, and one that would reach ``most`` or run past ``steps`` is searched as before,
so every answer, ``UNDECIDED`` included, is the plain search's. A search for the first
tiling (``most`` 1) neither reads nor writes the table, as its placements are wanted.
"""

from __future__ import annotations

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


#: Fibonacci hashing's multiplier (2**64 over the golden ratio, as a signed word).
_SPREAD = -7046029254386353131
#: A remembered count and the placements it took share a word: each below 2**31.
_HALF = 1 << 31
_LOW = (1 << 32) - 1
#: States with fewer pieces left are searched, not looked up: one piece left is one
#: pass over a cell's placements, cheaper than a hash table's look-up.
MEMO_PIECES = 2


@njit(cache=_CACHE)
def _slot(key, shift, slots):
    """Where ``key`` is kept in a table of ``slots`` (a power of two, 2**(64 - shift))."""
    return ((key * _SPREAD) >> shift) & (slots - 1)


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
    radix,
    memo,
    chosen,
    most,
    steps,
):
    """The number of tilings of the ``free`` cells by the pieces ``left`` (each
    placement laid counts a step; past ``steps`` the answer is ``UNDECIDED``). With
    ``most`` (0: no bound) the search stops at that many tilings (a census counting
    up to a cap); at ``most`` 1, at the first, with its placements left in ``chosen``,
    in the order laid. ``left`` is changed: pass a copy; no shape may have more pieces
    left than the box holds (``radix``). ``memo`` (see the module) is read and written
    unless ``most`` is 1 or it has a single slot.
    The free cells must add up to the pieces' area (the caller checks)."""
    if free == 0:
        return 1
    walled = _walled_in(free, neighbours)
    if walled and walled > _one_cell_pieces(left, sizes):
        return 0  # the blockers wall in more cells than there are pieces of one cell
    cells = neighbours.shape[0]
    slots = memo.shape[0]
    remember = most != 1 and slots > 1
    shift = 64
    while (1 << (64 - shift)) < slots:
        shift -= 1
    code = 0  # the pieces left, as a number (each shape a digit, of place value radix)
    for shape in range(left.shape[0]):
        if left[shape] * radix[shape] >= radix[shape + 1]:
            remember = False  # more than the box holds: the code would be ambiguous
        code += left[shape] * radix[shape]
    pieces = chosen.shape[0]
    frees = np.empty(pieces + 1, np.int64)
    lows = np.empty(pieces + 1, np.int64)
    nexts = np.empty(pieces + 1, np.int64)
    found = np.empty(pieces + 1, np.int64)  # the count and steps left on reaching a depth
    budget = np.empty(pieces + 1, np.int64)
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
            if remember and pieces - depth >= MEMO_PIECES:
                counted, laid = count - found[depth], budget[depth] - steps
                if counted < _HALF and laid < _HALF:
                    key = frees[depth] | (code << cells)
                    slot = _slot(key, shift, slots)
                    memo[slot, 0] = key
                    memo[slot, 1] = counted | (laid << 32)
            depth -= 1
            shape = shapes[chosen[depth]]
            left[shape] += 1
            code += radix[shape]
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
        code -= radix[shape]
        # A free cell that the placement walls in can take only a piece of one cell:
        # more such cells than those pieces left, and nothing fits.
        walled = 0
        for rim in range(rims[move], rims[move + 1]):
            cell = rim_cells[rim]
            if (rest >> cell) & 1 and neighbours[cell] & rest == 0:
                walled += 1
        if walled and walled > _one_cell_pieces(left, sizes):
            left[shape] += 1
            code += radix[shape]
            continue
        if remember and pieces - depth - 1 >= MEMO_PIECES:
            key = rest | (code << cells)
            slot = _slot(key, shift, slots)
            if memo[slot, 0] == key:
                counted, laid = memo[slot, 1] & _LOW, memo[slot, 1] >> 32
                # Counted before: taken unless it would stop the search (then searched
                # again, so that the answer is the one the plain search gives).
                if laid <= steps and (most == 0 or count + counted < most):
                    count += counted
                    steps -= laid
                    left[shape] += 1
                    code += radix[shape]
                    continue
        depth += 1
        found[depth], budget[depth] = count, steps
        low = lows[depth - 1]
        while not (rest >> low) & 1:
            low += 1
        frees[depth], lows[depth], nexts[depth] = rest, low, starts[low]


@njit(cache=_CACHE)
def first_tilings(
    frees,
    left,
    starts,
    masks,
    shapes,
    skips,
    rims,
    rim_cells,
    neighbours,
    sizes,
    radix,
    memo,
    chosen,
    steps,
):
    """``search`` for the first tiling of each of ``frees`` (0: none asked), in one
    call: row ``r`` of ``chosen`` holds the placements of the tiling of ``frees[r]``,
    and the answer says, per row, 1 (found), 0 (none) or ``UNDECIDED``."""
    answers = np.zeros(frees.shape[0], np.int64)
    for row in range(frees.shape[0]):
        if frees[row] != 0:
            answers[row] = search(
                frees[row],
                left.copy(),
                starts,
                masks,
                shapes,
                skips,
                rims,
                rim_cells,
                neighbours,
                sizes,
                radix,
                memo,
                chosen[row],
                1,
                steps,
            )
    return answers

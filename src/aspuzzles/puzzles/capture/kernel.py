"""The lookahead's exhaustive search of a capture board's last moves, compiled by numba.

Why compiled: refuting a budget means trying every legal move of every board a few
moves from the end, and most boards of such a search are its last two moves: hundreds
of thousands of swaps to settle for one board of mmik's (a game board whose minimum
of 6 takes its budget of 5 to refute). The same search on `bits`' masks in
Python spends about 20 us on each swap's settling; compiled to machine code by numba
(a well-kept JIT compiler for numerical Python), the masks become machine words and a
swap settles in a fraction of a microsecond: the search runs 40 to 100 times faster.

The layout and the rules are `bits`' (one 64-bit mask per class of
`bits.KINDS`, then the flaming skulls; bit ``8 * col + height``); the tests
play this search against the Python one and the breadth-first minimum. numba compiles
on first use and keeps the machine code (``compiled``), so only a machine's first run
pays the few seconds it takes. Every mask is ``np.uint64``, and
every constant too: numba types a mix of signed and unsigned integers as signed (or
as a float), which would shift the top column's bits wrongly.
"""

from __future__ import annotations

import numpy as np

from ... import compiled
from . import bits
from .travel import COUNT_LETTERS, grouping

_CACHE = compiled.CACHE  # numba's cache folder is chosen before numba is imported

from numba import njit, types  # noqa: E402
from numba.typed import Dict  # noqa: E402

_U = np.uint64
_ONE, _TWO, _COLUMN_SHIFT, _TWO_COLUMNS = _U(1), _U(2), _U(bits.SIZE), _U(2 * bits.SIZE)
_NONE, _BYTE = _U(0), _U(0xFF)
_CLASSES = len(bits.KINDS)  # the flaming skulls' mask comes after the classes'
_MASKS = _CLASSES + 1
_SKULLS = bits.SKULL_INDEX
_PACKED = np.array(bits.PACKED, dtype=np.uint8)
_THREE_STARTS, _THREE_MIDDLES, _THREE_ENDS = (
    _U(bits.THREE_STARTS),
    _U(bits.THREE_MIDDLES),
    _U(bits.THREE_ENDS),
)
_ABOVE_FLOOR, _BELOW_TOP = _U(bits.ABOVE_FLOOR), _U(bits.BELOW_TOP)
_NOT_LAST_COLUMN = _U(bits.NOT_LAST_COLUMN)
_ACROSS, _UP = _U(bits.ACROSS), _U(bits.UP)
#: Column counts as the grouping automaton reads them (0, 1, 2, 3 for three or more),
#: by the byte of a column's cells.
_LETTERS = np.array([min(bin(byte).count("1"), COUNT_LETTERS - 1) for byte in range(256)])


def _grouping_tables() -> tuple[np.ndarray, np.ndarray]:
    """`travel.grouping()` as ``_unsplit`` reads it (passed in, not a global: numba would
    keep a global's value in its cache, blind to a change in `travel`)."""
    automaton = grouping()
    states = 1 + max(max(automaton.steps.values()), *(state for state, _ in automaton.steps))
    steps = np.full(states * COUNT_LETTERS, -1, dtype=np.int64)
    for (state, letter), target in automaton.steps.items():
        steps[state * COUNT_LETTERS + letter] = target
    accepts = np.zeros(states, dtype=np.bool_)
    accepts[list(automaton.accepting)] = True
    return steps, accepts


_GROUPING = _grouping_tables()
#: A board as the memory's key: its masks, as a tuple.
_BOARD = types.UniTuple(types.uint64, _MASKS)


@njit(cache=_CACHE, inline="always")
def _in_runs(mask):
    """`bits.in_runs`."""
    up = mask & (mask >> _ONE) & (mask >> _TWO) & _THREE_STARTS
    across = mask & (mask >> _COLUMN_SHIFT) & (mask >> _TWO_COLUMNS)
    return (
        up
        | (up << _ONE)
        | (up << _TWO)
        | across
        | (across << _COLUMN_SHIFT)
        | (across << _TWO_COLUMNS)
    )


@njit(cache=_CACHE)
def _marked(masks):
    """`bits.marked`: every run, and the blasts of the flaming skulls in them."""
    gone = _NONE
    for index in range(_CLASSES):
        if masks[index]:
            gone |= _in_runs(masks[index])
    fire = gone & masks[_CLASSES]
    if fire:
        tiles = _NONE
        for index in range(_CLASSES):
            tiles |= masks[index]
        exploded = _NONE
        while fire:
            exploded |= fire
            tall = fire | ((fire << _ONE) & _ABOVE_FLOOR) | ((fire >> _ONE) & _BELOW_TOP)
            gone |= (tall | (tall << _COLUMN_SHIFT) | (tall >> _COLUMN_SHIFT)) & tiles
            fire = gone & masks[_CLASSES] & ~exploded
    return gone


@njit(cache=_CACHE)
def _remove(masks, gone):
    """`bits.remove`: take ``gone`` off and pack every column to the floor."""
    tiles = _NONE
    for index in range(_MASKS):
        masks[index] &= ~gone
        if index < _CLASSES:
            tiles |= masks[index]
    for col in range(bits.SIZE):
        shift = _U(bits.SIZE * col)
        column = (tiles >> shift) & _BYTE
        if not column & (column + _ONE):  # already packed on the floor
            continue
        occupancy = int(column) << bits.SIZE
        for index in range(_MASKS):
            byte = (masks[index] >> shift) & _BYTE
            if byte:
                masks[index] ^= (byte ^ _U(_PACKED[occupancy | int(byte)])) << shift


@njit(cache=_CACHE)
def _settle(masks):
    """`bits.settle`, in place."""
    gone = _marked(masks)
    while gone:
        _remove(masks, gone)
        gone = _marked(masks)


@njit(cache=_CACHE)
def _legal_swaps(masks):
    """`bits.legal_swaps`: the swaps across named by their left cell, the swaps
    up by their lower one."""
    across = up = same_across = same_up = runs = _NONE
    for index in range(_CLASSES):
        mask = masks[index]
        if not mask:
            continue
        right_pair = (mask >> _COLUMN_SHIFT) & (mask >> _TWO_COLUMNS)
        left_pair = (mask << _COLUMN_SHIFT) & (mask << _TWO_COLUMNS)
        horizontal = right_pair | left_pair | ((mask << _COLUMN_SHIFT) & (mask >> _COLUMN_SHIFT))
        above_pair = (mask >> _ONE) & (mask >> _TWO) & _THREE_STARTS
        below_pair = (mask << _ONE) & (mask << _TWO) & _THREE_ENDS
        vertical = above_pair | below_pair | ((mask << _ONE) & (mask >> _ONE) & _THREE_MIDDLES)
        across |= mask & ((vertical | right_pair) >> _COLUMN_SHIFT)
        across |= (mask >> _COLUMN_SHIFT) & (vertical | left_pair)
        up |= mask & ((horizontal | above_pair) >> _ONE)
        up |= (mask >> _ONE) & (horizontal | below_pair)
        same_across |= mask & (mask >> _COLUMN_SHIFT)
        same_up |= mask & (mask >> _ONE)
        runs |= _in_runs(mask)
    across &= ~same_across & _NOT_LAST_COLUMN
    up &= ~same_up & _BELOW_TOP
    if runs:
        across |= same_across & (runs | (runs >> _COLUMN_SHIFT))
        up |= same_up & (runs | (runs >> _ONE)) & _BELOW_TOP
    return across, up


@njit(cache=_CACHE, inline="always")
def _count_to_three(mask):
    """How many tiles ``mask`` has, counted up to 3."""
    count = 0
    while mask and count < 3:
        mask &= mask - _ONE
        count += 1
    return count


@njit(cache=_CACHE)
def _dead(masks):
    """`bits.dead`: 1 or 2 skulls, or with no explosion possible 1 or 2 tiles of
    any class, never match."""
    skulls = _count_to_three(masks[_SKULLS])
    if 0 < skulls < 3:
        return True
    if skulls and masks[_CLASSES]:
        return False
    for index in range(_CLASSES):  # noqa: SIM110 (numba compiles loops, not any())
        if 0 < _count_to_three(masks[index]) < 3:
            return True
    return False


@njit(cache=_CACHE)
def _cleared(masks):
    """Whether no tile is left."""
    for index in range(_CLASSES):  # noqa: SIM110 (numba compiles loops, not all())
        if masks[index]:
            return False
    return True


@njit(cache=_CACHE, inline="always")
def _key(masks):
    """The board as a tuple, for the memory."""
    return (
        masks[0],
        masks[1],
        masks[2],
        masks[3],
        masks[4],
        masks[5],
        masks[6],
        masks[7],
    )


@njit(cache=_CACHE)
def _swap_into(masks, pair, after):
    """``after`` becomes ``masks`` with the two cells of ``pair`` exchanged."""
    for index in range(_MASKS):
        mask = masks[index]
        both = mask & pair
        after[index] = mask ^ pair if both and both != pair else mask


@njit(cache=_CACHE)
def _unsplit(masks, steps, accepts, most):
    """How many classes have tiles in columns whose counts do not split into runs, read
    by the grouping automaton (`travel.grouping()`: ``steps[state * 4 + letter]``, -1
    where nothing is accepted, and its ``accepts``), counted up to ``most + 1``. With no
    flaming skull, a class's tiles leave only in runs, each in the column it stands in,
    so such a class needs a swap that moves one of its tiles sideways, and a swap moves
    tiles of two classes at most: a board with ``m`` moves left and more than ``2 m``
    such classes cannot be emptied."""
    found = 0
    for index in range(_CLASSES):
        mask = masks[index]
        if not mask:
            continue
        state = 0
        for col in range(bits.SIZE):
            letter = _LETTERS[(mask >> _U(bits.SIZE * col)) & _BYTE]
            state = steps[state * COUNT_LETTERS + letter]
            if state < 0:
                break
        if state < 0 or not accepts[state]:
            found += 1
            if found > most:
                return found
    return found


@njit(cache=_CACHE)
def _classes(masks):
    """How many classes have tiles on the board."""
    present = 0
    for index in range(_CLASSES):
        if masks[index]:
            present += 1
    return present


@njit(cache=_CACHE)
def _clears(masks, moves, short, enough, keep, steps, accepts):
    """Whether ``moves`` moves or fewer empty the board ``masks``: every legal swap,
    settled, and every move after it, depth first. ``short`` keeps for each board the
    most moves known not to clear it, ``enough`` the fewest known to; both are emptied
    when they hold ``keep`` boards (one question may meet millions). A swap is
    settled only where the classes it leaves unsplit (``_unsplit``) are few enough for
    the moves after it, or where a flaming skull may blast: most boards are a move or
    two from the end, and settling is what a board costs most."""
    if _cleared(masks):
        return True
    key = _key(masks)
    if moves <= short.get(key, 0):  # no move at all clears a board with tiles
        return False
    if enough.get(key, moves + 1) <= moves:
        return True
    clears = False
    if not _dead(masks):
        across, up = _legal_swaps(masks)
        after = np.empty(_MASKS, dtype=np.uint64)
        # classes a swap may leave unsplit: two for each move after it
        spare = 2 * (moves - 1)
        judged = not masks[_CLASSES] and spare < _classes(masks)
        for pending, unit in ((across, _ACROSS), (up, _UP)):
            while pending and not clears:
                lowest = pending & (~pending + _ONE)
                pending ^= lowest
                _swap_into(masks, unit * lowest, after)
                if judged and _unsplit(after, steps, accepts, spare) > spare:
                    continue
                _settle(after)
                if moves == 1:
                    clears = _cleared(after)
                else:
                    clears = _clears(after, moves - 1, short, enough, keep, steps, accepts)
    if len(short) + len(enough) >= keep:
        short.clear()
        enough.clear()
    if clears:
        enough[key] = min(moves, enough.get(key, moves))
    else:
        short[key] = max(moves, short.get(key, 0))
    return clears


@njit(cache=_CACHE)
def _new_memory():
    """Two empty memories of boards. Made here, compiled and cached with the rest: a
    typed dictionary made from Python has its code compiled anew in every process
    (0.15-0.2 s, against 0.006 s here)."""
    return Dict.empty(_BOARD, types.int64), Dict.empty(_BOARD, types.int64)


class Memory:
    """What the search has learnt of boards, kept across questions (and so across
    ticks, paths and budgets of one solve), up to ``keep`` boards: for each board the
    most moves known not to clear it (``short``) and the fewest known to (``enough``)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.short, self.enough = _new_memory()

    def clears(self, board: bits.Bits, moves: int) -> bool:
        """Whether ``moves`` moves or fewer empty ``board``."""
        masks = np.array(board, dtype=np.uint64)
        return bool(_clears(masks, moves, self.short, self.enough, self.keep, *_GROUPING))

"""Capture boards as bitboards, for the lookahead's exhaustive search and the beam.

The lookahead (`capture.Lookahead`) plays every move of every board a few moves from
the end of a plan, and the string simulator of `capture` (regular expressions, column
slices) spends most of that time settling boards and finding legal moves. Here a board
is one 64-bit mask per tile class and one for the flaming skulls, column by column:
bit ``8 * col + height``, height 0 at the floor, so that each column is one byte. A
run of three, a blast and every legal swap of the board are then a few shifts and ands
over whole masks at once, and gravity packs each column's byte that has a gap to the
floor with one table look-up per class. The rules are those of `capture` (the tests play both
simulators on the same boards and compare); this module only answers faster, and the
string board stays the puzzle's one shown and checked form.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

#: The classes matching sees (flaming skulls are skulls), in the order of the masks.
KINDS = "bcgprsy"
SKULL_INDEX = KINDS.index("s")
#: A board as masks: one per class of `KINDS`, then the flaming skulls (also skulls).
Bits = tuple[int, ...]

SIZE = 8
FULL = (1 << 64) - 1
#: The board with no tile left.
CLEARED: Bits = (0,) * (len(KINDS) + 1)


def bit_of(cell: int) -> int:
    """The bit of a cell (``row * 8 + col``, row 0 at the top)."""
    row, col = divmod(cell, SIZE)
    return SIZE * col + SIZE - 1 - row


def cell_of(bit: int) -> int:
    """The cell of a bit (the inverse of `bit_of`)."""
    col, height = divmod(bit, SIZE)
    return (SIZE - 1 - height) * SIZE + col


def pair_of(first: int, second: int) -> int:
    """The mask of a swap of two cells."""
    return 1 << bit_of(first) | 1 << bit_of(second)


def _heights_mask(heights: Iterable[int]) -> int:
    """The cells at the given heights, in every column."""
    byte = sum(1 << height for height in heights)
    return sum(byte << SIZE * col for col in range(SIZE))


COLUMN = [0xFF << SIZE * col for col in range(SIZE)]
#: The cells of each set of columns (bit c for column c).
COLUMNS = [sum(COLUMN[col] for col in range(SIZE) if chosen >> col & 1) for chosen in range(256)]
NOT_LAST_COLUMN = FULL >> SIZE
#: Cells where a vertical line of three may start from below (heights 0-5), have its
#: middle (1-6) or its top (2-7); cells with a cell below them (1-7) or above (0-6).
THREE_STARTS = _heights_mask(range(SIZE - 2))
THREE_MIDDLES = _heights_mask(range(1, SIZE - 1))
THREE_ENDS = _heights_mask(range(2, SIZE))
ABOVE_FLOOR = _heights_mask(range(1, SIZE))
BELOW_TOP = _heights_mask(range(SIZE - 1))


def _packed() -> list[int]:
    """`PACKED`: for a column's tiles ``occupied`` (a byte) and a subset ``tiles`` of
    them, at ``occupied << 8 | tiles``, where ``tiles`` land when the column falls.

    Built from smaller columns: without its lowest tile, a column's tiles land one
    place higher than they would on their own, and that tile lands on the floor if it
    is among ``tiles``. One step per entry (a process builds the table on import)."""
    table = [0] * (1 << 2 * SIZE)
    for occupied in range(1, 1 << SIZE):
        lowest = occupied & -occupied
        above = (occupied ^ lowest) << SIZE
        tiles = occupied
        while True:  # every subset of occupied, from occupied down to 0
            table[occupied << SIZE | tiles] = (tiles & lowest != 0) | table[
                above | tiles & ~lowest
            ] << 1
            if not tiles:
                break
            tiles = (tiles - 1) & occupied
    return table


PACKED = _packed()


def from_board(board: str, empty: str = "_", flaming: str = "S") -> Bits:
    """The masks of a board string (64 characters, row by row)."""
    masks = [0] * (len(KINDS) + 1)
    for cell, tile in enumerate(board):
        if tile == empty:
            continue
        bit = 1 << bit_of(cell)
        if tile == flaming:
            masks[-1] |= bit
            tile = "s"
        masks[KINDS.index(tile)] |= bit
    return tuple(masks)


def to_board(bits: Bits, empty: str = "_", flaming: str = "S") -> str:
    """The board string of masks (the inverse of `from_board`)."""
    cells = [empty] * (SIZE * SIZE)
    for kind, mask in zip(KINDS, bits, strict=False):
        for bit in bits_of(mask):
            cells[cell_of(bit)] = kind
    for bit in bits_of(bits[-1]):
        cells[cell_of(bit)] = flaming
    return "".join(cells)


def bits_of(mask: int) -> Iterator[int]:
    """The bits set in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def columns_of(mask: int) -> Iterator[int]:
    """The columns in which a mask has cells."""
    return (col for col in range(SIZE) if mask >> SIZE * col & 0xFF)


def occupied(bits: Sequence[int]) -> int:
    """Every cell with a tile."""
    every = 0
    for mask in bits[:-1]:
        every |= mask
    return every


def in_runs(mask: int) -> int:
    """The cells of a class's mask that lie in a horizontal or vertical run of 3+."""
    up = mask & (mask >> 1) & (mask >> 2) & THREE_STARTS
    across = mask & (mask >> 8) & (mask >> 16)
    return up | (up << 1) | (up << 2) | across | (across << 8) | (across << 16)


def around(cells: int) -> int:
    """The cells around ``cells`` (8 neighbours each), ``cells`` included."""
    tall = cells | ((cells << 1) & ABOVE_FLOOR) | ((cells >> 1) & BELOW_TOP)
    return (tall | (tall << 8) | (tall >> 8)) & FULL


def marked(bits: Sequence[int]) -> int:
    """The cells one phase removes: every run, and the blast of every flaming skull
    marked (a blasted flaming skull goes off too)."""
    gone = 0
    for mask in bits[:-1]:
        if mask:
            gone |= in_runs(mask)
    fire = gone & bits[-1]
    if fire:
        tiles, exploded = occupied(bits), 0
        while fire:
            exploded |= fire
            gone |= around(fire) & tiles
            fire = gone & bits[-1] & ~exploded
    return gone


def remove(masks: list[int], gone: int) -> None:
    """Take the cells ``gone`` off the board and let every column fall (in place): each
    column's byte of each mask is packed to the floor. (Not only the columns that lost
    tiles: a tile swapped sideways onto a shorter column leaves a gap in its own.)"""
    keep = ~gone
    tiles = 0
    for index, mask in enumerate(masks):
        masks[index] = mask = mask & keep
        tiles |= mask
    for col in range(SIZE):
        shift = SIZE * col
        column = tiles >> shift & 0xFF
        if not column & (column + 1):  # already packed on the floor
            continue
        occupancy = column << SIZE
        for index, mask in enumerate(masks):
            byte = mask >> shift & 0xFF
            if byte:
                masks[index] = mask ^ (byte ^ PACKED[occupancy | byte]) << shift


def settle(bits: Bits) -> Bits:
    """The board once every run and blast is gone and every tile has fallen, phase after
    phase (`capture.settle`, board only)."""
    gone = marked(bits)
    if not gone:
        return bits
    masks = list(bits)
    while gone:
        remove(masks, gone)
        gone = marked(masks)
    return tuple(masks)


def legal_swaps(bits: Bits) -> tuple[int, int]:
    """Every legal swap, as two masks of the cell that names it: its left cell for a
    swap with the cell to the right (`ACROSS`), its lower cell for one with the cell
    above (`UP`).

    A swap is legal when a tile it moves completes a line of three with two tiles of
    its class that the swap leaves in place: for each class, the cells where an arriving
    tile would complete one, by the side the tile comes from, are a few shifts of the
    class's mask. Two tiles of one class swapped change nothing: legal only where
    either already lies in a run (`capture.legal_moves`)."""
    across = up = same_across = same_up = runs = 0
    for mask in bits[:-1]:
        if not mask:
            continue
        # where an arriving tile completes a line with two tiles of the class
        right_pair = (mask >> 8) & (mask >> 16)
        left_pair = (mask << 8) & (mask << 16) & FULL
        horizontal = right_pair | left_pair | ((mask << 8) & (mask >> 8))
        above_pair = (mask >> 1) & (mask >> 2) & THREE_STARTS
        below_pair = (mask << 1) & (mask << 2) & THREE_ENDS
        vertical = above_pair | below_pair | ((mask << 1) & (mask >> 1) & THREE_MIDDLES)
        # a tile of the class moving right from the named cell, or left into it
        across |= mask & ((vertical | right_pair) >> 8)
        across |= (mask >> 8) & (vertical | left_pair)
        # a tile of the class moving up from the named cell, or down into it
        up |= mask & ((horizontal | above_pair) >> 1)
        up |= (mask >> 1) & (horizontal | below_pair)
        same_across |= mask & (mask >> 8)
        same_up |= mask & (mask >> 1)
        runs |= in_runs(mask)
    across &= ~same_across & NOT_LAST_COLUMN
    up &= ~same_up & BELOW_TOP
    if runs:
        across |= same_across & (runs | (runs >> 8))
        up |= same_up & (runs | (runs >> 1)) & BELOW_TOP
    return across, up


#: A swap's two cells, shifted to the bit that names it (see `legal_swaps`).
ACROSS = 1 | 1 << SIZE
UP = 0b11


def across_pairs(across: int) -> Iterator[int]:
    """The masks of the swaps named in ``across``."""
    return (ACROSS << bit for bit in bits_of(across))


def up_pairs(up: int) -> Iterator[int]:
    """The masks of the swaps named in ``up``."""
    return (UP << bit for bit in bits_of(up))


def touching(across: int, mask: int) -> int:
    """The swaps of ``across`` with a cell in ``mask``."""
    return across & (mask | mask >> SIZE)


def moving_right(across: int, mask: int) -> int:
    """The swaps of ``across`` that move a tile of ``mask`` to the right."""
    return across & mask


def moving_left(across: int, mask: int) -> int:
    """The swaps of ``across`` that move a tile of ``mask`` to the left."""
    return across & (mask >> SIZE)


def alike(bits: Bits) -> int:
    """The swaps across of two tiles of one class (they change no counts)."""
    same = 0
    for mask in bits[:-1]:
        same |= mask & (mask >> SIZE)
    return same


def swap_pairs(bits: Bits) -> list[int]:
    """Every legal swap as the mask of its two cells, in the order `capture.legal_moves`
    names them (by upper or left cell, the swap to the right before the one below)."""
    across, up = legal_swaps(bits)
    named = [(cell_of(bit), 0, ACROSS << bit) for bit in bits_of(across)]
    named += [(cell_of(bit + 1), 1, UP << bit) for bit in bits_of(up)]
    return [pair for _, _, pair in sorted(named)]


def swap(bits: Bits, pair: int) -> Bits:
    """The board with the tiles of the two cells of ``pair`` (a mask) exchanged."""
    return tuple(mask ^ pair if mask & pair and mask & pair != pair else mask for mask in bits)


def dead(bits: Bits) -> bool:
    """Whether counting shows the board can never be cleared (`capture.dead_reason`):
    1 or 2 skulls never match, and with no explosion possible, neither do 1 or 2 tiles
    of any class."""
    skulls = bits[SKULL_INDEX].bit_count()
    if 0 < skulls < 3:
        return True
    if skulls and bits[-1]:
        return False
    return any(0 < mask.bit_count() < 3 for mask in bits[:-1])


def column_counts(bits: Bits) -> dict[str, tuple[int, ...]]:
    """`capture.column_counts` of the board: tiles per class and column."""
    return {
        kind: tuple((mask & column).bit_count() for column in COLUMN)
        for kind, mask in zip(KINDS, bits, strict=False)
        if mask
    }


def flaming_columns(bits: Bits) -> list[int]:
    """The column of every flaming skull, in the board's reading order (as
    `capture.flaming_columns`)."""
    return [cell % SIZE for cell in sorted(map(cell_of, bits_of(bits[-1])))]

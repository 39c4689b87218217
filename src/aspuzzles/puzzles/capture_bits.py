"""Capture boards as bitboards, for the lookahead's exhaustive search.

The lookahead (`capture.Lookahead`) plays every move of every board a few moves from
the end of a plan, and the string simulator of `capture` (regular expressions, column
slices) spends most of that time settling boards and finding legal moves. Here a board
is one 64-bit mask per tile class (bit ``row * 8 + col``, row 0 at the top) and one for
the flaming skulls: a run of three, a blast, a fall of one row and every legal swap of
the board are then a few shifts and ands over whole masks at once, several times
faster in Python. The rules are those of `capture` (the tests play both simulators on
the same boards and compare); this module only answers faster, and the string board
stays the puzzle's one shown and checked form.
"""

from __future__ import annotations

from collections.abc import Iterator

#: The classes matching sees (flaming skulls are skulls), in the order of the masks.
KINDS = "bcgprsy"
SKULL_INDEX = KINDS.index("s")
#: A board as masks: one per class of `KINDS`, then the flaming skulls (also skulls).
Bits = tuple[int, ...]

SIZE = 8
FULL = (1 << 64) - 1
#: The board with no tile left.
CLEARED: Bits = (0,) * (len(KINDS) + 1)
#: A swap's two cells, shifted to the cell that names it: with the cell to its right,
#: or with the cell below.
ACROSS = 0b11
DOWN = 1 | 1 << SIZE


def _columns_mask(columns: range) -> int:
    """The cells of the given columns."""
    return sum(1 << (row * SIZE + col) for row in range(SIZE) for col in columns)


COLUMN = [_columns_mask(range(col, col + 1)) for col in range(SIZE)]
NOT_FIRST_COLUMN = _columns_mask(range(1, SIZE))
NOT_LAST_COLUMN = _columns_mask(range(SIZE - 1))
#: Cells where a horizontal line of three may start (columns 0-5), its middle sit
#: (columns 1-6) or end (columns 2-7).
THREE_STARTS = _columns_mask(range(SIZE - 2))
THREE_MIDDLES = _columns_mask(range(1, SIZE - 1))
THREE_ENDS = _columns_mask(range(2, SIZE))
#: Cells with a row below them.
ABOVE_FLOOR = (1 << (SIZE * (SIZE - 1))) - 1


def from_board(board: str, empty: str = "_", flaming: str = "S") -> Bits:
    """The masks of a board string (64 characters, row by row)."""
    masks = [0] * (len(KINDS) + 1)
    for cell, tile in enumerate(board):
        if tile == empty:
            continue
        bit = 1 << cell
        if tile == flaming:
            masks[-1] |= bit
            tile = "s"
        masks[KINDS.index(tile)] |= bit
    return tuple(masks)


def to_board(bits: Bits, empty: str = "_", flaming: str = "S") -> str:
    """The board string of masks (the inverse of `from_board`)."""
    cells = [empty] * (SIZE * SIZE)
    for kind, mask in zip(KINDS, bits, strict=False):
        for cell in cells_of(mask):
            cells[cell] = kind
    for cell in cells_of(bits[-1]):
        cells[cell] = flaming
    return "".join(cells)


def cells_of(mask: int) -> Iterator[int]:
    """The cells of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def columns_of(mask: int) -> Iterator[int]:
    """The columns in which a mask has cells."""
    mask |= mask >> 32
    mask |= mask >> 16
    mask |= mask >> 8
    return cells_of(mask & 0xFF)


def occupied(bits: Bits) -> int:
    """Every cell with a tile."""
    every = 0
    for mask in bits[:-1]:
        every |= mask
    return every


def in_runs(mask: int) -> int:
    """The cells of a class's mask that lie in a horizontal or vertical run of 3+."""
    across = mask & (mask >> 1) & (mask >> 2) & THREE_STARTS
    down = mask & (mask >> 8) & (mask >> 16)
    return across | (across << 1) | (across << 2) | down | (down << 8) | (down << 16)


def around(cells: int) -> int:
    """The cells around ``cells`` (8 neighbours each), ``cells`` included."""
    wide = cells | ((cells << 1) & NOT_FIRST_COLUMN) | ((cells >> 1) & NOT_LAST_COLUMN)
    return (wide | (wide << 8) | (wide >> 8)) & FULL


def marked(bits: Bits) -> int:
    """The cells one phase removes: every run, and the blast of every flaming skull
    marked (a blasted flaming skull goes off too)."""
    gone = 0
    for mask in bits[:-1]:
        if mask:
            across = mask & (mask >> 1) & (mask >> 2) & THREE_STARTS
            down = mask & (mask >> 8) & (mask >> 16)
            gone |= across | (across << 1) | (across << 2) | down | (down << 8) | (down << 16)
    fire = gone & bits[-1]
    if fire:
        tiles, exploded = occupied(bits), 0
        while fire:
            exploded |= fire
            gone |= around(fire) & tiles
            fire = gone & bits[-1] & ~exploded
    return gone


def fall(masks: list[int]) -> None:
    """Every tile drops while the cell below it is empty (in place)."""
    tiles = 0
    for mask in masks[:-1]:
        tiles |= mask
    while True:
        # a tile with an empty cell below it moves down one row, all at once
        drops = tiles & ~(tiles >> SIZE) & ABOVE_FLOOR
        if not drops:
            return
        for index, mask in enumerate(masks):
            moving = mask & drops
            if moving:
                masks[index] = mask ^ moving | (moving << SIZE)
        tiles = tiles ^ drops | (drops << SIZE)


def settle(bits: Bits) -> Bits:
    """The board once every run and blast is gone and every tile has fallen, phase after
    phase (`capture.settle`, board only)."""
    gone = marked(bits)
    if not gone:
        return bits
    masks = list(bits)
    while gone:
        keep = ~gone
        for index, mask in enumerate(masks):
            masks[index] = mask & keep
        fall(masks)
        gone = marked(masks)
    return tuple(masks)


def legal_swaps(bits: Bits) -> tuple[int, int]:
    """Every legal swap, as two masks of the cell that names it: its left cell for a
    swap with the cell to the right, its upper cell for one with the cell below.

    A swap is legal when a tile it moves completes a line of three with two tiles of
    its class that the swap leaves in place: for each class, the cells where an arriving
    tile would complete one, by the side the tile comes from, are a few shifts of the
    class's mask. Two tiles of one class swapped change nothing: legal only where
    either already lies in a run (`capture.legal_moves`)."""
    right = down = same_right = same_down = runs = 0
    for mask in bits[:-1]:
        if not mask:
            continue
        across_after = (mask >> 1) & (mask >> 2) & THREE_STARTS  # c+1, c+2 hold the class
        across_before = (mask << 1) & (mask << 2) & THREE_ENDS
        across_middle = (mask << 1) & (mask >> 1) & THREE_MIDDLES
        below = (mask >> 8) & (mask >> 16)
        above = (mask << 8) & (mask << 16) & FULL
        vertical = below | above | ((mask << 8) & (mask >> 8))
        horizontal = across_after | across_before | across_middle
        # a tile of the class moving right into c+1, or left into c
        right |= mask & ((vertical | across_after) >> 1)
        right |= (mask >> 1) & (vertical | across_before)
        # a tile of the class moving down into c+8, or up into c
        down |= mask & ((horizontal | below) >> 8)
        down |= (mask >> 8) & (horizontal | above)
        same_right |= mask & (mask >> 1)
        same_down |= mask & (mask >> 8)
        runs |= in_runs(mask)
    right &= ~same_right & NOT_LAST_COLUMN
    down &= ~same_down
    if runs:
        right |= same_right & (runs | (runs >> 1)) & NOT_LAST_COLUMN
        down |= same_down & (runs | (runs >> 8))
    return right, down


def swap_pairs(bits: Bits) -> Iterator[int]:
    """Every legal swap as the mask of its two cells, in the order `capture.legal_moves`
    names them (by cell, the swap to the right before the one below)."""
    across, down = legal_swaps(bits)
    for cell in cells_of(across | down):
        if across >> cell & 1:
            yield ACROSS << cell
        if down >> cell & 1:
            yield DOWN << cell


def swap(bits: Bits, pair: int) -> Bits:
    """The board with the tiles of the two cells of ``pair`` (a mask) exchanged."""
    return tuple(mask ^ pair if mask & pair and mask & pair != pair else mask for mask in bits)


def kind_at(bits: Bits, cell: int, empty: str = "_") -> str:
    """The class of the tile in ``cell`` (``empty`` for none)."""
    for kind, mask in zip(KINDS, bits, strict=False):
        if mask >> cell & 1:
            return kind
    return empty


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
    """The column of every flaming skull, top row first (as `capture.flaming_columns`)."""
    return [cell % SIZE for cell in cells_of(bits[-1])]

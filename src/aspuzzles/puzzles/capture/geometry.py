"""What ASP would derive slowly, computed once as facts: the cells a tile can ever
occupy, the lines of three, the swaps that can make a run, the phases a plan can
take.
"""

from __future__ import annotations

from clingo import Function, Number, Symbol

from .model import DIRECTIONS, EMPTY, SIZE, Board
from .rules import LINES, NEIGHBOURS8, class_counts


def resting_cells(board: Board) -> set[int]:
    """Cells a tile can rest on: at or below its column's first tile. Columns only
    shrink: a tile swapped above a column always completes a run and goes at once."""
    cells = set()
    for col in range(SIZE):
        rows = [row for row in range(SIZE) if board[row * SIZE + col] != EMPTY]
        if rows:
            cells |= {row * SIZE + col for row in range(min(rows), SIZE)}
    return cells


def orthogonal(cell: int) -> list[int]:
    row, col = divmod(cell, SIZE)
    return [
        (row + dr) * SIZE + col + dc
        for dr, dc in DIRECTIONS.values()
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE
    ]


def swap_cells(space: set[int]) -> set[int]:
    """Resting cells and the empty cells a tile can be swapped into from them; every
    column keeps a contiguous run of cells down to the floor."""
    cells = set(space)
    for cell in space:
        cells |= set(orthogonal(cell))
    for cell in list(cells):
        row, col = divmod(cell, SIZE)
        cells |= {below * SIZE + col for below in range(row, SIZE)}
    return cells


def triples(cells: set[int]) -> list[tuple[int, int, int]]:
    """Every three cells in a row or column, all within ``cells``."""
    found = []
    for line in LINES:
        for start in range(SIZE - 2):
            three = (line[start], line[start + 1], line[start + 2])
            if all(cell in cells for cell in three):
                found.append(three)
    return found


def phase_bound(board: Board) -> int:
    """Every phase removes a run of 3 of one class: the plan's phases are at most the
    sum over classes of count // 3 (this also bounds the moves)."""
    return sum(count // 3 for count in class_counts(board).values())


def geometry_facts(board: Board) -> list[Symbol]:
    """Cells, columns, falling slots, lines, neighbours and swap patterns."""
    space = resting_cells(board)
    cells = swap_cells(space)
    lines = triples(cells)
    pairs = swappable_pairs(cells, space)
    facts = _cell_facts(cells) + _line_facts(lines)
    for first, second in pairs:
        facts.append(fact_of("pair", first, second))
        facts += _forms_facts(second, first, lines, space)
        facts += _forms_facts(first, second, lines, space)
    if board == mirrored_board(board):  # only then does the encoding use mirror images
        facts.append(Function("symmetric", []))
        for first, second in pairs:
            image = sorted((mirror_cell(first), mirror_cell(second)))
            facts.append(fact_of("mirror", first, second, *image))
    return facts


def fact_of(name: str, *values: int) -> Symbol:
    return Function(name, [Number(value) for value in values])


def _cell_facts(cells: set[int]) -> list[Symbol]:
    """Per cell: its column, the cell below (or the floor), where a tile falling from
    it lands over N-1 tiles, and its 8 neighbours."""
    facts = []
    for cell in sorted(cells):
        row, col = divmod(cell, SIZE)
        facts += [fact_of("cell", cell), fact_of("col", cell, col)]
        if row == SIZE - 1:
            facts.append(fact_of("bottom", cell))
        else:
            facts.append(fact_of("below", cell, cell + SIZE))
        for height in range(1, SIZE - row + 1):
            facts.append(fact_of("slot", cell, height, (SIZE - height) * SIZE + col))
        facts += [fact_of("near8", cell, other) for other in NEIGHBOURS8[cell] if other in cells]
    return facts


def _line_facts(lines: list[tuple[int, int, int]]) -> list[Symbol]:
    facts = []
    for number, three in enumerate(lines):
        facts.append(fact_of("line", number, *three))
        facts += [fact_of("on", number, cell) for cell in three]
    return facts


def swappable_pairs(cells: set[int], space: set[int]) -> list[tuple[int, int]]:
    """Adjacent cells (the second right of or below the first) that a swap may exchange:
    at least one of them is a resting cell, where a tile can be before the swap."""
    pairs = []
    for first in sorted(cells):
        for second in (first + 1, first + SIZE):
            if second not in cells or (second == first + 1 and first % SIZE == SIZE - 1):
                continue
            if first in space or second in space:
                pairs.append((first, second))
    return pairs


def _forms_facts(
    target: int, source: int, lines: list[tuple[int, int, int]], space: set[int]
) -> list[Symbol]:
    """The lines of three through ``target`` but not ``source`` whose other two cells can
    hold tiles: a tile arriving at ``target`` from ``source`` completes a run there when
    those two match it."""
    facts = []
    for three in lines:
        if target in three and source not in three:
            others = [cell for cell in three if cell != target]
            if all(cell in space for cell in others):
                facts.append(fact_of("forms", target, source, *others))
    return facts


def mirror_cell(cell: int) -> int:
    row, col = divmod(cell, SIZE)
    return row * SIZE + SIZE - 1 - col


def mirrored_board(board: Board) -> Board:
    return "".join(board[mirror_cell(cell)] for cell in range(SIZE * SIZE))

"""Whole-board rotations: one placement per rotation class is kept by anchoring a tile
(or a cell's turn), and a count is multiplied back to raw placements.
"""

from __future__ import annotations

from typing import NamedTuple

from clingo import Function, Number, Symbol

from .model import TilesInstance, distinct_rotations, rotate


class SymmetryBreak(NamedTuple):
    """How one placement per class of whole-board rotations is kept."""

    #: Facts for the encoding: ``anchor/2`` or ``cell_anchor/2`` with ``orbit_first/2``.
    facts: tuple[Symbol, ...]
    #: Raw placements in each class (what ``count`` is multiplied by for ``count_raw``).
    class_size: int
    #: (tile, K) where the cut limits a tile's turns to those below K (``anchor/2``).
    anchor: tuple[int, int] | None = None


def symmetry_break(instance: TilesInstance) -> SymmetryBreak:
    """Keep one placement of each class of whole-board rotations.

    On a board of two or more cells no rotation maps a placement to itself (each id is
    used once and some tile changes cell), so every class has exactly as many members
    as there are rotations: 4 (square) or 2. The cheapest cut limits one tile's turns
    (see ``anchor_tile``); when every tile is symmetric, a tile's cell is limited
    instead (``cell_anchor_facts``). Fixed pieces leave only the rotations that keep
    them in place (``kept_rotations``), usually none but the identity: then every
    placement is its own class and nothing is cut. A 1x1 board is the exception: its
    one tile stays put and the rotations only turn it, so its class is its distinct
    turns and turn 0 stands for them.
    """
    if len(instance.tiles) == 1:
        if instance.fixed:
            return SymmetryBreak((), 1)
        turns = len(distinct_rotations(instance.tiles[0]))
        return _anchored(1, 1, turns)
    rotations = kept_rotations(instance)
    if rotations == 1:
        return SymmetryBreak((), 1)
    if (anchor := anchor_tile(instance)) is not None:
        return _anchored(anchor, 4 // rotations, rotations)
    return SymmetryBreak(cell_anchor_facts(instance, rotations), rotations)


def _anchored(tile_id: int, below: int, class_size: int) -> SymmetryBreak:
    """The cut that limits one tile's turns to those below ``below``."""
    fact = Function("anchor", [Number(tile_id), Number(below)])
    return SymmetryBreak((fact,), class_size, (tile_id, below))


def kept_rotations(instance: TilesInstance) -> int:
    """How many whole-board rotations map every solution that keeps the fixed pieces
    to another that keeps them: all of the board's (4 or 2) without fixed pieces.
    A rotation moves every cell but the centre of an odd board, so with fixed pieces
    only a lone fixed tile on the centre, whose picture the rotation's turn does not
    change, keeps any; they form a group of 1, 2 or 4 rotations."""
    if not instance.fixed:
        return instance.board_rotations
    fix = instance.fixed[0]
    centre = ((instance.rows + 1) // 2, (instance.cols + 1) // 2)
    odd = instance.rows % 2 == 1 and instance.cols % 2 == 1
    if len(instance.fixed) > 1 or not odd or (fix.row, fix.col) != centre:
        return 1
    tile = instance.tiles[fix.tile - 1]
    step = 4 // instance.board_rotations  # quarter turns of the smallest rotation
    return sum(
        1
        for turns in range(0, 4, step)
        if rotate(tile, fix.turns + turns) == rotate(tile, fix.turns)
    )


def anchor_tile(instance: TilesInstance) -> int | None:
    """The tile whose turns are limited to break the whole-board rotation symmetry.

    Rotating a solution by 180 (or 90 on a square board) turns every tile by the same
    amount. Limiting one tile to turns below 4/rotations picks one member per class, but
    only if that tile's turns are all distinct: the first tile with four distinct
    rotations is chosen (None if there is none). A fixed tile never qualifies: the
    only one that rotations keep is symmetric under them.
    """
    for tile_id, tile in enumerate(instance.tiles, start=1):
        if len(distinct_rotations(tile)) == 4:
            return tile_id
    return None


def cell_anchor_facts(instance: TilesInstance, rotations: int) -> tuple[Symbol, ...]:
    """Symmetry breaking by position, for boards whose tiles are all symmetric.

    A rotation moves every cell but the centre (odd boards only), so a non-centre cell's
    orbit under the ``rotations`` kept has one cell per rotation: requiring tile 1 to
    stand on the first cell of its orbit keeps one member per class. If tile 1 stands
    on the centre, which every rotation fixes, tile 2 is held to its orbit's first cell.
    """
    cells = [(r, c) for r in range(1, instance.rows + 1) for c in range(1, instance.cols + 1)]
    firsts = [cell for cell in cells if cell == min(_orbit(instance, cell, rotations))]
    return (
        Function("cell_anchor", [Number(1), Number(1)]),
        Function("cell_anchor", [Number(2), Number(2)]),
        *(Function("orbit_first", [Number(r), Number(c)]) for r, c in firsts),
    )


def _orbit(instance: TilesInstance, cell: tuple[int, int], rotations: int) -> set[tuple[int, int]]:
    """The cells a 1-based cell is carried to by a group of ``rotations`` whole-board
    rotations (4: every quarter turn of a square board; 2: the half turn)."""
    orbit, current = set(), cell
    while current not in orbit:
        orbit.add(current)
        current = turned_cell(instance, current, 4 // rotations)
    return orbit


def turned_cell(
    instance: TilesInstance, cell: tuple[int, int], quarter_turns: int
) -> tuple[int, int]:
    """Where a cell goes when the board turns clockwise by ``quarter_turns`` (a multiple
    of 2 on a board that is not square, which only half turns map onto itself)."""
    for _ in range(quarter_turns if instance.square else quarter_turns // 2):
        cell = _rotated_cell(instance, cell)
    return cell


def _rotated_cell(instance: TilesInstance, cell: tuple[int, int]) -> tuple[int, int]:
    """Where a cell goes when the board turns: 90 degrees clockwise on a square board,
    else 180 degrees (the smallest rotation that maps the board onto itself)."""
    row, col = cell
    if instance.square:
        return col, instance.rows + 1 - row
    return instance.rows + 1 - row, instance.cols + 1 - col

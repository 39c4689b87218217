"""Where each distinct turn of a tile may go: the frame facing out on framed boards,
fixed pieces kept in their place.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import FRAME, TilesInstance, distinct_rotations, rotate, shown_turn


def turns_and_cells(
    instance: TilesInstance, tile_id: int
) -> list[tuple[int, tuple[str, str, str, str], list[tuple[int, int]]]]:
    """Each distinct turn of a tile, with its edges as turned and the cells where it
    may stand (``fits/4`` for the encoding, the candidates of the greedy placement)."""
    tile = instance.tiles[tile_id - 1]
    return [
        (turns, rotate(tile, turns), positions(instance, tile_id, turns))
        for turns in distinct_rotations(tile)
    ]


def positions(instance: TilesInstance, tile_id: int, turns: int) -> list[tuple[int, int]]:
    """Cells where a turned tile may stand: anywhere for animals; for e2, exactly
    where its grey edges face the border; a fixed tile only on its cell in its turn,
    and no other tile on a fixed cell."""
    edges = rotate(instance.tiles[tile_id - 1], turns)
    cells = [(r, c) for r in range(1, instance.rows + 1) for c in range(1, instance.cols + 1)]
    if instance.framed:
        cells = [(r, c) for r, c in cells if grey_faces_out(instance, edges, r, c)]
    if not instance.fixed:
        return cells
    for fix in instance.fixed:
        if fix.tile == tile_id:
            same_picture = shown_turn(instance.tiles[tile_id - 1], fix.turns) == turns
            return [(fix.row, fix.col)] if same_picture and (fix.row, fix.col) in cells else []
    taken = {(fix.row, fix.col) for fix in instance.fixed}
    return [cell for cell in cells if cell not in taken]


def grey_faces_out(instance: TilesInstance, edges: Sequence[str], row: int, col: int) -> bool:
    """Whether a turned tile's grey edges are exactly the sides of the 1-based cell
    that lie on the border (e2 boards)."""
    return tuple(edge == FRAME for edge in edges) == border_sides(instance, row, col)


def border_sides(instance: TilesInstance, row: int, col: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (top, right, bottom, left) of a 1-based cell lie on the border."""
    return (row == 1, col == instance.cols, row == instance.rows, col == 1)

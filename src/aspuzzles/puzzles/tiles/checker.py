"""The independent checker: a placement's inventory, fixed pieces, frame and matching
edges, each walked afresh.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .model import FRAME, SIDES, TilesInstance, matches, rotate
from .placements import border_sides


def is_pair(cell: Any) -> bool:
    return isinstance(cell, list) and len(cell) == 2 and all(type(n) is int for n in cell)


def check_placement(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]], scored: bool = False
) -> list[str]:
    """Every tile once, turns 0-3, the fixed pieces in place, the frame outside, and
    (unless ``scored``: Eternity II's contests let edges mismatch) every shared edge
    matching."""
    rows, cols = instance.rows, instance.cols
    if len(placement) != rows or any(len(row) != cols for row in placement):
        return [f"placement is not {rows}x{cols}"]
    problems = _inventory_problems(instance, placement)
    if problems or any(not 0 <= r < 4 for row in placement for _, r in row):
        return problems or ["a rotation is not 0-3"]
    problems += _fix_problems(instance, placement)
    shown = [[rotate(instance.tiles[t - 1], r) for t, r in row] for row in placement]
    if not scored:
        problems += [
            f"({r},{c}) {side} {edge} vs {other}"
            for r, c, side, edge, other in _mismatches(instance, shown)
        ]
    if instance.framed:
        problems += _frame_problems(instance, shown)
    return problems


def mismatched_edges(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]]
) -> list[tuple[int, int, str]]:
    """The shared edges that do not match, as ``(row, col, "right" | "bottom")`` of the
    1-based cell left of or above them, in reading order."""
    shown = [[rotate(instance.tiles[t - 1], r) for t, r in row] for row in placement]
    return sorted((r, c, side) for r, c, side, _, _ in _mismatches(instance, shown))


def _mismatches(
    instance: TilesInstance, shown: Sequence[Sequence[tuple[str, str, str, str]]]
) -> list[tuple[int, int, str, str, str]]:
    """(row, col, side, its edge, the neighbour's edge) for each shared edge that does
    not match, 1-based, right of or below the cell."""
    found = []
    for r in range(instance.rows):
        for c in range(instance.cols):
            _, right, bottom, _ = shown[r][c]
            if c + 1 < instance.cols and not matches(instance.style, right, shown[r][c + 1][3]):
                found.append((r + 1, c + 1, "right", right, shown[r][c + 1][3]))
            if r + 1 < instance.rows and not matches(instance.style, bottom, shown[r + 1][c][0]):
                found.append((r + 1, c + 1, "bottom", bottom, shown[r + 1][c][0]))
    return found


def _frame_problems(
    instance: TilesInstance, shown: Sequence[Sequence[tuple[str, str, str, str]]]
) -> list[str]:
    """Grey edges that are not on the border, and border sides that are not grey."""
    problems = []
    for r in range(instance.rows):
        for c in range(instance.cols):
            border = border_sides(instance, r + 1, c + 1)
            for side, (edge, outside) in enumerate(zip(shown[r][c], border, strict=True)):
                if (edge == FRAME) != outside:
                    where = "on the border" if outside else "inside"
                    problems.append(f"({r + 1},{c + 1}) {SIDES[side]} is {edge} {where}")
    return problems


def _fix_problems(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]]
) -> list[str]:
    """Fixed pieces not on their cell, or not showing the picture of their fixed turn."""
    problems = []
    for fix in instance.fixed:
        tile_id, turns = placement[fix.row - 1][fix.col - 1]
        tile = instance.tiles[fix.tile - 1]
        if tile_id != fix.tile or rotate(tile, turns) != rotate(tile, fix.turns):
            problems.append(
                f"({fix.row},{fix.col}) holds {tile_id}/{turns}, fixed as {fix.tile}/{fix.turns}"
            )
    return problems


def _inventory_problems(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]]
) -> list[str]:
    """Tile ids that are repeated, unknown or missing: every tile must be placed once."""
    used = Counter(tile_id for row in placement for tile_id, _ in row)
    problems = [f"tile {t} is used {n} times" for t, n in sorted(used.items()) if n > 1]
    unknown = sorted(t for t in used if not 1 <= t <= len(instance.tiles))
    if unknown:
        problems.append(f"no tile has id {unknown[0]} (ids are 1-{len(instance.tiles)})")
    missing = set(range(1, len(instance.tiles) + 1)) - set(used)
    if missing:
        problems.append(f"tiles {sorted(missing)} are not placed")
    return problems

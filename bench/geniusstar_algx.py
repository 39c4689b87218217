"""Knuth's Algorithm X (dict-of-sets form) for one Genius Star roll: the baseline.

Columns are the free cells and the 11 piece slots (the blue triiamond has two slots);
rows are the placements that avoid the blockers. It stops at the first exact cover.
"""

from __future__ import annotations

from aspuzzles.puzzles.geniusstar import BLUE, PIECES, piece_placements


def first_tiling(blocked: tuple[int, ...]) -> dict[tuple[str, int], frozenset[int]] | None:
    blocked_set = set(blocked)
    rows: dict[tuple[str, int], list[object]] = {}
    for shape, _, count in PIECES:
        for index, cells in enumerate(piece_placements()[shape.name]):
            if cells & blocked_set:
                continue
            for slot in range(count):
                name = f"{shape.name}{'ab'[slot]}" if shape.name == BLUE else shape.name
                rows[name, index] = [name, *sorted(cells)]
    columns: dict[object, set[tuple[str, int]]] = {}
    for row, items in rows.items():
        for item in items:
            columns.setdefault(item, set()).add(row)
    free = set(range(1, 49)) - blocked_set
    if not free <= set(columns):
        return None
    found = _search(columns, rows, [])
    return None if found is None else {row: frozenset(rows[row][1:]) for row in found}


def _search(columns, rows, partial):
    if not columns:
        return list(partial)
    column = min(columns, key=lambda c: len(columns[c]))
    for row in list(columns[column]):
        partial.append(row)
        removed = _select(columns, rows, row)
        found = _search(columns, rows, partial)
        if found is not None:
            return found
        _deselect(columns, rows, row, removed)
        partial.pop()
    return None


def _select(columns, rows, row):
    removed = []
    for item in rows[row]:
        for other in columns[item]:
            for other_item in rows[other]:
                if other_item != item:
                    columns[other_item].remove(other)
        removed.append(columns.pop(item))
    return removed


def _deselect(columns, rows, row, removed):
    for item in reversed(rows[row]):
        columns[item] = removed.pop()
        for other in columns[item]:
            for other_item in rows[other]:
                if other_item != item:
                    columns[other_item].add(other)

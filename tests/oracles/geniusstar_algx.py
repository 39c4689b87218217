"""Knuth's Algorithm X (dict-of-sets form) for dice tilings: the benchmark baseline.

Columns are the free cells and the piece slots (a twin piece has one slot per copy);
rows are the placements that avoid the blockers. ``first_tiling`` stops at the first
exact cover; ``count_tilings`` counts them all (twins counted once per swap).
"""

from __future__ import annotations

from collections.abc import Iterator

from aspuzzles.kit.dice import DiceTiling
from aspuzzles.puzzles.geniusstar import PUZZLE as STAR


def first_tiling(
    blocked: tuple[int, ...], puzzle: DiceTiling = STAR
) -> list[tuple[str, int]] | None:
    return next(exact_covers(blocked, puzzle), None)


def count_tilings(blocked: tuple[int, ...], puzzle: DiceTiling) -> int:
    return sum(1 for _ in exact_covers(blocked, puzzle))


def exact_covers(blocked: tuple[int, ...], puzzle: DiceTiling) -> Iterator[list[tuple[str, int]]]:
    blocked_set = set(blocked)
    rows: dict[tuple[str, int], list[object]] = {}
    for shape, _, count in puzzle.pieces:
        for index, cells in enumerate(puzzle.placements[shape.name]):
            if cells & blocked_set:
                continue
            for slot in range(count):
                name = f"{shape.name}{'ab'[slot]}" if count > 1 else shape.name
                rows[name, index] = [name, *sorted(cells)]
    columns: dict[object, set[tuple[str, int]]] = {}
    for row, items in rows.items():
        for item in items:
            columns.setdefault(item, set()).add(row)
    free = set(range(1, len(puzzle.board()) + 1)) - blocked_set
    if not free <= set(columns):
        return
    yield from _search(columns, rows, [])


def _search(columns, rows, partial):
    if not columns:
        yield list(partial)
        return
    column = min(columns, key=lambda c: len(columns[c]))
    for row in list(columns[column]):
        partial.append(row)
        removed = _select(columns, rows, row)
        yield from _search(columns, rows, partial)
        _deselect(columns, rows, row, removed)
        partial.pop()


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
